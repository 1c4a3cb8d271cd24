"""What a slash command's options may hold.

Discord's client keeps each option within its type, range, length and choices, but a
modified client can send anything, and discord.py passes most of it on unchecked (a
range is only declared to Discord; a plain or Literal choice is not looked up). So the
command tree checks every option against what the command declared before the command
runs: a command never sees, let alone stores, a value it did not offer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from discord import AppCommandOptionType as OptionType
from discord import app_commands

from texts.i18n import N_

# Discord's own bounds for any integer option and any text option.
LARGEST_INTEGER = 2**53 - 1
LONGEST_TEXT = 6000

NESTING = (OptionType.subcommand.value, OptionType.subcommand_group.value)
# Where the interaction's resolved data holds what a snowflake option names.
RESOLVED_IN = {
    OptionType.user: ("users",),
    OptionType.channel: ("channels",),
    OptionType.role: ("roles",),
    OptionType.mentionable: ("users", "roles"),
    OptionType.attachment: ("attachments",),
}

OUT_OF_RANGE = N_("`{option}` must be from {minimum} to {maximum}.")
NOT_OFFERED = N_("`{option}` must be one of the offered choices.")
WRONG_LENGTH = N_("`{option}` must be {minimum} to {maximum} characters long.")
MALFORMED = N_(
    "`{option}` did not arrive the way Discord sends it: pick it again from the command."
)


@dataclass(frozen=True)
class OptionRefusal:
    """Why an option's value is refused: a sentence of the catalogue, the option's
    name (as the command declares it) and the sentence's other values."""

    message: str
    option: str
    params: dict[str, object] = field(default_factory=dict)


def option_refusal(
    command: app_commands.Command[Any, Any, Any], data: Mapping[str, Any]
) -> OptionRefusal | None:
    """The first of the command's options whose value in the interaction's ``data`` it
    does not accept, if any."""
    given = {
        option.get("name"): option for option in _leaf_options(data) if isinstance(option, dict)
    }
    resolved = data.get("resolved")
    for parameter in command.parameters:
        option = given.get(parameter.display_name)
        if option is None or "value" not in option:
            if parameter.required:
                return OptionRefusal(MALFORMED, parameter.display_name)
            continue
        refused = _refusal(parameter, option["value"], resolved or {})
        if refused is not None:
            return refused
    return None


def _leaf_options(data: Mapping[str, Any]) -> list[Any]:
    """The options of the subcommand that runs, below its group and command."""
    options = data.get("options") or []
    while (
        isinstance(options, list)
        and len(options) == 1
        and isinstance(options[0], dict)
        and options[0].get("type") in NESTING
    ):
        options = options[0].get("options") or []
    return options if isinstance(options, list) else []


def _refusal(
    parameter: app_commands.Parameter, value: Any, resolved: Mapping[str, Any]
) -> OptionRefusal | None:
    name = parameter.display_name
    kind = parameter.type
    if not _of_type(kind, value, resolved):
        return OptionRefusal(MALFORMED, name)
    if kind in (OptionType.integer, OptionType.number):
        low = -LARGEST_INTEGER if parameter.min_value is None else parameter.min_value
        high = LARGEST_INTEGER if parameter.max_value is None else parameter.max_value
        if not low <= value <= high:
            return OptionRefusal(OUT_OF_RANGE, name, {"minimum": low, "maximum": high})
    if kind is OptionType.string:
        shortest = parameter.min_value or 0
        longest = LONGEST_TEXT if parameter.max_value is None else parameter.max_value
        if not shortest <= len(value) <= longest:
            return OptionRefusal(WRONG_LENGTH, name, {"minimum": shortest, "maximum": longest})
    if parameter.choices and value not in [choice.value for choice in parameter.choices]:
        return OptionRefusal(NOT_OFFERED, name)
    return None


def _of_type(kind: OptionType, value: Any, resolved: Mapping[str, Any]) -> bool:
    """Whether ``value`` is what Discord sends for an option of this type (a user, a
    channel, …: the id of one the interaction resolved)."""
    if kind is OptionType.string:
        return isinstance(value, str)
    if kind is OptionType.integer:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is OptionType.number:
        if isinstance(value, float):
            return math.isfinite(value)
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is OptionType.boolean:
        return isinstance(value, bool)
    sections = RESOLVED_IN.get(kind, ())
    return isinstance(value, str) and any(
        isinstance(resolved.get(section), dict) and value in resolved[section]
        for section in sections
    )
