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
    POINT_WIDTH,
    WIDTH,
    checker_centre,
    footer_lines,
    grace_lines,
    number_colour,
    number_rows,
    point_column,
    render_gulbara,
)
from render.theme import SEAT_COLOURS
from render.toolkit.text import has_glyph
from texts.gulbara import board_point, chain_text, result

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


def test_each_seats_points_are_numbered_from_its_side() -> None:
    assert board_point(24, 1, 0) == 12 and board_point(13, 1, 0) == 1
    assert board_point(12, 1, 0) == 24 and board_point(7, 0, 0) == 7


def number_inked(image: Image.Image, point: int, y: float, colour: tuple[int, int, int]) -> bool:
    """Whether the number above or below ``point``'s column at height ``y`` is drawn in
    ``colour``."""
    left, _top = point_column(point)
    box = (round(left + 8), round(y - 9), round(left + POINT_WIDTH - 8), round(y + 9))
    colours = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return any(close(pixel, colour, 24) for _count, pixel in colours)


def test_every_point_carries_both_players_numbers_each_in_his_colour() -> None:
    for viewer in (0, 1):
        image = decode(render_gulbara(start_view(), NAMES, viewer=viewer))
        rows = number_rows(viewer)
        assert [seat for seat, _above, _below in rows] == [viewer, 1 - viewer], "yours inside"
        for seat, above, below in rows:
            for point in (13, 24):
                assert number_inked(image, point, above, number_colour(seat))
            for point in (1, 12):
                assert number_inked(image, point, below, number_colour(seat))
            other = number_colour(1 - seat)
            assert not number_inked(image, 13, above, other), "one colour per row"


def test_each_seats_steps_are_written_in_his_numbering_the_others_marked() -> None:
    state = from_code("GB1:,,,,,,,,,,,-15,,,,,,,,,,,,15|0,0|0|6,5|5,5")
    state = state.apply("24/18").apply("18/13")  # seat 0's turn ends: seat 1 moves next
    bob = state.current_player
    assert bob == 1
    step = state.legal_steps()[0]
    assert step.startswith("24/"), "Bob starts on his own 24"
    after = state.apply(step)
    seen_by_alice = [text for text, _colour in footer_lines(after.view(None), NAMES, viewer=0)]
    assert seen_by_alice == [
        "Last turn: Alice rolled 6-5: 24/18 18/13",
        f"This turn: {step} (his numbering)",
    ]
    seen_by_bob = [text for text, _colour in footer_lines(after.view(None), NAMES, viewer=1)]
    assert seen_by_bob == [
        "Last turn: Alice rolled 6-5: 24/18 18/13 (his numbering)",
        f"This turn: {step}",
    ]
    german = [text for text, _colour in footer_lines(after.view(None), NAMES, 0, "de")]
    assert german[-1] == f"Dieser Zug: {step} (seine Zählung)"


def test_an_escalated_turn_names_the_double_it_reached_in_drawable_characters() -> None:
    state = from_code("GB1:,,,,,,,,,,,-14,,-1,,,,,,,,,,15|0,0|0|1,1,1,1|5,5")
    while state.current_player == 0:
        state = state.apply(state.legal_actions()[0])
    [turn] = state.view(None)["recent_turns"]
    *_climbed, last = turn["stages"]
    assert last > 1, "the 1-1 escalated"
    for language, words in (
        ("en", f"rolled 1-1, escalated to {last}-{last}: "),
        ("de", f"würfelte 1-1, eskaliert bis {last}-{last}: "),
    ):
        [(line, _colour)] = footer_lines(state.view(None), NAMES, 0, language)
        assert words in line
        assert all(has_glyph(char) for char in line if not char.isspace()), line


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


def test_the_middle_band_tells_the_mover_when_his_doubles_start_to_escalate() -> None:
    first_roll = start_view(turn=0, grace_left=[3, 2])
    assert grace_lines(first_roll, NAMES) == [
        "Doubles escalate from roll 4",
        "Alice: 3 rolls to go",
    ]
    assert grace_lines(first_roll, NAMES, "de") == [
        "Pasche eskalieren ab Wurf 4",
        "Alice: noch 3 Würfe",
    ]
    assert grace_lines(start_view(turn=1, grace_left=[2, 2]), NAMES)[1] == "Bob: 2 rolls to go"
    third_roll = start_view(turn=0, grace_left=[1, 0])
    long_names = ["Maximilian Großkopf", "Bob the builder"]
    assert grace_lines(third_roll, long_names)[1] == "Maximilian: 1 roll to go"
    assert grace_lines(start_view(turn=0, grace_left=[0, 2]), NAMES) == ["Doubles escalate now"]


def test_the_grace_count_is_the_rolls_from_this_one_to_the_first_that_escalates() -> None:
    """Alice's fourth roll is the first whose double escalates: on her first she has
    three to go, on her third one."""
    state = new_game(seed=7)
    mover = state.current_player
    counts = []
    while len(counts) < 4:
        view = state.view(None)
        if view["turn"] == mover and not view["played"]:
            counts.append(view["grace_left"][mover])
            assert view["rolls"][mover] + view["grace_left"][mover] == 4 or not counts[-1]
        state = state.apply(state.legal_actions()[0])
    assert counts == [3, 2, 1, 0]


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
