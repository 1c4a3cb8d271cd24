"""Every text of the Bann board fits its room in every language, measured with the
theme's own fonts (German words are the longest): the fixed labels, and the sentences
of the status line and the footer with long player names."""

from __future__ import annotations

import pytest

from games import GAMES
from render.bann import FOOTER_BOX, STATUS_BOX, TEXT_SIZE, labels, render_bann
from render.toolkit.text import ELLIPSIS, font, wrap_text
from texts import bann as bann_text
from texts.i18n import languages

LONG_NAMES = ["Maximilian K.", "Friederike S."]
"""Thirteen letters: a long display name a picture shows uncut."""
BANN = GAMES["bann"]


@pytest.mark.parametrize("language", languages())
def test_every_fixed_label_of_the_bann_board_fits(language):
    for label in labels(language):
        width = label.font.getlength(label.text)
        assert width <= label.width, f"{label.text!r} is {width:.0f} px in a {label.width} px box"


def _results():
    for outcome in ("castle", "last-knight", "no-move"):
        yield {"result": outcome, "winner": 1}
    for outcome in ("agreement", "repetition"):
        yield {"result": outcome, "winner": None}


@pytest.mark.parametrize("language", languages())
def test_every_result_fits_the_status_line_with_long_names(language):
    left, _top, right, _bottom = STATUS_BOX
    status_font = font(22, "Bold")
    for view in _results():
        text = bann_text.result(language, view, LONG_NAMES)
        assert status_font.getlength(text) <= right - left - 32, text


@pytest.mark.parametrize("language", languages())
def test_the_longest_last_move_fits_the_footer_uncut(language):
    left, _top, right, _bottom = FOOTER_BOX
    line_font = font(TEXT_SIZE)
    move = {
        "seat": 1,
        "action": "6>6:S",
        "knight": 6,
        "from": "f4",
        "to": "f3",
        "captured": ["e3", "f2", "g3"],
    }
    opening = {"last_move": None, "opening_roll": [6, 5]}
    for text in (
        bann_text.move_sentence(language, move, LONG_NAMES),
        bann_text.last_move(language, opening, LONG_NAMES),
    ):
        lines = wrap_text(text, line_font, right - left - 32)
        assert not any(line.endswith(ELLIPSIS) for line in lines), lines


def test_the_board_picture_speaks_the_language_it_is_given():
    view = BANN.new_game(seed=3).view(None)
    assert render_bann(view, LONG_NAMES, None, "de") != render_bann(view, LONG_NAMES, None, "en")


def test_a_german_strip_says_knights_were_lost_not_captured():
    """The issue's "5 geschlagen": beaten by whom? The strip counts the player's losses."""
    assert bann_text.strip_detail("de", 5, won=False) == "verlor 5 Springer"
    assert bann_text.strip_detail("de", 0, won=False) == "noch alle Springer"
    assert bann_text.strip_detail("de", 2, won=True) == "Sieg · 2 verloren"
    assert bann_text.strip_detail("en", 5, won=False) == "lost 5 knights"
