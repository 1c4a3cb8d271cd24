"""Discord's message limits and its error bodies, so the bot's error paths run for real."""

from __future__ import annotations

import re
from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
LINK_BUTTON_STYLE = 5
SELECT_TYPES = {3, 5, 6, 7, 8}
BUTTON_TYPE = 2
ACTION_ROW_TYPE = 1


class DiscordError(Exception):
    """An error answer: HTTP status, Discord's JSON error code and message, field errors."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def missing_access() -> DiscordError:
    return DiscordError(403, 50001, "Missing Access")


def cannot_dm_user() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def unknown(kind: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {kind}")


def entity_too_large() -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large")


def expired_token() -> DiscordError:
    return DiscordError(401, 50027, "Invalid Webhook Token")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def invalid_form(problems: list[tuple[list[str | int], str, str]]) -> DiscordError:
    """50035 with Discord's nested `errors` object built from (path, code, message)."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def too_long(path: list[str | int], limit: int) -> tuple[list[str | int], str, str]:
    return path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."


def check_message(body: dict[str, Any], *, creating: bool, file_count: int) -> None:
    """Raise the DiscordError Discord would answer for this create/edit body, if any."""
    problems: list[tuple[list[str | int], str, str]] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(too_long(["content"], MAX_CONTENT))
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(too_long(["embeds"], MAX_EMBEDS))
    problems.extend(component_problems(body.get("components") or []))
    if problems:
        raise invalid_form(problems)
    if creating and is_empty(body, file_count):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def is_empty(body: dict[str, Any], file_count: int) -> bool:
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or body.get("sticker_ids")
        or body.get("poll")
        or file_count
    )


def component_problems(rows: list[dict[str, Any]]) -> list[tuple[list[str | int], str, str]]:
    problems: list[tuple[list[str | int], str, str]] = []
    if len(rows) > MAX_ROWS:
        problems.append(too_long(["components"], MAX_ROWS))
    seen_custom_ids: set[str] = set()
    for row_index, row in enumerate(rows):
        row_path: list[str | int] = ["components", row_index]
        if row.get("type") != ACTION_ROW_TYPE:
            problems.append((row_path, "UNION_TYPE_CHOICES", "Only action rows are supported."))
            continue
        children = row.get("components") or []
        problems.extend(row_layout_problems(row_path, children))
        for child_index, child in enumerate(children):
            child_path = [*row_path, "components", child_index]
            problems.extend(item_problems(child_path, child))
            custom_id = child.get("custom_id")
            if custom_id is None:
                continue
            if custom_id in seen_custom_ids:
                problems.append(
                    (
                        [*child_path, "custom_id"],
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen_custom_ids.add(custom_id)
    return problems


def row_layout_problems(
    row_path: list[str | int], children: list[dict[str, Any]]
) -> list[tuple[list[str | int], str, str]]:
    if not children:
        return [([*row_path, "components"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")]
    has_select = any(child.get("type") in SELECT_TYPES for child in children)
    if has_select and len(children) > 1:
        return [
            (
                [*row_path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        ]
    if len(children) > MAX_BUTTONS_PER_ROW:
        return [too_long([*row_path, "components"], MAX_BUTTONS_PER_ROW)]
    return []


def item_problems(
    path: list[str | int], item: dict[str, Any]
) -> list[tuple[list[str | int], str, str]]:
    problems: list[tuple[list[str | int], str, str]] = []
    custom_id = item.get("custom_id")
    if custom_id is not None and len(custom_id) > MAX_CUSTOM_ID:
        problems.append(too_long([*path, "custom_id"], MAX_CUSTOM_ID))
    if item.get("type") == BUTTON_TYPE:
        problems.extend(button_problems(path, item))
    elif item.get("type") == 3:
        problems.extend(select_problems(path, item))
    return problems


def button_problems(
    path: list[str | int], button: dict[str, Any]
) -> list[tuple[list[str | int], str, str]]:
    problems: list[tuple[list[str | int], str, str]] = []
    label = button.get("label")
    if label is not None and len(label) > MAX_BUTTON_LABEL:
        problems.append(too_long([*path, "label"], MAX_BUTTON_LABEL))
    if not label and not button.get("emoji"):
        problems.append(([*path], "BUTTON_COMPONENT_INVALID", "A button needs a label or emoji"))
    is_link = button.get("style") == LINK_BUTTON_STYLE
    if is_link and not button.get("url"):
        problems.append(([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required"))
    if not is_link and button.get("style") != 6 and not button.get("custom_id"):
        problems.append(([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required"))
    return problems


def select_problems(
    path: list[str | int], select: dict[str, Any]
) -> list[tuple[list[str | int], str, str]]:
    options = select.get("options") or []
    if len(options) > MAX_SELECT_OPTIONS:
        return [too_long([*path, "options"], MAX_SELECT_OPTIONS)]
    if not options:
        return [([*path, "options"], "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")]
    problems: list[tuple[list[str | int], str, str]] = []
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if max_values > len(options) or min_values > max_values:
        problems.append(
            (
                [*path, "max_values"],
                "SELECT_COMPONENT_MAX_VALUES_INVALID",
                f"max_values {max_values} must be between min_values and {len(options)}",
            )
        )
    values = [option.get("value") for option in options]
    if len(set(values)) != len(values):
        problems.append(
            (
                [*path, "options"],
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select option values must be unique",
            )
        )
    return problems


MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100


def check_choices(data: dict[str, Any]) -> None:
    """Raise the 50035 Discord answers an autocomplete's choices that break its rules: at
    most 25, each named with 1 to 100 characters, a string value at most 100 long."""
    choices = data.get("choices") or []
    problems: list[tuple[list[str | int], str, str]] = []
    if len(choices) > MAX_CHOICES:
        problems.append(too_long(["data", "choices"], MAX_CHOICES))
    for index, choice in enumerate(choices):
        path: list[str | int] = ["data", "choices", index]
        if not 1 <= len(choice.get("name") or "") <= MAX_CHOICE_NAME:
            problems.append(
                (
                    [*path, "name"],
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_CHOICE_NAME} in length.",
                )
            )
        value = choice.get("value")
        if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
            problems.append(too_long([*path, "value"], MAX_CHOICE_VALUE))
    if problems:
        raise invalid_form(problems)


COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's pattern for command, option and localized names (letters of any script)."""
MAX_DESCRIPTION = 100


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Raise the 50035 Discord answers a command sync whose names or descriptions (or
    their localizations) break its rules: lowercase, no spaces, at most 32 characters."""
    problems: list[tuple[list[str | int], str, str]] = []
    for index, command in enumerate(commands):
        problems += _naming_problems(command, [index])
    if problems:
        raise invalid_form(problems)


def _naming_problems(
    entry: dict[str, Any], path: list[str | int]
) -> list[tuple[list[str | int], str, str]]:
    problems: list[tuple[list[str | int], str, str]] = []
    names = {
        "name": entry["name"],
        **{
            f"name_localizations.{locale}": name
            for locale, name in (entry.get("name_localizations") or {}).items()
        },
    }
    is_choice = "value" in entry
    for key, name in names.items():
        if is_choice:
            if not 1 <= len(name) <= MAX_DESCRIPTION:
                problems.append(too_long([*path, key], MAX_DESCRIPTION))
        elif not COMMAND_NAME.match(name) or name != name.lower():
            problems.append(
                (
                    [*path, key],
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Command name is invalid: {name!r}",
                )
            )
    descriptions = {
        "description": entry.get("description", ""),
        **{
            f"description_localizations.{locale}": text
            for locale, text in (entry.get("description_localizations") or {}).items()
        },
    }
    for key, text in descriptions.items():
        if len(text) > MAX_DESCRIPTION:
            problems.append(too_long([*path, key], MAX_DESCRIPTION))
    for number, option in enumerate(entry.get("options") or []):
        problems += _naming_problems(option, [*path, "options", number])
    for number, choice in enumerate(entry.get("choices") or []):
        problems += _naming_problems(choice, [*path, "choices", number])
    return problems
