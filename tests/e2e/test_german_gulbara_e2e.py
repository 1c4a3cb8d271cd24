"""A German table plays Gul Bara: a German server and German clients, a whole match
against the computer by clicks (Undo once), and not one English word in anything the
player saw (the board, its menus, the private die panels, the announcements)."""

from __future__ import annotations

from german import english_seen
from stored import stored_game, stored_state

from cogs.gulbara import POINT_PLACEHOLDER, repeated_steps, step_label
from fakediscord import Message, SimUser
from games import GAMES
from games.gulbara import GulbaraState
from texts.i18n import t

GULBARA = GAMES["gulbara"]
GERMAN = "de"


async def play_step(user: SimUser, board: Message, state: GulbaraState, action: str) -> bool:
    """The step's point in the German select, then its die in the German panel; whether
    the panel opened."""
    source = action.split("/")[0]
    placeholder = t(GERMAN, POINT_PLACEHOLDER)
    picked = await user.select(board, [source], placeholder=placeholder)
    choices = state.step_choices(int(source))
    if len(choices) == 1 and state.autoplay and len(repeated_steps(state, int(source))) < 2:
        return False
    panel = picked.ephemeral[0]
    choice = next(choice for choice in choices if choice["action"] == action)
    await user.click(panel, step_label(choice["action"], choice["die"]))
    return True


async def test_a_whole_german_match_shows_no_english(fake_discord, start_bot, database_path):
    world = fake_discord
    world.guild.preferred_locale = GERMAN
    world.alice.locale = GERMAN
    await start_bot()
    opened = await world.alice.slash(world.games, "gulbara new", computer="normal", match_to=2)
    board = opened.message
    assert t(GERMAN, POINT_PLACEHOLDER) in [select.placeholder for select in board.selects()]
    panels = steps = undone = 0
    while not (state := stored_state(database_path)).is_over:
        action = GULBARA.bot_action(state, seed=steps)
        panels += await play_step(world.alice, board, state, action)
        steps += 1
        assert steps < 600
        if panels and not undone and stored_state(database_path).can_undo:
            await world.alice.click(board, t(GERMAN, "Undo"))
            undone = 1

    assert stored_game(database_path)["status"] == "finished"
    assert panels > 0 and undone, "steps went through the private panel, one was taken back"
    assert "gewinnt das Match" in board.embeds[0]["description"]
    games_over = [m for m in world.games.public_messages() if "Partie 1 ist zu Ende" in m.content]
    assert len(games_over) == 1, "the channel hears the score after the first game"
    assert english_seen(world.games, [world.alice]) == {}
