"""The Gul Bara board: a view dict (see games/gulbara/state.py ``view``) becomes a PNG.

Layout, 890×932: two player strips (name, colour, pips, borne off) on top, a status line
(whose turn and the roll, or the result, and the match score), the classic board seen
from the viewing seat's side — its 24 top right, its home 1–6 bottom right, its tray at
the right — the opponent's tray at the top left beside his home, the dice and the
escalation chain (or when doubles start to escalate) in the middle band, and a footer
with this turn's steps and the last turn. Every point carries both players' numbers,
each row in its player's colour behind a checker of his: the viewer's next to the board,
the opponent's outside them, so either player's steps can be followed in the numbering
he wrote them in. Every string is at least 22 px, 11 px when a phone shows the picture
450 px wide.

The viewing seat stays the same for a whole game (the cog passes the first human seat),
so the board never turns between turns. Steps are written in their mover's numbering,
marked as his when he is not the viewer (``texts.gulbara.steps_text``, which the
messages use too).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.gulbara import GRACE_ROLLS, MAX_MATCH, GulbaraTurn, GulbaraView, new_game
from render.theme import (
    BACKGROUND,
    BOARD_DARK,
    BOARD_FRAME,
    BOARD_LIGHT,
    HIGHLIGHT,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    WHITE,
    Colour,
    mix,
)
from render.toolkit.dice import DieColours, draw_die
from render.toolkit.geometry import Box, Point
from render.toolkit.player_strip import draw_player_strip
from render.toolkit.png import encode_png
from render.toolkit.shapes import (
    draw_arrow,
    draw_disc,
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
from texts import gulbara as gulbara_text
from texts.gulbara import board_point, parse_step, seat_point, steps_text
from texts.i18n import ENGLISH, N_, t, tn

WIDTH, HEIGHT = 890, 932
TEXT_SIZE = 22  # the smallest text: 11 px at a phone's 450 px
STRIP_TOP, STRIP_BOTTOM = 12, 96
STRIP_WIDTH = (WIDTH - 16 * 3) // 2
STRIP_TEXT_INSET = 88  # what draw_player_strip keeps for marker, swatch and margins
MATCH_SCORE_ROOM = 64
NAME_ROOM = 150  # the least a name keeps beside the status line's words
STATUS_BOX: Box = (16, 104, WIDTH - 16, 152)
FOOTER_LINES, FOOTER_LINE_HEIGHT = 4, 27
FOOTER_BOX: Box = (16, 798, WIDTH - 16, HEIGHT - 12)

POINT_WIDTH = 56
BAR_WIDTH = 32
FRAME = 12
BOARD_LEFT = 90
NUMBER_ROW = 26
"""The distance between the viewer's row of point numbers and the opponent's."""
BOARD_TOP = 184 + NUMBER_ROW + FRAME
BOARD_WIDTH = 12 * POINT_WIDTH + BAR_WIDTH
BOARD_HEIGHT = 502
BOARD_BOTTOM = BOARD_TOP + BOARD_HEIGHT
BOARD_RIGHT = BOARD_LEFT + BOARD_WIDTH
TRIANGLE_HEIGHT = 212
MIDDLE_Y = BOARD_TOP + BOARD_HEIGHT / 2

CHECKER_RADIUS = 25
STACK_STEP = 41
STACK_VISIBLE = 5
TRAY_WIDTH = 56
TRAY_HEIGHT = 226
SLAB_HEIGHT = 12
DIE_SIZE = 46

TRIANGLE_LIGHT: Colour = BOARD_DARK
TRIANGLE_DARK: Colour = mix(BOARD_FRAME, BOARD_DARK, 0.35)
FELT: Colour = BOARD_LIGHT
BAR: Colour = mix(BOARD_FRAME, BACKGROUND, 0.25)
# Names and move lists repeat from render to render; measuring them is the costly part.
_fit = lru_cache(maxsize=1024)(fit_text)
GHOST: Colour = mix(BOARD_FRAME, BOARD_LIGHT, 0.35)
USED_DIE = DieColours(face=(150, 150, 156), pip=(95, 95, 102), edge=(110, 110, 118))


def render_gulbara(
    view: GulbaraView,
    names: Sequence[str],
    headline: str | None = None,
    viewer: int = 0,
    language: str = ENGLISH,
) -> bytes:
    """PNG bytes of the board in ``view``. ``names[seat]`` are the players' display names;
    ``headline``, when given, replaces the status line. ``viewer`` is the seat whose
    numbering the points and every written step carry (its home bottom right): keep it
    the same for a whole game so the board never turns. Every word is in ``language``."""
    return encode_png(draw_gulbara(view, names, headline, viewer, language))


def draw_gulbara(
    view: GulbaraView,
    names: Sequence[str],
    headline: str | None = None,
    viewer: int = 0,
    language: str = ENGLISH,
) -> Image.Image:
    """The picture of ``render_gulbara`` before encoding (replays compose these)."""
    players = [_player_name(language, names, seat) for seat in range(2)]
    image = _empty_board(viewer).copy()
    draw = ImageDraw.Draw(image)
    _draw_last_turn_marks(draw, view, viewer)
    _draw_checkers(draw, view, viewer)
    _draw_trays(draw, view, viewer, language)
    _draw_current_steps(draw, view, viewer)
    _draw_middle(draw, view, players, language)
    _draw_strips(draw, view, players, language)
    _draw_status(draw, view, players, headline, language)
    _draw_footer(draw, view, players, viewer, language)
    return image


def _player_name(language: str, names: Sequence[str], seat: int) -> str:
    fallback = t(language, "Player {number}", number=seat + 1)
    return clean_name(names[seat], fallback) if seat < len(names) else fallback


# --- geometry -----------------------------------------------------------------------


def point_column(point: int) -> tuple[float, bool]:
    """Left x of the viewer's ``point`` and whether it is in the top row."""
    top = point >= 13
    column = point - 13 if top else 12 - point
    left = BOARD_LEFT + column * POINT_WIDTH + (BAR_WIDTH if column >= 6 else 0)
    return left, top


def checker_centre(point: int, index: int) -> Point:
    """Centre of the ``index``-th checker (0 at the board edge) on the viewer's ``point``."""
    left, top = point_column(point)
    x = left + POINT_WIDTH / 2
    offset = CHECKER_RADIUS + 2 + index * STACK_STEP
    return (x, BOARD_TOP + offset if top else BOARD_BOTTOM - offset)


def tray_box(seat: int, viewer: int) -> Box:
    """The viewer's tray at the bottom right, the opponent's at the top left."""
    if seat == viewer:
        left = BOARD_RIGHT + FRAME + 10
        return (left, BOARD_BOTTOM - TRAY_HEIGHT, left + TRAY_WIDTH, BOARD_BOTTOM)
    right = BOARD_LEFT - FRAME - 10
    return (right - TRAY_WIDTH, BOARD_TOP, right, BOARD_TOP + TRAY_HEIGHT)


# --- the static board (cached per viewing seat) ---------------------------------------


@lru_cache(maxsize=2)
def _empty_board(viewer: int) -> Image.Image:
    """Frame, felt, triangles, bar, point numbers, trays and panels: drawn once."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    frame = (BOARD_LEFT - FRAME, BOARD_TOP - FRAME, BOARD_RIGHT + FRAME, BOARD_BOTTOM + FRAME)
    draw_panel(draw, frame, fill=BOARD_FRAME, edge=None, radius=12)
    draw.rectangle((BOARD_LEFT, BOARD_TOP, BOARD_RIGHT - 1, BOARD_BOTTOM - 1), fill=FELT)
    bar_left = BOARD_LEFT + 6 * POINT_WIDTH
    draw.rectangle((bar_left, BOARD_TOP, bar_left + BAR_WIDTH - 1, BOARD_BOTTOM - 1), fill=BAR)
    for point in range(1, 25):
        _paint_triangle(draw, point, _triangle_colour(point))
    _draw_point_numbers(draw, viewer)
    for seat in range(2):
        box = tray_box(seat, viewer)
        draw_panel(draw, box, fill=BOARD_FRAME, edge=None, radius=8)
        inner = (box[0] + 5, box[1] + 5, box[2] - 5, box[3] - 5)
        draw_panel(draw, inner, fill=mix(BOARD_FRAME, BACKGROUND, 0.45), edge=None, radius=5)
    for box in (STATUS_BOX, FOOTER_BOX):
        draw_panel(draw, box, fill=PANEL, edge=None)
    return image


def number_colour(seat: int) -> Colour:
    """The colour of a seat's point numbers: its checkers' hue, light enough to read on
    the background."""
    return mix(SEAT_COLOURS[seat].fill, WHITE, 0.4)


def number_rows(viewer: int) -> list[tuple[int, float, float]]:
    """Each row of point numbers as ``(seat, y above the board, y below it)``: the
    viewer's next to the board, the opponent's outside them."""
    inner_top, inner_bottom = BOARD_TOP - FRAME - 16, BOARD_BOTTOM + FRAME + 16
    return [
        (viewer, inner_top, inner_bottom),
        (1 - viewer, inner_top - NUMBER_ROW, inner_bottom + NUMBER_ROW),
    ]


def _draw_point_numbers(draw: ImageDraw.ImageDraw, viewer: int) -> None:
    """Both players' numbers of every point, each row after a small checker of its seat."""
    number_font = font(TEXT_SIZE, "SemiBold")
    for seat, above, below in number_rows(viewer):
        colour = number_colour(seat)
        for point in range(1, 25):
            left, top = point_column(point)
            number = str(board_point(point, viewer, seat))
            centre = (left + POINT_WIDTH / 2, above if top else below)
            draw_text_centred(draw, centre, number, number_font, colour)
        for y in (above, below):
            checker = SEAT_COLOURS[seat]
            draw_disc(draw, (BOARD_LEFT - FRAME - 22, y), 9, checker.fill, edge=checker.edge)


def _triangle_colour(point: int) -> Colour:
    return TRIANGLE_DARK if point % 2 else TRIANGLE_LIGHT


def _paint_triangle(draw: ImageDraw.ImageDraw, point: int, colour: Colour) -> None:
    left, top = point_column(point)
    right = left + POINT_WIDTH
    if top:
        corners = ((left + 2, BOARD_TOP), (right - 2, BOARD_TOP))
        tip = (left + POINT_WIDTH / 2, BOARD_TOP + TRIANGLE_HEIGHT)
    else:
        corners = ((left + 2, BOARD_BOTTOM), (right - 2, BOARD_BOTTOM))
        tip = (left + POINT_WIDTH / 2, BOARD_BOTTOM - TRIANGLE_HEIGHT)
    fill_polygon(draw, (*corners, tip), colour)


# --- dynamic layers -------------------------------------------------------------------


def _draw_last_turn_marks(draw: ImageDraw.ImageDraw, view: GulbaraView, viewer: int) -> None:
    """The points the last completed turn left and reached, tinted in its player's colour."""
    last = _last_played_turn(view)
    if last is None:
        return
    seat = last["seat"]
    tint = SEAT_COLOURS[seat].fill
    for step in last["steps"]:
        source, target = parse_step(step)
        for point in (source, target):
            if point is not None:
                shown = board_point(point, seat, viewer)
                base = _triangle_colour(shown)
                _paint_triangle(draw, shown, mix(base, tint, 0.45))


def _last_played_turn(view: GulbaraView) -> GulbaraTurn | None:
    for turn in reversed(view["recent_turns"]):
        if turn["steps"]:
            return turn
    return None


def _draw_checkers(draw: ImageDraw.ImageDraw, view: GulbaraView, viewer: int) -> None:
    count_font = font(22, "Bold")
    for point in range(1, 25):
        value = view["points"][seat_point(point, viewer) - 1]
        if not value:
            continue
        seat = 0 if value > 0 else 1
        colour = SEAT_COLOURS[seat]
        count = abs(value)
        shown = min(count, STACK_VISIBLE)
        for index in range(shown):
            label = str(count) if index == shown - 1 and count > STACK_VISIBLE else None
            draw_disc(
                draw,
                checker_centre(point, index),
                CHECKER_RADIUS,
                colour.fill,
                edge=colour.edge,
                edge_width=3,
                label=label,
                label_colour=colour.text,
                label_size=int(count_font.size),
                shadow=True,
            )


def _draw_trays(draw: ImageDraw.ImageDraw, view: GulbaraView, viewer: int, language: str) -> None:
    """Borne-off checkers as slabs, filling from the board's edge, with the count."""
    count_font = font(TEXT_SIZE, "Bold")
    for seat in range(2):
        left, top, right, bottom = tray_box(seat, viewer)
        colour = SEAT_COLOURS[seat]
        off = view["off"][seat]
        from_bottom = seat == viewer
        for index in range(off):
            offset = 9 + index * (SLAB_HEIGHT + 2)
            slab_top = bottom - offset - SLAB_HEIGHT if from_bottom else top + offset
            slab = (left + 9, slab_top, right - 10, slab_top + SLAB_HEIGHT - 1)
            draw.rectangle(slab, fill=colour.fill, outline=colour.edge, width=2)
        label_y = top - 16 if from_bottom else bottom + 16
        label = borne_off(language, off)
        draw_text_centred(draw, ((left + right) / 2, label_y), label, count_font, TEXT)


def borne_off(language: str, count: int) -> str:
    """The checkers a player has borne off: "3 off"."""
    return tn(language, "{count} off", "{count} off", count)


def _draw_current_steps(draw: ImageDraw.ImageDraw, view: GulbaraView, viewer: int) -> None:
    """This turn's steps: a ring on every checker that arrived, a hollow ghost where one
    left (rings, not arrows: a 1-1 chain can make two dozen steps)."""
    seat = view["turn"]
    if seat is None or not view["played"]:
        return
    arrivals: dict[int | None, int] = {}
    departures: set[int] = set()
    for step in view["played"]:
        source, target = parse_step(step)
        departures.add(board_point(source, seat, viewer))
        point = None if target is None else board_point(target, seat, viewer)
        arrivals[point] = arrivals.get(point, 0) + 1
    for point in departures:
        count = min(abs(view["points"][seat_point(point, viewer) - 1]), STACK_VISIBLE)
        if count < STACK_VISIBLE:
            draw_ring(draw, checker_centre(point, count), CHECKER_RADIUS, 3, GHOST)
    for point, arrived in arrivals.items():
        if point is None:
            continue
        count = min(abs(view["points"][seat_point(point, viewer) - 1]), STACK_VISIBLE)
        for index in range(max(0, count - arrived), count):
            draw_ring(draw, checker_centre(point, index), CHECKER_RADIUS + 2, 4, HIGHLIGHT)


def _draw_middle(
    draw: ImageDraw.ImageDraw, view: GulbaraView, players: Sequence[str], language: str
) -> None:
    """Dice on the right half of the middle band; chain and grace period on the left."""
    if view["over"] or view["turn"] is None:
        return
    colour = SEAT_COLOURS[view["turn"]]
    faces = _dice_faces(view)
    right_half_centre = BOARD_LEFT + 9 * POINT_WIDTH + BAR_WIDTH
    gap = 10
    total = len(faces) * DIE_SIZE + (len(faces) - 1) * gap
    x = right_half_centre - total / 2
    for value, used in faces:
        box = (round(x), round(MIDDLE_Y - DIE_SIZE / 2))
        die_box = (box[0], box[1], box[0] + DIE_SIZE, box[1] + DIE_SIZE)
        draw_die(draw, die_box, value, USED_DIE if used else DieColours(edge=colour.fill))
        x += DIE_SIZE + gap
    lines = grace_lines(view, players, language)
    chain = _chain_stages(view)
    line_font = font(TEXT_SIZE, "SemiBold")
    centre_x = BOARD_LEFT + 3 * POINT_WIDTH
    row_height = 30
    if chain:
        _draw_chain(draw, chain, centre_x, MIDDLE_Y)
        return
    y = MIDDLE_Y - row_height * (len(lines) - 1) / 2
    for text in lines:
        fitted = _fit(text, line_font, 6 * POINT_WIDTH - 16)
        draw_text_centred(draw, (centre_x, y), fitted, line_font, TEXT_MUTED)
        y += row_height


def _chain_stages(view: GulbaraView) -> list[tuple[int, str]]:
    """The doubles of an escalating turn: ``(number, "done" | "now" | "next")``."""
    if view["stage"] is None or not (view["chain"] or len(view["stages"]) > 1):
        return []
    done = [(value, "done") for value in view["stages"][:-1]]
    return [*done, (view["stage"], "now"), *((value, "next") for value in view["chain"])]


CHIP_WIDTH, CHIP_HEIGHT, CHIP_GAP = 44, 30, 12


def _draw_chain(
    draw: ImageDraw.ImageDraw, stages: list[tuple[int, str]], centre_x: float, y: float
) -> None:
    """Chips "1-1" … "6-6" joined by arrows: played ones dim, the current one lit."""
    chip_font = font(TEXT_SIZE, "Bold")
    total = len(stages) * CHIP_WIDTH + (len(stages) - 1) * CHIP_GAP
    x = centre_x - total / 2
    for index, (value, state) in enumerate(stages):
        box = (
            round(x),
            round(y - CHIP_HEIGHT / 2),
            round(x + CHIP_WIDTH),
            round(y + CHIP_HEIGHT / 2),
        )
        if state == "now":
            draw_panel(draw, box, fill=HIGHLIGHT, edge=None, radius=7)
            ink = TEXT_DARK
        elif state == "done":
            draw_panel(draw, box, fill=mix(FELT, TEXT_MUTED, 0.35), edge=None, radius=7)
            ink = mix(TEXT_DARK, FELT, 0.35)
        else:
            draw_panel(draw, box, fill=FELT, edge=BOARD_FRAME, radius=7, edge_width=2)
            ink = BOARD_FRAME
        draw_text_centred(draw, (x + CHIP_WIDTH / 2, y), f"{value}-{value}", chip_font, ink)
        if index < len(stages) - 1:
            start = (x + CHIP_WIDTH + 3, y)
            draw_arrow(
                draw, start, (x + CHIP_WIDTH + CHIP_GAP - 2, y), BOARD_FRAME, width=2, head=5
            )
        x += CHIP_WIDTH + CHIP_GAP


def _dice_faces(view: GulbaraView) -> list[tuple[int, bool]]:
    """Each die of the current stage with whether it is already used."""
    remaining = list(view["dice"])
    if view["stage"] is not None:
        return [(view["stage"], index >= len(remaining)) for index in range(4)]
    faces = []
    for value in view["roll"]:
        if value in remaining:
            remaining.remove(value)
            faces.append((value, False))
        else:
            faces.append((value, True))
    return faces


ESCALATION_FROM = N_("Doubles escalate from roll {number}")
ESCALATING_NOW = N_("Doubles escalate now")


def grace_lines(view: GulbaraView, players: Sequence[str], language: str = ENGLISH) -> list[str]:
    """When the mover's doubles start to escalate, in two short lines at most (the middle
    band is drawn when no chain is shown): "Doubles escalate from roll 4", "Alice: 2 rolls
    to go" while he is on his second roll. Each player's first GRACE_ROLLS rolls are
    exempt, so the count is the rolls from this one to the first that escalates."""
    seat = view["turn"]
    if seat is None:
        return []
    to_go = view["grace_left"][seat]
    if not to_go:
        return [t(language, ESCALATING_NOW)]
    # the first name only, cut so it fits beside the count in the board's left half
    name = _fit(players[seat].split()[0], font(TEXT_SIZE, "SemiBold"), 150)
    return [
        t(language, ESCALATION_FROM, number=GRACE_ROLLS + 1),
        tn(language, "{name}: {count} roll to go", "{name}: {count} rolls to go", to_go, name=name),
    ]


def _draw_strips(
    draw: ImageDraw.ImageDraw, view: GulbaraView, players: Sequence[str], language: str
) -> None:
    half = STRIP_WIDTH
    for seat in range(2):
        left = 16 + seat * (half + 16)
        box = (left, STRIP_TOP, left + half, STRIP_BOTTOM)
        draw_player_strip(
            draw,
            box,
            players[seat],
            SEAT_COLOURS[seat],
            active=view["turn"] == seat,
            detail=strip_detail(language, view, seat),
            reserve_right=MATCH_SCORE_ROOM if view["match_to"] > 1 else 0,
            detail_size=TEXT_SIZE,
        )
        if view["match_to"] > 1:
            score_font = font(30, "Bold")
            middle = (STRIP_TOP + STRIP_BOTTOM) / 2
            score = str(view["score"][seat])
            draw_text(draw, (box[2] - 24, middle), score, score_font, TEXT, anchor="rm")


def strip_detail(language: str, view: GulbaraView, seat: int) -> str:
    """A player's race under his name: "Winner · 0 pips · 15 off"."""
    pips = tn(language, "{count} pip", "{count} pips", view["pips"][seat])
    parts = [pips, borne_off(language, view["off"][seat])]
    if view["over"] and view["winner"] == seat:
        parts.insert(0, t(language, "Winner"))
    return " · ".join(parts)


def _draw_status(
    draw: ImageDraw.ImageDraw,
    view: GulbaraView,
    players: Sequence[str],
    headline: str | None,
    language: str,
) -> None:
    left, top, right, bottom = STATUS_BOX
    middle = (top + bottom) / 2
    status_font = font(22, "Bold")
    match_font = font(TEXT_SIZE, "SemiBold")
    match = match_text(view, language)
    match_width = match_font.getlength(match) + 24 if match else 0
    if match:
        draw_text(draw, (right - 16, middle), match, match_font, TEXT_MUTED, anchor="rm")
    seat = view["turn"]
    if headline is not None or view["over"] or seat is None:
        text = headline if headline is not None else gulbara_text.result(language, view, players)
        width = right - left - 32 - 2 * match_width
        draw_text_centred(
            draw,
            ((left + right) / 2, middle),
            _fit(text, status_font, width),
            status_font,
            HIGHLIGHT,
        )
        return
    draw_turn_marker(draw, (left + 22, middle), 16, SEAT_COLOURS[seat].fill)
    sentence = to_move(language, view["roll"])
    name_width = right - left - 60 - match_width - status_font.getlength(sentence.format(name=""))
    text = sentence.format(name=_fit(players[seat], status_font, name_width))
    draw_text(draw, (left + 40, middle), text, status_font, TEXT, anchor="lm")


def to_move(language: str, roll: Sequence[int]) -> str:
    """The status line of the player to move, his ``{name}`` still to fill in (it is cut
    to the room the rest of the sentence leaves)."""
    if len(roll) == 2:
        rolled = gulbara_text.dice_roll(roll)
        return t(language, "{name} to move · rolled {roll}", name="{name}", roll=rolled)
    return t(language, "{name} to move", name="{name}")


def match_text(view: GulbaraView, language: str = ENGLISH) -> str | None:
    if view["match_to"] <= 1:
        return None
    return t(
        language, "Game {number} · to {target}", number=view["game_number"], target=view["match_to"]
    )


def _draw_footer(
    draw: ImageDraw.ImageDraw,
    view: GulbaraView,
    players: Sequence[str],
    viewer: int,
    language: str,
) -> None:
    left, top, right, bottom = FOOTER_BOX
    width = right - left - 32
    line_font = font(TEXT_SIZE)
    lines = [
        (line, colour)
        for text, colour in footer_lines(view, players, viewer, language)
        for line in wrap_text(text, line_font, width)
        if line
    ][-FOOTER_LINES:]
    y = (top + bottom) / 2 - FOOTER_LINE_HEIGHT * (len(lines) - 1) / 2
    for text, colour in lines:
        draw_text(draw, (left + 16, y), text, line_font, colour, anchor="lm")
        y += FOOTER_LINE_HEIGHT


def footer_lines(
    view: GulbaraView, players: Sequence[str], viewer: int = 0, language: str = ENGLISH
) -> list[tuple[str, Colour]]:
    """Two entries at most: this turn's steps, the last turn, the last game's result (in a
    match) and the opening roll, the most recent last; steps in ``viewer``'s numbering."""
    lines: list[tuple[str, Colour]] = []
    recent = view["recent_turns"]
    last_game = view["last_game"]
    if last_game and (view["over"] or not recent) and view["match_to"] > 1:
        result = gulbara_text.game_result(language, last_game, players)
        number = last_game["game_number"]
        label = t(language, gulbara_text.GAME_NUMBERED, number=number, result=result)
        lines.append((label, TEXT_MUTED))
    if recent:
        lines.append((gulbara_text.last_turn(language, recent[-1], players, viewer), TEXT))
        if view["over"]:
            lines.reverse()
    elif view["opening"] and not view["played"]:
        first, second = view["opening"]
        opening = t(
            language,
            gulbara_text.OPENING_ROLL,
            first=players[0],
            first_roll=first,
            second=players[1],
            second_roll=second,
        )
        lines.append((opening, TEXT))
    seat = view["turn"]
    if seat is not None and view["played"]:
        steps = steps_text(language, view["played"], seat, viewer)
        lines.append((t(language, gulbara_text.THIS_TURN, steps=steps), HIGHLIGHT))
    return lines[-2:] or [("", TEXT)]


def labels(language: str) -> list[Label]:
    """Every word of the board in ``language`` at its longest, with the room it has: the
    tray counts, a strip's race in a match, the grace period, the status line beside the
    longest match heading (with room left for a name)."""
    bold, semibold = font(TEXT_SIZE, "Bold"), font(TEXT_SIZE, "SemiBold")
    tray_room = min(
        2 * min((box[0] + box[2]) / 2, WIDTH - (box[0] + box[2]) / 2)
        for box in (tray_box(seat, 0) for seat in range(2))
    )
    view = new_game(match_to=MAX_MATCH).view(None)
    view["pips"], view["off"], view["over"], view["winner"] = [0, 360], [15, 14], True, 0
    view["game_number"] = MAX_MATCH
    race = [strip_detail(language, view, seat) for seat in range(2)]
    view["turn"] = 0
    grace = []
    for left in ([3, 3], [1, 3], [0, 3]):
        view["grace_left"] = left
        grace += grace_lines(view, ["Maximilian", "Bob"], language)
    match = match_text(view, language) or ""
    status_font = font(22, "Bold")
    status_room = STATUS_BOX[2] - STATUS_BOX[0] - 60 - semibold.getlength(match) - 24 - NAME_ROOM
    return [
        Label(borne_off(language, 15), bold, tray_room),
        *(
            Label(text, font(TEXT_SIZE), STRIP_WIDTH - MATCH_SCORE_ROOM - STRIP_TEXT_INSET)
            for text in race
        ),
        *(Label(text, semibold, 6 * POINT_WIDTH - 16) for text in grace),
        Label(to_move(language, [6, 5]).format(name=""), status_font, status_room),
    ]


def _replay_picture(
    view: GulbaraView, names: Sequence[str], caption: str, language: str
) -> Image.Image:
    # Seat 0's numbering throughout: a board that flipped with every turn would be
    # unwatchable as an animation.
    return draw_gulbara(view, names, caption, viewer=0, language=language)


REPLAY_PICTURE = _replay_picture
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
