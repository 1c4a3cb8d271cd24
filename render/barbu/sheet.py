"""The Barbu score sheet, 720×(rows): one row per deal with declarer, contract and each
player's deal score beside the seats he doubled (numbered discs, ringed for a
redouble)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from games.barbu import BarbuDeal, BarbuView
from render.barbu.common import (
    TEXT_SIZE,
    WIDTH,
    draw_seat_number,
    player_names,
    put_text,
    signed_score,
)
from render.theme import HIGHLIGHT, PANEL, PANEL_EDGE, TEXT, TEXT_MUTED, Colour, mix
from render.toolkit.cards import draw_suit
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_panel, draw_ring
from render.toolkit.text import fit_text, font
from texts.barbu import rank_label, short_contract_title
from texts.i18n import ENGLISH, t, tn

SHEET_WIDTH = WIDTH
SHEET_ROW = 34
SHEET_HEADER_Y = 118
SHEET_COLUMNS = (16, 52, 88, 236)
SHEET_PLAYER_WIDTH = 117
NEGATIVE_SCORE: Colour = (255, 150, 140)


def deals_played(language: str, played: int, total: int) -> str:
    """The sheet's count of deals: "1 of 28 deals played" (the noun follows the total)."""
    return tn(
        language,
        "{played} of {count} deal played",
        "{played} of {count} deals played",
        total,
        played=played,
    )


def render_barbu_scores(view: BarbuView, names: Sequence[str], language: str = ENGLISH) -> bytes:
    """PNG of the score sheet: one row per played deal and the totals."""
    players = player_names(names, language)
    history = view["history"]
    image = _sheet_background(len(history), language).copy()
    draw = ImageDraw.Draw(image)
    played = deals_played(language, len(history), view["total_deals"])
    put_text(
        draw, (SHEET_WIDTH - 24, 40), played, font=font(TEXT_SIZE), fill=TEXT_MUTED, anchor="rm"
    )
    header_font = font(TEXT_SIZE, "Bold")
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        put_text(
            draw,
            (x + 30, SHEET_HEADER_Y),
            fit_text(players[seat], header_font, SHEET_PLAYER_WIDTH - 34),
            font=header_font,
            fill=TEXT,
            anchor="lm",
        )
    y = SHEET_HEADER_Y + 24
    if not history:
        put_text(
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
    put_text(draw, (24, 40), title, font=font(24, "Bold"), fill=TEXT, anchor="lm")
    legend_font = font(TEXT_SIZE)
    legend = t(language, "Discs: the seats that player doubled (ringed: redoubled)")
    put_text(
        draw,
        (24, 76),
        fit_text(legend, legend_font, SHEET_WIDTH - 48),
        font=legend_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    header_font = font(TEXT_SIZE, "Bold")
    for text, x in (("#", SHEET_COLUMNS[0]), (t(language, "Contract"), SHEET_COLUMNS[2])):
        put_text(
            draw, (x + 8, SHEET_HEADER_Y), text, font=header_font, fill=TEXT_MUTED, anchor="lm"
        )
    for seat in range(4):
        centre = (SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH + 14, SHEET_HEADER_Y)
        draw_seat_number(draw, centre, 13, seat, TEXT_SIZE)
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
    put_text(
        draw,
        (SHEET_COLUMNS[0] + 8, middle),
        str(number + 1),
        font=text_font,
        fill=TEXT_MUTED,
        anchor="lm",
    )
    draw_seat_number(draw, (SHEET_COLUMNS[1] + 20, middle), 13, deal["declarer"], TEXT_SIZE)
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
            draw_seat_number(draw, centre, 12, target, TEXT_SIZE)
            if (target, seat) in doubles:
                draw_ring(draw, centre, 14.5, 2, HIGHLIGHT)
        score = deal["scores"][seat]
        score_colour = TEXT if score >= 0 else NEGATIVE_SCORE
        put_text(
            draw,
            (x + SHEET_PLAYER_WIDTH - 10, middle),
            signed_score(score),
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
    put_text(draw, (x, middle), title, font=text_font, fill=TEXT, anchor="lm")
    end = x + text_font.getlength(title) + 6
    if name == "trumps" and detail:
        draw_suit(draw, detail, (end + 9, middle), 18)
    elif name == "domino" and detail:
        put_text(
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
    put_text(
        draw, (SHEET_COLUMNS[0] + 8, middle), total, font=font(22, "Bold"), fill=TEXT, anchor="lm"
    )
    best = max(totals)
    for seat in range(4):
        x = SHEET_COLUMNS[3] + seat * SHEET_PLAYER_WIDTH
        colour = HIGHLIGHT if totals[seat] == best and any(totals) else TEXT
        put_text(
            draw,
            (x + SHEET_PLAYER_WIDTH - 10, middle),
            signed_score(totals[seat]),
            font=font(22, "Bold"),
            fill=colour,
            anchor="rm",
        )
