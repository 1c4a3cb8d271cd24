"""Bann's sentences: rules, status, last move and result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.bann import BannMove, BannState, BannView
from games.bann.hints import BannHint
from texts.common import listed, reasons
from texts.i18n import N_, t, tn

RULES = N_(
    """\
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
**Notation for `/bann move`.** `tip>knight:direction`, e.g. `4>5:N` tips to 4 and moves \
knight 5 north (towards rank 6), a first move from a1; from f6 it is `4>5:S`.\
"""
)

WINS = {
    "castle": N_("{winner} wins: reached the castle."),
    "last-knight": N_("{winner} wins: captured the last knight."),
    "no-move": N_("{winner} wins: {loser} has no legal move."),
}
WINS_OTHERWISE = N_("{winner} wins.")
DRAWS = {
    "agreement": N_("Drawn by agreement."),
    "repetition": N_("Drawn: the same position occurred three times."),
}
DRAWN_OTHERWISE = N_("Drawn.")

LAST_MOVE = N_("Last move: {name} tipped to {tip}, knight {knight} {start}–{end}")
LAST_MOVE_CAPTURING = N_(
    "Last move: {name} tipped to {tip}, knight {knight} {start}–{end}, captured on {captured}"
)
OPENING_ROLL = N_(
    "Opening roll: {first} {first_roll}, {second} {second_roll} — {starter} starts; "
    "both dice now show 1"
)
MOVES = N_("{name} tips to {tip} and moves knight {knight} {start}–{end}.")
MOVES_CAPTURING = N_(
    "{name} tips to {tip} and moves knight {knight} {start}–{end}, capturing on {captured}."
)
YOU_MOVED = N_("✅ You tipped to {tip} and moved knight {knight} {start}–{end}.")
YOU_MOVED_CAPTURING = N_(
    "✅ You tipped to {tip} and moved knight {knight} {start}–{end}, capturing on {captured}."
)
NO_MOVES_YET = N_("No moves yet")
TO_MOVE = N_("{name} to move: tip your die, then move.")
DRAW_OFFERED = N_("{offerer} offers a draw.")
DRAW_ANSWER = N_("{offerer} offers a draw. {answerer} answers.")
DRAW_DECLINED = N_("{name} declines the draw.")
DRAW_ACCEPTED = N_("{name} accepts the draw.")
DRAW_STEPS = {"offer": DRAW_OFFERED, "accept": DRAW_ACCEPTED, "decline": DRAW_DECLINED}

GROUP_HELP = N_("Bann: knights, dice and bans")
MOVE_HELP = N_("Play a move in notation, e.g. 4>5:N")
NOTATION_HELP = N_("tip>knight:direction, e.g. 4>5:N (or offer, accept, decline)")
ACCEPT_DRAW = N_("Accept draw")
DECLINE_DRAW = N_("Decline draw")
OFFER_DRAW = N_("Offer draw")
RESIGN = N_("Resign")
TIP_TO = N_("Tip to {face}")
NO_MOVE_AFTER_TIP = N_("Tipping to {face} leaves you no legal move; choose another face.")
CHOOSE_MOVE = N_("Die tipped to {face}: choose a knight move")
MOVES_MENU = N_("Your die will show **{face}**. Banned knights: {knights}.")
MOVE_OPTION = N_("Knight {knight}: {start} → {end}")
MOVE_CAPTURES = N_("captures {squares}")
MOVE_CAPTURES_AND_WINS = N_("captures {squares}; wins the game")
MOVE_WINS = N_("wins the game")
PLAYER = N_("Player {number}")
WINNER_LOST = N_("Winner · lost {count}")
NONE_LOST = N_("no knights lost")
TO_MOVE_STATUS = N_("{name} to move")
BANNED_NOW = N_("Banned now: knight {number} · your tip bans one more")
NONE_BANNED_NOW = N_("No knight banned now · your tip bans one")


def result(language: str, view: BannView, names: Sequence[str]) -> str:
    """The sentence for a finished game, e.g. "Alice wins: reached the castle."."""
    outcome, winner = view["result"] or "", view["winner"]
    if winner is None:
        return t(language, DRAWS.get(outcome, DRAWN_OTHERWISE))
    sentence = WINS.get(outcome, WINS_OTHERWISE)
    return t(language, sentence, winner=names[winner], loser=names[1 - winner])


def last_move(language: str, view: BannView, names: Sequence[str]) -> str:
    """One line about the last move, or the opening roll before the first move."""
    last = view["last_move"]
    if last:
        return move_sentence(language, last, names)
    roll = view["opening_roll"]
    if roll:
        return t(
            language,
            OPENING_ROLL,
            first=names[0],
            first_roll=roll[0],
            second=names[1],
            second_roll=roll[1],
            starter=names[0] if roll[0] > roll[1] else names[1],
        )
    return t(language, NO_MOVES_YET)


def turn_sentence(language: str, state: BannState, action: str, names: Sequence[str]) -> str:
    """The channel's line for ``action`` played in ``state``: a move or a draw offer's step."""
    seat = state.current_player
    assert seat is not None, "a finished game takes no action"
    name = names[seat]
    if action in DRAW_STEPS:
        return t(language, DRAW_STEPS[action], offerer=name, name=name)
    details = state.move_details(action)
    sentence = MOVES_CAPTURING if details["captured"] else MOVES
    return t(language, sentence, name=name, **_move_fields(details))


def confirmation(language: str, state: BannState, action: str) -> str:
    """The mover's private note for ``action``, in the voice every game's notes share."""
    details = state.move_details(action)
    sentence = YOU_MOVED_CAPTURING if details["captured"] else YOU_MOVED
    return t(language, sentence, **_move_fields(details))


def move_option(language: str, details: dict[str, Any]) -> tuple[str, str | None]:
    """A knight move as the tip menu offers it: its label and what it does."""
    label = t(
        language, MOVE_OPTION, knight=details["knight"], start=details["from"], end=details["to"]
    )
    squares = ", ".join(details["captured"])
    if details["captured"]:
        note = MOVE_CAPTURES_AND_WINS if details["wins"] else MOVE_CAPTURES
        return label, t(language, note, squares=squares)
    return label, t(language, MOVE_WINS) if details["wins"] else None


def ban_line(language: str, view: BannView) -> str | None:
    """The board's line under the status for the player to move: which of his knights
    may not move whatever he tips (the one under his opponent's die top) and that his
    tip bans one more. His own top bans nothing he must care about: he tips it away.
    None once the game is over."""
    seat = view["turn"]
    if view["over"] or seat is None:
        return None
    number = view["dice"][1 - seat]
    mine = {knight["number"] for knight in view["knights"] if knight["seat"] == seat}
    if number not in mine:
        return t(language, NONE_BANNED_NOW)
    return t(language, BANNED_NOW, number=number)


def strip_detail(language: str, lost: int, won: bool) -> str:
    """A player's strip under his name: the knights he lost, and whether he won."""
    if won:
        return t(language, WINNER_LOST, count=lost)
    if lost == 0:
        return t(language, NONE_LOST)
    return tn(language, "lost {count} knight", "lost {count} knights", lost)


def _move_fields(details: dict[str, Any]) -> dict[str, Any]:
    return {
        "tip": details["tip"],
        "knight": details["knight"],
        "start": details["from"],
        "end": details["to"],
        "captured": ", ".join(details["captured"]),
    }


def move_sentence(language: str, move: BannMove, names: Sequence[str]) -> str:
    sentence = LAST_MOVE_CAPTURING if move["captured"] else LAST_MOVE
    return t(
        language,
        sentence,
        name=names[move["seat"]],
        tip=move["action"].split(">", 1)[0],
        knight=move["knight"],
        start=move["from"],
        end=move["to"],
        captured=", ".join(move["captured"]),
    )


HINT_MOVE = N_("Tip to {tip} and move knight {knight} {start}–{end}: {reasons}.")
HINT_ACCEPT = N_("Accept the draw: the computer rates your position as the worse one.")
HINT_DECLINE = N_("Decline the draw: the computer rates your position as good enough to play on.")
HINT_WINS = {
    "castle": N_("reaches the castle and wins"),
    "last-knight": N_("captures the last knight and wins"),
    "no-move": N_("leaves your opponent no move: you win"),
}
HINT_BANS = N_("your tip bans the opponent's knight {knight}, which could strike next turn")
HINT_STOPS_CASTLE = N_("stops the opponent reaching your castle")
HINT_NOTHING_TO_CAPTURE = N_("leaves the opponent nothing to capture next turn")
HINT_BEST = N_("the computer's search rates it best")
CAPTURES_KNIGHTS = (N_("captures knight {knights}"), N_("captures knights {knights}"))
OUT_OF_DANGER = (
    N_("takes knight {knights} out of danger"),
    N_("takes knights {knights} out of danger"),
)
THREATENS_KNIGHTS = (
    N_("threatens knight {knights} next turn"),
    N_("threatens knights {knights} next turn"),
)


def hint(language: str, advice: BannHint) -> str:
    """The advice of a hint with its reasons, e.g. "Tip to 4 and move knight 3 c2–c3:
    captures knights 2 and 5."."""
    if advice.answer is not None:
        answer = HINT_ACCEPT if advice.answer == "accept" else HINT_DECLINE
        return t(language, answer)
    return t(
        language,
        HINT_MOVE,
        tip=advice.tip,
        knight=advice.knight,
        start=advice.start,
        end=advice.end,
        reasons=reasons(language, hint_reasons(language, advice)),
    )


def hint_reasons(language: str, advice: BannHint) -> list[str]:
    """Every reason the move's effects give, the most important first (a win alone)."""
    if advice.wins is not None:
        return [t(language, HINT_WINS[advice.wins])]
    found = []
    if advice.captured:
        found.append(_knights(language, advice.captured, CAPTURES_KNIGHTS))
    if advice.bans is not None:
        found.append(t(language, HINT_BANS, knight=advice.bans))
    if advice.stops_castle:
        found.append(t(language, HINT_STOPS_CASTLE))
    if advice.safe_again:
        found.append(_knights(language, advice.safe_again, OUT_OF_DANGER))
    if advice.threatens:
        found.append(_knights(language, advice.threatens, THREATENS_KNIGHTS))
    if advice.closer:
        found.append(
            tn(
                language,
                "brings knight {knight} to {count} step from the castle",
                "brings knight {knight} to {count} steps from the castle",
                advice.castle_steps,
                knight=advice.knight,
            )
        )
    if advice.nothing_to_capture:
        found.append(t(language, HINT_NOTHING_TO_CAPTURE))
    return found or [t(language, HINT_BEST)]


def _knights(language: str, numbers: Sequence[int], sentences: tuple[str, str]) -> str:
    one, several = sentences
    sentence = one if len(numbers) == 1 else several
    return t(language, sentence, knights=listed(language, numbers))
