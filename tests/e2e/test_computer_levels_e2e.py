"""Computer levels through the real discord.py against the fake Discord: the level
chosen at `/x new` and in the lobby's Add computer control is stored with the seat,
shown in its name, and is the level its moves are computed at."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from stored import stored_game, stored_state, typed

from cogs.table.computers import ADD_COMPUTER
from games import GAMES, GameState

LevelLog = list[tuple[int | None, str]]


def record_levels(monkeypatch: pytest.MonkeyPatch, kind: str) -> LevelLog:
    """Wrap the game's computer player so the test sees which seat asked at which level."""
    spec = GAMES[kind]
    asked: LevelLog = []
    real: Callable[..., str] = spec.bot_action

    def recording(state: GameState, seed: int = 0, **kwargs: Any) -> str:
        asked.append((state.current_player, kwargs.get("level", "(none)")))
        return real(state, seed=seed, **kwargs)

    monkeypatch.setitem(GAMES, kind, dataclasses.replace(spec, bot_action=recording))
    return asked


def stored_seats(database_path) -> list[dict[str, Any]]:
    return json.loads(stored_game(database_path)["seats"])


async def test_bann_new_with_a_hard_computer_plays_it_at_that_level(
    fake_discord, start_bot, database_path, monkeypatch
):
    world = fake_discord
    asked = record_levels(monkeypatch, "bann")
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", computer="hard")
    assert stored_game(database_path)["status"] == "active", "a computer opponent starts it"
    assert stored_seats(database_path)[1] == {
        "name": "AdaBot (hard)",
        "user_id": None,
        "level": "hard",
    }
    state = stored_state(database_path)
    if state.current_player == 0:
        await world.alice.slash(world.games, "bann move", notation=state.legal_actions()[0])
    assert asked, "the computer has moved"
    assert set(asked) == {(1, "hard")}, "every move of the computer's seat is played at hard"
    board = opened.message
    assert "AdaBot (hard)" in (board.content or "") + json.dumps(board.embeds)


async def test_lobby_adds_computers_at_the_chosen_levels(
    fake_discord, start_bot, database_path, monkeypatch
):
    world = fake_discord
    asked = record_levels(monkeypatch, "barree")
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computer_level="easy")).message
    refused = await world.bob.select(lobby, ["hard"], placeholder=ADD_COMPUTER)
    assert "Only the table's creator" in refused.ephemeral[0].content
    await world.alice.select(lobby, ["easy"], placeholder=ADD_COMPUTER)
    await world.alice.select(lobby, ["normal"], placeholder=ADD_COMPUTER)
    listed = lobby.embeds[0]["description"].splitlines()
    assert listed[2:] == ["2. AdaBot (easy)", "3. MaxBot"], "the level unless it is normal"
    await world.alice.select(lobby, ["hard"], placeholder=ADD_COMPUTER)
    assert stored_game(database_path)["status"] == "active", "four seats start the game"
    assert [(seat["name"], seat.get("level")) for seat in stored_seats(database_path)] == [
        ("Alice", None),
        ("AdaBot (easy)", "easy"),
        ("MaxBot", "normal"),
        ("ZoeBot (hard)", "hard"),
    ]
    for _ in range(12):
        state = stored_state(database_path)
        if state.is_over or {seat for seat, _ in asked} >= {1, 2, 3}:
            break
        action = GAMES["barree"].bot_action(state, seed=0)
        await world.alice.slash(world.games, "barree move", notation=typed(action))
    computers = {seat: level for seat, level in asked if seat != 0}
    assert computers == {1: "easy", 2: "normal", 3: "hard"}, asked
