"""Where everything sits on the Barree picture, 856×880, and the board's colours: the
status line on top, the board on the left, the players' panels and the key on the
right, the footer below."""

from __future__ import annotations

from games.barree import row_of
from render.theme import BOARD_FRAME, BOARD_LIGHT, DISABLED, TEXT_DARK, WHITE, Colour, mix
from render.toolkit.geometry import Box, Point

WIDTH, HEIGHT = 856, 880
TEXT_SIZE = 21  # the smallest text: 11 px at a phone's 450 px
MARGIN = 16
STATUS_BOX: Box = (MARGIN, MARGIN, WIDTH - MARGIN, 76)
BOARD_BOX: Box = (MARGIN, 92, 524, 748)
SIDE_LEFT = 540
FOOTER_BOX: Box = (MARGIN, 760, WIDTH - MARGIN, HEIGHT - MARGIN)

SPACING = 78
GRID_LEFT = BOARD_BOX[0] + 62
GRID_TOP = BOARD_BOX[1] + 55
FIELD_RADIUS = 23
PIECE_RADIUS = 19
SMALL_PIECE_RADIUS = 15
LINE_COLOUR: Colour = mix(BOARD_FRAME, BOARD_LIGHT, 0.35)
LABEL_COLOUR: Colour = mix(BOARD_FRAME, BOARD_LIGHT, 0.2)
FIELD_FILL: Colour = mix(BOARD_LIGHT, WHITE, 0.6)
BLOCKED_FILL: Colour = mix(BOARD_LIGHT, DISABLED, 0.45)
BOARD_FILL: Colour = mix(BOARD_LIGHT, BOARD_FRAME, 0.08)
SHADOW: Colour = mix(BOARD_FRAME, TEXT_DARK, 0.5)

CARD_WIDTH, CARD_HEIGHT, CARD_GAP = 40, 54, 6
CARD_ROW_WIDTH = WIDTH - MARGIN - SIDE_LEFT - 28
DIE_SIZE = 48
PANEL_HEIGHT, PANEL_GAP = 128, 10
KEY_LINE = 32
FOOTER_LINES = 3
NAME_ROOM = 60  # the least a player's name keeps beside his cards in his panel
# The walk picker's numbered targets: a badge at the upper right of each field a walk can
# end on, leaving the field's own number readable.
TARGET_BADGE_RADIUS = 17
TARGET_BADGE_OFFSET: Point = (21, -21)
# Where the pieces sit when several share a field: around the centre, clear of the number.
CLUSTER_OFFSETS: tuple[Point, ...] = ((-17, -17), (17, -17), (-17, 17), (17, 17))


def field_centre(field: int) -> tuple[int, int]:
    """Pixel centre of a field: number row 1 at the top, place 1 at the left."""
    column, row = field % 10, row_of(field)
    return (GRID_LEFT + (column - 1) * SPACING, GRID_TOP + (row - 1) * SPACING)


def panel_boxes(players: int) -> list[Box]:
    """One panel per player down the right-hand side, seat 0 at the top."""
    top, step = BOARD_BOX[1], PANEL_HEIGHT + PANEL_GAP
    return [
        (SIDE_LEFT, top + seat * step, WIDTH - MARGIN, top + seat * step + PANEL_HEIGHT)
        for seat in range(players)
    ]


def table_box(players: int) -> Box:
    """The panel of piles and key: what the players' panels leave beside the board."""
    return (SIDE_LEFT, panel_boxes(players)[-1][3] + PANEL_GAP, WIDTH - MARGIN, BOARD_BOX[3])
