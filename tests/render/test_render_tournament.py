"""Tournament pictures: standings, bracket and a round's tables draw in both languages,
every fixed word fits its box, and what a player looks for is in the view."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from tournament_views import bracket_views, round_views, standings_views

from render.tournament import WIDTH, labels, render_bracket, render_round, render_standings
from texts.i18n import languages
from texts.tournament import game_points, points


@pytest.mark.parametrize("language", languages())
def test_every_tournament_heading_fits_its_box(language):
    for label in labels(language):
        width = label.font.getlength(label.text)
        assert width <= label.width, f"{label.text!r} is {width:.0f} px in a {label.width} px box"


@pytest.mark.parametrize("language", languages())
def test_every_picture_draws_at_the_league_s_width(language):
    drawn = [
        *(render_standings(view, language) for view in standings_views()),
        *(render_bracket(view, language) for view in bracket_views()),
        *(render_round(view, language) for view in round_views()),
    ]
    for png in drawn:
        assert Image.open(io.BytesIO(png)).width == WIDTH


def test_the_pictures_change_with_the_language():
    standings, bracket, round_ = standings_views()[0], bracket_views()[1], round_views()[0]
    assert render_standings(standings, "de") != render_standings(standings, "en")
    assert render_bracket(bracket, "de") != render_bracket(bracket, "en")
    assert render_round(round_, "de") != render_round(round_, "en")


def test_the_standings_view_lists_every_entrant_with_the_format_s_tie_breaks():
    swiss, round_robin, knockout, groups = standings_views()
    assert len(swiss["rows"]) == 9 and all(len(row["tiebreaks"]) == 3 for row in swiss["rows"])
    assert all(len(row["tiebreaks"]) == 3 for row in round_robin["rows"])
    assert all(row["tiebreaks"] == [] for row in knockout["rows"])
    assert all(len(row["tiebreaks"]) == 2 for row in groups["rows"])
    assert swiss["rows"][0]["place"] == 1
    assert sum(row["withdrawn"] for row in swiss["rows"]) == 1


def test_the_bracket_view_keeps_bracket_order_with_byes_beside_their_match():
    six = bracket_views()[1]
    first, second, final = six["rounds"]
    assert [len(match["names"]) for match in first] == [1, 2, 1, 2], "seed 1 and 2 have byes"
    assert len(second) == 2 and len(final) == 1
    assert final[0]["winner"] in (0, 1)


def test_points_are_written_as_results_are():
    assert [game_points("en", value) for value in (1, 0.5, 0, 2.5)] == ["1", "½", "0", "2½"]
    assert points("de", 6.75) == "6,75"
    assert points("en", -21) == "−21"
