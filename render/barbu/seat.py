"""What one seat saw when it decided, 720×1208: the table (the trick, the contract, the
doubles, the penalties taken) above the seat's own hand, as a player sees the board and
his "My hand" picture. Only for that seat's member: the hand is private."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.barbu import BarbuView
from render.barbu.hand import HAND_HEIGHT, draw_barbu_hand
from render.barbu.table import TABLE_HEIGHT, TABLE_WIDTH, draw_barbu_table
from texts.i18n import ENGLISH

SEAT_HEIGHT = TABLE_HEIGHT + HAND_HEIGHT


def draw_barbu_seat(
    view: BarbuView, names: Sequence[str], headline: str, language: str = ENGLISH
) -> Image.Image:
    """The table of the seat's ``view`` with ``headline`` in its header, its hand below
    (the table draws only what every seat sees)."""
    image = Image.new("RGB", (TABLE_WIDTH, SEAT_HEIGHT))
    image.paste(draw_barbu_table(view, names, headline, language), (0, 0))
    image.paste(draw_barbu_hand(view, names, language), (0, TABLE_HEIGHT))
    return image
