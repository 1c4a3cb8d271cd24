"""A tournament as data: its entrants, its rounds and their tables and results.

Everything here is immutable and JSON-safe through ``to_dict``/``from_dict``, so storage
keeps a round or a whole tournament as one document and a restart reads back exactly
what was paired. A player is named by a ``key`` (a member's id or a computer's) that
stays the same for the whole event; names are the Discord layer's business.

Seats are in seat order: in a two-player game seat 0 moves first (chess's white).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from games.base import IllegalAction


class Format(StrEnum):
    """How the rounds are paired."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"
    TABLE_GROUPS = "table_groups"


@dataclass(frozen=True)
class Player:
    """An entrant: a member (``member_id``) or a computer (``computer_level``), with the
    league rating that seeds him. ``joined_round`` is the first round he was paired in
    (a late entrant's is later than 1); ``withdrawn`` entrants are paired no more."""

    key: str
    rating: float
    member_id: int | None = None
    computer_level: str | None = None
    joined_round: int = 1
    withdrawn: bool = False

    @staticmethod
    def member(member_id: int, rating: float, joined_round: int = 1) -> Player:
        return Player(f"m{member_id}", rating, member_id=member_id, joined_round=joined_round)

    @staticmethod
    def computer(number: int, level: str, rating: float, joined_round: int = 1) -> Player:
        """The ``number``-th computer entered (computers of one level are otherwise alike)."""
        return Player(f"c{number}", rating, computer_level=level, joined_round=joined_round)

    @property
    def is_computer(self) -> bool:
        return self.computer_level is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rating": self.rating,
            "member_id": self.member_id,
            "computer_level": self.computer_level,
            "joined_round": self.joined_round,
            "withdrawn": self.withdrawn,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Player:
        return Player(
            key=data["key"],
            rating=float(data["rating"]),
            member_id=data.get("member_id"),
            computer_level=data.get("computer_level"),
            joined_round=int(data.get("joined_round", 1)),
            withdrawn=bool(data.get("withdrawn", False)),
        )


@dataclass(frozen=True)
class Result:
    """How one table ended. ``places`` per seat: 1 is first, equal numbers share the
    places they cover (a two-player draw is ``(1, 1)``). ``totals`` per seat are the
    game's final scores as its ``returns()`` gives them (higher is better: Barbu's totals,
    Barree's minus points negated), kept for the table-group tie-break; ``absent`` marks
    seats a computer played to the end for an absent player, who score as last whatever
    the computer achieved. In a game of two an absent seat is a no-show: the game was
    lost by forfeit and does not count as played, so the two may be paired again."""

    places: tuple[int, ...]
    totals: tuple[float, ...] | None = None
    absent: tuple[bool, ...] | None = None

    @staticmethod
    def win(winner_seat: int) -> Result:
        """A two-player game won by ``winner_seat`` (on the board, on time, by resigning)."""
        return Result((1, 2) if winner_seat == 0 else (2, 1))

    @staticmethod
    def draw() -> Result:
        return Result((1, 1))

    @staticmethod
    def from_order(order: Sequence[Sequence[int]], seats: int) -> Result:
        """A result given as the seats in finishing order, seats tied for a place grouped
        (``[[2], [0, 3], [1]]``: seat 2 first, seats 0 and 3 share second and third). Each
        group's place is the first it covers (1, 2, 2, 4), as the standings read a tie."""
        listed = [seat for group in order for seat in group]
        if sorted(listed) != list(range(seats)) or not all(order):
            raise ValueError("a finishing order lists every seat exactly once")
        places = [0] * seats
        position = 1
        for group in order:
            for seat in group:
                places[seat] = position
            position += len(group)
        return Result(tuple(places))

    def is_absent(self, seat: int) -> bool:
        return self.absent is not None and self.absent[seat]

    def to_dict(self) -> dict[str, Any]:
        return {
            "places": list(self.places),
            "totals": None if self.totals is None else list(self.totals),
            "absent": None if self.absent is None else list(self.absent),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Result:
        totals = data.get("totals")
        absent = data.get("absent")
        return Result(
            places=tuple(int(place) for place in data["places"]),
            totals=None if totals is None else tuple(float(total) for total in totals),
            absent=None if absent is None else tuple(bool(flag) for flag in absent),
        )


@dataclass(frozen=True)
class Table:
    """One game of a round: the players' keys in seat order. A knockout decider names
    the table whose draw it decides (``decider_of``), its first player swapped."""

    number: int
    seats: tuple[str, ...]
    result: Result | None = None
    decider_of: int | None = None

    @property
    def is_decider(self) -> bool:
        return self.decider_of is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": list(self.seats),
            "result": None if self.result is None else self.result.to_dict(),
            "decider_of": self.decider_of,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Table:
        result = data.get("result")
        return Table(
            number=int(data["number"]),
            seats=tuple(data["seats"]),
            result=None if result is None else Result.from_dict(result),
            decider_of=data.get("decider_of"),
        )


@dataclass(frozen=True)
class Round:
    """A round's tables and the players who sit it out with a bye (a bye scores as a
    win: 1 point in a two-player event, first place's points at a table group)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def is_complete(self) -> bool:
        """Every table has its result (a knockout round may still owe a decider: see
        ``knockout.deciders_needed``)."""
        return all(table.result is not None for table in self.tables)

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise KeyError(number)

    def with_result(self, table_number: int, result: Result) -> Round:
        """This round with ``table_number``'s result recorded."""
        if len(result.places) != len(self.table(table_number).seats):
            raise ValueError("a result needs one place per seat")
        return replace(
            self,
            tables=tuple(
                replace(table, result=result) if table.number == table_number else table
                for table in self.tables
            ),
        )

    def with_tables(self, tables: Sequence[Table]) -> Round:
        """This round with more tables (a knockout's deciders)."""
        return replace(self, tables=(*self.tables, *tables))

    def players(self) -> set[str]:
        return {key for table in self.tables for key in table.seats} | set(self.byes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [table.to_dict() for table in self.tables],
            "byes": list(self.byes),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Round:
        return Round(
            number=int(data["number"]),
            tables=tuple(Table.from_dict(table) for table in data["tables"]),
            byes=tuple(data.get("byes", ())),
        )


@dataclass(frozen=True)
class Config:
    """What the organiser chose: the game (its key), the format, the number of rounds,
    the table options of every game (a Gul Bara match to N points is one of them), whether
    the games are rated and the clock per decision in seconds. For table groups
    ``seats_per_table`` is the table the game wants (its spec's most players) and
    ``smallest_table`` the smallest a field that does not divide may use instead (the same
    number for a game played by a fixed number, whose field is then filled up)."""

    game: str
    format: Format
    rounds: int
    options: Mapping[str, Any] = field(default_factory=dict)
    rated: bool = True
    clock_seconds: int = 0
    seats_per_table: int = 2
    smallest_table: int = 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "format": self.format.value,
            "rounds": self.rounds,
            "options": dict(self.options),
            "rated": self.rated,
            "clock_seconds": self.clock_seconds,
            "seats_per_table": self.seats_per_table,
            "smallest_table": self.smallest_table,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Config:
        return Config(
            game=data["game"],
            format=Format(data["format"]),
            rounds=int(data["rounds"]),
            options=dict(data.get("options", {})),
            rated=bool(data.get("rated", True)),
            clock_seconds=int(data.get("clock_seconds", 0)),
            seats_per_table=int(data.get("seats_per_table", 2)),
            smallest_table=int(data.get("smallest_table", 2)),
        )


@dataclass(frozen=True)
class Tournament:
    """The whole event: configuration, entrants in entry order, and the rounds so far."""

    config: Config
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()

    def player(self, key: str) -> Player:
        for player in self.players:
            if player.key == key:
                return player
        raise KeyError(key)

    def active_players(self) -> list[Player]:
        """Those who are paired in the next round: entered and not withdrawn."""
        return [player for player in self.players if not player.withdrawn]

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def with_player(self, player: Player) -> Tournament:
        """With ``player`` entered, or replaced if his key is entered already."""
        others = tuple(p for p in self.players if p.key != player.key)
        if len(others) == len(self.players):
            return replace(self, players=(*self.players, player))
        return replace(
            self, players=tuple(player if p.key == player.key else p for p in self.players)
        )

    def withdrawn(self, key: str) -> Tournament:
        """With ``key`` withdrawn: his games stay, he is paired no more."""
        return self.with_player(replace(self.player(key), withdrawn=True))

    def with_round(self, round_: Round) -> Tournament:
        """With ``round_`` added, or replacing the round of its number."""
        kept = tuple(r for r in self.rounds if r.number != round_.number)
        return replace(self, rounds=tuple(sorted((*kept, round_), key=lambda r: r.number)))

    def with_result(self, round_number: int, table_number: int, result: Result) -> Tournament:
        round_ = next(r for r in self.rounds if r.number == round_number)
        return self.with_round(round_.with_result(table_number, result))

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "players": [player.to_dict() for player in self.players],
            "rounds": [round_.to_dict() for round_ in self.rounds],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Tournament:
        return Tournament(
            config=Config.from_dict(data["config"]),
            players=tuple(Player.from_dict(player) for player in data["players"]),
            rounds=tuple(Round.from_dict(round_) for round_ in data.get("rounds", ())),
        )


class CannotPair(IllegalAction):
    """The next round cannot be paired (every pairing left would repeat a game, a field
    too small for the format, a field that does not fill its tables): its sentence says
    why, for the organiser."""
