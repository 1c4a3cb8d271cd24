"""The Barbu table, 720×972: a header with the contract and the deal's status line; the
felt with the four seats in its corners (name, cards left, tricks, deal points, roles and
penalty cards), the current trick between them (each card towards its player's corner;
the last trick while the next is not led), or the four Domino rows; below, the totals
and the doubles between every pair."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.barbu import BarbuTrickCard, BarbuView
from render.barbu.common import (
    RANK_ORDER,
    SUIT_ORDER,
    TEXT_SIZE,
    WIDTH,
    draw_seat_number,
    paste_card,
    player_names,
    put_text,
    signed_score,
)
from render.theme import (
    CARD_FACE,
    HIGHLIGHT,
    PANEL,
    PANEL_EDGE,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Colour,
    mix,
)
from render.toolkit.cards import draw_suit, suit_colour
from render.toolkit.geometry import Box
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_disc, draw_panel, draw_turn_marker, fill_rounded
from render.toolkit.text import draw_text_centred, fit_text, font
from texts import barbu as barbu_text
from texts.barbu import contract_title, rank_label, view_contract
from texts.i18n import ENGLISH, N_, t, tn, tp

TABLE_WIDTH, TABLE_HEIGHT = WIDTH, 972
FELT: Colour = (28, 92, 62)
FELT_EDGE: Colour = (18, 60, 40)
HEADER_BOX: Box = (16, 16, WIDTH - 16, 100)
FELT_BOX: Box = (16, 112, WIDTH - 16, 682)
SEAT_PANEL_SIZE = (326, 116)
SEAT_INSET = 12
MIDDLE_TOP = FELT_BOX[1] + SEAT_INSET * 2 + SEAT_PANEL_SIZE[1]
MIDDLE_BOTTOM = FELT_BOX[3] - SEAT_INSET * 2 - SEAT_PANEL_SIZE[1]
CENTRE = (WIDTH / 2, (MIDDLE_TOP + MIDDLE_BOTTOM) / 2)
SIDE_TOP = FELT_BOX[3] + 12
TOTALS_BOX: Box = (16, SIDE_TOP, 354, TABLE_HEIGHT - 16)
DOUBLES_BOX: Box = (366, SIDE_TOP, WIDTH - 16, TABLE_HEIGHT - 16)
REDOUBLE: Colour = (240, 140, 110)
THIS_DEAL_SCORE = N_("{score} this deal")
LAST_DEAL_SCORE = N_("{score} last deal")
"""A seat's points in the deal being played, and in the last one while the next contract is
chosen: the score first, so "deal" never reads as the deal's number ("Spiel 0")."""
TRICK_CARD = (72, 101)
TRICK_GAP = (16, 12)
DOMINO_CARD = (70, 98)
DOMINO_STEP = (46, 62)
DOUBLES_CELL = 34
CHIP_HEIGHT = 28


def render_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> bytes:
    """PNG of the table in the public ``view``; ``headline`` replaces the header's line."""
    return encode_png(draw_barbu_table(view, names, headline, language))


def draw_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> Image.Image:
    """The picture of ``render_barbu_table`` before encoding (replays compose these)."""
    players = player_names(names, language)
    image = _table_background(language).copy()
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view, players, headline, language)
    for seat in range(4):
        _draw_seat(draw, view, players, seat, language)
    if view["phase"] == "play" and view["contract"] == "domino":
        _draw_domino_rows(image, draw, view, language)
    elif view["phase"] == "play":
        _draw_trick(image, draw, view, players, language)
    else:
        _draw_centre_message(draw, view, players, language)
    _draw_totals(draw, view, players)
    _draw_doubles(draw, view, language)
    return image


@lru_cache(maxsize=4)
def _table_background(language: str) -> Image.Image:
    """Everything that never changes: the panels, the felt and the doubles grid's frame."""
    image, draw = new_canvas(TABLE_WIDTH, TABLE_HEIGHT)
    draw_panel(draw, HEADER_BOX)
    draw_panel(draw, FELT_BOX, fill=FELT, edge=FELT_EDGE, radius=22, edge_width=4)
    _side_panel(draw, TOTALS_BOX, t(language, "TOTALS"))
    for seat in range(4):
        colour = SEAT_COLOURS[seat]
        middle = _totals_row(seat)
        draw_disc(
            draw, (TOTALS_BOX[0] + 26, middle), 11, colour.fill, edge=colour.edge, edge_width=2
        )
    _draw_doubles_grid(draw, language)
    return image


render_barbu = render_barbu_table


def _draw_header(
    draw: ImageDraw.ImageDraw,
    view: BarbuView,
    players: Sequence[str],
    headline: str | None,
    language: str,
) -> None:
    left, top, right, _bottom = HEADER_BOX
    title_middle = top + 28
    title = view_contract(language, view) or t(language, "Choosing the contract")
    if view["phase"] == "over":
        title = t(language, "Game over")
    title_font = font(26, "Bold")
    if view["trump"]:
        draw_suit(draw, view["trump"], (left + 30, title_middle), 28)
        text_left = left + 54
    else:
        text_left = left + 20
    title = fit_text(title, title_font, right - 20 - text_left)
    put_text(draw, (text_left, title_middle), title, font=title_font, fill=TEXT, anchor="lm")
    line = headline if headline is not None else barbu_text.board_status(language, view, players)
    status_font = font(TEXT_SIZE, "SemiBold")
    put_text(
        draw,
        (left + 20, top + 62),
        fit_text(line, status_font, right - left - 40),
        font=status_font,
        fill=HIGHLIGHT if headline is not None else TEXT_MUTED,
        anchor="lm",
    )


def _seat_box(seat: int) -> Box:
    """Seats in the felt's corners, clockwise from the bottom left."""
    width, height = SEAT_PANEL_SIZE
    felt_left, felt_top, felt_right, felt_bottom = FELT_BOX
    left = felt_left + SEAT_INSET if seat in (0, 1) else felt_right - SEAT_INSET - width
    top = felt_top + SEAT_INSET if seat in (1, 2) else felt_bottom - SEAT_INSET - height
    return (left, top, left + width, top + height)


def _draw_seat(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], seat: int, language: str
) -> None:
    box = _seat_box(seat)
    left, top, right, _ = box
    colour = SEAT_COLOURS[seat]
    if view["to_act"] == seat:
        draw_panel(draw, box, fill=mix(PANEL, colour.fill, 0.2), edge=colour.fill, edge_width=3)
    else:
        draw_panel(draw, box)
    name_middle = top + 24
    draw_seat_number(draw, (left + 24, name_middle), 13, seat, TEXT_SIZE)
    name_left = left + 46
    name_right = right - 14
    if view["to_act"] == seat:
        draw_turn_marker(draw, (name_left + 6, name_middle), 14, HIGHLIGHT)
        name_left += 20
    name_font = font(20, "Bold")
    put_text(
        draw,
        (name_left, name_middle),
        fit_text(players[seat], name_font, name_right - name_left),
        font=name_font,
        fill=TEXT,
        anchor="lm",
    )
    detail_font = font(TEXT_SIZE)
    put_text(
        draw,
        (left + 14, top + 56),
        fit_text(_seat_detail(view, seat, language), detail_font, right - left - 28),
        font=detail_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    _draw_roles_and_penalties(draw, view, seat, (left + 14, top + 90, right - 14), language)


def _draw_roles_and_penalties(
    draw: ImageDraw.ImageDraw,
    view: BarbuView,
    seat: int,
    line: tuple[float, float, float],
    language: str,
) -> None:
    """The seat's roles ("Declarer", "Dealer") as chips, then its penalty cards."""
    x, middle, right = line
    badge_font = font(TEXT_SIZE, "Bold")
    if view["phase"] != "over":
        roles = [
            (label, fill)
            for label, fill, holder in (
                (t(language, "Declarer"), HIGHLIGHT, view["declarer"]),
                (t(language, "Dealer"), (196, 198, 204), view["dealer"]),
            )
            if holder == seat
        ]
        for label, fill in roles:
            width = badge_font.getlength(label) + 18
            box = (x, middle - CHIP_HEIGHT / 2, x + width, middle + CHIP_HEIGHT / 2)
            draw_panel(draw, box, fill=fill, edge=None, radius=CHIP_HEIGHT // 2)
            draw_text_centred(draw, (x + width / 2, middle), label, badge_font, TEXT_DARK)
            x += width + 8
    _penalty_chips(draw, view["penalty_cards"][seat], (x, middle, right), language)


def _seat_detail(view: BarbuView, seat: int, language: str) -> str:
    if view["phase"] == "over":
        place = 1 + sum(1 for total in view["totals"] if total > view["totals"][seat])
        return place_text(language, place)
    cards = view["hand_sizes"][seat]
    parts = [tn(language, "{count} card", "{count} cards", cards)]
    if view["contract"] == "domino" and view["domino"]:
        finished = view["domino"]["finished"]
        if seat in finished:
            parts.append(out_text(language, finished.index(seat) + 1))
    elif view["contract"]:
        parts.append(tn(language, "{count} trick", "{count} tricks", view["tricks_won"][seat]))
    if view["contract"] and view["contract"] != "domino":
        score = signed_score(view["deal_points"][seat])
        parts.append(t(language, THIS_DEAL_SCORE, score=score))
    elif view["phase"] == "contract" and view["history"]:
        score = signed_score(view["history"][-1]["scores"][seat])
        parts.append(t(language, LAST_DEAL_SCORE, score=score))
    return " · ".join(parts)


def _penalty_chips(
    draw: ImageDraw.ImageDraw,
    cards: Sequence[str],
    line: tuple[float, float, float],
    language: str,
) -> None:
    """The penalty cards a seat took, one white chip per suit: its pip and the ranks
    ("♥ AK72"), cut with an ellipsis where the panel ends."""
    rank_font = font(TEXT_SIZE, "Bold")
    x, middle, right = line
    for suit in SUIT_ORDER:
        ranks = "".join(rank_label(language, card[0]) for card in cards if card[1] == suit)
        if not ranks or x + 60 > right:
            continue
        text = fit_text(ranks, rank_font, right - x - 36)
        width = 34 + rank_font.getlength(text)
        box = (x, middle - CHIP_HEIGHT / 2, x + width, middle + CHIP_HEIGHT / 2)
        fill_rounded(draw, box, 7, CARD_FACE)
        draw_suit(draw, suit, (x + 14, middle), 16)
        put_text(draw, (x + 26, middle), text, font=rank_font, fill=suit_colour(suit), anchor="lm")
        x += width + 8


def place_text(language: str, place: int) -> str:
    """ "1st place", "1. Platz"."""
    places = {
        1: t(language, "1st place"),
        2: t(language, "2nd place"),
        3: t(language, "3rd place"),
    }
    return places.get(place, t(language, "{place}th place", place=place))


def out_text(language: str, place: int) -> str:
    """Domino's order of going out: "out 1st", "1. raus"."""
    places = {
        1: t(language, "out 1st"),
        2: t(language, "out 2nd"),
        3: t(language, "out 3rd"),
    }
    return places.get(place, t(language, "out {place}th", place=place))


def _trick_position(seat: int) -> tuple[float, float]:
    """Top left of ``seat``'s card in the trick: the corner of the block nearest him."""
    width, height = TRICK_CARD
    gap_x, gap_y = TRICK_GAP
    cx, cy = CENTRE
    x = cx - gap_x / 2 - width if seat in (0, 1) else cx + gap_x / 2
    y = cy - gap_y / 2 - height if seat in (1, 2) else cy + gap_y / 2
    return (x, y)


def _draw_trick(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: BarbuView,
    players: Sequence[str],
    language: str,
) -> None:
    """The trick being played; before its lead, the last trick (its winner's card
    outlined) and who leads next."""
    trick = view["trick"]
    caption: tuple[int, str] | None = None
    shown: Sequence[BarbuTrickCard] = trick
    winning = _winning_seat(trick, view["trump"]) if len(trick) > 1 else None
    if not trick and view["tricks"]:
        last = view["tricks"][-1]
        shown = [
            {"seat": (last["leader"] + index) % 4, "card": card}
            for index, card in enumerate(last["cards"])
        ]
        winning = last["winner"]
        caption = (len(view["tricks"]), players[last["winner"]])
    for entry in shown:
        x, y = _trick_position(entry["seat"])
        paste_card(
            image,
            (x, y),
            entry["card"],
            TRICK_CARD,
            language,
            highlighted=entry["seat"] == winning,
        )
        outer_x = x - 20 if entry["seat"] in (0, 1) else x + TRICK_CARD[0] + 20
        draw_seat_number(draw, (outer_x, y + TRICK_CARD[1] / 2), 13, entry["seat"], TEXT_SIZE)
    leader = view["leader"]
    if not trick and leader is not None and not shown:
        x, y = _trick_position(leader)
        width, height = TRICK_CARD
        draw_panel(
            draw,
            (x, y, x + width, y + height),
            fill=mix(FELT, TEXT, 0.08),
            edge=mix(FELT, TEXT, 0.3),
            radius=8,
        )
        lead = fit_text(t(language, "lead"), font(TEXT_SIZE), width - 8)
        draw_text_centred(draw, (x + width / 2, y + height / 2), lead, font(TEXT_SIZE), TEXT)
    if caption is not None and leader is not None:
        number, winner = caption
        text = t(
            language,
            "Trick {number} to {winner} · {leader} leads",
            number=number,
            winner=winner,
            leader=players[leader],
        )
        line = fit_text(text, font(TEXT_SIZE), 640)
        draw_text_centred(draw, (CENTRE[0], MIDDLE_BOTTOM - 6), line, font(TEXT_SIZE), TEXT)


def _winning_seat(trick: Sequence[BarbuTrickCard], trump: str | None) -> int | None:
    """The seat whose card currently wins ``trick`` (trumps beat the led suit)."""
    if not trick:
        return None
    best = trick[0]
    for entry in trick[1:]:
        card, leader = entry["card"], best["card"]
        if card[1] == leader[1]:
            if RANK_ORDER.index(card[0]) > RANK_ORDER.index(leader[0]):
                best = entry
        elif card[1] == trump:
            best = entry
    return best["seat"]


def _draw_domino_rows(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: BarbuView, language: str
) -> None:
    """The four suit rows, overlapping like a fanned hand so each card's corner shows."""
    domino, start_rank = view["domino"], view["start_rank"]
    if domino is None or start_rank is None:
        return
    rows = domino["rows"]
    width, height = DOMINO_CARD
    step_x, step_y = DOMINO_STEP
    left = CENTRE[0] - (12 * step_x + width) / 2
    top = CENTRE[1] - (3 * step_y + height) / 2
    start = RANK_ORDER.index(start_rank)
    slot_colour = mix(FELT, TEXT, 0.07)
    for index, suit in enumerate(SUIT_ORDER):
        y = top + index * step_y
        row = rows[suit]
        if row is None:
            x_start = left + start * step_x
            draw_panel(
                draw,
                (x_start, y, x_start + width, y + step_y - 6),
                fill=slot_colour,
                edge=mix(FELT, TEXT, 0.3),
                radius=6,
            )
            centre = (x_start + width / 2, y + (step_y - 6) / 2)
            draw_suit(draw, suit, centre, 24, mix(FELT, TEXT, 0.35))
            continue
        low, high = RANK_ORDER.index(row[0]), RANK_ORDER.index(row[1])
        for rank in range(low, high + 1):
            paste_card(
                image, (left + rank * step_x, y), RANK_ORDER[rank] + suit, DOMINO_CARD, language
            )


def _draw_centre_message(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], language: str
) -> None:
    cx, cy = CENTRE
    big, small = font(24, "Bold"), font(TEXT_SIZE)
    width = FELT_BOX[2] - FELT_BOX[0] - 48
    if view["phase"] == "contract":
        declarer = players[view["declarer"]]
        title = barbu_text.naming_caption(language, view, declarer) or t(
            language, "{name} chooses a contract", name=declarer
        )
        draw_text_centred(draw, (cx, cy - 60), fit_text(title, big, width), big, TEXT)
        offered = (
            view["remaining_contracts"][:1] if view.get("french") else view["remaining_contracts"]
        )
        titles = [contract_title(language, name) for name in offered]
        _draw_contract_chips(draw, titles)
        return
    if view["phase"] == "doubling" and view["to_act"] is not None:
        title = t(language, "Doubling: {name} to decide", name=players[view["to_act"]])
        line = _previous_deal_line(view, players, language)
    else:
        best = max(view["totals"])
        winners = [players[seat] for seat in range(4) if view["totals"][seat] == best]
        if len(winners) == 1:
            title = t(language, "{winner} wins", winner=winners[0])
        else:
            title = t(language, "{winners} win", winners=barbu_text.listing(language, winners))
        line = t(language, "Final totals below")
    draw_text_centred(draw, (cx, cy - 18), fit_text(title, big, width), big, TEXT)
    draw_text_centred(draw, (cx, cy + 20), fit_text(line, small, width), small, TEXT_MUTED)


def _draw_contract_chips(draw: ImageDraw.ImageDraw, titles: Sequence[str]) -> None:
    """The contracts declarer has left, as chips wrapped onto centred lines."""
    chip_font = font(TEXT_SIZE, "SemiBold")
    widths = [chip_font.getlength(title) + 26 for title in titles]
    lines: list[list[int]] = [[]]
    for index, width in enumerate(widths):
        line_width = sum(widths[i] + 10 for i in lines[-1])
        if lines[-1] and line_width + width > FELT_BOX[2] - FELT_BOX[0] - 48:
            lines.append([])
        lines[-1].append(index)
    y = CENTRE[1] - 30
    for line in lines:
        x = CENTRE[0] - (sum(widths[i] for i in line) + 10 * (len(line) - 1)) / 2
        for index in line:
            box = (x, y, x + widths[index], y + 34)
            draw_panel(draw, box, fill=mix(FELT, TEXT, 0.16), edge=None, radius=17)
            draw_text_centred(draw, (x + widths[index] / 2, y + 17), titles[index], chip_font, TEXT)
            x += widths[index] + 10
        y += 44


def _previous_deal_line(view: BarbuView, players: Sequence[str], language: str) -> str:
    acted = view["doubling_acted"]
    if not acted:
        return t(language, "Declarer's left starts")
    return t(language, "Decided: {names}", names=", ".join(players[seat] for seat in acted))


def _side_panel(draw: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    draw_panel(draw, box)
    put_text(
        draw,
        (box[0] + 16, box[1] + 24),
        title,
        font=font(TEXT_SIZE, "Bold"),
        fill=TEXT_MUTED,
        anchor="lm",
    )


def _totals_row(seat: int) -> float:
    return TOTALS_BOX[1] + 70 + seat * 48


def _draw_totals(draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str]) -> None:
    name_font, score_font = font(20, "SemiBold"), font(22, "Bold")
    left, _, right, _ = TOTALS_BOX
    for seat in range(4):
        middle = _totals_row(seat)
        score = signed_score(view["totals"][seat])
        put_text(draw, (right - 16, middle), score, font=score_font, fill=TEXT, anchor="rm")
        name_width = right - 16 - score_font.getlength(score) - 12 - (left + 46)
        put_text(
            draw,
            (left + 46, middle),
            fit_text(players[seat], name_font, name_width),
            font=name_font,
            fill=TEXT,
            anchor="lm",
        )


def doubles_cell(doubler: int, doubled: int) -> Box:
    grid_left, grid_top = DOUBLES_BOX[0] + 58, DOUBLES_BOX[1] + 80
    left = grid_left + doubled * DOUBLES_CELL
    top = grid_top + doubler * DOUBLES_CELL
    return (left + 3, top + 3, left + DOUBLES_CELL - 3, top + DOUBLES_CELL - 3)


def _draw_doubles_grid(draw: ImageDraw.ImageDraw, language: str) -> None:
    """The empty 4×4 grid: row = who doubles, column = who is doubled; the legend beside."""
    _side_panel(draw, DOUBLES_BOX, t(language, "DOUBLES"))
    for seat in range(4):
        column = doubles_cell(0, seat)
        row = doubles_cell(seat, 0)
        column_x = (column[0] + column[2]) / 2
        row_y = (row[1] + row[3]) / 2
        for centre in ((column_x, column[1] - 20), (row[0] - 22, row_y)):
            draw_seat_number(draw, centre, 13, seat, TEXT_SIZE)
    for doubler in range(4):
        for doubled in range(4):
            box = doubles_cell(doubler, doubled)
            if doubler == doubled:
                draw_panel(draw, box, fill=mix(PANEL, PANEL_EDGE, 0.3), edge=None, radius=5)
            else:
                draw_panel(draw, box, fill=PANEL, edge=PANEL_EDGE, radius=5, edge_width=1)
    legend_left = doubles_cell(0, 3)[2] + 16
    legend_font = font(TEXT_SIZE)
    y = DOUBLES_BOX[1] + 84
    for text, gap in zip(legend_lines(language), (34, 48, 34, 34), strict=True):
        put_text(draw, (legend_left, y), text, font=legend_font, fill=TEXT_MUTED, anchor="lm")
        y += gap


def legend_lines(language: str) -> tuple[str, str, str, str]:
    """The doubles grid's legend, a line each: rows double columns, the two marks."""
    return (
        t(language, "Row doubles"),
        t(language, "column"),
        t(language, "{mark} double", mark=_double_mark(language)),
        t(language, "{mark} redouble", mark=_redouble_mark(language)),
    )


def _double_mark(language: str) -> str:
    return tp(language, "doubles grid mark for a double", "D")


def _redouble_mark(language: str) -> str:
    return tp(language, "doubles grid mark for a redouble", "R")


def _draw_doubles(draw: ImageDraw.ImageDraw, view: BarbuView, language: str) -> None:
    """D in a cell for a double, R in both cells of a redoubled pair."""
    doubles = {(doubler, doubled) for doubler, doubled in view["doubles"]}
    mark_font = font(TEXT_SIZE, "Bold")
    for doubler, doubled in doubles:
        redouble = (doubled, doubler) in doubles
        box = doubles_cell(doubler, doubled)
        draw_panel(draw, box, fill=REDOUBLE if redouble else HIGHLIGHT, edge=None, radius=5)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        mark = _redouble_mark(language) if redouble else _double_mark(language)
        draw_text_centred(draw, centre, mark, mark_font, TEXT_DARK)
