"""Provably fair games: the commitment, the game record anyone can check, and the walk
through a finished game that re-derives every die and shuffle.

Before play the bot publishes ``commitment(...)``, a SHA-256 hash of the secret seed and
what identifies the game; after play it reveals the seed. A record (``write_record``)
lists the game, its seats and options, the seed, the commitment and every action with
the chance events that followed it and a digest of the public position it led to.
``verify_record`` recomputes all of it from the seed with the open rules and says where
a record differs. Everything here is pure: text in, text out.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import GAMES
from games.base import (
    TABLE_EVENT,
    ChanceEvent,
    GameSpec,
    GameState,
    IllegalAction,
    Step,
    journaling,
)
from games.table_events import ImpossibleEvent, TableEvents

RECORD_TITLE = "Tablebot game record, version 1"
SHORT_COMMITMENT = 16
POSITION_DIGEST = 12


def commitment(
    kind: str,
    game_id: int,
    guild_id: int,
    channel_id: int,
    seed: int,
    options: Mapping[str, Any],
    seats: Sequence[str],
) -> str:
    """The SHA-256 (hex) that binds a game to its seed before anyone has seen a die.

    The options and the seats (who sits where) are bound too: with the same seed, another
    seat order hands the same dice to other players, and other options make another game,
    so a record that changes either no longer matches what the board showed."""
    game = [kind, game_id, guild_id, channel_id, dict(options), list(seats), seed]
    message = "tablebot/v2/" + json.dumps(game, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(message.encode()).hexdigest()


def short_commitment(full: str) -> str:
    """The commitment as the board shows it: its first 64 bits."""
    return full[:SHORT_COMMITMENT]


def computer_seed(seed: int, step: int) -> int:
    """The seed a computer player gets for its ``step``-th decision: one-way from the
    game's seed, so the computer's choices give nothing about the dice away."""
    digest = hmac.digest(str(seed).encode(), f"computer:{step}".encode(), "sha256")
    return int.from_bytes(digest[:8], "big")


def position_digest(state: GameState) -> str:
    """A short hash of the public position, to pin each move of a record to its result."""
    text = json.dumps(state.view(None), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:POSITION_DIGEST]


class ForeignOptions(IllegalAction):
    """Options the game's rules do not take (a record's, or an older version's)."""


@dataclass(frozen=True)
class GameFacts:
    """What a record says about a game besides its moves."""

    kind: str
    game_id: int
    guild_id: int
    channel_id: int
    seed: int
    options: dict[str, Any]
    seats: list[str]
    status: str = "finished"
    # The snapshot the game was stored in at its end, when known: a replay that ends
    # elsewhere (a game played with an earlier random source) is refused, not shown.
    final: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def commitment(self) -> str:
        return commitment(
            self.kind,
            self.game_id,
            self.guild_id,
            self.channel_id,
            self.seed,
            self.options,
            self.seats,
        )


def walk(
    facts: GameFacts, actions: Iterable[tuple[int | None, str]]
) -> Iterator[Step | tuple[ChanceEvent, ...]]:
    """Replay a game from its seed: first the chance events of the start (a tuple), then
    one ``Step`` per logged ``(seat, action)``. An illegal action raises
    ``IllegalAction`` when it is reached; table events ("!resign") change nothing. With
    ``facts.final`` set, a replay that ends in another state raises ``IllegalAction``
    after its last step."""
    with journaling() as journal:
        try:
            state = GAMES[facts.kind].new_game(
                players=len(facts.seats), seed=facts.seed, **facts.options
            )
        except TypeError:
            raise ForeignOptions(f"these options are not {facts.kind}'s") from None
    yield tuple(journal)
    for number, (seat, action) in enumerate(actions, start=1):
        before = state
        if not action.startswith(TABLE_EVENT):
            drawn = before.rng.draws
            del journal[:]
            state = before.apply(action)
            yield Step(number, seat, action, before, state, _draws_between(journal, drawn, state))
        else:
            yield Step(number, seat, action, before, state, ())
    if facts.final is not None and _as_json(state.to_dict()) != facts.final:
        raise IllegalAction(
            f"game #{facts.game_id}'s log does not lead to the position it was stored in"
        )


def _as_json(data: Mapping[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def _draws_between(
    journal: Sequence[ChanceEvent], first: int, state: GameState
) -> tuple[ChanceEvent, ...]:
    """The draws a move made, once each: a rule that tries a copy of the state before
    settling may draw the same number twice, and the last one is what happened."""
    by_draw = {event.draw: event for event in journal if first <= event.draw < state.rng.draws}
    return tuple(by_draw[draw] for draw in sorted(by_draw))


# ---- the record file ------------------------------------------------------------------

HEADER_KEYS = ("game", "game id", "server", "channel", "status", "options", "commitment", "seed")


def write_record(facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> str:
    """The text of a game record, checkable with ``python -m games.verify``."""
    lines = [
        RECORD_TITLE,
        "Check it with: python -m games.verify <this file>",
        "",
        f"game: {facts.kind}",
        f"game id: {facts.game_id}",
        f"server: {facts.guild_id}",
        f"channel: {facts.channel_id}",
        f"status: {facts.status}",
        f"options: {json.dumps(facts.options, sort_keys=True)}",
        *(f"seat {index}: {name}" for index, name in enumerate(facts.seats)),
        f"commitment: {facts.commitment}",
        f"seed: {facts.seed}",
        "",
        "start",
    ]
    final: GameState | None = None
    for item in walk(facts, actions):
        if isinstance(item, tuple):
            lines += [f"  chance: {event.line()}" for event in item]
            continue
        who = "-" if item.seat is None else str(item.seat)
        lines.append(f"{item.number}. seat {who}: {item.action}")
        lines += [f"  chance: {event.line()}" for event in item.chance]
        if not item.is_table_event:
            lines.append(f"  position: {position_digest(item.after)}")
        final = item.after
    lines.append("end")
    lines.append(f"returns: {_returns_text(final)}")
    return "\n".join(lines) + "\n"


def _returns_text(state: GameState | None) -> str:
    if state is None or not state.is_over:
        return "not over"
    return " ".join(f"{value:g}" for value in state.returns())


# ---- checking a record ----------------------------------------------------------------


class RecordError(ValueError):
    """A record that differs from what its seed and the rules give; says where."""


@dataclass
class _Header:
    values: dict[str, tuple[int, str]] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    start: int = 0
    """The line of "start"."""


@dataclass
class _Move:
    line: int
    number: int
    seat: int | None
    action: str
    chance: list[tuple[int, str]] = field(default_factory=list)
    position: tuple[int, str] | None = None

    @property
    def where(self) -> str:
        return f"line {self.line} (move {self.number} “{self.action}”)"


@dataclass
class _Checked:
    final: GameState | None = None
    moves: int = 0
    chance: int = 0


_MOVE = re.compile(r"([0-9]+)\. seat (-|[0-9]+): (\S.*)")
_SEAT = re.compile(r"seat ([0-9]+): (.*)")
_CHANCE = "  chance: "
_POSITION = "  position: "


class _Lines:
    """A record's lines, numbered from 1 and read only as far as the check has come, so a
    forged line is named without reading the lines after it. Blank lines and the hint
    how to check the record are skipped."""

    def __init__(self, text: str) -> None:
        self._rest = _meaningful_lines(text)
        self._ahead: tuple[int, str] | None = None

    def peek(self) -> tuple[int, str] | None:
        if self._ahead is None:
            self._ahead = next(self._rest, None)
        return self._ahead

    def take(self) -> tuple[int, str] | None:
        line = self.peek()
        self._ahead = None
        return line

    def take_all(self, prefix: str) -> list[tuple[int, str]]:
        """The lines from here on that start with ``prefix``, without it."""
        taken = []
        while (line := self.peek()) is not None and line[1].startswith(prefix):
            self.take()
            taken.append((line[0], line[1].removeprefix(prefix)))
        return taken


def _meaningful_lines(text: str) -> Iterator[tuple[int, str]]:
    # Only "\n" ends a line: a name may hold characters that str.splitlines() also
    # breaks at (U+2028, U+0085, form feeds, ...).
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if line and not line.startswith("Check it with:"):
            yield number, line


def _read_header(lines: _Lines) -> _Header:
    first = lines.take()
    if first is None or first[0] != 1 or first[1].strip() != RECORD_TITLE:
        raise RecordError(f"line 1: not a game record (expected “{RECORD_TITLE}”)")
    header = _Header()
    while (taken := lines.take()) is not None:
        number, line = taken
        if line == "start":
            header.start = number
            return header
        seat = _SEAT.fullmatch(line)
        if seat and seat.group(1) == str(len(header.seats)):
            header.seats.append(seat.group(2))
            continue
        key, colon, value = line.partition(": ")
        if not colon or key not in HEADER_KEYS:
            raise RecordError(f"line {number}: unexpected header line “{line}”")
        if key in header.values:
            raise RecordError(f"line {number}: a second “{key}” line")
        header.values[key] = (number, value)
    raise RecordError("the record stops before its “start” line")


def _read_moves(lines: _Lines, seats: int) -> Iterator[_Move]:
    """Each move with its chance and position lines, read when the check comes to it."""
    seat_numbers: dict[str, int | None] = {str(seat): seat for seat in range(seats)}
    seat_numbers["-"] = None
    expected = 1
    while (taken := lines.take()) is not None:
        number, line = taken
        if line == "end":
            return
        move = _MOVE.fullmatch(line)
        if move is None:
            raise RecordError(f"line {number}: not a move, chance or position line: “{line}”")
        if move.group(1) != str(expected):
            raise RecordError(f"line {number}: numbered {move.group(1)}, but it is move {expected}")
        if move.group(2) not in seat_numbers:
            raise RecordError(
                f"line {number}: there is no seat {move.group(2)}: the game has seats 0 to"
                f" {seats - 1}"
            )
        found = _Move(number, expected, seat_numbers[move.group(2)], move.group(3))
        found.chance = lines.take_all(_CHANCE)
        ahead = lines.peek()
        if ahead is not None and ahead[1].startswith(_POSITION):
            lines.take()
            found.position = (ahead[0], ahead[1].removeprefix(_POSITION))
        yield found
        expected += 1
    raise RecordError("the record stops before its “end” line")


def _read_returns(lines: _Lines) -> tuple[int, str]:
    returns = None
    while (taken := lines.take()) is not None:
        number, line = taken
        key, _, value = line.partition(": ")
        if key != "returns" or returns is not None:
            raise RecordError(f"line {number}: unexpected line after “end”: “{line}”")
        returns = (number, value)
    if returns is None:
        raise RecordError("the “returns” line is missing")
    return returns


def _facts(header: _Header) -> GameFacts:
    values = header.values
    missing = [key for key in HEADER_KEYS if key not in values]
    if missing:
        raise RecordError(f"the header lacks: {', '.join(missing)}")
    line, kind = values["game"]
    if kind not in GAMES:
        raise RecordError(f"line {line}: unknown game “{kind}”")
    spec = GAMES[kind]
    if not spec.min_players <= len(header.seats) <= spec.max_players:
        raise RecordError(
            f"line {header.start}: {spec.title} is played by {spec.min_players} to"
            f" {spec.max_players} players, the record seats {len(header.seats)}"
        )
    numbers = {
        key: _whole_number(key, *values[key]) for key in ("game id", "server", "channel", "seed")
    }
    return GameFacts(
        kind=kind,
        game_id=numbers["game id"],
        guild_id=numbers["server"],
        channel_id=numbers["channel"],
        seed=numbers["seed"],
        options=_options(spec, *values["options"]),
        seats=header.seats,
        status=values["status"][1],
    )


def _whole_number(key: str, line: int, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RecordError(f"line {line}: the {key} is not a whole number: “{text}”") from None


def _options(spec: GameSpec[Any], line: int, text: str) -> dict[str, Any]:
    """The options as the bot stores them: each one the game declares, of its type and in
    its range."""
    try:
        options = json.loads(text)
    except RecursionError:
        raise RecordError(f"line {line}: the options are nested too deeply") from None
    except ValueError:
        raise RecordError(f"line {line}: the options are not JSON") from None
    if not isinstance(options, dict):
        raise RecordError(f"line {line}: the options are not a JSON object")
    declared = {option.name: option for option in spec.options}
    for name, value in options.items():
        option = declared.get(name)
        if option is None:
            raise RecordError(f"line {line}: “{name}” is not an option of {spec.title}")
        if not option.accepts(value):
            raise RecordError(f"line {line}: the option “{name}” must be {option.allowed()}")
    return options


def _committed_facts(header: _Header) -> GameFacts:
    facts = _facts(header)
    line, claimed = header.values["commitment"]
    if claimed != facts.commitment:
        raise RecordError(
            f"line {line}: the commitment does not belong to this seed and game: the record "
            f"says {claimed}, SHA-256 of the seed and game gives {facts.commitment}"
        )
    return facts


def verify_record(text: str) -> str:
    """“verified” plus a summary when the record is exactly what its seed and the rules
    give; raises ``RecordError`` naming the first line that differs. The header is checked
    before any move is read and each move before the next one is."""
    lines = _Lines(text)
    header = _read_header(lines)
    facts = _committed_facts(header)
    opening = lines.take_all(_CHANCE)
    moves, replayed = itertools.tee(_read_moves(lines, len(facts.seats)))
    steps = walk(facts, ((move.seat, move.action) for move in replayed))
    try:
        start = next(steps)
        assert isinstance(start, tuple)
        _compare_chance(opening, start, "the start")
        events = TableEvents(GAMES[facts.kind])
        checked = _check_moves(moves, steps, events)
    except ForeignOptions as foreign:
        raise RecordError(f"line {header.values['options'][0]}: {foreign}") from None
    except IllegalAction as refused:
        raise RecordError(f"line {header.start}: the game cannot start: {refused}") from None
    _check_returns(_read_returns(lines), checked.final)
    _check_status(header, events, checked.final)
    return (
        f"verified: {GAMES[facts.kind].title} game #{facts.game_id}, commitment "
        f"{short_commitment(facts.commitment)}…: every action ({checked.moves}) and "
        f"chance event ({checked.chance + len(opening)}) re-derived from the seed"
    )


def read_record(text: str) -> tuple[GameFacts, list[tuple[int | None, str]]]:
    """The facts and the logged ``(seat, action)`` pairs of a record, once it verifies;
    raises ``RecordError`` (``verify_record``'s answer) for one that does not."""
    verify_record(text)
    lines = _Lines(text)
    facts = _committed_facts(_read_header(lines))
    lines.take_all(_CHANCE)
    actions = [(move.seat, move.action) for move in _read_moves(lines, len(facts.seats))]
    return facts, actions


def _check_moves(moves: Iterator[_Move], steps: Iterator[Any], events: TableEvents) -> _Checked:
    checked = _Checked()
    for move in moves:
        try:
            step = next(steps)
        except IllegalAction as illegal:
            raise RecordError(f"{move.where}: not legal here: {illegal}") from None
        assert isinstance(step, Step)
        try:
            events.follow(step)
        except ImpossibleEvent as impossible:
            raise RecordError(f"{move.where}: {impossible}") from None
        if step.is_table_event:
            _no_position(move)
        elif move.seat != step.before.current_player:
            raise RecordError(
                f"{move.where}: the record says seat {move.seat} acted, but seat "
                f"{step.before.current_player} was to act"
            )
        else:
            _compare_position(move, step.after)
        if move.chance or step.chance:
            _compare_chance(move.chance, step.chance, move.where)
        checked.final = step.after
        checked.moves += 1
        checked.chance += len(move.chance)
    return checked


def _compare_chance(
    recorded: Sequence[tuple[int, str]], derived: Sequence[ChanceEvent], where: str
) -> None:
    for index in range(max(len(recorded), len(derived))):
        said = recorded[index][1] if index < len(recorded) else None
        given = derived[index].line() if index < len(derived) else None
        if said == given:
            continue
        line = recorded[index][0] if index < len(recorded) else None
        place = f"line {line}" if line is not None else where
        raise RecordError(
            f"{place}: after {where} the record says “{said or 'nothing'}”, "
            f"the seed gives “{given or 'nothing'}”"
        )


def _compare_position(move: _Move, state: GameState) -> None:
    digest = position_digest(state)
    if move.position is None:
        raise RecordError(f"{move.where}: the position line is missing (the rules give {digest})")
    if move.position[1] != digest:
        raise RecordError(
            f"line {move.position[0]}: after {move.where} the record's position is "
            f"{move.position[1]}, the rules give {digest}"
        )


def _no_position(move: _Move) -> None:
    if move.position is not None:
        raise RecordError(
            f"line {move.position[0]}: after {move.where} the record gives a position, but a table"
            " event moves nothing"
        )


def _check_returns(returns: tuple[int, str], final: GameState | None) -> None:
    line, said = returns
    given = _returns_text(final)
    if said != given:
        raise RecordError(
            f"line {line}: the record's returns are “{said}”, the rules give “{given}”"
        )


def _check_status(header: _Header, events: TableEvents, final: GameState | None) -> None:
    line, said = header.values["status"]
    ended = events.status(final is not None and final.is_over)
    if ended is None:
        raise RecordError(
            f"line {line}: the record says the game is {said}, but its log stops while the"
            " game runs on"
        )
    if said != ended:
        raise RecordError(
            f"line {line}: the record says the game is {said}, but its log leaves it {ended}"
        )
