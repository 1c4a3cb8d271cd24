"""League pictures: a leaderboard page and a member's profile card.

Both take plain dicts (built by the league cog from data.league results) and return PNG
bytes, so they can be drawn off the event loop and tested without a database.

Leaderboard view::

    {"title": "Bann", "season": "Season 1", "page": 1, "pages": 2,
     "rows": [{"rank": 1, "name": "Alice", "rating": 1136, "games": 4,
               "win_rate": 0.75, "trend": 42}, ...],
     "movers": {"days": 7, "rose": {"name": "Bob", "change": 48},
                "fell": {"name": "Carol", "change": -31}}}

Profile view::

    {"name": "Alice", "season": "Season 1",
     "games": [{"title": "Bann", "rating": 1136, "rank": 1, "games": 4, "wins": 3,
                "losses": 1, "draws": 0, "points": 2.0, "streak": 2,
                "recent": [{"outcome": "win", "change": 42}, ...],
                "history": {"start": 1000, "games": [...], "marks": [...]}}, ...]}

``movers`` (optional) names who rose and who fell most over the last ``days`` days of the
season (either None when nobody did). ``history`` is the season's rating history
(``render.rating_history``), None without a rated game.
``rating``/``rank`` are None for a game the member has no rated game in this season;
``trend`` and ``change`` are displayed rating differences (None: unrated game). The
record counts rated games only; an unrated result's chip is drawn hollow, so it does
not pass for one that counts.

Both pictures are 660 px wide with no text under 17 px, so every name and number stays
at least 11 px tall when a phone shows them 450 px wide.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw, ImageFont

from games.base import Counted, Nn_
from render import rating_history
from render.rating_history import draw_history, history_height
from render.theme import DANGER, PANEL, TEXT, TEXT_DARK, TEXT_MUTED, Colour, mix
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_disc, draw_panel, fill_polygon, fill_rounded
from render.toolkit.text import Label, clean_name, draw_text, fit_text, font
from texts.common import signed
from texts.i18n import N_, t, tn

WIDTH = 660
TEXT_SIZE = 17  # the smallest text: 11 px at a phone's 450 px
MARGIN = 16
HEADER_HEIGHT = 96
COLUMN_HEADER_HEIGHT = 36
ROW_HEIGHT = 50
FOOTER_HEIGHT = 44
EMPTY_HEIGHT = 90

RISE: Colour = (0, 158, 115)
FALL: Colour = DANGER
DRAW_COLOUR: Colour = (158, 165, 178)
MEDALS: dict[int, Colour] = {1: (247, 208, 70), 2: (200, 205, 214), 3: (205, 127, 50)}
OUTCOME_COLOURS = {"win": RISE, "loss": FALL, "draw": DRAW_COLOUR}
OUTCOME_LETTERS = {"win": N_("W"), "loss": N_("L"), "draw": N_("D")}
"""Letters on the recent-result chips: the first letter of win, loss and draw."""

# Leaderboard columns: rank and name by their left edge, numbers by their right edge.
RANK_X = MARGIN + 30
NAME_X = MARGIN + 62
RATING_RIGHT = 372
GAMES_RIGHT = 460
WIN_RATE_RIGHT = 540
TREND_RIGHT = WIDTH - MARGIN - 14

LABEL_GAP = 10
COLUMN_HEADINGS = (
    (N_("RATING"), RATING_RIGHT, RATING_RIGHT - NAME_X - 150),
    (N_("GAMES"), GAMES_RIGHT, GAMES_RIGHT - RATING_RIGHT - LABEL_GAP),
    (N_("WIN %"), WIN_RATE_RIGHT, WIN_RATE_RIGHT - GAMES_RIGHT - LABEL_GAP),
    (N_("TREND"), TREND_RIGHT, TREND_RIGHT - WIN_RATE_RIGHT - LABEL_GAP),
)
"""Each number column's heading, its right edge and the width it may take."""
RECORD_HEADINGS = (N_("RECORD"), N_("WIN RATE"), N_("POINTS"), N_("STREAK"))
RECORD_VALUE_OFFSET = 112
RECENT_OFFSET = 104
HEADING_SIZE = TEXT_SIZE

PROFILE_PANEL_HEIGHT = 188
"""A game's panel without its rating history (no rated game); the chart adds to it."""
PROFILE_GAP = 14
CHART_INSET = 20
CHART_WIDTH = WIDTH - 2 * MARGIN - 2 * CHART_INSET
CHART_BOTTOM = 16

MOVERS_HEIGHT = 84
MOVERS_HEADINGS = (
    ("rose", Nn_("ROSE MOST IN {count} DAY", "ROSE MOST IN {count} DAYS")),
    ("fell", Nn_("FELL MOST IN {count} DAY", "FELL MOST IN {count} DAYS")),
)
"""Each half of the standings' band of movers: which mover, and its heading."""
MOVER_ROOM = (WIDTH - 2 * MARGIN) / 2 - 2 * LABEL_GAP
RECENT_CHIP = 34
HOLLOW_EDGE = 3
"""The width of an unrated result's chip, drawn as an outline."""


def labels(language: str) -> list[Label]:
    """Every fixed heading of the league pictures in ``language``, with its box: the
    longest words of a language must fit without being cut."""
    heading = font(HEADING_SIZE, "SemiBold")
    return [
        Label(t(language, "PLAYER"), heading, RATING_RIGHT - NAME_X - 150),
        *(Label(t(language, text), heading, width) for text, _right, width in COLUMN_HEADINGS),
        *(
            Label(t(language, text), heading, RECORD_VALUE_OFFSET - LABEL_GAP)
            for text in RECORD_HEADINGS
        ),
        Label(t(language, "RECENT"), heading, RECENT_OFFSET - LABEL_GAP),
        *(
            Label(t(language, letter), font(20, "Bold"), RECENT_CHIP - 8)
            for letter in OUTCOME_LETTERS.values()
        ),
        *(
            Label(_movers_heading(language, counted, days), heading, MOVER_ROOM)
            for _, counted in MOVERS_HEADINGS
            for days in (1, 30)
        ),
        *rating_history.labels(language),
    ]


def render_standings(view: dict[str, Any], language: str) -> bytes:
    """A leaderboard page: rank, name, rating, games, win rate and trend per player, and
    who rose and who fell most lately."""
    rows = view["rows"]
    movers = view.get("movers")
    moved = movers is not None and any(movers.get(side) for side, _ in MOVERS_HEADINGS)
    body = ROW_HEIGHT * len(rows) if rows else EMPTY_HEIGHT
    band = MOVERS_HEIGHT if moved else 0
    height = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + body + band + FOOTER_HEIGHT
    image, draw = new_canvas(WIDTH, height)
    _draw_header(draw, t(language, "{game} standings", game=view["title"]), view["season"])
    top = HEADER_HEIGHT
    _draw_column_headings(draw, top, language)
    top += COLUMN_HEADER_HEIGHT
    if not rows:
        draw_text(
            draw,
            (WIDTH / 2, top + EMPTY_HEIGHT / 2),
            t(language, "No rated games yet."),
            font(22),
            TEXT_MUTED,
            anchor="mm",
        )
    for index, row in enumerate(rows):
        _draw_standing_row(draw, top + index * ROW_HEIGHT, row, striped=index % 2 == 1)
    if moved and movers is not None:
        _draw_movers(draw, top + body, movers, language)
    footer = t(
        language,
        "Page {page} of {pages} · rating = 1000 + 40 × (μ − 3σ)",
        page=view["page"],
        pages=view["pages"],
    )
    footer_font = font(TEXT_SIZE)
    footer = fit_text(footer, footer_font, WIDTH - 2 * MARGIN)
    draw_text(draw, (WIDTH / 2, height - FOOTER_HEIGHT / 2), footer, footer_font, TEXT_MUTED, "mm")
    return encode_png(image)


def _draw_header(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    draw_panel(draw, (MARGIN, 14, WIDTH - MARGIN, HEADER_HEIGHT - 10))
    title_font = font(30, "Bold")
    draw_text(draw, (MARGIN + 20, 36), fit_text(title, title_font, 400), title_font, TEXT)
    subtitle_font = font(19, "Medium")
    season = fit_text(clean_name(subtitle), subtitle_font, 170)
    draw_text(draw, (WIDTH - MARGIN - 24, 52), season, subtitle_font, TEXT_MUTED, anchor="rm")


def _draw_column_headings(draw: ImageDraw.ImageDraw, top: int, language: str) -> None:
    heading = font(HEADING_SIZE, "SemiBold")
    middle = top + COLUMN_HEADER_HEIGHT / 2
    draw_text(draw, (RANK_X, middle), "#", heading, TEXT_MUTED, "mm")
    draw_text(draw, (NAME_X, middle), t(language, "PLAYER"), heading, TEXT_MUTED, "lm")
    for label, right, _width in COLUMN_HEADINGS:
        draw_text(draw, (right, middle), t(language, label), heading, TEXT_MUTED, "rm")


def _draw_standing_row(
    draw: ImageDraw.ImageDraw, top: int, row: dict[str, Any], *, striped: bool
) -> None:
    if striped:
        fill_rounded(draw, (MARGIN, top + 2, WIDTH - MARGIN, top + ROW_HEIGHT - 2), 10, PANEL)
    middle = top + ROW_HEIGHT / 2
    rank = int(row["rank"])
    medal = MEDALS.get(rank)
    if medal is not None:
        draw_disc(draw, (RANK_X, middle), 17, medal, label=str(rank), label_colour=TEXT_DARK)
    else:
        draw_text(draw, (RANK_X, middle), str(rank), font(20, "SemiBold"), TEXT_MUTED, "mm")
    name_font = font(20, "SemiBold")
    name = fit_text(clean_name(str(row["name"])), name_font, RATING_RIGHT - 72 - NAME_X)
    draw_text(draw, (NAME_X, middle), name, name_font, TEXT, "lm")
    draw_text(draw, (RATING_RIGHT, middle), str(row["rating"]), font(24, "Bold"), TEXT, "rm")
    draw_text(draw, (GAMES_RIGHT, middle), str(row["games"]), font(19), TEXT, "rm")
    rate = f"{round(100 * float(row['win_rate']))}%"
    draw_text(draw, (WIN_RATE_RIGHT, middle), rate, font(19), TEXT, "rm")
    _draw_change(draw, (TREND_RIGHT, middle), row["trend"], font(19, "SemiBold"))


def _movers_heading(language: str, heading: Counted, days: int) -> str:
    return tn(language, heading.singular, heading.plural, days)


def _draw_movers(
    draw: ImageDraw.ImageDraw, top: int, movers: dict[str, Any], language: str
) -> None:
    """A band under the rows: who rose most and who fell most, each under its heading,
    with the change (signed, coloured, an arrow) before the name."""
    draw_panel(draw, (MARGIN, top + 8, WIDTH - MARGIN, top + MOVERS_HEIGHT - 6))
    heading_font, value_font = font(HEADING_SIZE, "SemiBold"), font(20, "SemiBold")
    half = (WIDTH - 2 * MARGIN) / 2
    for index, (side, counted) in enumerate(MOVERS_HEADINGS):
        left = MARGIN + index * half + 2 * LABEL_GAP
        heading = _movers_heading(language, counted, int(movers["days"]))
        draw_text(draw, (left, top + 30), heading, heading_font, TEXT_MUTED, "lm")
        mover = movers.get(side)
        if mover is None:
            draw_text(draw, (left, top + 58), "–", value_font, TEXT_MUTED, "lm")
            continue
        change = int(mover["change"])
        colour = RISE if change > 0 else FALL
        _draw_triangle(draw, (left + 7, top + 58), 14, colour, up=change > 0)
        shown = signed(change)
        draw_text(draw, (left + 20, top + 58), shown, value_font, colour, "lm")
        name_left = left + 20 + value_font.getlength(shown) + 10
        name = fit_text(clean_name(str(mover["name"])), value_font, left + MOVER_ROOM - name_left)
        draw_text(draw, (name_left, top + 58), name, value_font, TEXT, "lm")


def _draw_change(
    draw: ImageDraw.ImageDraw,
    right_middle: tuple[float, float],
    change: int | None,
    text_font: ImageFont.FreeTypeFont,
) -> None:
    """A signed rating change, right-aligned, with an up/down triangle (colour is not the
    only cue: the sign and the arrow's direction say it too)."""
    x, y = right_middle
    if change is None:
        draw_text(draw, (x, y), "–", text_font, TEXT_MUTED, "rm")
        return
    if change == 0:
        draw_text(draw, (x, y), "±0", text_font, TEXT_MUTED, "rm")
        return
    colour = RISE if change > 0 else FALL
    label = f"+{change}" if change > 0 else f"−{-change}"
    draw_text(draw, (x, y), label, text_font, colour, "rm")
    arrow_x = x - text_font.getlength(label) - 14
    _draw_triangle(draw, (arrow_x, y), 14, colour, up=change > 0)


def _draw_triangle(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, colour: Colour, *, up: bool
) -> None:
    x, y = centre
    half = size / 2
    tip, base = (y - half, y + half) if up else (y + half, y - half)
    fill_polygon(draw, ((x - half, base), (x + half, base), (x, tip)), colour)


def render_profile(view: dict[str, Any], language: str) -> bytes:
    """A member's card: per game the season rating, rank, record and recent results, and
    the season's rating history where he played a rated game."""
    games = view["games"]
    panels = [_panel_height(game) for game in games]
    height = HEADER_HEIGHT + sum(panels) + PROFILE_GAP * (len(games) - 1) + FOOTER_HEIGHT
    image, draw = new_canvas(WIDTH, max(height, HEADER_HEIGHT + FOOTER_HEIGHT))
    _draw_header(draw, clean_name(str(view["name"])), view["season"])
    top = HEADER_HEIGHT
    for game, panel in zip(games, panels, strict=True):
        _draw_game_panel(draw, top, panel, game, language)
        top += panel + PROFILE_GAP
    footer = t(language, "Newest result on the left · W win, L loss, D draw · hollow: unrated")
    footer_font = font(TEXT_SIZE)
    footer = fit_text(footer, footer_font, WIDTH - 2 * MARGIN)
    draw_text(draw, (WIDTH / 2, height - FOOTER_HEIGHT / 2), footer, footer_font, TEXT_MUTED, "mm")
    return encode_png(image)


def _panel_height(game: dict[str, Any]) -> int:
    history = game.get("history")
    if history is None:
        return PROFILE_PANEL_HEIGHT
    return PROFILE_PANEL_HEIGHT + history_height(history, CHART_WIDTH) + CHART_BOTTOM


def _draw_game_panel(
    draw: ImageDraw.ImageDraw, top: int, height: int, game: dict[str, Any], language: str
) -> None:
    draw_panel(draw, (MARGIN, top, WIDTH - MARGIN, top + height))
    left = MARGIN + 20
    draw_text(draw, (left, top + 20), str(game["title"]), font(24, "Bold"), TEXT)
    if game["rating"] is None:
        draw_text(draw, (left, top + 66), t(language, "No rated games"), font(20), TEXT_MUTED)
    else:
        draw_text(draw, (left, top + 56), str(game["rating"]), font(40, "Bold"), TEXT)
        rank = t(language, "rank {rank}", rank=game["rank"])
        draw_text(draw, (left + 106, top + 80), rank, font(19, "Medium"), TEXT_MUTED, "lm")
    _draw_record(draw, (250, top + 24), game, language)
    _draw_recent(draw, (left, top + 122), game["recent"], language)
    history = game.get("history")
    if history is not None:
        chart_origin = (MARGIN + CHART_INSET, top + PROFILE_PANEL_HEIGHT)
        draw_history(draw, chart_origin, CHART_WIDTH, history, language)


def _draw_record(
    draw: ImageDraw.ImageDraw, origin: tuple[int, int], game: dict[str, Any], language: str
) -> None:
    x, y = origin
    label, value = font(HEADING_SIZE, "SemiBold"), font(19, "Medium")
    games = int(game["games"])
    rate = f"{round(100 * game['wins'] / games)}%" if games else "–"
    record = t(
        language,
        "{wins}–{losses}–{draws} ({count} rated)",
        count=games,
        wins=game["wins"],
        losses=game["losses"],
        draws=game["draws"],
    )
    values = (record, rate, _number(game["points"]), _streak(int(game["streak"]), language))
    for index, (heading, text) in enumerate(zip(RECORD_HEADINGS, values, strict=True)):
        middle = y + 8 + index * 26
        draw_text(draw, (x, middle), t(language, heading), label, TEXT_MUTED, "lm")
        shown = fit_text(text, value, 250)
        draw_text(draw, (x + RECORD_VALUE_OFFSET, middle), shown, value, TEXT, "lm")


def _draw_recent(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    recent: list[dict[str, Any]],
    language: str,
) -> None:
    x, y = origin
    label_y = y + RECENT_CHIP / 2
    heading = font(HEADING_SIZE, "SemiBold")
    draw_text(draw, (x, label_y), t(language, "RECENT"), heading, TEXT_MUTED, "lm")
    if not recent:
        nothing = t(language, "No games yet")
        draw_text(draw, (x + RECENT_OFFSET, label_y), nothing, font(19), TEXT_MUTED, "lm")
        return
    for index, result in enumerate(recent[:8]):
        left = x + RECENT_OFFSET + index * (RECENT_CHIP + 30)
        colour = OUTCOME_COLOURS[result["outcome"]]
        change = result["change"]
        box = (left, y, left + RECENT_CHIP, y + RECENT_CHIP)
        fill_rounded(draw, box, 8, colour)
        if change is not None:
            letter_colour = TEXT_DARK
        else:
            inner = (box[0] + HOLLOW_EDGE, box[1] + HOLLOW_EDGE)
            inner_box = (*inner, box[2] - HOLLOW_EDGE, box[3] - HOLLOW_EDGE)
            fill_rounded(draw, inner_box, 8 - HOLLOW_EDGE, PANEL)
            letter_colour = colour
        letter = t(language, OUTCOME_LETTERS[result["outcome"]])
        centre = (left + RECENT_CHIP / 2, y + RECENT_CHIP / 2)
        draw_text(draw, centre, letter, font(20, "Bold"), letter_colour, "mm")
        caption = "–" if change is None else signed(change)
        caption_colour = TEXT_MUTED if change is None else mix(colour, TEXT, 0.3)
        draw_text(
            draw,
            (centre[0], y + RECENT_CHIP + 18),
            caption,
            font(TEXT_SIZE, "Medium"),
            caption_colour,
            "mm",
        )


def _streak(streak: int, language: str) -> str:
    if streak > 0:
        return tn(language, "{count} win", "{count} wins", streak)
    if streak < 0:
        return tn(language, "{count} loss", "{count} losses", -streak)
    return "–"


def _number(value: float) -> str:
    return f"{value:g}"
