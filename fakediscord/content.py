"""What a message carries besides text: attachments (their type sniffed, a picture's size
read) and the buttons and selects a test reads from its components."""

from __future__ import annotations

import io
import itertools
import mimetypes
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from PIL import Image

BUTTON_TYPE = 2
STRING_SELECT_TYPE = 3
SELECT_TYPES = {3, 5, 6, 7, 8}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None
    size: tuple[int, int] | None = None

    @classmethod
    def from_upload(cls, attachment_id: int, filename: str, data: bytes) -> Attachment:
        content_type = guess_content_type(filename, data)
        return cls(attachment_id, filename, content_type, data, size=image_size(content_type, data))

    def url(self, channel_id: int) -> str:
        return f"https://cdn.discordapp.com/attachments/{channel_id}/{self.id}/{self.filename}"

    def payload(self, channel_id: int) -> dict[str, Any]:
        url = self.url(channel_id)
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.size is not None:
            payload["width"], payload["height"] = self.size
        return payload


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def image_size(content_type: str, data: bytes) -> tuple[int, int] | None:
    if not content_type.startswith("image/"):
        return None
    if data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR":
        # Every upload of a board is a PNG: its header says the size without decoding.
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except OSError:
        # Discord leaves width/height out for files it cannot decode.
        return None


def guess_content_type(filename: str, data: bytes) -> str:
    # discord.py uploads every file as application/octet-stream; Discord sniffs the real type.
    if data.startswith(PNG_MAGIC):
        return "image/png"
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def stored_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A message's components as Discord keeps and answers them: every component numbered
    (the ids the bot gave kept, the others counted from 1 in reading order, skipping those
    taken), selects with their default value counts, emoji without a null id."""
    taken = {component["id"] for component in reading_order(rows) if component.get("id")}
    free_ids = (number for number in itertools.count(1) if number not in taken)
    return [stored_component(row, free_ids) for row in rows]


def reading_order(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from reading_order(component.get("components") or [])


def stored_component(component: dict[str, Any], free_ids: Iterator[int]) -> dict[str, Any]:
    stored = {**component, "id": component.get("id") or next(free_ids)}
    if "components" in component:
        stored["components"] = [
            stored_component(child, free_ids) for child in component["components"]
        ]
    if component.get("type") in SELECT_TYPES:
        stored = {"min_values": 1, "max_values": 1} | stored
    if component.get("emoji"):
        stored["emoji"] = stored_emoji(component["emoji"])
    if "options" in component:
        stored["options"] = [
            option | {"emoji": stored_emoji(option["emoji"])} if option.get("emoji") else option
            for option in component["options"]
        ]
    return stored


def stored_emoji(emoji: dict[str, Any]) -> dict[str, Any]:
    # discord.py sends a unicode emoji with "id": null; Discord answers it without an id.
    return {key: value for key, value in emoji.items() if not (key == "id" and value is None)}


@dataclass(frozen=True)
class ButtonInfo:
    label: str | None
    custom_id: str | None
    disabled: bool
    style: int
    emoji: str | None
    url: str | None
    row: int


@dataclass(frozen=True)
class ChoiceInfo:
    """One choice an autocomplete offers: the name a member reads, the value the bot gets."""

    name: str
    value: str | int | float


@dataclass(frozen=True)
class SelectOptionInfo:
    label: str
    value: str
    description: str | None
    default: bool


@dataclass(frozen=True)
class SelectInfo:
    custom_id: str
    placeholder: str | None
    options: tuple[SelectOptionInfo, ...]
    min_values: int
    max_values: int
    disabled: bool
    row: int

    @property
    def values(self) -> list[str]:
        return [option.value for option in self.options]

    @property
    def labels(self) -> list[str]:
        return [option.label for option in self.options]


def buttons_in(components: list[dict[str, Any]]) -> list[ButtonInfo]:
    """The buttons of a message's components, row by row."""
    return [
        ButtonInfo(
            label=component.get("label"),
            custom_id=component.get("custom_id"),
            disabled=component.get("disabled", False),
            style=component.get("style", 1),
            emoji=emoji_text(component.get("emoji")),
            url=component.get("url"),
            row=row,
        )
        for row, component in components_of_type(components, BUTTON_TYPE)
    ]


def selects_in(components: list[dict[str, Any]]) -> list[SelectInfo]:
    """The string selects of a message's components, row by row."""
    return [
        SelectInfo(
            custom_id=component["custom_id"],
            placeholder=component.get("placeholder"),
            options=tuple(
                SelectOptionInfo(
                    label=option["label"],
                    value=option["value"],
                    description=option.get("description"),
                    default=option.get("default", False),
                )
                for option in component.get("options", [])
            ),
            min_values=component.get("min_values", 1),
            max_values=component.get("max_values", 1),
            disabled=component.get("disabled", False),
            row=row,
        )
        for row, component in components_of_type(components, STRING_SELECT_TYPE)
    ]


def components_of_type(
    components: list[dict[str, Any]], component_type: int
) -> list[tuple[int, dict[str, Any]]]:
    return [
        (row_index, component)
        for row_index, row in enumerate(components)
        for component in row.get("components", [])
        if component.get("type") == component_type
    ]


def emoji_text(emoji: dict[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return emoji.get("name")
