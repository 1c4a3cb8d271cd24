"""What the league keeps, as the records its queries return: seasons, the results of
recorded games with their seats, leaderboard lines; and how each is read from its row."""

from __future__ import annotations

from dataclasses import dataclass, field

from data.league.rating import display_rating
from data.sql import Row

# The key under which computer seats share one rating when a server rates their games.
COMPUTER_PLAYER_ID = 0

FORFEIT_ON_TIME = 2
"""league_seats.forfeit: 0 played to the end, 1 resigned, 2 lost on time."""


class SeasonNameTaken(ValueError):
    """Another season of this server already has that name."""


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    number: int
    name: str
    started_at: float


@dataclass(frozen=True)
class LeagueSettings:
    rate_computer_games: bool = False


@dataclass(frozen=True)
class SeatResult:
    """How one seat did in one recorded game; ratings are display numbers, None if unrated."""

    seat: int
    user_id: int | None
    name: str
    placement: int
    points: float
    forfeit: bool
    outcome: str
    rating_before: int | None = None
    rating_after: int | None = None
    on_time: bool = False
    """The forfeit was a loss on time (stored as forfeit 2), not a resignation."""

    @property
    def rating_change(self) -> int | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


@dataclass(frozen=True)
class RecordedResult:
    """One finished game as the league stored it, with where its board was posted (a
    link to it is the caller's business: storage knows no Discord)."""

    game_id: int
    kind: str
    guild_id: int
    season_id: int
    finished_at: float
    rated: bool
    unrated_reason: str | None
    seats: list[SeatResult]
    channel_id: int | None = None
    board_message_id: int | None = None


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard: a player's season in one game."""

    rank: int
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    points: float
    streak: int
    best_streak: int
    trend: int

    @property
    def rating(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def is_computer(self) -> bool:
        return self.player_id == COMPUTER_PLAYER_ID


@dataclass(frozen=True)
class RatedGame:
    """One rated game of a player's season: when it ended, and his displayed rating
    before and after it."""

    game_id: int
    finished_at: float
    rating_before: int
    rating_after: int


@dataclass(frozen=True)
class Mover:
    """How far a player's displayed rating moved over a stretch of time, in how many
    rated games."""

    player_id: int
    name: str
    change: int
    games: int


@dataclass(frozen=True)
class Movers:
    """Who rose most and who fell most over a stretch of time (None: nobody did)."""

    rose: Mover | None = None
    fell: Mover | None = None


@dataclass(frozen=True)
class GameProfile:
    """A member's current season in one game: his standing, his latest results and
    every rated game of the season, oldest first."""

    kind: str
    standing: Standing | None
    recent: list[RecordedResult]
    history: list[RatedGame] = field(default_factory=list)


RESULT_COLUMNS = (
    "r.game_id, r.kind, r.guild_id, r.season_id, r.finished_at, r.rated, r.unrated_reason, "
    "r.channel_id, r.board_message_id"
)
SEAT_COLUMNS = (
    "game_id, seat, user_id, name, placement, points, forfeit, outcome, "
    "mu_before, sigma_before, mu_after, sigma_after"
)
RATING_COLUMNS = (
    "player_id, name, mu, sigma, games, wins, losses, draws, points, streak, best_streak"
)


def seat_from_row(row: Row) -> SeatResult:
    before = (
        display_rating(row["mu_before"], row["sigma_before"])
        if row["mu_before"] is not None
        else None
    )
    after = (
        display_rating(row["mu_after"], row["sigma_after"]) if row["mu_after"] is not None else None
    )
    return SeatResult(
        seat=row["seat"],
        user_id=row["user_id"],
        name=row["name"],
        placement=row["placement"],
        points=row["points"],
        forfeit=bool(row["forfeit"]),
        outcome=row["outcome"],
        rating_before=before,
        rating_after=after,
        on_time=row["forfeit"] == FORFEIT_ON_TIME,
    )


def season_from_row(row: Row) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        name=row["name"],
        started_at=row["started_at"],
    )


def standing_from_row(rank: int, row: Row, trend: int) -> Standing:
    return Standing(
        rank=rank,
        player_id=row["player_id"],
        name=row["name"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        points=row["points"],
        streak=row["streak"],
        best_streak=row["best_streak"],
        trend=trend,
    )
