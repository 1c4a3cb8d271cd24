"""The Gul Bara hard player's evaluation: a small neural network trained by self-play.

The network reads a position right after a stage has been played, seen by the player
who played it (the "mover"), and answers the chance that the mover wins the game. Its
input is a raw encoding of the board, computed for many candidate end positions at once
so that judging all plays of a stage is one matrix product:

- for each side and each of the 24 points (mover's numbering), truncated-unary counts:
  at least 1, 2 and 3 checkers, then half a unit per further checker;
- each side's borne-off checkers, checkers still on its starting point, and whether it
  is still bound by the head rule; each side's pip count;
- the hand evaluation's terms (race, blocking, head rule, mobility, whether the chain's
  next double can be played in full), scaled;
- which double of an escalation chain the mover plays next (if the chain goes on, the
  mover moves again before the opponent rolls), and whether each side's next roll would
  start a chain (its grace period is over).

The weights live in ``gulbara_net.npz`` next to this module and are loaded on first use;
``python -m bench.train_gulbara_net`` retrains them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

WEIGHTS_FILE = Path(__file__).with_name("gulbara_net.npz")

_POINTS = 24
_CHECKERS = 15
_START = 24
_QUARTER_TOP = 12
# unary thresholds per point; checkers beyond the last one add half a unit each
_UNARY = (1, 2, 3)
_CHAIN_DICE = (2, 3, 4, 5, 6)
_PIP_SCALE = 100.0
_OPPONENT_POINT = np.array([0] + [(point + 11) % _POINTS + 1 for point in range(1, _POINTS + 1)])
_POINT_NUMBERS = np.arange(1, _POINTS + 1, dtype=np.float32)

Floats = npt.NDArray[np.float32]
Boards = npt.NDArray[np.uint8]


def _side_features(boards: Boards) -> Floats:
    """The encoding of one side, ``boards`` (n, 25) indexed by that side's own points."""
    points = boards[:, 1:].astype(np.float32)
    unary = [(points >= threshold).astype(np.float32) for threshold in _UNARY]
    beyond = np.maximum(points - _UNARY[-1], 0.0) / 2
    borne_off = boards[:, :1].astype(np.float32) / _CHECKERS
    on_start = points[:, _START - 1 :] / _CHECKERS
    head_bound = (points[:, _QUARTER_TOP:].sum(axis=1, keepdims=True) == _CHECKERS).astype(
        np.float32
    )
    pips = (points @ _POINT_NUMBERS).reshape(-1, 1) / _PIP_SCALE
    return np.concatenate([*unary, beyond, borne_off, on_start, head_bound, pips], axis=1)


def their_own(theirs: list[int]) -> list[int]:
    """The opponent's checkers indexed by the opponent's own points (index 0 off)."""
    own = [theirs[0]] + [0] * _POINTS
    for point in range(1, _POINTS + 1):
        own[int(_OPPONENT_POINT[point])] = theirs[point]
    return own


def encode(
    ends: Boards,
    theirs: list[int],
    chain_die: int | None,
    escalates: tuple[bool, bool],
    hand: Floats,
) -> Floats:
    """Network inputs for each row of ``ends`` (the mover's boards after the stage).

    ``theirs`` is the opponent in the mover's numbering, ``chain_die`` the double the
    mover plays next (None when the turn passes), ``escalates`` whether the mover's and
    the opponent's next rolls would start an escalation chain, ``hand`` one row of
    hand-made features per end (``games.gulbara`` computes them).
    """
    count = ends.shape[0]
    mine = _side_features(ends)
    own = np.array([their_own(theirs)], dtype=np.uint8)
    # the opponent's points sit where the mover's checkers are in the board rows above,
    # so both sides are given in the mover's numbering for the per-point part
    placed = np.array([theirs], dtype=np.uint8)
    opponent = np.concatenate(
        [_side_features(placed)[:, : 4 * _POINTS], _side_features(own)[:, 4 * _POINTS :]], axis=1
    )
    flags = np.array(
        [[float(chain_die == die) for die in _CHAIN_DICE] + [float(flag) for flag in escalates]],
        dtype=np.float32,
    )
    return np.concatenate(
        [mine, np.repeat(opponent, count, axis=0), np.repeat(flags, count, axis=0), hand], axis=1
    )


class Network:
    """One hidden layer of sigmoid units and a sigmoid output (the mover's win chance)."""

    def __init__(
        self, hidden_weights: Floats, hidden_bias: Floats, out_weights: Floats, out_bias: Floats
    ) -> None:
        self.hidden_weights = hidden_weights
        self.hidden_bias = hidden_bias
        self.out_weights = out_weights
        self.out_bias = out_bias

    @classmethod
    def fresh(cls, inputs: int, hidden: int, seed: int) -> Network:
        """Small random weights, the same for a seed."""
        rng = np.random.default_rng(seed)
        return cls(
            (rng.standard_normal((inputs, hidden)) * 0.1).astype(np.float32),
            np.zeros(hidden, dtype=np.float32),
            (rng.standard_normal(hidden) * 0.1).astype(np.float32),
            np.zeros(1, dtype=np.float32),
        )

    def hidden(self, inputs: Floats) -> Floats:
        result: Floats = 1 / (1 + np.exp(-(inputs @ self.hidden_weights + self.hidden_bias)))
        return result

    def output(self, hidden: Floats) -> Floats:
        result: Floats = 1 / (1 + np.exp(-(hidden @ self.out_weights + self.out_bias)))
        return result

    def win_chances(self, inputs: Floats) -> Floats:
        return self.output(self.hidden(inputs))

    def save(self, path: Path) -> None:
        np.savez(
            path,
            hidden_weights=self.hidden_weights,
            hidden_bias=self.hidden_bias,
            out_weights=self.out_weights,
            out_bias=self.out_bias,
        )

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            return cls(
                data["hidden_weights"], data["hidden_bias"], data["out_weights"], data["out_bias"]
            )


@cache
def trained() -> Network:
    """The shipped network, read from disk on first use."""
    return Network.load(WEIGHTS_FILE)
