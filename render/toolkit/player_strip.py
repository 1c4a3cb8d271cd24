"""The panel naming one player: turn marker, colour swatch, name and a detail line."""

from __future__ import annotations

from PIL import ImageDraw

from render.theme import PANEL, TEXT, TEXT_MUTED, SeatColour, mix
from render.toolkit.geometry import Box
from render.toolkit.shapes import draw_disc, draw_panel, draw_turn_marker
from render.toolkit.text import draw_text, fit_text, font


def draw_player_strip(
    draw: ImageDraw.ImageDraw,
    box: Box,
    name: str,
    colour: SeatColour,
    *,
    active: bool,
    detail: str | None = None,
    reserve_right: int = 0,
    detail_size: int | None = None,
) -> None:
    """A panel naming one player: turn marker (when ``active``), colour swatch, name and
    an optional muted ``detail`` line below it. The right ``reserve_right`` pixels are
    left free for the caller (a die, a score). ``name`` should come from ``clean_name``;
    ``detail_size`` sets the detail line's font size (default: about ⅔ of the name's)."""
    left, top, right, bottom = box
    height = bottom - top
    if active:
        draw_panel(draw, box, fill=mix(PANEL, colour.fill, 0.16), edge=colour.fill, edge_width=3)
    else:
        draw_panel(draw, box)
    middle = top + height / 2
    marker_x = left + 18
    if active:
        draw_turn_marker(draw, (marker_x, middle), 16, colour.fill)
    swatch_radius = min(16, height * 0.22)
    swatch_x = marker_x + 14 + swatch_radius
    draw_disc(draw, (swatch_x, middle), swatch_radius, colour.fill, edge=colour.edge, edge_width=2)
    text_left = swatch_x + swatch_radius + 12
    text_width = right - reserve_right - 12 - text_left
    name_font = font(max(12, min(23, round(height * 0.27))), "Bold")
    name_colour = TEXT if active else mix(TEXT, TEXT_MUTED, 0.5)
    if detail:
        detail_font = font(detail_size or max(10, round(name_font.size * 0.68)))
        draw_text(
            draw,
            (text_left, middle - 2),
            fit_text(name, name_font, text_width),
            name_font,
            name_colour,
            anchor="ls",
        )
        draw_text(
            draw,
            (text_left, middle + 6),
            fit_text(detail, detail_font, text_width),
            detail_font,
            TEXT_MUTED,
            anchor="lt",
        )
    else:
        draw_text(
            draw,
            (text_left, middle),
            fit_text(name, name_font, text_width),
            name_font,
            name_colour,
            anchor="lm",
        )
