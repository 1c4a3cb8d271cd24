"""Interactions: the INTERACTION_CREATE payload the bot receives, and the routes it answers
through: the interaction callback and the interaction's webhook (followups, edits, deletes)."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from aiohttp import web

from . import validation
from .messages import Upload, read_body
from .model import EPHEMERAL_FLAG, LOADING_FLAG, Channel, Message
from .responses import FakeUnsupported, json_response, no_content
from .users import APPLICATION_COMMAND_AUTOCOMPLETE, InteractionRecord, owners

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT = 8


class InteractionWorld(Protocol):
    """What the interaction routes use of the FakeDiscord.

    Messages are created, edited and deleted through it, not through its ledger: the load
    benchmarks hook `_edit_message` on the FakeDiscord to see every edit."""

    application_id: int
    ack_deadline: float
    token_lifetime: float
    interactions: dict[int, InteractionRecord]
    _interactions_by_token: dict[str, InteractionRecord]

    def _create_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        uploads: dict[int, Upload],
        *,
        ephemeral_for: int | None = None,
        record: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Message: ...

    def _edit_message(self, message: Message, body: dict, uploads: dict[int, Upload]) -> None: ...

    def _delete(self, message: Message) -> None: ...


def interaction_payload(
    record: InteractionRecord,
    data: dict[str, Any],
    *,
    application_id: int,
    bot_user_id: int,
    attachment_size_limit: int,
) -> dict:
    """The INTERACTION_CREATE event for `record`, as Discord sends it."""
    channel, user = record.channel, record.user
    channel_payload = channel.payload(bot_user_id)
    payload: dict[str, Any] = {
        "id": str(record.id),
        "application_id": str(application_id),
        "type": record.kind,
        "data": data,
        "token": record.token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload,
        "app_permissions": str(channel.bot_permissions.value),
        "locale": user.locale,
        "entitlements": [],
        "authorizing_integration_owners": owners(channel, user),
        "attachment_size_limit": attachment_size_limit,
    }
    if channel.guild is not None:
        member = user.member_payload()
        member["permissions"] = str(user.permissions.value)
        channel_payload["permissions"] = str(user.permissions.value)
        payload |= {
            "guild_id": str(channel.guild.id),
            "guild": {
                "id": str(channel.guild.id),
                "locale": channel.guild.preferred_locale,
                "features": [],
            },
            "guild_locale": channel.guild.preferred_locale,
            "member": member,
            "context": 0,
        }
    else:
        payload |= {"user": user.user_payload(), "context": 1}
    if record.source is not None:
        payload["message"] = record.source.payload()
    return payload


class InteractionRoutes:
    """POST /interactions/{id}/{token}/callback and the routes of the interaction webhook."""

    def __init__(self, world: InteractionWorld) -> None:
        self.world = world

    def _record(self, interaction_id: int, token: str) -> InteractionRecord:
        record = self.world.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise validation.unknown("interaction", 10062)
        return record

    def _record_by_token(self, request: web.Request) -> InteractionRecord:
        record = self.world._interactions_by_token.get(request.match_info["webhook_token"])
        is_ours = int(request.match_info["webhook_id"]) == self.world.application_id
        if record is None or not is_ours or record.response_type is None:
            raise validation.unknown("Webhook", 10015)
        if asyncio.get_running_loop().time() - record.created_at > self.world.token_lifetime:
            raise validation.expired_token()
        return record

    async def callback(self, request: web.Request) -> web.Response:
        record = self._record(
            int(request.match_info["interaction_id"]), request.match_info["interaction_token"]
        )
        body, uploads = await read_body(request)
        if record.response_type is not None:
            raise validation.already_acknowledged()
        if asyncio.get_running_loop().time() - record.created_at > self.world.ack_deadline:
            raise validation.unknown("interaction", 10062)
        response_type = body.get("type")
        data = body.get("data") or {}
        check_type_fits(record, response_type)
        message: Message | None = None
        if response_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            message = self._respond_with_message(record, response_type, data, uploads)
        elif response_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = self._respond_with_update(record, response_type, data, uploads)
        elif response_type == AUTOCOMPLETE_RESULT:
            validation.check_choices(data)
            record.choices = list(data.get("choices") or [])
        else:
            raise FakeUnsupported(f"interaction callback type {response_type} is not supported")
        record.response_type = response_type
        record.original = message
        if response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT):
            record.mark_answered()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(callback_answer(record, response_type, message))

    def _respond_with_message(
        self, record: InteractionRecord, response_type: int, data: dict, uploads: dict[int, Upload]
    ) -> Message:
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL_FLAG)
        if response_type == DEFERRED_CHANNEL_MESSAGE:
            return self.world._create_message(
                record.channel,
                {},
                {},
                ephemeral_for=record.user.id if ephemeral else None,
                record=record,
                loading=True,
            )
        return self.world._create_message(
            record.channel,
            data,
            uploads,
            ephemeral_for=record.user.id if ephemeral else None,
            record=record,
        )

    def _respond_with_update(
        self, record: InteractionRecord, response_type: int, data: dict, uploads: dict[int, Upload]
    ) -> Message:
        if record.source is None:
            raise validation.invalid_form(
                [(["type"], "INTERACTION_TYPE_INVALID", "Only component interactions can update")]
            )
        if response_type == UPDATE_MESSAGE:
            self.world._edit_message(record.source, data, uploads)
        return record.source

    async def post_followup(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        body, uploads = await read_body(request)
        original = record.original
        if original is not None and not original.deleted and original.flags & LOADING_FLAG:
            # Discord turns the first followup after a "thinking" defer into that message
            # (once the bot deleted it, a followup is a message of its own).
            self.world._edit_message(original, body, uploads)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL_FLAG)
            message = self.world._create_message(
                record.channel,
                body,
                uploads,
                ephemeral_for=record.user.id if ephemeral else None,
                record=record,
            )
        record.followups.append(message)
        record.mark_answered()
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(message.payload())

    def _webhook_message(self, request: web.Request) -> Message:
        record = self._record_by_token(request)
        wanted = request.match_info["message_id"]
        if wanted == "@original" and record.original is not None:
            return record.original
        for message in [record.original, *record.followups]:
            if message is not None and str(message.id) == wanted and not message.deleted:
                return message
        raise validation.unknown("Message", 10008)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._webhook_message(request).payload())

    async def patch_webhook_message(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        message = self._webhook_message(request)
        body, uploads = await read_body(request)
        self.world._edit_message(message, body, uploads)
        record.mark_answered()
        return json_response(message.payload())

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        self.world._delete(self._webhook_message(request))
        return no_content()


def check_type_fits(record: InteractionRecord, response_type: Any) -> None:
    """Choices answer an autocomplete, and an autocomplete is answered by nothing else."""
    is_autocomplete = record.kind == APPLICATION_COMMAND_AUTOCOMPLETE
    if is_autocomplete != (response_type == AUTOCOMPLETE_RESULT):
        raise validation.invalid_form(
            [(["type"], "INTERACTION_TYPE_INVALID", "Invalid response type for this interaction")]
        )


def callback_answer(record: InteractionRecord, response_type: int, message: Message | None) -> dict:
    """The `?with_response=true` body: the interaction summary plus the resource it made,
    a message only for the types that send or edit one now (not for a defer, nor for an
    autocomplete's choices, which make no message)."""
    summary: dict[str, Any] = {"id": str(record.id), "type": record.kind}
    if message is not None:
        summary |= {
            "response_message_id": str(message.id),
            "response_message_loading": bool(message.flags & LOADING_FLAG),
            "response_message_ephemeral": message.is_ephemeral,
        }
    answer: dict[str, Any] = {"interaction": summary}
    if message is not None and response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        answer["resource"] = {"type": response_type, "message": message.payload()}
    return answer
