"""Bann: two armies of numbered knights on a 6×6 board, steered by dice that ban.

The package: ``board`` (squares, knights, legal moves and captures, the board's text),
``state`` (``BannState`` and ``new_game``), ``codec`` (``from_dict`` and ``BN1`` position
codes) and ``computer`` (``bot_action``, an alpha-beta search); this module holds ``SPEC``
and re-exports the public names.
"""

from games.bann.board import (
    CASTLES,
    DIRECTIONS,
    FILES,
    START_BOARD,
    START_SQUARES,
    Move,
    side_faces,
    square_index,
    square_name,
    target_castle,
)
from games.bann.codec import (
    from_code,
    from_dict,
)
from games.bann.computer import (
    ACCEPT_DRAW_BELOW,
    ADVANCE,
    CAPTURE_READY,
    CASTLE_THREAT,
    DEPTH_GROWTH,
    EASY_MARGIN,
    KNIGHT_VALUE,
    MAX_DEPTH,
    MOBILITY,
    NODE_LIMITS,
    UNDER_THREAT,
    WIN,
    bot_action,
)
from games.bann.state import (
    BannKnight,
    BannMove,
    BannState,
    BannView,
    new_game,
)
from games.base import GameSpec

SPEC = GameSpec(
    key="bann",
    title="Bann",
    min_players=2,
    max_players=2,
    position=1,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="loss",
    # The opening roll decides who starts; no other die: not a dice game.
    dice=None,
    hidden_information=False,
    options=(),
)

__all__ = [
    "ACCEPT_DRAW_BELOW",
    "ADVANCE",
    "CAPTURE_READY",
    "CASTLES",
    "CASTLE_THREAT",
    "DEPTH_GROWTH",
    "DIRECTIONS",
    "EASY_MARGIN",
    "FILES",
    "KNIGHT_VALUE",
    "MAX_DEPTH",
    "MOBILITY",
    "NODE_LIMITS",
    "SPEC",
    "START_BOARD",
    "START_SQUARES",
    "UNDER_THREAT",
    "WIN",
    "BannKnight",
    "BannMove",
    "BannState",
    "BannView",
    "Move",
    "bot_action",
    "from_code",
    "from_dict",
    "new_game",
    "side_faces",
    "square_index",
    "square_name",
    "target_castle",
]
