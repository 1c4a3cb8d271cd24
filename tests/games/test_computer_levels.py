"""Computer levels in every game: legal, plausible, from the seat's view only, and the
same decision for the same state, seed and level however busy the machine is."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import GAMES, LEVELS, GameState, barbu
from games.bann import from_code as bann_position
from games.barbu import BarbuState

SAMPLE_PLIES = {
    "bann": (0, 9, 24),
    "gulbara": (0, 15, 60),
    "barree": (0, 7, 30),
    "barbu": (0, 5, 17),
}


# Fewer playouts: these tests check decisions, not playing strength.
QUICK_BARBU = (
    ("PLAY_PLAYOUTS", 24),
    ("CONTRACT_PLAYOUTS", 30),
    ("DOUBLING_PLAYOUTS", 12),
    ("HARD_PLAY_PLAYOUTS", 24),
    ("HARD_DOUBLING_PLAYOUTS", 12),
)
KINDS = tuple(sorted(GAMES))
ROOT = Path(__file__).resolve().parents[2]
# Another interpreter with another string-hash seed, as on another machine.
OTHER_PROCESS = f"""
import json, sys
sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "tests" / "games")!r}]
import test_computer_levels as levels
from games import barbu
for name, value in levels.QUICK_BARBU:
    setattr(barbu, name, value)
print(json.dumps([[*key, action] for key, action in levels.decisions(levels.KINDS).items()]))
"""


@pytest.fixture
def quick_barbu(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in QUICK_BARBU:
        monkeypatch.setattr(barbu, name, value)


def sample_states(kind: str) -> Iterator[GameState]:
    """A few positions of a game between random players, from its start on."""
    spec = GAMES[kind]
    chooser = random.Random(kind)
    state = spec.new_game(players=spec.min_players, seed=11)
    for ply in range(max(SAMPLE_PLIES[kind]) + 1):
        if state.is_over:
            return
        if ply in SAMPLE_PLIES[kind]:
            yield state
        state = state.apply(chooser.choice(state.legal_actions()))


def decisions(kinds: tuple[str, ...]) -> dict[tuple[str, int, str], str]:
    return {
        (kind, index, level): GAMES[kind].bot_action(state, seed=index, level=level)
        for kind in kinds
        for index, state in enumerate(sample_states(kind))
        for level in LEVELS
    }


def _burn(stop: threading.Event | multiprocessing.synchronize.Event) -> None:
    total = 0
    while not stop.is_set():
        total += sum(range(10_000))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_level_plays_legal_moves(kind: str, quick_barbu: None) -> None:
    for (game, index, level), action in decisions((kind,)).items():
        state = list(sample_states(game))[index]
        assert action in state.legal_actions(), (game, index, level)


def test_the_same_state_seed_and_level_give_the_same_decision_under_load(
    quick_barbu: None,
) -> None:
    kinds = KINDS
    idle = decisions(kinds)
    stop_processes = multiprocessing.Event()
    stop_threads = threading.Event()
    burners = [multiprocessing.Process(target=_burn, args=(stop_processes,)) for _ in range(2)]
    threads = [threading.Thread(target=_burn, args=(stop_threads,)) for _ in range(2)]
    for burner in [*burners, *threads]:
        burner.start()
    try:
        loaded = decisions(kinds)
    finally:
        stop_processes.set()
        stop_threads.set()
        for burner in [*burners, *threads]:
            burner.join()
    assert loaded == idle


def test_another_process_with_another_hash_seed_decides_the_same(quick_barbu: None) -> None:
    here = decisions(KINDS)
    environment = {**os.environ, "PYTHONHASHSEED": "4242"}
    finished = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    there = {tuple(entry[:3]): entry[3] for entry in json.loads(finished.stdout)}
    assert there == here


def test_an_unknown_level_is_refused() -> None:
    state = GAMES["bann"].new_game(seed=1)
    with pytest.raises(ValueError, match="unknown computer level"):
        GAMES["bann"].bot_action(state, seed=1, level="brutal")


@pytest.mark.parametrize("level", LEVELS)
def test_bann_every_level_takes_a_castle_win(level: str) -> None:
    state = bann_position("BN1:ac..3./b...../....../....../....../4.....|1,2|0")
    assert state.apply(GAMES["bann"].bot_action(state, seed=3, level=level)).result == "castle"


@pytest.mark.parametrize("seed", range(6))
def test_bann_easy_does_not_let_the_opponent_into_its_castle_when_it_can_help_it(
    seed: int,
) -> None:
    # Seat 1's knight on a2 stands next to seat 0's castle a1. Only seat 0's knight 2 on
    # b3 can capture it (by stepping to a3 or b2); every other move loses at once.
    state = bann_position("BN1:.....b/....../....../.2..../a...../.....3|1,5|0")
    action = GAMES["bann"].bot_action(state, seed=seed, level="easy")
    after = state.apply(action)
    castle_wins = [
        reply
        for reply in after.legal_actions()
        if reply != "offer" and after.apply(reply).result == "castle"
    ]
    assert not castle_wins, f"easy played {action} and lets seat 1 into the castle"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("steps", [0, 9])
def test_barbu_levels_decide_from_the_seat_view_only(
    level: str, steps: int, quick_barbu: None
) -> None:
    state: BarbuState = barbu.new_game(seed=5)
    chooser = random.Random(steps)
    for _ in range(steps):
        state = state.apply(chooser.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    data = state.to_dict()
    first, second = [other for other in range(4) if other != seat][:2]
    hands = data["hands"]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    twin = barbu.SPEC.from_dict(data)
    assert twin.view(seat) == state.view(seat)
    assert barbu.bot_action(twin, seed=2, level=level) == barbu.bot_action(
        state, seed=2, level=level
    )
