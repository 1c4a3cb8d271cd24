"""Whether a member may see a game: a game in a private channel or thread stays as private
as its moves were, in exports, replays and the league's history alike.

Only a place the bot can look at and the member can read counts as readable. An archived
thread is never in the cache (Discord drops it there), so a place missing from the cache
is fetched; one that cannot be fetched (deleted, hidden from the bot, Discord failing) may
have been private, so its games stay hidden.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol, TypeVar

import discord

from cogs.host import Interaction

Place = discord.abc.GuildChannel | discord.Thread


class PlayedSomewhere(Protocol):
    @property
    def channel_id(self) -> int | None: ...


Played = TypeVar("Played", bound=PlayedSomewhere)


async def may_read(interaction: Interaction, channel_id: int | None) -> bool:
    """Whether the member may read the game's channel or thread."""
    return await readable_place(interaction, channel_id) is not None


async def readable_place(interaction: Interaction, channel_id: int | None) -> Place | None:
    """The game's channel or thread if the member may read it, else None."""
    place = await place_of(interaction.guild, channel_id)
    member = interaction.user
    if place is None or not isinstance(member, discord.Member):
        return None
    return place if await _reads(member, place) else None


async def first_readable(
    interaction: Interaction, games: Sequence[Played], limit: int
) -> list[tuple[Played, Place]]:
    """The first ``limit`` of ``games`` whose place the member may read, each with its
    place. Places are looked at a batch of ``limit`` games at a time, all of a batch at
    once, so a long list costs no more requests to Discord than it must."""
    found: list[tuple[Played, Place]] = []
    places: dict[int | None, Place | None] = {}
    for start in range(0, len(games), limit):
        batch = games[start : start + limit]
        channels = dict.fromkeys(game.channel_id for game in batch)
        unseen = [channel_id for channel_id in channels if channel_id not in places]
        looked_at = await asyncio.gather(*(readable_place(interaction, key) for key in unseen))
        places.update(zip(unseen, looked_at, strict=True))
        for game in batch:
            place = places[game.channel_id]
            if place is not None:
                found.append((game, place))
        if len(found) >= limit:
            break
    return found[:limit]


async def _reads(member: discord.Member, place: Place) -> bool:
    if isinstance(place, discord.Thread) and place.parent is None:
        # A thread's permissions are its parent's; without the parent they are unknown.
        return False
    allowed = place.permissions_for(member)
    if not (allowed.view_channel and allowed.read_message_history):
        return False
    if not isinstance(place, discord.Thread) or not place.is_private() or allowed.manage_threads:
        return True
    # A private thread shows itself to its members (and to those who manage threads).
    try:
        await place.fetch_member(member.id)
    except discord.HTTPException:
        return False
    return True


def kept_private(place: Place) -> bool:
    """Whether some members cannot read the place: a private thread, or a channel (a
    thread's parent) closed to everyone or with any role or member shut out."""
    if isinstance(place, discord.Thread):
        if place.is_private():
            return True
        parent = place.parent
        if parent is None:
            return True
        place = parent
    everyone = place.permissions_for(place.guild.default_role)
    if not (everyone.view_channel and everyone.read_message_history):
        return True
    return any(
        overwrite.view_channel is False or overwrite.read_message_history is False
        for overwrite in place.overwrites.values()
    )


async def place_of(guild: discord.Guild | None, channel_id: int | None) -> Place | None:
    """The game's channel or thread: from the cache, else from Discord; None when it
    cannot be looked at."""
    if guild is None or not channel_id:
        return None
    cached = guild.get_channel_or_thread(channel_id)
    if cached is not None:
        return cached
    try:
        return await guild.fetch_channel(channel_id)
    except (discord.HTTPException, discord.InvalidData):
        return None
