"""The public positions of a finished game, for an animated replay.

Each frame is a public view (``view(None)``: no hand, no future card) and a caption
naming the move: a catalogue id and its parameters (names, numbers, notation), put into
words in the viewer's language by ``texts.replays``. What a frame is belongs to the game
(``GameSpec.replay_frames``): one per move unless the game says otherwise (Barbu shows
one per completed trick, one per round of Domino, and a summary after every deal).
"""

from __future__ import annotations

from collections.abc import Sequence

from games import GAMES
from games.base import Frame, GameState, Step
from games.proof import GameFacts, walk

__all__ = ["Frame", "replay_frames"]


def replay_frames(facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> list[Frame]:
    """Every public position worth a frame, from the start to the end."""
    steps = walk(facts, actions)
    next(steps)
    played = [step for step in steps if isinstance(step, Step)]
    spec = GAMES[facts.kind]
    return spec.replay_frames(facts.seats, _start(facts, played), played)


def _start(facts: GameFacts, played: Sequence[Step]) -> GameState:
    if played:
        return played[0].before
    start: GameState = GAMES[facts.kind].new_game(
        players=len(facts.seats), seed=facts.seed, **facts.options
    )
    return start
