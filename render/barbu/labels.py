"""Every fixed word of the Barbu pictures with the room it has, so a test can check that
each fits in every language."""

from __future__ import annotations

from typing import NamedTuple

from PIL import ImageFont

from render.barbu.common import RANK_ORDER, SUIT_ORDER, TEXT_SIZE, WIDTH
from render.barbu.hand import HAND_WIDTH
from render.barbu.sheet import SHEET_COLUMNS, SHEET_WIDTH, deals_played
from render.barbu.table import (
    DOUBLES_BOX,
    FELT_BOX,
    LAST_DEAL_SCORE,
    SEAT_PANEL_SIZE,
    THIS_DEAL_SCORE,
    TOTALS_BOX,
    TRICK_CARD,
    doubles_cell,
    legend_lines,
    out_text,
    place_text,
)
from render.toolkit.text import font
from texts.barbu import contract_title, contract_title_of, short_contract_title
from texts.i18n import t, tn


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
    legend_room = DOUBLES_BOX[2] - 12 - (doubles_cell(0, 3)[2] + 16)
    contract_room = SHEET_COLUMNS[3] - 8 - (SHEET_COLUMNS[2] + 8)
    sheet_titles = [short_contract_title(language, name) for name in CONTRACT_NAMES]
    cards_13 = tn(language, "{count} card", "{count} cards", 13)
    worst_seat = " · ".join(
        (
            cards_13,
            tn(language, "{count} trick", "{count} tricks", 13),
            t(language, THIS_DEAL_SCORE, score="−130"),
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
        Label(f"{cards_13} · {out_text(language, 4)}", text, seat_room),
        Label(t(language, LAST_DEAL_SCORE, score="−130"), text, seat_room),
        *(Label(place_text(language, place), text, seat_room) for place in range(1, 5)),
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
            + deals_played(language, 28, 28),
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
        t(language, "Your turn: name the trump suit"),
        t(language, "Your turn: name the starting rank"),
        t(language, "Your turn to double"),
        t(language, "Game over"),
    ]


def _contract_titles(language: str) -> list[str]:
    """Every contract as the header names it, with each suit and starting rank."""
    plain = [contract_title(language, name) for name in CONTRACT_NAMES[:5]]
    trumps = [contract_title_of(language, f"trumps:{suit}") for suit in SUIT_ORDER]
    dominoes = [contract_title_of(language, f"domino:{rank}") for rank in RANK_ORDER]
    return [*plain, *trumps, *dominoes]
