"""REST routes of channels: history, typing, messages, threads, and attachment files."""

from __future__ import annotations

from typing import Any, Protocol

from aiohttp import web

from . import validation
from .edit_budget import OldMessageEdits
from .messages import Upload, read_body
from .model import BotUser, Channel, Message, iso_now
from .responses import json_response, no_content
from .validation import DiscordError


class ChannelWorld(Protocol):
    """What the channel routes use of the FakeDiscord.

    Messages are created, edited and deleted through it, not through its ledger: the load
    benchmarks hook `_edit_message` on the FakeDiscord to see every edit."""

    bot_user: BotUser
    message_log: list[Message]
    old_message_edits: OldMessageEdits

    def channel_by_id(self, channel_id: int) -> Channel: ...

    def _create_message(
        self, channel: Channel, body: dict[str, Any], uploads: dict[int, Upload]
    ) -> Message: ...

    def _edit_message(self, message: Message, body: dict, uploads: dict[int, Upload]) -> None: ...

    def _delete(self, message: Message) -> None: ...


class ChannelRoutes:
    """/channels/{channel_id}/… and the CDN's /attachments/… files."""

    def __init__(self, world: ChannelWorld) -> None:
        self.world = world

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.world.channel_by_id(int(request.match_info["channel_id"]))
        return json_response(channel.payload(self.world.bot_user.id))

    async def get_history(self, request: web.Request) -> web.Response:
        channel = self.world.channel_by_id(int(request.match_info["channel_id"]))
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        chosen = [
            m
            for m in channel.public_messages()
            if (before is None or m.id < before) and (after is None or m.id > after)
        ]
        # Those right after `after`, else those right before `before`; newest first either way.
        chosen = chosen[:limit] if after is not None and before is None else chosen[-limit:]
        return json_response([m.payload() for m in reversed(chosen)])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self.world.channel_by_id(int(request.match_info["channel_id"]))
        body, uploads = await read_body(request)
        check_can_send(channel, body, uploads)
        if channel.archived:
            channel.reopen()
        message = self.world._create_message(channel, body, uploads)
        return json_response(message.payload())

    async def start_thread_from_message(self, request: web.Request) -> web.Response:
        """A public thread started from a channel message (one thread per message)."""
        message = self._channel_message(request)
        channel = message.channel
        body, _ = await read_body(request)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise validation.invalid_form(
                [(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
            )
        if channel.guild is None or channel.parent is not None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if not channel.bot_permissions.create_public_threads:
            raise validation.missing_permissions()
        if any(thread.id == message.id for thread in channel.guild.threads):
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = channel.guild.add_thread(channel, name, message.id, self.world.bot_user.id)
        return json_response(thread.payload(self.world.bot_user.id), status=201)

    async def get_thread_member(self, request: web.Request) -> web.Response:
        """Whether a user joined a private thread (who joined a public one is not kept:
        everyone counts as joined)."""
        thread = self.world.channel_by_id(int(request.match_info["channel_id"]))
        user_id = int(request.match_info["user_id"])
        if thread.parent is None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        members = thread.thread_members
        if members is not None and all(member.id != user_id for member in members):
            raise validation.unknown("Member", 10007)
        return json_response(
            {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso_now(), "flags": 0}
        )

    def _channel_message(self, request: web.Request) -> Message:
        channel = self.world.channel_by_id(int(request.match_info["channel_id"]))
        message_id = int(request.match_info["message_id"])
        for message in channel.public_messages():
            if message.id == message_id:
                return message
        raise validation.unknown("Message", 10008)

    async def typing(self, request: web.Request) -> web.Response:
        self.world.channel_by_id(int(request.match_info["channel_id"]))
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._channel_message(request).payload())

    async def patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author is not self.world.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        if (
            uploads
            and not message.channel.is_dm
            and not message.channel.bot_permissions.attach_files
        ):
            raise validation.missing_permissions()
        refusal = self.world.old_message_edits.refusal(message)
        if refusal is not None:
            return refusal
        self.world._edit_message(message, body, uploads)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        channel = message.channel
        may_manage = not channel.is_dm and channel.bot_permissions.manage_messages
        if message.author is not self.world.bot_user and not may_manage:
            raise validation.missing_permissions()
        self.world._delete(message)
        return no_content()

    async def get_attachment_file(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.world.message_log:
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404, text="404: Not Found")


def check_can_send(channel: Channel, body: dict[str, Any], uploads: dict[int, Upload]) -> None:
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.dms_open:
            raise validation.cannot_dm_user()
        return
    permissions = channel.bot_permissions
    if not permissions.view_channel:
        raise validation.missing_access()
    # In a thread, Send Messages in Threads stands for Send Messages.
    in_thread = channel.parent is not None
    if not (permissions.send_messages_in_threads if in_thread else permissions.send_messages):
        raise validation.missing_permissions()
    if uploads and not permissions.attach_files:
        raise validation.missing_permissions()
    if body.get("embeds") and not permissions.embed_links:
        raise validation.missing_permissions()
