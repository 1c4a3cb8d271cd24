"""Sentences every game's table shares: the lobby and the turn lines above a board. A
sentence that counts something is one sentence with its plural forms (``tn``), so each
language says "1 more player" and "2 more players" its own way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games import Counted, Option
from games.length import Estimate
from texts.common import duration
from texts.i18n import N_, t, tn


def needs_players(language: str, count: int) -> str:
    """The lobby's footer while seats are missing: "Needs 2 more players."."""
    return tn(language, "Needs {count} more player.", "Needs {count} more players.", count)


READY = N_("Ready: the creator starts.")
JOIN_OR_ADD = N_("Join, or the creator adds computer players.")


def lobby_footer(language: str, needed: int) -> str:
    """What a lobby waits for, and how the seats fill."""
    waiting = needs_players(language, needed) if needed > 0 else t(language, READY)
    return t(language, "{waiting} {how}", waiting=waiting, how=t(language, JOIN_OR_ADD))


def options_line(language: str, options: Sequence[Option], chosen: Mapping[str, object]) -> str:
    """The table's options that are not the game's defaults, a few words each: "French
    Barbu · 1 series" (empty when every option is the default). An option the table was
    opened without (it came later) is at its default."""
    return " · ".join(
        option_words(language, option, chosen[option.name])
        for option in options
        if option.name in chosen and chosen[option.name] != option.default
    )


def option_words(language: str, option: Option, value: object) -> str:
    """One option's value as the table shows it (``Option.shown``), or the option's name and
    value where its game says nothing shorter."""
    shown = option.shown
    if isinstance(shown, Counted) and isinstance(value, int):
        return tn(language, shown.singular, shown.plural, value)
    choice = option.choice(value)
    if choice is not None:
        words = t(language, choice.name)
    elif isinstance(value, bool):
        words = t(language, "on") if value else t(language, "off")
    else:
        words = str(value)
    if isinstance(shown, str) and shown:
        return t(language, shown, choice=words, count=value)
    return t(language, "{option}: {value}", option=option.name, value=words)


def earlier_turns(language: str, count: int) -> str:
    """The first line of a board whose turn lines do not all fit in one message."""
    return tn(
        language,
        "⋯ {count} earlier turn was played; the newest turns follow.",
        "⋯ {count} earlier turns were played; the newest turns follow.",
        count,
    )


def resign_headline(language: str, names: Sequence[str], seat: int) -> str:
    """The board's headline after seat ``seat`` resigned: the others win."""
    others = [name for index, name in enumerate(names) if index != seat]
    resigned = names[seat]
    if len(others) == 1:
        return t(language, "{name} resigned: {winner} wins.", name=resigned, winner=others[0])
    winners = t(language, "{names} and {last}", names=", ".join(others[:-1]), last=others[-1])
    return t(language, "{name} resigned: {winners} win.", name=resigned, winners=winners)


def length_line(language: str, estimate: Estimate) -> str:
    """A table's length before it starts: "28 deals · about 2 hours with 4 people"."""
    part = estimate.length.part_name
    parts = tn(language, part.singular, part.plural, estimate.length.parts)
    time = duration(language, estimate.seconds)
    if estimate.computers:
        return tn(
            language,
            "{parts} · about {time} with {count} person (the computers play at once)",
            "{parts} · about {time} with {count} people (the computers play at once)",
            estimate.people,
            parts=parts,
            time=time,
        )
    return tn(
        language,
        "{parts} · about {time} with {count} person",
        "{parts} · about {time} with {count} people",
        estimate.people,
        parts=parts,
        time=time,
    )


ABANDONED = N_("Abandoned; the game is not rated.")
PAUSE_TOO_LONG = N_("The pause lasted longer than a week")
EVERYONE_TIMED_OUT = N_("Every player ran out of time")
UNRATED_ENDINGS = (PAUSE_TOO_LONG, EVERYONE_TIMED_OUT)
"""Why a game ended unrated by itself; the table keeps the English reason and each board
shows it in its own language."""


def abandoned_headline(language: str) -> str:
    """The board's headline of a game abandoned by a command whose author is not kept."""
    return t(language, ABANDONED)


def abandoned_by_headline(language: str, name: str) -> str:
    """The board's headline right after ``name`` abandoned the game."""
    return t(language, "Abandoned by {name}; the game is not rated.", name=name)


def ended_unrated_headline(language: str, reason: str) -> str:
    """The board's headline of a game that ended unrated by itself (``reason``, one of
    ``UNRATED_ENDINGS`` as the table stored it)."""
    shown = t(language, reason[:1].upper() + reason[1:])
    return t(language, "{reason}: abandoned; the game is not rated.", reason=shown)


def unrated_after_deal_headline(language: str) -> str:
    """The board's headline when computers took every seat and the deal or round ended."""
    return t(language, "Every player ran out of time: the game ended unrated after this deal.")


def time_loss_headline(language: str, loser: str, winner: str) -> str:
    """The board's headline of a two-player game lost on time."""
    return t(language, "{loser} lost on time: {winner} wins.", loser=loser, winner=winner)
