"""The Bann lesson: eight positions (``BN1`` codes), one rule each, played with the
tip buttons and the move menu of a table. The learner is player 1 (seat 0)."""

from __future__ import annotations

from collections.abc import Callable

from games.bann import BannState, from_code
from texts.bann import MOVE_OPTION, OFFER_DRAW, TIP_TO
from texts.i18n import N_
from texts.lessons import (
    HOW_TO_PLAY,
    Attempt,
    Lesson,
    Rule,
    Step,
    Verdict,
    bold,
    right,
    said,
    wrong,
)

BOARD = N_("The board and the armies")
WHO_STARTS = N_("Who starts")
TURN = N_("A turn")
CAPTURING = N_("Capturing")
ENDS = N_("How the game ends")

START = "BN1:...dba/....ec/.....f/6...../35..../124...|1,1|0"
REPEATING = "BN1:...dba/....ec/.....f/6...../35..../124...|1,1|1"
"""The start position with the opponent to move: he and the learner then move a knight
to and fro until the learner's move makes it stand a third time."""
TO_AND_FRO = ("3>6:S", "2>6:N", "1>6:N", "1>6:S", "3>6:S", "2>6:N", "1>6:N")

DRAW_LATER = N_("Offering a draw comes in a later step: this time, make a move.")


def tip(face: int) -> object:
    return bold(said(TIP_TO, face=face))


def knight_move(knight: int, start: str, end: str) -> object:
    return bold(said(MOVE_OPTION, knight=knight, start=start, end=end))


def moved(attempt: Attempt[BannState]) -> dict[str, object] | None:
    """What the learner's latest move did, or None when it was a draw offer."""
    if attempt.last in ("offer", "accept", "decline"):
        return None
    return attempt.before_last.move_details(attempt.last)


def any_move(attempt: Attempt[BannState]) -> Verdict:
    details = moved(attempt)
    if details is None:
        return wrong(DRAW_LATER)
    return right(
        N_("You tipped to {tip} and moved knight {knight}: that is a whole turn."),
        tip=details["tip"],
        knight=details["knight"],
    )


def knight_three(attempt: Attempt[BannState]) -> Verdict:
    details = moved(attempt)
    if details is None:
        return wrong(DRAW_LATER)
    if details["knight"] == 3:
        return right(N_("Knight 3 moved: neither die showed 3."))
    if details["tip"] == 3:
        return wrong(N_("Tipping to 3 banned knight 3: your die showed 3. Tip to 1, 4 or 6."))
    return wrong(
        N_("You moved knight {knight}; this step asks for knight 3."), knight=details["knight"]
    )


def double_capture(attempt: Attempt[BannState]) -> Verdict:
    details = moved(attempt)
    if details is None:
        return wrong(DRAW_LATER)
    captured = details["captured"]
    assert isinstance(captured, list)
    if len(captured) >= 2:
        return right(
            N_("Two at once: your knight landed next to {squares}."), squares=", ".join(captured)
        )
    if captured:
        return wrong(N_("That captures only one knight: land next to two of them at once."))
    return wrong(
        N_("That captures nothing: a knight captures only the enemies next to where it lands.")
    )


def ended_by(reason: str, miss: str) -> Callable[[Attempt[BannState]], Verdict | None]:
    """A judge: solved when the game ends for ``reason`` in the learner's favour; a
    draw offer waits for the answer."""

    def judge(attempt: Attempt[BannState]) -> Verdict | None:
        state = attempt.state
        if moved(attempt) is None and reason != "agreement":
            return wrong(DRAW_LATER)
        if state.draw_offer is not None:
            return None
        if state.result == reason and state.winner in (None, attempt.seat):
            return right(ENDINGS[reason])
        return wrong(miss)

    return judge


ENDINGS = {
    "castle": N_("Your knight stands on the enemy castle: you win at once."),
    "last-knight": N_("His last knight is gone: you win."),
    "no-move": N_(
        "Your die shows 2 during his turn too, so his only knight is banned: he cannot"
        " move and you win."
    ),
    "agreement": N_("Your opponent accepts: the game is drawn by agreement."),
    "repetition": N_("The same position for the third time: the game is drawn."),
}


def after_to_and_fro() -> BannState:
    state = from_code(REPEATING)
    for action in TO_AND_FRO:
        state = state.apply(action)
    return state


LESSON = Lesson[BannState](
    players=2,
    steps=(
        Step(
            title=N_("A whole turn"),
            teaching=N_(
                "You are player 1: your knights start at the corner a1 and attack the castle"
                " f6, your opponent's come the other way. The higher opening roll starts, then"
                " both dice show 1. A turn: tip your die onto a side, then move one knight one"
                " square north, east, south or west onto an empty square."
            ),
            task=said(
                N_("Press {tip}, then choose {move} in the menu that opens."),
                tip=tip(2),
                move=knight_move(6, "a3", "a4"),
            ),
            rules=(
                Rule(BOARD),
                Rule(BOARD, "Player 1"),
                Rule(BOARD, "Player 2"),
                Rule(WHO_STARTS),
                Rule(TURN),
                Rule(TURN, "Tip"),
                Rule(TURN, "Move"),
                Rule(HOW_TO_PLAY, "1"),
                Rule(HOW_TO_PLAY, "2"),
            ),
            position=lambda: from_code(START),
            judge=any_move,
        ),
        Step(
            title=N_("Banned knights"),
            teaching=N_(
                "A knight whose number is on top of either die is banned: it may not move"
                " this turn. Your opponent's die shows 5, so your knight 5 stays put. Your"
                " own tip bans a knight too: tipping to 3 would ban knight 3."
            ),
            task=said(
                N_("Tip to any side but 3, then move {knight}."), knight=bold(said(N_("Knight 3")))
            ),
            rules=(Rule(TURN), Rule(HOW_TO_PLAY, "3")),
            position=lambda: from_code("BN1:...dba/....ec/.....f/6.3.../.5..../12.4..|2,5|0"),
            judge=knight_three,
        ),
        Step(
            title=N_("Capturing two at once"),
            teaching=N_(
                "After your move, every enemy knight next to the square you moved to (north,"
                " east, south or west, not diagonally) is captured: one, two or even three."
                " Only the knight that moved captures."
            ),
            task=said(
                N_("Press {tip}, then choose {move}: it lands next to two enemy knights."),
                tip=tip(2),
                move=knight_move(4, "d2", "d3"),
            ),
            rules=(Rule(CAPTURING), Rule(HOW_TO_PLAY, "4")),
            position=lambda: from_code("BN1:...d.a/.....c/...b.f/6...e./35.4../12....|1,3|0"),
            judge=double_capture,
        ),
        Step(
            title=N_("Taking the castle"),
            teaching=N_("Move a knight onto the enemy castle (f6 for you) and you win at once."),
            task=said(
                N_("Press {tip}, then choose {move}."), tip=tip(3), move=knight_move(5, "f5", "f6")
            ),
            rules=(Rule(ENDS), Rule(ENDS, "Castle"), Rule(HOW_TO_PLAY, "5")),
            position=lambda: from_code("BN1:...d../..b..5/.a.e../6...../3...../12.4..|1,2|0"),
            judge=ended_by("castle", N_("Your knight is not on f6 yet: step onto the castle.")),
        ),
        Step(
            title=N_("The last knight"),
            teaching=N_("Capture your opponent's last knight and you win at once."),
            task=said(
                N_("Press {tip}, then choose {move}."), tip=tip(3), move=knight_move(2, "c2", "c3")
            ),
            rules=(Rule(ENDS, "Last knight"), Rule(HOW_TO_PLAY, "5")),
            position=lambda: from_code("BN1:....../....../..c.../....../..2.../1..4..|1,5|0"),
            judge=ended_by("last-knight", N_("His knight is still there: land right next to it.")),
        ),
        Step(
            title=N_("No move left"),
            teaching=N_(
                "The number you tip stays on top of your die during your opponent's turn and"
                " bans his knight of that number too. If he then has no tip that leaves him a"
                " move, he loses."
            ),
            task=said(
                N_("Your opponent has only knight 2. Press {tip}, then choose {move}."),
                tip=tip(2),
                move=knight_move(4, "d1", "e1"),
            ),
            rules=(Rule(ENDS, "No move"), Rule(TURN), Rule(HOW_TO_PLAY, "5")),
            position=lambda: from_code("BN1:....../....../.....b/....../5...../1.34..|1,6|0"),
            judge=ended_by(
                "no-move",
                N_("Your die does not show 2, so his knight 2 can still move: tip to 2."),
            ),
        ),
        Step(
            title=N_("Offering a draw"),
            teaching=N_(
                "Before your move you may offer a draw, once per turn. Your opponent accepts or"
                " declines before anything else happens; if he declines, you move as usual."
            ),
            task=said(N_("Press {offer}."), offer=bold(said(OFFER_DRAW))),
            rules=(Rule(ENDS, "Draw by agreement"),),
            position=lambda: from_code("BN1:...d.a/.....c/...b.f/6...e./35.4../12....|1,3|0"),
            judge=ended_by("agreement", N_("You moved instead: offer the draw before your move.")),
            replies={"offer": "accept"},
        ),
        Step(
            title=N_("The same position three times"),
            teaching=N_(
                "A position is the board, both dice and who is to move. When the same"
                " position occurs for the third time, the game is a draw. You and your"
                " opponent have moved a knight to and fro: this position has been on the"
                " board twice already."
            ),
            task=said(
                N_("Press {tip}, then choose {move}: the position comes back a third time."),
                tip=tip(1),
                move=knight_move(6, "a4", "a3"),
            ),
            rules=(Rule(ENDS, "Draw by repetition"),),
            position=after_to_and_fro,
            judge=ended_by(
                "repetition",
                N_("That makes a new position: move knight 6 back to a3 with your die on 1."),
            ),
        ),
    ),
)
