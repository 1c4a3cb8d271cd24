"""Gul Bara's state: ``GulbaraState`` with its rules (a turn rolled inside ``apply`` and
played in stages, ``undo``), its view and the view's ``TypedDict``s, and ``new_game``.

A turn is split into stages: the two dice of a roll, or four equal dice of a double,
followed by the next double of an escalation chain once the grace period is over.
``legal_actions`` lists the steps that begin a play of maximal length for the rest of
the current stage, so any sequence of legal steps is a legal play.
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.base import N_, GameState, IllegalAction, Rng, whole_number
from games.gulbara.board import (
    CHECKERS,
    DEFAULT_HEAD_RULE,
    HEAD_RULES,
    HOME_TOP,
    POINTS,
    START_POINT,
    Mover,
    perspective,
    pip_count,
    step_notation,
    to_seat0,
)

GRACE_ROLLS = 3
MAX_MATCH = 25
RECENT_TURNS = 4
UNDO = "undo"
CODE_PREFIX = "GB1:"


class GulbaraTurn(TypedDict):
    """A finished turn: the roll, the steps played and the doubles of its chain."""

    seat: int
    roll: list[int]
    steps: list[str]
    stages: list[int]
    passed: bool


class GulbaraGameResult(TypedDict):
    game_number: int
    winner: int
    points: int


class GulbaraView(TypedDict):
    """What ``GulbaraState.view`` shows (everyone sees the same).

    ``points`` and ``off`` are in seat 0's numbering, signed like the board (+ seat 0,
    − seat 1); ``dice`` are the dice still to play, ``stage`` the double being played,
    ``chain`` the doubles still to follow it, ``played`` this turn's steps.
    """

    game: str
    points: list[int]
    off: list[int]
    turn: int | None
    over: bool
    winner: int | None
    roll: list[int]
    dice: list[int]
    stage: int | None
    stages: list[int]
    chain: list[int]
    escalates: bool
    rolls: list[int]
    grace_left: list[int]
    pips: list[int]
    played: list[str]
    recent_turns: list[GulbaraTurn]
    opening: list[int] | None
    score: list[int]
    match_to: int
    game_number: int
    last_game: GulbaraGameResult | None
    autoplay: bool
    code: str


def _start_board() -> list[int]:
    board = [0] * POINTS
    board[to_seat0(START_POINT, 0) - 1] = CHECKERS
    board[to_seat0(START_POINT, 1) - 1] = -CHECKERS
    return board


def _copy_turn(turn: GulbaraTurn) -> GulbaraTurn:
    """A completed turn record with its own lists (records are shared by no two states)."""
    return {
        "seat": turn["seat"],
        "roll": list(turn["roll"]),
        "steps": list(turn["steps"]),
        "stages": list(turn["stages"]),
        "passed": turn["passed"],
    }


def _roll_dice(first: int, second: int) -> tuple[int, ...]:
    if first == second:
        return (first,) * 4
    return (max(first, second), min(first, second))


class GulbaraState(GameState):
    """A position of a Gul Bara match, including the unfinished turn and its history."""

    players = 2

    def __init__(self, **fields: Any) -> None:
        self.match_to: int = fields["match_to"]
        self.autoplay: bool = fields["autoplay"]
        self.head_rule: str = fields.get("head_rule", DEFAULT_HEAD_RULE)
        self.score: list[int] = list(fields["score"])
        self.game_number: int = fields["game_number"]
        self.board: list[int] = list(fields["board"])
        self.off: list[int] = list(fields["off"])
        self.turn: int = fields["turn"]
        self.over: bool = fields["over"]
        self.roll: list[int] = list(fields["roll"])
        self.dice: tuple[int, ...] = tuple(fields["dice"])
        self.stage_die: int | None = fields["stage_die"]
        self.stages: list[int] = list(fields["stages"])
        self.rolls: list[int] = list(fields["rolls"])
        self.start: dict[str, Any] = dict(fields["start"])
        self.played: list[tuple[int, int]] = [tuple(step) for step in fields["played"]]
        self.recent: list[GulbaraTurn] = [_copy_turn(turn) for turn in fields["recent"]]
        self.opening: list[int] | None = fields["opening"]
        self.last_game: GulbaraGameResult | None = fields["last_game"]
        self.rng: Rng = fields["rng"]
        self._steps: list[tuple[int, int, int]] | None = None

    # -- the engine contract ---------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[str]:
        """The legal steps, then ``undo`` when a step of this turn can be taken back."""
        return self.legal_steps() + ([UNDO] if self.can_undo else [])

    def apply(self, action: str) -> GulbaraState:
        if self.over:
            raise IllegalAction(N_("The game is over."))
        text = "".join(action.split()).lower()
        if text == UNDO:
            if not self.can_undo:
                raise IllegalAction(N_("There is no step of this turn to take back."))
            return self._undone()
        source, die, target = self._check_step(text)
        state = self._copy()
        state._move(source, die, target)
        state.settle()
        return state

    def returns(self) -> list[float]:
        """Match points won by each seat (a single game: 1 or 2 for the winner, 0 else)."""
        return [float(points) for points in self.score]

    def view(self, seat: int | None = None) -> GulbaraView:
        """The public picture; Gul Bara hides nothing, so every seat sees the same."""
        return {
            "game": "gulbara",
            "points": list(self.board),
            "off": list(self.off),
            "turn": self.current_player,
            "over": self.over,
            "winner": self.winner,
            "roll": list(self.roll),
            "dice": list(self.dice),
            "stage": self.stage_die,
            "stages": list(self.stages),
            "chain": self.chain_to_come(),
            "escalates": self.escalates(),
            "rolls": list(self.rolls),
            "grace_left": self.grace_left(),
            "pips": [pip_count(self.board, 0), pip_count(self.board, 1)],
            "played": self.played_steps(),
            "recent_turns": [_copy_turn(turn) for turn in self.recent],
            "opening": None if self.opening is None else list(self.opening),
            "score": list(self.score),
            "match_to": self.match_to,
            "game_number": self.game_number,
            "last_game": None if self.last_game is None else self.last_game.copy(),
            "autoplay": self.autoplay,
            "code": self.code(),
        }

    def to_dict(self) -> dict[str, Any]:
        data = self._fields()
        if self.head_rule != DEFAULT_HEAD_RULE:
            # Written only when not the default, so a game under today's rule keeps the
            # snapshot it always had (a replay of a game stored before the option existed
            # must end in it).
            data["head_rule"] = self.head_rule
        return data

    def _fields(self) -> dict[str, Any]:
        return {
            "match_to": self.match_to,
            "autoplay": self.autoplay,
            "score": list(self.score),
            "game_number": self.game_number,
            "board": list(self.board),
            "off": list(self.off),
            "turn": self.turn,
            "over": self.over,
            "roll": list(self.roll),
            "dice": list(self.dice),
            "stage_die": self.stage_die,
            "stages": list(self.stages),
            "rolls": list(self.rolls),
            "start": {
                "board": list(self.start["board"]),
                "off": list(self.start["off"]),
                "dice": list(self.start["dice"]),
                "stage_die": self.start["stage_die"],
            },
            "played": [list(step) for step in self.played],
            "recent": [_copy_turn(turn) for turn in self.recent],
            "opening": None if self.opening is None else list(self.opening),
            "last_game": None if self.last_game is None else dict(self.last_game),
            "rng": self.rng.to_dict(),
        }

    def describe(self, action: str) -> str:
        """``moves 24/18 (6)``, ``bears off from 3 (5)``, ``takes back 24/18``."""
        text = "".join(action.split()).lower()
        if text == UNDO:
            if not self.played:
                return "takes back nothing"
            return f"takes back {step_notation(*self.played[-1])}"
        try:
            source, die, target = self._check_step(text)
        except IllegalAction:
            return action
        if target == 0:
            return f"bears off from {source} ({die})"
        return f"moves {source}/{target} ({die})"

    # -- helpers for the Discord layer -------------------------------------------------

    @property
    def winner(self) -> int | None:
        """The match winner once it is over."""
        if not self.over:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    @property
    def can_undo(self) -> bool:
        return not self.over and bool(self.played)

    def legal_steps(self) -> list[str]:
        """The legal steps only (no ``undo``), highest source first, each once."""
        seen: dict[str, None] = {}
        for source, die, _target in sorted(self.legal_moves(), key=lambda m: (-m[0], -m[1])):
            seen.setdefault(step_notation(source, die), None)
        return list(seen)

    def movable_points(self) -> list[int]:
        """The distinct points (mover's numbering) a checker can legally leave, highest first."""
        return sorted({source for source, _die, _target in self.legal_moves()}, reverse=True)

    def step_choices(self, point: int) -> list[dict[str, Any]]:
        """For one source point, each legal die with its destination and action.

        ``[{"die": 6, "to": "18", "action": "24/18"}, {"die": 5, "to": "off", ...}]``,
        highest die first; empty if no checker can legally leave ``point``.
        """
        choices: dict[str, dict[str, Any]] = {}
        for source, die, target in self.legal_moves():
            if source != point:
                continue
            action = step_notation(source, die)
            choices.setdefault(
                action, {"die": die, "to": str(target) if target else "off", "action": action}
            )
        return sorted(choices.values(), key=lambda choice: -choice["die"])

    def forced_step(self) -> str | None:
        """The only legal step when there is exactly one, else None."""
        steps = self.legal_steps()
        return steps[0] if len(steps) == 1 else None

    def played_steps(self) -> list[str]:
        return [step_notation(source, die) for source, die in self.played]

    def escalates(self) -> bool:
        """Whether a double rolled now by the seat to move would escalate (grace over)."""
        return self.rolls[self.turn] > GRACE_ROLLS

    def grace_left(self) -> list[int]:
        """Per seat, how many of its rolls are still exempt from escalation, counting the
        roll being played by the seat to move (the other seat's next roll onwards)."""
        return [
            max(0, GRACE_ROLLS - rolls + (1 if seat == self.turn and not self.over else 0))
            for seat, rolls in enumerate(self.rolls)
        ]

    def chain_to_come(self) -> list[int]:
        """The doubles still to follow the current one, e.g. ``[5, 6]`` while playing 4-4."""
        if self.over or self.stage_die is None or not self.escalates():
            return []
        return list(range(self.stage_die + 1, 7))

    def code(self) -> str:
        """``GB1:<p1>,…,<p24>|<off0>,<off1>|<turn>|<dice>|<rolls0>,<rolls1>`` of this position."""
        points = ",".join(str(value) if value else "" for value in self.board)
        dice = ",".join(str(die) for die in self.dice)
        return (
            f"{CODE_PREFIX}{points}|{self.off[0]},{self.off[1]}|{self.turn}|{dice}"
            f"|{self.rolls[0]},{self.rolls[1]}"
        )

    # -- internals -------------------------------------------------------------------
    # (``mover``, ``legal_moves``, ``settle`` and ``finish_game`` serve the codec and the
    # computer player too)

    def _copy(self) -> GulbaraState:
        fields = self.to_dict()
        fields["rng"] = self.rng.copy()
        return GulbaraState(**fields)

    def mover(self) -> tuple[Mover, list[int]]:
        mine, theirs = perspective(self.board, self.off, self.turn)
        blocked = [count > 0 for count in theirs]
        blocked[0] = False
        return Mover(blocked, theirs[0], HEAD_RULES[self.head_rule]), mine

    def legal_moves(self) -> list[tuple[int, int, int]]:
        if self._steps is None:
            if self.over or not self.dice:
                self._steps = []
            else:
                mover, mine = self.mover()
                self._steps = mover.first_steps(mine, self.dice)
        return self._steps

    def _check_step(self, text: str) -> tuple[int, int, int]:
        source_text, slash, target_text = text.partition("/")
        source = whole_number(source_text, max_digits=2)
        target = 0 if target_text == "off" else whole_number(target_text, max_digits=2)
        if not slash or source is None or target is None:
            raise IllegalAction(
                N_("`{text}` is not a step; write it like 24/18 or 3/off."), text=text
            )
        candidates = [move for move in self.legal_moves() if move[0] == source]
        matching = [move for move in candidates if move[2] == target]
        if not matching:
            raise self._why_illegal(source, target)
        return min(matching, key=lambda move: move[1])

    def _why_illegal(self, source: int, target: int) -> IllegalAction:
        """Which rule a step breaks, then the legal steps."""
        if not 1 <= source <= POINTS:
            return IllegalAction(
                N_("There is no point {source}; points are numbered 1 to 24."), source=source
            )
        mover, mine = self.mover()
        known = {
            "source": source,
            "target": target,
            "dice": "-".join(str(die) for die in self.dice),
            "steps": ", ".join(self.legal_steps()),
        }
        if not mine[source]:
            reason = N_("You have no checker on {source}. Legal steps: {steps}.")
        elif target and source - target not in self.dice:
            reason = N_(
                "No die takes a checker from {source} to {target} (dice left: {dice})."
                " Legal steps: {steps}."
            )
        elif source not in mover.sources(mine) and self.head_rule == DEFAULT_HEAD_RULE:
            reason = N_(
                "Head rule: only your first checker may move until it reaches 12–7."
                " Legal steps: {steps}."
            )
        elif source not in mover.sources(mine):
            reason = N_(
                "Head rule: only your first checker may move until it has passed 12 and"
                " stands on 11 or lower. Legal steps: {steps}."
            )
        elif target and mover.blocked[target]:
            reason = N_("Point {target} is held by your opponent. Legal steps: {steps}.")
        elif not target and any(mine[HOME_TOP + 1 :]):
            reason = N_(
                "You can bear off only when all your checkers are on 1–6. Legal steps: {steps}."
            )
        elif not target and all(mover.target(mine, source, die) for die in set(self.dice)):
            reason = N_("No die bears off from {source} (dice left: {dice}). Legal steps: {steps}.")
        elif target and mover.target(mine, source, source - target) < 0:
            reason = N_(
                "That would make six points in a row with no opposing checker past them."
                " Legal steps: {steps}."
            )
        else:
            reason = N_(
                "You must play as many dice as you can, the higher one if only one fits."
                " Legal steps: {steps}."
            )
        used = {name: value for name, value in known.items() if "{" + name + "}" in reason}
        return IllegalAction(reason, **used)

    def _move(self, source: int, die: int, target: int) -> None:
        sign = 1 if self.turn == 0 else -1
        self.board[to_seat0(source, self.turn) - 1] -= sign
        if target:
            self.board[to_seat0(target, self.turn) - 1] += sign
        else:
            self.off[self.turn] += 1
        dice = list(self.dice)
        dice.remove(die)
        self.dice = tuple(dice)
        self.played.append((source, die))
        self._steps = None

    def _next_stage(self) -> bool:
        """Start the next double of the chain if the current one was played in full."""
        if self.dice or self.stage_die is None or self.stage_die == 6 or not self.escalates():
            return False
        self.stage_die += 1
        self.dice = (self.stage_die,) * 4
        self.stages.append(self.stage_die)
        self._steps = None
        return True

    def settle(self) -> None:
        """After a step: win, go on in this stage or the next one, or end the turn."""
        if self.off[self.turn] == CHECKERS:
            self.finish_game()
            return
        while not self.legal_moves():
            if not self._next_stage():
                self._end_turn()
                return

    def _record_turn(self) -> None:
        self.recent.append(
            {
                "seat": self.turn,
                "roll": list(self.roll),
                "steps": self.played_steps(),
                "stages": list(self.stages),
                "passed": not self.played,
            }
        )
        del self.recent[:-RECENT_TURNS]

    def _end_turn(self) -> None:
        self._record_turn()
        self._start_turn(1 - self.turn)

    def _start_turn(self, seat: int) -> None:
        """Roll for ``seat``; a roll without any legal step passes the turn on."""
        while True:
            self.turn = seat
            self.rolls[seat] += 1
            first, second = self.rng.dice(2, seat)
            self._begin(seat, [first, second])
            if self.legal_moves():
                return
            self._record_turn()
            seat = 1 - seat

    def _begin(self, seat: int, roll: list[int]) -> None:
        self.turn = seat
        self.roll = sorted(roll, reverse=True)
        self.dice = _roll_dice(*roll)
        self.stage_die = roll[0] if roll[0] == roll[1] else None
        self.stages = [] if self.stage_die is None else [self.stage_die]
        self.played = []
        self._steps = None
        self.start = {
            "board": list(self.board),
            "off": list(self.off),
            "dice": list(self.dice),
            "stage_die": self.stage_die,
        }

    def _start_game(self) -> None:
        """Set up the board and roll one die each; the higher plays both numbers."""
        self.board = _start_board()
        self.off = [0, 0]
        self.recent = []
        opening = [self.rng.die(0), self.rng.die(1)]
        while opening[0] == opening[1]:
            opening = [self.rng.die(0), self.rng.die(1)]
        starter = 0 if opening[0] > opening[1] else 1
        self.opening = opening
        self.rolls = [0, 0]
        self.rolls[starter] = 1
        self._begin(starter, opening)

    def finish_game(self) -> None:
        winner = self.turn
        points = 2 if self.off[1 - winner] == 0 else 1
        self.score[winner] += points
        self.last_game = {"game_number": self.game_number, "winner": winner, "points": points}
        self._record_turn()
        if self.score[winner] >= self.match_to:
            self.over = True
            self.dice = ()
            self.played = []
            self._steps = []
            return
        self.game_number += 1
        self._start_game()

    def _undone(self) -> GulbaraState:
        """Replay this turn's steps but the last from the start of the turn."""
        state = self._copy()
        steps = state.played[:-1]
        state.board = list(self.start["board"])
        state.off = list(self.start["off"])
        state.dice = tuple(self.start["dice"])
        state.stage_die = self.start["stage_die"]
        state.stages = [] if state.stage_die is None else [state.stage_die]
        state.played = []
        for source, die in steps:
            target = max(0, source - die)
            state._move(source, die, target)
            state._next_stage()
        state._steps = None
        return state


def base_fields(
    match_to: int, autoplay: bool, rng: Rng, head_rule: str = DEFAULT_HEAD_RULE
) -> dict[str, Any]:
    return {
        "match_to": match_to,
        "autoplay": autoplay,
        "head_rule": head_rule,
        "score": [0, 0],
        "game_number": 1,
        "board": _start_board(),
        "off": [0, 0],
        "turn": 0,
        "over": False,
        "roll": [],
        "dice": (),
        "stage_die": None,
        "stages": [],
        "rolls": [0, 0],
        "start": {"board": _start_board(), "off": [0, 0], "dice": [], "stage_die": None},
        "played": [],
        "recent": [],
        "opening": None,
        "last_game": None,
        "rng": rng,
    }


def new_game(
    players: int = 2,
    seed: int = 0,
    match_to: int = 1,
    autoplay: bool = True,
    head_rule: str = DEFAULT_HEAD_RULE,
) -> GulbaraState:
    """A new match: the seeded opening roll decides who starts and with which two numbers."""
    if players != 2:
        raise IllegalAction(N_("Gul Bara is played by exactly 2 players."))
    if not 1 <= match_to <= MAX_MATCH:
        raise IllegalAction(N_("A match goes to 1 to {points} points."), points=MAX_MATCH)
    if head_rule not in HEAD_RULES:
        raise IllegalAction(N_("The head rule is reach or pass."))
    state = GulbaraState(**base_fields(match_to, bool(autoplay), Rng(seed), head_rule))
    state._start_game()
    return state
