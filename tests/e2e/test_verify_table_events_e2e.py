"""Records the real bot exports after each table event it logs (a resignation, a loss on
time, a computer taking a seat and its player back, a pause and its end, an abandoned
game, a table every human left to the computers) verify with ``python -m games.verify``,
and the same record with that event forged is refused at its line."""

from __future__ import annotations

from stored import logged_actions, stored_game, stored_state

from games.proof import RecordError, verify_record
from games.turn_clock import DEFAULT_CLOCK, MAX_PAUSE


async def advance(bot, clock, seconds: float) -> None:
    clock.advance(seconds)
    await bot.clocks.scheduler.settled()


async def exported(world) -> str:
    answer = await world.carol.slash(world.games, "game export")
    assert answer.message is not None, "the ended game is exported"
    return answer.message.attachments[0].data.decode()


def line_of(text: str, ending: str) -> tuple[int, str]:
    return next(
        (number, line)
        for number, line in enumerate(text.split("\n"), start=1)
        if line.endswith(ending)
    )


def with_line(text: str, number: int, line: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = line
    return "\n".join(lines)


def refused_at(text: str) -> str:
    try:
        answer = verify_record(text)
    except RecordError as refused:
        return str(refused)
    raise AssertionError(f"a forged record verified: {answer}")


async def test_a_barree_game_with_a_substitute_a_pause_and_a_resignation_verifies(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new")).message
    await world.bob.click(lobby, "Join")
    board = (await world.alice.click(lobby, "Start")).message
    users = {0: world.alice, 1: world.bob}
    late = stored_state(database).current_player
    await advance(bot, clock, DEFAULT_CLOCK)
    await users[late].click(board, "Take my seat back")
    await world.alice.slash(world.games, "game pause")
    await world.bob.slash(world.games, "game pause")
    await world.bob.slash(world.games, "game resume")
    asked = await world.alice.slash(world.games, "game resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")
    events = [action for action in logged_actions(database) if action.startswith("!")]
    assert events == ["!away", "!back", "!pause", "!resume", "!resign"]

    text = await exported(world)
    assert verify_record(text).startswith("verified: Barree game #1")
    number, line = line_of(text, ": !resign")
    moved = with_line(text, number, line.replace("seat 0", "seat 2"))
    assert refused_at(moved).startswith(f"line {number}: there is no seat 2")
    number, line = line_of(text, ": !back")
    present = with_line(text, number, line.replace(f"seat {late}:", f"seat {1 - late}:"))
    assert "no computer played seat" in refused_at(present)
    number, line = line_of(text, ": !pause")
    abandoned = with_line(text, number, f"{line.split('.')[0]}. seat -: !abandon")
    assert "the game had already ended with “!abandon”" in refused_at(abandoned)


async def test_a_bann_game_lost_on_time_verifies(fake_discord, start_bot, database, clock):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    await world.bob.click(lobby, "Join")
    to_act = stored_state(database).current_player
    await advance(bot, clock, DEFAULT_CLOCK)
    assert logged_actions(database)[-1] == "!timeout"

    text = await exported(world)
    assert verify_record(text).startswith("verified: Bann game #1")
    number, line = line_of(text, ": !timeout")
    other = with_line(text, number, line.replace(f"seat {to_act}:", f"seat {1 - to_act}:"))
    assert "only the clock of the seat to act runs" in refused_at(other)


async def test_a_pause_nobody_resumes_and_its_abandoned_game_verify(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    await world.bob.click(lobby, "Join")
    await world.alice.slash(world.games, "game pause")
    await world.bob.slash(world.games, "game pause")
    await advance(bot, clock, MAX_PAUSE)
    assert logged_actions(database)[-2:] == ["!pause", "!abandon"]

    text = await exported(world)
    assert verify_record(text).startswith("verified: Bann game #1")
    number, line = line_of(text, ": !abandon")
    status = next(n for n, kept in enumerate(text.split("\n"), 1) if kept == "status: aborted")
    assert refused_at(with_line(text, status, "status: finished")).startswith(f"line {status}: ")
    assert "logged for no seat" in refused_at(
        with_line(text, number, line.replace("seat -", "seat 0"))
    )


async def test_a_barbu_table_every_human_left_to_the_computers_verifies(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    await world.alice.slash(world.games, "barbu new", computers=3)
    await advance(bot, clock, DEFAULT_CLOCK)
    assert stored_game(database)["status"] == "aborted"
    assert "!abandon" not in logged_actions(database)

    text = await exported(world)
    assert verify_record(text).startswith("verified: Barbu game #1")
    number, line = line_of(text, ": !away")
    forged = with_line(text, number, line.replace("!away", "!timeout"))
    assert "a computer takes the seat" in refused_at(forged)
