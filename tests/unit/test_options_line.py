"""The options line of a lobby and a board: the options that differ from the game's
defaults, a few words each, in the table's language."""

from __future__ import annotations

import pytest

from games import GAMES
from texts.table import options_line

LINES = [
    (
        "barbu",
        {"french": True, "series": 1},
        "French Barbu · 1 series",
        "Französisches Barbu · 1 Ansagerrunde",
    ),
    (
        "barbu",
        {"series": 2, "discard_king": True},
        "2 series · King of hearts discarded when void",
        "2 Ansagerrunden · Herz-König wird bei Fehlfarbe abgeworfen",
    ),
    ("gulbara", {"head_rule": "pass"}, "Head rule: pass the corner", "Kopfregel: Ecke passieren"),
    (
        "gulbara",
        {"match_to": 3, "autoplay": False},
        "Match to 3 points · No autoplay",
        "Match auf 3 Punkte · Autoplay aus",
    ),
    ("barree", {"rounds": 1}, "", ""),
    ("barree", {"rounds": 3}, "3 rounds", "3 Runden"),
]


@pytest.mark.parametrize(("kind", "chosen", "english", "german"), LINES)
def test_the_line_names_what_differs_from_the_defaults(kind, chosen, english, german):
    options = GAMES[kind].options
    every = {option.name: option.default for option in options} | chosen
    assert options_line("en", options, every) == english
    assert options_line("de", options, every) == german


def test_a_table_opened_before_an_option_existed_shows_it_at_its_default():
    options = GAMES["gulbara"].options
    assert options_line("en", options, {"match_to": 1, "autoplay": True}) == ""
    assert options_line("en", GAMES["barbu"].options, {}) == ""
