"""The league against a real SQLite file and a real PostgreSQL schema: ratings as
openskill computes them, each game counted exactly once, resignations, computer games,
seasons, history and the CSV export.

Expected ratings are derived in each test by calling the openskill model directly on the
same placements, never typed in as magic numbers.
"""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

import pytest
from openskill.models import PlackettLuce
from testdb import ONE_PROCESS_PER_SQLITE_FILE, both_engines

from data import HINTS, Seat, Store, Table
from data.league import (
    COMPUTER_PLAYER_ID,
    DISPLAY_BASE,
    DISPLAY_SCALE,
    FIRST_SEASON_NAME,
    League,
    Movers,
    SeasonNameTaken,
    display_rating,
)
from data.store import TOURNAMENT
from games import GAMES, GameState
from games.bann import from_code

GUILD = 1
ALICE, BOB, CAROL, DAVE = (
    Seat("Alice", 100),
    Seat("Bob", 200),
    Seat("Carol", 300),
    Seat("Dave", 400),
)
MODEL = PlackettLuce()

pytestmark = both_engines()


class FixedScores(GameState):
    """A finished game of any size whose final scores the test chooses."""

    def __init__(self, scores: list[float]) -> None:
        self.scores = scores
        self.players = len(scores)

    @property
    def current_player(self) -> int | None:
        return None

    @property
    def is_over(self) -> bool:
        return True

    def legal_actions(self) -> list[str]:
        return []

    def apply(self, action: str) -> GameState:
        raise AssertionError("a finished game takes no actions")

    def returns(self) -> list[float]:
        return list(self.scores)

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"scores": self.scores}

    def to_dict(self) -> dict[str, Any]:
        return {"scores": self.scores}


def bann_won_by(seat: int) -> GameState:
    """A Bann game that ended with ``seat`` reaching the enemy castle."""
    if seat == 0:
        return from_code("BN1:....2./....../..a.../....../....../......|1,1|0").apply("3>2:E")
    return from_code("BN1:....../....../...1../....../....../.b....|1,1|1").apply("3>2:W")


def bann_drawn() -> GameState:
    return GAMES["bann"].new_game(players=2, seed=3).apply("offer").apply("accept")


KINDS = list(GAMES)


def never_asked(table: Table) -> list[float]:
    raise AssertionError(f"game {table.id} was saved with its scores")


def displayed(rating: Any) -> int:
    """The display number from the model's own conservative ordinal (μ − 3σ)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * rating.ordinal())


@pytest.fixture
def league(store):
    return League(store)


_channels = iter(range(1000, 10_000))


async def finished(
    store: Store,
    seats: list[Seat],
    state: GameState,
    *,
    kind: str = "bann",
    status: str = "finished",
    extra: dict[str, Any] | None = None,
    guild: int = GUILD,
) -> Table:
    channel = next(_channels)
    table = await store.create_table(
        kind=kind,
        guild_id=guild,
        channel_id=channel,
        creator_id=seats[0].user_id or 0,
        seats=seats,
        options={},
        seed=1,
    )
    await store.set_board_message(table.id, channel * 10)
    table.board_message_id = channel * 10
    table.status = status
    table.state = state.to_dict()
    if status == "finished":
        table.finish(state.returns())
    table.extra.update(extra or {})
    await store.save(table, expected_version=table.version)
    return table


async def test_a_win_moves_both_ratings_exactly_as_openskill_computes(store, league):
    table = await finished(store, [ALICE, BOB], bann_won_by(0))

    result = await league.record_finished(table)

    winner, loser = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert result is not None and result.rated
    alice, bob = result.seats
    assert (alice.outcome, bob.outcome) == ("win", "loss")
    assert (alice.points, bob.points) == (1.0, -1.0), "Bann points: win 1, loss -1"
    assert alice.rating_before == bob.rating_before == displayed(MODEL.rating())
    assert alice.rating_after == displayed(winner[0])
    assert bob.rating_after == displayed(loser[0])
    assert alice.rating_change > 0 > bob.rating_change
    season = await league.current_season(GUILD)
    top, second = await league.standings(GUILD, "bann", season.id)
    assert (top.name, top.rank, top.wins, top.streak) == ("Alice", 1, 1, 1)
    assert (second.name, second.rank, second.losses, second.streak) == ("Bob", 2, 1, -1)
    assert top.mu == pytest.approx(winner[0].mu) and top.sigma == pytest.approx(winner[0].sigma)


async def test_a_second_game_starts_from_the_ratings_the_first_left(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    await league.record_finished(await finished(store, [BOB, ALICE], bann_won_by(0)))

    first = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    alice_1, bob_1 = first[0][0], first[1][0]
    bob_2, alice_2 = MODEL.rate([[bob_1], [alice_1]], ranks=[1, 2])
    season = await league.current_season(GUILD)
    rows = {row.name: row for row in await league.standings(GUILD, "bann", season.id)}
    assert rows["Alice"].rating == displayed(alice_2[0])
    assert rows["Bob"].rating == displayed(bob_2[0])
    assert (rows["Alice"].wins, rows["Alice"].losses, rows["Alice"].streak) == (1, 1, -1)
    assert rows["Bob"].best_streak == 1 and rows["Bob"].streak == 1


async def test_a_draw_is_a_shared_rank_for_openskill(store, league):
    result = await league.record_finished(await finished(store, [ALICE, BOB], bann_drawn()))

    drawn = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 1])
    assert result is not None
    assert [seat.outcome for seat in result.seats] == ["draw", "draw"]
    assert [seat.placement for seat in result.seats] == [1, 1]
    assert [seat.rating_after for seat in result.seats] == [displayed(team[0]) for team in drawn]
    season = await league.current_season(GUILD)
    assert [row.draws for row in await league.standings(GUILD, "bann", season.id)] == [1, 1]


async def test_four_players_with_tied_scores_share_a_placement(store, league):
    scores = [10.0, 30.0, 30.0, -70.0]
    table = await finished(store, [ALICE, BOB, CAROL, DAVE], FixedScores(scores), kind="barbu")

    result = await league.record_finished(table)

    assert result is not None
    assert [seat.placement for seat in result.seats] == [3, 1, 1, 4]
    assert [seat.outcome for seat in result.seats] == ["loss", "win", "win", "loss"]
    assert [seat.points for seat in result.seats] == scores
    expected = MODEL.rate([[MODEL.rating()] for _ in scores], ranks=[3, 1, 1, 4])
    assert [seat.rating_after for seat in result.seats] == [displayed(t[0]) for t in expected]
    season = await league.current_season(GUILD)
    rows = await league.standings(GUILD, "barbu", season.id)
    assert [row.rating for row in rows] == sorted(
        (displayed(team[0]) for team in expected), reverse=True
    ), "the leaderboard follows the conservative ratings"
    assert rows[-1].name == "Dave"


async def test_resigning_is_a_forfeited_loss(store, league):
    start = GAMES["bann"].new_game(players=2, seed=5)
    table = await finished(store, [ALICE, BOB], start, extra={"resigned": 0})

    result = await league.record_finished(table)

    assert result is not None
    alice, bob = result.seats
    assert (alice.placement, alice.outcome, alice.forfeit) == (2, "loss", True)
    assert (bob.placement, bob.outcome, bob.forfeit) == (1, "win", False)
    loser, winner = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[2, 1])
    assert alice.rating_after == displayed(loser[0]) and bob.rating_after == displayed(winner[0])


async def test_a_duplicate_finish_records_nothing_the_second_time(store, league):
    table = await finished(store, [ALICE, BOB], bann_won_by(1))
    first = await league.record_finished(table)
    season = await league.current_season(GUILD)
    before = await league.standings(GUILD, "bann", season.id)

    assert await league.record_finished(table) is None
    assert await League(store).record_finished(table) is None

    assert first is not None
    assert await league.standings(GUILD, "bann", season.id) == before
    assert [row.games for row in before] == [1, 1]
    assert len(await league.history(GUILD)) == 1


async def test_exactly_once_across_a_reopened_store(database):
    path = database.target
    store = await Store.open(path)
    table = await finished(store, [ALICE, BOB], bann_won_by(0))
    assert await League(store).record_finished(table) is not None
    await store.close()

    reopened = await Store.open(path)
    try:
        league = League(reopened)
        assert await league.record_missing(KINDS, never_asked) == []
        assert await league.record_finished(table) is None
        season = await league.current_season(GUILD)
        assert [row.games for row in await league.standings(GUILD, "bann", season.id)] == [1, 1]
    finally:
        await reopened.close()


async def test_start_up_catches_up_on_finished_games_but_never_abandoned_ones(store, league):
    won = await finished(store, [ALICE, BOB], bann_won_by(1))
    await finished(store, [CAROL, DAVE], bann_won_by(0), status="aborted")

    caught_up = await league.record_missing(KINDS, never_asked)

    assert [result.game_id for result in caught_up] == [won.id]
    assert await league.record_missing(KINDS, never_asked) == []
    season = await league.current_season(GUILD)
    assert [row.name for row in await league.standings(GUILD, "bann", season.id)] == [
        "Bob",
        "Alice",
    ]


async def test_a_game_saved_without_scores_is_caught_up_with_the_scores_given(store, league):
    table = await finished(store, [ALICE, BOB], bann_won_by(1))
    table.extra.pop("final_scores")
    await store.save(table, expected_version=table.version)

    assert await league.record_finished(table) is None, "no scores, no result"
    assert await league.record_missing(["barbu"], never_asked) == [], "another game's kind"
    caught_up = await league.record_missing(["bann"], lambda _: [0.0, 1.0])

    assert [seat.outcome for seat in caught_up[0].seats] == ["loss", "win"]


async def test_an_abandoned_game_is_never_recorded(store, league):
    table = await finished(store, [ALICE, BOB], bann_won_by(0), status="aborted")
    assert await league.record_finished(table) is None
    assert await league.history(GUILD) == []


async def test_computer_games_are_recorded_unrated_unless_the_server_rates_them(store, league):
    computer = Seat("Computer")
    unrated = await league.record_finished(await finished(store, [ALICE, computer], bann_won_by(0)))
    season = await league.current_season(GUILD)

    assert unrated is not None and not unrated.rated
    assert unrated.unrated_reason == "a computer played"
    assert all(seat.rating_change is None for seat in unrated.seats)
    assert await league.standings(GUILD, "bann", season.id) == []

    await league.set_rate_computer_games(GUILD, True)
    rated = await league.record_finished(await finished(store, [ALICE, computer], bann_won_by(0)))

    assert rated is not None and rated.rated
    winner, loser = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    rows = await league.standings(GUILD, "bann", season.id)
    assert [(row.name, row.rating) for row in rows] == [
        ("Alice", displayed(winner[0])),
        ("Computer", displayed(loser[0])),
    ]
    assert rows[1].player_id == COMPUTER_PLAYER_ID and rows[1].is_computer
    assert rows[0].games == 1, "the unrated game does not count in the standings"


async def test_a_game_with_hints_is_never_rated_even_where_computer_games_are(store, league):
    await league.set_rate_computer_games(GUILD, True)
    hinted = {HINTS: True}
    people = await finished(store, [ALICE, BOB], bann_won_by(0), extra=hinted)
    computers = await finished(store, [ALICE, Seat("Computer")], bann_won_by(0), extra=hinted)

    for table in (people, computers):
        result = await league.record_finished(table)
        assert result is not None and not result.rated
        assert result.unrated_reason == "hints were on"
    season = await league.current_season(GUILD)
    assert await league.standings(GUILD, "bann", season.id) == []


async def test_an_unrated_tournaments_games_are_not_rated_and_a_rated_ones_are(store, league):
    unrated = {TOURNAMENT: {"id": 1, "name": "Cup", "rated": False}}
    rated = {TOURNAMENT: {"id": 2, "name": "Open", "rated": True}}

    off = await league.record_finished(
        await finished(store, [ALICE, BOB], bann_won_by(0), extra=unrated)
    )
    on = await league.record_finished(
        await finished(store, [ALICE, BOB], bann_won_by(0), extra=rated)
    )

    assert off is not None and not off.rated and off.unrated_reason == "an unrated tournament"
    assert on is not None and on.rated


async def test_seasons_start_fresh_and_earlier_ones_stay_browsable(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    first = await league.current_season(GUILD)
    assert first.name == FIRST_SEASON_NAME

    autumn = await league.start_season(GUILD, "  Autumn   Cup ", started_by=100)
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(1)))

    assert autumn.name == "Autumn Cup" and autumn.number == first.number + 1
    assert (await league.current_season(GUILD)).id == autumn.id
    assert [season.name for season in await league.seasons(GUILD)] == ["Autumn Cup", "Season 1"]
    assert (await league.season_named(GUILD, "autumn cup")) == autumn
    old = await league.standings(GUILD, "bann", first.id)
    new = await league.standings(GUILD, "bann", autumn.id)
    assert [row.name for row in old] == ["Alice", "Bob"]
    assert [row.name for row in new] == ["Bob", "Alice"]
    assert all(row.games == 1 for row in old + new), "each season counts only its own games"
    assert new[0].rating == display_rating(*_first_winner()), "the new season starts afresh"


def _first_winner() -> tuple[float, float]:
    winner = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])[0][0]
    return winner.mu, winner.sigma


async def test_season_names_are_unique_and_sensible(league):
    await league.start_season(GUILD, "Winter", started_by=1)
    with pytest.raises(SeasonNameTaken):
        await league.start_season(GUILD, "WINTER", started_by=1)
    with pytest.raises(ValueError):
        await league.start_season(GUILD, "   ", started_by=1)
    with pytest.raises(ValueError):
        await league.start_season(GUILD, "x" * 41, started_by=1)
    assert [season.name for season in await league.seasons(GUILD)] == ["Winter", "Season 1"]
    assert [season.name for season in await league.seasons(GUILD + 1)] == ["Season 1"]


async def test_servers_keep_separate_leagues(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    other = await league.current_season(GUILD + 1)
    assert await league.standings(GUILD + 1, "bann", other.id) == []
    assert await league.history(GUILD + 1) == []


async def test_history_filters_by_member_and_game_and_keeps_the_board(store, league):
    first = await finished(store, [ALICE, BOB], bann_won_by(0))
    second = await finished(store, [CAROL, DAVE], bann_drawn())
    for table in (first, second):
        await league.record_finished(table)

    everything = await league.history(GUILD)
    alice_only = await league.history(GUILD, user_id=ALICE.user_id)

    assert [result.game_id for result in everything] == [second.id, first.id]
    assert [result.game_id for result in alice_only] == [first.id]
    assert await league.history(GUILD, kind="barbu") == []
    assert (alice_only[0].channel_id, alice_only[0].board_message_id) == (
        first.channel_id,
        first.board_message_id,
    )


async def test_a_profile_covers_every_game_with_rank_and_recent_results(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(1)))
    await league.record_finished(await finished(store, [ALICE, CAROL], bann_won_by(0)))

    profile = await league.profile(GUILD, BOB.user_id, list(GAMES))

    assert [entry.kind for entry in profile] == list(GAMES)
    bann = next(entry for entry in profile if entry.kind == "bann")
    assert bann.standing is not None
    rows = await league.standings(GUILD, "bann", (await league.current_season(GUILD)).id)
    assert bann.standing.rank == [row.name for row in rows].index("Bob") + 1
    assert [result.seats[1].outcome for result in bann.recent] == ["win"]


async def test_the_export_has_one_row_per_seat_of_the_season(store, league):
    won = await finished(store, [ALICE, BOB], bann_won_by(0))
    await league.record_finished(won)
    await league.start_season(GUILD, "Next", started_by=1)
    await league.record_finished(await finished(store, [CAROL, DAVE], bann_drawn()))
    first = (await league.seasons(GUILD))[-1]

    text = await league.export_csv(GUILD, first.id, lambda result: f"board {result.game_id}")
    rows = list(csv.DictReader(io.StringIO(text)))

    assert [(row["name"], row["outcome"], row["points"]) for row in rows] == [
        ("Alice", "win", "1"),
        ("Bob", "loss", "-1"),
    ]
    assert all(row["game_id"] == str(won.id) and row["rated"] == "1" for row in rows)
    assert int(rows[0]["rating_after"]) > int(rows[0]["rating_before"])
    assert rows[0]["link"] == f"board {won.id}"


async def test_equal_ratings_share_a_rank_on_the_board_and_in_profiles(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    await league.record_finished(await finished(store, [CAROL, DAVE], bann_won_by(0)))
    season = await league.current_season(GUILD)

    rows = await league.standings(GUILD, "bann", season.id)

    assert [(row.name, row.rank) for row in rows] == [
        ("Alice", 1),
        ("Carol", 1),
        ("Bob", 3),
        ("Dave", 3),
    ]
    dave = await league.standing_of(GUILD, "bann", season.id, DAVE.user_id)
    assert dave is not None and dave.rank == 3
    second_page = await league.standings(GUILD, "bann", season.id, offset=2, limit=2)
    assert [(row.name, row.rank) for row in second_page] == [("Bob", 3), ("Dave", 3)]


async def test_several_computer_seats_share_one_rated_computer(store, league):
    await league.set_rate_computer_games(GUILD, True)
    seats = [ALICE, Seat("Computer"), Seat("Computer 2"), Seat("Computer 3")]
    scores = [5.0, 20.0, -10.0, -15.0]
    await league.record_finished(await finished(store, seats, FixedScores(scores)))

    expected = MODEL.rate([[MODEL.rating()] for _ in scores], ranks=[2, 1, 3, 4])
    computer_mu = sum(team[0].mu for team in expected[1:]) / 3
    computer_sigma = sum(team[0].sigma for team in expected[1:]) / 3
    season = await league.current_season(GUILD)
    rows = {row.name: row for row in await league.standings(GUILD, "bann", season.id)}
    assert set(rows) == {"Alice", "Computer"}
    assert rows["Computer"].mu == pytest.approx(computer_mu)
    assert rows["Computer"].sigma == pytest.approx(computer_sigma)
    assert (rows["Computer"].games, rows["Computer"].wins) == (1, 1), "its best seat won"
    assert rows["Alice"].rating == displayed(expected[0][0])


async def test_two_processes_recording_at_once_count_each_game_once_and_lose_no_update(
    database,
):
    """Two stores (as two bot processes) record the same games and two games of the same
    players at the same moment: each game counts once and both rating updates land."""
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    first, second = await Store.open(database.target), await Store.open(database.target)
    try:
        one = await finished(first, [ALICE, BOB], bann_won_by(0))
        two = await finished(first, [ALICE, CAROL], bann_won_by(0))
        leagues = [League(first), League(second)]
        results = await asyncio.gather(
            leagues[0].record_finished(one),
            leagues[1].record_finished(one),
            leagues[0].record_finished(two),
            leagues[1].record_finished(two),
            leagues[1].record_missing(KINDS, never_asked),
        )
        season = await leagues[0].current_season(GUILD)
        standings = {
            row.name: row.games for row in await leagues[1].standings(GUILD, "bann", season.id)
        }
        history = await leagues[0].history(GUILD)
    finally:
        await first.close()
        await second.close()
    recorded = [result.game_id for result in [*results[:4], *results[4]] if result is not None]
    assert sorted(recorded) == [one.id, two.id], "each game is recorded once, by one call"
    assert standings == {"Alice": 2, "Bob": 1, "Carol": 1}, "no update was lost"
    assert sorted(result.game_id for result in history) == [one.id, two.id]


# ---- the season's story: rating history and who moved most ------------------------------

DAY = 86_400.0


async def recorded_at(
    store: Store, league: League, seats: list[Seat], state: GameState, at: float
) -> None:
    """A finished game recorded as having ended at the moment ``at``."""
    table = await finished(store, seats, state)
    table.updated_at = at
    await league.record_finished(table)


async def test_a_rating_history_follows_the_members_rated_games_in_order(store, league):
    computer = Seat("Computer")
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    await league.record_finished(await finished(store, [ALICE, computer], bann_won_by(1)))
    await league.record_finished(await finished(store, [CAROL, ALICE], bann_won_by(0)))
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(1)))
    season = await league.current_season(GUILD)

    history = await league.rating_history(GUILD, "bann", season.id, ALICE.user_id)

    first = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    alice, bob = first[0][0], first[1][0]
    _, alice_2 = (team[0] for team in MODEL.rate([[MODEL.rating()], [alice]], ranks=[1, 2]))
    alice_3, _ = (team[0] for team in MODEL.rate([[alice_2], [bob]], ranks=[2, 1]))
    assert [(game.rating_before, game.rating_after) for game in history] == [
        (displayed(MODEL.rating()), displayed(alice)),
        (displayed(alice), displayed(alice_2)),
        (displayed(alice_2), displayed(alice_3)),
    ], "the unrated game against the computer is no part of it"
    assert [game.finished_at for game in history] == sorted(game.finished_at for game in history)
    profile = await league.profile(GUILD, ALICE.user_id, list(GAMES))
    assert profile[0].history == history
    assert all(entry.history == [] for entry in profile[1:]), "no other game was played"


async def test_a_new_season_starts_a_new_history(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    first = await league.current_season(GUILD)
    second = await league.start_season(GUILD, "Spring", started_by=BOB.user_id)

    assert len(await league.rating_history(GUILD, "bann", first.id, ALICE.user_id)) == 1
    assert await league.rating_history(GUILD, "bann", second.id, ALICE.user_id) == []


async def test_the_movers_are_measured_over_the_stretch_only(store, league):
    """Alice won a lot long ago and lost this week; Bob lost long ago and won this week:
    over the week Bob rose and Alice fell, whatever their ratings."""
    now = 1_900_000_000.0
    for days_ago in (30, 29, 28):
        await recorded_at(store, league, [ALICE, BOB], bann_won_by(0), now - days_ago * DAY)
    before_week = {
        row.name: row.rating
        for row in await league.standings(GUILD, "bann", (await league.current_season(GUILD)).id)
    }
    for days_ago in (3, 2):
        await recorded_at(store, league, [ALICE, BOB], bann_won_by(1), now - days_ago * DAY)
    season = await league.current_season(GUILD)
    after = {row.name: row.rating for row in await league.standings(GUILD, "bann", season.id)}

    movers = await league.movers(GUILD, "bann", season.id, since=now - 7 * DAY)

    assert movers.rose is not None and movers.fell is not None
    assert (movers.rose.name, movers.rose.games) == ("Bob", 2)
    assert movers.rose.change == after["Bob"] - before_week["Bob"] > 0
    assert (movers.fell.name, movers.fell.games) == ("Alice", 2)
    assert movers.fell.change == after["Alice"] - before_week["Alice"] < 0
    quiet = await league.movers(GUILD, "bann", season.id, since=now - DAY)
    assert quiet.rose is None and quiet.fell is None, "nobody played in the last day"


async def test_the_movers_leave_out_the_computer_and_break_ties_by_games(store, league):
    await league.set_rate_computer_games(GUILD, True)
    computer = Seat("Computer")
    await league.record_finished(await finished(store, [computer, DAVE], bann_won_by(0)))
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0)))
    await league.record_finished(await finished(store, [CAROL, DAVE], bann_won_by(0)))
    season = await league.current_season(GUILD)

    movers = await league.movers(GUILD, "bann", season.id, since=0.0)

    assert movers.rose is not None and movers.fell is not None
    assert movers.rose.player_id != COMPUTER_PLAYER_ID
    assert (movers.fell.name, movers.fell.games) == ("Dave", 2), "two losses fall furthest"
    rows = await league.standings(GUILD, "bann", season.id)
    winners = [row for row in rows if row.name in ("Alice", "Carol")]
    expected = max(winners, key=lambda row: (row.rating, -ord(row.name[0])))
    assert movers.rose.name == expected.name
    assert movers.rose.change == expected.rating - displayed(MODEL.rating())


async def test_movers_stay_within_their_server_game_and_season(store, league):
    await league.record_finished(await finished(store, [ALICE, BOB], bann_won_by(0), guild=2))
    await league.record_finished(
        await finished(store, [ALICE, BOB], FixedScores([1.0, 0.0]), kind="barree")
    )
    season = await league.current_season(GUILD)

    assert await league.movers(GUILD, "bann", season.id, since=0.0) == Movers()
    barree = await league.movers(GUILD, "barree", season.id, since=0.0)
    assert barree.rose is not None and barree.rose.name == "Alice"
