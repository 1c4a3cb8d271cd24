"""Standings equal an independent recount from the results, and the tie-breaks of
the rule book (docs/rules/tournaments.md) decide in their order."""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import field, new, play_out, play_round

from games.tournament import CannotPair, Config, Format, Result, Round, Table, Tournament, standings


def recount(tournament: Tournament) -> dict[str, tuple[float, tuple[float, ...]]]:
    """Score and tie-breaks per player, counted here from scratch: points by place with
    absent seats moved last, a bye as a win against one's own score."""
    seats_per_table = tournament.config.seats_per_table
    score: dict[str, float] = defaultdict(float)
    games: dict[str, list[tuple[str | None, float, float, bool, bool]]] = defaultdict(list)
    for round_ in tournament.rounds:
        for key in round_.byes:
            score[key] += seats_per_table - 1
            games[key].append((None, seats_per_table - 1, 0.0, False, True))
        for table in round_.tables:
            result = table.result
            assert result is not None
            n = len(table.seats)
            absent = result.absent or (False,) * n
            keyed = [(absent[s], 0 if absent[s] else result.places[s]) for s in range(n)]
            for s, key in enumerate(table.seats):
                above = sum(1 for k in keyed if k < keyed[s])
                level = sum(1 for k in keyed if k == keyed[s])
                points = sum(n - 1 - p for p in range(above, above + level)) / level
                score[key] += points
                total = 0.0 if result.totals is None else result.totals[s]
                first = above == 0 and not absent[s]
                won = first and level == 1
                opponent = table.seats[1 - s] if n == 2 else None
                games[key].append((opponent, points, total, won, first))
    keys = [player.key for player in tournament.players]
    fmt = tournament.config.format
    lines = {}
    for key in keys:
        own = score[key]
        played = games[key]
        if fmt is Format.TABLE_GROUPS:
            breaks: tuple[float, ...] = (
                sum(g[2] for g in played),
                float(sum(g[4] for g in played)),
            )
        else:
            opponent_scores = [own if g[0] is None else score[g[0]] for g in played]
            bh = sum(opponent_scores)
            sb = sum(g[1] * o for g, o in zip(played, opponent_scores, strict=True))
            wins = float(sum(g[3] for g in played if g[0] is not None))
            if fmt is Format.SWISS:
                breaks = (bh, sb, wins)
            else:
                tied = {
                    k
                    for k in keys
                    if score[k] == own
                    and sum(g[1] * (score[k] if g[0] is None else score[g[0]]) for g in games[k])
                    == sb
                }
                direct = sum(g[1] for g in played if g[0] in tied)
                breaks = (sb, direct, wins)
        lines[key] = (own, breaks)
    return lines


def check_against_recount(tournament: Tournament) -> None:
    counted = recount(tournament)
    table = standings(tournament)
    assert {line.key: (line.score, line.tiebreaks) for line in table} == counted
    for better, worse in pairwise(table):
        assert (better.score, better.tiebreaks) >= (worse.score, worse.tiebreaks)
        if (better.score, better.tiebreaks) == (worse.score, worse.tiebreaks):
            assert better.place == worse.place
        else:
            assert worse.place == table.index(worse) + 1


@settings(max_examples=40, deadline=None)
@given(
    format_=st.sampled_from([Format.SWISS, Format.ROUND_ROBIN, Format.TABLE_GROUPS]),
    count=st.integers(min_value=6, max_value=16),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(0, 10_000),
)
def test_standings_equal_a_recount_after_every_round(format_, count, rounds, seed):
    rng = random.Random(seed)
    seats, smallest = (4, 3) if format_ is Format.TABLE_GROUPS else (2, 2)
    tournament = new(format_, count, min(rounds, count - 1), seats, smallest)
    for _ in range(tournament.config.rounds):
        try:
            tournament = play_round(tournament, rng)
        except CannotPair:  # a small Swiss may run out of new opponents
            break
        check_against_recount(tournament)


def two_player(
    rounds: list[tuple[list[tuple[str, str, Result]], tuple[str, ...]]], fmt: Format
) -> Tournament:
    players = field(5)
    built = tuple(
        Round(
            number,
            tuple(
                Table(index, (white, black), result)
                for index, (white, black, result) in enumerate(tables, start=1)
            ),
            byes,
        )
        for number, (tables, byes) in enumerate(rounds, start=1)
    )
    return Tournament(Config("game", fmt, len(rounds)), players, built)


def test_buchholz_counts_a_bye_as_an_opponent_with_the_player_s_own_score():
    win, draw = Result.win(0), Result.draw()
    tournament = two_player(
        [
            ([("c0", "c1", win), ("c2", "c3", draw)], ("c4",)),
            ([("c4", "c0", win), ("c1", "c2", draw)], ("c3",)),
        ],
        Format.SWISS,
    )
    lines = {line.key: line for line in standings(tournament)}
    # c4: a bye (own 2.0) and a win over c0 (1.0): Buchholz 3, SB 2 + 1 = 3, one win.
    assert lines["c4"].score == 2.0
    assert lines["c4"].tiebreaks == (3.0, 3.0, 1.0)
    # c3: a draw with c2 (1.0) and a bye (own 1.5): Buchholz 2.5, SB 0.5 + 1.5 = 2.0.
    assert lines["c3"].tiebreaks == (2.5, 2.0, 0.0)
    assert standings(tournament)[0].key == "c4"


def test_buchholz_decides_between_equal_scores_before_sonneborn_berger():
    win = Result.win(0)
    tournament = two_player(
        [
            ([("c0", "c1", win), ("c2", "c3", win)], ("c4",)),
            ([("c1", "c4", win), ("c3", "c0", Result.win(1))], ("c2",)),
        ],
        Format.SWISS,
    )
    lines = standings(tournament)
    # Both scored 2: c2 beat c3 (0) and had a bye (his own 2), c0 beat c1 (1) and c3 (0).
    assert [(line.key, line.place, line.tiebreaks[0]) for line in lines[:2]] == [
        ("c2", 1, 2.0),
        ("c0", 2, 1.0),
    ]


def test_a_round_robin_tie_on_sonneborn_berger_goes_to_the_direct_encounter():
    win, draw = Result.win(0), Result.draw()
    # A three-cycle: c0 beats c1, c1 beats c2, c2 beats c0; c0 and c1 draw the rest.
    rounds = [
        ([("c0", "c1", win), ("c2", "c3", draw)], ("c4",)),
        ([("c1", "c2", win), ("c3", "c4", draw)], ("c0",)),
        ([("c2", "c0", win), ("c4", "c1", draw)], ("c3",)),
    ]
    tournament = two_player(rounds, Format.ROUND_ROBIN)
    check_against_recount(tournament)


def test_players_level_on_every_tie_break_share_their_place():
    tournament = Tournament(
        Config("game", Format.SWISS, 1),
        field(4),
        (Round(1, (Table(1, ("c0", "c1"), Result.draw()), Table(2, ("c2", "c3"), Result.draw()))),),
    )
    assert [line.place for line in standings(tournament)] == [1, 1, 1, 1]


def test_table_groups_break_ties_by_table_totals_then_first_places():
    tables = (
        Table(1, ("c0", "c1", "c2", "c3"), Result((1, 2, 3, 4), totals=(30, 10, -10, -30))),
        Table(2, ("c4", "c5", "c6", "c7"), Result((1, 2, 3, 4), totals=(50, 0, -20, -30))),
    )
    tournament = Tournament(
        Config("barbu", Format.TABLE_GROUPS, 1, seats_per_table=4, smallest_table=4),
        field(8),
        (Round(1, tables),),
    )
    order = [line.key for line in standings(tournament)]
    assert order[:2] == ["c4", "c0"]
    assert {line.key: line.tiebreaks for line in standings(tournament)}["c4"] == (50.0, 1.0)


def test_a_knockout_s_standings_place_players_by_the_round_they_went_out_in():
    tournament = play_out(new(Format.KNOCKOUT, 8, 3), random.Random(2), draws=False)
    places = sorted(line.place for line in standings(tournament))
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
