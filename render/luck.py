"""The dice luck picture of `/league profile`: per dice game, how often each face came
against what fair dice give, and the doubles against the expected share.

View::

    {"name": "Alice", "season": "Season 1",
     "games": [{"title": "Gul Bara", "rolls": 212, "dice": 424, "games": 9,
                "faces": [[1, "", 70], …, [6, "", 73]], "expected": 70.7,
                "pairs": 205, "singles": 7, "doubles": 38, "expected_doubles": 34.2}, …]}

``faces`` holds (face, label, count); a label replaces the pips (Barree's bar).
``pairs`` is 0 for a one-die game, which then has no doubles row; ``singles`` counts the
rolls of one die in a game of two (its opening rolls), which the doubles leave out.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render.theme import HIGHLIGHT, TEXT, TEXT_MUTED, Colour
from render.toolkit.dice import draw_die
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_line, draw_panel, fill_rounded
from render.toolkit.text import clean_name, draw_text, fit_text, font
from texts.common import decimal
from texts.i18n import t, tn

WIDTH = 900
MARGIN = 24
HEADER_HEIGHT = 84
PANEL_HEIGHT = 262
GAP = 14
CHART_LEFT = MARGIN + 28
CHART_WIDTH = 520
BAR_WIDTH = 52
CHART_TOP = 76
CHART_HEIGHT = 120
DIE_SIZE = 34
DOUBLES_LEFT = CHART_LEFT + CHART_WIDTH + 40
BAR: Colour = (86, 150, 220)
EXPECTED: Colour = HIGHLIGHT


def render_luck(view: dict[str, Any], language: str) -> bytes:
    games = view["games"]
    height = HEADER_HEIGHT + len(games) * (PANEL_HEIGHT + GAP) + MARGIN - GAP
    image, draw = new_canvas(WIDTH, max(height, HEADER_HEIGHT + MARGIN))
    draw_panel(draw, (MARGIN, 14, WIDTH - MARGIN, HEADER_HEIGHT - 10))
    title_font = font(28, "Bold")
    title_text = t(language, "Dice luck · {name}", name=clean_name(view["name"]))
    title = fit_text(title_text, title_font, 560)
    draw_text(draw, (MARGIN + 24, 47), title, title_font, TEXT, "lm")
    season = fit_text(clean_name(view["season"]), font(18, "Medium"), 240)
    draw_text(draw, (WIDTH - MARGIN - 24, 47), season, font(18, "Medium"), TEXT_MUTED, "rm")
    for index, game in enumerate(games):
        _draw_game(draw, HEADER_HEIGHT + index * (PANEL_HEIGHT + GAP), game, language)
    return encode_png(image)


def _draw_game(draw: ImageDraw.ImageDraw, top: int, game: dict[str, Any], language: str) -> None:
    draw_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + PANEL_HEIGHT))
    heading = t(
        language,
        "{game} · {rolls}, {dice}, {games}",
        game=game["title"],
        rolls=tn(language, "{count} roll", "{count} rolls", game["rolls"]),
        dice=tn(language, "{count} die", "{count} dice", game["dice"]),
        games=tn(language, "{count} game", "{count} games", game["games"]),
    )
    draw_text(draw, (MARGIN + 24, top + 30), heading, font(20, "SemiBold"), TEXT, "lm")
    _draw_faces(draw, top + CHART_TOP, game, language)
    if game["pairs"]:
        _draw_doubles(draw, top + CHART_TOP, game, language)


def _draw_faces(draw: ImageDraw.ImageDraw, top: int, game: dict[str, Any], language: str) -> None:
    faces = game["faces"]
    expected = game["expected"]
    highest = max([expected, *(count for _, _, count in faces)]) or 1
    slot = CHART_WIDTH / len(faces)
    bottom = top + CHART_HEIGHT
    for index, (face, label, count) in enumerate(faces):
        left = CHART_LEFT + index * slot + (slot - BAR_WIDTH) / 2
        bar_top = bottom - CHART_HEIGHT * count / highest
        if count:
            fill_rounded(draw, (left, bar_top, left + BAR_WIDTH, bottom), 6, BAR)
        draw_text(draw, (left + BAR_WIDTH / 2, bar_top - 4), str(count), font(15), TEXT, "md")
        die_left = left + (BAR_WIDTH - DIE_SIZE) / 2
        die_box = (round(die_left), bottom + 10, round(die_left) + DIE_SIZE, bottom + 10 + DIE_SIZE)
        draw_die(draw, die_box, face, label=label or None)
    level = bottom - CHART_HEIGHT * expected / highest
    draw_line(draw, (CHART_LEFT, level), (CHART_LEFT + CHART_WIDTH, level), EXPECTED, 2)
    caption = t(
        language,
        "yellow line: fair dice, {expected} per face",
        expected=decimal(language, expected),
    )
    legend_y = top - CHART_TOP + 30
    draw_text(draw, (WIDTH - MARGIN - 24, legend_y), caption, font(14), EXPECTED, "rm")


def _draw_doubles(draw: ImageDraw.ImageDraw, top: int, game: dict[str, Any], language: str) -> None:
    title = t(language, "Doubles")
    draw_text(draw, (DOUBLES_LEFT, top + 8), title, font(18, "SemiBold"), TEXT, "lm")
    rows = (
        (t(language, "yours"), game["doubles"], BAR),
        (t(language, "fair dice"), game["expected_doubles"], EXPECTED),
    )
    longest = max(game["doubles"], game["expected_doubles"]) or 1
    room = WIDTH - MARGIN - 24 - DOUBLES_LEFT
    for index, (label, value, colour) in enumerate(rows):
        y = top + 44 + index * 48
        draw_text(draw, (DOUBLES_LEFT, y), label, font(15), TEXT_MUTED, "lm")
        width = max(6, (room - 60) * value / longest)
        fill_rounded(draw, (DOUBLES_LEFT, y + 12, DOUBLES_LEFT + width, y + 30), 5, colour)
        shown = decimal(language, value) if isinstance(value, float) else str(value)
        draw_text(draw, (DOUBLES_LEFT + width + 8, y + 21), shown, font(15), TEXT, "lm")
    share = tn(language, "in {count} two-dice roll", "in {count} two-dice rolls", game["pairs"])
    draw_text(draw, (DOUBLES_LEFT, top + 150), share, font(14), TEXT_MUTED, "lm")
    if game.get("singles"):
        singles = tn(
            language,
            "not in {count} opening roll of one die",
            "not in {count} opening rolls of one die",
            game["singles"],
        )
        shown = fit_text(singles, font(14), room)
        draw_text(draw, (DOUBLES_LEFT, top + 170), shown, font(14), TEXT_MUTED, "lm")
