"""The words of a game review: each player's figures, the costliest decisions, a mark.

A review's values are in its game's unit: for the chance to win (``"win"``) a loss or a
luck of 0.12 reads "12.0 pp" (percentage points) and a result of 0.88 reads "88 %"; for
points they read as points.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal

from games.review.model import Judgement, Review, SeatSummary
from texts.i18n import N_, t

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_NAMES = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
COSTLIEST = 3


def symbol(mark: str | None) -> str:
    """The chess mark: ?! an inaccuracy, ? a mistake, ?? a blunder; nothing for no mark."""
    return SYMBOLS.get(mark or "", "")


def _number(language: str, value: float, *, sign: bool = False) -> str:
    shown = str(format_decimal(abs(value), format="0.0", locale=language))
    if not sign:
        return shown if value >= 0 else f"−{shown}"
    if round(value, 1) == 0:
        return f"±{shown}"
    return f"+{shown}" if value > 0 else f"−{shown}"


def amount(language: str, unit: str, value: float, *, sign: bool = False) -> str:
    """A loss or luck in the game's unit: "12.0 pp" for the chance to win, "3.5 points"."""
    if unit == "win":
        return t(language, "{value} pp", value=_number(language, value * 100, sign=sign))
    return t(language, "{value} points", value=_number(language, value, sign=sign))


def result(language: str, unit: str, value: float) -> str:
    """A result in the game's unit: "88 %" of a win, or points."""
    if unit == "win":
        return t(language, "{value} %", value=_number(language, value * 100))
    return _number(language, value)


def seat_lines(language: str, unit: str, seat: SeatSummary) -> str:
    """One player's figures: accuracy and error rate, marks, luck and the luck-adjusted
    result."""
    marks = " · ".join(f"{SYMBOLS[mark]} {seat.marks.get(mark, 0)}" for mark in SYMBOLS)
    return "\n".join(
        (
            t(
                language,
                "Accuracy **{accuracy} %** · {loss} lost per decision ({count} judged)",
                accuracy=round(seat.accuracy),
                loss=amount(language, unit, seat.error_rate),
                count=seat.decisions,
            ),
            marks,
            t(
                language,
                "Luck {luck} · result {result}, luck-adjusted {adjusted}",
                luck=amount(language, unit, seat.luck, sign=True),
                result=result(language, unit, seat.result),
                adjusted=result(language, unit, seat.luck_adjusted),
            ),
        )
    )


def costliest(review: Review, count: int = COSTLIEST) -> list[Judgement]:
    """The decisions that lost the most (earliest first among equals), at most ``count``,
    only those that lost anything."""
    lost = [judgement for judgement in review.judgements if judgement.loss > 0]
    return sorted(lost, key=lambda judgement: (-judgement.loss, judgement.index))[:count]


def notation(actions: str) -> str:
    """A decision's actions as a player types them, each in backticks: `24/18` `18/13`."""
    return " ".join(f"`{action}`" for action in actions.split(" "))


def decision_line(language: str, unit: str, judgement: Judgement, names: Sequence[str]) -> str:
    """One decision in words: Move 14, Alice: played `…`, better `…`: 23.0 pp lost (blunder ??)."""
    name = names[judgement.seat] if 0 <= judgement.seat < len(names) else "?"
    lost = amount(language, unit, judgement.loss)
    played, best = notation(judgement.played), notation(judgement.best)
    if judgement.mark is None:
        return t(
            language,
            "Move {number}, {name}: played {played}, better {best}: {lost} lost",
            number=judgement.index,
            name=name,
            played=played,
            best=best,
            lost=lost,
        )
    return t(
        language,
        "Move {number}, {name}: played {played}, better {best}: {lost} lost ({mark} {symbol})",
        number=judgement.index,
        name=name,
        played=played,
        best=best,
        lost=lost,
        mark=t(language, MARK_NAMES[judgement.mark]),
        symbol=SYMBOLS[judgement.mark],
    )
