"""Barbu's channel sentences: in English exactly the move log's, in German free of
English, for every kind of action a random game takes."""

from __future__ import annotations

import random

import pytest
from german import english_in

from games.barbu import SPEC, BarbuState
from texts import barbu

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def every_step(seed: int) -> list[tuple[BarbuState, str]]:
    """Each state of a random one-series game with the action taken in it."""
    state = SPEC.new_game(players=4, seed=seed, series=1)
    chooser = random.Random(seed)
    steps = []
    while not state.is_over:
        assert isinstance(state, BarbuState)
        action = chooser.choice(state.legal_actions())
        steps.append((state, action))
        state = state.apply(action)
    return steps


@pytest.mark.parametrize("seed", [3, 11])
def test_english_narration_is_the_move_log_and_german_has_no_english(seed):
    for state, action in every_step(seed):
        for names in (NAMES, None):
            assert barbu.describe("en", state, action, names) == state.describe(action, names)
        german = barbu.describe("de", state, action, NAMES)
        assert english_in(german) == [], german
        confirmed = barbu.confirmation("de", state, action, NAMES)
        assert confirmed.startswith("✅ Du ") and english_in(confirmed) == [], confirmed


def test_card_words_follow_german_usage():
    assert barbu.card_words("de", "QS") == "Pik-Dame"
    assert barbu.card_words("en", "QS") == "queen of spades"
    assert barbu.card_label("de", "JH") == "B♥" and barbu.card_label("de", "TD") == "10♦"
    assert barbu.contract_title_of("de", "domino:5") == "Domino (Fünfen)"
    assert barbu.contract_title_of("en", "trumps:C") == "Trumps (clubs)"
