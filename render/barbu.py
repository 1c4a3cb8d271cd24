"""Barbu pictures: the table, one player's hand and the score sheet, from views only.

A view comes from ``games.barbu`` ``view(seat)`` (the public one, ``seat=None``, for the
table and the score sheet; a seat's own view for its hand). Seats sit clockwise: seat 0
at the bottom (south), seat 1 on the left, seat 2 at the top, seat 3 on the right.

- Table, 1120×716: a header with the contract and the deal, the felt with the four seats
  (name, declarer and dealer marks, cards left, tricks, deal points, penalty cards face
  up) around the current trick, or the four Domino rows; a side column with the totals,
  the doubles between every pair and the last trick.
- Hand, 980×214: the cards sorted by suit and rank; on the seat's turn the legal cards
  are raised and outlined, the others dimmed.
- Score sheet, 980×(rows): one row per deal with declarer, contract, each player's deal
  score, the seats he doubled (numbered discs, ringed for a redouble) and his running total.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games.barbu import CONTRACT_TITLES, BarbuDeal, BarbuTrickCard, BarbuView
from render.theme import (
    HIGHLIGHT,
    PANEL,
    PANEL_EDGE,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Box,
    Colour,
    clean_name,
    draw_card,
    draw_disc,
    draw_panel,
    draw_ring,
    draw_suit,
    draw_text,
    draw_text_centred,
    draw_turn_marker,
    encode_png,
    fill_disc,
    fit_text,
    font,
    mix,
    new_canvas,
)

TABLE_WIDTH, TABLE_HEIGHT = 1120, 716
FELT: Colour = (28, 92, 62)
FELT_EDGE: Colour = (18, 60, 40)
FELT_BOX: Box = (16, 88, 856, 700)
SIDE_LEFT, SIDE_RIGHT = 868, 1104
HEADER_BOX: Box = (16, 16, 1104, 78)
CENTRE = (436, 380)
SEAT_PANEL_SIZE = (224, 118)
REDOUBLE: Colour = (240, 140, 110)
NEGATIVE_SCORE: Colour = (255, 150, 140)
SUIT_ORDER = "SHCD"
RANK_ORDER = "23456789TJQKA"
SUIT_WORDS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
TRICK_CARD = (66, 94)
MINI_CARD = (32, 46)
DOMINO_CARD = (34, 48)
DOMINO_STEP = 26
TOTALS_TOP = FELT_BOX[1]
TOTALS_HEIGHT = 158
DOUBLES_TOP = TOTALS_TOP + TOTALS_HEIGHT + 12
DOUBLES_CELL = 36
DOUBLES_HEIGHT = 60 + 4 * DOUBLES_CELL + 30
DOUBLES_GRID_LEFT = SIDE_LEFT + 44
HAND_WIDTH, HAND_HEIGHT = 980, 214
HAND_CARD = (64, 96)
HAND_STEP = 68
HAND_SUIT_GAP = 14
HAND_RAISE = 14
SHEET_WIDTH = 980
SHEET_ROW = 30
SHEET_HEADER_Y = 92
SHEET_COLUMNS = (16, 58, 200, 364)
SHEET_PLAYER_WIDTH = 150


def _names(names: Sequence[str]) -> list[str]:
    return [
        clean_name(names[seat]) if seat < len(names) else f"Seat {seat + 1}" for seat in range(4)
    ]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def _rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


# --- text --------------------------------------------------------------------------


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    font: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
) -> None:
    if text:
        draw_text(draw, xy, text, font, fill, anchor)


def _seat_number(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, seat: int, size: int
) -> None:
    """A disc in the seat's colour with its number, so colour is never the only cue."""
    colour = SEAT_COLOURS[seat]
    fill_disc(draw, centre, radius, colour.fill)
    draw_text_centred(draw, centre, str(seat + 1), font(size, "Bold"), colour.text)


# --- cards --------------------------------------------------------------------------


def _card(
    draw: ImageDraw.ImageDraw,
    top_left: tuple[float, float],
    card: str,
    size: tuple[int, int],
    *,
    dim: bool = False,
    highlighted: bool = False,
) -> None:
    """A card face of ``size`` at ``top_left``: greyed when ``dim`` (not playable now),
    framed when ``highlighted`` (playable, or winning the trick)."""
    left, top = round(top_left[0]), round(top_left[1])
    box = (left, top, left + size[0], top + size[1])
    draw_card(draw, box, card[0], card[1], highlighted=highlighted, dimmed=dim)


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """Suit by suit (♠♥♣♦, alternating colours), high cards first."""
    return sorted(cards, key=lambda card: (SUIT_ORDER.index(card[1]), -RANK_ORDER.index(card[0])))


# --- the hand -----------------------------------------------------------------------


def render_barbu_hand(view: BarbuView, names: Sequence[str]) -> bytes:
    """PNG of the hand in ``view`` (a seat's own view); legal cards raised on its turn."""
    players = _names(names)
    seat = view["seat"]
    image, draw = new_canvas(HAND_WIDTH, HAND_HEIGHT)
    draw_panel(draw, (8, 8, HAND_WIDTH - 8, HAND_HEIGHT - 8))
    hand = sorted_hand(view["hand"] or [])
    own_turn = view["to_act"] == seat and view["phase"] == "play"
    legal = set(view["legal"]) if own_turn else set()
    colour = SEAT_COLOURS[seat] if seat is not None else SEAT_COLOURS[0]
    draw_disc(draw, (34, 34), 10, colour.fill, edge=colour.edge, edge_width=2)
    title_font, label_font = font(20, "Bold"), font(17)
    title = fit_text(players[seat] if seat is not None else "Hand", title_font, 300)
    _text(draw, (52, 34), title, font=title_font, fill=TEXT, anchor="lm")
    if view["contract_label"]:
        label_left = 52 + title_font.getlength(title) + 14
        _text(
            draw,
            (label_left, 34),
            fit_text(view["contract_label"], label_font, 560 - label_left),
            font=label_font,
            fill=TEXT_MUTED,
            anchor="lm",
        )
    status = _hand_status(view, players, own_turn, legal)
    status_font = font(17, "SemiBold")
    _text(
        draw,
        (HAND_WIDTH - 24, 34),
        fit_text(status, status_font, 380),
        font=status_font,
        fill=HIGHLIGHT if own_turn or view["to_act"] == seat else TEXT_MUTED,
        anchor="rm",
    )
    if not hand:
        draw_text_centred(draw, (HAND_WIDTH / 2, 124), "No cards", font(20), TEXT_MUTED)
        return encode_png(image)
    suits_present = len({card[1] for card in hand})
    row_width = (len(hand) - 1) * HAND_STEP + HAND_CARD[0] + (suits_present - 1) * HAND_SUIT_GAP
    x = (HAND_WIDTH - row_width) / 2
    previous_suit = hand[0][1]
    for card in hand:
        if card[1] != previous_suit:
            x += HAND_SUIT_GAP
            previous_suit = card[1]
        playable = card in legal
        y = 82 - (HAND_RAISE if playable else 0)
        _card(
            draw,
            (x, y),
            card,
            HAND_CARD,
            dim=own_turn and not playable,
            highlighted=playable,
        )
        x += HAND_STEP
    return encode_png(image)


def _hand_status(
    view: BarbuView, players: Sequence[str], own_turn: bool, legal: set[str]
) -> str:
    to_act = view["to_act"]
    if own_turn:
        return "No card fits: pass" if legal == {"pass"} else "Your turn: play a raised card"
    if to_act is None:
        return "Game over"
    if to_act == view["seat"]:
        return (
            "Your turn: choose a contract" if view["phase"] == "contract" else "Your turn to double"
        )
    if view["phase"] == "contract":
        return f"{players[to_act]} is choosing a contract"
    return f"{players[to_act]} to {'decide' if view['phase'] == 'doubling' else 'play'}"


# --- the table ----------------------------------------------------------------------


def render_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None
) -> bytes:
    """PNG of the table in the public ``view``; ``headline`` replaces the header's line."""
    return encode_png(draw_barbu_table(view, names, headline))


def draw_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None
) -> Image.Image:
    """The picture of ``render_barbu_table`` before encoding (replays compose these)."""
    players = _names(names)
    image = _table_background().copy()
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view, players, headline)
    for seat in range(4):
        _draw_seat(draw, view, players, seat)
    if view["phase"] == "play" and view["contract"] == "domino":
        _draw_domino_rows(draw, view)
    elif view["phase"] == "play":
        _draw_trick(draw, view)
    else:
        _draw_centre_message(draw, view, players)
    _draw_totals(draw, view, players)
    _draw_doubles(draw, view)
    _draw_last_trick(draw, view, players, DOUBLES_TOP + DOUBLES_HEIGHT + 12)
    return image


@lru_cache(maxsize=1)
def _table_background() -> Image.Image:
    """Everything that never changes: the panels, the felt and the doubles grid's frame."""
    image, draw = new_canvas(TABLE_WIDTH, TABLE_HEIGHT)
    draw_panel(draw, HEADER_BOX)
    draw_panel(draw, FELT_BOX, fill=FELT, edge=FELT_EDGE, radius=22, edge_width=4)
    _side_panel(draw, TOTALS_TOP, TOTALS_HEIGHT, "TOTALS")
    for seat in range(4):
        colour = SEAT_COLOURS[seat]
        middle = TOTALS_TOP + 52 + seat * 28
        draw_disc(draw, (SIDE_LEFT + 22, middle), 7, colour.fill, edge=colour.edge, edge_width=2)
    _draw_doubles_grid(draw)
    return image


render_barbu = render_barbu_table


def _draw_header(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], headline: str | None
) -> None:
    left, top, right, bottom = HEADER_BOX
    middle = (top + bottom) / 2
    title = view["contract_label"] or "Choosing the contract"
    if view["phase"] == "over":
        title = "Game over"
    title_font = font(26, "Bold")
    if view["trump"]:
        draw_suit(draw, view["trump"], (left + 30, middle), 30)
        text_left = left + 54
    else:
        text_left = left + 20
    _text(draw, (text_left, middle), title, font=title_font, fill=TEXT, anchor="lm")
    title_end = text_left + title_font.getlength(title) + 24
    line = headline if headline is not None else _status_line(view, players)
    status_font = font(18, "SemiBold")
    _text(
        draw,
        (right - 20, middle),
        fit_text(line, status_font, right - 20 - title_end),
        font=status_font,
        fill=HIGHLIGHT if headline is not None else TEXT_MUTED,
        anchor="rm",
    )


def _status_line(view: BarbuView, players: Sequence[str]) -> str:
    deal = f"Deal {min(view['deal'] + 1, view['total_deals'])} of {view['total_deals']}"
    if view["phase"] == "over" or view["to_act"] is None:
        best = max(view["totals"])
        winners = [players[seat] for seat in range(4) if view["totals"][seat] == best]
        return f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best}"
    to_act = players[view["to_act"]]
    if view["phase"] == "contract":
        return f"{deal} · {to_act} is choosing"
    if view["phase"] == "doubling":
        return f"{deal} · doubling: {to_act} to decide"
    return f"{deal} · {to_act} to play"


def _seat_box(seat: int) -> Box:
    width, height = SEAT_PANEL_SIZE
    felt_left, felt_top, felt_right, felt_bottom = FELT_BOX
    cx, cy = CENTRE
    left: float
    top: float
    if seat == 0:
        left, top = cx - width / 2, felt_bottom - height - 14
    elif seat == 1:
        left, top = felt_left + 14, cy - height / 2
    elif seat == 2:
        left, top = cx - width / 2, felt_top + 14
    else:
        left, top = felt_right - width - 14, cy - height / 2
    return (round(left), round(top), round(left + width), round(top + height))


def _draw_seat(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], seat: int
) -> None:
    box = _seat_box(seat)
    left, top, right, _ = box
    colour = SEAT_COLOURS[seat]
    active = view["to_act"] == seat
    if active:
        draw_panel(draw, box, fill=mix(PANEL, colour.fill, 0.2), edge=colour.fill, edge_width=3)
        draw_turn_marker(draw, (left - 12, top + 24), 14, HIGHLIGHT)
    else:
        draw_panel(draw, box)
    draw_disc(draw, (left + 22, top + 24), 10, colour.fill, edge=colour.edge, edge_width=2)
    badges = []
    if view["phase"] != "over":
        if seat == view["declarer"]:
            badges.append(("DECLARER", HIGHLIGHT, TEXT_DARK))
        if seat == view["dealer"]:
            badges.append(("DEALER", (196, 198, 204), TEXT_DARK))
    badge_font = font(11, "Bold")
    badge_x: float = right - 10
    for label, fill, ink in badges:
        width = badge_font.getlength(label) + 12
        draw_panel(
            draw, (badge_x - width, top + 14, badge_x, top + 34), fill=fill, edge=None, radius=9
        )
        draw_text_centred(draw, (badge_x - width / 2, top + 24), label, badge_font, ink)
        badge_x -= width + 6
    name_font = font(18, "Bold")
    _text(
        draw,
        (left + 40, top + 24),
        fit_text(players[seat], name_font, badge_x - left - 44),
        font=name_font,
        fill=TEXT,
        anchor="lm",
    )
    detail_font = font(14)
    _text(
        draw,
        (left + 14, top + 50),
        _seat_detail(view, seat),
        font=detail_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    penalties = view["penalty_cards"][seat]
    if penalties:
        step = min(16, (right - left - 28 - MINI_CARD[0]) / max(1, len(penalties) - 1))
        for index, card in enumerate(penalties):
            _card(draw, (left + 14 + index * step, top + 64), card, MINI_CARD)


def _seat_detail(view: BarbuView, seat: int) -> str:
    if view["phase"] == "over":
        place = 1 + sum(1 for total in view["totals"] if total > view["totals"][seat])
        return f"{_ordinal(place)} place · total {_signed(view['totals'][seat])}"
    cards = view["hand_sizes"][seat]
    parts = [f"{cards} card{'s' if cards != 1 else ''}"]
    if view["contract"] == "domino" and view["domino"]:
        finished = view["domino"]["finished"]
        if seat in finished:
            parts.append(f"out {_ordinal(finished.index(seat) + 1)}")
    elif view["contract"]:
        tricks = view["tricks_won"][seat]
        parts.append(f"{tricks} trick{'s' if tricks != 1 else ''}")
    if view["contract"] and view["contract"] != "domino":
        parts.append(f"deal {_signed(view['deal_points'][seat])}")
    elif view["phase"] == "contract" and view["history"]:
        parts.append(f"last deal {_signed(view['history'][-1]['scores'][seat])}")
    return " · ".join(parts)


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _trick_position(seat: int, size: tuple[int, int]) -> tuple[float, float]:
    width, height = size
    cx, cy = CENTRE
    offsets = {0: (0, 74), 1: (-92, 0), 2: (0, -74), 3: (92, 0)}
    dx, dy = offsets[seat]
    return (cx + dx - width / 2, cy + dy - height / 2)


def _draw_trick(draw: ImageDraw.ImageDraw, view: BarbuView) -> None:
    trick = view["trick"]
    winning = _winning_seat(trick, view["trump"])
    for entry in trick:
        wins = entry["seat"] == winning and len(trick) > 1
        _card(
            draw,
            _trick_position(entry["seat"], TRICK_CARD),
            entry["card"],
            TRICK_CARD,
            highlighted=wins,
        )
    leader = view["leader"]
    if not trick and leader is not None:
        x, y = _trick_position(leader, TRICK_CARD)
        width, height = TRICK_CARD
        draw_panel(
            draw,
            (x, y, x + width, y + height),
            fill=mix(FELT, TEXT, 0.08),
            edge=mix(FELT, TEXT, 0.3),
            radius=8,
        )
        draw_text_centred(draw, (x + width / 2, y + height / 2), "lead", font(14), TEXT_MUTED)


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


def _draw_domino_rows(draw: ImageDraw.ImageDraw, view: BarbuView) -> None:
    domino, start_rank = view["domino"], view["start_rank"]
    if domino is None or start_rank is None:
        return
    rows = domino["rows"]
    width, height = DOMINO_CARD
    row_width = 12 * DOMINO_STEP + width
    left = CENTRE[0] - row_width / 2
    top = CENTRE[1] - (4 * (height + 8) - 8) / 2
    start = RANK_ORDER.index(start_rank)
    slot_colour = mix(FELT, TEXT, 0.07)
    for index, suit in enumerate(SUIT_ORDER):
        y = top + index * (height + 8)
        row = rows[suit]
        x_start = left + start * DOMINO_STEP
        if row is None:
            draw_panel(
                draw,
                (x_start, y, x_start + width, y + height),
                fill=slot_colour,
                edge=mix(FELT, TEXT, 0.3),
                radius=5,
            )
            draw_suit(draw, suit, (x_start + width / 2, y + height / 2), 18, mix(FELT, TEXT, 0.35))
            continue
        low, high = RANK_ORDER.index(row[0]), RANK_ORDER.index(row[1])
        for rank in range(low, high + 1):
            _card(draw, (left + rank * DOMINO_STEP, y), RANK_ORDER[rank] + suit, DOMINO_CARD)


def _draw_centre_message(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str]
) -> None:
    cx, cy = CENTRE
    big, small = font(22, "Bold"), font(16)
    if view["phase"] == "contract":
        title = f"{players[view['declarer']]} chooses a contract"
        draw_text_centred(draw, (cx, cy - 30), fit_text(title, big, 360), big, TEXT)
        _draw_contract_chips(draw, [_contract_title(name) for name in view["remaining_contracts"]])
        return
    if view["phase"] == "doubling" and view["to_act"] is not None:
        title = f"Doubling: {players[view['to_act']]} to decide"
        line = _previous_deal_line(view, players)
    else:
        best = max(view["totals"])
        winners = [players[seat] for seat in range(4) if view["totals"][seat] == best]
        title = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"
        line = "Final totals on the right"
    draw_text_centred(draw, (cx, cy - 16), fit_text(title, big, 360), big, TEXT)
    draw_text_centred(draw, (cx, cy + 18), fit_text(line, small, 360), small, TEXT_MUTED)


def _draw_contract_chips(draw: ImageDraw.ImageDraw, titles: Sequence[str]) -> None:
    """The contracts declarer has left, as chips wrapped onto centred lines."""
    chip_font = font(15, "SemiBold")
    widths = [chip_font.getlength(title) + 22 for title in titles]
    lines: list[list[int]] = [[]]
    for index, width in enumerate(widths):
        line_width = sum(widths[i] + 8 for i in lines[-1])
        if lines[-1] and line_width + width > 380:
            lines.append([])
        lines[-1].append(index)
    y = CENTRE[1] + 4
    for line in lines:
        x = CENTRE[0] - (sum(widths[i] for i in line) + 8 * (len(line) - 1)) / 2
        for index in line:
            box = (x, y, x + widths[index], y + 28)
            draw_panel(draw, box, fill=mix(FELT, TEXT, 0.16), edge=None, radius=14)
            draw_text_centred(draw, (x + widths[index] / 2, y + 14), titles[index], chip_font, TEXT)
            x += widths[index] + 8
        y += 36


def _previous_deal_line(view: BarbuView, players: Sequence[str]) -> str:
    acted = view["doubling_acted"]
    return (
        "Decided: " + ", ".join(players[seat] for seat in acted)
        if acted
        else "Declarer's left starts"
    )


def _contract_title(name: str) -> str:
    return CONTRACT_TITLES.get(name, name)


def _side_panel(draw: ImageDraw.ImageDraw, top: int, height: int, title: str) -> int:
    draw_panel(draw, (SIDE_LEFT, top, SIDE_RIGHT, top + height))
    _text(draw, (SIDE_LEFT + 14, top + 12), title, font=font(15, "Bold"), fill=TEXT_MUTED)
    return top + 38


def _draw_totals(draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str]) -> None:
    name_font, score_font = font(16, "SemiBold"), font(17, "Bold")
    for seat in range(4):
        middle = TOTALS_TOP + 52 + seat * 28
        _text(
            draw,
            (SIDE_LEFT + 36, middle),
            fit_text(players[seat], name_font, 130),
            font=name_font,
            fill=TEXT,
            anchor="lm",
        )
        _text(
            draw,
            (SIDE_RIGHT - 14, middle),
            _signed(view["totals"][seat]),
            font=score_font,
            fill=TEXT,
            anchor="rm",
        )


def _doubles_cell(doubler: int, doubled: int) -> Box:
    left = DOUBLES_GRID_LEFT + doubled * DOUBLES_CELL
    top = DOUBLES_TOP + 60 + doubler * DOUBLES_CELL
    return (left + 3, top + 3, left + DOUBLES_CELL - 3, top + DOUBLES_CELL - 3)


def _draw_doubles_grid(draw: ImageDraw.ImageDraw) -> None:
    """The empty 4×4 grid: row = who doubles, column = who is doubled."""
    _side_panel(draw, DOUBLES_TOP, DOUBLES_HEIGHT, "DOUBLES")
    for seat in range(4):
        column_x = DOUBLES_GRID_LEFT + seat * DOUBLES_CELL + DOUBLES_CELL / 2
        row_y = DOUBLES_TOP + 60 + seat * DOUBLES_CELL + DOUBLES_CELL / 2
        for centre in ((column_x, DOUBLES_TOP + 46), (SIDE_LEFT + 24, row_y)):
            _seat_number(draw, centre, 9, seat, 12)
    for doubler in range(4):
        for doubled in range(4):
            box = _doubles_cell(doubler, doubled)
            if doubler == doubled:
                draw_panel(draw, box, fill=mix(PANEL, PANEL_EDGE, 0.3), edge=None, radius=5)
            else:
                draw_panel(draw, box, fill=PANEL, edge=PANEL_EDGE, radius=5, edge_width=1)
    _text(
        draw,
        (SIDE_LEFT + 14, DOUBLES_TOP + DOUBLES_HEIGHT - 16),
        "Row doubles column · R redouble",
        font=font(12),
        fill=TEXT_MUTED,
        anchor="lm",
    )


def _draw_doubles(draw: ImageDraw.ImageDraw, view: BarbuView) -> None:
    """D in a cell for a double, R in both cells of a redoubled pair."""
    doubles = {(doubler, doubled) for doubler, doubled in view["doubles"]}
    mark_font = font(15, "Bold")
    for doubler, doubled in doubles:
        redouble = (doubled, doubler) in doubles
        box = _doubles_cell(doubler, doubled)
        draw_panel(draw, box, fill=REDOUBLE if redouble else HIGHLIGHT, edge=None, radius=5)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        draw_text_centred(draw, centre, "R" if redouble else "D", mark_font, TEXT_DARK)


def _draw_last_trick(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], top: int
) -> None:
    if view["contract"] == "domino" or not view["tricks"]:
        return
    last = view["tricks"][-1]
    height = min(FELT_BOX[3] - top, 38 + MINI_CARD[1] + 40)
    y = _side_panel(draw, top, height, f"LAST TRICK ({len(view['tricks'])})")
    for index, card in enumerate(last["cards"]):
        seat = (last["leader"] + index) % 4
        x = SIDE_LEFT + 14 + index * (MINI_CARD[0] + 20)
        _card(draw, (x, y), card, MINI_CARD, highlighted=seat == last["winner"])
        _seat_number(draw, (x + MINI_CARD[0] + 8, y + 8), 7, seat, 10)
    winner = players[last["winner"]]
    _text(
        draw,
        (SIDE_LEFT + 14, y + MINI_CARD[1] + 18),
        fit_text(f"won by {winner}", font(14), SIDE_RIGHT - SIDE_LEFT - 28),
        font=font(14),
        fill=TEXT_MUTED,
        anchor="lm",
    )


# --- the score sheet ----------------------------------------------------------------


def render_barbu_scores(view: BarbuView, names: Sequence[str]) -> bytes:
    """PNG of the score sheet: one row per played deal and the running totals."""
    players = _names(names)
    history = view["history"]
    image = _sheet_background(len(history)).copy()
    draw = ImageDraw.Draw(image)
    played = f"{len(history)} of {view['total_deals']} deals played"
    _text(draw, (SHEET_WIDTH - 24, 40), played, font=font(16), fill=TEXT_MUTED, anchor="rm")
    header_y = SHEET_HEADER_Y
    header_font = font(14, "Bold")
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        _text(
            draw,
            (x + 28, header_y),
            fit_text(players[seat], header_font, SHEET_PLAYER_WIDTH - 36),
            font=header_font,
            fill=TEXT,
            anchor="lm",
        )
    y = header_y + 20
    if not history:
        _text(
            draw,
            (24, y + SHEET_ROW / 2),
            "No deals played yet.",
            font=font(16),
            fill=TEXT_MUTED,
            anchor="lm",
        )
    running = [0, 0, 0, 0]
    for number, deal in enumerate(history):
        running = [total + score for total, score in zip(running, deal["scores"], strict=True)]
        _draw_sheet_row(draw, y, number, deal, running, players)
        y += SHEET_ROW
    _draw_sheet_totals(draw, y + 8, view["totals"])
    return encode_png(image)


@lru_cache(maxsize=32)
def _sheet_background(deals: int) -> Image.Image:
    """The panel, title, column heads, row stripes and series rules for ``deals`` rows."""
    height = SHEET_HEADER_Y + 20 + max(1, deals) * SHEET_ROW + 52 + 24
    image, draw = new_canvas(SHEET_WIDTH, height)
    draw_panel(draw, (8, 8, SHEET_WIDTH - 8, height - 8))
    _text(draw, (24, 40), "Barbu — score sheet", font=font(24, "Bold"), fill=TEXT, anchor="lm")
    _text(
        draw,
        (24, 66),
        "Discs: the seats that player doubled (ringed: redoubled) · small: running total",
        font=font(13),
        fill=TEXT_MUTED,
        anchor="lm",
    )
    header_font = font(14, "Bold")
    for text, x in zip(("#", "Declarer", "Contract"), SHEET_COLUMNS, strict=False):
        _text(draw, (x + 8, SHEET_HEADER_Y), text, font=header_font, fill=TEXT_MUTED, anchor="lm")
    for seat in range(4):
        _seat_number(
            draw, (SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH + 14, SHEET_HEADER_Y), 8, seat, 11
        )
    for number in range(deals):
        y = SHEET_HEADER_Y + 20 + number * SHEET_ROW
        if number % 2 == 0:
            draw.rectangle(
                (16, y, SHEET_WIDTH - 17, y + SHEET_ROW - 1), fill=mix(PANEL, TEXT, 0.04)
            )
        if number % 7 == 0 and number:
            draw.line((16, y, SHEET_WIDTH - 17, y), fill=PANEL_EDGE, width=2)
    return image


def _draw_sheet_row(
    draw: ImageDraw.ImageDraw,
    y: int,
    number: int,
    deal: BarbuDeal,
    running: Sequence[int],
    players: Sequence[str],
) -> None:
    middle = y + SHEET_ROW / 2
    text_font, score_font, small_font = font(15), font(16, "Bold"), font(12)
    declarer = deal["declarer"]
    _text(
        draw,
        (SHEET_COLUMNS[0] + 8, middle),
        str(number + 1),
        font=text_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    colour = SEAT_COLOURS[declarer]
    draw_disc(draw, (SHEET_COLUMNS[1] + 14, middle), 6, colour.fill, edge=colour.edge, edge_width=2)
    _text(
        draw,
        (SHEET_COLUMNS[1] + 26, middle),
        fit_text(players[declarer], text_font, SHEET_COLUMNS[2] - SHEET_COLUMNS[1] - 30),
        font=text_font,
        fill=TEXT,
        anchor="lm",
    )
    _draw_contract_cell(draw, SHEET_COLUMNS[2] + 8, middle, deal["contract"], text_font)
    doubles = {tuple(pair) for pair in deal["doubles"]}
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        for index, target in enumerate(t for t in range(4) if (seat, t) in doubles):
            centre = (x + 12 + index * 17, middle)
            _seat_number(draw, centre, 7, target, 9)
            if (target, seat) in doubles:
                draw_ring(draw, centre, 9.5, 2, HIGHLIGHT)
        score = deal["scores"][seat]
        score_colour = TEXT if score >= 0 else NEGATIVE_SCORE
        _text(
            draw, (x + 104, middle), _signed(score), font=score_font, fill=score_colour, anchor="rm"
        )
        _text(
            draw,
            (x + SHEET_PLAYER_WIDTH - 8, middle),
            _signed(running[seat]),
            font=small_font,
            fill=TEXT_MUTED,
            anchor="rm",
        )


def _draw_contract_cell(
    draw: ImageDraw.ImageDraw,
    x: float,
    middle: float,
    contract: str,
    text_font: ImageFont.FreeTypeFont,
) -> None:
    name, _, detail = contract.partition(":")
    title = _contract_title(name)
    _text(draw, (x, middle), title, font=text_font, fill=TEXT, anchor="lm")
    end = x + text_font.getlength(title) + 8
    if name == "trumps" and detail:
        draw_suit(draw, detail, (end + 8, middle), 16)
    elif name == "domino" and detail:
        _text(
            draw,
            (end, middle),
            f"from {_rank_text(detail)}",
            font=text_font,
            fill=TEXT_MUTED,
            anchor="lm",
        )


def _draw_sheet_totals(draw: ImageDraw.ImageDraw, y: int, totals: Sequence[int]) -> None:
    draw.line((16, y - 4, SHEET_WIDTH - 17, y - 4), fill=TEXT_MUTED, width=2)
    middle = y + 20
    _text(
        draw, (SHEET_COLUMNS[0] + 8, middle), "Total", font=font(18, "Bold"), fill=TEXT, anchor="lm"
    )
    best = max(totals)
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        colour = HIGHLIGHT if totals[seat] == best and any(totals) else TEXT
        _text(
            draw,
            (x + 104, middle),
            _signed(totals[seat]),
            font=font(20, "Bold"),
            fill=colour,
            anchor="rm",
        )


__all__ = [
    "render_barbu",
    "render_barbu_hand",
    "render_barbu_scores",
    "render_barbu_table",
    "sorted_hand",
]
