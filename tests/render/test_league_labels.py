"""Every fixed heading of the league and review pictures fits its box in every language, measured
with the theme's own fonts (German words are the longest)."""

from __future__ import annotations

import pytest

from render import review
from render.league import labels, render_profile, render_standings
from texts.i18n import languages


@pytest.mark.parametrize("language", languages())
def test_every_league_heading_fits_its_box(language):
    for label in [*labels(language), *review.labels(language)]:
        width = label.font.getlength(label.text)
        assert width <= label.width, f"{label.text!r} is {width:.0f} px in a {label.width} px box"


def test_the_pictures_change_with_the_language():
    view = {"title": "Bann", "season": "S1", "page": 1, "pages": 1, "rows": []}
    assert render_standings(view, "de") != render_standings(view, "en")
    profile = {"name": "Alice", "season": "S1", "games": []}
    assert render_profile(profile, "de") != render_profile(profile, "en")
