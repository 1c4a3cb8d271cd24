"""The lobby message: seats, invitation and the lobby's buttons."""

from __future__ import annotations

from typing import Any

import discord

from cogs.replies import NO_MENTIONS
from cogs.table.components import TableButton, Target, view_of
from cogs.table.computers import add_computer_select
from cogs.table.payload import MessagePayload
from data import Table
from games import GAMES
from texts.i18n import t
from texts.table import lobby_footer, options_line


def lobby_payload(
    table: Table,
    colour: discord.Colour,
    invited: discord.abc.User | None = None,
    length: str | None = None,
) -> MessagePayload:
    """The lobby message: seats, invitation, the game's length (``length``, where its
    game tells it) and the lobby's buttons."""
    spec = GAMES[table.kind]
    language = table.language
    # A computer is named as everywhere else: its level only when it is not normal.
    seats = "\n".join(f"{index + 1}. {seat.name}" for index, seat in enumerate(table.seats))
    seats_heading = t(
        language, "Seats ({taken}/{seats})", taken=len(table.seats), seats=spec.max_players
    )
    embed = discord.Embed(
        title=t(language, "{game}: table #{number}", game=spec.title, number=table.id),
        description=f"**{seats_heading}**\n{seats}",
        colour=colour,
    )
    options = options_line(language, spec.options, table.options)
    if options:
        embed.add_field(name=t(language, "Options"), value=options, inline=False)
    invited_ids = table.extra.get("invited") or []
    if invited_ids:
        embed.add_field(
            name=t(language, "Invited"), value=" ".join(f"<@{uid}>" for uid in invited_ids)
        )
    if length is not None:
        embed.add_field(name=t(language, "Length"), value=length, inline=False)
    if table.hints_on:
        embed.add_field(
            name=t(language, "💡 Hints on"),
            value=t(
                language,
                "Whoever is to act may ask the computer for advice, so the game will not be rated.",
            ),
            inline=False,
        )
    needed = spec.min_players - len(table.seats)
    embed.set_footer(text=lobby_footer(language, needed))
    target = Target(table.id, table.version, "join")
    full = len(table.seats) >= spec.max_players
    items: list[discord.ui.Item[Any]] = [
        TableButton(
            target,
            label=t(language, "Join"),
            style=discord.ButtonStyle.success,
            disabled=full,
        ),
        TableButton(target.but("leave"), label=t(language, "Leave")),
        TableButton(
            target.but("start"),
            label=t(language, "Start"),
            style=discord.ButtonStyle.primary,
            disabled=needed > 0,
        ),
        TableButton(
            target.but("cancel"),
            label=t(language, "Cancel"),
            style=discord.ButtonStyle.danger,
        ),
        TableButton(
            target.but("hints"),
            label=t(language, "Hints: on") if table.hints_on else t(language, "Hints: off"),
            emoji="💡",
            style=discord.ButtonStyle.success if table.hints_on else discord.ButtonStyle.secondary,
        ),
    ]
    if not full:
        items.append(add_computer_select(language, target.but("addbot")))
    mention = discord.AllowedMentions(users=[invited]) if invited else NO_MENTIONS
    content = (
        t(
            language,
            "{player}, you are invited to play {game}.",
            player=invited.mention,
            game=spec.title,
        )
        if invited
        else None
    )
    return MessagePayload(
        content=content, embed=embed, view=view_of(items), allowed_mentions=mention
    )
