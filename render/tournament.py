"""Tournament pictures: the standings after a round, a knockout's bracket, and a round's
tables. Each takes a plain dict (the Discord layer fills in names from the pure
``games.tournament`` results) and returns PNG bytes.

Standings view::

    {"title": "Bann · Swiss", "subtitle": "After round 3 of 5", "format": "swiss",
     "rows": [{"place": 1, "name": "Alice", "score": 2.5, "tiebreaks": [6.5, 5.25, 2],
               "withdrawn": False}, ...]}

Bracket view (rounds in order; a match's ``winner`` is its seat 0 or 1, None while
playing; ``decider`` when a drawn game was replayed; a bye has one name)::

    {"title": "Gul Bara · Knockout", "subtitle": "Round 2 of 3",
     "rounds": [[{"names": ["Alice", "Bob"], "winner": 0, "decider": False}, ...], ...]}

Round view (seats in seat order, the first moves first in a two-player game; ``points``
per seat once the table ended; ``absent`` seats a computer played)::

    {"title": "Barbu · Table groups", "subtitle": "Round 2 of 3",
     "tables": [{"number": 1, "names": ["A", "B", "C", "D"], "points": [3, 1.5, 1.5, 0],
                 "absent": [False, False, False, True], "decider": False}, ...],
     "byes": ["Eve"]}

All three are 660 px wide with no text under 17 px, so every word stays at least 11 px
tall when a phone shows them 450 px wide. A bracket shows at most three rounds side by
side (the latest ones), so its names keep a readable width however large the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PIL import ImageDraw

from games.tournament import Format, Round, Tournament, seat_points, standings
from games.tournament.knockout import match_winner, surviving_slots
from render.theme import HIGHLIGHT, PANEL, PANEL_EDGE, TEXT, TEXT_DARK, TEXT_MUTED, Colour
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_disc, draw_panel, fill_rounded
from render.toolkit.text import Label, clean_name, draw_text, fit_text, font
from texts.i18n import t, tn
from texts.tournament import (
    SCORE_HEADINGS,
    TIEBREAK_HEADINGS,
    TIEBREAK_LEGENDS,
    game_points,
    points,
)

WIDTH = 660
TEXT_SIZE = 17  # the smallest text: 11 px at a phone's 450 px
MARGIN = 16
HEADER_HEIGHT = 96
COLUMN_HEADER_HEIGHT = 36
ROW_HEIGHT = 46
FOOTER_HEIGHT = 44
LABEL_GAP = 10

MEDALS: dict[int, Colour] = {1: (247, 208, 70), 2: (200, 205, 214), 3: (205, 127, 50)}
PLACE_X = MARGIN + 30
NAME_X = MARGIN + 62
NUMBERS_RIGHT = WIDTH - MARGIN - 14
NUMBER_COLUMN = 84
"""The width of the score and each tie-break column."""
NAME_ROOM_MIN = 200

BRACKET_COLUMNS = 3
MATCH_HEIGHT = 78
MATCH_GAP = 14
COLUMN_GAP = 18
WON: Colour = (0, 158, 115)

TABLE_TITLE_HEIGHT = 34
SEAT_HEIGHT = 34
TABLE_GAP = 12


def _columns(format_: Format) -> list[tuple[str, float]]:
    """The number columns (heading, right edge), score first."""
    headings = [SCORE_HEADINGS[format_], *TIEBREAK_HEADINGS[format_]]
    count = len(headings)
    return [
        (heading, NUMBERS_RIGHT - (count - 1 - index) * NUMBER_COLUMN)
        for index, heading in enumerate(headings)
    ]


def labels(language: str) -> list[Label]:
    """Every fixed word of the tournament pictures in ``language``, with its box."""
    heading = font(TEXT_SIZE, "SemiBold")
    found = [Label(t(language, "PLAYER"), heading, NAME_ROOM_MIN)]
    for format_ in Format:
        found += [
            Label(t(language, text), heading, NUMBER_COLUMN - LABEL_GAP)
            for text in [*TIEBREAK_HEADINGS[format_]]
        ]
        found.append(
            Label(t(language, TIEBREAK_LEGENDS[format_]), font(TEXT_SIZE), WIDTH - 2 * MARGIN)
        )
    found += [
        Label(t(language, SCORE_HEADINGS[Format.SWISS]), heading, NUMBER_COLUMN - LABEL_GAP),
        Label(t(language, SCORE_HEADINGS[Format.KNOCKOUT]), heading, 2 * NUMBER_COLUMN - LABEL_GAP),
        Label(t(language, "bye"), font(TEXT_SIZE, "Medium"), _bracket_column_width(3) / 2),
        Label(t(language, "decider"), font(TEXT_SIZE, "Medium"), _bracket_column_width(3) / 2),
        Label(t(language, "absent"), font(TEXT_SIZE, "Medium"), 110),
    ]
    return found


def _header(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    draw_panel(draw, (MARGIN, 12, WIDTH - MARGIN, HEADER_HEIGHT - 8))
    room = WIDTH - 2 * MARGIN - 40
    title_font = font(27, "Bold")
    shown = fit_text(title, title_font, room)
    draw_text(draw, (MARGIN + 20, 36), shown, title_font, TEXT, "lm")
    subtitle_font = font(TEXT_SIZE + 2, "Medium")
    shown = fit_text(subtitle, subtitle_font, room)
    draw_text(draw, (MARGIN + 20, 68), shown, subtitle_font, TEXT_MUTED, "lm")


def _footer(draw: ImageDraw.ImageDraw, height: int, text: str) -> None:
    footer_font = font(TEXT_SIZE)
    shown = fit_text(text, footer_font, WIDTH - 2 * MARGIN)
    draw_text(draw, (WIDTH / 2, height - FOOTER_HEIGHT / 2), shown, footer_font, TEXT_MUTED, "mm")


# --- standings ------------------------------------------------------------------------


def render_standings(view: dict[str, Any], language: str) -> bytes:
    """Place, name, score and the format's tie-breaks per player, best first."""
    format_ = Format(view["format"])
    rows = view["rows"]
    height = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + ROW_HEIGHT * max(1, len(rows)) + FOOTER_HEIGHT
    image, draw = new_canvas(WIDTH, height)
    _header(draw, str(view["title"]), str(view["subtitle"]))
    columns = _columns(format_)
    heading = font(TEXT_SIZE, "SemiBold")
    middle = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT / 2
    draw_text(draw, (PLACE_X, middle), "#", heading, TEXT_MUTED, "mm")
    draw_text(draw, (NAME_X, middle), t(language, "PLAYER"), heading, TEXT_MUTED, "lm")
    for text, right in columns:
        draw_text(draw, (right, middle), t(language, text), heading, TEXT_MUTED, "rm")
    name_room = columns[0][1] - NUMBER_COLUMN - NAME_X
    top = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT
    for index, row in enumerate(rows):
        _standing_row(
            draw, top + index * ROW_HEIGHT, row, columns, name_room, language, index % 2 == 1
        )
    _footer(draw, height, t(language, TIEBREAK_LEGENDS[format_]))
    return encode_png(image)


def _standing_row(
    draw: ImageDraw.ImageDraw,
    top: int,
    row: dict[str, Any],
    columns: list[tuple[str, float]],
    name_room: float,
    language: str,
    striped: bool,
) -> None:
    if striped:
        fill_rounded(draw, (MARGIN, top + 2, WIDTH - MARGIN, top + ROW_HEIGHT - 2), 10, PANEL)
    middle = top + ROW_HEIGHT / 2
    place = int(row["place"])
    medal = MEDALS.get(place)
    if medal is not None:
        draw_disc(draw, (PLACE_X, middle), 16, medal, label=str(place), label_colour=TEXT_DARK)
    else:
        draw_text(draw, (PLACE_X, middle), str(place), font(20, "SemiBold"), TEXT_MUTED, "mm")
    withdrawn = bool(row.get("withdrawn"))
    name_font = font(20, "SemiBold")
    name = clean_name(str(row["name"]))
    if withdrawn:
        name = t(language, "{name} (withdrawn)", name=name)
    shown = fit_text(name, name_font, name_room)
    draw_text(draw, (NAME_X, middle), shown, name_font, TEXT_MUTED if withdrawn else TEXT, "lm")
    values = [row["score"], *row["tiebreaks"]]
    for (_, right), value, index in zip(columns, values, range(len(values)), strict=True):
        value_font = font(22, "Bold") if index == 0 else font(19)
        colour = TEXT if index == 0 else TEXT_MUTED
        draw_text(draw, (right, middle), points(language, float(value)), value_font, colour, "rm")


# --- bracket --------------------------------------------------------------------------


def _bracket_column_width(columns: int) -> float:
    return (WIDTH - 2 * MARGIN - (columns - 1) * COLUMN_GAP) / columns


def render_bracket(view: dict[str, Any], language: str) -> bytes:
    """The knockout's latest rounds side by side, each match's winner marked."""
    rounds: list[list[dict[str, Any]]] = view["rounds"]
    shown = rounds[-BRACKET_COLUMNS:] if rounds else []
    first_shown = len(rounds) - len(shown)
    column_width = _bracket_column_width(max(1, len(shown)))
    tallest = max((len(matches) for matches in shown), default=1)
    body = tallest * (MATCH_HEIGHT + MATCH_GAP) + MATCH_GAP
    height = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + body + FOOTER_HEIGHT
    image, draw = new_canvas(WIDTH, height)
    _header(draw, str(view["title"]), str(view["subtitle"]))
    heading = font(TEXT_SIZE, "SemiBold")
    top = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT
    for column, matches in enumerate(shown):
        left = MARGIN + column * (column_width + COLUMN_GAP)
        number = first_shown + column + 1
        title = _round_title(
            language, number, len(matches), is_last=number == len(rounds) and len(matches) == 1
        )
        draw_text(
            draw,
            (left + column_width / 2, HEADER_HEIGHT + COLUMN_HEADER_HEIGHT / 2),
            fit_text(title, heading, column_width),
            heading,
            TEXT_MUTED,
            "mm",
        )
        slot = body / max(1, len(matches))
        for index, match in enumerate(matches):
            centre = top + slot * (index + 0.5)
            _match_box(draw, left, centre, column_width, match, language)
    _footer(draw, height, t(language, TIEBREAK_LEGENDS[Format.KNOCKOUT]))
    return encode_png(image)


def _round_title(language: str, number: int, matches: int, *, is_last: bool) -> str:
    if is_last:
        return t(language, "Final")
    if matches == 2:
        return t(language, "Semi-finals")
    return t(language, "Round {number}", number=number)


def _match_box(
    draw: ImageDraw.ImageDraw,
    left: float,
    centre: float,
    width: float,
    match: dict[str, Any],
    language: str,
) -> None:
    top = centre - MATCH_HEIGHT / 2
    draw_panel(
        draw,
        (round(left), round(top), round(left + width), round(top + MATCH_HEIGHT)),
        PANEL,
        PANEL_EDGE,
        10,
    )
    names: list[str] = [clean_name(str(name)) for name in match["names"]]
    winner = match.get("winner")
    name_font = font(TEXT_SIZE + 1, "SemiBold")
    note_font = font(TEXT_SIZE, "Medium")
    for seat in range(2):
        line_middle = top + MATCH_HEIGHT * (0.28 if seat == 0 else 0.72)
        if seat >= len(names):
            draw_text(
                draw, (left + 14, line_middle), t(language, "bye"), note_font, TEXT_MUTED, "lm"
            )
            continue
        won = winner == seat
        room = width - 28 - (14 if won else 0)
        if seat == 1 and match.get("decider"):
            note = t(language, "decider")
            room -= note_font.getlength(note) + 8
            draw_text(draw, (left + width - 10, line_middle), note, note_font, HIGHLIGHT, "rm")
        colour = TEXT if winner is None or won else TEXT_MUTED
        draw_text(
            draw,
            (left + 14, line_middle),
            fit_text(names[seat], name_font, room),
            name_font,
            colour,
            "lm",
        )
        if won:
            marker = (
                round(left + 4),
                round(line_middle - 12),
                round(left + 8),
                round(line_middle + 12),
            )
            fill_rounded(draw, marker, 2, WON)


# --- a round's tables -----------------------------------------------------------------


def render_round(view: dict[str, Any], language: str) -> bytes:
    """Each table of the round with its players in seat order, their points once it
    ended, and who has a bye: a game of two on one line (first mover on the left), a
    larger table in a panel of its own."""
    tables: list[dict[str, Any]] = view["tables"]
    byes: list[str] = view.get("byes", [])
    heights = [_table_height(table) for table in tables]
    bye_band = ROW_HEIGHT if byes else 0
    pairs = any(len(table["names"]) == 2 for table in tables)
    footer = FOOTER_HEIGHT if pairs else 0
    heading = COLUMN_HEADER_HEIGHT if pairs else 0
    body = sum(heights) + bye_band + footer + heading + 8
    height = HEADER_HEIGHT + body
    image, draw = new_canvas(WIDTH, height)
    _header(draw, str(view["title"]), str(view["subtitle"]))
    top = HEADER_HEIGHT
    if pairs:
        heading_font = font(TEXT_SIZE, "SemiBold")
        middle = top + COLUMN_HEADER_HEIGHT / 2
        draw_text(draw, (PAIR_NUMBER_X, middle), "#", heading_font, TEXT_MUTED, "mm")
        top += COLUMN_HEADER_HEIGHT
    for index, (table, table_height) in enumerate(zip(tables, heights, strict=True)):
        if len(table["names"]) == 2:
            _pair_row(draw, top, table, language, striped=index % 2 == 0)
        else:
            _table_panel(draw, top, table_height - TABLE_GAP, table, language)
        top += table_height
    text_font = font(TEXT_SIZE + 1, "Medium")
    if byes:
        names = ", ".join(clean_name(str(name)) for name in byes)
        line = tn(language, "Bye: {names}", "Byes: {names}", len(byes), names=names)
        shown = fit_text(line, text_font, WIDTH - 2 * MARGIN)
        draw_text(draw, (MARGIN + 8, top + ROW_HEIGHT / 2), shown, text_font, TEXT, "lm")
    if footer:
        _footer(draw, height, t(language, "The first name moves first"))
    return encode_png(image)


PAIR_NUMBER_X = MARGIN + 26
PAIR_RESULT_X = WIDTH / 2
PAIR_NAME_ROOM = WIDTH / 2 - MARGIN - 100


def _table_height(table: dict[str, Any]) -> int:
    if len(table["names"]) == 2:
        return ROW_HEIGHT
    return TABLE_TITLE_HEIGHT + SEAT_HEIGHT * len(table["names"]) + 12 + TABLE_GAP


def _pair_row(
    draw: ImageDraw.ImageDraw, top: int, table: dict[str, Any], language: str, *, striped: bool
) -> None:
    """Table number, the first mover, the result (a dash while playing), the second."""
    if striped:
        fill_rounded(draw, (MARGIN, top + 2, WIDTH - MARGIN, top + ROW_HEIGHT - 2), 10, PANEL)
    middle = top + ROW_HEIGHT / 2
    number_font = font(20, "SemiBold")
    draw_text(draw, (PAIR_NUMBER_X, middle), str(table["number"]), number_font, TEXT_MUTED, "mm")
    name_font = font(20, "SemiBold")
    first, second = (clean_name(str(name)) for name in table["names"])
    scores = table.get("points")
    absent = table.get("absent") or [False, False]
    result_font = font(20, "Bold")
    if scores is None:
        result = "–"
    else:
        first_points, second_points = (game_points(language, float(x)) for x in scores)
        result = f"{first_points}–{second_points}"
    draw_text(draw, (PAIR_RESULT_X, middle), result, result_font, TEXT, "mm")
    left_room = PAIR_NAME_ROOM
    right_room = PAIR_NAME_ROOM
    note_font = font(TEXT_SIZE, "Medium")
    if table.get("decider"):
        note = t(language, "decider")
        right_room -= note_font.getlength(note) + 12
        draw_text(draw, (WIDTH - MARGIN - 12, middle), note, note_font, HIGHLIGHT, "rm")
    for seat, (name, anchor, x, room) in enumerate(
        (
            (first, "rm", PAIR_RESULT_X - 50, left_room),
            (second, "lm", PAIR_RESULT_X + 50, right_room),
        )
    ):
        if absent[seat]:
            name = t(language, "{name} (absent)", name=name)
        colour = TEXT_MUTED if absent[seat] else TEXT
        draw_text(draw, (x, middle), fit_text(name, name_font, room), name_font, colour, anchor)


def _table_panel(
    draw: ImageDraw.ImageDraw, top: int, height: int, table: dict[str, Any], language: str
) -> None:
    draw_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height))
    title_font = font(TEXT_SIZE + 1, "Bold")
    title = t(language, "Table {number}", number=table["number"])
    if table.get("decider"):
        title = t(language, "Table {number} · decider", number=table["number"])
    draw_text(
        draw, (MARGIN + 18, top + TABLE_TITLE_HEIGHT / 2 + 6), title, title_font, TEXT_MUTED, "lm"
    )
    scores = table.get("points")
    absent = table.get("absent") or [False] * len(table["names"])
    name_font, note_font = font(20, "SemiBold"), font(TEXT_SIZE, "Medium")
    for seat, name in enumerate(table["names"]):
        middle = top + TABLE_TITLE_HEIGHT + SEAT_HEIGHT * (seat + 0.5)
        room = WIDTH - 2 * MARGIN - 180
        right = WIDTH - MARGIN - 18
        if scores is not None:
            draw_text(
                draw,
                (right, middle),
                game_points(language, float(scores[seat])),
                font(20, "Bold"),
                TEXT,
                "rm",
            )
        if absent[seat]:
            draw_text(draw, (right - 60, middle), t(language, "absent"), note_font, HIGHLIGHT, "rm")
        shown = fit_text(clean_name(str(name)), name_font, room)
        draw_text(draw, (MARGIN + 18, middle), shown, name_font, TEXT, "lm")


# --- views from the pure model ----------------------------------------------------------


def standings_view(
    tournament: Tournament, names: Mapping[str, str], title: str, subtitle: str
) -> dict[str, Any]:
    """The standings picture's view of ``tournament``; ``names`` by player key."""
    return {
        "title": title,
        "subtitle": subtitle,
        "format": tournament.config.format.value,
        "rows": [
            {
                "place": line.place,
                "name": names[line.key],
                "score": line.score,
                "tiebreaks": list(line.tiebreaks),
                "withdrawn": line.withdrawn,
            }
            for line in standings(tournament)
        ],
    }


def bracket_view(
    tournament: Tournament, names: Mapping[str, str], title: str, subtitle: str
) -> dict[str, Any]:
    """The bracket picture's view of a knockout: each round's matches in bracket order
    (a decided match's winner, whether it needed a decider; a bye as a match of one)."""
    rounds = []
    for number, round_ in enumerate(tournament.rounds):
        slots = surviving_slots(replace(tournament, rounds=tournament.rounds[:number]))
        matches: list[dict[str, Any]] = []
        for pair in zip(slots[::2], slots[1::2], strict=True):
            present = {key for key in pair if key is not None}
            table = next(
                (t for t in round_.tables if t.decider_of is None and set(t.seats) == present),
                None,
            )
            if table is None:
                matches += [
                    {"names": [names[key]], "winner": 0, "decider": False} for key in present
                ]
                continue
            winner = match_winner(round_, table)
            matches.append(
                {
                    "names": [names[key] for key in table.seats],
                    "winner": None if winner is None else table.seats.index(winner),
                    "decider": any(other.decider_of == table.number for other in round_.tables),
                }
            )
        rounds.append(matches)
    return {"title": title, "subtitle": subtitle, "rounds": rounds}


def round_view(
    round_: Round, names: Mapping[str, str], title: str, subtitle: str
) -> dict[str, Any]:
    """The round picture's view: every table in seat order with its points once ended."""
    return {
        "title": title,
        "subtitle": subtitle,
        "tables": [
            {
                "number": table.number,
                "names": [names[key] for key in table.seats],
                "points": None if table.result is None else list(seat_points(table.result)),
                "absent": None
                if table.result is None
                else [table.result.is_absent(seat) for seat in range(len(table.seats))],
                "decider": table.decider_of is not None,
            }
            for table in round_.tables
        ],
        "byes": [names[key] for key in round_.byes],
    }
