"""The rule variants through the real discord.py against the fake Discord: a French Barbu
deal with computers and a Gul Bara game under the `pass` head rule, each chosen at `/x
new`, shown on the lobby and the board in English and German, played by the rules of
the variant, and carried in the exported record."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stored import arrange, board_in, stored_game, stored_state, write_state

from cogs.gulbara import POINT_PLACEHOLDER, step_label
from cogs.table.computers import ADD_COMPUTER
from fakediscord import Message, SimUser
from games import GAMES
from games.barbu import BarbuState
from games.gulbara import GulbaraState, from_code, perspective
from games.proof import verify_record
from texts.barbu import card_label

BARBU = GAMES["barbu"]
GULBARA = GAMES["gulbara"]
FRENCH_ORDER = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu", "trumps", "domino")


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """Seeds whose first Barbu deal Alice (seat 0) declares (any seed suits Gul Bara)."""
    return (seed for seed in itertools.count(1000) if BARBU.new_game(seed=seed).declarer == 0)


def options_field(lobby: Message) -> str | None:
    """The lobby's options line (None when the table has only default options)."""
    fields = lobby.embeds[0].get("fields") or []
    names = {"Options", "Optionen"}
    return next((field["value"] for field in fields if field["name"] in names), None)


def footer_lines(board: Message) -> list[str]:
    return board.embeds[0]["footer"]["text"].split("\n")


def labels(message: Message) -> list[str]:
    return [button.label or "" for button in message.buttons()]


def stored_options(database_path: Path) -> dict[str, Any]:
    return json.loads(stored_game(database_path)["options"])


# ---- French Barbu ----------------------------------------------------------------------


async def play_alices_card(world, board: Message, database_path: Path, step: int) -> None:
    """Alice plays the computer's choice of card, from her DM or the board's hand button."""
    state = stored_state(database_path)
    assert state.current_player == 0 and state.phase == "play", "no doubling, no contract"
    action = BARBU.bot_action(state, seed=step)
    if step % 2 and world.alice.dms[-1].buttons():
        hand = world.alice.dms[-1]
    else:
        hand = (await world.alice.click(board, "My hand")).ephemeral[0]
    assert not any(label.startswith(("Double", "Redouble", "Maximum")) for label in labels(hand))
    await world.alice.click(
        hand, "Pass (no card fits)" if action == "pass" else card_label("en", action)
    )


async def test_a_french_barbu_deal_with_computers_shows_its_options_and_never_doubles(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "barbu new", french=True, series=1, computers=2)
    lobby = opened.message
    assert options_field(lobby) == "French Barbu · 1 series"
    await world.alice.select(lobby, ["hard"], placeholder=ADD_COMPUTER)
    assert stored_game(database_path)["status"] == "active", "the fourth seat starts it"
    assert stored_options(database_path) == {
        "french": True,
        "series": 1,
        "discard_king": False,
        "autoplay": True,
    }
    board = board_in(world.games, database_path)
    options, fairness = footer_lines(board)
    assert options == "French Barbu · 1 series" and fairness.startswith("Fair dice: commitment")

    state = stored_state(database_path)
    assert isinstance(state, BarbuState) and state.french
    description = board.embeds[0]["description"]
    assert "Contract: **No Tricks**" in description and "Doubles" not in description
    assert "No Queens" not in labels(board), "nobody chooses a contract in the French form"
    step = 0
    while stored_state(database_path).deal_number == 0:
        if stored_state(database_path).current_player == 0:
            await play_alices_card(world, board, database_path, step)
            step += 1
        assert step < 20
    [deal] = stored_state(database_path).history
    assert deal["contract"] == "notricks" and deal["doubles"] == []
    assert deal["scores"] == deal["raw"] and sum(deal["raw"]) == -26
    next_deal = stored_state(database_path)
    assert (next_deal.phase, next_deal.contract) == ("play", "noqueens"), "the order goes on"

    # Deal 6 of the series is Trumps: Alice names the suit, and play starts at once.
    board = await arrange(
        world,
        database_path,
        deal_number=5,
        remaining=["trumps", "domino"],
        phase="contract",
        contract=None,
    )
    assert labels(board) == ["Trumps…", "My hand", "Hint", "Resign", "Follow"]
    assert "**Alice** names the trump suit." in board.embeds[0]["description"]
    hand = (await world.alice.click(board, "My hand")).ephemeral[0]
    assert "**Your turn:** name the trump suit." in hand.content
    asked = await world.alice.click(board, "Trumps…")
    await world.alice.click(asked.ephemeral[0], "Hearts")
    state = stored_state(database_path)
    assert (state.phase, state.contract, state.trump) == ("play", "trumps", 1)
    assert state.current_player == 0, "declarer leads at once: nobody was asked to double"
    description = board.embeds[0]["description"]
    assert "Contract: **Trumps (hearts)**" in description and "Doubles" not in description


# ---- Gul Bara, head rule `pass` ----------------------------------------------------------


def early_leavers(state: GulbaraState, seat: int) -> int:
    """Checkers beyond the first that left ``seat``'s start while `pass` still binds them."""
    mine, _theirs = perspective(state.board, state.off, seat)
    freed = mine[0] > 0 or any(mine[1:12])
    return 0 if freed else max(0, 15 - mine[24] - 1)


async def play_step(user: SimUser, board: Message, state: GulbaraState, action: str) -> None:
    """Pick the step's point in the board's menu, then its die if a panel opens."""
    source = int(action.split("/")[0])
    picked = await user.select(board, [str(source)], placeholder=POINT_PLACEHOLDER)
    if picked.ephemeral:
        choice = next(c for c in state.step_choices(source) if c["action"] == action)
        await user.click(picked.ephemeral[0], step_label(action, choice["die"]))


async def test_a_pass_gul_bara_game_with_a_computer_shows_the_rule_and_keeps_it(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "gulbara new", head_rule="pass")).message
    assert options_field(lobby) == "Head rule: pass the corner"
    await world.alice.select(lobby, ["hard"], placeholder=ADD_COMPUTER)
    assert stored_options(database_path)["head_rule"] == "pass"
    board = board_in(world.games, database_path)
    assert footer_lines(board)[0] == "Head rule: pass the corner"

    turns = 0
    while turns < 8 and not (state := stored_state(database_path)).is_over:
        assert isinstance(state, GulbaraState) and state.head_rule == "pass"
        for seat in (0, 1):
            assert early_leavers(state, seat) == 0, state.code()
        if state.current_player == 0:
            await play_step(world.alice, board, state, GULBARA.bot_action(state, seed=turns))
            turns += 1
    asked = await world.alice.click(board, "Resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")
    assert stored_game(database_path)["status"] == "finished"
    record = (await world.bob.slash(world.games, "game export")).message
    text = record.attachments[0].data.decode()
    assert '"head_rule": "pass"' in next(
        line for line in text.splitlines() if line.startswith("options: ")
    )
    assert verify_record(text).startswith("verified: Gul Bara game #1")


# Alice: fourteen on her 24 and the first checker on her 13; the computer has left its start
# (Alice's 12) for her 8. Alice plays 2-1.
CORNER_FREE = "GB1:,,,,,,,-15,,,,,1,,,,,,,,,,,14|0,0|0|2,1|5,5"


@pytest.mark.parametrize(("rule", "menu"), [("pass", ["12"]), ("reach", ["24", "12"])])
async def test_landing_on_12_frees_the_others_only_under_reach(
    fake_discord, start_bot, database_path, rule, menu
):
    world = fake_discord
    await start_bot()
    # Without autoplay the menu shows the single step left instead of playing it.
    await world.alice.slash(
        world.games, "gulbara new", computer="normal", head_rule=rule, autoplay=False
    )
    position = from_code(CORNER_FREE, head_rule=rule).to_dict() | {"autoplay": False}
    write_state(database_path, position)
    board = (await world.alice.slash(world.games, "game board")).message
    state = stored_state(database_path)
    await play_step(world.alice, board, state, "13/12")
    [points] = [select for select in board.selects() if select.placeholder == POINT_PLACEHOLDER]
    assert points.values == menu
    if rule == "pass":
        refused = await world.alice.slash(world.games, "gulbara move", notation="24/22")
        assert "passed 12 and stands on 11 or lower" in refused.ephemeral[0].content


# ---- German ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "chosen", "german"),
    [
        (
            "barbu new",
            {"french": True, "series": 1, "computers": 2},
            "Französisches Barbu · 1 Ansagerrunde",
        ),
        ("gulbara new", {"head_rule": "pass"}, "Kopfregel: Ecke passieren"),
    ],
)
async def test_a_german_server_reads_the_options_in_german(
    fake_discord, start_bot, database_path, command, chosen, german
):
    world = fake_discord
    world.guild.preferred_locale = "de"
    world.alice.locale = "de"
    await start_bot()
    lobby = (await world.alice.slash(world.games, command, **chosen)).message
    assert options_field(lobby) == german
    assert lobby.embeds[0]["fields"][0]["name"] == "Optionen"
    add = next(select for select in lobby.selects() if select.custom_id.split(":")[3] == "addbot")
    await world.alice.select(lobby, ["normal"], custom_id=add.custom_id)
    board = board_in(world.games, database_path)
    options, fairness = footer_lines(board)
    assert options == german and fairness.startswith("Faire Würfel")


async def test_the_head_rule_is_offered_as_two_named_choices_in_both_languages(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()
    gulbara = next(c for c in world.commands.listing(None) if c["name"] == "gulbara")
    new = next(option for option in gulbara["options"] if option["name"] == "new")
    head_rule = next(option for option in new["options"] if option["name"] == "head_rule")
    assert [
        (c["name"], c["value"], c["name_localizations"]["de"]) for c in head_rule["choices"]
    ] == [
        ("reach the quarter", "reach", "Viertel erreichen"),
        ("pass the corner", "pass", "Ecke passieren"),
    ]
    refused = await world.alice.forged_slash(world.games, "gulbara new", head_rule="later")
    assert "must be one of the offered choices" in refused.ephemeral[0].content
    assert not world.games.public_messages(), "nothing was opened"
