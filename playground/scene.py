"""The playground's little Discord: one server, two channels, four players, and what each
player may see of it, described as JSON for the page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

from fakediscord import Channel, FakeDiscord, Guild, Message, SimUser
from fakediscord.commands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    STRING,
    SUBCOMMAND,
    SUBCOMMAND_GROUP,
    USER,
)
from fakediscord.model import LOADING_FLAG, BotUser

SERVER_NAME = "Playground"
CHANNEL_NAMES = ("games", "more-games")
PLAYER_NAMES = ("alice", "bob", "carol", "dave")
SLASH_COMMAND_INTERACTION = 2
SHOWN = 32
CLIENT_LOCALES = {"en-US": "English", "de": "Deutsch"}
"""The client languages a member may switch to: the bot's catalogues."""


class BadRequest(Exception):
    """The page asked for something that does not exist or is malformed; the text says what."""


@dataclass
class Scene:
    fake: FakeDiscord
    guild: Guild
    channels: list[Channel]
    players: list[SimUser]

    @classmethod
    def build(cls, fake: FakeDiscord) -> Scene:
        guild = fake.add_guild(SERVER_NAME)
        channels = [guild.add_text_channel(name) for name in CHANNEL_NAMES]
        players = [fake.add_user(name, guild=guild) for name in PLAYER_NAMES]
        # The person trying the bot is usually the one who would invite it: an admin.
        players[0].permissions = discord.Permissions.all()
        return cls(fake, guild, channels, players)

    # ---- looking things up ---------------------------------------------------------------

    def player(self, key: object) -> SimUser:
        """A player by id or name (the page sends ids, people type names)."""
        wanted = str(key).strip().lstrip("@").lower()
        for player in self.players:
            if wanted in (str(player.id), player.name):
                return player
        raise BadRequest(f"there is no player {shown(key)}")

    def channel(self, key: object) -> Channel:
        wanted = str(key).strip().lstrip("#").lower()
        for channel in self.channels:
            if wanted in (str(channel.id), channel.name):
                return channel
        raise BadRequest(f"there is no channel {shown(key)}")

    def message(self, message_id: object) -> Message:
        for message in reversed(self.fake.message_log):
            if str(message.id) == str(message_id) and not message.deleted:
                return message
        raise BadRequest(f"message {shown(message_id)} is gone")

    def attachment_data(self, attachment_id: int) -> tuple[str, bytes]:
        for message in self.fake.message_log:
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return attachment.content_type, attachment.data
        raise BadRequest(f"there is no attachment {attachment_id}")

    def set_locale(self, player: SimUser, locale: str) -> None:
        """Give ``player`` a Discord client in another language."""
        if locale not in CLIENT_LOCALES:
            raise BadRequest(f"the client language must be one of {', '.join(CLIENT_LOCALES)}")
        player.locale = locale

    # ---- who sees what -------------------------------------------------------------------

    def visible_to(self, message: Message, viewer: SimUser) -> bool:
        if message.channel.is_dm:
            return message.channel.recipient is viewer
        return message.visible_to(viewer)

    def messages_for(self, viewer: SimUser) -> list[dict[str, Any]]:
        """Every message the viewer can see, channel messages and DMs, oldest first."""
        channels: Iterable[Channel] = [*self.channels]
        if viewer.dm_channel is not None:
            channels = [*channels, viewer.dm_channel]
        return [
            self.describe(message)
            for channel in channels
            for message in channel.messages
            if self.visible_to(message, viewer)
        ]

    def snapshot(self, viewer: SimUser) -> dict[str, Any]:
        return {
            "server": self.guild.name,
            "bot": {"id": str(self.fake.bot_user.id), "name": self.fake.bot_user.name},
            "viewer": str(viewer.id),
            "channels": [{"id": str(c.id), "name": c.name} for c in self.channels],
            "players": [
                {
                    "id": str(p.id),
                    "name": p.name,
                    "admin": p.permissions.administrator,
                    "locale": p.locale,
                }
                for p in self.players
            ],
            "commands": self.commands(),
            "messages": self.messages_for(viewer),
        }

    def commands(self) -> list[dict[str, Any]]:
        """The slash commands the bot synced, as Discord offers them in this server."""
        in_guild = self.fake.commands.listing(self.guild.id)
        names = {command["name"] for command in in_guild}
        everywhere = [c for c in self.fake.commands.listing(None) if c["name"] not in names]
        return sorted([*in_guild, *everywhere], key=lambda command: command["name"])

    # ---- describing messages -------------------------------------------------------------

    def describe(self, message: Message) -> dict[str, Any]:
        channel = message.channel
        return {
            "id": str(message.id),
            "channel": str(channel.id),
            "dm": channel.is_dm,
            "author": self._author(message.author),
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": [
                {
                    "id": str(attachment.id),
                    "filename": attachment.filename,
                    "url": f"/attachments/{attachment.id}/{attachment.filename}",
                    "content_type": attachment.content_type,
                    "description": attachment.description,
                    "width": attachment.size[0] if attachment.size else None,
                    "height": attachment.size[1] if attachment.size else None,
                    "bytes": len(attachment.data),
                }
                for attachment in message.attachments
            ],
            "ephemeral": message.is_ephemeral,
            "loading": bool(message.flags & LOADING_FLAG),
            "edited": message.edited_at is not None,
            "deleted": message.deleted,
            "timestamp": message.created_at,
            "pinged": [str(user_id) for user_id in message.pinged],
            "command": self._command_line(message),
        }

    def _author(self, author: BotUser | SimUser) -> dict[str, Any]:
        return {"id": str(author.id), "name": author.name, "bot": isinstance(author, BotUser)}

    def _command_line(self, message: Message) -> dict[str, str] | None:
        """The "alice used /bann new" line Discord shows above an answer to a command."""
        metadata = message.interaction_metadata
        if not metadata or metadata["type"] != SLASH_COMMAND_INTERACTION:
            return None
        record = self.fake.interactions.get(int(metadata["id"]))
        if record is None:
            return None
        return {"user": record.user.name, "command": record.label}

    # ---- slash command options -----------------------------------------------------------

    def slash_options(self, path: str, raw: dict[str, Any]) -> dict[str, Any]:
        """The page's option values, typed as the command's schema declares them."""
        declared = {option["name"]: option for option in self._leaf(path).get("options", [])}
        typed: dict[str, Any] = {}
        for name, value in raw.items():
            if not isinstance(value, str | int | float):
                raise BadRequest(f"option {shown(name)} must be a single value")
            if name not in declared:
                raise BadRequest(f"/{cut(path)} has no option {shown(name)}")
            typed[name] = self._typed(declared[name], value)
        return typed

    def _leaf(self, path: str) -> dict[str, Any]:
        names = path.strip().lstrip("/").split()
        if not names:
            raise BadRequest("type a command after the slash")
        level: list[dict[str, Any]] = self.commands()
        node: dict[str, Any] | None = None
        for name in names:
            node = next((entry for entry in level if entry["name"] == name), None)
            if node is None:
                raise BadRequest(f"there is no command /{cut(path.strip())}")
            level = [
                option
                for option in node.get("options", [])
                if option["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)
            ]
        if level or node is None:
            raise BadRequest(f"/{path.strip()} needs a subcommand")
        return node

    def _typed(self, option: dict[str, Any], value: Any) -> Any:
        kind, name = option["type"], option["name"]
        try:
            if kind in (USER, MENTIONABLE):
                return self.player(value)
            if kind == CHANNEL:
                return self.channel(value)
            if kind == INTEGER:
                return whole_number(value)
            if kind == NUMBER:
                return float(value)
            if kind == BOOLEAN:
                return parse_bool(value)
        except ValueError:
            raise BadRequest(f"option {shown(name)} cannot be {shown(value)}") from None
        if kind == STRING:
            return str(value)
        raise BadRequest(f"option {name!r} has a type the playground cannot send")


def whole_number(value: str | float) -> int:
    """An integer option's value: a whole number, or text that writes one."""
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(value)
    return int(value)


def shown(value: object) -> str:
    """A value quoted in an error, cut short: the page shows the error on one line."""
    return cut(repr(value))


def cut(text: str) -> str:
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise ValueError(value)
