"""The Bann board: a view dict (see games/bann/state.py ``view``) becomes a PNG.

Layout, 720×900: two player strips (name, colour, lost knights, die top) on top, a status
panel (whose turn, and under it in plain words which of his knights is banned and that his
tip bans one more; or the result), the 6×6 board with seat 0 at the bottom (rank 1) and
file a on the left, and a footer describing the last move. Every string is at least
18 px, so it stays 11 px tall when a phone shows the picture 450 px wide.

Ban marks are drawn for the player to move: his knight under the opponent's die top is
ringed and struck through; the knight under his own top is not, because he is about to
tip that die away (the new top bans one more, which the status panel says, after the
same mark as a key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.bann import BannView
from render.theme import (
    BACKGROUND,
    BOARD_DARK,
    BOARD_FRAME,
    BOARD_LIGHT,
    DANGER,
    DISABLED,
    HIGHLIGHT,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    TEXT_MUTED,
    Colour,
    SeatColour,
    mix,
)
from render.toolkit.dice import DieColours, draw_die
from render.toolkit.geometry import Box, Point
from render.toolkit.player_strip import draw_player_strip
from render.toolkit.png import encode_png
from render.toolkit.shapes import (
    draw_arrow,
    draw_cross,
    draw_disc,
    draw_line,
    draw_panel,
    draw_ring,
    draw_turn_marker,
    fill_polygon,
)
from render.toolkit.text import (
    Label,
    clean_name,
    draw_text,
    draw_text_centred,
    fit_text,
    font,
    wrap_text,
)
from texts import bann as bann_text
from texts.i18n import ENGLISH, t

WIDTH, HEIGHT = 720, 900
SQUARE = 92
FILES = "abcdef"
RANKS = 6
BOARD_LEFT = (WIDTH - SQUARE * len(FILES)) // 2
BOARD_TOP = 208
BOARD_SIZE = SQUARE * len(FILES)
FRAME = 10
KNIGHT_RADIUS = 33
STRIP_TOP, STRIP_BOTTOM = 16, 104
STATUS_BOX: Box = (16, 116, WIDTH - 16, 184)
STATUS_LINE, BAN_LINE = 138, 166
"""The heights of the status panel's two lines: whose turn, and what is banned."""
FOOTER_BOX: Box = (16, 800, WIDTH - 16, HEIGHT - 12)
NAME_MARK = "\x00"
"""Stands for the player's name in the status sentence until the name is fitted in."""
TEXT_SIZE = 18  # the smallest text: 11 px at a phone's 450 px
DIE_SIZE = 60

BAN_MARK_RADIUS = 8
BAN_TEXT_LEFT = 40
"""Where the ban line's words start in the status panel, after the ban mark as a key."""


def render_bann(
    view: BannView,
    names: Sequence[str],
    headline: str | None = None,
    language: str = ENGLISH,
) -> bytes:
    """PNG bytes of the board in ``view``. ``names[seat]`` are the players' display names;
    ``headline``, when given, replaces the status line (e.g. "Alice resigned — Bob wins");
    every word of the picture is in ``language``."""
    return encode_png(draw_bann(view, names, headline, language))


def draw_bann(
    view: BannView,
    names: Sequence[str],
    headline: str | None = None,
    language: str = ENGLISH,
) -> Image.Image:
    """The picture of ``render_bann`` before encoding (replays compose these)."""
    players = [_player_name(language, names, seat) for seat in range(2)]
    image = _empty_board(tuple(view["castles"])).copy()
    for square, look in _square_looks(view).items():
        image.paste(_square_tile(look), square_box(square)[:2])
    draw = ImageDraw.Draw(image)
    _draw_last_move_arrow(draw, view)
    _draw_castle_badges(draw, view["castles"])
    _draw_strips(draw, language, view, players)
    _draw_status(draw, language, view, players, headline)
    _draw_footer(draw, language, view, players)
    return image


def _player_name(language: str, names: Sequence[str], seat: int) -> str:
    fallback = t(language, bann_text.PLAYER, number=seat + 1)
    return clean_name(names[seat], fallback) if seat < len(names) else fallback


# --- board geometry -----------------------------------------------------------------


def square_box(square: str) -> Box:
    """Pixel box of a square such as "a1" (file a at the left, rank 1 at the bottom)."""
    column = FILES.index(square[0])
    row = RANKS - int(square[1:])
    if not 0 <= row < RANKS:
        raise ValueError(f"not a Bann square: {square!r}")
    left = BOARD_LEFT + column * SQUARE
    top = BOARD_TOP + row * SQUARE
    return (left, top, left + SQUARE, top + SQUARE)


def square_centre(square: str) -> Point:
    left, top, right, bottom = square_box(square)
    return ((left + right) / 2, (top + bottom) / 2)


def _base_colour(square: str, castles: Sequence[str]) -> Colour:
    if square in castles:
        return SEAT_COLOURS[castles.index(square)].tint
    dark = (FILES.index(square[0]) + int(square[1:])) % 2 == 0
    return BOARD_DARK if dark else BOARD_LIGHT


# --- the static board (cached: squares, frame, labels, castles) ---------------------


@lru_cache(maxsize=4)
def _empty_board(castles: tuple[str, ...]) -> Image.Image:
    """Everything that never changes, drawn once; each render starts from a copy."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    frame_box = (
        BOARD_LEFT - FRAME,
        BOARD_TOP - FRAME,
        BOARD_LEFT + BOARD_SIZE + FRAME,
        BOARD_TOP + BOARD_SIZE + FRAME,
    )
    draw_panel(draw, frame_box, fill=BOARD_FRAME, edge=None, radius=10)
    for file in FILES:
        for rank in range(1, RANKS + 1):
            square = f"{file}{rank}"
            look = SquareLook(_base_colour(square, castles), _castle_owner(square, castles))
            image.paste(_square_tile(look), square_box(square)[:2])
    _draw_coordinates(draw)
    for box in (STATUS_BOX, FOOTER_BOX):
        draw_panel(draw, box, fill=PANEL, edge=None)
    return image


@dataclass(frozen=True)
class SquareLook:
    """Everything drawn inside one square; equal looks share one cached tile."""

    colour: Colour
    castle_owner: int | None = None
    knight: tuple[int, int, bool] | None = None  # seat, number, banned
    crossed: bool = False


def _castle_owner(square: str, castles: Sequence[str]) -> int | None:
    return castles.index(square) if square in castles else None


@lru_cache(maxsize=256)
def _square_tile(look: SquareLook) -> Image.Image:
    """One square drawn on its own. Knights sit in a handful of looks that repeat from
    move to move, so each render pastes cached tiles instead of drawing every disc."""
    tile = Image.new("RGB", (SQUARE, SQUARE), look.colour)
    draw = ImageDraw.Draw(tile)
    centre = (SQUARE / 2, SQUARE / 2)
    if look.castle_owner is not None:
        _draw_castle_border(draw, SEAT_COLOURS[look.castle_owner])
    if look.crossed:
        draw_cross(draw, centre, 34, DANGER, width=7)
    if look.knight is not None:
        seat, number, banned = look.knight
        draw_knight = _draw_banned_knight if banned else _draw_knight
        draw_knight(draw, centre, SEAT_COLOURS[seat], str(number))
    return tile


def _draw_castle_border(draw: ImageDraw.ImageDraw, seat: SeatColour) -> None:
    """A triple inner border in the owner's colour, visible around a knight."""
    for inset in range(4, 7):
        draw.rectangle((inset, inset, SQUARE - inset - 1, SQUARE - inset - 1), outline=seat.fill)


def _draw_castle_badges(draw: ImageDraw.ImageDraw, castles: Sequence[str]) -> None:
    """A tower badge in each castle's corner, drawn over any knight standing there."""
    for seat, square in enumerate(castles):
        colour = SEAT_COLOURS[seat]
        left, top, _, _ = square_box(square)
        centre = (left + 17, top + 17)
        draw_disc(draw, centre, 13, colour.tint, edge=colour.fill, edge_width=2)
        _draw_tower(draw, (centre[0] - 7, centre[1] - 7), 14, colour.edge)


def _draw_tower(draw: ImageDraw.ImageDraw, top_left: Point, size: float, colour: Colour) -> None:
    outline = (
        (0.12, 1.0), (0.12, 0.38), (0.0, 0.38), (0.0, 0.0), (0.22, 0.0), (0.22, 0.16),
        (0.39, 0.16), (0.39, 0.0), (0.61, 0.0), (0.61, 0.16), (0.78, 0.16), (0.78, 0.0),
        (1.0, 0.0), (1.0, 0.38), (0.88, 0.38), (0.88, 1.0),
    )  # fmt: skip
    x, y = top_left
    fill_polygon(draw, [(x + px * size, y + py * size) for px, py in outline], colour)


def _draw_coordinates(draw: ImageDraw.ImageDraw) -> None:
    label_font = font(TEXT_SIZE, "SemiBold")
    for index, file in enumerate(FILES):
        x = BOARD_LEFT + index * SQUARE + SQUARE / 2
        draw_text_centred(
            draw, (x, BOARD_TOP + BOARD_SIZE + FRAME + 14), file, label_font, TEXT_MUTED
        )
    for rank in range(1, RANKS + 1):
        y = BOARD_TOP + (RANKS - rank) * SQUARE + SQUARE / 2
        draw_text_centred(draw, (BOARD_LEFT - FRAME - 16, y), str(rank), label_font, TEXT_MUTED)


# --- dynamic layers -----------------------------------------------------------------


def _square_looks(view: BannView) -> dict[str, SquareLook]:
    """The squares that differ from the empty board: knights, the last move, captures."""
    castles = view["castles"]
    last = view.get("last_move")
    moved = {last["from"], last["to"]} if last else set()
    captured = set(last.get("captured") or []) if last else set()
    banned = banned_for_mover(view)
    mover = view["turn"]
    knights = {
        knight["square"]: (
            knight["seat"],
            knight["number"],
            knight["seat"] == mover and knight["number"] == banned,
        )
        for knight in view["knights"]
    }
    looks = {}
    for square in moved | captured | set(knights):
        colour = _base_colour(square, castles)
        if square in moved:
            colour = mix(colour, HIGHLIGHT, 0.6)
        elif square in captured:
            colour = mix(colour, DANGER, 0.22)
        looks[square] = SquareLook(
            colour, _castle_owner(square, castles), knights.get(square), square in captured
        )
    return looks


def _draw_last_move_arrow(draw: ImageDraw.ImageDraw, view: BannView) -> None:
    last = view.get("last_move")
    if not last:
        return
    start, end = square_centre(last["from"]), square_centre(last["to"])
    length = max(1.0, ((end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2) ** 0.5)
    gap = KNIGHT_RADIUS + 3
    tip = (end[0] - (end[0] - start[0]) * gap / length, end[1] - (end[1] - start[1]) * gap / length)
    draw_arrow(draw, start, tip, SEAT_COLOURS[last["seat"]].edge, width=7)


def _draw_knight(draw: ImageDraw.ImageDraw, centre: Point, seat: SeatColour, label: str) -> None:
    draw_disc(
        draw,
        centre,
        KNIGHT_RADIUS,
        seat.fill,
        edge=seat.edge,
        label=label,
        label_colour=seat.text,
        label_size=32,
        shadow=True,
    )


def _draw_banned_knight(
    draw: ImageDraw.ImageDraw, centre: Point, seat: SeatColour, label: str
) -> None:
    """Greyed in the seat's hue, ringed and struck through in red: may not move now. The
    number goes on top of the strike so it stays readable."""
    draw_disc(
        draw,
        centre,
        KNIGHT_RADIUS,
        mix(seat.fill, DISABLED, 0.6),
        edge=mix(seat.edge, DISABLED, 0.4),
        shadow=True,
    )
    _draw_ban_mark(draw, centre, KNIGHT_RADIUS, 5)
    draw_text_centred(draw, centre, label, font(32, "Bold"), seat.text)


def _draw_ban_mark(draw: ImageDraw.ImageDraw, centre: Point, radius: float, width: int) -> None:
    """A red ring round ``radius`` and a red strike across it: the mark of a banned knight."""
    draw_ring(draw, centre, radius + width + 1, width, DANGER)
    offset = (radius + 2) * 0.7071
    draw_line(
        draw,
        (centre[0] - offset, centre[1] + offset),
        (centre[0] + offset, centre[1] - offset),
        DANGER,
        width=width,
    )


STRIP_WIDTH = (WIDTH - 16 * 3) // 2
STRIP_TEXT_WIDTH = STRIP_WIDTH - (DIE_SIZE + 22) - 12 - 76
"""Room for the name and detail of a player's strip (``draw_player_strip``'s layout:
76 px of marker and swatch, the die reserved at the right)."""
NAME_ROOM = 140
"""The least room the status line keeps for the mover's name (about ten letters)."""


def labels(language: str) -> list[Label]:
    """Every fixed text of the board picture in ``language``, with the room it has: the
    longest words of a language must fit without being cut."""
    detail_font = font(TEXT_SIZE)
    status_font = font(22, "Bold")
    ban_font = font(TEXT_SIZE, "SemiBold")
    details = [
        bann_text.strip_detail(language, lost, won) for lost in range(7) for won in (False, True)
    ]
    to_move = t(language, bann_text.TO_MOVE_STATUS, name="")
    bans = [t(language, bann_text.BANNED_NOW, number=6), t(language, bann_text.NONE_BANNED_NOW)]
    left, _top, right, _bottom = STATUS_BOX
    return [
        *(Label(detail, detail_font, STRIP_TEXT_WIDTH) for detail in details),
        Label(to_move, status_font, right - left - 60 - NAME_ROOM),
        *(Label(ban, ban_font, right - left - BAN_TEXT_LEFT - 16) for ban in bans),
    ]


def _draw_strips(
    draw: ImageDraw.ImageDraw, language: str, view: BannView, players: Sequence[str]
) -> None:
    half = STRIP_WIDTH
    for seat in range(2):
        left = 16 + seat * (half + 16)
        box = (left, STRIP_TOP, left + half, STRIP_BOTTOM)
        detail = strip_detail(language, view, seat)
        colour = SEAT_COLOURS[seat]
        draw_player_strip(
            draw,
            box,
            players[seat],
            colour,
            active=view["turn"] == seat,
            detail=detail,
            reserve_right=DIE_SIZE + 22,
            detail_size=TEXT_SIZE,
        )
        die_top = STRIP_TOP + (STRIP_BOTTOM - STRIP_TOP - DIE_SIZE) // 2
        die_box = (box[2] - DIE_SIZE - 14, die_top, box[2] - 14, die_top + DIE_SIZE)
        draw_die(draw, die_box, view["dice"][seat], DieColours(edge=colour.fill))


def strip_detail(language: str, view: BannView, seat: int) -> str:
    """The line under a player's name: the knights he lost, and whether he won."""
    won = bool(view["over"]) and view.get("winner") == seat
    return bann_text.strip_detail(language, view["captured_count"][seat], won)


def _draw_status(
    draw: ImageDraw.ImageDraw,
    language: str,
    view: BannView,
    players: Sequence[str],
    headline: str | None,
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) / 2
    status_font = font(22, "Bold")
    seat = view["turn"]
    if headline is not None or view["over"] or seat is None:
        text = headline if headline is not None else bann_text.result(language, view, players)
        draw_text_centred(
            draw,
            ((left + right) / 2, middle),
            fit_text(text, status_font, right - left - 32),
            status_font,
            HIGHLIGHT,
        )
        return
    draw_turn_marker(draw, (left + 22, STATUS_LINE), 16, SEAT_COLOURS[seat].fill)
    # The sentence is translated whole; only the name in it is shortened to fit.
    before, after = t(language, bann_text.TO_MOVE_STATUS, name=NAME_MARK).split(NAME_MARK)
    name_width = right - left - 60 - status_font.getlength(before + after)
    text = before + fit_text(players[seat], status_font, name_width) + after
    draw_text(draw, (left + 40, STATUS_LINE), text, status_font, TEXT, anchor="lm")
    ban = bann_text.ban_line(language, view)
    if ban is not None:
        _draw_ban_mark(draw, (left + 22, BAN_LINE), BAN_MARK_RADIUS, 3)
        ban_font = font(TEXT_SIZE, "SemiBold")
        width = right - left - BAN_TEXT_LEFT - 16
        fitted = fit_text(ban, ban_font, width)
        draw_text(draw, (left + BAN_TEXT_LEFT, BAN_LINE), fitted, ban_font, TEXT_MUTED, anchor="lm")


def banned_for_mover(view: BannView) -> int | None:
    """The number of the mover's knight that may not move whatever he tips: the one under
    his opponent's die top. His own top bans nothing he must care about (he tips it away),
    and the top he tips to bans one more. None once the game is over."""
    seat = view["turn"]
    if view["over"] or seat is None:
        return None
    return view["dice"][1 - seat]


def _draw_footer(
    draw: ImageDraw.ImageDraw, language: str, view: BannView, players: Sequence[str]
) -> None:
    left, top, right, bottom = FOOTER_BOX
    width = right - left - 32
    line_font = font(TEXT_SIZE)
    lines: list[tuple[str, Colour]] = [
        (line, TEXT)
        for line in wrap_text(bann_text.last_move(language, view, players), line_font, width)
    ]
    offer = view["draw_offer"]
    if offer is not None and not view["over"]:
        lines.append(
            (
                fit_text(
                    t(language, bann_text.DRAW_OFFERED, offerer=players[offer]), line_font, width
                ),
                HIGHLIGHT,
            )
        )
    line_height = 25
    y = (top + bottom) / 2 - line_height * (len(lines) - 1) / 2
    for text, colour in lines:
        draw_text(draw, (left + 16, y), text, line_font, colour, anchor="lm")
        y += line_height


REPLAY_PICTURE = draw_bann
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
