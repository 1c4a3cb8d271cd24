"""A German table plays Barree: a German server and a German client, a match of two
rounds against two computers by clicks (rolls, the walk menus with their pictures,
sendings), and not one English word in anything the player saw."""

from __future__ import annotations

from pathlib import Path

from german import english_seen
from stored import stored_game, stored_state

from cogs.barree import walk_targets, walks_to
from fakediscord import Message, Result, SimUser
from games import GAMES
from games.barree import KEEP, walk_options
from texts.i18n import t

BARREE = GAMES["barree"]
GERMAN = "de"


def button_ending(menu: Message, suffix: str) -> str | None:
    return next((b.custom_id for b in menu.buttons() if b.custom_id.endswith(suffix)), None)


async def choose(user: SimUser, menu: Message, action: str) -> Result:
    """``action`` in a private menu: Keep, a sending, or a walk's numbered end field (then
    the walk, if several end there)."""
    if action == KEEP:
        return await user.click(menu, t(GERMAN, "Keep them there"))
    if action.startswith("send:"):
        select = next(select for select in menu.selects() if action in select.values)
        return await user.select(menu, [action], custom_id=select.custom_id)
    target = button_ending(menu, f":walk_to:{action.rpartition('-')[2]}")
    assert target is not None
    result = await user.click(menu, custom_id=target)
    walk = button_ending(menu, f":walk:{action}")
    return result if walk is None else await user.click(menu, custom_id=walk)


def offered(state, action: str) -> str:
    """``action`` if the walk menu offers it, else the menu's best walk."""
    options = walk_options(state)
    walks = [walk.action for end in walk_targets(options) for walk in walks_to(options, end)]
    return action if action in walks else walks[0]


async def roll(user: SimUser, board: Message, database_path: Path) -> Message | None:
    result = await user.click(board, t(GERMAN, "Roll"))
    state = stored_state(database_path)
    if state.phase == "move" and state.current_player is not None:
        return result.ephemeral[0]
    return None


async def test_a_german_match_of_two_rounds_shows_no_english(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    world.guild.preferred_locale = GERMAN
    world.alice.locale = GERMAN
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computers=2, rounds=2)).message
    start = button_ending(lobby, ":start:")
    assert start is not None
    board = (await world.alice.click(lobby, custom_id=start)).message
    menu: Message | None = None
    decisions = sendings = 0
    while not (state := stored_state(database_path)).is_over:
        assert state.current_player == 0, "the computers play at once"
        if state.phase == "roll":
            menu = await roll(world.alice, board, database_path)
        else:
            assert menu is not None
            action = BARREE.bot_action(state, seed=decisions)
            if state.phase == "move":
                action = offered(state, action)
            else:
                sendings += 1
            result = await choose(world.alice, menu, action)
            assert menu.content.startswith("✅ Du "), result
        decisions += 1
        assert decisions < 300

    assert stored_game(database_path)["status"] == "finished"
    assert sendings > 0, "the match needed a sending menu"
    assert "Minuspunkt" in board.embeds[0]["description"]
    rounds_over = [
        m for m in world.games.public_messages() if "Runde 1 von 2 ist zu Ende" in m.content
    ]
    assert len(rounds_over) == 1, "the channel hears the first round's minus points"
    assert english_seen(world.games, [world.alice]) == {}
