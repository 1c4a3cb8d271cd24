"""The messages the fake holds: creating, editing and deleting one, and telling the test's
watchers and the bot (by gateway event) about it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import validation
from .messages import (
    Upload,
    apply_fields,
    created_attachments,
    edited_attachments,
    pinged_user_ids,
)
from .model import EPHEMERAL_FLAG, LOADING_FLAG, BotUser, Channel, Message
from .users import InteractionRecord, SimUser


class MessageLedger:
    """Bookkeeping of every message, on behalf of the FakeDiscord.

    The lists and the set are the FakeDiscord's own: `log` is its message_log, `unanswered`
    the interactions still waiting for a visible answer, `known_user_ids` its users' ids.
    `upload_limit()` reads its attachment_size_limit, which a test may change at any time."""

    def __init__(
        self,
        *,
        new_id: Callable[[], int],
        bot_user: BotUser,
        log: list[Message],
        known_user_ids: set[int],
        unanswered: list[InteractionRecord],
        upload_limit: Callable[[], int],
        dispatch_soon: Callable[[str, dict[str, Any]], None],
    ) -> None:
        self._new_id = new_id
        self._bot_user = bot_user
        self._log = log
        self._known_user_ids = known_user_ids
        self._unanswered = unanswered
        self._upload_limit = upload_limit
        self._dispatch_soon = dispatch_soon
        self._watchers: list[Callable[[Message], None]] = []

    def watch(self, on_change: Callable[[Message], None]) -> None:
        self._watchers.append(on_change)

    def _changed(self, message: Message) -> None:
        for on_change in self._watchers:
            on_change(message)

    def add_user_message(self, user: SimUser, channel: Channel, content: str) -> Message:
        """A plain message a simulated user posts (the caller dispatches it)."""
        message = Message(self._new_id(), channel, user, content=content)
        message.pinged = self._known_users(pinged_user_ids(content, None))
        channel.messages.append(message)
        self._log.append(message)
        self._changed(message)
        return message

    def create(
        self,
        channel: Channel,
        body: dict[str, Any],
        uploads: dict[int, Upload],
        *,
        ephemeral_for: int | None = None,
        record: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Message:
        if not loading:
            validation.check_message(body, creating=True, file_count=len(uploads))
            self._check_upload_sizes(uploads)
        message = Message(self._new_id(), channel, self._bot_user, ephemeral_for=ephemeral_for)
        apply_fields(message, body)
        message.flags |= (EPHEMERAL_FLAG if ephemeral_for else 0) | (LOADING_FLAG if loading else 0)
        message.attachments = created_attachments(body, uploads, self._new_id)
        message.pinged = self._known_users(message.pinged)
        if record is not None:
            message.interaction_metadata = record.metadata()
        channel.messages.append(message)
        self._log.append(message)
        self._changed(message)
        if not message.is_ephemeral and not loading:
            self._dispatch_soon("MESSAGE_CREATE", message.payload())
        return message

    def _check_upload_sizes(self, uploads: dict[int, Upload]) -> None:
        if any(len(upload.data) > self._upload_limit() for upload in uploads.values()):
            raise validation.entity_too_large()

    def edit(self, message: Message, body: dict, uploads: dict[int, Upload]) -> None:
        validation.check_message(body, creating=False, file_count=len(uploads))
        self._check_upload_sizes(uploads)
        message.remember_version()
        apply_fields(message, body)
        message.flags &= ~LOADING_FLAG
        if "attachments" in body or uploads:
            message.attachments = edited_attachments(message, body, uploads, self._new_id)
        message.pinged = self._known_users(message.pinged)
        self._answer_deferred_interactions_about(message)
        self._changed(message)
        if not message.is_ephemeral:
            self._dispatch_soon("MESSAGE_UPDATE", message.payload())

    def _answer_deferred_interactions_about(self, message: Message) -> None:
        # After a defer the bot may answer by editing the board through the channel route.
        for record in list(self._unanswered):
            if record.answered_at is None and message in (record.source, record.original):
                record.mark_answered()
            if record.answered_at is not None:
                self._unanswered.remove(record)

    def delete(self, message: Message) -> None:
        message.deleted = True
        message.channel.messages.remove(message)
        self._changed(message)
        if not message.is_ephemeral:
            event = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                event["guild_id"] = str(message.channel.guild.id)
            self._dispatch_soon("MESSAGE_DELETE", event)

    def _known_users(self, user_ids: list[int]) -> list[int]:
        known = self._known_user_ids
        return [user_id for user_id in user_ids if user_id in known]
