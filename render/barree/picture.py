"""The whole Barree picture: the board, the status line with the die, one panel per
player (his face-up cards, his hidden cards as backs, his minus points), the piles and
a key, and a footer narrating the last action; the walk picker's board alone; and every
word with the room it has."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.barree import BAR, MAX_ROUNDS, BarreeEvent, BarreeView, new_game, row_of
from render.barree.board import draw_board, highlighted_seat
from render.barree.layout import (
    BOARD_BOX,
    CARD_GAP,
    CARD_ROW_WIDTH,
    CARD_WIDTH,
    DIE_SIZE,
    FOOTER_BOX,
    FOOTER_LINES,
    HEIGHT,
    KEY_LINE,
    NAME_ROOM,
    STATUS_BOX,
    TARGET_BADGE_OFFSET,
    TARGET_BADGE_RADIUS,
    TEXT_SIZE,
    WIDTH,
    field_centre,
    panel_boxes,
    table_box,
)
from render.barree.tiles import (
    Icon,
    active_panel_tile,
    card_back_tile,
    card_tile,
    die_tile,
    icon_tile,
    paste_piece,
    put_text,
)
from render.theme import (
    BACKGROUND,
    HIGHLIGHT,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    mix,
)
from render.toolkit.geometry import Box
from render.toolkit.png import encode_png
from render.toolkit.shapes import draw_disc, draw_panel, draw_turn_marker
from render.toolkit.text import Label, clean_name, draw_text_centred, font
from texts import barree as barree_text
from texts.i18n import ENGLISH, t, tn


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
    draw_board(image, view, _piece_labels(players))
    draw = ImageDraw.Draw(image)
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


@lru_cache(maxsize=3)
def _empty_table(players: int) -> Image.Image:
    """Background and every panel in its resting state, for a table of ``players``."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for box in (STATUS_BOX, FOOTER_BOX, table_box(players)):
        draw_panel(draw, box, fill=PANEL, edge=None)
    for box in panel_boxes(players):
        draw_panel(draw, box)
    return image


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
    put_text(draw, (text_left, middle), text, colour, size=22, weight="Bold", width=width)
    if shown:
        value, seat = shown
        image.paste(die_tile(value, seat), (right - DIE_SIZE - 14, middle - DIE_SIZE // 2))


# --- player panels, piles and key ---------------------------------------------------


def _draw_player_panels(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: BarreeView,
    players: Sequence[str],
    language: str,
) -> None:
    labels = _piece_labels(players)
    for seat, box in enumerate(panel_boxes(view["players"])):
        score = score_text(language, view, seat)
        _draw_player_panel(image, draw, view, seat, box, players[seat], labels[seat], score)
    entries = table_entries(language, view, players)
    _draw_table_panel(image, draw, entries, table_box(view["players"]))


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
    active = highlighted_seat(view) == seat
    background = mix(PANEL, colour.fill, 0.16) if active else PANEL
    left, top, right, _ = box
    if active:
        image.paste(active_panel_tile(seat), (left, top))
    header_y = top + 26
    if active:
        draw_turn_marker(draw, (left + 16, header_y), 14, colour.fill)
    paste_piece(image, (left + 44, header_y), 16, seat, label)
    score_width = round(font(TEXT_SIZE, "SemiBold").getlength(score))
    put_text(draw, (right - 14, header_y), score, TEXT_MUTED, weight="SemiBold", anchor="rm")
    name_colour = TEXT if active else mix(TEXT, TEXT_MUTED, 0.4)
    width = right - left - 80 - score_width - 16
    put_text(draw, (left + 68, header_y), name, name_colour, size=22, weight="Bold", width=width)
    x: float = left + 14
    y = header_y + 24
    held = len(view["cards"][seat]) + view["hidden"][seat]
    step = min(CARD_WIDTH + CARD_GAP, (CARD_ROW_WIDTH - CARD_WIDTH) / max(1, held - 1))
    for card in view["cards"][seat]:
        blocked = row_of(card) == view["blockade"]
        image.paste(card_tile(str(card), seat, blocked, background), (round(x), y))
        x += step
    for _ in range(view["hidden"][seat]):
        image.paste(card_back_tile(background), (round(x), y))
        x += step


def score_text(language: str, view: BarreeView, seat: int) -> str:
    """A player's cards in his panel's corner: "7 cards", "out!", with the match's minus
    points after them once he has any (never "out! · −0")."""
    held = len(view["cards"][seat]) + view["hidden"][seat]
    text = t(language, "out!") if held == 0 else tn(language, "{count} card", "{count} cards", held)
    if view["minus"][seat]:
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
        tile = icon_tile(*icon)
        image.paste(tile, (box[0] + 34 - tile.width // 2, y - tile.height // 2))
        put_text(draw, (box[0] + 64, y), text, TEXT_MUTED, width=width)
        y += KEY_LINE


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
    seat = highlighted_seat(view)
    if seat is not None:
        entries.append((("field", seat), t(language, "Cards of {name}", name=players[seat])))
    walk = view.get("last_walk")
    if walk:
        mover = walk["seat"]
        entries.append((("walk", mover), t(language, "Walk of {name}", name=players[mover])))
    if view["revealed"]:
        entries.append((("back", 0), t(language, "Hidden cards shown")))
    return entries


# --- footer -------------------------------------------------------------------------


def _draw_footer(
    draw: ImageDraw.ImageDraw, view: BarreeView, players: Sequence[str], language: str
) -> None:
    left, top, right, bottom = FOOTER_BOX
    narrated = barree_text.narrate(language, view["events"], players)
    lines = narrated or [t(language, "No moves yet")]
    hint = barree_text.trapped_hint(language, view, players)
    lines = [*lines[-(FOOTER_LINES - 1) :], hint] if hint else lines[-FOOTER_LINES:]
    line_height = 28
    y = (top + bottom) // 2 - line_height * (len(lines) - 1) // 2
    for line in lines:
        put_text(draw, (left + 16, y), line, TEXT, width=right - left - 32)
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
    panel, table = panel_boxes(4)[0], table_box(4)
    score_room = panel[2] - panel[0] - 96 - NAME_ROOM
    scores = [score_text(language, view, 0)]
    view["cards"][0], view["hidden"][0] = [], 0
    scores.append(score_text(language, view, 0))
    status_room = STATUS_BOX[2] - STATUS_BOX[0] - 40 - DIE_SIZE - 28 - 16
    trapped = view.copy()
    trapped["phase"], trapped["pieces"] = "roll", [81, 11, 12, 13]
    hint = barree_text.trapped_hint(language, trapped, names)
    assert hint is not None, "seat 0 stands in the blockaded row 8"
    footer_room = FOOTER_BOX[2] - FOOTER_BOX[0] - 32
    return [
        *(Label(text, font(TEXT_SIZE, "SemiBold"), score_room) for text in scores),
        *(
            Label(text, font(TEXT_SIZE), table[2] - table[0] - 80)
            for _icon, text in table_entries(language, view, names)
        ),
        Label(barree_text.status(language, view, names), font(22, "Bold"), status_room),
        Label(barree_text.status(language, trapped, names), font(22, "Bold"), status_room),
        Label(hint, font(TEXT_SIZE), footer_room),
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
