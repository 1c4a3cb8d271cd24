"""League scoreboards: finished games, ratings, standings and seasons per server and game.

``rating`` holds the arithmetic (placements, outcomes, openskill ratings, the number
players see), ``records`` what the league keeps (seasons, results, standings),
``store`` the SQL (``League``) and ``export`` the CSV of a season's results.
"""

from data.league.export import EXPORT_HEADER
from data.league.rating import (
    CONSERVATIVE_SIGMAS,
    DISPLAY_BASE,
    DISPLAY_SCALE,
    MODEL,
    display_rating,
    finishing_placements,
    forfeited_seat,
    outcome_of,
    placements,
)
from data.league.records import (
    COMPUTER_PLAYER_ID,
    FORFEIT_ON_TIME,
    GameProfile,
    LeagueSettings,
    Mover,
    Movers,
    RatedGame,
    RecordedResult,
    Season,
    SeasonNameTaken,
    SeatResult,
    Standing,
)
from data.league.store import (
    FIRST_SEASON_NAME,
    MAX_SEASON_NAME,
    MOVERS_DAYS,
    TREND_GAMES,
    League,
)

__all__ = [
    "COMPUTER_PLAYER_ID",
    "CONSERVATIVE_SIGMAS",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "EXPORT_HEADER",
    "FIRST_SEASON_NAME",
    "FORFEIT_ON_TIME",
    "MAX_SEASON_NAME",
    "MODEL",
    "MOVERS_DAYS",
    "TREND_GAMES",
    "GameProfile",
    "League",
    "LeagueSettings",
    "Mover",
    "Movers",
    "RatedGame",
    "RecordedResult",
    "Season",
    "SeasonNameTaken",
    "SeatResult",
    "Standing",
    "display_rating",
    "finishing_placements",
    "forfeited_seat",
    "outcome_of",
    "placements",
]
