"""Nim's board picture: the heap as a row of stones, and the sentence under it."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.nim import NimView
from render.toolkit.text import font
from texts import nim as nim_text
from texts.i18n import ENGLISH

STONE = 36
WIDTH = 640
HEIGHT = 200


def draw_nim(
    view: NimView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> Image.Image:
    """The picture of ``render_nim`` before encoding (a replay's frame)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (40, 44, 52))
    draw = ImageDraw.Draw(image)
    for index in range(view["stones"]):
        left = 20 + (index % 15) * (STONE + 4)
        top = 20 + (index // 15) * (STONE + 4)
        draw.ellipse((left, top, left + STONE, top + STONE), fill=(150, 150, 160))
    sentence = headline or (
        nim_text.result(view, names, language)
        if view["winner"] is not None
        else nim_text.status(view, names, language)
    )
    draw.text((20, HEIGHT - 50), sentence, font=font(24), fill=(240, 240, 240))
    return image


def render_nim(
    view: NimView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> bytes:
    """Nim's board as PNG."""
    buffer = io.BytesIO()
    draw_nim(view, names, headline, language).save(buffer, format="PNG")
    return buffer.getvalue()


REPLAY_PICTURE = draw_nim
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
