"""The lobby: opening a table, seats, invitations, computer players, start and cancel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs.host import Interaction
from cogs.language import channel_language, private_language
from cogs.replies import (
    failure_text,
    log,
    missing_permissions,
    permission_sentence,
    refuse_after_thinking,
    tell,
)
from cogs.table.board import BoardComposer
from cogs.table.components import Target
from cogs.table.computers import computer_seat, level_chosen
from cogs.table.deadlines import THREAD_REFUSED, Deadlines
from cogs.table.follows import Spectators
from cogs.table.keeper import BoardKeeper
from cogs.table.lengths import GameLengths
from cogs.table.payload import MessagePayload
from cogs.table.pipeline import Pipeline
from data import HINTS, ChannelBusy, LobbyLimitReached, Seat, StaleVersion, Store, Table
from data.store import PRACTICE
from games import DEFAULT_LEVEL, GAMES
from texts.i18n import N_, t, tn
from texts.table import length_line

LOBBY_VERBS = frozenset({"join", "leave", "addbot", "start", "cancel", "hints"})

LOBBY_LIMIT = 3
THREAD_REFUSED_CHANNEL_BUSY = N_(
    "Discord did not let me post in your table's own thread, and this channel has a game"
    " of its own, so no table was opened. Ask a moderator to check my permissions in"
    " threads here."
)


def may_manage(interaction: Interaction, table: Table) -> bool:
    """The table's creator, or a moderator of the channel."""
    if interaction.user.id == table.creator_id:
        return True
    return interaction.permissions.manage_messages


def busy_sentence(language: str, table: Table) -> str:
    title = GAMES[table.kind].title
    if table.status == "lobby":
        message = N_(
            "This channel already has a lobby of {game} (game #{number}). Finish it, or ask"
            " its creator or a moderator to `/game abandon` it, or start a thread for a"
            " second game."
        )
    else:
        message = N_(
            "This channel already has a running game of {game} (game #{number}). Finish it,"
            " or ask its creator or a moderator to `/game abandon` it, or start a thread for"
            " a second game."
        )
    return t(language, message, game=title, number=table.id)


def limit_sentence(language: str, waiting: int) -> str:
    return tn(
        language,
        "You already have {count} open table waiting for players on this server."
        " Start or cancel it first.",
        "You already have {count} open tables waiting for players on this server."
        " Start or cancel one of them first.",
        waiting,
    )


def lobby_refusal(interaction: Interaction, invited: discord.abc.User | None) -> str | None:
    language = private_language(interaction)
    if interaction.guild_id is None:
        return t(language, "Games are played in server channels, not in direct messages.")
    missing = missing_permissions(interaction.app_permissions)
    if missing:
        return permission_sentence(language, missing)
    if invited is not None and invited.bot:
        return t(
            language,
            "Bots cannot join a table; use the `computer` option for a computer player.",
        )
    if invited is not None and invited.id == interaction.user.id:
        return t(language, "You cannot invite yourself: leave `opponent` empty to open the table.")
    return None


class Lobby:
    """Tables waiting for players, until they start or close."""

    def __init__(
        self,
        store: Store,
        composer: BoardComposer,
        lengths: GameLengths,
        keeper: BoardKeeper,
        pipeline: Pipeline,
        deadlines: Deadlines,
        seed_source: Callable[[], int],
        spectators: Spectators,
    ) -> None:
        self.store = store
        self.composer = composer
        self.lengths = lengths
        self.keeper = keeper
        self.pipeline = pipeline
        self.deadlines = deadlines
        self.seed_source = seed_source
        self.spectators = spectators

    async def open(
        self,
        interaction: Interaction,
        kind: str,
        *,
        options: dict[str, Any],
        invited: discord.abc.User | None = None,
        computers: int = 0,
        level: str = DEFAULT_LEVEL,
        clock: int | None = None,
        practice: bool = False,
    ) -> None:
        """Answer a `/<game> new` command with a lobby message (or start at once);
        ``practice`` marks the practice game after a lesson, which is never rated."""
        refusal = lobby_refusal(interaction, invited) or await self._limit(interaction)
        if refusal:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        spec = GAMES[kind]
        # Acknowledge before writing: a write waiting for the database must not cost the
        # interaction its three seconds.
        await interaction.response.defer(thinking=True)
        language = await channel_language(interaction)
        seats = [
            Seat(
                interaction.user.display_name,
                interaction.user.id,
                language=private_language(interaction),
            )
        ]
        for _ in range(computers):
            seats.append(computer_seat(seats, level, language))
        del seats[spec.max_players :]
        guild_id = interaction.guild_id or 0
        clocks = self.deadlines
        extra = await clocks.new_table_extra(guild_id, kind, clock)
        extra["language"] = language
        if practice:
            extra[PRACTICE] = True
        place = await clocks.table_place(interaction, spec.title)
        try:
            table = await self.store.create_table(
                kind=kind,
                guild_id=guild_id,
                channel_id=place.channel_id,
                creator_id=interaction.user.id,
                seats=seats,
                options=options,
                seed=self.seed_source(),
                # Named in DMs, which the process of shard 0 may send without this server.
                extra={**extra, "server": interaction.guild.name} if interaction.guild else extra,
                due_at=await clocks.lobby_due(guild_id),
                lobby_limit=LOBBY_LIMIT,
            )
        except ChannelBusy as busy:
            await refuse_after_thinking(
                interaction, busy_sentence(private_language(interaction), busy.table)
            )
            return
        except LobbyLimitReached as reached:
            await refuse_after_thinking(
                interaction, limit_sentence(private_language(interaction), reached.waiting)
            )
            return
        clocks.saved(table)
        if invited is not None:
            table.extra["invited"] = [invited.id]
            await self.store.save(table, expected_version=table.version)
        await self._show_new(interaction, table, invited, place.why_not_a_thread)

    async def _show_new(
        self,
        interaction: Interaction,
        table: Table,
        invited: discord.abc.User | None,
        why_not_a_thread: str | None,
    ) -> None:
        """Show a new table, its lobby or (full at once) its board, in its own thread or
        as the command's answer; the opener of a table the server wanted in a thread of
        its own is told why it is not."""
        in_thread = table.channel_id != interaction.channel_id
        if in_thread and not await self._posted_in_thread(table, invited):
            if not await self._back_to_channel(interaction, table):
                return
            in_thread = False
            why_not_a_thread = t(private_language(interaction), THREAD_REFUSED)
        shown = True
        if len(table.seats) == GAMES[table.kind].max_players:
            await self.pipeline.start(interaction, table, fresh_message=True)
            await self._tell_length(interaction, table)
        elif not in_thread:
            shown = await self._post(interaction, table, invited)
        if shown and why_not_a_thread is not None:
            await interaction.followup.send(why_not_a_thread, ephemeral=True)

    async def _tell_length(self, interaction: Interaction, table: Table) -> None:
        """Tell the opener of a table that started at once, with no lobby to read it in,
        how long its game is."""
        found = await self.lengths.estimate(table)
        if found is None:
            return
        language = private_language(interaction)
        await interaction.followup.send(
            t(language, "⏱️ This game: {length}.", length=length_line(language, found)),
            ephemeral=True,
        )

    async def _posted_in_thread(self, table: Table, invited: discord.abc.User | None) -> bool:
        """Post the lobby as the first message of the table's own thread (a full table's
        board then replaces it); False if Discord refused."""
        try:
            await self.keeper.draw(table, await self.payload(table, invited))
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not post in its thread (%s); back to the channel",
                table.id,
                failure_text(failure),
            )
            return False
        return True

    async def _back_to_channel(self, interaction: Interaction, table: Table) -> bool:
        """Bring a table whose thread refused its lobby back to the command's channel,
        where its announcement gives way to it; False (the table removed, its opener told)
        if that channel has a game of its own."""
        try:
            await self.store.move_lobby(table, interaction.channel_id or 0)
        except ChannelBusy:
            await self.store.delete_lobby(table.id)
            await refuse_after_thinking(interaction, THREAD_REFUSED_CHANNEL_BUSY)
            return False
        return True

    async def _post(
        self,
        interaction: Interaction,
        table: Table,
        invited: discord.abc.User | None,
    ) -> bool:
        """Show the new lobby as the command's answer, else as a channel message; a lobby
        that cannot be shown at all is removed (False), so it never blocks the channel
        unseen."""
        payload = await self.payload(table, invited)
        try:
            message = await interaction.edit_original_response(**payload.edit())
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not answer with the lobby (%s); posting it instead",
                table.id,
                failure_text(failure),
            )
            try:
                await self.keeper.draw(table, payload)
            except discord.HTTPException as also:
                log.warning(
                    "game %d: could not post the lobby either (%s); removing it",
                    table.id,
                    failure_text(also),
                )
                await self.store.delete_lobby(table.id)
                return False
            return True
        await self.keeper.shown(table, message.id)
        return True

    async def _limit(self, interaction: Interaction) -> str | None:
        """The refusal of a member at the limit before anything is shown publicly; the
        claim in the database (``create_table``) is what holds when commands race."""
        opened = await self.store.open_lobbies_of(interaction.guild_id or 0, interaction.user.id)
        if opened < LOBBY_LIMIT:
            return None
        return limit_sentence(private_language(interaction), opened)

    async def payload(
        self, table: Table, invited: discord.abc.User | None = None
    ) -> MessagePayload:
        return await self.composer.lobby_payload(table, invited)

    async def on_click(
        self,
        interaction: Interaction,
        table: Table,
        target: Target,
        values: list[str],
    ) -> None:
        if table.status != "lobby":
            await tell(interaction, N_("This table has already started or closed."))
            return
        if target.version != table.version and target.verb not in ("join", "leave"):
            await tell(interaction, N_("This lobby message is outdated; use the newest one."))
            return
        if target.verb == "addbot":
            await self._add_computer(interaction, table, level_chosen(values))
            return
        handler = {
            "join": self._join,
            "leave": self._leave,
            "start": self._start_clicked,
            "cancel": self._cancel,
            "hints": self._toggle_hints,
        }[target.verb]
        await handler(interaction, table)

    async def _join(self, interaction: Interaction, table: Table) -> None:
        spec = GAMES[table.kind]
        user = interaction.user
        invited = table.extra.get("invited") or []
        refusal = None
        if table.seat_of(user.id) is not None:
            refusal = N_("You are already seated at this table.")
        elif len(table.seats) >= spec.max_players:
            refusal = N_("This table is full.")
        elif invited and user.id not in invited:
            refusal = N_("This table is reserved for the invited player.")
        if refusal:
            await tell(interaction, refusal)
            return
        table.seats.append(Seat(user.display_name, user.id, language=private_language(interaction)))
        await self._seated(interaction, table)

    async def _leave(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await tell(interaction, N_("You are not seated at this table."))
            return
        if interaction.user.id == table.creator_id:
            await tell(interaction, N_("You opened this table: use **Cancel** to close it."))
            return
        del table.seats[seat]
        if await self._save(interaction, table):
            await self._show(interaction, table)

    async def _add_computer(self, interaction: Interaction, table: Table, level: str) -> None:
        if not may_manage(interaction, table):
            await tell(interaction, N_("Only the table's creator can add computer players."))
            return
        if len(table.seats) >= GAMES[table.kind].max_players:
            await tell(interaction, N_("This table is full."))
            return
        table.seats.append(computer_seat(table.seats, level, table.language))
        table.extra.pop("invited", None)
        await self._seated(interaction, table)

    async def _seated(self, interaction: Interaction, table: Table) -> None:
        """Save a new seat; a full table starts at once."""
        if not await self._save(interaction, table):
            return
        if len(table.seats) == GAMES[table.kind].max_players:
            await self.pipeline.start(interaction, table, fresh_message=False)
            return
        await self._show(interaction, table)

    async def _start_clicked(self, interaction: Interaction, table: Table) -> None:
        if not may_manage(interaction, table):
            await tell(interaction, N_("Only the table's creator can start the game."))
            return
        spec = GAMES[table.kind]
        if len(table.seats) < spec.min_players:
            await tell(
                interaction,
                tn(
                    private_language(interaction),
                    "{game} needs at least {count} player.",
                    "{game} needs at least {count} players.",
                    spec.min_players,
                    game=spec.title,
                ),
            )
            return
        await self.pipeline.start(interaction, table, fresh_message=False)

    async def _toggle_hints(self, interaction: Interaction, table: Table) -> None:
        """The opener turns hints on (the game will not be rated) or off again."""
        if not may_manage(interaction, table):
            await tell(interaction, N_("Only the table's creator can turn hints on or off."))
            return
        table.extra[HINTS] = not table.hints_on
        if await self._save(interaction, table):
            await self._show(interaction, table)

    async def _cancel(self, interaction: Interaction, table: Table) -> None:
        if not may_manage(interaction, table):
            await tell(interaction, N_("Only the table's creator or a moderator can cancel it."))
            return
        table.status = "aborted"
        if not await self._save(interaction, table):
            return
        language = table.language
        embed = discord.Embed(
            title=t(
                language, "{game}: table #{number}", game=GAMES[table.kind].title, number=table.id
            ),
            description=t(language, "Cancelled by {name}.", name=interaction.user.display_name),
        )
        await interaction.edit_original_response(content=None, embed=embed, view=None)
        if interaction.message is not None:
            await self.keeper.shown(table, interaction.message.id)
        self.spectators.table_ended(table)

    async def _show(self, interaction: Interaction, table: Table) -> None:
        await interaction.edit_original_response(**(await self.payload(table)).edit())
        if interaction.message is not None:
            await self.keeper.shown(table, interaction.message.id)

    async def _save(self, interaction: Interaction, table: Table) -> bool:
        """Save a lobby click, acknowledged already (Router.on_component): a write waiting
        on a busy database must not cost the click its answer (Discord gives up after 3 s).
        The lobby message is updated afterwards through the acknowledged response."""
        try:
            await self.store.save(table, expected_version=table.version)
        except StaleVersion:
            await tell(interaction, N_("The table changed at the same moment; try again."))
            return False
        return True
