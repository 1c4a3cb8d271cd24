"""Simulated people: they type slash commands, click buttons, pick from selects, read DMs."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from .content import ButtonInfo, ChoiceInfo, SelectInfo
from .model import (
    MEMBER_DEFAULT_PERMISSIONS,
    Channel,
    Message,
    member_payload,
    permission_value,
)

LINK_BUTTON_STYLE = 5
APPLICATION_COMMAND, MESSAGE_COMPONENT, APPLICATION_COMMAND_AUTOCOMPLETE = 2, 3, 4


@dataclass
class Result:
    """What one interaction led to, once the bot went idle.

    `message`: the interaction's own message: the response it created (types 4/5, after any
    edit or first followup; the first followup if the bot deleted the response) or, for a
    component, the message the component sits on.
    `followups`: messages sent through the interaction webhook. `ephemeral`: every message
    created during the handling that only this user sees. `new_messages`: every message
    created anywhere while the bot handled it (channels and DMs), in order. `choices`: an
    autocomplete's answer (callback type 8), as the bot sent them.
    """

    response_type: int | None
    message: Message | None
    followups: list[Message] = field(default_factory=list)
    ephemeral: list[Message] = field(default_factory=list)
    new_messages: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)


@dataclass(eq=False)
class InteractionRecord:
    """One interaction a simulated user started, and how the bot answered it so far."""

    id: int
    token: str
    kind: int
    user: SimUser
    channel: Channel
    label: str
    source: Message | None
    created_at: float
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)
    answered_at: float | None = None
    _answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first answer the user could see."""
        return None if self.answered_at is None else self.answered_at - self.created_at

    def mark_answered(self) -> None:
        if self.answered_at is None:
            self.answered_at = asyncio.get_running_loop().time()
            self._answered.set()

    async def wait_answered(self, timeout: float = 10.0) -> None:
        """Wait for a visible answer: a message, an update, or an edit/followup after a defer."""
        try:
            await asyncio.wait_for(self._answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"interaction {self.label} got no answer in {timeout} s") from None

    def metadata(self) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.user.user_payload(),
            "authorizing_integration_owners": owners(self.channel, self.user),
        }
        if self.source is not None:
            metadata["interacted_message_id"] = str(self.source.id)
        return metadata


def owners(channel: Channel, user: SimUser) -> dict[str, str]:
    """An interaction's `authorizing_integration_owners`: the guild, or the user in a DM."""
    if channel.guild is not None:
        return {"0": str(channel.guild.id)}
    return {"1": str(user.id)}


class CommandSchema(Protocol):
    """The commands the bot registered (a commands.CommandRegistry)."""

    def build_command_data(
        self,
        path: str,
        values: dict[str, Any],
        *,
        guild_id: int | None,
        invoker_permissions: int,
        guild_members: Collection[int] = (),
        forged: bool = False,
        focused: tuple[str, str] | None = None,
    ) -> dict[str, Any]: ...


class FakeService(Protocol):
    """What a simulated user asks of the FakeDiscord (server.py, which builds on this module)."""

    @property
    def commands(self) -> CommandSchema: ...

    def dm_channel_of(self, user: SimUser) -> Channel | None: ...

    async def run_interaction(
        self,
        *,
        user: SimUser,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        label: str,
        source: Message | None,
    ) -> Result: ...

    async def dispatch_interaction(
        self,
        *,
        user: SimUser,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        label: str,
        source: Message | None,
    ) -> InteractionRecord: ...

    async def post_user_message(self, user: SimUser, channel: Channel, content: str) -> Message: ...


class SimUser:
    """A guild member driven by the test. Compare with `discord` objects through `.id`."""

    def __init__(self, fake: FakeService, user_id: int, name: str, *, dms_open: bool) -> None:
        self.fake = fake
        self.id = user_id
        self.name = name
        self.dms_open = dms_open
        self._permissions = MEMBER_DEFAULT_PERMISSIONS.value
        self.locale = "en-US"
        """The language of this user's Discord client, sent as each interaction's locale."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def permissions(self) -> discord.Permissions:
        """Guild-wide permissions sent as `member.permissions` in this user's interactions."""
        return discord.Permissions(self._permissions)

    @permissions.setter
    def permissions(self, permissions: discord.Permissions | int) -> None:
        self._permissions = permission_value(permissions)

    @property
    def dm_channel(self) -> Channel | None:
        return self.fake.dm_channel_of(self)

    @property
    def dms(self) -> list[Message]:
        """Messages the bot sent to this user by DM, oldest first."""
        channel = self.dm_channel
        return [] if channel is None else list(channel.messages)

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def member_payload(self) -> dict[str, Any]:
        return member_payload(self.user_payload(), roles=[])

    def payload(self) -> dict[str, Any]:
        return self.user_payload()

    async def slash(self, channel: Channel, command: str, /, **options: Any) -> Result:
        """Run `/command` (e.g. "bann new") with options typed from the registered schema.

        Positional-only parameters leave every name free for options (even "channel")."""
        return await self.fake.run_interaction(**self._plan_slash(channel, command, options))

    async def forged_slash(self, channel: Channel, command: str, /, **options: Any) -> Result:
        """Run `/command` as a modified client could: the option values go out unchecked
        (any type, outside their range, length or choices; required ones may be missing)."""
        return await self.fake.run_interaction(
            **self._plan_slash(channel, command, options, forged=True)
        )

    async def autocomplete(
        self, channel: Channel, command: str, option: str, typed: str, /, **options: Any
    ) -> list[ChoiceInfo]:
        """Type `typed` into `option` of `/command` (the other options filled as given) and
        return the choices Discord then offers this user: each in his client's language."""
        guild_id = None if channel.guild is None else channel.guild.id
        data = self.fake.commands.build_command_data(
            command,
            options,
            guild_id=guild_id,
            invoker_permissions=self._permissions,
            guild_members=[] if channel.guild is None else [m.id for m in channel.guild.members],
            focused=(option, typed),
        )
        result = await self.fake.run_interaction(
            user=self,
            channel=channel,
            kind=APPLICATION_COMMAND_AUTOCOMPLETE,
            data=data,
            label=f"/{command} {option}: {typed!r} (autocomplete)",
            source=None,
        )
        return [
            ChoiceInfo(
                name=(choice.get("name_localizations") or {}).get(self.locale, choice["name"]),
                value=choice["value"],
            )
            for choice in result.choices
        ]

    async def click(
        self, message: Message, label: str | None = None, *, custom_id: str | None = None
    ) -> Result:
        """Press an enabled button of a message this user can see, by label or custom_id."""
        return await self.fake.run_interaction(**self._plan_click(message, label, custom_id))

    async def select(
        self,
        message: Message,
        values: list[str],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
    ) -> Result:
        """Pick `values` in a select menu (found by placeholder or custom_id, or the only one)."""
        plan = self._plan_select(message, values, placeholder, custom_id)
        return await self.fake.run_interaction(**plan)

    async def slash_nowait(
        self, channel: Channel, command: str, /, **options: Any
    ) -> InteractionRecord:
        """Like slash, but return once the bot parsed it; await record.wait_answered() later.

        For benchmarks and concurrency tests: no idle wait, no acknowledgement check."""
        return await self.fake.dispatch_interaction(**self._plan_slash(channel, command, options))

    async def click_nowait(
        self, message: Message, label: str | None = None, *, custom_id: str | None = None
    ) -> InteractionRecord:
        plan = self._plan_click(message, label, custom_id)
        return await self.fake.dispatch_interaction(**plan)

    async def select_nowait(
        self,
        message: Message,
        values: list[str],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
    ) -> InteractionRecord:
        plan = self._plan_select(message, values, placeholder, custom_id)
        return await self.fake.dispatch_interaction(**plan)

    def _plan_slash(
        self, channel: Channel, command: str, options: dict[str, Any], *, forged: bool = False
    ) -> dict:
        guild_id = None if channel.guild is None else channel.guild.id
        data = self.fake.commands.build_command_data(
            command,
            options,
            guild_id=guild_id,
            invoker_permissions=self._permissions,
            guild_members=[] if channel.guild is None else [m.id for m in channel.guild.members],
            forged=forged,
        )
        return {
            "user": self,
            "channel": channel,
            "kind": APPLICATION_COMMAND,
            "data": data,
            "label": f"/{command}",
            "source": None,
        }

    def _plan_click(self, message: Message, label: str | None, custom_id: str | None) -> dict:
        self._check_can_see(message)
        button = find_button(message, label=label, custom_id=custom_id)
        return {
            "user": self,
            "channel": message.channel,
            "kind": MESSAGE_COMPONENT,
            "data": {"custom_id": button.custom_id, "component_type": 2},
            "label": f"button {button.custom_id!r}",
            "source": message,
        }

    def _plan_select(
        self,
        message: Message,
        values: list[str],
        placeholder: str | None,
        custom_id: str | None,
    ) -> dict:
        self._check_can_see(message)
        menu = find_select(message, placeholder=placeholder, custom_id=custom_id)
        check_select_values(menu, values)
        return {
            "user": self,
            "channel": message.channel,
            "kind": MESSAGE_COMPONENT,
            "data": {"custom_id": menu.custom_id, "component_type": 3, "values": list(values)},
            "label": f"select {menu.custom_id!r}",
            "source": message,
        }

    async def say(self, channel: Channel, content: str) -> Message:
        """Post a plain text message (dispatched as MESSAGE_CREATE) and wait for the bot."""
        return await self.fake.post_user_message(self, channel, content)

    def _check_can_see(self, message: Message) -> None:
        if message.deleted:
            raise AssertionError(f"{self.name} cannot use deleted message {message.id}")
        if not message.visible_to(self):
            raise AssertionError(f"{self.name} cannot see ephemeral message {message.id}")
        channel = message.channel
        if channel.is_dm and channel.recipient is not self:
            raise AssertionError(f"{self.name} cannot see another user's DM {message.id}")

    def __repr__(self) -> str:
        return f"<SimUser {self.name} id={self.id}>"


def find_button(message: Message, *, label: str | None, custom_id: str | None) -> ButtonInfo:
    buttons = message.buttons()
    matching = [
        button
        for button in buttons
        if (label is None or button.label == label)
        and (custom_id is None or button.custom_id == custom_id)
    ]
    wanted = f"label={label!r} custom_id={custom_id!r}"
    available = [(b.label, b.custom_id) for b in buttons]
    if not matching:
        raise AssertionError(f"no button {wanted} on {message!r}; buttons: {available}")
    if len(matching) > 1:
        raise AssertionError(f"several buttons match {wanted}; pass custom_id=: {available}")
    button = matching[0]
    if button.disabled:
        raise AssertionError(f"button {wanted} is disabled")
    if button.style == LINK_BUTTON_STYLE or button.custom_id is None:
        raise AssertionError(f"button {wanted} is a link, clicking it sends nothing to the bot")
    return button


def find_select(message: Message, *, placeholder: str | None, custom_id: str | None) -> SelectInfo:
    menus = message.selects()
    matching = [
        menu
        for menu in menus
        if (placeholder is None or menu.placeholder == placeholder)
        and (custom_id is None or menu.custom_id == custom_id)
    ]
    available = [(m.placeholder, m.custom_id) for m in menus]
    if len(matching) != 1:
        raise AssertionError(
            f"need exactly one select matching placeholder={placeholder!r} "
            f"custom_id={custom_id!r} on {message!r}; selects: {available}"
        )
    if matching[0].disabled:
        raise AssertionError(f"select {matching[0].custom_id!r} is disabled")
    return matching[0]


def check_select_values(menu: SelectInfo, values: list[str]) -> None:
    unknown = [value for value in values if value not in menu.values]
    if unknown:
        raise AssertionError(
            f"{unknown} are not options of select {menu.custom_id!r}: {menu.values}"
        )
    if len(set(values)) != len(values):
        raise AssertionError(f"select values must be distinct: {values}")
    if not menu.min_values <= len(values) <= menu.max_values:
        raise AssertionError(
            f"select {menu.custom_id!r} takes {menu.min_values}..{menu.max_values} values, "
            f"got {len(values)}"
        )
