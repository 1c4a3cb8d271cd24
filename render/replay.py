"""Animated replays: a finished game's public positions as an animated GIF or WebP.

Frames are drawn by each game's own board renderer (``render.<key>.REPLAY_PICTURE``,
found by the game's key) with the move as the headline and
mapped onto one shared 255-colour palette as soon as each is drawn (a full-colour frame
takes four times the memory, and a long match has thousands of positions). A game with
more than ``MAX_FRAMES`` positions shows that many, evenly spread, first and last
included. The same paletted frames are encoded both as GIF and as lossless animated WebP
(identical pixels, so the same quality) and the smaller file wins. When it is over the
upload limit, every other move is dropped (the last position always stays), then the
frames shrink, until it fits.
"""

from __future__ import annotations

import importlib
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image

from render.toolkit.text import clean_name
from texts.i18n import ENGLISH

FRAME_MILLISECONDS = 900
# Three minutes of animation; more would take minutes to draw and gigabytes to hold.
MAX_FRAMES = 200
LAST_FRAME_MILLISECONDS = 4000
SMALLEST_WIDTH = 240
SHRINK = 0.75
MAX_STRIDE = 8
PALETTE_SAMPLES = 6
FORMAT_SAMPLE = 4
PALETTE_COLOURS = 255
T = TypeVar("T")


Drawer = Callable[[Any, Sequence[str], str, str], Image.Image]
"""A game's picture for a replay: its public view, the names, the caption, the language."""


def replay_picture(kind: str) -> Drawer:
    """How game ``kind`` draws a replay frame: ``REPLAY_PICTURE`` of ``render.<kind>``."""
    drawer: Drawer = importlib.import_module(f"{__package__}.{kind}").REPLAY_PICTURE
    return drawer


def seat_picture(kind: str) -> Drawer:
    """How game ``kind``, one with hidden information, draws what one seat saw (its own
    view, shown to one member only): ``SEAT_PICTURE`` of ``render.<kind>``."""
    drawer: Drawer = importlib.import_module(f"{__package__}.{kind}").SEAT_PICTURE
    return drawer


@dataclass(frozen=True)
class Replay:
    data: bytes
    extension: str
    frames: int
    moves: int
    width: int
    # True when positions were dropped or the frames shrunk to fit the upload limit.
    fitted: bool = False


class ReplayTooLarge(ValueError):
    """Not even the smallest, sparsest replay fits under the upload limit."""


def render_replay(
    kind: str,
    frames: Sequence[tuple[Mapping[str, Any], str]],
    names: Sequence[str],
    limit: int,
    language: str = ENGLISH,
) -> Replay:
    """The smallest animation of ``frames`` (view, caption) that fits in ``limit`` bytes,
    the pictures' words in ``language``."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    shown = _spread(frames, MAX_FRAMES)
    drawer = replay_picture(kind)

    def draw(index: int) -> Image.Image:
        view, caption = shown[index]
        # Captions name the players: emoji and scripts the font lacks would be boxes.
        return _rgb(drawer(view, names, clean_name(caption), language))

    samples = {index: draw(index) for index in _sample_indices(len(shown))}
    palette = _palette(list(samples.values()))
    drawn = [
        _mapped(samples.pop(index) if index in samples else draw(index), palette)
        for index in range(len(shown))
    ]
    full_width = width = drawn[0].width
    stride = 1
    while True:
        chosen = _every(drawn, stride)
        if width != full_width:
            chosen = _shrunk(chosen, width)
        data, extension = _smallest_encoding(chosen)
        if len(data) <= limit:
            fitted = stride > 1 or width != full_width
            return Replay(data, extension, len(chosen), len(frames), width, fitted)
        # Each retry aims at the limit from how far over it this attempt was.
        over = len(data) / limit
        if len(chosen) > 2 and stride < MAX_STRIDE:
            stride = min(MAX_STRIDE, stride * (2 if over < 2 else 4))
        elif width > SMALLEST_WIDTH:
            width = max(SMALLEST_WIDTH, int(width * min(SHRINK, 0.95 / math.sqrt(over))))
        else:
            raise ReplayTooLarge(f"the smallest replay is {len(data)} bytes, over {limit}")


def _spread(frames: Sequence[T], most: int) -> list[T]:
    """At most ``most`` of ``frames``, evenly spread, the first and the last included."""
    if len(frames) <= most:
        return list(frames)
    last = len(frames) - 1
    return [frames[round(index * last / (most - 1))] for index in range(most)]


def _sample_indices(count: int) -> list[int]:
    return list(range(0, count, max(1, count // PALETTE_SAMPLES)))


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")


def _every(frames: Sequence[Image.Image], stride: int) -> list[Image.Image]:
    """Every ``stride``-th frame, always with the last (the final position)."""
    chosen = list(frames[::stride])
    if chosen[-1] is not frames[-1]:
        chosen.append(frames[-1])
    return chosen


def _palette(samples: Sequence[Image.Image]) -> Image.Image:
    """One palette learned from a few frames, shared by all so no frame flickers.

    It has 255 colours, so a GIF has an index free to mean "unchanged"."""
    width, height = samples[0].size
    strip = Image.new("RGB", (width, height * len(samples)))
    for index, sample in enumerate(samples):
        strip.paste(sample, (0, index * height))
    return strip.reduce(2).quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)


def _mapped(frame: Image.Image, palette: Image.Image) -> Image.Image:
    return frame.quantize(palette=palette, dither=Image.Dither.NONE)


def _shrunk(frames: Sequence[Image.Image], width: int) -> list[Image.Image]:
    """The paletted frames at ``width``, on a palette learned again at that size (the
    smoothing of a smaller picture makes colours the full-size palette lacks)."""
    size = (width, round(frames[0].height * width / frames[0].width))
    smaller = [frame.convert("RGB").resize(size, Image.Resampling.BOX) for frame in frames]
    palette = _palette([smaller[index] for index in _sample_indices(len(smaller))])
    return [_mapped(frame, palette) for frame in smaller]


def _durations(count: int) -> list[int]:
    return [FRAME_MILLISECONDS] * (count - 1) + [LAST_FRAME_MILLISECONDS]


def _smallest_encoding(frames: Sequence[Image.Image]) -> tuple[bytes, str]:
    """GIF or lossless WebP of the same paletted frames, whichever is smaller.

    Lossless WebP is several times slower to encode, so both are tried on a sample of
    frames first and only the format that won there encodes the whole replay."""
    sample = (
        frames if len(frames) <= FORMAT_SAMPLE else _every(frames, len(frames) // FORMAT_SAMPLE)
    )
    if len(sample) < len(frames) and len(_webp(sample)) >= len(_gif(sample)):
        return _gif(frames), "gif"
    gif, webp = _gif(frames), _webp(frames)
    return (gif, "gif") if len(gif) <= len(webp) else (webp, "webp")


def _gif(frames: Sequence[Image.Image]) -> bytes:
    """An animated GIF; Pillow's optimizer marks the pixels unchanged since the previous
    frame with the palette's free index as transparent, and LZW packs those runs."""
    return _encode(frames, "GIF", optimize=True)


def _webp(frames: Sequence[Image.Image]) -> bytes:
    rgb = [frame.convert("RGB") for frame in frames]
    return _encode(rgb, "WEBP", lossless=True, method=0, quality=0)


def _encode(frames: Sequence[Image.Image], format_name: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format=format_name,
        save_all=True,
        append_images=list(frames[1:]),
        duration=_durations(len(frames)),
        loop=0,
        **options,
    )
    return buffer.getvalue()
