"""Gul Bara through the real discord.py against the fake Discord: a whole game against
the computer by clicks, a match's score between games, one ping per turn, Undo across a
restart in the middle of a turn, and every kind of bad input."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from stored import logged_moves, stored_game, stored_state, write_state
from testdb import both_engines

from cogs.gulbara import POINT_PLACEHOLDER, repeated_steps, step_label
from fakediscord import Message, Result, SimUser
from games import GAMES, replay
from games.gulbara import GulbaraState, from_code

GULBARA = GAMES["gulbara"]


async def play_step(user: SimUser, board: Message, state: GulbaraState, action: str) -> Result:
    """Pick the step's point in the board's select, then its die in the private panel
    (a point with a single legal step and no "all" choice plays at once)."""
    source = action.split("/")[0]
    picked = await user.select(board, [source], placeholder=POINT_PLACEHOLDER)
    choices = state.step_choices(int(source))
    if len(choices) == 1 and state.autoplay and len(repeated_steps(state, int(source))) < 2:
        assert picked.ephemeral == [], "a single legal step needs no second click"
        return picked
    assert len(picked.ephemeral) == 1, "the point opens one private die panel"
    panel = picked.ephemeral[0]
    choice = next(choice for choice in choices if choice["action"] == action)
    return await user.click(panel, step_label(action, choice["die"]))


async def open_panel(user: SimUser, board: Message, state: GulbaraState) -> tuple[Message, str]:
    """Open the die panel of a point with two legal steps; the panel and one of its steps."""
    point = next(p for p in state.movable_points() if len(state.step_choices(p)) > 1)
    picked = await user.select(board, [str(point)], placeholder=POINT_PLACEHOLDER)
    return picked.ephemeral[0], state.step_choices(point)[0]["action"]


def seat_user(world, state: GulbaraState) -> SimUser:
    assert state.current_player is not None
    return [world.alice, world.bob][state.current_player]


async def start_two_player_game(world, start_bot, **options: object) -> Message:
    await start_bot()
    opened = await world.alice.slash(world.games, "gulbara new", opponent=world.bob, **options)
    return (await world.bob.click(opened.message, "Join")).message


async def play_whole_turn(world, database_path: Path, seed: int) -> Result:
    """The computer player's choice for the mover's whole turn, typed as one command."""
    state = stored_state(database_path)
    user = seat_user(world, state)
    seat = state.current_player
    steps = []
    while state.current_player == seat:
        step = GULBARA.bot_action(state, seed=seed)
        steps.append(step)
        state = state.apply(step)
    return await user.slash(world.games, "gulbara move", notation=" ".join(steps))


def opponent_must_choose_after(state: GulbaraState, first: str) -> bool:
    """Whether the mover's turn, ``first`` and then the computer's steps (seeded by the
    click count, as the test below plays them), leaves the opponent a choice to make
    rather than a roll that plays itself."""
    mover = state.current_player
    state, clicks = state.apply(first), 1
    while state.current_player == mover and state.played:
        state, clicks = state.apply(GULBARA.bot_action(state, seed=clicks)), clicks + 1
    return state.current_player == 1 - mover and len(state.legal_steps()) > 1


async def reach_a_turn_with_a_choice_after_one_step(
    world, database_path: Path, also: Callable[[GulbaraState, str], bool] = lambda *_: True
) -> tuple[GulbaraState, str]:
    """Play whole turns by text until the mover has a first step after which he must still
    choose (and ``also`` holds for that state and step); that state and step."""
    for seed in range(60):
        state = stored_state(database_path)
        for step in state.legal_steps():
            after = state.apply(step)
            if (
                after.current_player == state.current_player
                and after.forced_step() is None
                and also(state, step)
            ):
                return state, step
        await play_whole_turn(world, database_path, seed)
    raise AssertionError("no turn with a second choice within 60 turns")


async def test_a_whole_game_against_the_computer_by_clicks(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "gulbara new", computer="normal")).message
    images = [board.attachments[0].data]
    steps = 0
    while not (state := stored_state(database_path)).is_over:
        assert state.current_player == 0, "the computer answers at once"
        action = GULBARA.bot_action(state, seed=steps)
        result = await play_step(world.alice, board, state, action)
        assert [m for m in result.new_messages if m.pinged] == [], "nobody is pinged"
        images.append(board.attachments[0].data)
        assert images[-1] != images[-2], "the board picture changes after every step"
        steps += 1
        assert steps < 300

    assert stored_game(database_path)["status"] == "finished"
    assert board.buttons() == [] and board.selects() == [], "a finished board takes no clicks"
    assert "wins" in board.embeds[0]["description"]
    announcement = world.games.public_messages()[-1]
    assert announcement.content.startswith("🏁") and "wins" in announcement.content
    game = stored_game(database_path)
    actions = [action for _seat, action in logged_moves(database_path)]
    replayed = replay(
        "gulbara",
        players=2,
        seed=game["seed"],
        options=json.loads(game["options"]),
        actions=actions,
    )
    assert replayed.to_dict() == state.to_dict(), "the action log, forced steps included, replays"


async def test_the_point_select_and_the_die_panel_show_only_legal_steps(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    [select] = board.selects()
    assert select.values == [str(point) for point in state.movable_points()]
    assert [b.label for b in board.buttons()] == ["Undo", "Resign", "Follow"]
    assert board.buttons()[0].disabled, "nothing to take back before the first step"

    panel, step = await open_panel(player, board, state)

    point = int(step.split("/")[0])
    assert f"point **{point}**" in panel.content, "the panel numbers points as the mover does"
    choices = state.step_choices(point)
    assert [button.label for button in panel.buttons()] == [
        f"{choice['action']} ({choice['die']})" for choice in choices
    ], "each step names where the checker goes and the die it takes"
    assert stored_state(database_path).to_dict() == state.to_dict(), "looking changes nothing"


async def test_a_turn_pings_the_opponent_once_and_steps_within_it_ping_nobody(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state, first = await reach_a_turn_with_a_choice_after_one_step(
        world, database_path, also=opponent_must_choose_after
    )
    player = seat_user(world, state)
    opponent = [world.alice, world.bob][1 - state.current_player]
    mover = state.current_player
    pings: list[list[int]] = []
    step, clicks = first, 0
    while True:
        result = await play_step(player, board, state, step)
        pings += [message.pinged for message in result.new_messages if message.pinged]
        clicks += 1
        state = stored_state(database_path)
        if state.current_player != mover or not state.played:
            break
        assert pings == [], "a step that leaves the turn going pings nobody"
        step = GULBARA.bot_action(state, seed=clicks)
    assert clicks >= 2
    assert pings == [[opponent.id]], "one ping for the opponent when the turn ends"


@both_engines()
async def test_a_restart_mid_turn_keeps_the_steps_and_undo_on_the_old_board_still_works(
    fake_discord, start_bot, database
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    start, first = await reach_a_turn_with_a_choice_after_one_step(world, database)
    player = seat_user(world, start)
    await play_step(player, board, start, first)
    mid_turn = stored_state(database)
    assert mid_turn.current_player == start.current_player
    assert mid_turn.played_steps()[-1] == first

    await start_bot()

    assert stored_state(database).to_dict() == mid_turn.to_dict(), "the step is kept"
    await player.click(board, "Undo")
    undone = stored_state(database)
    assert undone.played_steps() == start.played_steps(), "Undo takes the step back"
    assert undone.board == start.board and undone.dice == start.dice
    second = undone.legal_steps()[-1]
    await play_step(player, board, undone, second)
    assert stored_state(database).to_dict() != undone.to_dict(), "the old board plays on"


async def test_undo_is_refused_when_the_turn_has_nothing_to_take_back(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    result = await player.slash(world.games, "gulbara move", notation="undo")
    assert "no step of this turn" in result.message.content
    assert stored_state(database_path).to_dict() == state.to_dict()
    assert board.buttons()[0].label == "Undo" and board.buttons()[0].disabled


async def test_someone_not_seated_is_refused_and_nothing_changes(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    game = stored_game(database_path)
    point = board.selects()[0].values[0]
    result = await world.carol.select(board, [point], placeholder=POINT_PLACEHOLDER)
    assert result.ephemeral[0].content == "You are not playing in this game."
    text = await world.carol.slash(world.games, "gulbara move", notation="24/18")
    assert text.message.content == "You are not playing in this game."
    assert stored_game(database_path)["version"] == game["version"]


async def test_a_seated_player_out_of_turn_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    waiting = [world.alice, world.bob][1 - state.current_player]
    point = board.selects()[0].values[0]
    result = await waiting.select(board, [point], placeholder=POINT_PLACEHOLDER)
    assert result.ephemeral[0].content.startswith("It is not your turn")
    text = await waiting.slash(world.games, "gulbara move", notation=state.legal_steps()[0])
    assert text.message.content.startswith("It is not your turn")
    assert stored_state(database_path).to_dict() == state.to_dict()


async def test_an_outdated_die_panel_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    stale_panel, _step = await open_panel(player, board, state)
    await play_step(player, board, state, state.legal_steps()[0])
    after_step = stored_state(database_path)

    refused = await player.click(stale_panel, stale_panel.buttons()[-1].label)

    assert "outdated" in refused.ephemeral[-1].content
    assert stored_state(database_path).to_dict() == after_step.to_dict()


async def test_two_racing_clicks_apply_only_once(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    panel, step = await open_panel(player, board, state)
    label = next(b.label for b in panel.buttons() if b.custom_id.endswith(f":{step}"))
    version = stored_game(database_path)["version"]

    results = await asyncio.gather(player.click(panel, label), player.click(panel, label))

    assert stored_game(database_path)["version"] == version + 1
    replies = [message.content for result in results for message in result.ephemeral]
    assert any("outdated" in reply for reply in replies)
    assert [action for _seat, action in logged_moves(database_path)] == with_forced_steps(
        state, [step]
    )
    assert stored_state(database_path).to_dict() == expected_after(state, [step]).to_dict()


def with_forced_steps(state: GulbaraState, steps: list[str]) -> list[str]:
    """``steps`` followed by every step that then is the only legal one (autoplay)."""
    played = list(steps)
    for step in steps:
        state = state.apply(step)
    while not state.is_over and (forced := state.forced_step()) is not None:
        played.append(forced)
        state = state.apply(forced)
    return played


def expected_after(state: GulbaraState, steps: list[str]) -> GulbaraState:
    for step in with_forced_steps(state, steps):
        state = state.apply(step)
    return state


async def test_an_illegal_or_malformed_text_move_is_explained_and_changes_nothing(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    legal = state.legal_steps()[0]
    unrolled = next(f"24/{24 - die}" for die in range(1, 7) if die not in state.dice)
    cases = {
        "hello": "is not a step",
        "24-18": "is not a step",
        "30/24": "There is no point 30",
        unrolled: "Legal steps:",
        "5/1": "You have no checker on 5",
        f"{legal} 24/1": "Legal steps:",
    }
    for steps, explanation in cases.items():
        result = await player.slash(world.games, "gulbara move", notation=steps)
        assert explanation in result.message.content, steps
        assert result.message.is_ephemeral
    assert stored_state(database_path).to_dict() == state.to_dict()
    assert logged_moves(database_path) == []


async def test_a_typed_turn_broken_off_by_an_illegal_step_says_nothing_was_played(
    fake_discord, start_bot, database_path
):
    """The issue's `24/19 24/23` on the first turn: the head rule refuses the second
    checker, and the answer must not read as if 24/19 had been played."""
    world = fake_discord
    await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    first, second = state.dice
    typed = f"24/{24 - first} 24/{24 - second}"

    result = await player.slash(world.games, "gulbara move", notation=typed)

    assert result.message.is_ephemeral
    assert result.message.content.startswith(
        f"Nothing was played: 24/{24 - second} is not allowed after 24/{24 - first}. Head rule:"
    )
    assert stored_state(database_path).to_dict() == state.to_dict()
    assert logged_moves(database_path) == []


async def test_a_whole_turn_typed_in_one_command_plays_like_clicks(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    first = state.legal_steps()[0]
    steps = [first, *state.apply(first).legal_steps()[:1]]

    result = await player.slash(world.games, "gulbara move", notation=" ".join(steps))

    assert result.message.content == f"✅ You played {' '.join(steps)}."
    assert stored_state(database_path).to_dict() == expected_after(state, steps).to_dict()
    assert board.versions, "the board message was redrawn"


async def test_a_match_tells_the_score_after_each_game_and_the_result_at_the_end(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "gulbara new", computer="normal", match_to=3)
    board = opened.message
    between_games: list[str] = []
    turns = 0
    while not (state := stored_state(database_path)).is_over:
        result = await play_whole_turn(world, database_path, seed=turns)
        between_games += [m.content for m in result.new_messages if m.content.startswith("🎲")]
        turns += 1
        assert turns < 400

    games = state.last_game["game_number"]
    assert len(between_games) == games - 1, "one message after each game but the last"
    assert "game 1 is over" in between_games[0] and "Match to 3: Alice" in between_games[0]
    assert max(state.score) >= 3
    winner = ["Alice", "AdaBot"][state.winner]
    announcement = world.games.public_messages()[-1].content
    assert announcement.startswith("🏁") and f"**{winner}** wins the match" in announcement
    assert f"{winner}** wins the match" in board.embeds[0]["description"]


async def test_a_forced_step_plays_itself_and_is_logged_as_the_players(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = seat_user(world, state)
    first = state.legal_steps()[0]
    forced = state.apply(first).forced_step()
    assert forced is not None, "the head rule leaves one checker to move at the opening"

    result = await play_step(player, board, state, first)

    assert logged_moves(database_path) == [
        (state.current_player, first),
        (state.current_player, forced),
    ]
    assert stored_state(database_path).current_player == 1 - state.current_player
    assert result.message.content.endswith(f"Then forced: {forced}."), "in the mover's numbering"
    opponent = [world.alice, world.bob][1 - state.current_player]
    assert [m.pinged for m in result.new_messages if m.pinged] == [[opponent.id]]


async def test_without_autoplay_every_step_is_clicked_and_undo_takes_back_one(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot, autoplay=False)
    state = stored_state(database_path)
    player = seat_user(world, state)
    first = state.legal_steps()[0]
    await play_step(player, board, state, first)
    after_first = stored_state(database_path)
    assert after_first.current_player == state.current_player, "the forced step waits"
    [point] = board.selects()[0].values
    panel = (await player.select(board, [point], placeholder=POINT_PLACEHOLDER)).ephemeral[0]
    assert len(panel.buttons()) == 1, "the single legal die still asks for a click"

    await player.click(board, "Undo")

    assert stored_state(database_path).to_dict() == state.to_dict()
    await play_step(player, board, state, first)
    await play_step(player, board, after_first, after_first.legal_steps()[0])
    assert stored_state(database_path).current_player == 1 - state.current_player


async def test_the_rules_link_the_whole_rule_book_in_the_readers_language(
    fake_discord, start_bot, monkeypatch
):
    """The issue: "Full rules: docs/rules/bann.md" was no link. With the web address of the
    rule books (RULES_URL) it is one, to the page in the reader's language; without it
    the rules say where the page is."""
    world = fake_discord
    await start_bot()
    plain = await world.carol.slash(world.games, "gulbara rules")
    assert plain.message.embeds[0]["description"].endswith(
        "**Full rules:** `docs/rules/gulbara.md` in the bot's source code."
    )

    monkeypatch.setenv("RULES_URL", "https://example.org/tablebot/blob/main/docs/rules/")
    await start_bot()
    english = await world.carol.slash(world.games, "gulbara rules")
    world.bob.locale = "de"
    german = await world.bob.slash(world.games, "gulbara rules")

    assert english.message.embeds[0]["description"].endswith(
        "**Full rules:** [docs/rules/gulbara.md]"
        "(https://example.org/tablebot/blob/main/docs/rules/gulbara.md)"
    )
    assert german.message.embeds[0]["description"].endswith(
        "**Alle Regeln:** [docs/rules/de/gulbara.md]"
        "(https://example.org/tablebot/blob/main/docs/rules/de/gulbara.md)"
    )


async def test_rules_and_an_invitation_only_the_invited_player_can_take(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    rules = await world.carol.slash(world.games, "gulbara rules")
    assert rules.message.is_ephemeral
    text = rules.message.embeds[0]["description"]
    assert "Escalating doubles" in text and "Head rule" in text and "/gulbara move" in text
    assert "docs/rules/gulbara.md" in text, "the rules point at the full rule book"
    lobby = (await world.alice.slash(world.games, "gulbara new", opponent=world.bob)).message
    assert world.bob.id in lobby.pinged
    refused = await world.carol.click(lobby, "Join")
    assert "reserved for the invited player" in refused.ephemeral[0].content
    await world.bob.click(lobby, "Join")
    assert stored_game(database_path)["status"] == "active"
    assert lobby.selects()[0].placeholder == POINT_PLACEHOLDER, "the lobby became the board"


# Alice (seat 0) to play 4-4: 7/3 leaves 24/20 as the only step, after which she chooses.
CHOICE_THEN_FORCED = "GB1:,,,,,,1,,,,-1,-13,,,,,-1,,,,,,,14|0,0|0|4,4,4,4|3,3"


async def arrange(world, database_path: Path, code: str) -> tuple[GulbaraState, Message]:
    """Put the stored game into the position ``code`` and post its board (`/game board`)."""
    state = from_code(code)
    write_state(database_path, state.to_dict())
    return state, (await world.alice.slash(world.games, "game board")).message


async def test_undo_takes_back_the_choice_together_with_the_forced_step_after_it(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_two_player_game(world, start_bot)
    start, board = await arrange(world, database_path, CHOICE_THEN_FORCED)

    await world.alice.select(board, ["7"], placeholder=POINT_PLACEHOLDER)
    assert stored_state(database_path).played_steps() == ["7/3", "24/20"]
    await world.alice.click(board, "Undo")

    assert stored_state(database_path).to_dict() == start.to_dict()
    assert [action for _seat, action in logged_moves(database_path)] == [
        "7/3",
        "24/20",
        "undo",
        "undo",
    ]
    assert board.buttons()[0].label == "Undo" and board.buttons()[0].disabled


# Alice (seat 0) to play 3-1 with one checker on her 3 and six on her 1, the computer's
# fifteen far away on its 24: after her choice every step of every later turn of hers is
# forced (and her doubles do not escalate yet), so one click plays her turns, and the
# computer's between them, to the end.
BEAR_OFF_TO_THE_END = "GB1:6,,1,,,,,,,,,-15,,,,,,,,,,,,|8,0|0|3,1|1,1"


async def test_one_click_that_autoplays_several_turns_shows_every_turn_on_its_own_line(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await world.alice.slash(world.games, "gulbara new", computer="normal")
    _, board = await arrange(world, database_path, BEAR_OFF_TO_THE_END)
    before = len(logged_moves(database_path))

    picked = await world.alice.select(board, ["3"], placeholder=POINT_PLACEHOLDER)
    await world.alice.click(picked.ephemeral[0], "3/off (3)")

    final = stored_state(database_path)
    assert final.is_over and final.winner == 0, "Alice's forced turns played to the end"
    lines = board.content.splitlines()
    assert lines[0] == "👤 Alice rolled 3-1: 3/off 1/off", "her own clicked turn comes first"
    marks = [line.split(" ", 1)[0] for line in lines]
    assert marks == ["👤", "🤖"] * (len(lines) // 2) + ["👤"], "one line per turn, in turn"
    assert len(lines) >= 5, "she needed at least two more turns, each shown"
    alices = [line for line in lines if line.startswith("👤 Alice rolled ")]
    assert sum(line.count("/off") for line in alices) == 7, "every bear-off is on a line"
    computers = [line for line in lines if line.startswith("🤖 AdaBot rolled ")]
    assert len(computers) == len(alices) - 1
    logged = logged_moves(database_path)[before:]
    assert sum(seat == 0 for seat, _ in logged) == 7, "the log holds the same bear-offs"
