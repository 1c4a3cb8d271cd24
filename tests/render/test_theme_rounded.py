"""Rounded panels are drawn as plain fills plus smooth corners; the pixels must be the
ones a smooth mask over the whole panel gives (boards and replay frames draw dozens)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from render.toolkit import shapes

COLOUR = (200, 30, 90)


def whole_mask(draw: ImageDraw.ImageDraw, box, radius: int) -> None:
    left, top, right, bottom = (round(value) for value in box)
    if right <= left or bottom <= top:
        return  # a box that rounds to no pixel covers none
    mask = shapes._rounded_mask(right - left, bottom - top, radius)
    draw.bitmap((left, top), mask, fill=COLOUR)


@given(
    st.integers(1, 260),
    st.integers(1, 160),
    st.sampled_from([0, 1, 2, 3, 5, 6, 8, 12, 14, 20, 40, 90]),
    st.floats(0, 20),
    st.floats(0, 20),
)
@settings(max_examples=150, deadline=None)
def test_a_rounded_fill_has_the_pixels_of_its_smooth_mask(width, height, radius, x, y):
    background = Image.effect_noise((300, 200), 60).convert("RGB")
    expected, drawn = background.copy(), background.copy()
    box = (x, y, x + width, y + height)
    whole_mask(ImageDraw.Draw(expected), box, radius)
    shapes.fill_rounded(ImageDraw.Draw(drawn), box, radius, COLOUR)
    assert drawn.tobytes() == expected.tobytes()
