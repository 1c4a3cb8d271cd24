"""Bann's sentences: rules, status, last move and result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.bann import BannMove, BannState, BannView

RULES = """\
**How to play**
1. On your turn, tip your die over one edge, then move one knight one square.
2. A knight moves north, east, south or west, onto an empty square.
3. Knights whose number is on top of either die are banned: they may not move.
4. Moving next to enemy knights captures them.
5. Win by reaching the far corner (the castle) or by capturing every enemy knight.
**Words.** *Tip*: roll the die over one edge, so a side face comes on top. *Ban*: a knight \
whose number shows on a die's top face stays where it is this turn. *Castle*: your \
opponent's corner square.
**Goal.** Move a knight onto your opponent's castle (the far corner), or capture all of \
his knights. A player who cannot move after tipping loses.
**Your turn.** 1) Tip your die over an edge: the new top is one of the four side faces. \
2) Move one knight one square north, east, south or west to an empty square.
**Bans.** Knights whose number shows on top of *either* die may not move.
**Captures.** Every enemy knight next to the square you moved to (not diagonally) is \
removed, up to three at once. Only the mover captures.
**Draws.** Offer a draw before your move; a position seen three times is a draw.
**Notation for `/bann move`.** `tip>knight:direction`, e.g. `4>3:N` tips to 4 and moves \
knight 3 north (towards rank 6, seen from the first player).
**Full rules:** `docs/rules/bann.md` in the bot's repository.\
"""

WINS = {
    "castle": "{winner} wins: reached the castle.",
    "last-knight": "{winner} wins: captured the last knight.",
    "no-move": "{winner} wins: {loser} has no legal move.",
}
WINS_OTHERWISE = "{winner} wins."
DRAWS = {
    "agreement": "Drawn by agreement.",
    "repetition": "Drawn: the same position occurred three times.",
}
DRAWN_OTHERWISE = "Drawn."

LAST_MOVE = "Last move: {name} tipped to {tip}, knight {knight} {start}–{end}"
LAST_MOVE_CAPTURING = (
    "Last move: {name} tipped to {tip}, knight {knight} {start}–{end}, captured on {captured}"
)
OPENING_ROLL = (
    "Opening roll: {first} {first_roll}, {second} {second_roll} — {starter} starts; "
    "both dice now show 1"
)
MOVES = "{name} tips to {tip} and moves knight {knight} {start}–{end}."
MOVES_CAPTURING = (
    "{name} tips to {tip} and moves knight {knight} {start}–{end}, capturing on {captured}."
)
YOU_MOVED = "✅ You tipped to {tip} and moved knight {knight} {start}–{end}."
YOU_MOVED_CAPTURING = (
    "✅ You tipped to {tip} and moved knight {knight} {start}–{end}, capturing on {captured}."
)
NO_MOVES_YET = "No moves yet"
TO_MOVE = "{name} to move: tip your die, then move."
DRAW_OFFERED = "{offerer} offers a draw."
DRAW_ANSWER = "{offerer} offers a draw. {answerer} answers."
DRAW_DECLINED = "{name} declines the draw."
DRAW_ACCEPTED = "{name} accepts the draw."
DRAW_STEPS = {"offer": DRAW_OFFERED, "accept": DRAW_ACCEPTED, "decline": DRAW_DECLINED}


def result(view: BannView, names: Sequence[str]) -> str:
    """The sentence for a finished game, e.g. "Alice wins: reached the castle."."""
    outcome, winner = view["result"] or "", view["winner"]
    if winner is None:
        return DRAWS.get(outcome, DRAWN_OTHERWISE)
    sentence = WINS.get(outcome, WINS_OTHERWISE)
    return sentence.format(winner=names[winner], loser=names[1 - winner])


def last_move(view: BannView, names: Sequence[str]) -> str:
    """One line about the last move, or the opening roll before the first move."""
    last = view["last_move"]
    if last:
        return move_sentence(last, names)
    roll = view["opening_roll"]
    if roll:
        return OPENING_ROLL.format(
            first=names[0],
            first_roll=roll[0],
            second=names[1],
            second_roll=roll[1],
            starter=names[0] if roll[0] > roll[1] else names[1],
        )
    return NO_MOVES_YET


def turn_sentence(state: BannState, action: str, names: Sequence[str]) -> str:
    """The channel's line for ``action`` played in ``state``: a move or a draw offer's step."""
    seat = state.current_player
    assert seat is not None, "a finished game takes no action"
    name = names[seat]
    if action in DRAW_STEPS:
        return DRAW_STEPS[action].format(offerer=name, name=name)
    details = state.move_details(action)
    sentence = MOVES_CAPTURING if details["captured"] else MOVES
    return sentence.format(name=name, **_move_fields(details))


def confirmation(state: BannState, action: str) -> str:
    """The mover's private note for ``action``, in the voice every game's notes share."""
    details = state.move_details(action)
    sentence = YOU_MOVED_CAPTURING if details["captured"] else YOU_MOVED
    return sentence.format(**_move_fields(details))


def _move_fields(details: dict[str, Any]) -> dict[str, Any]:
    return {
        "tip": details["tip"],
        "knight": details["knight"],
        "start": details["from"],
        "end": details["to"],
        "captured": ", ".join(details["captured"]),
    }


def move_sentence(move: BannMove, names: Sequence[str]) -> str:
    sentence = LAST_MOVE_CAPTURING if move["captured"] else LAST_MOVE
    return sentence.format(
        name=names[move["seat"]],
        tip=move["action"].split(">", 1)[0],
        knight=move["knight"],
        start=move["from"],
        end=move["to"],
        captured=", ".join(move["captured"]),
    )
