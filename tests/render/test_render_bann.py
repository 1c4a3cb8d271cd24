"""The Bann board renderer and the shared theme it is built on.

Views are written by hand in the schema games/bann/state.py produces, so these tests pin the
renderer to the contract rather than to the engine.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import theme
from render.bann import (
    HEIGHT,
    KNIGHT_RADIUS,
    STATUS_BOX,
    STRIP_TOP,
    WIDTH,
    banned_for_mover,
    draw_bann,
    render_bann,
    square_box,
    square_centre,
)
from render.toolkit.cards import draw_card, draw_card_back, draw_suit
from render.toolkit.dice import draw_die
from render.toolkit.geometry import Box
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.text import (
    ELLIPSIS,
    MISSING_GLYPH_PROBE,
    Weight,
    clean_name,
    fit_text,
    font,
    has_glyph,
    recording_text_sizes,
    wrap_text,
)
from texts import bann as bann_text

START_KNIGHTS = {
    0: {"a1": 1, "b1": 2, "a2": 3, "c1": 4, "b2": 5, "a3": 6},
    1: {"f6": 1, "e6": 2, "f5": 3, "d6": 4, "e5": 5, "f4": 6},
}
NAMES = ["Alice", "Bob"]


def start_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "bann",
        "knights": [
            {"seat": seat, "number": number, "square": square}
            for seat, placed in START_KNIGHTS.items()
            for square, number in placed.items()
        ],
        "dice": [1, 1],
        "banned": [1],
        "turn": 0,
        "castles": ["a1", "f6"],
        "last_move": None,
        "captured_count": [0, 0],
        "opening_roll": [5, 3],
        "draw_offer": None,
        "over": False,
        "winner": None,
        "result": None,
    }
    view.update(changes)
    return view


def mid_game_view(**changes: Any) -> dict[str, Any]:
    """Seat 0 moved knight 3 from c3 to c4 and captured on b4 and d4."""
    placed = {
        0: {"a1": 1, "c2": 2, "c4": 3, "c1": 4, "b3": 6},
        1: {"f6": 1, "e6": 2, "d5": 4, "d3": 5, "e4": 6},
    }
    view = start_view(
        knights=[
            {"seat": seat, "number": number, "square": square}
            for seat, squares in placed.items()
            for square, number in squares.items()
        ],
        dice=[4, 2],
        banned=[2, 4],
        turn=1,
        last_move={
            "seat": 0,
            "action": "4>3:N",
            "knight": 3,
            "from": "c3",
            "to": "c4",
            "captured": ["b4", "d4"],
        },
        captured_count=[1, 2],
        opening_roll=None,
    )
    view.update(changes)
    return view


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def render(
    view: dict[str, Any], names: list[str] = NAMES, headline: str | None = None
) -> Image.Image:
    return decode(render_bann(view, names, headline))


def is_red(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel
    return red > 170 and green < 90 and blue < 90


def near(pixel: tuple[int, int, int], colour: theme.Colour, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def region_differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


# --- the board ----------------------------------------------------------------------


def test_png_decodes_with_the_promised_size():
    image = render(start_view())
    assert image.size == (WIDTH, HEIGHT)
    assert WIDTH >= 600 and HEIGHT >= 600


def ringed(image: Image.Image, square: str) -> bool:
    x, y = square_centre(square)
    return is_red(image.getpixel((round(x + KNIGHT_RADIUS + 3), round(y))))


def test_the_movers_knight_under_the_opponents_top_is_banned_not_the_one_under_his_own():
    # Alice (seat 0) to move; her die shows 2, Bob's shows 3: her knight 3 (a2) may not
    # move whatever she tips, her knight 2 (b1) is free because she tips her die away.
    image = render(start_view(dice=[2, 3], banned=[2, 3], turn=0))
    assert ringed(image, "a2")
    assert not ringed(image, "b1")
    # Bob's knights are not his to move this turn: no marks on them
    assert not ringed(image, "f5") and not ringed(image, "e6")
    bobs_turn = render(start_view(dice=[2, 3], banned=[2, 3], turn=1))
    assert ringed(bobs_turn, "e6")  # Bob's knight 2, under Alice's top
    assert not ringed(bobs_turn, "f5") and not ringed(bobs_turn, "a2")


def test_the_status_line_names_the_banned_knight_and_the_tip_to_come():
    assert banned_for_mover(start_view(dice=[2, 3], turn=0)) == 3
    assert banned_for_mover(start_view(dice=[2, 3], turn=1)) == 2
    assert banned_for_mover(start_view(turn=None, over=True, winner=0, result="castle")) is None


def drawn_texts(view: dict[str, Any], language: str = "en") -> list[str]:
    with recording_text_sizes() as drawn:
        decode(render_bann(view, NAMES, None, language))
    return [text for _, text in drawn]


def test_the_status_panel_says_in_words_what_is_banned_and_what_the_tip_does():
    """The issue's "banned ① + tip" was cryptic: the board now says it in a sentence."""
    line = "Banned now: knight 3 · your tip bans one more"
    assert line in drawn_texts(start_view(dice=[2, 3], turn=0))
    assert "Banned now: knight 2 · your tip bans one more" in drawn_texts(
        start_view(dice=[2, 3], turn=1)
    )
    german = drawn_texts(start_view(dice=[2, 3], turn=0), "de")
    assert "Jetzt gebannt: Springer 3 · dein Kippen bannt noch einen" in german
    without_three = start_view(dice=[2, 3], turn=0)
    without_three["knights"] = [
        knight
        for knight in without_three["knights"]
        if (knight["seat"], knight["number"]) != (0, 3)
    ]
    assert "No knight banned now · your tip bans one" in drawn_texts(without_three)
    over = start_view(dice=[2, 3], turn=None, over=True, winner=0, result="castle")
    assert not any(text.startswith(("Banned", "No knight")) for text in drawn_texts(over))


def test_a_knight_is_not_shown_banned_once_the_game_is_over():
    banned = {"dice": [1, 3], "banned": [1, 3]}
    running = render(start_view(**banned))
    over = render(start_view(**banned, turn=None, over=True, winner=0, result="castle"))
    x, y = square_centre("a2")  # knight 3 of seat 0
    on_ring = (round(x + KNIGHT_RADIUS + 3), round(y))
    assert is_red(running.getpixel(on_ring))
    assert not is_red(over.getpixel(on_ring))


def test_last_move_squares_are_highlighted_and_captures_crossed():
    with_move = render(mid_game_view())
    without = render(mid_game_view(last_move=None))
    for square in ("c3", "c4"):
        left, top, _, _ = square_box(square)
        corner = (left + 6, top + 6)
        assert with_move.getpixel(corner) != without.getpixel(corner), square
        assert near(with_move.getpixel(corner), theme.HIGHLIGHT, tolerance=90), square
    for square in ("b4", "d4"):
        centre = tuple(round(value) for value in square_centre(square))
        assert is_red(with_move.getpixel(centre)), square
        assert not is_red(without.getpixel(centre)), square


def test_untouched_squares_are_not_highlighted():
    with_move = render(mid_game_view())
    without = render(mid_game_view(last_move=None))
    assert not region_differs(with_move, without, square_box("f1"))


def test_the_active_player_strip_is_outlined_in_their_colour():
    for seat in (0, 1):
        image = render(start_view(turn=seat))
        for strip in (0, 1):
            x = 16 + strip * (WIDTH - 48) // 2 + strip * 16 + 150
            edge = image.getpixel((x, STRIP_TOP + 1))
            assert near(edge, theme.SEAT_COLOURS[strip].fill) == (strip == seat)


def test_the_turn_changes_the_status_line():
    alice = render(start_view(turn=0))
    bob = render(start_view(turn=1))
    assert region_differs(alice, bob, STATUS_BOX)


def test_headline_replaces_the_status_line():
    plain = render(start_view())
    with_headline = render(start_view(), headline="Alice resigned — Bob wins")
    assert region_differs(plain, with_headline, STATUS_BOX)
    assert not region_differs(plain, with_headline, square_box("d3"))


def test_pending_draw_offer_is_shown():
    plain = render(mid_game_view())
    offered = render(mid_game_view(draw_offer=0))
    footer = (0, HEIGHT - 90, WIDTH, HEIGHT)
    assert region_differs(plain, offered, footer)


@pytest.mark.parametrize(
    ("winner", "result", "expected"),
    [
        (0, "castle", "Alice wins: reached the castle."),
        (1, "last-knight", "Bob wins: captured the last knight."),
        (0, "no-move", "Alice wins: Bob has no legal move."),
        (None, "agreement", "Drawn by agreement."),
        (None, "repetition", "Drawn: the same position occurred three times."),
    ],
)
def test_result_sentences(winner, result, expected):
    view = start_view(turn=None, over=True, winner=winner, result=result)
    assert bann_text.result("en", view, NAMES) == expected
    render(view)


def test_last_move_sentence_names_tip_knight_squares_and_captures():
    text = bann_text.last_move("en", mid_game_view(), NAMES)
    assert text == "Last move: Alice tipped to 4, knight 3 c3–c4, captured on b4, d4"
    opening = bann_text.last_move("en", start_view(), NAMES)
    assert "Alice 5, Bob 3" in opening and "Alice starts" in opening


def test_umlaut_names_render_as_letters_not_boxes():
    umlauts = render(start_view(), names=["Jürgen Größe", "Bob"])
    plain = render(start_view(), names=["Jurgen Grosse", "Bob"])
    name_area = (60, STRIP_TOP, 300, STRIP_TOP + 50)
    assert region_differs(umlauts, plain, name_area)
    assert all(has_glyph(char) for char in "Jürgen Größe äÄöÖüÜß")


@pytest.mark.parametrize(
    "names",
    [
        ["🎲🎲🎲", "👑 Queen 👑"],
        ["A" * 300, "Bartholomäus von Überlänge-Namensträger zu Großwürfelheim " * 5],
        ["", "x"],
        ["Ann"],
    ],
)
def test_odd_names_do_not_crash(names):
    image = render(mid_game_view(draw_offer=1), names=names)
    assert image.size == (WIDTH, HEIGHT)


def test_a_name_of_only_emoji_shows_as_player_number():
    emoji = render(start_view(), names=["🎲🎲", "Bob"])
    fallback = render(start_view(), names=["Player 1", "Bob"])
    assert ImageChops.difference(emoji, fallback).getbbox() is None


def test_renders_are_identical_across_threads():
    """The Discord layer renders in worker threads; shared caches must not mix them up."""
    views = [start_view(), mid_game_view(), mid_game_view(turn=0, draw_offer=1)]
    expected = [render_bann(view, NAMES) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda index: render_bann(views[index % 3], NAMES), range(24)))
    assert results == [expected[index % 3] for index in range(24)]


# --- the theme ----------------------------------------------------------------------


def test_german_text_draws_real_glyphs_but_emoji_are_missing():
    assert all(has_glyph(char) for char in "Würfel Größe")
    assert not has_glyph("🎲")
    assert not has_glyph(MISSING_GLYPH_PROBE)


def test_clean_name_drops_undrawable_characters():
    assert clean_name("  Jürgen 🎲  Größe ") == "Jürgen Größe"
    assert clean_name("🎲🎲") == "?"
    assert clean_name("Tab\tand\nnewline") == "Tab and newline"


def test_fit_text_keeps_short_text_and_cuts_long_text_with_an_ellipsis():
    text_font = font(20)
    assert fit_text("Alice", text_font, 200) == "Alice"
    cut = fit_text("Bartholomäus " * 20, text_font, 200)
    assert cut.endswith(ELLIPSIS)
    assert text_font.getlength(cut) <= 200


def test_bold_headings_are_heavier_than_regular_text():
    def ink(weight: Weight) -> float:
        image = Image.new("L", (300, 60), 0)
        ImageDraw.Draw(image).text((5, 5), "Würfel", font=font(36, weight), fill=255)
        return ImageStat.Stat(image).mean[0]

    assert ink("Bold") > ink("Regular") * 1.2


def lab(colour: theme.Colour) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, for perceptual distances."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour)
    x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047
    y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def test_seat_colours_are_distinct_and_their_text_is_readable():
    fills = [seat.fill for seat in theme.SEAT_COLOURS]
    assert len(fills) >= 4
    for index, first in enumerate(fills):
        for second in fills[index + 1 :]:
            delta_e = sum((a - b) ** 2 for a, b in zip(lab(first), lab(second), strict=True))
            assert delta_e**0.5 > 40, (first, second)
    for seat in theme.SEAT_COLOURS:
        assert theme.contrast_ratio(seat.fill, seat.text) >= 4.5, seat.name


def test_encode_png_keeps_colours_faithful():
    drawn = draw_bann(mid_game_view(), NAMES)
    sent = decode(encode_png(drawn))
    difference = ImageChops.difference(drawn, sent)
    assert max(ImageStat.Stat(difference).mean) < 1.0
    histogram = difference.convert("L").histogram()
    assert sum(histogram[33:]) == 0, "an edge pixel strays more than 32/255"


def test_encode_png_handles_tiny_and_rgba_images():
    tiny = Image.new("RGBA", (3, 2), (0, 114, 178, 255))
    decoded = decode(encode_png(tiny))
    assert decoded.size == (3, 2)
    assert near(decoded.getpixel((1, 1)), (0, 114, 178), tolerance=4)


def draw_on_blank(paint) -> Image.Image:
    image, draw = new_canvas(80, 80, theme.WHITE)
    paint(draw)
    return image


def count_pips(image: Image.Image) -> int:
    """Dark connected blobs, counted by scanning the pip grid positions of an 80 px die."""
    dark = 0
    for column in range(3):
        for row in range(3):
            x = 40 + (column - 1) * round(80 * 0.27)
            y = 40 + (row - 1) * round(80 * 0.27)
            dark += sum(image.getpixel((x, y))) < 200
    return dark


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_die_faces_show_their_number_of_pips(value):
    image = draw_on_blank(lambda draw: draw_die(draw, (0, 0, 80, 80), value))
    assert count_pips(image) == value


def test_die_label_replaces_pips():
    labelled = draw_on_blank(lambda draw: draw_die(draw, (0, 0, 80, 80), 0, label="BAR"))
    blank = draw_on_blank(lambda draw: draw_die(draw, (0, 0, 80, 80), 0, label=""))
    assert ImageChops.difference(labelled, blank).getbbox() is not None


def test_suits_are_distinct_shapes_in_red_and_black():
    shapes = {}
    for suit in "SHDC":
        image = draw_on_blank(lambda draw, suit=suit: draw_suit(draw, suit, (40, 40), 60))
        centre = image.getpixel((40, 40))
        assert is_red(centre) == (suit in "HD"), suit
        shapes[suit] = image.convert("L").point(lambda value: 255 if value < 200 else 0)
    for first in "SHDC":
        for second in "SHDC":
            if first < second:
                assert ImageChops.difference(shapes[first], shapes[second]).getbbox()


def test_unknown_suit_is_rejected():
    with pytest.raises(ValueError):
        draw_on_blank(lambda draw: draw_suit(draw, "X", (40, 40), 60))


def draw_card_image(**card: Any) -> Image.Image:
    image, draw = new_canvas(90, 130, theme.BACKGROUND)
    draw_card(draw, (5, 5, 85, 117), **card)
    return image


def test_cards_show_suit_colour_and_ten_as_10():
    hearts = draw_card_image(rank="T", suit="H")
    assert is_red(hearts.getpixel((49, 70)))  # the big middle pip
    spades = draw_card_image(rank="T", suit="S")
    assert sum(spades.getpixel((49, 70))) < 150
    ten = draw_card_image(rank="10", suit="H")
    assert ImageChops.difference(hearts, ten).getbbox() is None
    nine = draw_card_image(rank="9", suit="H")
    assert ImageChops.difference(hearts, nine).getbbox() is not None


def test_highlighted_and_dimmed_cards_look_different():
    plain = draw_card_image(rank="Q", suit="D")
    highlighted = draw_card_image(rank="Q", suit="D", highlighted=True)
    dimmed = draw_card_image(rank="Q", suit="D", dimmed=True)
    assert near(highlighted.getpixel((45, 6)), theme.HIGHLIGHT, tolerance=10)
    assert not near(plain.getpixel((45, 6)), theme.HIGHLIGHT, tolerance=10)
    assert not is_red(dimmed.getpixel((49, 70)))
    assert sum(dimmed.getpixel((20, 100))) < sum(plain.getpixel((20, 100)))


def test_card_back_hides_the_face():
    image, draw = new_canvas(90, 130, theme.BACKGROUND)
    draw_card_back(draw, (5, 5, 85, 117))
    red, green, blue = ImageStat.Stat(image.crop((20, 20, 70, 100))).mean
    assert blue > red + 40 and blue > green + 20  # a blue back, no red pip showing
    face = draw_card_image(rank="A", suit="S")
    assert ImageChops.difference(image, face).getbbox() is not None


@pytest.mark.parametrize(
    "text",
    [
        "Alice moved knight 3 from c3 to c4 and captured b4 and d4.",
        "Jürgen Größe moved knight 6 from a1 to a2, the last knight he could move, and"
        " captured four knights at once, which nobody at this table had seen before.",
        "Ein-einziges-sehr-langes-Wort-ohne-Leerzeichen-das-nie-in-eine-Zeile-passen-kann-xx",
    ],
)
def test_footer_lines_keep_every_word_that_fits_and_stay_within_the_width(text):
    line_font = font(18)
    width = 400
    lines = wrap_text(text, line_font, width)
    assert 1 <= len(lines) <= 2
    assert all(line_font.getlength(line) <= width for line in lines)
    shown = " ".join(lines)
    if ELLIPSIS not in shown:
        assert shown == text
    else:
        assert shown.startswith(lines[0]) and text.startswith(lines[0].rstrip(ELLIPSIS))
