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
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import GAMES
from games.base import TABLE_EVENT, ChanceEvent, GameState, IllegalAction, Step, journaling

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
    facts: GameFacts, actions: Sequence[tuple[int | None, str]]
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
class _Move:
    line: int
    number: int
    seat: int | None
    action: str
    chance: list[tuple[int, str]] = field(default_factory=list)
    position: tuple[int, str] | None = None


@dataclass
class _Parsed:
    header: dict[str, tuple[int, str]]
    seats: list[str]
    opening: list[tuple[int, str]]
    moves: list[_Move]
    returns: tuple[int, str] | None


_MOVE = re.compile(r"(\d+)\. seat (-|\d+): (\S.*)")
_SEAT = re.compile(r"seat (\d+): (.*)")


def _parse(text: str, on_header: Callable[[_Parsed], None]) -> _Parsed:
    """The record's lines; ``on_header`` sees the header before any move is read, so a
    wrong commitment is named at once, however many lines follow it."""
    # Only "\n" ends a line: a name may hold characters that str.splitlines() also
    # breaks at (U+2028, U+0085, form feeds, ...).
    lines = text.split("\n")
    if not lines or lines[0].strip() != RECORD_TITLE:
        raise RecordError(f"line 1: not a game record (expected “{RECORD_TITLE}”)")
    parsed = _Parsed({}, [], [], [], None)
    section = "header"
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.removesuffix("\r")
        if not line or line.startswith("Check it with:"):
            continue
        was = section
        section = _parse_line(parsed, section, number, line)
        if was == "header" and section != "header":
            on_header(parsed)
    if section != "end":
        raise RecordError("the record stops before its “end” line")
    return parsed


def _parse_line(parsed: _Parsed, section: str, number: int, line: str) -> str:
    if section == "header":
        if line == "start":
            return "moves"
        seat = _SEAT.fullmatch(line)
        if seat and int(seat.group(1)) == len(parsed.seats):
            parsed.seats.append(seat.group(2))
            return section
        key, colon, value = line.partition(": ")
        if not colon or key not in HEADER_KEYS:
            raise RecordError(f"line {number}: unexpected header line “{line}”")
        parsed.header[key] = (number, value)
        return section
    if section == "end":
        key, _, value = line.partition(": ")
        if key != "returns":
            raise RecordError(f"line {number}: unexpected line after “end”: “{line}”")
        parsed.returns = (number, value)
        return section
    if line == "end":
        return "end"
    if line.startswith("  chance: "):
        target = parsed.moves[-1].chance if parsed.moves else parsed.opening
        target.append((number, line.removeprefix("  chance: ")))
        return section
    if line.startswith("  position: ") and parsed.moves:
        parsed.moves[-1].position = (number, line.removeprefix("  position: "))
        return section
    move = _MOVE.fullmatch(line)
    if move is None:
        raise RecordError(f"line {number}: not a move, chance or position line: “{line}”")
    mover = None if move.group(2) == "-" else int(move.group(2))
    parsed.moves.append(_Move(number, int(move.group(1)), mover, move.group(3)))
    return section


def _facts(parsed: _Parsed) -> GameFacts:
    header = parsed.header
    missing = [key for key in HEADER_KEYS if key not in header]
    if missing:
        raise RecordError(f"the header lacks: {', '.join(missing)}")
    kind = header["game"][1]
    if kind not in GAMES:
        raise RecordError(f"line {header['game'][0]}: unknown game “{kind}”")
    try:
        options = json.loads(header["options"][1])
        numbers = {key: int(header[key][1]) for key in ("game id", "server", "channel", "seed")}
    except ValueError as bad:
        raise RecordError(f"a header value is malformed: {bad}") from None
    return GameFacts(
        kind=kind,
        game_id=numbers["game id"],
        guild_id=numbers["server"],
        channel_id=numbers["channel"],
        seed=numbers["seed"],
        options=options,
        seats=parsed.seats,
        status=header["status"][1],
    )


def _committed_facts(parsed: _Parsed) -> GameFacts:
    facts = _facts(parsed)
    line, claimed = parsed.header["commitment"]
    if claimed != facts.commitment:
        raise RecordError(
            f"line {line}: the commitment does not belong to this seed and game: the record "
            f"says {claimed}, SHA-256 of the seed and game gives {facts.commitment}"
        )
    return facts


def verify_record(text: str) -> str:
    """“verified” plus a summary when the record is exactly what its seed and the rules
    give; raises ``RecordError`` naming the first line that differs."""
    committed: list[GameFacts] = []
    parsed = _parse(text, lambda header: committed.append(_committed_facts(header)))
    [facts] = committed
    actions = [(move.seat, move.action) for move in parsed.moves]
    steps = walk(facts, actions)
    try:
        opening = next(steps)
        assert isinstance(opening, tuple)
        _compare_chance(parsed.opening, opening, "the start")
        final = _check_moves(parsed.moves, steps)
    except ForeignOptions as foreign:
        raise RecordError(f"line {parsed.header['options'][0]}: {foreign}") from None
    except IllegalAction as illegal:
        raise RecordError(str(illegal)) from None
    _check_returns(parsed, final)
    dice = sum(len(move.chance) for move in parsed.moves) + len(parsed.opening)
    return (
        f"verified: {GAMES[facts.kind].title} game #{facts.game_id}, commitment "
        f"{short_commitment(facts.commitment)}…: every action ({len(parsed.moves)}) and "
        f"chance event ({dice}) re-derived from the seed"
    )


def _check_moves(moves: Sequence[_Move], steps: Iterator[Any]) -> GameState | None:
    final = None
    for move in moves:
        where = f"line {move.line} (move {move.number} “{move.action}”)"
        try:
            step = next(steps)
        except IllegalAction as illegal:
            raise RecordError(f"{where}: not legal here: {illegal}") from None
        assert isinstance(step, Step)
        if not step.is_table_event and move.seat != step.before.current_player:
            raise RecordError(
                f"{where}: the record says seat {move.seat} acted, but seat "
                f"{step.before.current_player} was to act"
            )
        _compare_chance(move.chance, step.chance, where)
        if not step.is_table_event:
            _compare_position(move, step.after, where)
        final = step.after
    return final


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


def _compare_position(move: _Move, state: GameState, where: str) -> None:
    digest = position_digest(state)
    if move.position is None:
        raise RecordError(f"{where}: the position line is missing (the rules give {digest})")
    if move.position[1] != digest:
        raise RecordError(
            f"line {move.position[0]}: after {where} the record's position is "
            f"{move.position[1]}, the rules give {digest}"
        )


def _check_returns(parsed: _Parsed, final: GameState | None) -> None:
    if parsed.returns is None:
        raise RecordError("the “returns” line is missing")
    line, said = parsed.returns
    given = _returns_text(final)
    if said != given:
        raise RecordError(
            f"line {line}: the record's returns are “{said}”, the rules give “{given}”"
        )
