"""Every word of the Gul Bara and Barree pictures fits its room in every language,
measured with the theme's own fonts (German words are the longest), and the pictures
change with the language."""

from __future__ import annotations

import pytest

from games.barree import new_game as new_barree
from games.gulbara import new_game as new_gulbara
from render import barree, gulbara
from texts.i18n import languages

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("picture", [gulbara, barree], ids=["gulbara", "barree"])
def test_every_word_of_the_picture_fits_its_room(picture, language):
    for label in picture.labels(language):
        width = label.font.getlength(label.text)
        assert width <= label.width, (
            f"{label.text!r} is {width:.0f} px in a {label.width:.0f} px box"
        )


def test_the_pictures_change_with_the_language():
    board = new_gulbara(seed=3).view(None)
    assert gulbara.render_gulbara(board, NAMES[:2], language="de") != gulbara.render_gulbara(
        board, NAMES[:2], language="en"
    )
    table = new_barree(players=3, seed=3).view(None)
    assert barree.render_barree(table, NAMES[:3], language="de") != barree.render_barree(
        table, NAMES[:3], language="en"
    )
