"""Tournament sentences the pictures and the Discord layer share: the formats' names,
the standings' column headings and their legend, and points as a language writes them."""

from __future__ import annotations

from babel.numbers import format_decimal

from games.tournament import Format
from texts.i18n import N_, t

FORMAT_NAMES: dict[Format, str] = {
    Format.SWISS: N_("Swiss"),
    Format.ROUND_ROBIN: N_("Round robin"),
    Format.KNOCKOUT: N_("Knockout"),
    Format.TABLE_GROUPS: N_("Table groups"),
}

SCORE_HEADINGS: dict[Format, str] = {
    Format.SWISS: N_("POINTS"),
    Format.ROUND_ROBIN: N_("POINTS"),
    Format.TABLE_GROUPS: N_("POINTS"),
    Format.KNOCKOUT: N_("ROUNDS WON"),
}
"""The score column's heading: a knockout counts the rounds a player went through."""

TIEBREAK_HEADINGS: dict[Format, tuple[str, ...]] = {
    Format.SWISS: (N_("BH"), N_("SB"), N_("WINS")),
    Format.ROUND_ROBIN: (N_("SB"), N_("DIRECT"), N_("WINS")),
    Format.TABLE_GROUPS: (N_("TOTALS"), N_("FIRSTS")),
    Format.KNOCKOUT: (),
}
"""The tie-break columns' short headings, in the order they decide (``standings``)."""

TIEBREAK_LEGENDS: dict[Format, str] = {
    Format.SWISS: N_("Ties: BH Buchholz, then SB Sonneborn–Berger, then wins"),
    Format.ROUND_ROBIN: N_("Ties: SB Sonneborn–Berger, then the games between them, then wins"),
    Format.TABLE_GROUPS: N_("Ties: the sum of the table totals, then first places"),
    Format.KNOCKOUT: N_("Players out in the same round share their place"),
}


def points(language: str, value: float) -> str:
    """A score or tie-break as the language writes it, with a true minus sign: 2.5, 2,5,
    3, 6.75, −21."""
    written = str(format_decimal(abs(value), format="#,##0.##", locale=language))
    return f"−{written}" if value < 0 else written


def game_points(language: str, value: float) -> str:
    """A game's points as a result is written: 1, ½, 0, 2½ (other values as ``points``)."""
    whole, half = divmod(value, 1)
    if half != 0.5 or value < 0:
        return points(language, value)
    return "½" if whole == 0 else f"{points(language, whole)}½"


def format_name(language: str, format_: Format) -> str:
    return t(language, FORMAT_NAMES[format_])
