"""Answers every part of the table machinery gives: the shared refusals and how to send them."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger("tablebot.table")

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
NOT_SEATED = "You are not playing in this game."
NOT_RUNNING = "This game is not running."
OUTDATED = "This board is outdated: the game has moved on. Use the newest board (`/game board`)."
MENU_OUTDATED = (
    "This menu is outdated: the game has moved on or you opened a newer one. "
    "Use the newest menu (or the board)."
)
CAUGHT_UP = (
    "The board had fallen behind the game (Discord failed to update it); it now shows "
    "the current position. Please choose again there."
)
QUOTE_LIMIT = 40
NO_MENTIONS = discord.AllowedMentions.none()


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    return [name for name in REQUIRED_PERMISSIONS if not getattr(permissions, name)]


def permission_sentence(missing: list[str]) -> str:
    names = ", ".join(f"**{name.replace('_', ' ').title()}**" for name in missing)
    return f"I need the {names} permission in this channel to host a game here."


def quoted(text: str) -> str:
    """``text`` in backticks for a refusal, cut to a few words so a reply stays short."""
    clean = text.replace("`", "'")
    return f"`{clean[:QUOTE_LIMIT]}…`" if len(clean) > QUOTE_LIMIT else f"`{clean}`"


def mention_only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(user_id)])


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """A short private answer, whether or not the interaction was acknowledged yet."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now: a click updates its own message later, a command answers privately."""
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def refuse_after_thinking(interaction: discord.Interaction[Any], text: str) -> None:
    """Refuse privately after a public "thinking…" acknowledgement: remove that, then tell."""
    await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=True)


async def delete_quietly(message: discord.PartialMessage) -> None:
    try:
        await message.delete()
    except discord.HTTPException:
        log.info("could not delete ping message %d", message.id)


async def strip_components(message: discord.PartialMessage) -> None:
    try:
        await message.edit(view=None)
    except discord.HTTPException:
        log.info("could not strip controls from message %d", message.id)
