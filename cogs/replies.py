"""How the bot answers: the shared refusals, private replies, mentions, and the one-line
text of a failed Discord call. Every cog answers through these."""

from __future__ import annotations

import logging

import discord

from cogs.host import Interaction
from cogs.language import private_language
from texts.i18n import N_, t

log = logging.getLogger("tablebot.table")

REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
"""What a table in its own thread needs besides (``/settings threads``)."""
PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
NOT_SEATED = N_("You are not playing in this game.")
NOT_RUNNING = N_("This game is not running.")
OUTDATED = N_(
    "This board is outdated: the game has moved on. Use the newest board (`/game board`)."
)
MENU_OUTDATED = N_(
    "This menu is outdated: the game has moved on or you opened a newer one. "
    "Use the newest menu (or the board)."
)
CAUGHT_UP = N_(
    "The board had fallen behind the game (Discord failed to update it); it now shows "
    "the current position. Please choose again there."
)
QUOTE_LIMIT = 40
NO_MENTIONS = discord.AllowedMentions.none()
"""Every message the bot posts mentions nobody unless it names whom to ping."""


def missing_permissions(
    permissions: discord.Permissions, required: tuple[str, ...] = REQUIRED_PERMISSIONS
) -> list[str]:
    return [name for name in required if not getattr(permissions, name)]


def permission_names(language: str, missing: list[str]) -> str:
    return ", ".join(f"**{t(language, PERMISSION_NAMES[name])}**" for name in missing)


def permission_sentence(language: str, missing: list[str]) -> str:
    return t(
        language,
        "I need the {permissions} permission in this channel to host a game here.",
        permissions=permission_names(language, missing),
    )


def quoted(text: str) -> str:
    """``text`` in backticks for a refusal, cut to a few words so a reply stays short."""
    clean = text.replace("`", "'")
    return f"`{clean[:QUOTE_LIMIT]}…`" if len(clean) > QUOTE_LIMIT else f"`{clean}`"


def mention_only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(user_id)])


async def tell(interaction: Interaction, message: str, **params: object) -> None:
    """A short private answer in the member's language (``message`` is an English
    sentence of the catalogue, or a text already translated), whether or not the
    interaction was acknowledged yet."""
    text = t(private_language(interaction), message, **params)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def failure_text(error: discord.HTTPException) -> str:
    """One log-friendly phrase for a failed Discord call (no traceback)."""
    return f"HTTP {error.status} (code {error.code}): {error.text or 'no details'}"[:200]


async def acknowledge(interaction: Interaction) -> None:
    """Acknowledge now: a click updates its own message later, a command answers privately."""
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def refuse_after_thinking(
    interaction: Interaction, message: str, **params: object
) -> None:
    """Refuse privately after a public "thinking…" acknowledgement: remove that, then tell."""
    await interaction.delete_original_response()
    await interaction.followup.send(
        t(private_language(interaction), message, **params), ephemeral=True
    )


async def delete_quietly(message: discord.PartialMessage) -> None:
    try:
        await message.delete()
    except discord.HTTPException:
        log.info("could not delete ping message %d", message.id)
