"""Anti-aliased shapes: rounded boxes and panels, discs, rings, drop shadows, lines,
arrows, crosses, turn markers and polygons."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.theme import PANEL, PANEL_EDGE, TEXT_DARK, Colour
from render.toolkit.geometry import Point, Rect
from render.toolkit.masks import blit, supersampled_mask
from render.toolkit.text import draw_text_centred, font


@lru_cache(maxsize=512)
def _rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.rounded_rectangle(
            (0, 0, width * scale - 1, height * scale - 1), radius=radius * scale, fill=255
        )

    return supersampled_mask(width, height, paint)


@lru_cache(maxsize=512)
def _disc_mask(diameter: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.ellipse((0, 0, diameter * scale - 1, diameter * scale - 1), fill=255)

    return supersampled_mask(diameter, diameter, paint)


@lru_cache(maxsize=512)
def _ring_mask(diameter: int, width: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.ellipse(
            (0, 0, diameter * scale - 1, diameter * scale - 1), outline=255, width=width * scale
        )

    return supersampled_mask(diameter, diameter, paint)


@lru_cache(maxsize=256)
def _segment_mask(dx: int, dy: int, width: int, head: int) -> tuple[Image.Image, int, int]:
    """A line from (0, 0) to (dx, dy), optionally ending in an arrow head ``head`` px
    long; returns the mask and the offset of the start point inside it."""
    margin = width + head + 2
    left, top = min(0, dx) - margin, min(0, dy) - margin
    size_x, size_y = abs(dx) + 2 * margin, abs(dy) + 2 * margin
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        def at(x: float, y: float) -> tuple[float, float]:
            return ((x - left) * scale, (y - top) * scale)

        shaft_end = (dx - ux * head * 0.8, dy - uy * head * 0.8) if head else (dx, dy)
        draw.line((at(0, 0), at(*shaft_end)), fill=255, width=width * scale)
        for end in ((0, 0), shaft_end):
            cx, cy = at(*end)
            radius = width * scale / 2
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
        if head:
            base_x, base_y = dx - ux * head, dy - uy * head
            spread = head * 0.6
            draw.polygon(
                (
                    at(dx, dy),
                    at(base_x - uy * spread, base_y + ux * spread),
                    at(base_x + uy * spread, base_y - ux * spread),
                ),
                fill=255,
            )

    return supersampled_mask(size_x, size_y, paint), -left, -top


def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """The cached anti-aliased coverage mask of a rounded rectangle: paste a pre-drawn
    tile (a card) through it so whatever lies below shows at its corners."""
    return _rounded_mask(width, height, radius)


def fill_rounded(draw: ImageDraw.ImageDraw, box: Rect, radius: int, colour: Colour) -> None:
    """A smooth rounded rectangle filling ``box``.

    Only the corners need the smooth mask: outside its four ``radius``-sized corner
    squares the mask is fully opaque, so the rest is a plain fill with the same pixels,
    many times cheaper than blending a mask as large as a panel."""
    left, top, right, bottom = (round(value) for value in box)
    width, height = right - left, bottom - top
    corner = max(0, radius)
    if width <= 0 or height <= 0:
        return  # a box that rounds to no pixel covers none
    if 2 * corner > min(width, height):
        blit(draw, (left, top), _rounded_mask(width, height, radius), colour)
        return
    _fill_box(draw, (left, top + corner, right, bottom - corner), colour)
    if not corner:
        return
    _fill_box(draw, (left + corner, top, right - corner, top + corner), colour)
    _fill_box(draw, (left + corner, bottom - corner, right - corner, bottom), colour)
    corners = _rounded_corners(width, height, corner)
    for (x, y), mask in zip(_corner_places(width, height, corner), corners, strict=True):
        blit(draw, (left + x, top + y), mask, colour)


def _fill_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: Colour) -> None:
    """Fill the pixels from (left, top) up to but not including (right, bottom)."""
    left, top, right, bottom = box
    if right > left and bottom > top:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colour)


def _corner_places(width: int, height: int, corner: int) -> list[tuple[int, int]]:
    return [(0, 0), (width - corner, 0), (0, height - corner), (width - corner, height - corner)]


@lru_cache(maxsize=512)
def _rounded_corners(width: int, height: int, corner: int) -> tuple[Image.Image, ...]:
    mask = _rounded_mask(width, height, corner)
    return tuple(
        mask.crop((x, y, x + corner, y + corner))
        for x, y in _corner_places(width, height, corner)
    )


def draw_panel(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    fill: Colour = PANEL,
    edge: Colour | None = PANEL_EDGE,
    radius: int = 14,
    edge_width: int = 2,
) -> None:
    """A rounded panel with an optional outline of ``edge_width`` pixels."""
    if edge is None:
        fill_rounded(draw, box, radius, fill)
        return
    left, top, right, bottom = box
    fill_rounded(draw, box, radius, edge)
    inner = (left + edge_width, top + edge_width, right - edge_width, bottom - edge_width)
    fill_rounded(draw, inner, max(0, radius - edge_width), fill)


def fill_disc(draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: Colour) -> None:
    """A smooth filled circle."""
    diameter = max(1, round(radius * 2))
    blit(draw, (centre[0] - diameter / 2, centre[1] - diameter / 2), _disc_mask(diameter), colour)


def draw_ring(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, width: int, colour: Colour
) -> None:
    """A circle outline whose outer edge has ``radius``."""
    diameter = max(1, round(radius * 2))
    mask = _ring_mask(diameter, width)
    blit(draw, (centre[0] - diameter / 2, centre[1] - diameter / 2), mask, colour)


def draw_disc(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    fill: Colour,
    *,
    edge: Colour | None = None,
    edge_width: int = 3,
    label: str | None = None,
    label_colour: Colour = TEXT_DARK,
    label_size: int | None = None,
    shadow: bool = False,
) -> None:
    """A disc (a piece, a counter) with an optional outline, a bold centred label and a
    soft drop shadow that lifts it off the board."""
    if shadow:
        drop_shadow(draw, centre, radius)
    if edge is not None:
        fill_disc(draw, centre, radius, edge)
        fill_disc(draw, centre, radius - edge_width, fill)
    else:
        fill_disc(draw, centre, radius, fill)
    if label:
        size = label_size or max(8, round(radius * 1.05))
        draw_text_centred(draw, centre, label, font(size, "Bold"), label_colour)


SHADOW: Colour = (0, 0, 0)
SHADOW_OPACITY = 0.35


@lru_cache(maxsize=64)
def _shadow_mask(diameter: int, blur: int) -> Image.Image:
    disc = Image.new("L", (diameter + 4 * blur, diameter + 4 * blur), 0)
    disc.paste(_disc_mask(diameter), (2 * blur, 2 * blur))
    blurred = disc.filter(ImageFilter.GaussianBlur(blur))
    return blurred.point(lambda value: round(value * SHADOW_OPACITY))


def drop_shadow(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """A soft shadow below and right of a disc of ``radius`` centred on ``centre``."""
    diameter = max(1, round(radius * 2))
    blur = max(1, round(radius / 10))
    mask = _shadow_mask(diameter, blur)
    offset = max(1, radius / 14)
    top_left = (centre[0] + offset - mask.width / 2, centre[1] + offset * 1.5 - mask.height / 2)
    blit(draw, top_left, mask, SHADOW)


def draw_line(
    draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour, width: int = 4
) -> None:
    """A smooth straight line with round caps."""
    _draw_segment(draw, start, end, colour, width, head=0)


def draw_arrow(
    draw: ImageDraw.ImageDraw,
    start: Point,
    end: Point,
    colour: Colour,
    width: int = 6,
    head: int | None = None,
) -> None:
    """A smooth arrow from ``start`` whose tip touches ``end``."""
    _draw_segment(draw, start, end, colour, width, head=head or width * 3)


def _draw_segment(
    draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour, width: int, head: int
) -> None:
    dx, dy = round(end[0] - start[0]), round(end[1] - start[1])
    mask, offset_x, offset_y = _segment_mask(dx, dy, width, head)
    blit(draw, (start[0] - offset_x, start[1] - offset_y), mask, colour)


def draw_cross(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour, width: int = 6
) -> None:
    """An X whose arms span ``size`` pixels: "captured", "removed", "not allowed"."""
    half = size / 2
    x, y = centre
    draw_line(draw, (x - half, y - half), (x + half, y + half), colour, width)
    draw_line(draw, (x - half, y + half), (x + half, y - half), colour, width)


def draw_turn_marker(draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour) -> None:
    """A right-pointing triangle ("▶", which Noto Sans lacks) marking whose turn it is."""
    x, y = centre
    half = size / 2
    points = ((x - half * 0.7, y - half), (x + half, y), (x - half * 0.7, y + half))
    fill_polygon(draw, points, colour)


def fill_polygon(draw: ImageDraw.ImageDraw, points: Sequence[Point], colour: Colour) -> None:
    """A smooth filled polygon (icons, arrow heads, markers)."""
    left = math.floor(min(px for px, _ in points)) - 1
    top = math.floor(min(py for _, py in points)) - 1
    width = math.ceil(max(px for px, _ in points)) - left + 2
    height = math.ceil(max(py for _, py in points)) - top + 2
    relative = tuple((round(px - left, 2), round(py - top, 2)) for px, py in points)
    blit(draw, (left, top), _cached_polygon_mask(relative, width, height), colour)


@lru_cache(maxsize=256)
def _cached_polygon_mask(
    points: tuple[tuple[float, float], ...], width: int, height: int
) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.polygon([(px * scale, py * scale) for px, py in points], fill=255)

    return supersampled_mask(width, height, paint)
