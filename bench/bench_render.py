"""Board render + PNG encode timings (the budget: ≤ 15 ms median per board).

Run with ``python -m bench.bench_render [repeats]``. Each entry of ``RENDERS`` is a name
and a callable returning PNG bytes; add the other games' renderers there as they land.
The "encode only" rows time ``encode_png`` on an already drawn board, so the drawing
cost is the difference; the last rows compare ``encode_png`` with the encoder settings it
was chosen against.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from typing import Any

from PIL import Image

from bench.common import baseline_ms, report, time_ms
from render.bann import render_bann
from render.toolkit.png import encode_png

NAMES = ["Jürgen Größe", "Bob"]

BANN_MID_GAME: dict[str, Any] = {
    "game": "bann",
    "knights": [
        {"seat": seat, "number": number, "square": square}
        for seat, placed in (
            (0, {"a1": 1, "c2": 2, "c4": 3, "c1": 4, "b3": 6}),
            (1, {"f6": 1, "e6": 2, "d5": 4, "d3": 5, "e4": 6}),
        )
        for square, number in placed.items()
    ],
    "dice": [4, 2],
    "banned": [2, 4],
    "turn": 1,
    "castles": ["a1", "f6"],
    "last_move": {
        "seat": 0,
        "action": "4>3:N",
        "knight": 3,
        "from": "c3",
        "to": "c4",
        "captured": ["b4", "d4"],
    },
    "captured_count": [1, 2],
    "opening_roll": None,
    "draw_offer": 0,
    "over": False,
    "winner": None,
    "result": None,
}


def _decoded(render: Callable[[], bytes]) -> Image.Image:
    return Image.open(io.BytesIO(render())).convert("RGB")


def _encode_only(render: Callable[[], bytes]) -> Callable[[], bytes]:
    board = _decoded(render)
    return lambda: encode_png(board)


def _png(image: Image.Image, **options: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


# The alternatives encode_png was chosen against, kept so the choice can be re-checked on
# another machine: full colour at two zlib levels, and one-pass octree quantizing.
ENCODER_ALTERNATIVES: list[tuple[str, Callable[[Image.Image], bytes]]] = [
    ("rgb zlib 1", lambda image: _png(image, compress_level=1)),
    ("rgb zlib 6", lambda image: _png(image, compress_level=6)),
    (
        "octree full image, zlib 1",
        lambda image: _png(image.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=1),
    ),
    ("encode_png (chosen)", encode_png),
]


def _bann() -> bytes:
    return render_bann(BANN_MID_GAME, NAMES)


RENDERS: list[tuple[str, Callable[[], bytes]]] = [
    ("bann render+encode (mid-game)", _bann),
    ("bann encode only", _encode_only(_bann)),
]


def main(repeats: int = 200) -> None:
    baseline = baseline_ms()
    for name, render in RENDERS:
        png = render()  # warms the font, mask and static-board caches
        samples = [time_ms(render) for _ in range(repeats)]
        print(report(name, samples, baseline))
        print(f"  png size={len(png)} bytes")
    board = _decoded(_bann)
    for name, encode in ENCODER_ALTERNATIVES:
        samples = [time_ms(lambda encode=encode: encode(board)) for _ in range(repeats // 2)]
        print(report(f"bann board, {name}", samples, baseline))
        print(f"  png size={len(encode(board))} bytes")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
