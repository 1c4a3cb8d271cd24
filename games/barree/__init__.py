"""Barree (docs/rules/barree.md): a race over 48 fields to discard a hand of field cards.

Notation. ``roll`` throws the die; a walk lists every field of the move *including the
start*, e.g. ``34-35-45`` for a 2 rolled on 34; after landing on an opponent the mover
answers ``send:<seat>:<field>`` (use the card of ``field`` to send the piece of
``seat`` there) or ``keep``. A bar roll moves the blockade inside ``apply`` and needs
no further action; so does a roll that leaves the piece no walk (trapped in the
blockaded row): the turn passes and the state's events say why.

Helpers for the Discord layer: ``walk_options`` (one entry per distinct outcome, best
first, with end field, discarded cards and the opponents landed on), ``send_options``
and ``KEEP`` for the decision after landing on a piece, ``BarreeState.describe`` for a
single action; the sentences for the events of the last action live in ``texts.barree``.

The package: ``board`` (fields, lines, distances, walks), ``state`` (the state, its
options and ``new_game``), ``computer`` (``bot_action``) with ``plan`` (hard's route
planner); this module holds ``SPEC`` and re-exports the public names.
"""

from collections.abc import Mapping
from typing import Any

from games.barree.board import (
    COLUMNS,
    DIAGONALS,
    FIELDS,
    LINES,
    NEIGHBOURS,
    ROWS,
    distances,
    row_of,
    walk_outcomes,
)
from games.barree.computer import (
    LEADER_WEIGHT,
    NEARNESS_DECAY,
    SEND_WEIGHT,
    bot_action,
)
from games.barree.state import (
    BAR,
    FACE_UP_CARDS,
    HIDDEN_CARDS,
    KEEP,
    MAX_ROUNDS,
    PHASE_DRIVE,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_ROLL,
    REVEAL_AT,
    ROLL,
    BarreeEvent,
    BarreeState,
    BarreeView,
    BarreeWalk,
    SendOption,
    WalkOption,
    format_walk,
    new_game,
    send_options,
    walk_options,
)
from games.base import N_, Dice, GameSpec, Length, Nn_, Option

ROUNDS = Nn_("{count} round", "{count} rounds")
DECISIONS_PER_ROUND = 65.0
"""A round's decisions, all seats together (each roll and each walk): about the same
with two, three or four players, since more players also end a round sooner."""


def game_length(options: Mapping[str, Any]) -> Length:
    return Length(int(options["rounds"]), ROUNDS, DECISIONS_PER_ROUND)


SPEC = GameSpec(
    key="barree",
    title="Barree",
    min_players=2,
    max_players=4,
    position=4,
    new_game=new_game,
    from_dict=BarreeState.from_dict,
    bot_action=bot_action,
    on_timeout="substitute",
    dice=Dice(face_names={0: N_("bar")}),
    hidden_information=False,
    progress_marker=lambda state: state.round_no,
    length=game_length,
    options=(
        Option(
            name="rounds",
            default=1,
            description=N_("Rounds in the match; the fewest minus points in total wins."),
            minimum=1,
            maximum=MAX_ROUNDS,
            shown=Nn_("{count} round", "{count} rounds"),
        ),
    ),
)

__all__ = [
    "BAR",
    "COLUMNS",
    "DIAGONALS",
    "FACE_UP_CARDS",
    "FIELDS",
    "HIDDEN_CARDS",
    "KEEP",
    "LEADER_WEIGHT",
    "LINES",
    "MAX_ROUNDS",
    "NEARNESS_DECAY",
    "NEIGHBOURS",
    "PHASE_DRIVE",
    "PHASE_MOVE",
    "PHASE_OVER",
    "PHASE_ROLL",
    "REVEAL_AT",
    "ROLL",
    "ROWS",
    "SEND_WEIGHT",
    "SPEC",
    "BarreeEvent",
    "BarreeState",
    "BarreeView",
    "BarreeWalk",
    "SendOption",
    "WalkOption",
    "bot_action",
    "distances",
    "format_walk",
    "new_game",
    "row_of",
    "send_options",
    "walk_options",
    "walk_outcomes",
]
