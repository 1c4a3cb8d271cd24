"""Anti-aliasing: shapes and glyphs are painted as supersampled greyscale coverage masks,
then blended onto the picture in one flat colour."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from render.theme import Colour
from render.toolkit.geometry import Point

SUPERSAMPLE = 4


def supersampled_mask(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None]
) -> Image.Image:
    """A greyscale coverage mask: ``paint`` draws at ``SUPERSAMPLE``× with scale given."""
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.reduce(SUPERSAMPLE)


def blit(draw: ImageDraw.ImageDraw, top_left: Point, mask: Image.Image, colour: Colour) -> None:
    """Paint ``colour`` through ``mask`` with its top-left corner at ``top_left``."""
    draw.bitmap((round(top_left[0]), round(top_left[1])), mask, fill=colour)
