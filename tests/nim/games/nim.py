"""Nim's rules: take one to three stones from one heap; whoever takes the last one wins.

The worked example of adding a game: ``tests/nim/`` is a game root shaped like the
product, found with ``games.add_game_root``."""

from __future__ import annotations

from typing import Any, TypedDict

from games.base import (
    DEFAULT_LEVEL,
    N_,
    GameSpec,
    GameState,
    IllegalAction,
    Option,
    Rng,
    check_level,
    whole_number,
)

MAX_TAKE = 3


class NimView(TypedDict):
    stones: int
    turn: int | None
    winner: int | None
    last_take: int | None


class NimState(GameState):
    def __init__(self, stones: int, turn: int, rng: Rng, last_take: int | None = None) -> None:
        self.players = 2
        self.stones = stones
        self.turn = turn
        self.rng = rng
        self.last_take = last_take

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.stones == 0

    @property
    def winner(self) -> int | None:
        """Whoever took the last stone: the seat before the one to move."""
        return 1 - self.turn if self.is_over else None

    def legal_actions(self) -> list[str]:
        return [str(take) for take in range(1, min(MAX_TAKE, self.stones) + 1)]

    def apply(self, action: str) -> NimState:
        if action not in self.legal_actions():
            raise IllegalAction(
                N_("Take 1 to {most} stones, not '{action}'."),
                most=min(MAX_TAKE, self.stones),
                action=action,
            )
        take = whole_number(action, max_digits=1) or 0
        return NimState(self.stones - take, 1 - self.turn, self.rng.copy(), take)

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else 0.0 for seat in range(2)]

    def view(self, seat: int | None) -> NimView:
        return {
            "stones": self.stones,
            "turn": self.current_player,
            "winner": self.winner,
            "last_take": self.last_take,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "stones": self.stones,
            "turn": self.turn,
            "rng": self.rng.to_dict(),
            "last_take": self.last_take,
        }

    def describe(self, action: str) -> str:
        return f"takes {action}"


def new_game(players: int, seed: int, stones: int = 12) -> NimState:
    return NimState(stones, 0, Rng(seed))


def from_dict(data: dict[str, Any]) -> NimState:
    return NimState(data["stones"], data["turn"], Rng.from_dict(data["rng"]), data["last_take"])


def bot_action(state: NimState, seed: int, level: str = DEFAULT_LEVEL) -> str:
    """Leave a multiple of four when it can; otherwise a seeded random take (at every
    level: Nim is solved)."""
    check_level(level)
    winning = state.stones % (MAX_TAKE + 1)
    if winning:
        return str(winning)
    return Rng(seed).choice(state.legal_actions())


SPEC = GameSpec(
    key="nim",
    title="Nim",
    min_players=2,
    max_players=2,
    position=5,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="loss",
    dice=None,
    hidden_information=False,
    options=(Option("stones", 12, N_("Stones in the heap"), minimum=4, maximum=30),),
)
