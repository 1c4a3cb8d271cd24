"""The Barree picture: a view dict (see games/barree/state.py ``view``) becomes a PNG.

Layout, 856×880: a status line with the die on top; on the left the board as a network
(48 numbered fields on their grid lines and four diagonals, number row 1 at the top, the
blockaded row crossed by a striped barrier); on the right one panel per player with his
face-up cards, his hidden cards as backs and his minus points, then the piles and a key;
a footer narrating the last action. No text is under 21 px, so every number stays 11 px
tall when a phone shows the picture 450 px wide. The walk just made is drawn as a path in
the mover's colour; the cards of the player to move are highlighted on the board. A long
row of cards overlaps, each card's number on its visible left edge.

Speed: everything that repeats between renders (the empty table, the board per blockaded
row, field, piece, card and die tiles, text masks) is drawn once and cached, so a render
is mostly pastes and the PNG encoding.

Modules: ``layout`` (sizes, places, colours), ``tiles`` (the cached small pictures),
``board`` (the board and what is drawn on it) and ``picture`` (the whole picture).
"""

from render.barree.layout import (
    BOARD_BOX,
    CARD_GAP,
    CARD_HEIGHT,
    CARD_WIDTH,
    CLUSTER_OFFSETS,
    FIELD_RADIUS,
    HEIGHT,
    PIECE_RADIUS,
    SIDE_LEFT,
    WIDTH,
    field_centre,
)
from render.barree.picture import (
    draw_barree,
    labels,
    render_barree,
    render_barree_targets,
)

__all__ = [
    "BOARD_BOX",
    "CARD_GAP",
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "CLUSTER_OFFSETS",
    "FIELD_RADIUS",
    "HEIGHT",
    "PIECE_RADIUS",
    "SIDE_LEFT",
    "WIDTH",
    "draw_barree",
    "field_centre",
    "labels",
    "render_barree",
    "render_barree_targets",
]

REPLAY_PICTURE = draw_barree
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
