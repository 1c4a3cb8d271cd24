"""Nim's board picture: the heap as a row of stones, and the sentence under it."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from nim import text
from nim.game import NimView
from render.toolkit.text import font

STONE = 36
WIDTH = 640
HEIGHT = 200


def render_nim(
    view: NimView, names: Sequence[str], headline: str | None = None, language: str = "en"
) -> bytes:
    """Nim's board; the example game speaks English only, whatever ``language`` says."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (40, 44, 52))
    draw = ImageDraw.Draw(image)
    for index in range(view["stones"]):
        left = 20 + (index % 15) * (STONE + 4)
        top = 20 + (index // 15) * (STONE + 4)
        draw.ellipse((left, top, left + STONE, top + STONE), fill=(150, 150, 160))
    sentence = headline or (
        text.result(view, names) if view["winner"] is not None else text.status(view, names)
    )
    draw.text((20, HEIGHT - 50), sentence, font=font(24), fill=(240, 240, 240))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
