"""One player's Barbu hand, 720×236: the cards sorted by suit and rank and fanned so
every corner shows; on the seat's turn the legal cards are raised and outlined, the
others dimmed."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.barbu import BarbuView
from render.barbu.common import (
    RANK_ORDER,
    SUIT_ORDER,
    TEXT_SIZE,
    WIDTH,
    paste_card,
    player_names,
    put_text,
)
from render.theme import HIGHLIGHT, SEAT_COLOURS, TEXT, TEXT_MUTED
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_disc, draw_panel
from render.toolkit.text import draw_text_centred, fit_text, font
from texts.barbu import naming_caption, view_contract
from texts.i18n import ENGLISH, t

HAND_WIDTH, HAND_HEIGHT = WIDTH, 236
HAND_CARD = (72, 101)
HAND_SUIT_GAP = 12
HAND_RAISE = 14
HAND_CARDS_TOP = 112


def sorted_hand(cards: Sequence[str]) -> list[str]:
    """Suit by suit (♠♥♣♦, alternating colours), high cards first."""
    return sorted(cards, key=lambda card: (SUIT_ORDER.index(card[1]), -RANK_ORDER.index(card[0])))


def render_barbu_hand(view: BarbuView, names: Sequence[str], language: str = ENGLISH) -> bytes:
    """PNG of the hand in ``view`` (a seat's own view); legal cards raised on its turn."""
    return encode_png(draw_barbu_hand(view, names, language))


def draw_barbu_hand(view: BarbuView, names: Sequence[str], language: str = ENGLISH) -> Image.Image:
    """The picture of ``render_barbu_hand`` before encoding. The cards overlap so a whole
    hand fits: each shows its corner (rank and suit)."""
    players = player_names(names, language)
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
    put_text(draw, (54, 36), title, font=title_font, fill=TEXT, anchor="lm")
    contract = view_contract(language, view)
    if contract:
        label_left = 54 + title_font.getlength(title) + 14
        put_text(
            draw,
            (label_left, 36),
            fit_text(contract, label_font, HAND_WIDTH - 24 - label_left),
            font=label_font,
            fill=TEXT_MUTED,
            anchor="lm",
        )
    status = _hand_status(view, players, own_turn, legal, language)
    status_font = font(TEXT_SIZE, "SemiBold")
    put_text(
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
        return image
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
        paste_card(
            image,
            (x, y),
            card,
            HAND_CARD,
            language,
            dim=own_turn and not playable,
            highlighted=playable,
        )
        x += step
    return image


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
            own = naming_caption(language, view, None)
            return own or t(language, "Your turn: choose a contract")
        return t(language, "Your turn to double")
    if view["phase"] == "contract":
        naming = naming_caption(language, view, players[to_act])
        return naming or t(language, "{name} is choosing a contract", name=players[to_act])
    if view["phase"] == "doubling":
        return t(language, "{name} to decide", name=players[to_act])
    return t(language, "{name} to play", name=players[to_act])
