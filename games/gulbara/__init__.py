"""Gul Bara: Bulgarian backgammon with escalating doubles (docs/rules/gulbara.md).

Each seat numbers the points 24→1 along its own path; seat 1's point ``p`` is seat 0's
point ``(p + 11) % 24 + 1``. The board is stored in seat 0's numbering, signed (+ for
seat 0, − for seat 1), exactly like the ``GB1`` position code.

An action is one step (``24/18``, ``3/off``) or ``undo``. A turn is rolled inside
``apply`` and is split into stages: the two dice of a roll, or four equal dice of a
double, followed by the next double of an escalation chain once the grace period is over.
``legal_actions`` lists the steps that begin a play of maximal length for the rest of
the current stage, so any sequence of legal steps is a legal play.

For the Discord layer: ``legal_steps``, ``movable_points``, ``step_choices`` and
``forced_step`` group the legal steps for selects and buttons, ``split_steps`` reads a
typed move, ``describe`` words an action for the log. ``bot_action`` is the computer
player (a one-ply search over whole stages; hard looks one double further inside an
escalation chain).

The package: ``board`` (points, step notation, the legal steps of a roll), ``state``
(``GulbaraState`` and ``new_game``), ``codec`` (``from_dict`` and ``GB1`` position codes)
and ``computer`` (``bot_action``); this module holds ``SPEC`` and re-exports the public
names.
"""

from games.base import N_, Choice, Dice, GameSpec, Nn_, Option
from games.gulbara.board import (
    CHECKERS,
    DEFAULT_HEAD_RULE,
    HEAD_RULES,
    HOME_TOP,
    POINTS,
    QUARTER_TOP,
    START_POINT,
    perspective,
    pip_count,
    split_steps,
    step_notation,
    to_seat0,
)
from games.gulbara.codec import (
    from_code,
    from_dict,
)
from games.gulbara.computer import (
    bot_action,
    evaluate,
    mobility_loss,
    pip_total,
    play_ends,
    stage_plays,
)
from games.gulbara.state import (
    CODE_PREFIX,
    GRACE_ROLLS,
    MAX_MATCH,
    RECENT_TURNS,
    UNDO,
    GulbaraGameResult,
    GulbaraState,
    GulbaraTurn,
    GulbaraView,
    new_game,
)

SPEC = GameSpec(
    key="gulbara",
    title="Gul Bara",
    min_players=2,
    max_players=2,
    position=2,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="loss",
    dice=Dice(),
    hidden_information=False,
    options=(
        Option(
            "match_to",
            1,
            N_("Points needed to win the match (1 = a single game)."),
            1,
            MAX_MATCH,
            shown=Nn_("Match to {count} point", "Match to {count} points"),
        ),
        Option(
            "head_rule",
            DEFAULT_HEAD_RULE,
            N_(
                "The others wait until the first checker reaches the quarter, or passes its corner."
            ),
            choices=(
                Choice("reach", N_("reach the quarter")),
                Choice("pass", N_("pass the corner")),
            ),
            shown=N_("Head rule: {choice}"),
        ),
        Option(
            "autoplay", True, N_("Forced single choices play themselves."), shown=N_("No autoplay")
        ),
    ),
)

__all__ = [
    "CHECKERS",
    "CODE_PREFIX",
    "DEFAULT_HEAD_RULE",
    "GRACE_ROLLS",
    "HEAD_RULES",
    "HOME_TOP",
    "MAX_MATCH",
    "POINTS",
    "QUARTER_TOP",
    "RECENT_TURNS",
    "SPEC",
    "START_POINT",
    "UNDO",
    "GulbaraGameResult",
    "GulbaraState",
    "GulbaraTurn",
    "GulbaraView",
    "bot_action",
    "evaluate",
    "from_code",
    "from_dict",
    "mobility_loss",
    "new_game",
    "perspective",
    "pip_count",
    "pip_total",
    "play_ends",
    "split_steps",
    "stage_plays",
    "step_notation",
    "to_seat0",
]
