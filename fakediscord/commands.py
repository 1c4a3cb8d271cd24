"""Registered application commands, and slash interaction data built from them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .model import Channel
from .users import SimUser

CHAT_INPUT = 1
BOT_DM_CONTEXT = 1
GUILD_INSTALL = 0
ADMINISTRATOR = 1 << 3
# Application command option types.
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 9, 10

Focused = tuple[str, str]
"""The option a member is typing and the text typed so far."""


class CommandRegistry:
    """What the bot registered through PUT /applications/{app}[/guilds/{g}]/commands."""

    def __init__(self, application_id: int, new_id: Callable[[], int]) -> None:
        self.application_id = application_id
        self._new_id = new_id
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_count = 0

    def replace(self, commands: list[dict[str, Any]], guild_id: int | None) -> list[dict]:
        stored = [self._stored(command, guild_id) for command in commands]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        return stored

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.get(guild_id, [])

    def _stored(self, command: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        previous = self._find(command["name"], guild_id)
        stored = {
            "type": CHAT_INPUT,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **command,
            "id": previous["id"] if previous else str(self._new_id()),
            "application_id": str(self.application_id),
            "version": str(self._new_id()),
        }
        # Discord answers permissions as a string and fills in the installs it defaults to.
        if stored["default_member_permissions"] is not None:
            stored["default_member_permissions"] = str(stored["default_member_permissions"])
        if stored.get("integration_types") is None:
            stored["integration_types"] = [GUILD_INSTALL]
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    def _find(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        for command in self.listing(guild_id):
            if command["name"] == name and command.get("type", CHAT_INPUT) == CHAT_INPUT:
                return command
        return None

    def build_command_data(
        self,
        path: str,
        values: dict[str, Any],
        *,
        guild_id: int | None,
        invoker_permissions: int,
        guild_members: Collection[int] = (),
        forged: bool = False,
        focused: Focused | None = None,
    ) -> dict[str, Any]:
        """The `data` of an APPLICATION_COMMAND interaction for "/top [group] [sub]", or with
        `focused` of an APPLICATION_COMMAND_AUTOCOMPLETE one: the member is typing that
        option, the others hold what he has filled in so far.

        ``forged``: the values go out as given, the way a modified client could send them:
        of any type, outside the option's range, length or choices, required ones left out.
        """
        names = path.strip().lstrip("/").split()
        command = (self._find(names[0], guild_id) if guild_id else None) or self._find(
            names[0], None
        )
        if command is None:
            known = sorted(c["name"] for c in self.global_commands + self.listing(guild_id))
            raise AssertionError(f"no registered slash command {names[0]!r}; registered: {known}")
        check_available(command, guild_id, invoker_permissions)
        resolved: dict[str, dict[str, Any]] = {}
        options = nest_options(command, names, values, resolved, focused, forged=forged)
        # Discord resolves every user, and as a member only one of the server the command
        # runs in (in a DM, none).
        members = resolved.get("members", {})
        for user_id in list(members):
            if guild_id is None or int(user_id) not in guild_members:
                del members[user_id]
        if not members:
            resolved.pop("members", None)
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": CHAT_INPUT,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return data


def check_available(command: dict[str, Any], guild_id: int | None, permissions: int) -> None:
    """Discord does not even offer a command the user may not use there."""
    name = command["name"]
    contexts = command.get("contexts")
    if guild_id is None and contexts is not None and BOT_DM_CONTEXT not in contexts:
        raise AssertionError(f"/{name} is not available in DMs (contexts {contexts})")
    required = command.get("default_member_permissions")
    if guild_id is None or required is None or permissions & ADMINISTRATOR:
        return
    if permissions & int(required) != int(required):
        raise AssertionError(
            f"/{name} is hidden from members without permissions {required} (default_member_"
            f"permissions); the user has {permissions}"
        )


def nest_options(
    schema: dict[str, Any],
    names: list[str],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: Focused | None,
    *,
    forged: bool = False,
) -> list[dict[str, Any]]:
    """Walk group/subcommand names down the schema; the leaf gets the typed values."""
    if len(names) == 1:
        if focused is not None:
            return autocomplete_options(schema, values, resolved, focused)
        return leaf_options(schema, values, resolved, forged=forged)
    wanted = names[1]
    for option in schema.get("options", []):
        if option["name"] == wanted and option["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP):
            inner = nest_options(option, names[1:], values, resolved, focused, forged=forged)
            return [{"name": wanted, "type": option["type"], "options": inner}]
    children = [
        o["name"] for o in schema.get("options", []) if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)
    ]
    raise AssertionError(f"{schema['name']!r} has no subcommand {wanted!r}; it has {children}")


def leaf_options(
    schema: dict[str, Any],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    *,
    forged: bool = False,
) -> list[dict[str, Any]]:
    declared = {option["name"]: option for option in schema.get("options", [])}
    if any(option["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP) for option in declared.values()):
        raise AssertionError(f"{schema['name']!r} needs a subcommand: {sorted(declared)}")
    unknown = sorted(set(values) - set(declared))
    if unknown:
        raise AssertionError(
            f"{schema['name']!r} has no options {unknown}; it has {sorted(declared)}"
        )
    missing = [n for n, o in declared.items() if o.get("required") and n not in values]
    if missing and not forged:
        raise AssertionError(f"{schema['name']!r} needs options {missing}")
    return [
        {
            "name": name,
            "type": declared[name]["type"],
            "value": forged_value(declared[name], value, resolved)
            if forged
            else typed_value(declared[name], value, resolved),
        }
        for name, value in values.items()
    ]


def autocomplete_options(
    schema: dict[str, Any],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: Focused,
) -> list[dict[str, Any]]:
    """What Discord sends while a member types: the focused option's text as typed (a
    string whatever the option's type), the other options filled so far, required or not."""
    name, text = focused
    option = {option["name"]: option for option in schema.get("options", [])}.get(name)
    if option is None or not option.get("autocomplete"):
        raise AssertionError(f"{schema['name']!r} has no option {name!r} that autocompletes")
    if name in values:
        raise AssertionError(f"option {name!r} is the one being typed; give it once")
    others = leaf_options(schema | {"options": not_required(schema)}, values, resolved)
    return [*others, {"name": name, "type": option["type"], "value": text, "focused": True}]


def not_required(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [option | {"required": False} for option in schema.get("options", [])]


def typed_value(option: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
    kind = option["type"]
    name = option["name"]
    if kind == STRING:
        require(isinstance(value, str), name, "a str", value)
        check_length(option, value)
    elif kind == INTEGER:
        require(isinstance(value, int) and not isinstance(value, bool), name, "an int", value)
        check_range(option, value)
    elif kind == NUMBER:
        require(
            isinstance(value, int | float) and not isinstance(value, bool), name, "a number", value
        )
        check_range(option, value)
    elif kind == BOOLEAN:
        require(isinstance(value, bool), name, "a bool", value)
    elif kind in (USER, MENTIONABLE):
        require(isinstance(value, SimUser), name, "a SimUser", value)
        resolve_user(value, resolved)
        return str(value.id)
    elif kind == CHANNEL:
        require(isinstance(value, Channel), name, "a Channel", value)
        resolve_channel(value, resolved)
        return str(value.id)
    else:
        raise AssertionError(f"option {name!r} has type {kind}, which fakediscord cannot send")
    check_choice(option, value)
    return value


def forged_value(option: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
    """``value`` as a modified client sends it: unchecked, a user or channel still resolved."""
    if isinstance(value, SimUser):
        resolve_user(value, resolved)
        return str(value.id)
    if isinstance(value, Channel):
        resolve_channel(value, resolved)
        return str(value.id)
    return value


def require(condition: bool, name: str, expected: str, value: Any) -> None:
    if not condition:
        raise AssertionError(f"option {name!r} needs {expected}, got {value!r}")


def check_length(option: dict[str, Any], value: str) -> None:
    low, high = option.get("min_length", 0), option.get("max_length", 6000)
    if not low <= len(value) <= high:
        raise AssertionError(f"option {option['name']!r}: length must be {low}..{high}")


def check_range(option: dict[str, Any], value: float) -> None:
    low, high = option.get("min_value"), option.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise AssertionError(f"option {option['name']!r}: {value} is outside {low}..{high}")


def check_choice(option: dict[str, Any], value: Any) -> None:
    choices = [choice["value"] for choice in option.get("choices") or []]
    if choices and value not in choices:
        raise AssertionError(f"option {option['name']!r}: {value!r} is not one of {choices}")


def resolve_user(user: SimUser, resolved: dict[str, dict[str, Any]]) -> None:
    resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
    member = user.member_payload()
    del member["user"]
    member["permissions"] = str(user.permissions.value)
    resolved.setdefault("members", {})[str(user.id)] = member


def resolve_channel(channel: Channel, resolved: dict[str, dict[str, Any]]) -> None:
    resolved.setdefault("channels", {})[str(channel.id)] = {
        "id": str(channel.id),
        "name": channel.name,
        "type": 1 if channel.is_dm else 0,
        "permissions": str(channel.bot_permissions.value),
    }
