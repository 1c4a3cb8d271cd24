"""The Gul Bara board renderer: checkers where the view puts them, seen from either seat,
with the dice, the escalation chain, the steps of this turn and the result."""

from __future__ import annotations

import io
import random
from typing import Any

from PIL import Image

from games.gulbara import from_code, new_game
from render.gulbara import (
    HEIGHT,
    WIDTH,
    checker_centre,
    footer_lines,
    grace_lines,
    render_gulbara,
)
from render.theme import SEAT_COLOURS
from texts.gulbara import board_point, board_step, board_steps, chain_text, result

NAMES = ["Alice", "Bob"]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def close(colour: tuple[int, ...], expected: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def start_view(**changes: Any) -> dict[str, Any]:
    view = new_game(seed=7).view(None)
    view.update(changes)
    return view


def test_renders_a_png_of_the_documented_size() -> None:
    image = decode(render_gulbara(start_view(), NAMES))
    assert image.size == (WIDTH, HEIGHT)


def test_checkers_sit_on_their_points_from_the_viewers_side() -> None:
    view = start_view()
    from_seat_0 = decode(render_gulbara(view, NAMES, viewer=0))
    # seat 0's 15 checkers are on its 24 (top right); seat 1's on seat 0's 12 (bottom left)
    assert close(from_seat_0.getpixel(checker_centre(24, 1)), SEAT_COLOURS[0].fill)
    assert close(from_seat_0.getpixel(checker_centre(12, 1)), SEAT_COLOURS[1].fill)
    from_seat_1 = decode(render_gulbara(view, NAMES, viewer=1))
    assert close(from_seat_1.getpixel(checker_centre(24, 1)), SEAT_COLOURS[1].fill)
    assert close(from_seat_1.getpixel(checker_centre(12, 1)), SEAT_COLOURS[0].fill)
    assert not close(from_seat_1.getpixel(checker_centre(1, 1)), SEAT_COLOURS[0].fill)


def test_the_board_does_not_turn_when_the_turn_passes() -> None:
    view = start_view()
    for turn in (0, 1):
        image = decode(render_gulbara({**view, "turn": turn}, NAMES))
        # seat 0's checkers stay on its 24 (top right) whoever is to move
        assert close(image.getpixel(checker_centre(24, 1)), SEAT_COLOURS[0].fill)
    assert render_gulbara(view, NAMES) == render_gulbara(view, NAMES, viewer=0)


def test_steps_are_converted_to_the_numbering_the_board_shows() -> None:
    assert board_point(24, 1, 0) == 12 and board_point(13, 1, 0) == 1
    assert board_point(12, 1, 0) == 24 and board_point(7, 0, 0) == 7
    assert board_step("14/10", 1, 0) == "2/22"
    assert board_step("3/off", 1, 0) == "15/off"
    assert board_step("24/18", 0, 1) == "12/6"
    assert board_step("24/18", 1, 1) == "24/18"
    assert board_steps(["24/18", "18/13"], 1, 0) == "12/6 6/1"


def test_the_footer_writes_both_seats_steps_in_the_boards_numbering() -> None:
    state = from_code("GB1:,,,,,,,,,,,-15,,,,,,,,,,,,15|0,0|0|6,5|5,5")
    state = state.apply("24/18").apply("18/13")  # seat 0's turn ends: seat 1 moves next
    bob = state.current_player
    assert bob == 1
    step = state.legal_steps()[0]
    after = state.apply(step)
    lines = [text for text, _colour in footer_lines(after.view(None), NAMES, viewer=0)]
    assert lines[0] == "Last turn: Alice rolled 6-5: 24/18 18/13"
    assert lines[-1] == "This turn: " + board_step(step, 1, 0)
    seen_by_bob = [text for text, _colour in footer_lines(after.view(None), NAMES, viewer=1)]
    assert seen_by_bob[-1] == f"This turn: {step}"


def test_steps_of_this_turn_change_the_picture() -> None:
    state = from_code("GB1:,,,,,,,,,,,-15,,,,,,,,,,,,15|0,0|0|6,5|5,5")
    before = render_gulbara(state.view(None), NAMES)
    after = state.apply("24/18")
    assert after.view(None)["played"] == ["24/18"]
    assert render_gulbara(after.view(None), NAMES) != before


def test_chain_text_lists_the_current_double_and_those_to_come() -> None:
    state = from_code("GB1:,,,,,,,,,,,-14,,-1,,,,,,,,,,15|0,0|0|4,4,4,4|5,5")
    assert chain_text(state.view(None)) == "4-4 → 5-5 → 6-6"
    assert chain_text(start_view()) is None
    decode(render_gulbara(state.view(None), NAMES))


def test_grace_lines_name_who_still_has_exempt_rolls() -> None:
    assert grace_lines(start_view(grace_left=[2, 3]), NAMES) == [
        "No escalation yet:",
        "Alice 2 · Bob 3 rolls",
    ]
    assert grace_lines(start_view(grace_left=[3, 3]), NAMES) == [
        "No escalation yet:",
        "3 rolls each",
    ]
    long_names = ["Maximilian Großkopf", "Bob the builder"]
    assert grace_lines(start_view(grace_left=[0, 2]), long_names)[1] == "Bob 2 rolls"
    assert grace_lines(start_view(grace_left=[1, 0]), long_names)[1] == "Maximilian 1 roll"
    assert grace_lines(start_view(grace_left=[0, 1]), NAMES) == ["No escalation yet:", "Bob 1 roll"]
    assert grace_lines(start_view(grace_left=[0, 0]), NAMES) == ["Doubles escalate"]


def test_result_text_tells_a_two_point_win() -> None:
    state = from_code("GB1:1,,,,,,,,,,,,-15,,,,,,,,,,,|14,0|0|6,5|5,5").apply("1/off")
    view = state.view(None)
    assert result("en", view, NAMES) == "Alice wins 2 points: Bob bore off no checker."
    decode(render_gulbara(view, NAMES))


def test_footer_tells_a_turn_without_legal_steps() -> None:
    state = from_code("GB1:,,,,,,,,,,,-13,,,,,,-1,-1,,,,,15|0,0|0|6,5|5,5")
    lines = [text for text, _colour in footer_lines(state.view(None), NAMES)]
    assert lines[-1] == "Last turn: Alice rolled 6-5 and could not move"


def test_long_and_emoji_names_render() -> None:
    names = ["🎲" * 3 + "Jürgen Größe-Übermuth von und zu Sehr-Langem-Namen", "👾"]
    decode(render_gulbara(start_view(), names, headline="Jürgen resigned — 👾 wins"))


def test_every_position_of_a_random_match_renders() -> None:
    chooser = random.Random(4)
    state = new_game(seed=4, match_to=2)
    seen = 0
    while not state.is_over:
        if seen % 25 == 0:
            decode(render_gulbara(state.view(None), NAMES))
        state = state.apply(chooser.choice(state.legal_steps()))
        seen += 1
    decode(render_gulbara(state.view(None), NAMES))
