"""Gul Bara: Bulgarian backgammon with escalating doubles (docs/rules/gulbara.md).

Each seat numbers the points 24→1 along its own path; seat 1's point ``p`` is seat 0's
point ``(p + 11) % 24 + 1``. The board is stored in seat 0's numbering, signed (+ for
seat 0, − for seat 1), exactly like the ``GB1`` position code.

An action is one step (``24/18``, ``3/off``) or ``undo``. A turn is rolled inside
``apply`` and is split into stages: the two dice of a roll, or four equal dice of a
double, followed by the next double of an escalation chain once the grace period is over.
``legal_actions`` lists the steps that begin a play of maximal length for the rest of
the current stage, so any sequence of legal steps is a legal play.

For the Discord layer: ``legal_steps``, ``movable_points``, ``step_choices`` and
``forced_step`` group the legal steps for selects and buttons, ``split_steps`` reads a
typed move, ``describe`` words an action for the log. ``bot_action`` is the computer
player (a one-ply search over whole stages; hard looks one double further inside an
escalation chain).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, TypedDict

from games.base import (
    DEFAULT_LEVEL,
    N_,
    Dice,
    GameSpec,
    GameState,
    IllegalAction,
    Option,
    Rng,
    check_level,
    whole_number,
)

CHECKERS = 15
POINTS = 24
START_POINT = 24
HOME_TOP = 6
# a checker on this point or lower has reached the opponent's start quarter (head rule)
QUARTER_TOP = 12
GRACE_ROLLS = 3
MAX_MATCH = 25
RECENT_TURNS = 4
UNDO = "undo"
CODE_PREFIX = "GB1:"

# My points in the order the opponent passes them last-to-first: index 0 is the
# opponent's point 1. A window of six consecutive indices is a possible prime, and an
# opponent checker at a lower index than the window is already past it.
_OPPONENT_PATH = tuple((point + 11) % POINTS + 1 for point in range(1, POINTS + 1))
_PATH_INDEX = {point: index for index, point in enumerate(_OPPONENT_PATH)}
_PRIME = 6


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


def to_seat0(point: int, seat: int) -> int:
    """Seat 0's number for ``seat``'s point (the mapping is its own inverse)."""
    return point if seat == 0 else (point + 11) % POINTS + 1


def step_notation(source: int, die: int) -> str:
    target = source - die
    return f"{source}/{target if target > 0 else 'off'}"


def split_steps(text: str) -> list[str]:
    """The single steps of a typed move: ``24/18 18/13``, ``24/18/13`` (one checker
    through 18) and ``24/20(2)`` (two checkers) all work; commas count as spaces.
    Malformed parts are returned as they are, for ``apply`` to refuse with a reason."""
    steps: list[str] = []
    for part in text.replace(",", " ").lower().split():
        path, count = part, 1
        if part.endswith(")") and "(" in part:
            head, _, repeat = part[:-1].partition("(")
            repeats = whole_number(repeat, max_digits=1)
            if repeats is not None and 0 < repeats <= 4:
                path, count = head, repeats
        hops = [f"{a}/{b}" for a, b in itertools.pairwise(path.split("/"))] or [path]
        steps.extend(hops * count)
    return steps


def _die_choices(dice: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Each distinct die with the dice left after playing it, higher die first."""
    choices = []
    for die in sorted(set(dice), reverse=True):
        rest = list(dice)
        rest.remove(die)
        choices.append((die, tuple(rest)))
    return choices


class _Mover:
    """Step generation for the seat to move; the opponent cannot change during a turn.

    ``mine`` is indexed by the mover's point (index 0 counts borne-off checkers) and is
    changed in place and restored by the searches.
    """

    __slots__ = ("blocked", "first_past")

    def __init__(self, blocked: list[bool], opponent_off: int) -> None:
        self.blocked = blocked
        held = [index for index, point in enumerate(_OPPONENT_PATH) if blocked[point]]
        # a prime whose window starts after this index has an opponent checker past it
        self.first_past = -1 if opponent_off or not held else min(held)

    @staticmethod
    def sources(mine: list[int]) -> list[int]:
        """Points a checker may leave, highest first, honouring the head rule."""
        if sum(mine[QUARTER_TOP + 1 :]) == CHECKERS:
            runners = [p for p in range(START_POINT - 1, QUARTER_TOP, -1) if mine[p]]
            return runners or ([START_POINT] if mine[START_POINT] else [])
        return [p for p in range(POINTS, 0, -1) if mine[p]]

    def target(self, mine: list[int], source: int, die: int) -> int:
        """Where a checker from ``source`` lands with ``die`` (0 = off), or -1 if illegal."""
        target = source - die
        if target > 0:
            if self.blocked[target] or self._makes_prime(mine, source, target):
                return -1
            return target
        if any(mine[HOME_TOP + 1 :]):
            return -1
        if target < 0 and any(mine[source + 1 : HOME_TOP + 1]):
            return -1
        return 0

    def _makes_prime(self, mine: list[int], source: int, target: int) -> bool:
        index = _PATH_INDEX[target]
        last_start = min(index, len(_OPPONENT_PATH) - _PRIME, self.first_past - _PRIME)
        if last_start < max(0, index - _PRIME + 1):
            return False
        mine[source] -= 1
        mine[target] += 1
        try:
            return any(
                all(mine[_OPPONENT_PATH[k]] for k in range(start, start + _PRIME))
                for start in range(max(0, index - _PRIME + 1), last_start + 1)
            )
        finally:
            mine[source] += 1
            mine[target] -= 1

    def longest(self, mine: list[int], dice: tuple[int, ...], memo: dict[Any, int]) -> int:
        """How many of ``dice`` can be played from here (stops early at all of them)."""
        if not dice:
            return 0
        key = (bytes(mine), dice)
        known = memo.get(key)
        if known is not None:
            return known
        best = 0
        for die, rest in _die_choices(dice):
            for source in self.sources(mine):
                target = self.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                length = 1 + self.longest(mine, rest, memo)
                mine[source] += 1
                mine[target] -= 1
                if length > best:
                    best = length
                    if best == len(dice):
                        memo[key] = best
                        return best
        memo[key] = best
        return best

    def first_steps(self, mine: list[int], dice: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """The steps that begin a play of maximal length (with the higher-die rule)."""
        memo: dict[Any, int] = {}
        scored = []
        for die, rest in _die_choices(dice):
            for source in self.sources(mine):
                target = self.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                scored.append((1 + self.longest(mine, rest, memo), (source, die, target)))
                mine[source] += 1
                mine[target] -= 1
        if not scored:
            return []
        best = max(length for length, _step in scored)
        chosen = [step for length, step in scored if length == best]
        if best == 1 and len(dice) == 2 and dice[0] != dice[1]:
            higher = [step for step in chosen if step[1] == max(dice)]
            return higher or chosen
        return chosen


def _start_board() -> list[int]:
    board = [0] * POINTS
    board[to_seat0(START_POINT, 0) - 1] = CHECKERS
    board[to_seat0(START_POINT, 1) - 1] = -CHECKERS
    return board


def perspective(board: list[int], off: list[int], seat: int) -> tuple[list[int], list[int]]:
    """``seat``'s and the opponent's checkers per point of ``seat``'s numbering.

    Index 0 of each list holds that side's borne-off checkers.
    """
    sign = 1 if seat == 0 else -1
    mine = [off[seat]] + [0] * POINTS
    theirs = [off[1 - seat]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        value = board[to_seat0(point, seat) - 1] * sign
        if value > 0:
            mine[point] = value
        elif value < 0:
            theirs[point] = -value
    return mine, theirs


def pip_count(board: list[int], seat: int) -> int:
    sign = 1 if seat == 0 else -1
    return sum(
        point * max(0, board[to_seat0(point, seat) - 1] * sign) for point in range(1, POINTS + 1)
    )


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
        state._settle()
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
        for source, die, _target in sorted(self._legal_moves(), key=lambda m: (-m[0], -m[1])):
            seen.setdefault(step_notation(source, die), None)
        return list(seen)

    def movable_points(self) -> list[int]:
        """The distinct points (mover's numbering) a checker can legally leave, highest first."""
        return sorted({source for source, _die, _target in self._legal_moves()}, reverse=True)

    def step_choices(self, point: int) -> list[dict[str, Any]]:
        """For one source point, each legal die with its destination and action.

        ``[{"die": 6, "to": "18", "action": "24/18"}, {"die": 5, "to": "off", ...}]``,
        highest die first; empty if no checker can legally leave ``point``.
        """
        choices: dict[str, dict[str, Any]] = {}
        for source, die, target in self._legal_moves():
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

    def _copy(self) -> GulbaraState:
        fields = self.to_dict()
        fields["rng"] = self.rng.copy()
        return GulbaraState(**fields)

    def _mover(self) -> tuple[_Mover, list[int]]:
        mine, theirs = perspective(self.board, self.off, self.turn)
        blocked = [count > 0 for count in theirs]
        blocked[0] = False
        return _Mover(blocked, theirs[0]), mine

    def _legal_moves(self) -> list[tuple[int, int, int]]:
        if self._steps is None:
            if self.over or not self.dice:
                self._steps = []
            else:
                mover, mine = self._mover()
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
        candidates = [move for move in self._legal_moves() if move[0] == source]
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
        mover, mine = self._mover()
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
        elif source not in mover.sources(mine):
            reason = N_(
                "Head rule: only your first checker may move until it reaches 12–7."
                " Legal steps: {steps}."
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

    def _settle(self) -> None:
        """After a step: win, go on in this stage or the next one, or end the turn."""
        if self.off[self.turn] == CHECKERS:
            self._finish_game()
            return
        while not self._legal_moves():
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
            if self._legal_moves():
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

    def _finish_game(self) -> None:
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


def _base_fields(match_to: int, autoplay: bool, rng: Rng) -> dict[str, Any]:
    return {
        "match_to": match_to,
        "autoplay": autoplay,
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
    players: int = 2, seed: int = 0, match_to: int = 1, autoplay: bool = True
) -> GulbaraState:
    """A new match: the seeded opening roll decides who starts and with which two numbers."""
    if players != 2:
        raise IllegalAction(N_("Gul Bara is played by exactly 2 players."))
    if not 1 <= match_to <= MAX_MATCH:
        raise IllegalAction(N_("A match goes to 1 to {points} points."), points=MAX_MATCH)
    state = GulbaraState(**_base_fields(match_to, bool(autoplay), Rng(seed)))
    state._start_game()
    return state


def _parse_ints(text: str, what: str) -> list[int]:
    try:
        return [int(part) if part.strip() else 0 for part in text.split(",")]
    except ValueError as error:
        raise ValueError(f"The {what} of a GB1 code must be whole numbers.") from error


def from_code(code: str, seed: int = 0) -> GulbaraState:
    """The position of a ``GB1`` code as a single game, with a fresh random source.

    Equal dice (``3,3,3,3`` or ``4,4``) are the rest of a double stage, which escalates
    when the mover's roll count is above the grace period; a lone die ends the turn.
    A position in which the mover has no legal step is settled at once (next stage,
    or the turn passes and the opponent rolls).
    """
    text = code.strip()
    if not text.startswith(CODE_PREFIX) or text.count("|") != 4:
        raise ValueError("A GB1 code looks like GB1:<24 points>|<off>|<turn>|<dice>|<rolls>.")
    points_text, off_text, turn_text, dice_text, rolls_text = text[len(CODE_PREFIX) :].split("|")
    board = _parse_ints(points_text, "points")
    off = _parse_ints(off_text, "borne-off counts")
    rolls = _parse_ints(rolls_text, "roll counts")
    dice = tuple(_parse_ints(dice_text, "dice")) if dice_text.strip() else ()
    if len(board) != POINTS or len(off) != 2 or len(rolls) != 2 or turn_text not in ("0", "1"):
        raise ValueError("A GB1 code needs 24 points, two off counts, a turn 0/1, two rolls.")
    for seat, sign in ((0, 1), (1, -1)):
        on_board = sum(max(0, value * sign) for value in board)
        if on_board + off[seat] != CHECKERS:
            raise ValueError(f"Seat {seat} must have 15 checkers on the board and off.")
    if any(not 1 <= die <= 6 for die in dice) or len(dice) > 4:
        raise ValueError("Dice are 1 to 6, at most four of them.")
    if len(dice) > 2 and len(set(dice)) != 1:
        raise ValueError("Three or four dice to play must be equal (a double).")
    stage_die = dice[0] if len(dice) >= 2 and len(set(dice)) == 1 else None
    fields = _base_fields(1, True, Rng(seed))
    fields.update(
        board=board,
        off=off,
        turn=int(turn_text),
        dice=dice,
        roll=list(dice[:2]),
        stage_die=stage_die,
        stages=[] if stage_die is None else [stage_die],
        rolls=rolls,
        start={"board": board, "off": off, "dice": list(dice), "stage_die": stage_die},
    )
    state = GulbaraState(**fields)
    for seat in (0, 1):
        if off[seat] == CHECKERS:
            state.turn = seat
            state._finish_game()
            return state
    state._settle()
    return state


def from_dict(data: dict[str, Any]) -> GulbaraState:
    fields = dict(data)
    fields["rng"] = Rng.from_dict(data["rng"])
    return GulbaraState(**fields)


# -- computer player -------------------------------------------------------------------

# Evaluation weights, in pips: what a feature is worth compared with one pip of race.
_WEIGHT_BORNE_OFF = 4.0
_WEIGHT_POINT_HELD = 1.0
_WEIGHT_BLOCK = 0.8
_WEIGHT_RUN = 0.8
_WEIGHT_BLOCKED = 0.5
_WEIGHT_HEAD = 1.5
_HEAD_LOCKED = 8.0
_WEIGHT_MOBILITY = 4.0
_WEIGHT_WASTE = 4.0
_HOME_WASTE = (0.0, 2.5, 1.6, 0.9, 0.4, 0.15, 0.0)
_BLOCK_CAP = 15
_SHORTLIST = 40
_EASY_CHOICES = 4
# normal treats plays this close (in pips) to the best one as equally good
_NORMAL_MARGIN = 4.0
_WON = 10_000.0
# hard judges this many of the best plays of a chain's double by the next double's best play
_CHAIN_LOOKAHEAD = 3
_OPPONENT_POINT = tuple([0] + [(point + 11) % POINTS + 1 for point in range(1, POINTS + 1)])


def _runs(flags: list[bool]) -> Iterator[tuple[int, int]]:
    """``(start, length)`` of each run of consecutive true flags."""
    start = None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            yield start, index - start
            start = None


def _blocking(holder: list[int], walker: list[int]) -> float:
    """How much ``holder``'s points hinder ``walker``'s checkers, both indexed along the
    walker's path from its last point (index 0) to its first (index 23)."""
    value = 0.0
    for index, count in enumerate(holder):
        if count:
            value += _WEIGHT_BLOCK * min(_BLOCK_CAP, sum(walker[index + 1 : index + 7]))
    for start, length in _runs([count > 0 for count in holder]):
        if length > 1 and any(walker[start + length :]):
            value += _WEIGHT_RUN * (length - 1) ** 2
    return value


def _head_penalty(board: list[int]) -> float:
    """Cost of still being bound by the head rule (``board`` indexed by own points)."""
    if sum(board[QUARTER_TOP + 1 :]) != CHECKERS:
        return 0.0
    runner = max((p for p in range(QUARTER_TOP + 1, START_POINT) if board[p]), default=24)
    return _HEAD_LOCKED + _WEIGHT_HEAD * (runner - QUARTER_TOP)


def _waste(board: list[int]) -> float:
    """Pips a side can expect to lose when bearing off checkers that sit deep in its home
    (a checker on the 1-point takes a whole die to remove)."""
    return sum(board[point] * _HOME_WASTE[point] for point in range(1, HOME_TOP + 1))


def evaluate(mine: list[int], theirs: list[int]) -> float:
    """How good a position is for ``mine`` (both lists in mine's numbering, index 0 off).

    Every maximal play moves the same number of pips, so what separates plays is what
    they cost later: racing (pip counts, borne-off checkers, pips that bearing off from
    deep points will waste), blocking (points held in front of the other side's
    checkers, longer runs worth more) and the head rule (a side whose runner has not
    reached the quarter cannot bring its other checkers into play).
    """
    if mine[0] == CHECKERS:
        return _WON
    their_own = [theirs[0]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        their_own[_OPPONENT_POINT[point]] = theirs[point]
    value = float(pip_total(their_own) - pip_total(mine))
    value += _WEIGHT_BORNE_OFF * (mine[0] - theirs[0])
    value -= _WEIGHT_WASTE * (_waste(mine) - _waste(their_own))
    value += _WEIGHT_POINT_HELD * (
        sum(1 for count in mine[1:] if count) - sum(1 for count in theirs[1:] if count)
    )
    mine_on_their_path = [mine[point] for point in _OPPONENT_PATH]
    their_path_walkers = [their_own[index + 1] for index in range(POINTS)]
    theirs_on_my_path = theirs[1:]
    my_walkers = mine[1:]
    value += _blocking(mine_on_their_path, their_path_walkers)
    value -= _blocking(theirs_on_my_path, my_walkers) * (1 + _WEIGHT_BLOCKED)
    value += _head_penalty(their_own) - _head_penalty(mine)
    return value


def pip_total(board: list[int]) -> int:
    """Pips still to travel for a side, ``board`` indexed by its own points."""
    return sum(point * board[point] for point in range(1, POINTS + 1))


def stage_plays(state: GulbaraState) -> dict[bytes, tuple[int, int, int]]:
    """Every distinct end position of a maximal play of the current stage, each with a
    legal first step that leads to it (positions are the mover's ``mine`` as bytes)."""
    mover, mine = state._mover()
    return play_ends(mover, mine, state.dice, state._legal_moves())


def play_ends(
    mover: _Mover, mine: list[int], dice: tuple[int, ...], firsts: list[tuple[int, int, int]]
) -> dict[bytes, tuple[int, int, int]]:
    """``stage_plays`` for any board and dice, ``firsts`` being the legal first steps."""
    memo: dict[Any, int] = {}
    ends: dict[bytes, tuple[int, int, int]] = {}
    seen: set[tuple[bytes, tuple[int, ...]]] = set()

    def walk(dice: tuple[int, ...], first: tuple[int, int, int]) -> None:
        key = (bytes(mine), dice)
        if key in seen:
            return
        seen.add(key)
        best = mover.longest(mine, dice, memo)
        if best == 0 or mine[0] == CHECKERS:
            ends.setdefault(key[0], first)
            return
        for die, rest in _die_choices(dice):
            for source in mover.sources(mine):
                target = mover.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                if 1 + mover.longest(mine, rest, memo) == best:
                    walk(rest, first)
                mine[source] += 1
                mine[target] -= 1

    for source, die, target in firsts:
        rest = list(dice)
        rest.remove(die)
        mine[source] -= 1
        mine[target] += 1
        walk(tuple(rest), (source, die, target))
        mine[source] += 1
        mine[target] -= 1
    return ends


def _unplayable(mover: _Mover, board: list[int], die: int) -> int:
    """0 if two or more checkers can play ``die``, 1 if one can, 2 if none can."""
    playable = 0
    for source in mover.sources(board):
        if mover.target(board, source, die) >= 0:
            playable += 1
            if playable == 2:
                return 0
    return 2 - playable


def mobility_loss(mover: _Mover, board: list[int]) -> float:
    """Roughly the pips a side expects to lose on its next roll because dice are blocked."""
    loss = 0.0
    for die in range(1, 7):
        stuck = _unplayable(mover, board, die)
        if stuck == 2:
            loss += die * 10 / 36 + 4 * die / 36
        elif stuck == 1:
            loss += 2 * die / 36
    return loss


def _chain_loss(mover: _Mover, board: list[int], next_die: int) -> float:
    """Pips of the rest of an escalation chain lost if ``next_die`` cannot be played 4 times."""
    playable = mover.longest(board, (next_die,) * 4, {})
    if playable == 4:
        return 0.0
    return 4 * sum(range(next_die, 7)) - playable * next_die


def _refine(mover: _Mover, end: list[int], theirs: list[int], next_double: int | None) -> float:
    """Mobility on the next rolls: the opponent's (blocked by us) against our own."""
    their_own = [theirs[0]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        their_own[_OPPONENT_POINT[point]] = theirs[point]
    my_points = [False] + [bool(end[_OPPONENT_POINT[point]]) for point in range(1, POINTS + 1)]
    opponent = _Mover(my_points, end[0])
    value = _WEIGHT_MOBILITY * (mobility_loss(opponent, their_own) - mobility_loss(mover, end))
    if next_double is not None and end[0] < CHECKERS:
        value -= _chain_loss(mover, end, next_double)
    return value


def _next_double_value(
    mover: _Mover, board: list[int], theirs: list[int], die: int, fallback: float
) -> float:
    """The evaluation of the best play of the chain's next double ``die`` from ``board``
    (the same player moves again before anyone rolls), or ``fallback`` if no checker
    can play it."""
    dice = (die,) * 4
    firsts = mover.first_steps(board, dice) if board[0] < CHECKERS else []
    if not firsts:
        return fallback
    full = mover.longest(board, dice, {}) == 4
    following = die + 1 if die < 6 and full else None
    # a double played only in part ends the chain: the doubles after it are lost
    lost = 0.0 if full else 4.0 * sum(range(die + 1, 7))
    return -lost + max(
        evaluate(list(end), theirs) + _refine(mover, list(end), theirs, following)
        for end in play_ends(mover, board, dice, firsts)
    )


def bot_action(state: GulbaraState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The first step of the stage play whose end position scores best (ties broken by
    the seed).

    Every end position gets a quick static evaluation; the best few are then judged
    again with the dice each side will be able to play next (and, inside an escalation
    chain, whether the next double can be played four times). Hard plays the best of
    them, judging the best ``_CHAIN_LOOKAHEAD`` plays of a chain's double by the best
    play of the next double from there; normal any within ``_NORMAL_MARGIN`` of the
    best, easy any of the four best by the quick evaluation.
    """
    check_level(level)
    if state.over:
        raise IllegalAction(N_("The game is over."))
    ends = stage_plays(state)
    _, theirs = perspective(state.board, state.off, state.turn)
    quick = sorted(
        ((evaluate(list(end), theirs), end, first) for end, first in ends.items()),
        reverse=True,
    )
    if level == "easy":
        _value, _end, first = Rng(seed).choice(quick[:_EASY_CHOICES])
        return step_notation(first[0], first[1])
    mover, mine = state._mover()
    chain = state.chain_to_come()
    full_stage = mover.longest(mine, state.dice, {}) == len(state.dice)
    next_double = chain[0] if chain and full_stage else None
    scored = sorted(
        (value + _refine(mover, list(end), theirs, next_double), end, first)
        for value, end, first in quick[:_SHORTLIST]
    )
    if level == "hard" and next_double is not None:
        scored = sorted(
            (_next_double_value(mover, list(end), theirs, next_double, value), end, first)
            for value, end, first in scored[-_CHAIN_LOOKAHEAD:]
        )
    top = scored[-1][0]
    margin = _NORMAL_MARGIN if level == "normal" else 0.0
    best = [first for value, _end, first in scored if value >= top - margin]
    source, die, _target = best[0] if len(best) == 1 else Rng(seed).choice(best)
    return step_notation(source, die)


SPEC = GameSpec(
    key="gulbara",
    title="Gul Bara",
    min_players=2,
    max_players=2,
    position=2,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="loss",
    dice=Dice(),
    hidden_information=False,
    options=(
        Option(
            "match_to", 1, N_("Points needed to win the match (1 = a single game)."), 1, MAX_MATCH
        ),
        Option("autoplay", True, N_("Forced single choices play themselves.")),
    ),
)
