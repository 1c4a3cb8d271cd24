"""What a table's message shows, typed as discord.py's edit and send take it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import discord


class MessageEdit(TypedDict, total=False):
    """The arguments of a message edit (``Message.edit``, ``edit_original_response``)."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None
    allowed_mentions: discord.AllowedMentions
    attachments: list[discord.File]


class NewMessage(TypedDict, total=False):
    """The arguments of a new message (``Messageable.send``)."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions
    files: list[discord.File]


@dataclass
class MessagePayload:
    """What a table's message shows, to edit into it or post anew."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None
    allowed_mentions: discord.AllowedMentions | None = None
    """None: the bot's default (which mentions nobody)."""
    files: list[discord.File] | None = None
    """None: an edit leaves the message's attachments as they are."""

    def edit(self) -> MessageEdit:
        changes = MessageEdit(content=self.content, embed=self.embed, view=self.view)
        if self.allowed_mentions is not None:
            changes["allowed_mentions"] = self.allowed_mentions
        if self.files is not None:
            changes["attachments"] = self.files
        return changes

    def rewind(self) -> None:
        """Read the files from their start again, as a request Discord refused read them."""
        for file in self.files or []:
            file.reset()

    def new_message(self) -> NewMessage:
        message = NewMessage(content=self.content)
        if self.embed is not None:
            message["embed"] = self.embed
        if self.view is not None:
            message["view"] = self.view
        if self.allowed_mentions is not None:
            message["allowed_mentions"] = self.allowed_mentions
        if self.files:
            message["files"] = self.files
        return message


class PrivateView(TypedDict, total=False):
    """A message to one player (an ephemeral reply or a DM): text, picture, controls."""

    content: str
    embed: discord.Embed
    file: discord.File
    view: discord.ui.View


def private_edit(message: PrivateView) -> MessageEdit:
    """The edit that makes an earlier private message show ``message``: its picture
    replaces the old one (none removes it), and without controls the old ones go."""
    picture = message.get("file")
    edit = MessageEdit(view=message.get("view"), attachments=[picture] if picture else [])
    if "content" in message:
        edit["content"] = message["content"]
    if "embed" in message:
        edit["embed"] = message["embed"]
    return edit
