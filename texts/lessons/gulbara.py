"""The Gul Bara lesson: six positions (``GB1`` codes), one rule each, played with the
point menu and the step panel of a table. The learner is the first seat, so every
number is in his own numbering, as the board shows it."""

from __future__ import annotations

from collections.abc import Callable

from games.gulbara import GulbaraState, from_code
from texts.gulbara import point_label, step_label
from texts.i18n import N_
from texts.lessons import (
    HOW_TO_PLAY,
    Attempt,
    Label,
    Lesson,
    Rule,
    Step,
    Verdict,
    bold,
    right,
    said,
    wrong,
)

NUMBERING = N_("The board and its numbering")
WHO_STARTS = N_("Who starts")
MOVING = N_("Moving")
OWNS = N_("A single checker owns its point")
HEAD_RULE = N_("The head rule")
NO_PRIME = N_("No prime")
ESCALATING = N_("Escalating doubles")
BEARING_OFF = N_("Bearing off")
WINNING = N_("Winning and scoring")

ALL_STEPS = N_("All {times} × {die}: {path}")


def code(points: dict[int, int], off: tuple[int, int], dice: str, rolls: tuple[int, int]) -> str:
    """A ``GB1`` code with the learner to move: ``points`` in his numbering, his
    checkers positive and his opponent's negative."""
    row = ",".join(str(points.get(point, "")) for point in range(1, 25))
    return f"GB1:{row}|{off[0]},{off[1]}|0|{dice}|{rolls[0]},{rolls[1]}"


def point(number: int, checkers: int) -> Label:
    """The point menu's entry for the learner's ``number`` with ``checkers`` on it."""
    return bold(lambda language: point_label(language, number, checkers))


def die(step: str, number: int) -> Label:
    """A die button of the step panel, as it reads in every language: the step and the
    die it takes (``24/18 (6)``)."""
    label = step_label(step, number)
    return bold(lambda language: label)


def turn_over(attempt: Attempt[GulbaraState]) -> bool:
    return attempt.state.current_player != attempt.seat


def whole_turn(success: str) -> Callable[[Attempt[GulbaraState]], Verdict | None]:
    """A judge: solved once the learner's turn is over, whichever steps he chose."""

    def judge(attempt: Attempt[GulbaraState]) -> Verdict | None:
        return right(success) if turn_over(attempt) else None

    return judge


def first_step(wanted: str, success: str, miss: str) -> Callable[[Attempt[GulbaraState]], Verdict]:
    """A judge: solved when the learner's first step is ``wanted``."""

    def judge(attempt: Attempt[GulbaraState]) -> Verdict:
        return right(success) if attempt.mine[0] == wanted else wrong(miss)

    return judge


def escalated(attempt: Attempt[GulbaraState]) -> Verdict | None:
    if not turn_over(attempt):
        return None
    stages = attempt.state.recent[-1]["stages"] if attempt.state.recent else []
    if stages[-1:] == [6]:
        return right(N_("Four 5s, then four 6s without rolling again: an escalating double."))
    return wrong(N_("The 6s were not all played: pick a point and play every die."))


def two_off(attempt: Attempt[GulbaraState]) -> Verdict | None:
    if not turn_over(attempt):
        return None
    borne = attempt.state.off[attempt.seat] - attempt.start.off[attempt.seat]
    if borne == 2:
        return right(
            N_(
                "Two off: a die equal to the point, or higher than your highest point,"
                " bears a checker off."
            )
        )
    return wrong(
        N_(
            "Moving inside your home is allowed (bearing off is never forced), but this"
            " step asks for two checkers off."
        )
    )


def won(attempt: Attempt[GulbaraState]) -> Verdict | None:
    state = attempt.state
    if not state.over:
        return None if not turn_over(attempt) else wrong(N_("Bear off your last checker."))
    return right(
        N_(
            "All fifteen are off: you win 2 points, because your opponent has borne off"
            " none (1 point otherwise)."
        ),
    )


LESSON = Lesson[GulbaraState](
    players=2,
    steps=(
        Step(
            title=N_("Your first roll"),
            teaching=N_(
                "Your fifteen checkers start on your point 24 and run to 1, then off; your"
                " opponent's start on your 12 and go the same way. The higher opening die"
                " starts with both numbers, here 6 and 5. Each die moves one checker exactly"
                " that far, and at first only one checker may leave 24: the head rule."
            ),
            task=said(
                N_("Pick {point} in the board's menu, then the die {die} in the panel."),
                point=point(24, 15),
                die=die("24/18", 6),
            ),
            rules=(
                Rule(NUMBERING),
                Rule(WHO_STARTS),
                Rule(MOVING),
                Rule(HEAD_RULE),
                Rule(HOW_TO_PLAY, "1"),
                Rule(HOW_TO_PLAY, "4"),
            ),
            position=lambda: from_code(code({12: -15, 24: 15}, (0, 0), "6,5", (1, 0))),
            judge=whole_turn(
                N_(
                    "Your runner went on with the 5 by itself: until it reaches 12 to 7,"
                    " the other fourteen must wait on 24."
                )
            ),
        ),
        Step(
            title=N_("A lone checker blocks"),
            teaching=N_(
                "You may never land on a point holding even one of your opponent's checkers:"
                " his lone checker on your 11 blocks the 5 from 16. A checker using both dice"
                " stops in between, and that point must be open too."
            ),
            task=said(
                N_("Pick {point}: only the 3 is offered, so it plays at once."), point=point(16, 1)
            ),
            rules=(Rule(OWNS), Rule(HOW_TO_PLAY, "3")),
            position=lambda: from_code(
                code({11: -1, 12: -14, 16: 1, 24: 14}, (0, 0), "5,3", (3, 3))
            ),
            judge=first_step(
                "16/13",
                N_("16/13: his checker on 11 is in the way of the 5, not of the 3."),
                N_("Start with the checker on 16: his checker on 11 keeps it from using the 5."),
            ),
        ),
        Step(
            title=N_("No prime"),
            teaching=N_(
                "Six points in a row would be a wall your opponent cannot pass. You may not"
                " build one while none of his checkers is past it: such a step is never"
                " offered. You hold 10 to 6; landing on 11 would make six."
            ),
            task=said(N_("Pick {point}: 15/11 is not offered, only the 2."), point=point(15, 3)),
            rules=(Rule(NO_PRIME),),
            position=lambda: from_code(
                code({6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 12: -15, 13: 2, 15: 3}, (0, 0), "4,2", (6, 5))
            ),
            judge=first_step(
                "15/13",
                N_("15/13: the 4 from 15 would have closed 11 to 6 in front of his checkers."),
                N_("Start with the checker on 15 and see which die is offered."),
            ),
        ),
        Step(
            title=N_("An escalating double"),
            teaching=N_(
                "A double is played four times. After your first three rolls (the grace"
                " period, counted on the board) it climbs: after four 5s you play four 6s,"
                " without rolling again, up to 6-6. The chain stops at a double you cannot"
                " play in full."
            ),
            task=said(
                N_("Pick {point}, then press {five}: the four 6s then play themselves."),
                point=point(24, 1),
                five=bold(said(ALL_STEPS, times=4, die=5, path="24/19/14/9/4")),
            ),
            rules=(
                Rule(ESCALATING),
                Rule(ESCALATING, "Grace period"),
                Rule(MOVING),
                Rule(HOW_TO_PLAY, "2"),
            ),
            position=lambda: from_code(
                code(
                    {1: 3, 2: 3, 3: 3, 4: 2, 5: 1, 6: 1, 13: -5, 23: 1, 24: 1},
                    (0, 10),
                    "5,5,5,5",
                    (5, 5),
                )
            ),
            judge=escalated,
        ),
        Step(
            title=N_("Bearing off"),
            teaching=N_(
                "Once all fifteen of your checkers are home (your points 1 to 6) you bear them"
                " off: a die equal to a checker's point takes it off, and a die higher than"
                " your highest point takes a checker off from that point."
            ),
            task=said(
                N_("Pick {four}, press {six}; then pick {three}: its 3 bears it off at once."),
                four=point(4, 2),
                six=die("4/off", 6),
                three=point(3, 3),
            ),
            rules=(Rule(BEARING_OFF),),
            position=lambda: from_code(
                code({1: 2, 2: 3, 3: 3, 4: 2, 12: -15}, (5, 0), "6,3", (9, 9))
            ),
            judge=two_off,
        ),
        Step(
            title=N_("The last checker"),
            teaching=N_(
                "The first to bear off all fifteen wins 1 point, or 2 points when the loser"
                " has not borne off a single checker."
            ),
            task=said(
                N_("Pick {point}: the 6 bears your last checker off at once."), point=point(2, 1)
            ),
            rules=(
                Rule(WINNING),
                Rule(WINNING, "1 point"),
                Rule(WINNING, "2 points"),
                Rule(BEARING_OFF),
                Rule(HOW_TO_PLAY, "5"),
            ),
            position=lambda: from_code(code({2: 1, 12: -15}, (14, 0), "6,5", (12, 12))),
            judge=won,
        ),
    ),
)
