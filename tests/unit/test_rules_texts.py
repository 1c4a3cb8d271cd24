"""Each game's `/x rules` opens with "How to play" in five short lines and then explains
the words its rules use."""

from __future__ import annotations

import pytest

from texts import bann, barbu, barree, gulbara

RULES = {"bann": bann.RULES, "gulbara": gulbara.RULES, "barbu": barbu.RULES, "barree": barree.RULES}
SHORT_LINE = 95
"""Characters: one line of a phone's rules embed, about two lines at the most."""
TERMS = {
    "bann": ("Tip", "Ban", "Castle"),
    "gulbara": ("Point", "Pips", "Home", "Bear off", "Head", "Prime"),
    "barbu": ("Trick", "Lead", "Declarer", "Trumps", "Double", "Redouble"),
    "barree": ("Field", "Blockade", "Bar", "Send"),
}


@pytest.mark.parametrize("kind", RULES)
def test_the_rules_start_with_how_to_play_in_five_short_lines(kind: str) -> None:
    heading, *steps = RULES[kind].splitlines()[:6]
    assert heading == "**How to play**"
    assert [step[:3] for step in steps] == ["1. ", "2. ", "3. ", "4. ", "5. "]
    assert all(len(step) <= SHORT_LINE for step in steps), steps


@pytest.mark.parametrize("kind", RULES)
def test_the_rules_explain_their_words(kind: str) -> None:
    words = RULES[kind].split("**Words.**", 1)[1].split("\n**", 1)[0]
    for term in TERMS[kind]:
        assert f"*{term}*:" in words, term


def test_no_rules_text_asks_for_seats_counted_from_zero() -> None:
    for text in RULES.values():
        assert "from 0" not in text and "0–3" not in text and "double:0" not in text
