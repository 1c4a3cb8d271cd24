"""Ending a table without a result: `/game abandon` asks first, as resigning does, and only
the confirmation ends it (one slip of the command must not end a 28-deal evening)."""

from __future__ import annotations

import discord

from cogs.host import Host, Interaction
from cogs.language import private_language
from cogs.replies import NO_MENTIONS, tell
from cogs.table.board import BoardComposer
from cogs.table.components import TableButton, Target, view_of
from cogs.table.follows import Spectators
from cogs.table.keeper import BoardKeeper
from cogs.table.lobby import may_manage
from cogs.table.memory import GameMemory
from cogs.table.records import seed_reveal
from data import Store, Table
from games import GAMES
from texts import table as table_text
from texts.i18n import N_, t

CONFIRM_VERB = "abandon_yes"
ONLY_MANAGERS = N_("Only the game's creator or someone with **Manage Messages** can abandon it.")
ASK = N_(
    "End {game} game #{number} now, for everyone? It ends without a result and is not rated;"
    " this cannot be undone."
)


class Abandoning:
    """`/game abandon`: the question, then the table's end on its confirmation."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        keeper: BoardKeeper,
        composer: BoardComposer,
        spectators: Spectators,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.keeper = keeper
        self.composer = composer
        self.spectators = spectators

    async def ask(self, interaction: Interaction, table: Table) -> None:
        """Ask the creator or moderator whether to end the table, with a button that does."""
        if not may_manage(interaction, table):
            await tell(interaction, ONLY_MANAGERS)
            return
        language = private_language(interaction)
        confirm = TableButton(
            Target(table.id, table.version, CONFIRM_VERB),
            label=t(language, "Yes, abandon"),
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            t(language, ASK, game=GAMES[table.kind].title, number=table.id),
            view=view_of([confirm]),
            ephemeral=True,
        )

    async def abandon(self, interaction: Interaction, table: Table) -> None:
        """End the table unrated (the confirmation's click), tell the channel and reveal
        the seed."""
        if not may_manage(interaction, table):
            await tell(interaction, ONLY_MANAGERS)
            return
        await interaction.response.defer()
        language = private_language(interaction)
        async with self.memory.lock(table.id):
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.edit_original_response(
                    content=t(language, "That game has just ended."), view=None
                )
                return
            fresh.status = "aborted"
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(None, "!abandon")]
            )
        await interaction.edit_original_response(
            content=t(language, "You abandoned the game."), view=None
        )
        public = fresh.language
        headline = table_text.abandoned_by_headline(public, interaction.user.display_name)
        if fresh.state is not None:
            await self.keeper.refresh(fresh, GAMES[fresh.kind].from_dict(fresh.state), headline)
        elif fresh.board_message_id is not None:
            await self.keeper.draw_or_retry(fresh, lambda: self.composer.current_payload(fresh))
        self.spectators.table_ended(fresh)
        announcement = t(
            public,
            "{game} game #{number}: {headline}",
            game=GAMES[fresh.kind].title,
            number=fresh.id,
            headline=headline,
        )
        channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
        await channel.send(
            f"{announcement}\n{seed_reveal(fresh, public)}", allowed_mentions=NO_MENTIONS
        )
        self.memory.forget(fresh.id)
