"""The reviews of Bann and Gul Bara: decisions judged against the best play found, luck
that averages to zero over every roll, and the review command on exported records."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.bann import review as bann_review
from games.bann.codec import from_code
from games.bann.computer import WIN
from games.bann.review import REVIEWER as BANN
from games.base import Step
from games.gulbara import review as gulbara_review
from games.gulbara.board import HEAD_RULES, perspective
from games.gulbara.codec import from_code as gulbara_from_code
from games.gulbara.review import REVIEWER as GULBARA
from games.gulbara.state import GulbaraState
from games.proof import GameFacts, RecordError, computer_seed, walk, write_record
from games.review import review_game, review_record
from games.review.__main__ import main
from games.review.model import MARKS, DecisionPoint


def computer_game(
    kind: str, seed: int, level: str, moves: int, end: str = "!resign"
) -> tuple[GameFacts, list[tuple[int | None, str]]]:
    """``moves`` actions of a game between two computers at ``level``, then ``end`` (a
    resignation of the seat to move) unless the game ended first."""
    spec = GAMES[kind]
    facts = GameFacts(kind, seed, 7, 8, seed, {}, ["Ada", "Bo"])
    state = spec.new_game(players=2, seed=seed)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over and len(actions) < moves:
        action = spec.bot_action(state, seed=computer_seed(seed, len(actions)), level=level)
        actions.append((state.current_player, action))
        state = state.apply(action)
    if not state.is_over:
        actions.append((state.current_player, end))
    return facts, actions


def steps_of(facts: GameFacts, actions: list[tuple[int | None, str]]) -> list[Step]:
    return [item for item in walk(facts, actions) if isinstance(item, Step)]


def test_bann_walking_past_a_castle_win_is_a_blunder():
    # Ada's knight 2 stands next to the enemy castle f6, and Bo's knights 1 and 2 stand
    # next to Ada's empty castle a1: any move but the castle move loses at once.
    state = from_code("BN1:....2./....../..3.../....../b...../.a....|4,5|0")
    for played, mark in (("6>2:E", None), ("6>3:N", "blunder")):
        step = Step(5, 0, played, state, state.apply(played), ())
        judgement = BANN.judge(GameFacts("bann", 1, 1, 1, 1, {}, ["A", "B"]), _point(step))
        assert judgement.mark == mark
        assert judgement.value_best == 1.0
        assert judgement.best.endswith(">2:E")
    assert judgement.loss == 1.0


def test_bann_a_better_search_score_is_never_a_smaller_chance_to_win():
    # every score the search can give short of a found win or loss, and past the limit
    chances = [bann_review.chance(score) for score in range(-WIN // 2, WIN // 2 + 1)]
    assert all(low <= high for low, high in itertools.pairwise(chances))
    assert chances[0] > 0 and chances[-1] < 1
    limit = bann_review.SCORE_LIMIT
    inside = [bann_review.chance(score) for score in range(-limit, limit + 1)]
    assert all(low < high for low, high in itertools.pairwise(inside))
    assert bann_review.chance(WIN - 1) == 1.0 and bann_review.chance(1 - WIN) == 0.0


def _point(step: Step) -> DecisionPoint:
    assert step.seat is not None
    return DecisionPoint(step.number, step.seat, (step,), step.before)


def test_bann_judges_every_move_of_a_game_and_only_moves_with_a_choice():
    facts, actions = computer_game("bann", 3, "easy", 14)
    review = review_game(facts, actions)
    steps = steps_of(facts, actions)
    moves = [step for step in steps if not step.is_table_event]
    assert [judgement.index for judgement in review.judgements] == [
        step.number for step in moves if len(set(step.before.legal_actions()) - WORDS) > 1
    ]
    for judgement in review.judgements:
        assert 0 <= judgement.value_played <= judgement.value_best <= 1
        assert judgement.loss == pytest.approx(judgement.value_best - judgement.value_played)
        assert judgement.mark == BANN.thresholds.mark(judgement.loss)
    resigner = actions[-1][0]
    assert [seat.result for seat in review.seats] == [0.0 if s == resigner else 1.0 for s in (0, 1)]
    (opening,) = review.luck
    assert opening.index == 0 and abs(opening.luck) < 0.5


WORDS = {"offer", "accept", "decline"}


def gulbara_positions(seed: int, count: int) -> list[GulbaraState]:
    """Positions of a random game at the start of a turn (a roll just came)."""
    chooser = random.Random(seed)
    state = GAMES["gulbara"].new_game(players=2, seed=seed)
    found = []
    while not state.is_over and len(found) < count:
        if not state.played:
            found.append(state)
        state = state.apply(chooser.choice(state.legal_steps()))
    return found


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_gulbara_luck_averages_to_zero_over_the_21_rolls(seed, turn):
    positions = gulbara_positions(seed, turn + 1)
    state = positions[-1]
    mine, theirs = perspective(state.board, state.off, state.turn)
    before_roll = gulbara_review.Turn(
        state.rolls[state.turn] - 1, state.rolls[1 - state.turn], 1, 1, HEAD_RULES["reach"]
    )
    lucks = [
        gulbara_review.roll_luck(mine, theirs, roll, before_roll) for roll in gulbara_review.ROLLS
    ]
    weighted = sum(
        gulbara_review.roll_weight(roll) * luck
        for roll, luck in zip(gulbara_review.ROLLS, lucks, strict=True)
    )
    assert weighted == pytest.approx(0, abs=1e-9)
    assert all(-1 <= luck <= 1 for luck in lucks)


def test_gulbara_playing_the_best_play_found_loses_nothing():
    facts, actions = computer_game("gulbara", 11, "easy", 40)
    steps = steps_of(facts, actions)
    points = GULBARA.decisions(facts, steps)
    assert points, "a game of 40 steps has decisions"
    for point in points:
        judged = GULBARA.judge(facts, point)
        assert judged.mark == GULBARA.thresholds.mark(judged.loss)
        best_steps = tuple(
            Step(point.index, point.seat, action, point.before, point.before, ())
            for action in judged.best.split()
        )
        again = GULBARA.judge(
            facts, DecisionPoint(point.index, point.seat, best_steps, point.before)
        )
        assert again.loss == 0.0
        assert again.value_played == pytest.approx(judged.value_best)


def test_gulbara_a_roll_is_one_decision_from_the_turn_it_starts():
    facts, actions = computer_game("gulbara", 5, "normal", 30)
    steps = steps_of(facts, actions)
    for point in GULBARA.decisions(facts, steps):
        assert isinstance(point.before, GulbaraState)
        assert point.seat == point.before.turn
        assert all(step.seat == point.seat for step in point.steps)
        assert len(point.steps) <= len(point.before.dice)


def test_gulbara_undone_steps_are_not_judged():
    facts, actions = computer_game("gulbara", 5, "normal", 30)
    steps = steps_of(facts, actions)
    first = GULBARA.decisions(facts, steps)[0]
    seat, step = actions[first.index - 1]
    undone = [
        *actions[: first.index - 1],
        (seat, step),
        (seat, "undo"),
        *actions[first.index - 1 :],
    ]
    again = GULBARA.decisions(facts, steps_of(facts, undone))[0]
    assert [s.action for s in again.steps] == [s.action for s in first.steps]


@pytest.fixture(scope="module")
def bann_record(tmp_path_factory: pytest.TempPathFactory) -> str:
    facts, actions = computer_game("bann", 21, "normal", 10)
    path = tmp_path_factory.mktemp("records") / "bann.txt"
    path.write_text(write_record(facts, actions))
    return str(path)


def test_review_command_prints_one_line_per_decision_and_a_summary(bann_record, capsys):
    assert main([bann_record]) == 0
    lines = capsys.readouterr().out.splitlines()
    review = review_record(Path(bann_record).read_text())
    assert len(lines) == len(review.judgements) + 2
    assert lines[0].startswith(f"{review.judgements[0].index}. seat ")
    assert lines[-2].startswith("seat 0: ") and "luck" in lines[-2]


def test_review_command_json_has_the_agreed_shape_and_the_same_bytes_twice(bann_record, capsys):
    assert main([bann_record, "--json"]) == 0
    first = capsys.readouterr().out
    assert main([bann_record, "--json"]) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert list(data) == ["decisions", "seats"]
    assert all(
        list(decision) == ["index", "seat", "played", "best", "loss", "mark"]
        for decision in data["decisions"]
    )
    for seat in data["seats"]:
        assert list(seat) == ["seat", "decisions", "error_rate", "accuracy", "marks", "luck"]
        assert list(seat["marks"]) == list(MARKS)


def test_a_tampered_record_is_refused_and_not_reviewed(bann_record, tmp_path, capsys):
    text = Path(bann_record).read_text()
    tampered = text.replace("seed: 21", "seed: 22")
    path = tmp_path / "tampered.txt"
    path.write_text(tampered)
    assert main([str(path), "--json"]) == 1
    assert capsys.readouterr().out.startswith("NOT reviewed: the record does not verify: line ")
    with pytest.raises(RecordError):
        review_record(tampered)


@given(st.integers(1, 25), st.integers(1, 25))
def test_gulbara_match_equity_is_fair_and_favours_the_leader(own, other):
    equity = gulbara_review.match_equity
    assert equity(own, other) + equity(other, own) == pytest.approx(1)
    assert equity(own, own) == pytest.approx(0.5)
    if own < other:
        assert equity(own, other) > 0.5


def test_gulbara_in_a_match_winning_the_game_is_worth_the_match_points_it_brings():
    start = GAMES["gulbara"].new_game(players=2, seed=4, match_to=5)
    mine, theirs = perspective(start.board, start.off, start.turn)
    one_away = gulbara_review.Turn(4, 4, 1, 5, HEAD_RULES["reach"])
    assert gulbara_review.match_chance(1.0, mine, theirs, one_away) == 1.0
    lost = gulbara_review.match_chance(0.0, mine, theirs, one_away)
    assert 0 < lost < gulbara_review.match_equity(1, 5) < 1
    two_away = gulbara_review.Turn(4, 4, 2, 5, HEAD_RULES["reach"])
    # nothing borne off yet: a won game may be won double and end the match at once
    won = gulbara_review.match_chance(1.0, mine, theirs, two_away)
    assert gulbara_review.match_equity(1, 5) < won < 1


def test_gulbara_a_stage_left_unfinished_by_a_resignation_is_not_judged():
    facts, actions = computer_game("gulbara", 5, "normal", 30)
    steps = steps_of(facts, actions)
    last = GULBARA.decisions(facts, steps)[-1]
    cut = [*actions[: last.index], (last.seat, "!resign")]
    assert len(last.steps) > 1
    review = review_game(facts, cut)
    assert last.index not in [judgement.index for judgement in review.judgements]
    assert review.seats[last.seat].result == 0.0


def test_gulbara_a_play_the_filter_leaves_out_is_judged_one_stage_deeper_too():
    facts, actions = computer_game("gulbara", 11, "easy", 40)
    for point in GULBARA.decisions(facts, steps_of(facts, actions)):
        state = point.before
        assert isinstance(state, GulbaraState)
        mine, theirs = perspective(state.board, state.off, state.turn)
        turn = gulbara_review.turn_of(state, state.turn)
        plays, values = gulbara_review.best_play(mine, theirs, state.dice, turn, [])
        if len(plays) > gulbara_review.FILTER_COUNT and not state.chain_to_come():
            break
    else:
        raise AssertionError("a decision with more plays than the filter keeps")
    worst = min(values, key=lambda end: (values[end], end))
    planted = tuple(
        Step(point.index, point.seat, action, state, state, ()) for action in plays[worst]
    )
    judged = GULBARA.judge(facts, DecisionPoint(point.index, point.seat, planted, state))
    mover = gulbara_review.mover_of(mine, theirs, turn.freed_at)
    deeper = gulbara_review.one_ply_value(mover, list(worst), theirs, turn)
    assert judged.value_played == pytest.approx(deeper)
    assert judged.value_played != pytest.approx(values[worst])
    assert judged.value_played < judged.value_best


def test_gulbara_a_double_that_ends_its_escalation_chain_is_a_mistake_or_worse():
    # of the five ways to play this 2-2, only one leaves the 3-3 (and 4-4, 5-5, 6-6 after
    # it) playable four times
    state = gulbara_from_code("GB1:,,,,,-3,-2,,,,,-3,-2,-2,4,3,4,,4,,,-3,,|0,0|0|2,2,2,2|5,5")
    facts = GameFacts("gulbara", 1, 1, 1, 1, {}, ["A", "B"])
    mine, theirs = perspective(state.board, state.off, state.turn)
    mover = gulbara_review.mover_of(mine, theirs, HEAD_RULES[state.head_rule])
    plays = gulbara_review.stage_plays(mover, mine, state.dice)
    marks = []
    for path in plays.values():
        steps = tuple(Step(1, 0, action, state, state, ()) for action in path)
        marks.append(GULBARA.judge(facts, DecisionPoint(1, 0, steps, state)).mark)
    assert marks.count(None) == 1
    assert all(mark in ("mistake", "blunder") for mark in marks if mark is not None)
