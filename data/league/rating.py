"""The league's arithmetic: placements and outcomes from a game's final scores, the
openskill update of the ratings and the number players see. Pure functions, no SQL.

Ratings are openskill Plackett–Luce ratings (μ, σ) computed from the placements of each
rated game, ties shared. The number shown to players is the conservative estimate
μ − 3σ, scaled for display: ``1000 + 40 · (μ − 3σ)``; a newcomer (μ = 25, σ = 25/3) shows
1000 and climbs as the system grows surer of a strong player.

Outcomes: a seat in first place (alone or shared) wins, unless every seat shares it (a
draw); everyone else loses. A resigning seat is placed last. Points are the scores the
game was saved with when it ended (``Table.final_scores``, its own ``returns()``; for a
resignation: as they stood), so the league needs no game.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from data.store import Table

DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
CONSERVATIVE_SIGMAS = 3

MODEL = PlackettLuce()
NEWCOMER = (MODEL.mu, MODEL.sigma)
"""(μ, σ) of a player before his first rated game of a season."""


def display_rating(mu: float, sigma: float) -> int:
    """The conservative rating players see (see the module docstring)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - CONSERVATIVE_SIGMAS * sigma))


def rated(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (μ, σ) after one Plackett–Luce update from its (μ, σ) ``before`` and
    its placement in ``ranks``."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    updated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in updated]


def outcome_of(placement: int, all_placements: Sequence[int]) -> str:
    """A draw when every seat shares first place; otherwise first place wins."""
    if all(other == 1 for other in all_placements):
        return "draw"
    return "win" if placement == 1 else "loss"


def forfeited_seat(table: Table) -> int | None:
    """The seat that resigned or lost on time, if the game ended that way."""
    for key in ("resigned", "timed_out"):
        seat = table.extra.get(key)
        if isinstance(seat, int):
            return seat
    return None


def placements(scores: Sequence[float]) -> list[int]:
    """Rank per seat from final scores: 1 is best, equal scores share a rank."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def finishing_placements(table: Table, points: list[float]) -> tuple[list[int], list[float]]:
    """Placements and the game's own points; a seat that resigned or lost on time is
    placed last."""
    resigned = forfeited_seat(table)
    if resigned is None:
        return placements(points), points
    forfeit_scores = [0.0 if seat == resigned else 1.0 for seat in range(len(table.seats))]
    return placements(forfeit_scores), points
