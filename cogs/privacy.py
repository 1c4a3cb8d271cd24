"""Whether a member may see a game: a game in a private channel or thread stays as private
as its moves were, in exports, replays and the league's history alike."""

from __future__ import annotations

import discord

from cogs.host import Interaction


def may_read(interaction: Interaction, channel_id: int | None) -> bool:
    """Whether the member may read the game's channel: a game in a private channel or
    thread stays as private as its moves were (a channel that is gone hides nothing)."""
    member = interaction.user
    place = _place(interaction.guild, channel_id)
    if place is None or not isinstance(member, discord.Member):
        return True
    allowed = place.permissions_for(member)
    return allowed.view_channel and allowed.read_message_history


def kept_private(guild: discord.Guild | None, channel_id: int | None) -> bool:
    """Whether some members cannot read the game's channel: a private thread, or a channel
    (a thread's parent) closed to everyone or with any role or member shut out."""
    place = _place(guild, channel_id)
    if place is None:
        return False
    if isinstance(place, discord.Thread):
        if place.is_private():
            return True
        place = place.parent
        if place is None:
            return False
    everyone = place.permissions_for(place.guild.default_role)
    if not (everyone.view_channel and everyone.read_message_history):
        return True
    return any(
        overwrite.view_channel is False or overwrite.read_message_history is False
        for overwrite in place.overwrites.values()
    )


def _place(
    guild: discord.Guild | None, channel_id: int | None
) -> discord.abc.GuildChannel | discord.Thread | None:
    """The game's channel or thread as this process knows it (None when gone or unknown)."""
    return guild.get_channel_or_thread(channel_id) if guild and channel_id else None
