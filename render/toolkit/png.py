"""A canvas to draw a picture on, and the fast PNG encoder every picture is sent with."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.theme import BACKGROUND, Colour

PALETTE_COLOURS = 256
PNG_COMPRESS_LEVEL = 1
# The palette is learned from every fourth pixel of every fourth row: a picture's flat
# colours and most edge blends survive that sampling, and octree-quantizing 1/16 of the
# pixels is what makes the two-pass encode faster than quantizing the full image.
# Nearest-pixel sampling, unlike a box average, only ever sees colours the picture really
# has (bench/bench_render.py: 0.6-1.7 ms faster per board, mean error no higher).
PALETTE_SAMPLE_SHRINK = 4
SMALL_IMAGE_PIXELS = 160_000


def new_canvas(
    width: int, height: int, background: Colour = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), background)
    return image, ImageDraw.Draw(image)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, tuned for speed (the budget: render + encode ≤ 15 ms).

    Measured on the 720×860 Bann board (bench/bench_render.py): a full-colour PNG at zlib
    level 1 takes about twice as long as quantizing to a 256-colour palette first, because
    zlib and PNG's row filters dominate and a palette image has a third of the bytes. The
    palette comes from a fast-octree pass over a 1/4-scale sample and the full image is
    mapped onto it without dithering (dithering would speckle flat areas); anti-aliased
    text and edges stay clean (error ≤ ~32/255 on a few edge pixels, mean < 1). Caveat:
    a colour used only in specks under ~4 px may shift to the nearest palette colour, so
    give meaningful marks some area. Images under ``SMALL_IMAGE_PIXELS`` skip the sample.
    Higher zlib levels cost several ms for a few KB a chat upload does not need."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if rgb.width * rgb.height < SMALL_IMAGE_PIXELS:
        paletted = rgb.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    else:
        sample = rgb.resize(
            (rgb.width // PALETTE_SAMPLE_SHRINK, rgb.height // PALETTE_SAMPLE_SHRINK),
            Image.Resampling.NEAREST,
        )
        palette = sample.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
        paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
