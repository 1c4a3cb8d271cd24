"""What the fake Discord stores: guilds, channels, messages, attachments, the bot's user."""

from __future__ import annotations

import datetime
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image

from .content import Attachment, ButtonInfo, SelectInfo, buttons_in, selects_in

if TYPE_CHECKING:
    from .users import SimUser

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7
TEXT_CHANNEL_TYPE = 0
DM_CHANNEL_TYPE = 1
PUBLIC_THREAD_TYPE = 11
PRIVATE_THREAD_TYPE = 12

BOT_DEFAULT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_external_emojis=True,
    add_reactions=True,
)
MEMBER_DEFAULT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_external_emojis=True,
    add_reactions=True,
    use_application_commands=True,
)


class SnowflakeFactory:
    """Increasing snowflakes carrying the time of ``clock`` (seconds since the epoch), so
    created_at looks plausible and a message's age follows a clock the test moves."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._last = 0

    def next(self) -> int:
        now_ms = int(self._clock() * 1000) - DISCORD_EPOCH_MS
        self._last = max(now_ms << 22, self._last + 1)
        return self._last


def snowflake_seconds(snowflake: int) -> float:
    """When the snowflake was made, in seconds since the epoch."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def permission_value(permissions: discord.Permissions | int) -> int:
    if isinstance(permissions, discord.Permissions):
        return permissions.value
    return int(permissions)


@dataclass
class BotUser:
    """The application's bot account."""

    id: int
    name: str

    def payload(self) -> dict[str, Any]:
        """The bot as others see it (a message's author, a member)."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def own_payload(self) -> dict[str, Any]:
        """The bot as it sees itself (GET /users/@me, READY): with its account's settings."""
        return self.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}


@dataclass(frozen=True)
class MessageVersion:
    """A message as it looked before one of its edits."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int


@dataclass(eq=False)
class Message:
    """A stored message. Edits replace field values and never mutate them in place, so
    versions and payloads can share the lists and dicts without copying."""

    id: int
    channel: Channel
    author: BotUser | SimUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_metadata: dict[str, Any] | None = None
    ephemeral_for: int | None = None
    pinged: list[int] = field(default_factory=list)
    edited_at: str | None = None
    versions: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    created_at: str = field(default_factory=iso_now)

    @property
    def is_ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    def visible_to(self, user: SimUser) -> bool:
        return self.ephemeral_for is None or self.ephemeral_for == user.id

    def remember_version(self) -> None:
        self.versions.append(
            MessageVersion(
                self.content,
                self.embeds,
                self.components,
                list(self.attachments),
                self.flags,
            )
        )
        self.edited_at = iso_now()

    def image(self) -> Image.Image:
        """The first PNG attachment, decoded."""
        for attachment in self.attachments:
            if attachment.content_type == "image/png":
                image = Image.open(io.BytesIO(attachment.data))
                image.load()
                return image
        raise AssertionError(f"message {self.id} has no PNG attachment: {self.attachments!r}")

    def buttons(self) -> list[ButtonInfo]:
        return buttons_in(self.components)

    def selects(self) -> list[SelectInfo]:
        return selects_in(self.components)

    def message_type(self) -> int:
        # 20 = CHAT_INPUT_COMMAND: the visible "used /command" reply; everything else DEFAULT.
        is_slash_reply = self.interaction_metadata and self.interaction_metadata["type"] == 2
        return 20 if is_slash_reply else 0

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.message_type(),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self.channel.mentioned_user_payload(user_id) for user_id in self.pinged],
            "mention_roles": [],
            "attachments": [a.payload(self.channel.id) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            payload["guild_id"] = str(self.channel.guild.id)
        if isinstance(self.author, BotUser):
            payload["application_id"] = str(self.author.id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
            payload["webhook_id"] = str(self.author.id)
        return payload

    def __repr__(self) -> str:
        return (
            f"<fake Message id={self.id} channel={self.channel.name!r} content={self.content!r}"
            f" attachments={[a.filename for a in self.attachments]} flags={self.flags}>"
        )


class Channel:
    """A guild text channel, a thread under one (``parent``; private when it names its
    ``thread_members``), or a DM channel between the bot and one simulated user."""

    def __init__(
        self,
        channel_id: int,
        name: str,
        *,
        guild: Guild | None,
        recipient: SimUser | None = None,
        position: int = 0,
        on_change: Callable[[Channel, str], None] | None = None,
        parent: Channel | None = None,
        owner_id: int | None = None,
        thread_members: list[SimUser] | None = None,
    ) -> None:
        self.id = channel_id
        self.parent = parent
        self.owner_id = owner_id
        self.thread_members = thread_members
        self.name = name
        self.guild = guild
        self.recipient = recipient
        self.position = position
        self.messages: list[Message] = []
        self.archived = False
        self._bot_permissions = BOT_DEFAULT_PERMISSIONS.value
        self._hidden_from: list[int] = []
        self._on_change = on_change

    @property
    def is_dm(self) -> bool:
        return self.guild is None

    @property
    def bot_permissions(self) -> discord.Permissions:
        """What the bot may do here; setting it also tells connected bots (CHANNEL_UPDATE)."""
        return discord.Permissions(self._bot_permissions)

    @bot_permissions.setter
    def bot_permissions(self, permissions: discord.Permissions | int) -> None:
        self._bot_permissions = permission_value(permissions)
        if self._on_change is not None:
            self._on_change(self, "CHANNEL_UPDATE")

    def hide_from(self, user: SimUser) -> None:
        """A private channel for ``user``: a member overwrite denies View Channel (the
        emulator keeps serving ``user`` here; only what the bot reads changes)."""
        self._hidden_from.append(user.id)
        if self._on_change is not None:
            self._on_change(self, "CHANNEL_UPDATE")

    def archive(self) -> None:
        """Archive this thread, as Discord does once it was quiet for its auto-archive
        duration: connected bots drop it from their cache (THREAD_UPDATE); REST still
        serves it, and a message sent to it reopens it."""
        assert self.parent is not None, "only a thread is archived"
        self.archived = True
        if self._on_change is not None:
            self._on_change(self, "THREAD_UPDATE")

    def reopen(self) -> None:
        self.archived = False
        if self._on_change is not None:
            self._on_change(self, "THREAD_UPDATE")

    def visible_to(self, user: SimUser) -> list[Message]:
        return [message for message in self.messages if message.visible_to(user)]

    def public_messages(self) -> list[Message]:
        return [message for message in self.messages if not message.is_ephemeral]

    def last_message(self) -> Message:
        """The newest public message (ephemerals are not part of the channel for others)."""
        public = self.public_messages()
        if not public:
            raise AssertionError(f"channel {self.name!r} has no messages")
        return public[-1]

    def mentioned_user_payload(self, user_id: int) -> dict[str, Any]:
        known = [] if self.guild is None else self.guild.members
        for user in [*known, self.recipient]:
            if user is not None and user.id == user_id:
                return user.user_payload()
        # Mentioned but not here: Discord still describes the user, we know only the id.
        return unknown_user_payload(user_id)

    def payload(self, bot_user_id: int) -> dict[str, Any]:
        if self.guild is None:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM_CHANNEL_TYPE,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.user_payload()],
            }
        if self.parent is not None:
            return self._thread_payload()
        denied = BOT_DEFAULT_PERMISSIONS.value & ~self._bot_permissions
        return {
            "id": str(self.id),
            "type": TEXT_CHANNEL_TYPE,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
            "permission_overwrites": [
                {
                    "id": str(bot_user_id),
                    "type": 1,
                    "allow": str(self._bot_permissions),
                    "deny": str(denied),
                },
                *(
                    {
                        "id": str(user_id),
                        "type": 1,
                        "allow": "0",
                        "deny": str(discord.Permissions(view_channel=True).value),
                    }
                    for user_id in self._hidden_from
                ),
            ],
        }

    def _thread_payload(self) -> dict[str, Any]:
        assert self.guild is not None and self.parent is not None
        return {
            "id": str(self.id),
            "type": PUBLIC_THREAD_TYPE if self.thread_members is None else PRIVATE_THREAD_TYPE,
            "guild_id": str(self.guild.id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": len(self.messages),
            "total_message_sent": len(self.messages),
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_now(),
                "locked": False,
                "create_timestamp": iso_now(),
            },
        }

    def __repr__(self) -> str:
        return f"<fake Channel id={self.id} name={self.name!r} messages={len(self.messages)}>"


class Guild:
    def __init__(
        self,
        guild_id: int,
        name: str,
        *,
        new_id: Callable[[], int],
        on_channel_change: Callable[[Channel, str], None],
    ) -> None:
        self.id = guild_id
        self.name = name
        self.channels: list[Channel] = []
        self.threads: list[Channel] = []
        self.members: list[SimUser] = []
        self.preferred_locale = "en-US"
        """The server's community language (Server Settings → Community → Overview)."""
        self.bot_role_id = new_id()
        self._new_id = new_id
        self._on_channel_change = on_channel_change

    def add_text_channel(self, name: str, *, channel_id: int | None = None) -> Channel:
        channel = Channel(
            channel_id or self._new_id(),
            name.lstrip("#"),
            guild=self,
            position=len(self.channels),
            on_change=self._on_channel_change,
        )
        self.channels.append(channel)
        self._on_channel_change(channel, "CHANNEL_CREATE")
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        thread_id: int,
        owner_id: int,
        *,
        private_to: list[SimUser] | None = None,
    ) -> Channel:
        """A public thread under ``parent`` (started from a message: the thread has the
        message's id, as on Discord), or one private to the members ``private_to``; it
        inherits the parent's permissions."""
        thread = Channel(
            thread_id,
            name,
            guild=self,
            on_change=self._on_channel_change,
            parent=parent,
            owner_id=owner_id,
            thread_members=private_to,
        )
        thread._bot_permissions = parent._bot_permissions
        self.threads.append(thread)
        self._on_channel_change(thread, "THREAD_CREATE")
        return thread

    def thread(self, name: str) -> Channel:
        for thread in self.threads:
            if thread.name == name:
                return thread
        raise KeyError(f"guild {self.name!r} has no thread {name!r}")

    def channel(self, name: str) -> Channel:
        for channel in self.channels:
            if channel.name == name.lstrip("#"):
                return channel
        raise KeyError(f"guild {self.name!r} has no channel {name!r}")

    def member(self, user_id: int) -> SimUser:
        for member in self.members:
            if member.id == user_id:
                return member
        raise KeyError(f"user {user_id} is not a member of {self.name!r}")

    def roles_payload(self) -> list[dict[str, Any]]:
        return [
            {
                "id": str(self.id),
                "name": "@everyone",
                "permissions": str(MEMBER_DEFAULT_PERMISSIONS.value),
                "position": 0,
                "colors": {"primary_color": 0},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            },
            {
                "id": str(self.bot_role_id),
                "name": "bot",
                "permissions": str(BOT_DEFAULT_PERMISSIONS.value),
                "position": 1,
                "colors": {"primary_color": 0},
                "hoist": False,
                "managed": True,
                "mentionable": False,
                "flags": 0,
            },
        ]

    def create_payload(self, bot: BotUser) -> dict[str, Any]:
        """The GUILD_CREATE body: everything, including all members so no chunking is needed."""
        bot_member = member_payload(bot.payload(), roles=[self.bot_role_id])
        members = [bot_member] + [m.member_payload() for m in self.members]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.id + 1),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": self.roles_payload(),
            "channels": [channel.payload(bot.id) for channel in self.channels],
            "threads": [thread.payload(bot.id) for thread in self.threads if not thread.archived],
            "members": members,
            "member_count": len(members),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(),
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
        }

    def __repr__(self) -> str:
        return f"<fake Guild id={self.id} name={self.name!r}>"


def unknown_user_payload(user_id: int) -> dict[str, Any]:
    """A user the fake knows only by id, described the way Discord describes any user."""
    return {
        "id": str(user_id),
        "username": str(user_id),
        "global_name": None,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def member_payload(user: dict[str, Any], *, roles: list[int]) -> dict[str, Any]:
    return {
        "user": user,
        "nick": None,
        "avatar": None,
        "banner": None,
        "roles": [str(role) for role in roles],
        "joined_at": iso_now(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
