"""Die faces: pips, or a text label for a special face."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import ImageDraw

from render.theme import CARD_FACE, TEXT_DARK, Colour
from render.toolkit.geometry import Box
from render.toolkit.shapes import draw_panel, fill_disc
from render.toolkit.text import draw_text_centred, fit_text, font


@dataclass(frozen=True)
class DieColours:
    """Colours of a die: ``face``, ``pip`` (also used for a text label) and ``edge``."""

    face: Colour = CARD_FACE
    pip: Colour = TEXT_DARK
    edge: Colour = (110, 110, 118)


DEFAULT_DIE = DieColours()

# Pip positions on a 3×3 grid (column, row), 0..2.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def draw_die(
    draw: ImageDraw.ImageDraw,
    box: Box,
    value: int,
    colours: DieColours = DEFAULT_DIE,
    label: str | None = None,
) -> None:
    """A die face showing ``value`` (1–6) as pips. ``label`` replaces the pips with text,
    for special faces such as Barree's bar (value 0)."""
    left, top, right, bottom = box
    size = min(right - left, bottom - top)
    radius = max(2, size // 6)
    draw_panel(draw, box, fill=colours.face, edge=colours.edge, radius=radius, edge_width=2)
    centre = ((left + right) / 2, (top + bottom) / 2)
    if label is not None or value not in PIP_LAYOUT:
        text = label if label is not None else str(value)
        text_font = font(max(8, round(size * 0.42)), "Bold")
        draw_text_centred(
            draw, centre, fit_text(text, text_font, size * 0.85), text_font, colours.pip
        )
        return
    step = size * 0.27
    pip_radius = size * 0.095
    for column, row in PIP_LAYOUT[value]:
        pip_centre = (centre[0] + (column - 1) * step, centre[1] + (row - 1) * step)
        fill_disc(draw, pip_centre, pip_radius, colours.pip)
