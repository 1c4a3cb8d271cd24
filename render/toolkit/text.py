"""Fonts and text: Noto Sans, names cleaned of what it cannot draw, text fitted to a width
or wrapped onto lines, and text drawn from cached masks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from typing import Literal, NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render.theme import Colour
from render.toolkit.geometry import Point
from render.toolkit.masks import blit

Weight = Literal["Regular", "Medium", "SemiBold", "Bold"]

FONT_FILE = resources.files("fontpkg_noto_sans") / "files" / "NotoSans[wdth,wght].ttf"
ELLIPSIS = "…"
# A private-use code point: no font ships a glyph for it, so it renders as .notdef.
MISSING_GLYPH_PROBE = "\ue000"


class Label(NamedTuple):
    """A fixed word of a picture and the room it has: the label tests check that the
    longest words of every language fit."""

    text: str
    font: ImageFont.FreeTypeFont
    width: float


@lru_cache(maxsize=64)
def font(size: int, weight: Weight = "Regular") -> ImageFont.FreeTypeFont:
    """Noto Sans at ``size`` pixels; the variable font's named instance ``weight``.

    Uses Pillow's basic layout rather than Raqm: about three times faster per string and
    identical for the Latin/German text we draw (names pass through ``clean_name``)."""
    loaded = ImageFont.truetype(str(FONT_FILE), size, layout_engine=ImageFont.Layout.BASIC)
    if weight != "Regular":
        loaded.set_variation_by_name(weight)
    return loaded


def _glyph_pixels(char: str) -> bytes:
    probe = font(24)
    image = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(image).text((8, 4), char, font=probe, fill=255)
    return image.tobytes()


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether Noto Sans draws ``char`` as itself rather than the missing-glyph box."""
    return _glyph_pixels(char) != _glyph_pixels(MISSING_GLYPH_PROBE)


def clean_name(name: str, fallback: str = "?") -> str:
    """``name`` without characters Noto Sans cannot draw (emoji, symbols), whitespace
    collapsed, so a Discord display name never shows as a row of boxes."""
    kept = "".join(char if char.isprintable() and has_glyph(char) else " " for char in name)
    return " ".join(kept.split()) or fallback


@lru_cache(maxsize=1024)
def fit_text(text: str, text_font: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_width`` pixels wide (cached:
    the same names are fitted into the same strips on every board and replay frame)."""
    if text_font.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_font.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


@lru_cache(maxsize=512)
def wrap_text(
    text: str, text_font: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 2
) -> tuple[str, ...]:
    """``text`` broken at spaces into at most ``max_lines`` lines of at most ``max_width``
    pixels; what does not fit ends the last line with an ellipsis. Cached: footers repeat
    from render to render and measuring is the costly part."""
    if text_font.getlength(text) <= max_width:
        # Most lines fit whole: one measurement instead of one per word.
        return (text,)
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines - 1:
        taken = 1
        while taken < len(words) and text_font.getlength(" ".join(words[: taken + 1])) <= max_width:
            taken += 1
        lines.append(fit_text(" ".join(words[:taken]), text_font, max_width))
        words = words[taken:]
    if words:
        lines.append(fit_text(" ".join(words), text_font, max_width))
    return tuple(lines)


@lru_cache(maxsize=1024)
def _text_mask(
    text: str, text_font: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` and its top-left offset from the anchor point."""
    # whole pixels at run time; Pillow's stubs declare floats
    left, top, right, bottom = map(int, text_font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=text_font, fill=255, anchor=anchor)
    return mask, left, top


# (font size, text) of every string drawn while ``recording_text_sizes`` is active.
_text_log: list[tuple[int, str]] | None = None


@contextmanager
def recording_text_sizes() -> Iterator[list[tuple[int, str]]]:
    """Collects ``(font size, text)`` for every string drawn inside the ``with`` block,
    so a test can check that each picture's smallest text is readable on a phone.
    Renderers cache tiles and static backgrounds: clear those caches first to see all."""
    global _text_log
    log: list[tuple[int, str]] = []
    previous, _text_log = _text_log, log
    try:
        yield log
    finally:
        _text_log = previous


def _record(text: str, text_font: ImageFont.FreeTypeFont) -> None:
    if _text_log is not None:
        _text_log.append((int(text_font.size), text))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    text_font: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
) -> None:
    """Like ``draw.text`` (same anchors) but rasterized once per (text, font, anchor) and
    cached: Pillow has no glyph cache, and names, labels and numbers repeat every render."""
    _record(text, text_font)
    mask, left, top = _text_mask(text, text_font, anchor)
    blit(draw, (xy[0] + left, xy[1] + top), mask, fill)


def draw_text_centred(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    text: str,
    text_font: ImageFont.FreeTypeFont,
    fill: Colour,
) -> None:
    """``text`` centred on ``centre``, using the glyphs' ink box so digits sit truly in
    the middle of discs and dice (Pillow's "mm" anchor centres the line box instead)."""
    _record(text, text_font)
    mask, _, _ = _text_mask(text, text_font, "la")
    blit(draw, (centre[0] - mask.width / 2, centre[1] - mask.height / 2), mask, fill)
