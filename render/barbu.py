"""Barbu pictures: the table, one player's hand and the score sheet, from views only.

A view comes from ``games.barbu`` ``view(seat)`` (the public one, ``seat=None``, for the
table and the score sheet; a seat's own view for its hand). Seats sit clockwise round the
felt's corners: seat 0 bottom left, seat 1 top left, seat 2 top right, seat 3 bottom right.

Every picture is 720 px wide and draws no text under 18 px, so every number, name and card
rank is at least 11 px tall when a phone shows the picture 450 px wide.

- Table, 720×972: a header with the contract and the deal's status line; the felt with
  the four seats in its corners (name, cards left, tricks, deal points, roles and
  penalty cards), the current trick between them (each card towards its player's
  corner; the last trick while the next is not led), or the four Domino rows; below,
  the totals and the doubles between every pair.
- Hand, 720×236: the cards sorted by suit and rank and fanned so every corner shows; on
  the seat's turn the legal cards are raised and outlined, the others dimmed.
- Score sheet, 720×(rows): one row per deal with declarer, contract and each player's
  deal score beside the seats he doubled (numbered discs, ringed for a redouble).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.barbu import BarbuDeal, BarbuTrickCard, BarbuView
from render.theme import (
    CARD_FACE,
    HIGHLIGHT,
    PANEL,
    PANEL_EDGE,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Box,
    Colour,
    card_radius,
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
    fill_rounded,
    fit_text,
    font,
    mix,
    new_canvas,
    rounded_mask,
    suit_colour,
)
from texts import barbu as barbu_text
from texts.barbu import (
    contract_title,
    contract_title_of,
    rank_label,
    short_contract_title,
    view_contract,
)
from texts.i18n import ENGLISH, t, tn, tp

TEXT_SIZE = 18  # the smallest text: 11 px at a phone's 450 px
WIDTH = 720
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
NEGATIVE_SCORE: Colour = (255, 150, 140)
SUIT_ORDER = "SHCD"
RANK_ORDER = "23456789TJQKA"
TRICK_CARD = (72, 101)
TRICK_GAP = (16, 12)
DOMINO_CARD = (70, 98)
DOMINO_STEP = (46, 62)
DOUBLES_CELL = 34
HAND_WIDTH, HAND_HEIGHT = WIDTH, 236
HAND_CARD = (72, 101)
HAND_SUIT_GAP = 12
HAND_RAISE = 14
HAND_CARDS_TOP = 112
SHEET_WIDTH = WIDTH
SHEET_ROW = 34
SHEET_HEADER_Y = 118
SHEET_COLUMNS = (16, 52, 88, 236)
SHEET_PLAYER_WIDTH = 117
CHIP_HEIGHT = 28


def _names(names: Sequence[str], language: str) -> list[str]:
    return [
        clean_name(names[seat])
        if seat < len(names)
        else t(language, "Seat {number}", number=seat + 1)
        for seat in range(4)
    ]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


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
    image: Image.Image,
    top_left: tuple[float, float],
    card: str,
    size: tuple[int, int],
    language: str,
    *,
    dim: bool = False,
    highlighted: bool = False,
) -> None:
    """A card face of ``size`` at ``top_left``: greyed when ``dim`` (not playable now),
    framed when ``highlighted`` (playable, or winning the trick)."""
    tile, mask = _card_tile(rank_label(language, card[0]), card[1], size, dim, highlighted)
    image.paste(tile, (round(top_left[0]), round(top_left[1])), mask)


@lru_cache(maxsize=256)
def _card_tile(
    rank: str, suit: str, size: tuple[int, int], dim: bool, highlighted: bool
) -> tuple[Image.Image, Image.Image]:
    """A card drawn once and the mask of its rounded shape: hands and Domino rows paste
    up to 52 of them per picture, overlapping. ``rank`` is as the corner shows it
    ("10", "D" for a German queen)."""
    width, height = size
    tile = Image.new("RGB", size, CARD_FACE)
    draw_card(
        ImageDraw.Draw(tile),
        (0, 0, width, height),
        rank,
        suit,
        highlighted=highlighted,
        dimmed=dim,
    )
    return tile, rounded_mask(width, height, card_radius(width))


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """Suit by suit (♠♥♣♦, alternating colours), high cards first."""
    return sorted(cards, key=lambda card: (SUIT_ORDER.index(card[1]), -RANK_ORDER.index(card[0])))


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
        _text(draw, (x + 26, middle), text, font=rank_font, fill=suit_colour(suit), anchor="lm")
        x += width + 8


# --- the hand -----------------------------------------------------------------------


def render_barbu_hand(view: BarbuView, names: Sequence[str], language: str = ENGLISH) -> bytes:
    """PNG of the hand in ``view`` (a seat's own view); legal cards raised on its turn.
    The cards overlap so a whole hand fits: each shows its corner (rank and suit)."""
    players = _names(names, language)
    seat = view["seat"]
    image, draw = new_canvas(HAND_WIDTH, HAND_HEIGHT)
    draw_panel(draw, (8, 8, HAND_WIDTH - 8, HAND_HEIGHT - 8))
    hand = sorted_hand(view["hand"] or [])
    own_turn = view["to_act"] == seat and view["phase"] == "play"
    legal = set(view["legal"]) if own_turn else set()
    colour = SEAT_COLOURS[seat] if seat is not None else SEAT_COLOURS[0]
    draw_disc(draw, (34, 36), 11, colour.fill, edge=colour.edge, edge_width=2)
    title_font, label_font = font(22, "Bold"), font(TEXT_SIZE)
    title = fit_text(players[seat] if seat is not None else t(language, "Hand"), title_font, 380)
    _text(draw, (54, 36), title, font=title_font, fill=TEXT, anchor="lm")
    contract = view_contract(language, view)
    if contract:
        label_left = 54 + title_font.getlength(title) + 14
        _text(
            draw,
            (label_left, 36),
            fit_text(contract, label_font, HAND_WIDTH - 24 - label_left),
            font=label_font,
            fill=TEXT_MUTED,
            anchor="lm",
        )
    status = _hand_status(view, players, own_turn, legal, language)
    status_font = font(TEXT_SIZE, "SemiBold")
    _text(
        draw,
        (24, 72),
        fit_text(status, status_font, HAND_WIDTH - 48),
        font=status_font,
        fill=HIGHLIGHT if own_turn or view["to_act"] == seat else TEXT_MUTED,
        anchor="lm",
    )
    if not hand:
        draw_text_centred(
            draw, (HAND_WIDTH / 2, 160), t(language, "No cards"), font(22), TEXT_MUTED
        )
        return encode_png(image)
    suits_present = len({card[1] for card in hand})
    room = HAND_WIDTH - 48 - HAND_CARD[0] - (suits_present - 1) * HAND_SUIT_GAP
    step = min(HAND_CARD[0] + 6, room / max(1, len(hand) - 1))
    row_width = (len(hand) - 1) * step + HAND_CARD[0] + (suits_present - 1) * HAND_SUIT_GAP
    x = (HAND_WIDTH - row_width) / 2
    previous_suit = hand[0][1]
    for card in hand:
        if card[1] != previous_suit:
            x += HAND_SUIT_GAP
            previous_suit = card[1]
        playable = card in legal
        y = HAND_CARDS_TOP - (HAND_RAISE if playable else 0)
        _card(
            image,
            (x, y),
            card,
            HAND_CARD,
            language,
            dim=own_turn and not playable,
            highlighted=playable,
        )
        x += step
    return encode_png(image)


def _hand_status(
    view: BarbuView, players: Sequence[str], own_turn: bool, legal: set[str], language: str
) -> str:
    to_act = view["to_act"]
    if own_turn:
        if legal == {"pass"}:
            return t(language, "No card fits: pass")
        return t(language, "Your turn: play a raised card")
    if to_act is None:
        return t(language, "Game over")
    if to_act == view["seat"]:
        if view["phase"] == "contract":
            return t(language, "Your turn: choose a contract")
        return t(language, "Your turn to double")
    if view["phase"] == "contract":
        return t(language, "{name} is choosing a contract", name=players[to_act])
    if view["phase"] == "doubling":
        return t(language, "{name} to decide", name=players[to_act])
    return t(language, "{name} to play", name=players[to_act])


# --- the table ----------------------------------------------------------------------


def render_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> bytes:
    """PNG of the table in the public ``view``; ``headline`` replaces the header's line."""
    return encode_png(draw_barbu_table(view, names, headline, language))


def draw_barbu_table(
    view: BarbuView, names: Sequence[str], headline: str | None = None, language: str = ENGLISH
) -> Image.Image:
    """The picture of ``render_barbu_table`` before encoding (replays compose these)."""
    players = _names(names, language)
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
    _text(draw, (text_left, title_middle), title, font=title_font, fill=TEXT, anchor="lm")
    line = headline if headline is not None else barbu_text.board_status(language, view, players)
    status_font = font(TEXT_SIZE, "SemiBold")
    _text(
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
    _seat_number(draw, (left + 24, name_middle), 13, seat, TEXT_SIZE)
    name_left = left + 46
    name_right = right - 14
    if view["to_act"] == seat:
        draw_turn_marker(draw, (name_left + 6, name_middle), 14, HIGHLIGHT)
        name_left += 20
    name_font = font(20, "Bold")
    _text(
        draw,
        (name_left, name_middle),
        fit_text(players[seat], name_font, name_right - name_left),
        font=name_font,
        fill=TEXT,
        anchor="lm",
    )
    detail_font = font(TEXT_SIZE)
    _text(
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
        return _place(language, place)
    cards = view["hand_sizes"][seat]
    parts = [tn(language, "{count} card", "{count} cards", cards)]
    if view["contract"] == "domino" and view["domino"]:
        finished = view["domino"]["finished"]
        if seat in finished:
            parts.append(_out(language, finished.index(seat) + 1))
    elif view["contract"]:
        parts.append(tn(language, "{count} trick", "{count} tricks", view["tricks_won"][seat]))
    if view["contract"] and view["contract"] != "domino":
        parts.append(t(language, "deal {score}", score=_signed(view["deal_points"][seat])))
    elif view["phase"] == "contract" and view["history"]:
        score = _signed(view["history"][-1]["scores"][seat])
        parts.append(t(language, "last deal {score}", score=score))
    return " · ".join(parts)


def _place(language: str, place: int) -> str:
    """ "1st place", "1. Platz"."""
    places = {
        1: t(language, "1st place"),
        2: t(language, "2nd place"),
        3: t(language, "3rd place"),
    }
    return places.get(place, t(language, "{place}th place", place=place))


def _out(language: str, place: int) -> str:
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
        _card(
            image,
            (x, y),
            entry["card"],
            TRICK_CARD,
            language,
            highlighted=entry["seat"] == winning,
        )
        outer_x = x - 20 if entry["seat"] in (0, 1) else x + TRICK_CARD[0] + 20
        _seat_number(draw, (outer_x, y + TRICK_CARD[1] / 2), 13, entry["seat"], TEXT_SIZE)
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
            _card(image, (left + rank * step_x, y), RANK_ORDER[rank] + suit, DOMINO_CARD, language)


def _draw_centre_message(
    draw: ImageDraw.ImageDraw, view: BarbuView, players: Sequence[str], language: str
) -> None:
    cx, cy = CENTRE
    big, small = font(24, "Bold"), font(TEXT_SIZE)
    width = FELT_BOX[2] - FELT_BOX[0] - 48
    if view["phase"] == "contract":
        title = t(language, "{name} chooses a contract", name=players[view["declarer"]])
        draw_text_centred(draw, (cx, cy - 60), fit_text(title, big, width), big, TEXT)
        titles = [contract_title(language, name) for name in view["remaining_contracts"]]
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
    _text(
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
        score = _signed(view["totals"][seat])
        _text(draw, (right - 16, middle), score, font=score_font, fill=TEXT, anchor="rm")
        name_width = right - 16 - score_font.getlength(score) - 12 - (left + 46)
        _text(
            draw,
            (left + 46, middle),
            fit_text(players[seat], name_font, name_width),
            font=name_font,
            fill=TEXT,
            anchor="lm",
        )


def _doubles_cell(doubler: int, doubled: int) -> Box:
    grid_left, grid_top = DOUBLES_BOX[0] + 58, DOUBLES_BOX[1] + 80
    left = grid_left + doubled * DOUBLES_CELL
    top = grid_top + doubler * DOUBLES_CELL
    return (left + 3, top + 3, left + DOUBLES_CELL - 3, top + DOUBLES_CELL - 3)


def _draw_doubles_grid(draw: ImageDraw.ImageDraw, language: str) -> None:
    """The empty 4×4 grid: row = who doubles, column = who is doubled; the legend beside."""
    _side_panel(draw, DOUBLES_BOX, t(language, "DOUBLES"))
    for seat in range(4):
        column = _doubles_cell(0, seat)
        row = _doubles_cell(seat, 0)
        column_x = (column[0] + column[2]) / 2
        row_y = (row[1] + row[3]) / 2
        for centre in ((column_x, column[1] - 20), (row[0] - 22, row_y)):
            _seat_number(draw, centre, 13, seat, TEXT_SIZE)
    for doubler in range(4):
        for doubled in range(4):
            box = _doubles_cell(doubler, doubled)
            if doubler == doubled:
                draw_panel(draw, box, fill=mix(PANEL, PANEL_EDGE, 0.3), edge=None, radius=5)
            else:
                draw_panel(draw, box, fill=PANEL, edge=PANEL_EDGE, radius=5, edge_width=1)
    legend_left = _doubles_cell(0, 3)[2] + 16
    legend_font = font(TEXT_SIZE)
    y = DOUBLES_BOX[1] + 84
    for text, gap in zip(legend_lines(language), (34, 48, 34, 34), strict=True):
        _text(draw, (legend_left, y), text, font=legend_font, fill=TEXT_MUTED, anchor="lm")
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
        box = _doubles_cell(doubler, doubled)
        draw_panel(draw, box, fill=REDOUBLE if redouble else HIGHLIGHT, edge=None, radius=5)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        mark = _redouble_mark(language) if redouble else _double_mark(language)
        draw_text_centred(draw, centre, mark, mark_font, TEXT_DARK)


# --- the score sheet ----------------------------------------------------------------


def render_barbu_scores(view: BarbuView, names: Sequence[str], language: str = ENGLISH) -> bytes:
    """PNG of the score sheet: one row per played deal and the totals."""
    players = _names(names, language)
    history = view["history"]
    image = _sheet_background(len(history), language).copy()
    draw = ImageDraw.Draw(image)
    played = tn(
        language,
        "{count} of {total} deal",
        "{count} of {total} deals",
        len(history),
        total=view["total_deals"],
    )
    _text(draw, (SHEET_WIDTH - 24, 40), played, font=font(TEXT_SIZE), fill=TEXT_MUTED, anchor="rm")
    header_font = font(TEXT_SIZE, "Bold")
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        _text(
            draw,
            (x + 30, SHEET_HEADER_Y),
            fit_text(players[seat], header_font, SHEET_PLAYER_WIDTH - 34),
            font=header_font,
            fill=TEXT,
            anchor="lm",
        )
    y = SHEET_HEADER_Y + 24
    if not history:
        _text(
            draw,
            (24, y + SHEET_ROW / 2),
            t(language, "No deals played yet."),
            font=font(TEXT_SIZE),
            fill=TEXT_MUTED,
            anchor="lm",
        )
    for number, deal in enumerate(history):
        _draw_sheet_row(draw, y, number, deal, language)
        y += SHEET_ROW
    _draw_sheet_totals(draw, y + 8, view["totals"], language)
    return encode_png(image)


@lru_cache(maxsize=32)
def _sheet_background(deals: int, language: str) -> Image.Image:
    """The panel, title, column heads, row stripes and series rules for ``deals`` rows."""
    height = SHEET_HEADER_Y + 24 + max(1, deals) * SHEET_ROW + 56 + 24
    image, draw = new_canvas(SHEET_WIDTH, height)
    draw_panel(draw, (8, 8, SHEET_WIDTH - 8, height - 8))
    title = t(language, "Barbu — score sheet")
    _text(draw, (24, 40), title, font=font(24, "Bold"), fill=TEXT, anchor="lm")
    legend_font = font(TEXT_SIZE)
    legend = t(language, "Discs: the seats that player doubled (ringed: redoubled)")
    _text(
        draw,
        (24, 76),
        fit_text(legend, legend_font, SHEET_WIDTH - 48),
        font=legend_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    header_font = font(TEXT_SIZE, "Bold")
    for text, x in (("#", SHEET_COLUMNS[0]), (t(language, "Contract"), SHEET_COLUMNS[2])):
        _text(draw, (x + 8, SHEET_HEADER_Y), text, font=header_font, fill=TEXT_MUTED, anchor="lm")
    for seat in range(4):
        centre = (SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH + 14, SHEET_HEADER_Y)
        _seat_number(draw, centre, 13, seat, TEXT_SIZE)
    for number in range(deals):
        y = SHEET_HEADER_Y + 24 + number * SHEET_ROW
        if number % 2 == 0:
            draw.rectangle(
                (16, y, SHEET_WIDTH - 17, y + SHEET_ROW - 1), fill=mix(PANEL, TEXT, 0.04)
            )
        if number % 7 == 0 and number:
            draw.line((16, y, SHEET_WIDTH - 17, y), fill=PANEL_EDGE, width=2)
    return image


def _draw_sheet_row(
    draw: ImageDraw.ImageDraw, y: int, number: int, deal: BarbuDeal, language: str
) -> None:
    """Deal number, the declarer's seat disc, the contract, then per player the seats he
    doubled and his deal score (the running totals are the table picture's)."""
    middle = y + SHEET_ROW / 2
    text_font, score_font = font(TEXT_SIZE), font(TEXT_SIZE, "Bold")
    _text(
        draw,
        (SHEET_COLUMNS[0] + 8, middle),
        str(number + 1),
        font=text_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    _seat_number(draw, (SHEET_COLUMNS[1] + 20, middle), 13, deal["declarer"], TEXT_SIZE)
    _draw_contract_cell(
        draw,
        (SHEET_COLUMNS[2] + 8, middle, SHEET_COLUMNS[3] - 8),
        deal["contract"],
        text_font,
        language,
    )
    doubles = {(pair[0], pair[1]) for pair in deal["doubles"]}
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        for index, target in enumerate(other for other in range(4) if (seat, other) in doubles):
            centre = (x + 14 + index * 17, middle)
            _seat_number(draw, centre, 12, target, TEXT_SIZE)
            if (target, seat) in doubles:
                draw_ring(draw, centre, 14.5, 2, HIGHLIGHT)
        score = deal["scores"][seat]
        score_colour = TEXT if score >= 0 else NEGATIVE_SCORE
        _text(
            draw,
            (x + SHEET_PLAYER_WIDTH - 10, middle),
            _signed(score),
            font=score_font,
            fill=score_colour,
            anchor="rm",
        )


def _draw_contract_cell(
    draw: ImageDraw.ImageDraw,
    line: tuple[float, float, float],
    contract: str,
    text_font: ImageFont.FreeTypeFont,
    language: str,
) -> None:
    x, middle, right = line
    name, _, detail = contract.partition(":")
    # Room for the trump suit's pip or the starting rank after the title.
    room = right - x - (28 if detail else 0)
    title = fit_text(short_contract_title(language, name), text_font, room)
    _text(draw, (x, middle), title, font=text_font, fill=TEXT, anchor="lm")
    end = x + text_font.getlength(title) + 6
    if name == "trumps" and detail:
        draw_suit(draw, detail, (end + 9, middle), 18)
    elif name == "domino" and detail:
        _text(
            draw,
            (end, middle),
            fit_text(rank_label(language, detail), text_font, right - end),
            font=text_font,
            fill=TEXT_MUTED,
            anchor="lm",
        )


def _draw_sheet_totals(
    draw: ImageDraw.ImageDraw, y: int, totals: Sequence[int], language: str
) -> None:
    draw.line((16, y - 4, SHEET_WIDTH - 17, y - 4), fill=TEXT_MUTED, width=2)
    middle = y + 22
    total = t(language, "Total")
    _text(
        draw, (SHEET_COLUMNS[0] + 8, middle), total, font=font(22, "Bold"), fill=TEXT, anchor="lm"
    )
    best = max(totals)
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        colour = HIGHLIGHT if totals[seat] == best and any(totals) else TEXT
        _text(
            draw,
            (x + SHEET_PLAYER_WIDTH - 10, middle),
            _signed(totals[seat]),
            font=font(22, "Bold"),
            fill=colour,
            anchor="rm",
        )


# --- the fixed words and their room -------------------------------------------------


class Label(NamedTuple):
    """A word the pictures draw and the room it has there."""

    text: str
    font: ImageFont.FreeTypeFont
    width: float


def labels(language: str) -> list[Label]:
    """Every fixed word of the Barbu pictures in ``language`` at its longest (the widest
    numbers, every contract, suit and rank), with its box: German must fit uncut."""
    text, bold, semibold = font(TEXT_SIZE), font(TEXT_SIZE, "Bold"), font(TEXT_SIZE, "SemiBold")
    seat_room = SEAT_PANEL_SIZE[0] - 28
    legend_room = DOUBLES_BOX[2] - 12 - (_doubles_cell(0, 3)[2] + 16)
    contract_room = SHEET_COLUMNS[3] - 8 - (SHEET_COLUMNS[2] + 8)
    sheet_titles = [short_contract_title(language, name) for name in CONTRACT_NAMES]
    cards_13 = tn(language, "{count} card", "{count} cards", 13)
    worst_seat = " · ".join(
        (
            cards_13,
            tn(language, "{count} trick", "{count} tricks", 13),
            t(language, "deal {score}", score="−130"),
        )
    )
    return [
        *(Label(line, text, legend_room) for line in legend_lines(language)),
        Label(t(language, "TOTALS"), bold, TOTALS_BOX[2] - TOTALS_BOX[0] - 32),
        Label(t(language, "DOUBLES"), bold, DOUBLES_BOX[2] - DOUBLES_BOX[0] - 32),
        # A role chip leaves room for one chip of penalty cards beside it.
        Label(t(language, "Declarer"), bold, seat_room - 18 - 8 - 60),
        Label(t(language, "Dealer"), bold, seat_room - 18 - 8 - 60),
        Label(worst_seat, text, seat_room),
        Label(f"{cards_13} · {_out(language, 4)}", text, seat_room),
        Label(t(language, "last deal {score}", score="−130"), text, seat_room),
        *(Label(_place(language, place), text, seat_room) for place in range(1, 5)),
        Label(t(language, "lead"), text, TRICK_CARD[0] - 8),
        *(Label(status, semibold, HAND_WIDTH - 48) for status in _hand_statuses(language)),
        *(Label(title, font(26, "Bold"), WIDTH - 110) for title in _contract_titles(language)),
        Label(t(language, "Choosing the contract"), font(26, "Bold"), WIDTH - 110),
        Label(t(language, "Final totals below"), text, FELT_BOX[2] - FELT_BOX[0] - 48),
        Label(t(language, "Declarer's left starts"), text, FELT_BOX[2] - FELT_BOX[0] - 48),
        *(Label(title, text, contract_room) for title in sheet_titles[:5]),
        *(Label(title, text, contract_room - 28) for title in sheet_titles[5:]),
        Label(t(language, "Contract"), bold, contract_room),
        Label(t(language, "Total"), font(22, "Bold"), SHEET_COLUMNS[3] - SHEET_COLUMNS[0]),
        Label(
            t(language, "Discs: the seats that player doubled (ringed: redoubled)"),
            text,
            SHEET_WIDTH - 48,
        ),
        # The sheet's title and, right-aligned on its line, the deals played.
        Label(
            t(language, "Barbu — score sheet")
            + "    "
            + tn(language, "{count} of {total} deal", "{count} of {total} deals", 28, total=28),
            font(24, "Bold"),
            SHEET_WIDTH - 48,
        ),
    ]


CONTRACT_NAMES = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu", "trumps", "domino")


def _hand_statuses(language: str) -> list[str]:
    return [
        t(language, "No card fits: pass"),
        t(language, "Your turn: play a raised card"),
        t(language, "Your turn: choose a contract"),
        t(language, "Your turn to double"),
        t(language, "Game over"),
    ]


def _contract_titles(language: str) -> list[str]:
    """Every contract as the header names it, with each suit and starting rank."""
    plain = [contract_title(language, name) for name in CONTRACT_NAMES[:5]]
    trumps = [contract_title_of(language, f"trumps:{suit}") for suit in SUIT_ORDER]
    dominoes = [contract_title_of(language, f"domino:{rank}") for rank in RANK_ORDER]
    return [*plain, *trumps, *dominoes]


__all__ = [
    "render_barbu",
    "render_barbu_hand",
    "render_barbu_scores",
    "render_barbu_table",
    "sorted_hand",
]


REPLAY_PICTURE = draw_barbu_table
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
