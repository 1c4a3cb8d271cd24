"""Property tests for Barree: random legal play always ends without errors, the 48 cards
are conserved, and the offered walks are exactly the distinct outcomes."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from data.league import placements
from games.barree import FIELDS, NEIGHBOURS, SPEC, walk_outcomes
from games.barree.review import world_dealt_anew
from games.barree.state import first_walk, walk_options

MAX_ACTIONS = 5000


def play_randomly(players: int, seed: int, rounds: int, check_every_step) -> int:
    state = SPEC.new_game(players=players, seed=seed, rounds=rounds)
    chooser = random.Random(seed)
    for count in range(MAX_ACTIONS):
        if state.is_over:
            return count
        check_every_step(state)
        state = state.apply(chooser.choice(state.legal_actions()))
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


def cards_conserved(state) -> None:
    assert sorted(state.all_cards()) == list(FIELDS)
    view = state.view(None)
    visible = sum(len(hand) for hand in view["cards"]) + sum(view["hidden"])
    assert visible + view["draw_count"] + view["discard_count"] == 48


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    rounds=st.integers(1, 2),
)
def test_random_play_ends_and_conserves_the_cards(players, seed, rounds):
    play_randomly(players, seed, rounds, cards_conserved)


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_finished_match_ranks_by_fewest_minus_points(players, seed):
    state = SPEC.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    while not state.is_over:
        state = state.apply(chooser.choice(state.legal_actions()))
    minus = state.round_minus[-1]
    assert min(minus) == 0
    assert state.finisher is not None and minus[state.finisher] == 0
    assert placements(state.returns())[state.finisher] == 1


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_snapshots_round_trip_at_every_step(players, seed):
    def round_trip(state) -> None:
        text = json.dumps(state.to_dict())
        assert SPEC.from_dict(json.loads(text)).to_dict() == state.to_dict()
        json.dumps(state.view(None))

    play_randomly(players, seed, 1, round_trip)


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_computer_players_finish_a_match_with_legal_moves(players, seed):
    state = SPEC.new_game(players=players, seed=seed)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            break
        action = SPEC.bot_action(state, seed=seed)
        assert action in state.legal_actions()
        state = state.apply(action)
    assert state.is_over


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_seed_and_action_log_replay_the_match_exactly(players, seed):
    state = SPEC.new_game(players=players, seed=seed, rounds=2)
    chooser = random.Random(seed)
    log = []
    while not state.is_over:
        log.append(chooser.choice(state.legal_actions()))
        state = state.apply(log[-1])
    replayed = SPEC.new_game(players=players, seed=seed, rounds=2)
    for action in log:
        replayed = replayed.apply(action)
    assert replayed.to_dict() == state.to_dict()


def all_walks(start: int, steps: int, blockade: int):
    walks = [(start,)]
    for _ in range(steps):
        walks = [
            (*walk, other)
            for walk in walks
            for other in NEIGHBOURS[walk[-1]]
            if other // 10 != blockade
        ]
    return walks


@settings(max_examples=40, deadline=None)
@given(
    start=st.sampled_from(FIELDS),
    steps=st.integers(1, 4),
    blockade=st.integers(1, 8),
    hand=st.sets(st.sampled_from(FIELDS), max_size=9),
)
def test_outcomes_are_exactly_the_distinct_results_of_all_walks(start, steps, blockade, hand):
    expected: dict = {}
    if start // 10 != blockade:
        for walk in all_walks(start, steps, blockade):
            key = (walk[-1], frozenset(hand & set(walk[1:])))
            expected[key] = min(expected.get(key, walk), walk)
    assert walk_outcomes(start, steps, blockade, hand) == expected


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_the_normal_computers_quick_walk_is_the_first_walk_offered(players, seed):
    """``first_walk`` stands in for ``walk_options(state)[0]`` in the review's playouts."""

    def same_walk(state) -> None:
        options = walk_options(state)
        assert first_walk(state) == (options[0].action if options else None)

    play_randomly(players, seed, 1, same_walk)


@settings(max_examples=5, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_playing_in_place_reaches_what_apply_reaches(players, seed):
    """The review's playouts ``play`` on one state where the game ``apply``s copies."""
    chooser = random.Random(seed)

    def same_state(state) -> None:
        action = chooser.choice(state.legal_actions())
        played = state.copy()
        played.legal_actions()
        played.play(action)
        applied = state.apply(action)
        assert played.to_dict() == applied.to_dict()
        assert played.events == applied.events
        assert played.legal_actions() == applied.legal_actions()

    play_randomly(players, seed, 1, same_state)


@settings(max_examples=4, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_the_computer_decides_from_what_its_seat_sees(players, seed):
    """Nobody sees the hidden cards before the reveal, the draw pile's order or the dice
    to come: a computer at any level chooses the same whatever they are."""
    chooser = random.Random(seed)

    def blind_to_unseen_cards(state) -> None:
        if state.phase == "roll" or chooser.random() > 0.2:
            return
        twin = world_dealt_anew(state, random.Random(chooser.getrandbits(32)))
        for level in ("easy", "normal", "hard"):
            assert SPEC.bot_action(twin, seed=seed, level=level) == SPEC.bot_action(
                state, seed=seed, level=level
            )

    play_randomly(players, seed, 1, blind_to_unseen_cards)
