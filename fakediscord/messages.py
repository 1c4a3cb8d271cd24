"""Reading message bodies (JSON or multipart) and applying them to stored messages."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import orjson
from aiohttp import web

from .content import Attachment, stored_components
from .model import EPHEMERAL_FLAG, LOADING_FLAG, Message

USER_MENTION = re.compile(r"<@!?(\d+)>")
DISPOSITION_PARAMETER = re.compile(r'(\w+\*?)=("(?:[^"\\]|\\.)*"|[^;]*)')
# Flags a bot may set itself; Discord ignores the rest (ephemeral is handled separately).
SETTABLE_FLAGS = (1 << 2) | (1 << 12)


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
    """The JSON payload and the uploaded files keyed by their `files[n]` index."""
    content_type = request.headers.get("Content-Type", "")
    raw = await request.read()
    if content_type.startswith("multipart/"):
        return parse_multipart(raw, boundary_of(content_type))
    return (orjson.loads(raw) if raw else {}), {}


def boundary_of(content_type: str) -> bytes:
    for parameter in content_type.split(";")[1:]:
        key, _, value = parameter.strip().partition("=")
        if key.lower() == "boundary":
            return value.strip('"').encode()
    raise ValueError(f"multipart body without a boundary: {content_type!r}")


def parse_multipart(raw: bytes, boundary: bytes) -> tuple[dict[str, Any], dict[int, Upload]]:
    # A small parser of our own: aiohttp's multipart reader costs milliseconds per request,
    # which would dominate click latencies in the benchmarks.
    payload: dict[str, Any] = {}
    uploads: dict[int, Upload] = {}
    for chunk in raw.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, body = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        parameters = disposition_parameters(head.decode("utf-8", "replace"))
        body = body.removesuffix(b"\r\n")
        name = parameters.get("name", "")
        if name == "payload_json":
            payload = orjson.loads(body)
        elif name.startswith("files["):
            index = int(name[len("files[") : -1])
            uploads[index] = Upload(parameters.get("filename", f"file{index}"), body)
    return payload, uploads


def disposition_parameters(head: str) -> dict[str, str]:
    for line in head.split("\r\n"):
        header, _, value = line.partition(":")
        if header.strip().lower() == "content-disposition":
            return parse_parameters(value)
    return {}


def parse_parameters(value: str) -> dict[str, str]:
    parameters: dict[str, str] = {}
    for key, raw_value in DISPOSITION_PARAMETER.findall(value):
        if raw_value.startswith('"'):
            raw_value = raw_value[1:-1].replace('\\"', '"')
        if key.endswith("*"):
            # RFC 5987 (charset''percent-encoded) wins over the plain parameter.
            parameters[key[:-1]] = unquote(raw_value.split("''", 1)[-1])
        else:
            parameters.setdefault(key, raw_value)
    return parameters


def created_attachments(
    body: dict[str, Any], uploads: dict[int, Upload], new_id: Callable[[], int]
) -> list[Attachment]:
    descriptions = {
        str(entry.get("id")): entry.get("description") for entry in body.get("attachments") or []
    }
    attachments = []
    for index in sorted(uploads):
        upload = uploads[index]
        attachment = Attachment.from_upload(new_id(), upload.filename, upload.data)
        attachment.description = descriptions.get(str(index))
        attachments.append(attachment)
    return attachments


def edited_attachments(
    message: Message,
    body: dict[str, Any],
    uploads: dict[int, Upload],
    new_id: Callable[[], int],
) -> list[Attachment]:
    """`attachments` lists what survives the edit: existing ids to keep, upload indexes to add."""
    new_files = created_attachments(body, uploads, new_id)
    if "attachments" not in body:
        return message.attachments + new_files
    existing = {str(attachment.id): attachment for attachment in message.attachments}
    kept = [
        existing[str(entry.get("id"))]
        for entry in body["attachments"] or []
        if str(entry.get("id")) in existing
    ]
    return kept + new_files


def pinged_user_ids(content: str, allowed_mentions: dict[str, Any] | None) -> list[int]:
    """Users a message really notifies: mentioned in content and allowed by allowed_mentions."""
    mentioned = [int(match) for match in USER_MENTION.findall(content)]
    if allowed_mentions is None or "users" in allowed_mentions.get("parse", []):
        allowed = set(mentioned)
    else:
        allowed = {int(user_id) for user_id in allowed_mentions.get("users", [])}
    return list(dict.fromkeys(user_id for user_id in mentioned if user_id in allowed))


def apply_fields(
    message: Message, body: dict[str, Any], *, default_allowed_mentions: dict | None = None
) -> None:
    """Apply the fields present in a create/edit body; absent fields stay as they are."""
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = list(body["embeds"] or [])
    if "components" in body:
        message.components = stored_components(body["components"] or [])
    if "flags" in body and body["flags"] is not None:
        kept = message.flags & (EPHEMERAL_FLAG | LOADING_FLAG)
        message.flags = kept | (int(body["flags"]) & SETTABLE_FLAGS)
    if "content" in body or "allowed_mentions" in body:
        allowed = body.get("allowed_mentions", default_allowed_mentions)
        message.pinged = pinged_user_ids(message.content, allowed)
