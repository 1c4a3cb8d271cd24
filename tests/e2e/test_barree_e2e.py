"""Barree through the real discord.py against the fake Discord: a whole round by clicks
against two computers, the walk and sending menus, round summaries, a restart between
the roll and the walk, and the bad input particular to Barree."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path

from stored import arrange, logged_actions, stored_game, stored_state
from testdb import both_engines

from cogs.barree import BEST_TARGETS, SELECT_OPTIONS, walk_targets, walks_to
from fakediscord import Message, Result, SimUser
from fakediscord.content import SelectInfo
from games import GAMES
from games.barree import KEEP, walk_options

BARREE = GAMES["barree"]


def menu_values(menu: Message) -> list[str]:
    return [value for select in menu.selects() for value in select.values]


def target_fields(menu: Message) -> list[int]:
    """The numbered end fields of a walk menu, in the order of their numbers: the
    buttons', then those of the menu of the other fields."""
    buttons = [
        int(button.custom_id.rpartition(":")[2])
        for button in menu.buttons()
        if ":walk_to:" in button.custom_id
    ]
    return buttons + [int(value) for value in field_menu_values(menu)]


def field_menu(menu: Message) -> SelectInfo | None:
    return next((select for select in menu.selects() if ":walk_to:" in select.custom_id), None)


def field_menu_values(menu: Message) -> list[str]:
    select = field_menu(menu)
    return [] if select is None else select.values


def offered_walks(state) -> list[str]:
    """Every walk the walk menu offers, field by numbered field."""
    options = walk_options(state)
    return [walk.action for end in walk_targets(options) for walk in walks_to(options, end)]


def button_ending(menu: Message, suffix: str) -> str | None:
    return next((b.custom_id for b in menu.buttons() if b.custom_id.endswith(suffix)), None)


async def choose(user: SimUser, menu: Message, action: str) -> Result:
    """Pick ``action`` in a private walk menu (its end field's number, then the walk if
    several end there) or sending menu."""
    if action == KEEP:
        return await user.click(menu, "Keep them there")
    if action.startswith("send:"):
        for select in menu.selects():
            if action in select.values:
                return await user.select(menu, [action], custom_id=select.custom_id)
        raise AssertionError(f"{action} is not offered: {menu_values(menu)}")
    end = action.rpartition("-")[2]
    result = await pick_field(user, menu, int(end))
    walk = button_ending(menu, f":walk:{action}")
    if walk is None:
        return result
    return await user.click(menu, custom_id=walk)


async def pick_field(user: SimUser, menu: Message, end: int) -> Result:
    """Tap the numbered field ``end`` in a walk menu: its button, or its entry in the menu
    of the other fields."""
    target = button_ending(menu, f":walk_to:{end}")
    if target is not None:
        return await user.click(menu, custom_id=target)
    select = field_menu(menu)
    assert select is not None and str(end) in select.values, (
        f"field {end} is not numbered: {target_fields(menu)}"
    )
    return await user.select(menu, [str(end)], custom_id=select.custom_id)


async def roll(user: SimUser, board: Message, database_path: Path) -> Message | None:
    """Click Roll; the private walk menu that follows, if the roll left a walk to choose."""
    result = await user.click(board, "Roll")
    state = stored_state(database_path)
    if state.phase == "move" and state.current_player is not None:
        assert len(result.ephemeral) == 1, "the roll opens one private walk menu"
        return result.ephemeral[0]
    assert result.ephemeral == [], "a bar or a trapped piece needs no menu"
    return None


async def open_table(world, start_bot, **options: object) -> Message:
    """Alice opens a table with ``options`` (e.g. computers=2) and starts it."""
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", **options)).message
    started = await world.alice.click(lobby, "Start")
    return started.message


async def alice_and_bob(world, start_bot) -> Message:
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new")).message
    await world.bob.click(lobby, "Join")
    return (await world.alice.click(lobby, "Start")).message


async def alice_with_bob_and_a_computer(world, start_bot) -> Message:
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computers=1)).message
    await world.bob.click(lobby, "Join")
    return (await world.alice.click(lobby, "Start")).message


async def roll_until_a_walk(world, board: Message, database_path: Path) -> tuple[SimUser, Message]:
    """Roll for whoever must until a roll leaves a walk to choose; that player and his menu."""
    seats = {0: world.alice, 2: world.bob}
    for _ in range(20):
        state = stored_state(database_path)
        assert state.current_player in seats, "the computer answers at once"
        player = seats[state.current_player]
        menu = await roll(player, board, database_path)
        if menu is not None:
            return player, menu
    raise AssertionError("twenty rolls without a walk")


async def test_one_player_and_two_computers_play_a_whole_round_by_clicks(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    # The test bot's first seed deals a round in which Alice walks and sends several times.
    lobby = (await world.alice.slash(world.games, "barree new", computers=2)).message
    board = (await world.alice.click(lobby, "Start")).message
    assert [seat["name"] for seat in json.loads(stored_game(database_path)["seats"])] == [
        "Alice",
        "AdaBot",
        "MaxBot",
    ]
    menu: Message | None = None
    decisions = 0
    phases: Counter[str] = Counter()
    while not (state := stored_state(database_path)).is_over:
        assert state.current_player == 0, "the computers play at once"
        phases[state.phase] += 1
        picture = board.attachments[0].data
        if state.phase == "roll":
            if phases["roll"] > 1:
                told = board.content.splitlines()
                assert any(line.startswith("🤖 AdaBot rolls") for line in told), told
                assert any(line.startswith("🤖 MaxBot rolls") for line in told), told
            menu = await roll(world.alice, board, database_path)
        else:
            assert menu is not None
            action = BARREE.bot_action(state, seed=decisions)
            if state.phase == "move":
                targets = walk_targets(walk_options(state))
                assert target_fields(menu) == targets, "the end fields, numbered best first"
                assert menu.image().size[0] < 856, "on a picture smaller than the board's"
                if action not in offered_walks(state):
                    action = offered_walks(state)[0]
            else:
                assert menu.selects()[0].placeholder.startswith("Send "), "the menu became sendings"
            result = await choose(world.alice, menu, action)
            assert result.message is menu and menu.content.startswith("✅ You ")
        assert board.attachments[0].data != picture, "the board is redrawn after every move"
        decisions += 1
        assert decisions < 150

    assert phases["move"] >= 5 and phases["drive"] >= 2, "the deal needs walks and sendings"
    assert board.buttons() == [], "a finished board takes no more clicks"
    assert "minus point" in board.embeds[0]["description"]
    announcement = world.games.public_messages()[-1]
    assert announcement.content.startswith("🏁 Barree game #")
    assert "Minus points: Alice" in announcement.content
    assert stored_game(database_path)["status"] == "finished"


async def test_landing_on_a_computer_offers_its_sendings_and_sends_it(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    board = await arrange(
        world,
        database_path,
        current=0,
        phase="move",
        die=1,
        blockade=8,
        pieces=[33, 34],
        cards=[[11, 12, 25, 34, 51, 62, 86], [13, 14, 15, 16, 17, 18, 19]],
    )
    menu = (await world.alice.click(board, "Choose a walk (1)")).ephemeral[0]
    landing = "33-34"
    assert target_fields(menu)[0] == 34, "discarding 34 comes first"
    assert menu.buttons()[0].label == "1 · field 34" and menu.buttons()[0].emoji == "⚔️"

    await choose(world.alice, menu, landing)

    assert "You landed on **AdaBot**" in menu.content
    sendings = menu.selects()[0]
    assert sendings.values == ["send:1:11", "send:1:12", "send:1:25", "send:1:51", "send:1:62"]
    assert "Keep" in [button.label for button in board.buttons()], "the board offers Keep too"
    logged = len(logged_actions(database_path))
    await choose(world.alice, menu, "send:1:62")
    assert menu.content == "✅ You played card 62 and sent AdaBot to 62."
    assert logged_actions(database_path)[logged] == "send:1:62"
    assert 62 not in stored_state(database_path).cards[0]


async def test_keep_on_the_board_leaves_the_piece(fake_discord, start_bot, database_path):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    board = await arrange(
        world,
        database_path,
        current=0,
        phase="move",
        die=1,
        blockade=8,
        pieces=[33, 34],
        cards=[[11, 12, 16, 34], [81, 82, 83, 84, 85, 86]],
    )
    menu = (await world.alice.click(board, "Choose a walk (1)")).ephemeral[0]
    await choose(world.alice, menu, "33-34")
    assert stored_state(database_path).phase == "drive"
    logged = len(logged_actions(database_path))

    await world.alice.click(board, "Keep")

    assert logged_actions(database_path)[logged] == "keep"
    assert stored_state(database_path).cards[0] == [11, 12, 16], "keeping costs no card"


LAST_STEP_TO_FINISH = {
    "starter": 0,
    "current": 0,
    "phase": "move",
    "die": 1,
    "blockade": 8,
    "pieces": [33, 55, 66],
    "revealed": True,
    "cards": [[34], [81, 82, 83], [84, 85]],
    "hidden": [[], [], []],
}


async def test_rounds_of_a_match_are_summarised_in_the_channel_and_at_the_end(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await open_table(world, start_bot, computers=2, rounds=2)
    game = stored_game(database_path)["id"]
    board = await arrange(world, database_path, **LAST_STEP_TO_FINISH)
    menu = (await world.alice.click(board, "Choose a walk (1)")).ephemeral[0]

    await choose(world.alice, menu, "33-34")

    summaries = [m.content for m in world.games.public_messages() if m.content.startswith("📋")]
    assert summaries == [
        f"📋 Barree game #{game}: round 1 of 2 is over. "
        "Minus points this round: Alice 0, AdaBot 3, MaxBot 2. "
        "Totals so far: Alice 0, AdaBot 3, MaxBot 2."
    ]
    state = stored_state(database_path)
    assert state.round_no == 2 and not state.is_over
    assert "Round 2 of 2" in board.embeds[0]["description"]

    board = await arrange(world, database_path, **LAST_STEP_TO_FINISH)
    menu = (await world.alice.click(board, "Choose a walk (1)")).ephemeral[0]
    await choose(world.alice, menu, "33-34")

    assert stored_state(database_path).is_over
    messages = [m.content for m in world.games.public_messages()]
    assert len([text for text in messages if text.startswith("📋")]) == 1, "the end says it all"
    assert messages[-1].startswith(
        f"🏁 Barree game #{game}: **Alice wins with 0 minus points**.\n"
        "Round 1: Alice 0, AdaBot 3, MaxBot 2\n"
        "Round 2: Alice 0, AdaBot 3, MaxBot 2\n"
        "Minus points: Alice 0, AdaBot 6, MaxBot 4."
    )


async def test_a_restart_between_roll_and_walk_keeps_the_menu_working(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await open_table(world, start_bot, computers=1)
    menu = None
    while menu is None:
        menu = await roll(world.alice, board, database_path)
    before = stored_state(database_path)

    await start_bot()

    assert stored_state(database_path).to_dict() == before.to_dict()
    again = (await world.alice.click(board, f"Choose a walk ({before.die})")).ephemeral[0]
    assert target_fields(again) == target_fields(menu), "the old board opens the same menu"
    action = offered_walks(before)[-1]
    logged = len(logged_actions(database_path))
    await choose(world.alice, menu, action)
    assert logged_actions(database_path)[logged] == action, "the menu from before the restart"


@both_engines()
async def test_a_restart_before_the_sending_keeps_the_board_working(
    fake_discord, start_bot, database
):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    board = await arrange(
        world,
        database,
        current=0,
        phase="move",
        die=1,
        blockade=8,
        pieces=[33, 34],
        cards=[[11, 12, 16, 21, 34], [81, 82, 83, 84, 85, 86]],
    )
    walk_menu = (await world.alice.click(board, "Choose a walk (1)")).ephemeral[0]
    await choose(world.alice, walk_menu, "33-34")

    await start_bot()

    menu = (await world.alice.click(board, "Send away…")).ephemeral[0]
    assert menu_values(menu) == ["send:1:11", "send:1:12", "send:1:16", "send:1:21"]
    logged = len(logged_actions(database))
    await choose(world.alice, menu, "send:1:16")
    assert logged_actions(database)[logged] == "send:1:16"
    assert stored_state(database).cards[0] == [11, 12, 21]


async def test_someone_else_clicking_roll_is_refused_and_nothing_changes(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await alice_with_bob_and_a_computer(world, start_bot)
    state = stored_state(database_path)
    waiting = world.bob if state.current_player == 0 else world.alice
    version = stored_game(database_path)["version"]

    out_of_turn = await waiting.click(board, "Roll")
    stranger = await world.carol.click(board, "Roll")
    typed = await waiting.slash(world.games, "barree move", notation="roll")

    assert out_of_turn.ephemeral[0].content.startswith("It is not your turn")
    assert stranger.ephemeral[0].content == "You are not playing in this game."
    assert typed.message.content.startswith("It is not your turn")
    assert stored_game(database_path)["version"] == version


async def test_a_walk_from_an_outdated_menu_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await alice_with_bob_and_a_computer(world, start_bot)
    player, menu = await roll_until_a_walk(world, board, database_path)
    state = stored_state(database_path)
    second_menu = (await player.click(board, f"Choose a walk ({state.die})")).ephemeral[0]
    first, *others = offered_walks(state)
    await choose(player, menu, first)
    after = stored_state(database_path)

    refused = await choose(player, second_menu, others[-1] if others else first)

    assert "outdated" in refused.ephemeral[-1].content
    assert stored_state(database_path).to_dict() == after.to_dict()


async def test_two_racing_walks_apply_only_once(fake_discord, start_bot, database_path):
    world = fake_discord
    await alice_and_bob(world, start_bot)
    board = await arrange(
        world, database_path, current=0, phase="move", die=2, blockade=8, pieces=[33, 11]
    )
    menu = (await world.alice.click(board, "Choose a walk (2)")).ephemeral[0]
    options = walk_options(stored_state(database_path))
    single = [walks_to(options, end) for end in target_fields(menu)]
    first, second = [walks[0].action for walks in single if len(walks) == 1][:2]
    version = stored_game(database_path)["version"]

    results = await asyncio.gather(
        choose(world.alice, menu, first), choose(world.alice, menu, second)
    )

    assert stored_game(database_path)["version"] == version + 1
    assert logged_actions(database_path)[-1] in (first, second)
    replies = [message.content for result in results for message in result.ephemeral]
    assert any("outdated" in reply for reply in replies)


async def test_illegal_text_moves_are_explained_and_a_legal_one_plays(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await alice_and_bob(world, start_bot)
    board = await arrange(
        world, database_path, current=0, phase="roll", die=None, blockade=8, pieces=[33, 11]
    )
    cases = {"33-34": "Roll the die first", "keep": "Roll the die first"}
    for notation, explanation in cases.items():
        result = await world.alice.slash(world.games, "barree move", notation=notation)
        assert explanation in result.message.content, notation
    board = await arrange(world, database_path, phase="move", die=2)
    cases = {
        "hello": "is not a walk",
        "33-34": "walk exactly 2 steps",
        "34-35-36": "Your piece stands on 33",
        "33-44-45": "No line joins",
        "33-99-33": "no field 99",
    }
    for notation, explanation in cases.items():
        result = await world.alice.slash(world.games, "barree move", notation=notation)
        assert explanation in result.message.content, notation
    state = stored_state(database_path)

    played = await world.alice.slash(world.games, "barree move", notation="33-34-35")

    assert played.message.content == "✅ You walked 33-34-35."
    assert stored_state(database_path).to_dict() == state.apply("33-34-35").to_dict()
    assert board.versions, "the board was redrawn"


async def test_a_typed_roll_brings_the_walk_menu(fake_discord, start_bot, database_path):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    for _ in range(20):
        await arrange(
            world, database_path, current=0, phase="roll", die=None, blockade=8, pieces=[33, 11]
        )
        result = await world.alice.slash(world.games, "barree move", notation="roll")
        if stored_state(database_path).phase == "move":
            break
    die = stored_state(database_path).die
    assert result.message.content == f"✅ You rolled {die}: choose a walk."
    assert [target_fields(message) != [] for message in result.followups] == [True]


async def test_rules_and_a_lobby_for_four(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    rules = await world.alice.slash(world.games, "barree rules")
    assert rules.message.is_ephemeral and "blockade" in rules.message.embeds[0]["description"]
    assert "docs/rules/barree.md" in rules.message.embeds[0]["description"]
    opened = await world.alice.slash(world.games, "barree new", computers=3, rounds=3)
    assert opened.message.image().size[0] >= 800, "a full table starts at once"
    game = stored_game(database_path)
    assert game["status"] == "active" and json.loads(game["options"]) == {"rounds": 3}


MANY_WALKS = {
    "current": 0,
    "phase": "move",
    "die": 5,
    "blockade": 1,
    "pieces": [34, 11],
    "cards": [[33, 41, 43, 44, 45, 54, 55, 56, 73], [12, 13, 14, 15, 16, 17, 18]],
}


async def test_a_roll_with_hundreds_of_outcomes_numbers_the_best_end_fields(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await alice_and_bob(world, start_bot)
    board = await arrange(world, database_path, **MANY_WALKS)
    outcomes = walk_options(stored_state(database_path))
    ends = len({walk.end for walk in outcomes})

    menu = (await world.alice.click(board, "Choose a walk (5)")).ephemeral[0]

    numbered = BEST_TARGETS + SELECT_OPTIONS
    assert len(outcomes) > 200 and ends > numbered
    assert len(menu.buttons()) == BEST_TARGETS, "one row of buttons: no wall on a phone"
    assert {button.row for button in menu.buttons()} == {0}
    assert len(field_menu_values(menu)) == SELECT_OPTIONS, "the other fields in one menu"
    assert field_menu(menu).placeholder == f"25 more fields: 6–{numbered}…"
    assert target_fields(menu)[0] == outcomes[0].end, "number 1 is the best walk's field"
    assert menu.buttons()[0].label == f"1 · field {outcomes[0].end}"
    sixth = field_menu(menu).options[0]
    assert sixth.label == f"6 · field {target_fields(menu)[5]}"
    assert sixth.description.startswith("Discards "), "each field says what its walk discards"
    assert menu.image().size == (508, 656), "the board alone, small enough for a phone"
    assert f"{ends - numbered} weaker end fields are not numbered" in menu.content
    in_the_menu = target_fields(menu)[BEST_TARGETS:]
    field = next(end for end in in_the_menu if len(walks_to(outcomes, end)) > 1)
    walks = walks_to(outcomes, field)
    taps = 0
    await pick_field(world.alice, menu, field)
    taps += 1
    assert [b.custom_id.partition(":walk:")[2] for b in menu.buttons()] == [
        walk.action for walk in walks
    ], "the second tap chooses among the walks to that field"
    await world.alice.click(menu, custom_id=button_ending(menu, f":walk:{walks[-1].action}"))
    taps += 1
    assert logged_actions(database_path)[-1] == walks[-1].action
    print(f"Barree: a walk among {len(outcomes)} outcomes in {taps} taps")


def test_a_roll_of_five_numbers_at_most_a_message_of_fields_and_offers_the_unbeaten_walks():
    data = BARREE.new_game(players=2, seed=3).to_dict() | MANY_WALKS
    options = walk_options(BARREE.from_dict(data))

    targets = walk_targets(options)

    numbered = BEST_TARGETS + SELECT_OPTIONS
    assert len(targets) == numbered and len(set(targets)) == len(targets)
    firsts = list(dict.fromkeys(walk.end for walk in options))
    assert targets == firsts[:numbered], "fields in the order of their best walk"
    for end in targets:
        offered = walks_to(options, end)
        assert offered == [walk for walk in options if walk in offered], "still best first"
        for walk in (walk for walk in options if walk.end == end and walk not in offered):
            assert any(set(walk.discards) < set(other.discards) for other in offered), (
                "only walks beaten by an offered one to the same field are left out"
            )


async def test_a_fruitless_roll_is_told_on_its_own_line_before_the_computers_turn(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    # Alice stands in the blockaded row: whatever she rolls, her turn ends at once.
    board = await arrange(
        world, database_path, current=0, phase="roll", blockade=3, pieces=[34, 56]
    )
    lines = board.embeds[0]["description"].splitlines()
    assert "**Alice to roll · trapped**" in lines
    assert "🔒 Alice is trapped in the blockade: only a bar frees the piece." in lines

    await roll(world.alice, board, database_path)

    lines = board.content.splitlines()
    assert lines[0].startswith("👤 Alice rolls "), lines
    assert "trapped" in lines[0] or "blockade moves" in lines[0], "what came of her roll"
    assert lines[1].startswith("🤖 AdaBot rolls "), "then the computer's turn"
    assert all(line.count(" rolls ") == 1 for line in lines), "never two turns in one line"
    assert stored_state(database_path).current_player == 0, "the turn came back to Alice"


async def test_a_typed_sending_names_the_player_as_the_board_numbers_him(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    await arrange(
        world,
        database_path,
        current=0,
        phase="move",
        die=1,
        blockade=8,
        pieces=[33, 34],
        cards=[[11, 12, 25, 34, 51, 62, 86], [13, 14, 15, 16, 17, 18, 19]],
    )
    await world.alice.slash(world.games, "barree move", notation="33-34")
    version = stored_game(database_path)["version"]
    for typed in ("send:0:62", "send:3:62", "send:two:62"):
        refused = await world.alice.slash(world.games, "barree move", notation=typed)
        assert refused.message.content.startswith("Write a sending as send:<player>:<field>")
    assert stored_game(database_path)["version"] == version, "a refused sending changes nothing"

    logged = len(logged_actions(database_path))
    await world.alice.slash(world.games, "barree move", notation="send:2:62")

    assert logged_actions(database_path)[logged] == "send:1:62", "player 2 on the board is seat 1"
    assert 62 not in stored_state(database_path).cards[0], "Alice played her card 62"


async def test_a_typed_roll_says_what_came_of_it(fake_discord, start_bot, database_path):
    """Alice stands in the blockaded row: a typed roll tells her the bar moved the
    blockade, or that her piece stays trapped, never just "You played roll"."""
    world = fake_discord
    await open_table(world, start_bot, computers=1)
    trapped = re.compile(
        r"✅ You rolled [1-5], but your piece is trapped in the blockade: only a bar frees it\."
        r" The turn passes\."
    )
    bar = re.compile(r"✅ You rolled the bar: the blockade moves to row [1-8]\.")
    seen = {"trapped": 0, "bar": 0}
    for _ in range(40):
        await arrange(
            world, database_path, current=0, phase="roll", die=None, blockade=3, pieces=[34, 56]
        )
        answer = (await world.alice.slash(world.games, "barree move", notation="roll")).message
        kind = "bar" if bar.fullmatch(answer.content) else "trapped"
        assert kind == "bar" or trapped.fullmatch(answer.content), answer.content
        seen[kind] += 1
        if all(seen.values()):
            break
    assert all(seen.values()), seen
