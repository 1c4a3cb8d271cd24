"""Barbu through the real discord.py against the fake Discord: a whole deal against three
computers by DM and by the "My hand" button, a doubling round of four humans, a restart
with hands in DMs, closed DMs, and no hidden card ever reaching the channel."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from stored import (
    arrange,
    board_in,
    logged_actions,
    logged_moves,
    stored_game,
    stored_state,
)
from testdb import both_engines

from fakediscord import Message, Result, SimUser
from games import GAMES, GameState
from games.barbu import RANK_NAMES, RANK_PLURALS, RANKS, SUIT_NAMES, SUITS
from render.barbu import (
    HAND_HEIGHT,
    HAND_WIDTH,
    SHEET_WIDTH,
    TABLE_HEIGHT,
    TABLE_WIDTH,
    render_barbu_scores,
    render_barbu_table,
)
from texts.barbu import card_label

BARBU = GAMES["barbu"]
CONTRACT_TOTALS = {"notricks": -26, "noqueens": -24, "nolasttwo": -30, "nohearts": -30}
CONTRACT_TOTALS |= {"barbu": -20, "trumps": 65, "domino": 65}
SUIT_SYMBOLS = dict(zip("♠♥♣♦", SUITS, strict=True))
CARD_PATTERNS = (
    re.compile(r"\b([2-9TJQKA])([SHCD])\b"),
    re.compile(r"(10|[2-9JQKA])([♠♥♣♦])"),
    re.compile(rf"\b({'|'.join(RANK_NAMES)}) of (spades|hearts|clubs|diamonds)\b", re.I),
)


def seeds_where(wanted: Callable[[GameState], bool]) -> Iterator[int]:
    """The seeds from 1000 on whose first deal Alice (seat 0) declares and ``wanted``
    holds for the start."""
    for seed in itertools.count(1000):
        start = BARBU.new_game(seed=seed)
        if start.declarer == 0 and wanted(start):
            yield seed


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """Seeds whose first deal Alice declares, as every test here expects."""
    return seeds_where(lambda start: True)


def holds_no_seven(start: GameState) -> bool:
    return not any(card.startswith("7") for card in start.view(0)["hand"])


def seat_names(database_path: Path) -> list[str]:
    return [seat["name"] for seat in json.loads(stored_game(database_path)["seats"])]


def latest_hand_dm(user: SimUser) -> Message:
    return user.dms[-1]


def button_labels(message: Message) -> list[str]:
    return [button.label or "" for button in message.buttons()]


async def choose_contract(user: SimUser, board: Message, action: str) -> Result:
    """Click the contract on the board, then its suit or starting rank if it has one."""
    name, _, detail = action.partition(":")
    titles = {"notricks": "No Tricks", "noqueens": "No Queens", "nolasttwo": "No Last Two"}
    titles |= {"nohearts": "No Hearts", "barbu": "Barbu", "trumps": "Trumps…"}
    result = await user.click(board, titles.get(name, "Domino…"))
    if not detail:
        return result
    assert len(result.ephemeral) == 1, "the suit or rank is asked privately"
    if name == "trumps":
        label = SUIT_NAMES[SUITS.index(detail)].capitalize()
    else:
        label = RANK_PLURALS[RANKS.index(detail)].capitalize()
    return await user.click(result.ephemeral[0], label)


async def decide_doubles(user: SimUser, panel: Message, action: str, names: list[str]) -> Result:
    """Toggle the seats of ``action`` on the panel, then Confirm."""
    if action == "pass":
        return await user.click(panel, "Pass")
    for seat in map(int, action.removeprefix("double:").split(",")):
        toggle = next(label for label in button_labels(panel) if label.endswith(names[seat]))
        await user.click(panel, toggle)
    confirm = next(label for label in button_labels(panel) if label.startswith("Confirm"))
    return await user.click(panel, confirm)


async def play_card(user: SimUser, message: Message, action: str) -> Result:
    """Press ``action``'s card button in a hand message (or Pass in Domino)."""
    if action == "pass":
        return await user.click(message, "Pass (no card fits)")
    return await user.click(message, card_label("en", action))


TURN_MARKS = ("🤖", "👤")


class PublicWatch:
    """Checks every public message of the channel, and every version of it, as they come.

    A picture must be exactly the table or the score sheet drawn from the public view of
    some state the game went through; a text (content, embeds) must not name a card that
    is still in someone's hand at the moment it is first seen.
    """

    def __init__(self, world, database_path: Path) -> None:
        self.channel = world.games
        self.database_path = database_path
        self.seen: dict[int, int] = {}
        self.images: list[bytes] = []

    def check(self) -> None:
        state = stored_state(self.database_path)
        held = {card for seat in range(4) for card in state.view(seat)["hand"]}
        for message in self.channel.public_messages():
            versions = [*message.versions, message]
            for version in versions[self.seen.get(message.id, 0) :]:
                lines = version.content.splitlines()
                # A turn's line (a computer's or a person's) names the one card just laid.
                for line in (line for line in lines if line.startswith(TURN_MARKS)):
                    assert len(mentioned_cards(line)) <= 1, line
                said = [line for line in lines if not line.startswith(TURN_MARKS)]
                text = "\n".join(said) + json.dumps(version.embeds, ensure_ascii=False)
                leaked = mentioned_cards(text) & held
                assert not leaked, f"public message {message.id} names held cards {leaked}"
                self.images.extend(a.data for a in version.attachments)
            self.seen[message.id] = len(versions)

    def check_images(self) -> None:
        """Every public picture is a public view of a state replayed from the log."""
        self.check()
        names = seat_names(self.database_path)
        row = stored_game(self.database_path)
        state = BARBU.new_game(players=4, seed=row["seed"], **json.loads(row["options"]))
        allowed = {render_barbu_table(state.view(None), names)}
        for action in logged_actions(self.database_path):
            finished = len(state.history)
            state = state.apply(action)
            allowed.add(render_barbu_table(state.view(None), names))
            if len(state.history) != finished:
                allowed.add(render_barbu_scores(state.view(None), names))
        assert self.images, "the channel shows pictures"
        strangers = [index for index, image in enumerate(self.images) if image not in allowed]
        assert not strangers, f"{len(strangers)} public pictures are not public views"


def mentioned_cards(text: str) -> set[str]:
    cards = set()
    for rank, suit in CARD_PATTERNS[0].findall(text):
        cards.add(rank + suit)
    for rank, symbol in CARD_PATTERNS[1].findall(text):
        cards.add(("T" if rank == "10" else rank) + SUIT_SYMBOLS[symbol])
    for word, suit in CARD_PATTERNS[2].findall(text):
        cards.add(RANKS[RANK_NAMES.index(word.lower())] + suit[0].upper())
    return cards


async def alice_and_three_computers(world, start_bot, **options: object) -> Message:
    await start_bot()
    opened = await world.alice.slash(world.games, "barbu new", series=1, computers=3, **options)
    board = opened.message
    assert board is not None and board.image().size == (TABLE_WIDTH, TABLE_HEIGHT)
    return board


async def decide(
    user: SimUser, seat: int, board: Message, database_path: Path, step: int
) -> tuple[str, Result]:
    """``user``'s next decision as the computer would take it: the contract on the board,
    then alternately from his latest DM and from the board's "My hand" button.

    Returns how it was made ("board", "dm" or "button") and the result."""
    state = stored_state(database_path)
    assert state.current_player == seat, "the computers answer at once"
    action = BARBU.bot_action(state, seed=step)
    if state.phase == "contract":
        return "board", await choose_contract(user, board, action)
    if step % 2 == 0 and user.dms_open:
        route, private = "dm", latest_hand_dm(user)
    else:
        route, private = "button", (await user.click(board, "My hand")).ephemeral[0]
    assert private.image().size == (HAND_WIDTH, HAND_HEIGHT), "the hand comes as a picture"
    trick = state.view(None)["trick"]
    if trick:
        assert card_label("en", trick[-1]["card"]) in private.content, "the hand tells the trick"
    if state.phase == "doubling":
        return route, await decide_doubles(user, private, action, seat_names(database_path))
    return route, await play_card(user, private, action)


async def test_one_player_and_three_computers_play_a_whole_deal_by_dm_and_button(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await alice_and_three_computers(world, start_bot)
    watch = PublicWatch(world, database_path)
    first_hand = latest_hand_dm(world.alice)
    assert "Barbu** game #1 in **Test Server**" in first_hand.content
    assert first_hand.image().size == (HAND_WIDTH, HAND_HEIGHT)
    routes: set[tuple[str, str]] = set()
    step = 0
    cards_clicked = 0
    while (state := stored_state(database_path)).deal_number == 0:
        pictures = len(board.versions)
        route, result = await decide(world.alice, 0, board, database_path, step)
        routes.add((state.phase, route))
        cards_clicked += state.phase == "play"
        if route == "button":
            assert result.message.content.startswith("✅ You "), "the private panel confirms"
        if route == "dm":
            assert result.message is first_hand, "the deal's DM is edited, not sent again"
            assert not result.message.buttons() or stored_state(database_path).current_player == 0
        assert len(board.versions) > pictures, "the board is redrawn after every decision"
        watch.check()
        step += 1
        assert step < 40

    assert {("contract", "board"), ("play", "dm"), ("play", "button")} <= routes
    deal = stored_state(database_path).history[0]
    contract = deal["contract"].partition(":")[0]
    assert sum(deal["raw"]) == CONTRACT_TOTALS[contract], "the deal was played to its end"
    assert sum(deal["scores"]) == sum(deal["raw"]), "doubles only move points"
    summary = board
    assert summary.content.startswith("📋"), "the board the deal ended on becomes its record"
    assert "deal 1 of 7 is over" in summary.content and "Totals: Alice" in summary.content
    assert summary.image().size[0] == SHEET_WIDTH, "the score sheet comes with the deal's scores"
    assert not summary.embeds and not summary.buttons()
    board = board_in(world.games, database_path)
    assert world.games.public_messages()[-2:] == [summary, board], "the board stays below"
    assert "Deal 2 of 7" in board.embeds[0]["description"]
    assert "Your hand · Deal 2 of 7" in world.alice.dms[-1].content, "a new deal, a new hand"
    assert world.alice.dms == [first_hand, world.alice.dms[-1]], "one DM per deal"
    assert not first_hand.buttons(), "the finished deal's hand takes no more clicks"
    assert "Your turn" not in first_hand.content
    assert "**Deal 1 of 7 is over.** Alice's" in first_hand.content
    assert "Your hand for deal 2 is in a new message." in first_hand.content
    alice_cards = [action for seat, action in logged_moves(database_path) if seat == 0][1:14]
    assert len(alice_cards) == 13 and cards_clicked < 13, "her last card played itself"
    watch.check_images()


async def test_the_score_sheet_and_the_rules(fake_discord, start_bot, database_path):
    world = fake_discord
    await alice_and_three_computers(world, start_bot)
    sheet = await world.bob.slash(world.games, "barbu scores")
    assert sheet.message.is_ephemeral and "0 of 7 deals played" in sheet.message.content
    assert sheet.message.image().size[0] == SHEET_WIDTH
    rules = await world.bob.slash(world.games, "barbu rules")
    description = rules.message.embeds[0]["description"]
    assert "No Queens" in description and "double:" in description
    assert "docs/rules/barbu.md" in description, "the rules point at the full rule book"


async def four_humans(world, start_bot) -> Message:
    """Alice opens a one-series table; Bob, Carol and Dave join, which starts it."""
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    for user in (world.bob, world.carol):
        await user.click(lobby, "Join")
    return (await world.dave.click(lobby, "Join")).message


def pings(result: Result) -> list[list[int]]:
    return [message.pinged for message in result.new_messages if message.pinged]


async def test_four_players_complete_a_doubling_round(fake_discord, start_bot, database_path):
    world = fake_discord
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    board = await four_humans(world, start_bot)
    watch = PublicWatch(world, database_path)
    assert stored_state(database_path).declarer == 0, "the seed makes Alice declarer"
    chosen = await alice.click(board, "No Tricks")
    assert pings(chosen) == [[bob.id]], "Bob, first to double, is pinged once"
    assert "**Bob** decides whom to double" in board.embeds[0]["description"]

    panel = (await bob.click(board, "Double or pass…")).ephemeral[0]
    assert button_labels(panel) == [
        "Double Alice",
        "Double Carol",
        "Double Dave",
        "Maximum",
        "Pass",
        "Confirm",
    ]
    assert panel.buttons()[-1].disabled, "confirming nobody would only repeat Pass"
    assert "You owe 2 more doubles of declarer Alice in the 7 deals left of the series." in (
        panel.content
    ), "the panel shows Bob's obligation"
    await bob.click(panel, "Double Alice")
    await bob.click(panel, "Double Carol")
    await bob.click(panel, "Double Carol")
    toggled = {button.label: button.style for button in panel.buttons()}
    assert toggled["Double Alice"] == 3 and toggled["Double Carol"] == 2, "green means doubled"
    bob_done = await bob.click(panel, "Confirm 1 double")
    assert panel.content == "✅ You doubled Alice."
    assert pings(bob_done) == [[carol.id]]

    carol_done = await carol.click(latest_hand_dm(carol), "Maximum")
    assert pings(carol_done) == [[dave.id]]
    dave_done = await dave.click(latest_hand_dm(dave), "Pass")
    assert pings(dave_done) == [[alice.id]]

    alice_panel = latest_hand_dm(alice)
    assert button_labels(alice_panel)[:2] == ["Redouble Bob", "Redouble Carol"]
    await alice.click(alice_panel, "Redouble Carol")
    await alice.click(alice_panel, "Confirm 1 double")

    state = stored_state(database_path)
    assert state.phase == "play" and state.current_player == 0
    assert state.doubles == {(1, 0), (2, 0), (2, 1), (2, 3), (0, 2)}
    assert logged_actions(database_path) == [
        "notricks",
        "double:0",
        "double:0,1,3",
        "pass",
        "double:2",
    ]
    shown = board.embeds[0]["description"]
    for sentence in (
        "Bob doubled Alice",
        "Carol doubled Alice (redoubled)",
        "Carol doubled Bob",
        "Carol doubled Dave",
    ):
        assert sentence in shown
    assert board.attachments[0].data == render_barbu_table(
        state.view(None), seat_names(database_path)
    ), "the table picture shows the doubles"
    lead = latest_hand_dm(alice)
    assert "you lead trick 1" in lead.content, "Alice leads from her DM"
    cards = [card_label("en", card) for card in state.view(0)["legal"]]
    assert button_labels(lead) == cards, "a button per card: one tap"
    watch.check_images()


async def test_a_pass_that_breaks_the_obligation_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    await alice_and_three_computers(world, start_bot)
    board = await arrange(
        world,
        database_path,
        first_declarer=1,
        deal_number=6,
        remaining=[],
        phase="doubling",
        contract="notricks",
        doubling_step=2,
        declarer_doubled=[1, 2, 2, 2],
    )
    version = stored_game(database_path)["version"]
    panel = (await world.alice.click(board, "Double or pass…")).ephemeral[0]
    assert "You owe declarer AdaBot a double in this deal, the last of the series." in (
        panel.content
    )
    refused = await world.alice.click(panel, "Pass")
    assert refused.ephemeral[-1].content.startswith("You must double declarer now")
    assert stored_game(database_path)["version"] == version, "a refused choice changes nothing"
    await world.alice.click(panel, "Double AdaBot")
    await world.alice.click(panel, "Confirm 1 double")
    assert logged_actions(database_path)[0] == "double:1", "doubling declarer is accepted"


@both_engines()
async def test_a_restart_mid_deal_keeps_the_hands_in_dms_working(
    fake_discord, start_bot, database
):
    world = fake_discord
    board = await alice_and_three_computers(world, start_bot)
    step = 0
    while (state := stored_state(database)).phase != "play" or len(state.tricks) < 2:
        await decide(world.alice, 0, board, database, step)
        step += 1
    hand = latest_hand_dm(world.alice)
    card = BARBU.bot_action(state, seed=99)

    await start_bot()

    shown = await world.alice.click(board, "My hand")
    assert shown.ephemeral[0].buttons(), "the old board still answers after the restart"
    dms = len(world.alice.dms)
    result = await play_card(world.alice, hand, card)
    assert result.message is hand
    after = stored_state(database)
    assert card not in after.view(0)["hand"]
    assert card in logged_actions(database)
    assert len(world.alice.dms) == dms and latest_hand_dm(world.alice) is hand, (
        "the restarted bot still edits the deal's one DM"
    )


async def test_closed_dms_get_one_note_and_the_my_hand_button_works(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    erin = world.add_user("erin", guild=world.guild, dms_open=False)
    await start_bot()
    board = (await erin.slash(world.games, "barbu new", series=1, computers=3)).message
    for step in range(8):
        route, _ = await decide(erin, 0, board, database_path, step)
        assert route in ("board", "button")
    notes = [m for m in world.games.public_messages() if "cannot send you direct" in m.content]
    assert len(notes) == 1 and notes[0].pinged == [erin.id]
    assert "**My hand**" in notes[0].content
    erins = [seat for seat, _ in logged_moves(database_path)].count(0)
    assert erins >= 8, "all eight count (with any single legal card that played itself)"
    assert erin.dms == []


async def test_bad_input_is_answered_privately_and_changes_nothing(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    alice, bob = world.alice, world.bob
    await start_bot()
    lobby = (await alice.slash(world.games, "barbu new", series=1, computers=2)).message
    board = (await bob.click(lobby, "Join")).message
    state = stored_state(database_path)
    assert state.current_player == 0 and seat_names(database_path)[3] == "Bob"
    contract_dm = latest_hand_dm(alice)
    contract_panel = (await alice.click(board, "My hand")).ephemeral[0]

    stranger = await world.carol.click(board, "My hand")
    assert stranger.ephemeral[0].content == "You are not playing in this game."
    early = await bob.click(board, "No Tricks")
    assert early.ephemeral[0].content == "It is not your turn: Alice is to act."
    typed_early = await bob.slash(world.games, "barbu move", notation="notricks")
    assert typed_early.message.content.startswith("It is not your turn")
    for move, answer in {
        "hello": "'hello' is not a contract.",
        "trumps:X": "Name the trump suit",
        "domino": "Name the starting rank",
    }.items():
        refused = await alice.slash(world.games, "barbu move", notation=move)
        assert refused.message.content.startswith(answer), move
    assert stored_state(database_path).to_dict() == state.to_dict()

    typed = await alice.slash(world.games, "barbu move", notation="noqueens")
    assert typed.message.content == "✅ You played noqueens."
    assert contract_dm.buttons() == [], "the DM, edited in place, drops the contract buttons"
    outdated = await alice.click(contract_panel, "No Tricks")
    assert outdated.ephemeral[0].content.startswith("This menu is outdated")

    state = stored_state(database_path)
    assert state.current_player == 3, "the computers doubled; Bob decides"
    panel = latest_hand_dm(bob)
    version = stored_game(database_path)["version"]
    racing = await asyncio.gather(bob.click(panel, "Pass"), bob.click(panel, "Pass"))
    assert stored_game(database_path)["version"] == version + 1
    assert logged_moves(database_path).count((3, "pass")) == 1, "Bob's pass counts once"
    replies = [message.content for result in racing for message in result.ephemeral]
    assert any("outdated" in reply for reply in replies)

    if stored_state(database_path).phase == "doubling":
        await alice.slash(world.games, "barbu move", notation="pass")
    state = stored_state(database_path)
    assert state.phase == "play" and state.current_player == 0, "declarer leads"
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    missing = next(card for card in deck if card not in state.view(0)["hand"])
    for move, answer in {"ZZ": "'ZZ' is not a card", missing: "You do not hold the"}.items():
        refused = await alice.slash(world.games, "barbu move", notation=move)
        assert refused.message.content.startswith(answer), move
    assert stored_state(database_path).to_dict() == state.to_dict()


@pytest.mark.parametrize("game_seeds", [seeds_where(holds_no_seven)])
async def test_domino_by_starting_rank_buttons_then_laying_cards(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await alice_and_three_computers(world, start_bot, autoplay=False)
    asked = await world.alice.click(board, "Domino…")
    ranks = asked.ephemeral[0]
    assert button_labels(ranks)[:2] == ["Twos", "Threes"] and len(ranks.buttons()) == 13
    chosen = await world.alice.click(ranks, "Sevens")
    assert ranks.content == "✅ You chose Domino from the sevens."
    assert chosen.message is ranks and logged_actions(database_path)[0] == "domino:7"
    for step in range(1, 9):
        state = stored_state(database_path)
        if state.phase == "play":
            hand = (await world.alice.click(board, "Play a card…")).ephemeral[0]
            assert "Laid so far" in hand.content
        await decide(world.alice, 0, board, database_path, step)
    assert "Domino from the sevens" in board.embeds[0]["description"]
    state = BARBU.new_game(seed=stored_game(database_path)["seed"])
    phases_of_alices_passes = []
    for seat, action in logged_moves(database_path):
        if (seat, action) == (0, "pass"):
            phases_of_alices_passes.append(state.phase)
        state = state.apply(action)
    assert "play" in phases_of_alices_passes, "Alice had to pass once, with the Pass button"


@pytest.mark.parametrize("game_seeds", [seeds_where(holds_no_seven)])
async def test_a_forced_pass_plays_itself_with_autoplay(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await alice_and_three_computers(world, start_bot)
    ranks = (await world.alice.click(board, "Domino…")).ephemeral[0]
    await world.alice.click(ranks, "Sevens")
    step = 1
    while not any(move == (0, "pass") for move in logged_moves(database_path)):
        _, result = await decide(world.alice, 0, board, database_path, step)
        labels = [button.label for message in result.ephemeral for button in message.buttons()]
        assert "Pass (no card fits)" not in labels, "a forced pass is never asked for"
        step += 1
        assert step < 20
    assert stored_state(database_path).autoplay


async def test_the_last_deal_ends_the_game_with_the_result(fake_discord, start_bot, database_path):
    world = fake_discord
    await alice_and_three_computers(world, start_bot)
    board = await arrange(
        world, database_path, deal_number=6, remaining=["notricks"], declarer_doubled=[0, 2, 2, 2]
    )
    assert button_labels(board) == ["No Tricks", "My hand", "Resign", "Follow"], (
        "one contract is left"
    )
    step = 0
    while not stored_state(database_path).is_over:
        await decide(world.alice, 0, board, database_path, step)
        step += 1
        assert step < 30

    assert stored_game(database_path)["status"] == "finished"
    summary, board = board, board_in(world.games, database_path)
    assert board.buttons() == [], "a finished board takes no more clicks"
    totals = stored_state(database_path).totals
    names = seat_names(database_path)
    winners = [names[seat] for seat, total in enumerate(totals) if total == max(totals)]
    verb = "wins" if len(winners) == 1 else "win"
    expected = f"{' and '.join(f'**{name}**' for name in winners)} {verb} with "
    assert expected in board.embeds[0]["description"]
    # The last deal's record, the final board, then the result.
    assert world.games.public_messages()[-3:-1] == [summary, board]
    result = world.games.public_messages()[-1]
    assert result.content.startswith(f"🏁 Barbu game #1: {expected}")
    last_hand = world.alice.dms[-1]
    assert not last_hand.buttons(), "the game's last hand takes no more clicks"
    assert "**Deal 7 of 7 is over.** Alice's No Tricks" in last_hand.content
    assert "The game has ended; the channel says how." in last_hand.content
    assert summary.content.startswith("📋 Barbu game #1: deal 7 of 7 is over. Alice's No Tricks")
    assert summary.image().size[0] == SHEET_WIDTH, "the final score sheet"


async def test_typed_doubles_name_players_as_the_picture_numbers_them(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await alice_and_three_computers(world, start_bot)
    await arrange(
        world,
        database_path,
        first_declarer=1,
        deal_number=6,
        remaining=[],
        phase="doubling",
        contract="notricks",
        doubling_step=2,
        declarer_doubled=[1, 2, 2, 2],
    )
    version = stored_game(database_path)["version"]
    for typed, answer in (
        ("double:0", "Write doubles as double:2,4 with the player numbers the table picture"),
        ("double:5", "Write doubles as double:2,4 with the player numbers the table picture"),
        ("double:1", "You cannot double player 1."),
    ):
        refused = await world.alice.slash(world.games, "barbu move", notation=typed)
        assert refused.message.content.startswith(answer), refused.message.content
    assert stored_game(database_path)["version"] == version, "a refused double changes nothing"

    played = await world.alice.slash(world.games, "barbu move", notation="double:2")

    assert played.message.content == "✅ You played double:2."
    assert logged_actions(database_path)[0] == "double:1", "player 2 on the picture is seat 1"


async def press(user: SimUser, message: Message, verb: str) -> Result:
    """Press the button whose target is ``verb``, whatever the language of its label."""
    button = next(b for b in message.buttons() if (b.custom_id or "").split(":")[3] == verb)
    return await user.click(message, custom_id=button.custom_id)


async def test_hands_and_doubling_panels_speak_each_members_client_language(
    fake_discord, start_bot
):
    """A German table (the server's language) with two English and two German clients:
    each reads his hand, by DM and behind the hand button, in his own client's language,
    and a toggle on the doubling panel keeps the panel's language."""
    world = fake_discord
    world.guild.preferred_locale = "de"
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    bob.locale = dave.locale = "de"
    await start_bot()
    lobby = (await alice.slash(world.games, "barbu new", series=1)).message
    for user in (bob, carol):
        await press(user, lobby, "join")
    board = (await press(dave, lobby, "join")).message
    assert "Mein Blatt" in button_labels(board), "the board speaks the server's language"
    assert alice.dms[-1].content.splitlines()[1].startswith("Your hand · Deal 1 of 7")
    assert bob.dms[-1].content.splitlines()[1].startswith("Dein Blatt · Spiel 1 von 7")

    await press(alice, board, "contract")  # the first contract, Keine Stiche
    bob_panel = latest_hand_dm(bob)
    assert button_labels(bob_panel)[:3] == ["Alice doppeln", "Carol doppeln", "Dave doppeln"]
    await bob.click(bob_panel, "Carol doppeln")
    assert button_labels(bob_panel)[0] == "Alice doppeln", "a German panel stays German"
    assert "1 Doppel bestätigen" in button_labels(bob_panel)
    await bob.click(bob_panel, "1 Doppel bestätigen")

    carol_panel = latest_hand_dm(carol)
    assert "Your turn to double" in carol_panel.content
    assert "You owe 2 more doubles of declarer Alice" in carol_panel.content
    await carol.click(carol_panel, "Redouble Bob")
    assert button_labels(carol_panel)[:4] == [
        "Double Alice",
        "Redouble Bob",
        "Double Dave",
        "Maximum",
    ], "after a toggle the buttons speak the panel's language"
    assert "Confirm 1 double" in button_labels(carol_panel)
    behind_button = (await press(carol, board, "private")).ephemeral[0]
    assert behind_button.content.startswith("Your hand · Deal 1 of 7")
    assert "Double Alice" in button_labels(behind_button)


async def test_a_resigned_game_leaves_no_live_hand(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await four_humans(world, start_bot)
    await world.alice.click(board, "No Tricks")
    assert latest_hand_dm(world.bob).buttons(), "Bob is to double"
    asked = await world.carol.slash(world.games, "game resign")
    await world.carol.click(asked.message, "Yes, resign")
    assert stored_game(database_path)["status"] == "finished"
    for user in (world.alice, world.bob, world.carol, world.dave):
        hand = latest_hand_dm(user)
        assert not hand.buttons(), f"{user.name}'s hand takes no more clicks"
        assert hand.content.endswith("The game has ended; the channel says how.")
