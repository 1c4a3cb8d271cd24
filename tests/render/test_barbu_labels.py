"""Every fixed word of the Barbu pictures fits its box in every language, measured with
the theme's own fonts (German words are the longest), and the pictures follow the
language."""

from __future__ import annotations

import random

import pytest

from games.barbu import SPEC, BarbuState
from render.barbu import labels, render_barbu_hand, render_barbu_scores, render_barbu_table
from texts.i18n import languages

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@pytest.mark.parametrize("language", languages())
def test_every_barbu_label_fits_its_box(language):
    for label in labels(language):
        width = label.font.getlength(label.text)
        assert width <= label.width, f"{label.text!r} is {width:.0f} px in a {label.width} px box"


def played(moves: int) -> BarbuState:
    state = SPEC.new_game(players=4, seed=7, series=1)
    chooser = random.Random(7)
    for _ in range(moves):
        state = state.apply(chooser.choice(state.legal_actions()))
    assert isinstance(state, BarbuState)
    return state


def test_the_pictures_change_with_the_language():
    state = played(30)
    assert state.phase == "play"
    view, hand = state.view(None), state.view(state.current_player)
    assert render_barbu_table(view, NAMES, None, "de") != render_barbu_table(view, NAMES)
    assert render_barbu_hand(hand, NAMES, "de") != render_barbu_hand(hand, NAMES)
    assert render_barbu_scores(view, NAMES, "de") != render_barbu_scores(view, NAMES)
