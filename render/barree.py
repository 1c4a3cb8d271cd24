"""The Barree board: a view dict (see games/barree.py ``view``) becomes a PNG.

Layout, 856×880: a status line with the die on top; on the left the board as a network
(48 numbered fields on their grid lines and four diagonals, number row 1 at the top, the
blockaded row crossed by a striped barrier); on the right one panel per player with his
face-up cards, his hidden cards as backs and his minus points, then the piles and a key;
a footer narrating the last action. No text is under 21 px, so every number stays 11 px
tall when a phone shows the picture 450 px wide. The walk just made is drawn as a path in
the mover's colour; the cards of the player to move are highlighted on the board. A long
row of cards overlaps, each card's number on its visible left edge.

Speed: everything that repeats between renders (the empty table, the board per blockaded
row, field, piece, card and die tiles, text masks) is drawn once and cached, so a render
is mostly pastes and the PNG encoding.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.barree import (
    BAR,
    COLUMNS,
    DIAGONALS,
    FIELDS,
    LINES,
    MAX_ROUNDS,
    ROWS,
    BarreeEvent,
    BarreeView,
    new_game,
    row_of,
)
from render.league import Label
from render.theme import (
    BACKGROUND,
    BOARD_FRAME,
    BOARD_LIGHT,
    CARD_BACK,
    CARD_FACE,
    DANGER,
    DISABLED,
    HIGHLIGHT,
    PANEL,
    SEAT_COLOURS,
    SUPERSAMPLE,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    WHITE,
    Box,
    Colour,
    DieColours,
    Point,
    SeatColour,
    Weight,
    clean_name,
    draw_arrow,
    draw_die,
    draw_disc,
    draw_line,
    draw_panel,
    draw_ring,
    draw_text,
    draw_text_centred,
    draw_turn_marker,
    encode_png,
    fill_disc,
    fill_polygon,
    fill_rounded,
    fit_text,
    font,
    mix,
)
from texts import barree as barree_text
from texts.i18n import ENGLISH, t, tn

WIDTH, HEIGHT = 856, 880
TEXT_SIZE = 21  # the smallest text: 11 px at a phone's 450 px
MARGIN = 16
STATUS_BOX: Box = (MARGIN, MARGIN, WIDTH - MARGIN, 76)
BOARD_BOX: Box = (MARGIN, 92, 524, 748)
SIDE_LEFT = 540
FOOTER_BOX: Box = (MARGIN, 760, WIDTH - MARGIN, HEIGHT - MARGIN)

SPACING = 78
GRID_LEFT = BOARD_BOX[0] + 62
GRID_TOP = BOARD_BOX[1] + 55
FIELD_RADIUS = 23
PIECE_RADIUS = 19
SMALL_PIECE_RADIUS = 15
LINE_COLOUR: Colour = mix(BOARD_FRAME, BOARD_LIGHT, 0.35)
LABEL_COLOUR: Colour = mix(BOARD_FRAME, BOARD_LIGHT, 0.2)
FIELD_FILL: Colour = mix(BOARD_LIGHT, WHITE, 0.6)
BLOCKED_FILL: Colour = mix(BOARD_LIGHT, DISABLED, 0.45)
BOARD_FILL: Colour = mix(BOARD_LIGHT, BOARD_FRAME, 0.08)
SHADOW: Colour = mix(BOARD_FRAME, TEXT_DARK, 0.5)

CARD_WIDTH, CARD_HEIGHT, CARD_GAP = 40, 54, 6
CARD_ROW_WIDTH = WIDTH - MARGIN - SIDE_LEFT - 28
DIE_SIZE = 48
PANEL_HEIGHT, PANEL_GAP = 128, 10
KEY_LINE = 32
FOOTER_LINES = 3
NAME_ROOM = 60  # the least a player's name keeps beside his cards in his panel
# The walk picker's numbered targets: a badge at the upper right of each field a walk can
# end on, leaving the field's own number readable.
TARGET_BADGE_RADIUS = 17
TARGET_BADGE_OFFSET: Point = (21, -21)
# Where the pieces sit when several share a field: around the centre, clear of the number.
CLUSTER_OFFSETS: tuple[Point, ...] = ((-17, -17), (17, -17), (-17, 17), (17, 17))


@dataclass(frozen=True)
class FieldLook:
    fill: Colour
    edge: Colour
    text: Colour
    edge_width: int = 2
    weight: Weight = "SemiBold"


PLAIN = FieldLook(FIELD_FILL, BOARD_FRAME, TEXT_DARK)
BLOCKED = FieldLook(BLOCKED_FILL, mix(DANGER, DISABLED, 0.4), TEXT_MUTED)


def render_barree(
    view: BarreeView,
    names: Sequence[str],
    headline: str | None = None,
    language: str = ENGLISH,
) -> bytes:
    """PNG bytes of the board in ``view``. ``names[seat]`` are the players' display names;
    ``headline``, when given, replaces the status line (e.g. "Alice left the table").
    Every word is in ``language``."""
    return encode_png(draw_barree(view, names, headline, language))


def draw_barree(
    view: BarreeView,
    names: Sequence[str],
    headline: str | None = None,
    language: str = ENGLISH,
) -> Image.Image:
    """The picture of ``render_barree`` before encoding (replays compose these)."""
    players = [_player_name(language, names, seat) for seat in range(view["players"])]
    image = _empty_table(view["players"]).copy()
    image.paste(_board(view["blockade"]), BOARD_BOX[:2])
    draw = ImageDraw.Draw(image)
    _draw_highlights(image, view)
    _draw_last_walk(image, draw, view)
    _draw_sendings(draw, view)
    _draw_pieces(image, view, _piece_labels(players))
    _draw_status(image, draw, view, players, headline, language)
    _draw_player_panels(image, draw, view, players, language)
    _draw_footer(draw, view, players, language)
    return image


def render_barree_targets(view: BarreeView, names: Sequence[str], targets: Sequence[int]) -> bytes:
    """PNG bytes of the board alone (no side panels, so it stays small on a phone), each
    field of ``targets`` marked with its number in that list, the first as 1. It holds
    numbers only, no words, so it is the same in every language."""
    image = draw_barree(view, names)
    draw = ImageDraw.Draw(image)
    badge_font = font(TEXT_SIZE, "Bold")
    for number, field in enumerate(targets, start=1):
        x, y = field_centre(field)
        centre = (x + TARGET_BADGE_OFFSET[0], y + TARGET_BADGE_OFFSET[1])
        draw_disc(draw, centre, TARGET_BADGE_RADIUS, HIGHLIGHT, edge=TEXT_DARK, edge_width=2)
        draw_text_centred(draw, centre, str(number), badge_font, TEXT_DARK)
    return encode_png(image.crop(BOARD_BOX))


def _player_name(language: str, names: Sequence[str], seat: int) -> str:
    if seat < len(names):
        return clean_name(names[seat])
    return t(language, "Player {number}", number=seat + 1)


def _piece_labels(players: Sequence[str]) -> list[str]:
    """Initials mark the pieces, so colour is not the only clue; seat numbers if they clash."""
    initials = [name[0].upper() for name in players]
    if len(set(initials)) == len(initials):
        return initials
    return [str(seat + 1) for seat in range(len(players))]


# --- geometry -----------------------------------------------------------------------


def field_centre(field: int) -> tuple[int, int]:
    """Pixel centre of a field: number row 1 at the top, place 1 at the left."""
    column, row = field % 10, row_of(field)
    return (GRID_LEFT + (column - 1) * SPACING, GRID_TOP + (row - 1) * SPACING)


def _panel_boxes(players: int) -> list[Box]:
    top, step = BOARD_BOX[1], PANEL_HEIGHT + PANEL_GAP
    return [
        (SIDE_LEFT, top + seat * step, WIDTH - MARGIN, top + seat * step + PANEL_HEIGHT)
        for seat in range(players)
    ]


def _table_box(players: int) -> Box:
    return (SIDE_LEFT, _panel_boxes(players)[-1][3] + PANEL_GAP, WIDTH - MARGIN, BOARD_BOX[3])


# --- text --------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _fitted(text: str, size: int, weight: Weight, width: int) -> str:
    return fit_text(text, font(size, weight), width)


def _text(
    draw: ImageDraw.ImageDraw,
    at: Point,
    text: str,
    colour: Colour,
    *,
    size: int = TEXT_SIZE,
    weight: Weight = "Regular",
    anchor: str = "lm",
    width: int | None = None,
) -> None:
    """Text at ``at`` (Pillow ``anchor``), cut to ``width`` pixels; masks are cached."""
    shown = _fitted(text, size, weight, width) if width is not None else text
    if shown:
        draw_text(draw, at, shown, font(size, weight), colour, anchor)


# --- cached tiles -------------------------------------------------------------------


@lru_cache(maxsize=64)
def _disc_alpha(diameter: int, shadow: Point | None = None) -> Image.Image:
    """An anti-aliased disc mask, optionally with a shadow disc offset by ``shadow``."""
    scale = SUPERSAMPLE
    size = diameter + (4 if shadow else 0)
    big = Image.new("L", (size * scale, size * scale), 0)
    paint = ImageDraw.Draw(big)
    if shadow:
        dx, dy = shadow
        paint.ellipse(
            (dx * scale, dy * scale, (dx + diameter) * scale - 1, (dy + diameter) * scale - 1),
            fill=255,
        )
    paint.ellipse((0, 0, diameter * scale - 1, diameter * scale - 1), fill=255)
    return big.reduce(scale)


@lru_cache(maxsize=1024)
def _field_tile(field: int, look: FieldLook) -> Image.Image:
    # The tile's own background is the edge colour, so the paste mask alone anti-aliases.
    diameter = 2 * FIELD_RADIUS
    tile = Image.new("RGB", (diameter, diameter), look.edge)
    draw = ImageDraw.Draw(tile)
    draw_disc(draw, (FIELD_RADIUS, FIELD_RADIUS), FIELD_RADIUS - look.edge_width, look.fill)
    draw_text_centred(
        draw, (FIELD_RADIUS, FIELD_RADIUS), str(field), font(TEXT_SIZE, look.weight), look.text
    )
    return tile


def _paste_field(image: Image.Image, field: int, look: FieldLook) -> None:
    x, y = field_centre(field)
    corner = (x - FIELD_RADIUS, y - FIELD_RADIUS)
    image.paste(_field_tile(field, look), corner, _disc_alpha(2 * FIELD_RADIUS))


PIECE_SHADOW: Point = (1.5, 2.5)


@lru_cache(maxsize=256)
def _piece_tile(seat: int, radius: int, label: str) -> Image.Image:
    colour = SEAT_COLOURS[seat]
    diameter = 2 * radius
    tile = Image.new("RGB", (diameter + 4, diameter + 4), SHADOW)
    draw = ImageDraw.Draw(tile)
    draw_disc(
        draw,
        (radius, radius),
        radius,
        colour.fill,
        edge=colour.edge,
        edge_width=3,
        label=label,
        label_colour=colour.text,
        label_size=max(TEXT_SIZE, round(radius * 1.05)),
    )
    return tile


def _paste_piece(image: Image.Image, centre: Point, radius: int, seat: int, label: str) -> None:
    corner = (round(centre[0]) - radius, round(centre[1]) - radius)
    image.paste(_piece_tile(seat, radius, label), corner, _disc_alpha(2 * radius, PIECE_SHADOW))


@lru_cache(maxsize=1024)
def _card_tile(label: str, seat: int, blocked: bool, background: Colour) -> Image.Image:
    """A face-up field card; greyed while its row is blockaded (not reachable now). The
    number sits on the left so it still shows when a long row of cards overlaps."""
    tile = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), background)
    draw = ImageDraw.Draw(tile)
    face = mix(CARD_FACE, DISABLED, 0.45) if blocked else CARD_FACE
    box = (0, 0, CARD_WIDTH, CARD_HEIGHT)
    draw_panel(draw, box, fill=face, edge=SEAT_COLOURS[seat].fill, radius=6, edge_width=2)
    text = mix(TEXT_DARK, DISABLED, 0.5) if blocked else TEXT_DARK
    draw_text(draw, (5, CARD_HEIGHT / 2), label, font(TEXT_SIZE, "Bold"), text, anchor="lm")
    return tile


@lru_cache(maxsize=8)
def _card_back_tile(background: Colour) -> Image.Image:
    tile = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), background)
    draw = ImageDraw.Draw(tile)
    box = (0, 0, CARD_WIDTH, CARD_HEIGHT)
    draw_panel(draw, box, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.5), radius=6, edge_width=2)
    inner = (7, 7, CARD_WIDTH - 7, CARD_HEIGHT - 7)
    draw_panel(draw, inner, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.3), radius=4, edge_width=2)
    fill_disc(draw, (CARD_WIDTH / 2, CARD_HEIGHT / 2), 5, mix(CARD_BACK, WHITE, 0.4))
    return tile


@lru_cache(maxsize=32)
def _die_tile(value: int, seat: int) -> Image.Image:
    """Pips for 1–5; the Barree face is a thick red bar across the die."""
    tile = Image.new("RGB", (DIE_SIZE, DIE_SIZE), PANEL)
    draw = ImageDraw.Draw(tile)
    box = (0, 0, DIE_SIZE, DIE_SIZE)
    colours = DieColours(edge=SEAT_COLOURS[seat].fill)
    if value != BAR:
        draw_die(draw, box, value, colours)
        return tile
    draw_die(draw, box, value, colours, label="")
    thickness = round(DIE_SIZE * 0.09)
    middle = DIE_SIZE // 2
    inset = round(DIE_SIZE * 0.16)
    bar = (inset, middle - thickness, DIE_SIZE - inset, middle + thickness)
    fill_rounded(draw, bar, 3, DANGER)
    return tile


@lru_cache(maxsize=4)
def _active_panel_tile(seat: int) -> Image.Image:
    """The panel of the player to move: tinted and outlined in his colour."""
    colour = SEAT_COLOURS[seat]
    width = WIDTH - MARGIN - SIDE_LEFT
    tile = Image.new("RGB", (width, PANEL_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    fill = mix(PANEL, colour.fill, 0.16)
    draw_panel(draw, (0, 0, width, PANEL_HEIGHT), fill=fill, edge=colour.fill, edge_width=3)
    return tile


# --- the static layers (cached) -----------------------------------------------------


@lru_cache(maxsize=3)
def _empty_table(players: int) -> Image.Image:
    """Background and every panel in its resting state, for a table of ``players``."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for box in (STATUS_BOX, FOOTER_BOX, _table_box(players)):
        draw_panel(draw, box, fill=PANEL, edge=None)
    for box in _panel_boxes(players):
        draw_panel(draw, box)
    return image


@lru_cache(maxsize=ROWS)
def _board(blockade: int) -> Image.Image:
    """The board panel with lines, row labels, the barrier and plain fields."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_panel(draw, BOARD_BOX, fill=BOARD_FILL, edge=BOARD_FRAME, radius=16, edge_width=4)
    _draw_labels(draw, blockade)
    for a, b in LINES:
        width = 4 if (a, b) in DIAGONALS else 3
        draw_line(draw, field_centre(a), field_centre(b), LINE_COLOUR, width)
    _draw_barrier(draw, blockade)
    for field in FIELDS:
        _paste_field(image, field, BLOCKED if row_of(field) == blockade else PLAIN)
    return image.crop(BOARD_BOX)


def _draw_labels(draw: ImageDraw.ImageDraw, blockade: int) -> None:
    """Number rows down the left (the blockaded one in red), places along the top."""
    label_font = font(TEXT_SIZE, "SemiBold")
    x = BOARD_BOX[0] + 20
    for row in range(1, ROWS + 1):
        y = field_centre(row * 10 + 1)[1]
        colour = DANGER if row == blockade else LABEL_COLOUR
        draw_text_centred(draw, (x, y), str(row), label_font, colour)
    y = GRID_TOP - FIELD_RADIUS - 16
    for column in range(1, COLUMNS + 1):
        x = field_centre(10 + column)[0]
        draw_text_centred(draw, (x, y), str(column), label_font, LABEL_COLOUR)


def _draw_barrier(draw: ImageDraw.ImageDraw, blockade: int) -> None:
    """A red-and-white striped boom along the blockaded row, like a road barrier."""
    left_x, y = field_centre(blockade * 10 + 1)
    right_x, _ = field_centre(blockade * 10 + COLUMNS)
    half = FIELD_RADIUS + 6
    box = (left_x - FIELD_RADIUS - 14, y - half, right_x + FIELD_RADIUS + 14, y + half)
    fill_rounded(draw, box, 10, DANGER)
    inner = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
    fill_rounded(draw, inner, 8, mix(DANGER, WHITE, 0.82))
    stripe, slant = 22, 2 * half - 6
    x = inner[0] + 6
    while x + stripe / 2 + slant < inner[2]:
        points = (
            (x, inner[3] - 1),
            (x + stripe / 2, inner[3] - 1),
            (x + stripe / 2 + slant, inner[1] + 1),
            (x + slant, inner[1] + 1),
        )
        fill_polygon(draw, points, mix(DANGER, WHITE, 0.25))
        x += stripe


# --- the board's dynamic layers -----------------------------------------------------


def _highlighted_seat(view: BarreeView) -> int | None:
    return None if view["phase"] == "over" else view["current"]


def _field_look(view: BarreeView, field: int) -> FieldLook:
    """Plain, blockaded, or ringed in the colour of the player to move if it is his card."""
    blocked = row_of(field) == view["blockade"]
    seat = _highlighted_seat(view)
    if seat is None or field not in view["cards"][seat]:
        return BLOCKED if blocked else PLAIN
    colour = SEAT_COLOURS[seat]
    if blocked:
        return FieldLook(BLOCKED_FILL, colour.fill, TEXT_MUTED, 4)
    return FieldLook(colour.tint, colour.fill, TEXT_DARK, 4, "Bold")


def _draw_highlights(image: Image.Image, view: BarreeView) -> None:
    """The face-up cards of the player to move, ringed in his colour on the board."""
    seat = _highlighted_seat(view)
    if seat is None:
        return
    for card in view["cards"][seat]:
        _paste_field(image, card, _field_look(view, card))


def _draw_last_walk(image: Image.Image, draw: ImageDraw.ImageDraw, view: BarreeView) -> None:
    """The path of the last walk; the cards it discarded tinted in the mover's colour."""
    walk = view.get("last_walk")
    if not walk:
        return
    colour = SEAT_COLOURS[walk["seat"]]
    path = walk["path"]
    for a, b in itertools.pairwise(path):
        draw_line(draw, field_centre(a), field_centre(b), colour.edge, 9)
    for a, b in itertools.pairwise(path):
        draw_line(draw, field_centre(a), field_centre(b), colour.fill, 5)
    discarded = set(walk["discarded"])
    tinted = FieldLook(mix(colour.fill, WHITE, 0.55), colour.edge, TEXT_DARK, 4, "Bold")
    for field in dict.fromkeys(path):
        _paste_field(image, field, tinted if field in discarded else _field_look(view, field))
    draw_ring(draw, field_centre(path[0]), FIELD_RADIUS + 5, 3, colour.edge)
    if len(path) > 1:
        _draw_arrival_arrow(draw, path[-2], path[-1], colour)


def _draw_sendings(draw: ImageDraw.ImageDraw, view: BarreeView) -> None:
    """An arrow from where a piece was driven out to where it was sent, in its colour."""
    for event in view["events"]:
        if event["type"] == "send":
            start = field_centre(view["pieces"][event["seat"]])
            _draw_arrow_between(draw, start, field_centre(event["field"]), event["target"])


def _direction(start: Point, end: Point) -> Point:
    """The unit vector from ``start`` towards ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    return dx / length, dy / length


def _draw_arrow_between(draw: ImageDraw.ImageDraw, start: Point, end: Point, seat: int) -> None:
    ux, uy = _direction(start, end)
    gap = FIELD_RADIUS + 4
    tail = (start[0] + ux * gap, start[1] + uy * gap)
    tip = (end[0] - ux * gap, end[1] - uy * gap)
    draw_arrow(draw, tail, tip, SEAT_COLOURS[seat].edge, width=4, head=16)


def _draw_arrival_arrow(draw: ImageDraw.ImageDraw, before: int, end: int, seat: SeatColour) -> None:
    """An arrow head touching the end field, so the direction of the last step shows."""
    centre = field_centre(end)
    ux, uy = _direction(field_centre(before), centre)
    tip = (centre[0] - ux * (FIELD_RADIUS + 2), centre[1] - uy * (FIELD_RADIUS + 2))
    start = (tip[0] - ux * 26, tip[1] - uy * 26)
    draw_arrow(draw, start, tip, seat.edge, width=5, head=16)


def _draw_pieces(image: Image.Image, view: BarreeView, labels: Sequence[str]) -> None:
    by_field: dict[int, list[int]] = {}
    for seat, field in enumerate(view["pieces"]):
        by_field.setdefault(field, []).append(seat)
    for field, seats in by_field.items():
        x, y = field_centre(field)
        if len(seats) == 1:
            _paste_piece(image, (x, y), PIECE_RADIUS, seats[0], labels[seats[0]])
            continue
        for seat, (dx, dy) in zip(seats, CLUSTER_OFFSETS, strict=False):
            _paste_piece(image, (x + dx, y + dy), SMALL_PIECE_RADIUS, seat, labels[seat])


# --- status and die -----------------------------------------------------------------


def _shown_die(view: BarreeView) -> tuple[int, int] | None:
    """The die and who rolled it: the roll being played, else the last roll of the action."""
    if view["die"] is not None and view["current"] is not None:
        return view["die"], view["current"]
    rolls = [event for event in view["events"] if event["type"] == "roll"]
    if rolls:
        return rolls[-1]["die"], rolls[-1]["seat"]
    return None


def _draw_status(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: BarreeView,
    players: Sequence[str],
    headline: str | None,
    language: str,
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) // 2
    shown = _shown_die(view)
    die_room = DIE_SIZE + 28 if shown else 0
    over = view["phase"] == "over"
    text = headline if headline is not None else barree_text.status(language, view, players)
    text_left = left + 18
    if not over and headline is None and view["current"] is not None:
        draw_turn_marker(draw, (left + 22, middle), 16, SEAT_COLOURS[view["current"]].fill)
        text_left = left + 40
    colour = HIGHLIGHT if over else TEXT
    width = right - text_left - die_room - 16
    _text(draw, (text_left, middle), text, colour, size=22, weight="Bold", width=width)
    if shown:
        value, seat = shown
        image.paste(_die_tile(value, seat), (right - DIE_SIZE - 14, middle - DIE_SIZE // 2))


# --- player panels, piles and key ---------------------------------------------------


def _draw_player_panels(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: BarreeView,
    players: Sequence[str],
    language: str,
) -> None:
    labels = _piece_labels(players)
    for seat, box in enumerate(_panel_boxes(view["players"])):
        score = score_text(language, view, seat)
        _draw_player_panel(image, draw, view, seat, box, players[seat], labels[seat], score)
    entries = table_entries(language, view, players)
    _draw_table_panel(image, draw, entries, _table_box(view["players"]))


def _draw_player_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: BarreeView,
    seat: int,
    box: Box,
    name: str,
    label: str,
    score: str,
) -> None:
    colour = SEAT_COLOURS[seat]
    active = _highlighted_seat(view) == seat
    background = mix(PANEL, colour.fill, 0.16) if active else PANEL
    left, top, right, _ = box
    if active:
        image.paste(_active_panel_tile(seat), (left, top))
    header_y = top + 26
    if active:
        draw_turn_marker(draw, (left + 16, header_y), 14, colour.fill)
    _paste_piece(image, (left + 44, header_y), 16, seat, label)
    score_width = round(font(TEXT_SIZE, "SemiBold").getlength(score))
    _text(draw, (right - 14, header_y), score, TEXT_MUTED, weight="SemiBold", anchor="rm")
    name_colour = TEXT if active else mix(TEXT, TEXT_MUTED, 0.4)
    width = right - left - 80 - score_width - 16
    _text(draw, (left + 68, header_y), name, name_colour, size=22, weight="Bold", width=width)
    x: float = left + 14
    y = header_y + 24
    held = len(view["cards"][seat]) + view["hidden"][seat]
    step = min(CARD_WIDTH + CARD_GAP, (CARD_ROW_WIDTH - CARD_WIDTH) / max(1, held - 1))
    for card in view["cards"][seat]:
        blocked = row_of(card) == view["blockade"]
        image.paste(_card_tile(str(card), seat, blocked, background), (round(x), y))
        x += step
    for _ in range(view["hidden"][seat]):
        image.paste(_card_back_tile(background), (round(x), y))
        x += step


def score_text(language: str, view: BarreeView, seat: int) -> str:
    """A player's cards in his panel's corner: "7 cards", "out!", with the match's minus
    points after them."""
    held = len(view["cards"][seat]) + view["hidden"][seat]
    text = t(language, "out!") if held == 0 else tn(language, "{count} card", "{count} cards", held)
    if view["rounds"] > 1 or view["round_minus"]:
        text += f" · −{view['minus'][seat]}"
    return text


def _draw_table_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    entries: Sequence[tuple[Icon, str]],
    box: Box,
) -> None:
    """The piles, then a key to the board's marks, as many lines as the space holds."""
    fitting = max(1, (box[3] - box[1] - 16) // KEY_LINE)
    shown = entries[:fitting]
    y = (box[1] + box[3]) // 2 - KEY_LINE * (len(shown) - 1) // 2
    width = box[2] - box[0] - 80
    for icon, text in shown:
        tile = _icon_tile(*icon)
        image.paste(tile, (box[0] + 34 - tile.width // 2, y - tile.height // 2))
        _text(draw, (box[0] + 64, y), text, TEXT_MUTED, width=width)
        y += KEY_LINE


Icon = tuple[str, int]


def table_entries(
    language: str, view: BarreeView, players: Sequence[str]
) -> list[tuple[Icon, str]]:
    """The key beside the board: the piles, the blockade, whose cards and walk are marked."""
    top_card, count = view["discard_top"], view["discard_count"]
    if top_card is None:
        discard = t(language, "Discard: {count}", count=count)
    else:
        discard = t(language, "Discard: {count}, top {card}", count=count, card=top_card)
    entries: list[tuple[Icon, str]] = [
        (("barrier", 0), t(language, "Row {row} blocked", row=view["blockade"])),
        (("back", 0), t(language, "Draw pile: {count}", count=view["draw_count"])),
        (("card", 0), discard),
    ]
    seat = _highlighted_seat(view)
    if seat is not None:
        entries.append((("field", seat), t(language, "Cards of {name}", name=players[seat])))
    walk = view.get("last_walk")
    if walk:
        mover = walk["seat"]
        entries.append((("walk", mover), t(language, "Walk of {name}", name=players[mover])))
    if view["revealed"]:
        entries.append((("back", 0), t(language, "Hidden cards shown")))
    return entries


@lru_cache(maxsize=128)
def _icon_tile(kind: str, value: int) -> Image.Image:
    """A 44×32 key icon on the panel colour: a card back, a card, the barrier, a highlighted
    field of seat ``value`` or a walk arrow of seat ``value``."""
    tile = Image.new("RGB", (44, 32), PANEL)
    draw = ImageDraw.Draw(tile)
    x, y = 22, 16
    if kind == "back":
        box = (x - 10, y - 14, x + 10, y + 14)
        draw_panel(draw, box, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.5), radius=4)
    elif kind == "card":
        draw_panel(draw, (x - 10, y - 14, x + 10, y + 14), fill=CARD_FACE, edge=DISABLED, radius=4)
    elif kind == "barrier":
        fill_rounded(draw, (x - 20, y - 7, x + 20, y + 7), 4, DANGER)
        for left in (x - 12, x, x + 12):
            stripe = ((left - 5, y + 5), (left, y + 5), (left + 5, y - 5), (left, y - 5))
            fill_polygon(draw, stripe, mix(DANGER, WHITE, 0.85))
    elif kind == "field":
        colour = SEAT_COLOURS[value]
        draw_disc(draw, (x, y), 12, colour.tint, edge=colour.fill, edge_width=3)
    else:
        draw_arrow(draw, (x - 18, y), (x + 18, y), SEAT_COLOURS[value].fill, width=5, head=12)
    return tile


# --- footer -------------------------------------------------------------------------


def _draw_footer(
    draw: ImageDraw.ImageDraw, view: BarreeView, players: Sequence[str], language: str
) -> None:
    left, top, right, bottom = FOOTER_BOX
    narrated = barree_text.narrate(language, view["events"], players)[-FOOTER_LINES:]
    lines = narrated or [t(language, "No moves yet")]
    line_height = 28
    y = (top + bottom) // 2 - line_height * (len(lines) - 1) // 2
    for line in lines:
        _text(draw, (left + 16, y), line, TEXT, width=right - left - 32)
        y += line_height


def labels(language: str) -> list[Label]:
    """Every word of the board in ``language`` at its longest, with the room it has: a
    panel's card count beside a name, the key beside the board, the status line beside
    the die, and the footer's account of every kind of event with short names."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    view = new_game(players=4, rounds=MAX_ROUNDS).view(None)
    view["cards"][0], view["hidden"][0], view["minus"][0] = list(range(11, 18)), 2, 99
    view["round"], view["round_minus"], view["revealed"] = MAX_ROUNDS, [[9, 9, 9, 9]], True
    view["discard_count"], view["discard_top"], view["draw_count"], view["blockade"] = 40, 86, 40, 8
    view["current"], view["phase"], view["die"] = 0, "move", 5
    view["last_walk"] = {"seat": 0, "path": [11, 12], "discarded": []}
    panel, table = _panel_boxes(4)[0], _table_box(4)
    score_room = panel[2] - panel[0] - 96 - NAME_ROOM
    scores = [score_text(language, view, 0)]
    view["cards"][0], view["hidden"][0] = [], 0
    scores.append(score_text(language, view, 0))
    status_room = STATUS_BOX[2] - STATUS_BOX[0] - 40 - DIE_SIZE - 28 - 16
    footer_room = FOOTER_BOX[2] - FOOTER_BOX[0] - 32
    return [
        *(Label(text, font(TEXT_SIZE, "SemiBold"), score_room) for text in scores),
        *(
            Label(text, font(TEXT_SIZE), table[2] - table[0] - 80)
            for _icon, text in table_entries(language, view, names)
        ),
        Label(barree_text.status(language, view, names), font(22, "Bold"), status_room),
        *(
            Label(text, font(TEXT_SIZE), footer_room)
            for text in barree_text.narrate(language, _every_event(), names)
        ),
    ]


def _every_event() -> list[BarreeEvent]:
    """One event of each kind, with the longest numbers they carry."""
    return [
        {"type": "setup", "round": MAX_ROUNDS, "starter": 0, "blockade": 8},
        {"type": "roll", "seat": 0, "die": BAR},
        {"type": "roll", "seat": 0, "die": 5},
        {"type": "bar", "seat": 0, "card": 86, "row": 8},
        {"type": "trapped", "seat": 0},
        {
            "type": "walk",
            "seat": 0,
            "path": [11, 12, 13, 14, 15, 16],
            "discarded": [12, 13, 14, 15],
        },
        {"type": "send", "seat": 0, "target": 1, "field": 86},
        {"type": "keep", "seat": 0},
        {"type": "reveal", "seat": 0},
        {"type": "finished", "seat": 0, "first": True},
        {"type": "finished", "seat": 0, "first": False},
        {"type": "round_over", "round": MAX_ROUNDS, "minus": [0, 12, 12, 12]},
        {"type": "match_over", "minus": [0, 99, 99, 99]},
        {"type": "reshuffle"},
    ]


REPLAY_PICTURE = draw_barree
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
