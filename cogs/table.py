"""Shared table machinery: lobbies, seats, turns, the board message, resign and abandon.

Each game's cog subclasses ``GameCog`` and only adds what is particular to its game
(its picture, its turn controls, its rules text). Everything else, including the
checks that make bad input harmless, lives here once.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.archive import commitment_line, seed_reveal
from cogs.boards import BoardKeeper, channel_gone, failure_text
from cogs.clocks import CLOCK_VERBS, Clocks, played_by_computer, time_loss_headline
from cogs.components import FORGED, UNRECOGNISED, TableButton, Target, valid_values, view_of
from cogs.computers import add_computer_select, computer_seat, level_chosen, seat_line
from cogs.render_pool import RenderJob, RenderPool
from data import ChannelBusy, Seat, StaleVersion, Store, Table
from games import DEFAULT_LEVEL, GAMES, GameSpec, GameState, IllegalAction
from games.proof import computer_seed

log = logging.getLogger("tablebot.table")

LOBBY_VERBS = frozenset({"join", "leave", "addbot", "start", "cancel"})
REQUIRED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
NOT_SEATED = "You are not playing in this game."
OUTDATED = "This board is outdated: the game has moved on. Use the newest board (`/game board`)."
CHANNEL_UNREACHABLE = (
    "I cannot reach this game's channel, so I cannot show a move there. "
    "Ask a moderator to check my access to it."
)
CAUGHT_UP = (
    "The board had fallen behind the game (Discord failed to update it); it now shows "
    "the current position. Please choose again there."
)
LOBBY_LIMIT = 3


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    return [name for name in REQUIRED_PERMISSIONS if not getattr(permissions, name)]


def permission_sentence(missing: list[str]) -> str:
    names = ", ".join(f"**{name.replace('_', ' ').title()}**" for name in missing)
    return f"I need the {names} permission in this channel to host a game here."


@dataclass
class Turn:
    """One click on a game's own control, already checked to come from a seated player."""

    interaction: discord.Interaction[Any]
    table: Table
    state: GameState
    seat: int
    target: Target
    values: list[str] = field(default_factory=list)


class GameCog(commands.Cog):
    """Base class of a game's Discord adapter."""

    spec: GameSpec
    colour = discord.Colour.blurple()

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def tables(self) -> Tables:
        cog = self.bot.get_cog("Tables")
        assert isinstance(cog, Tables)
        return cog

    def render_job(self, table: Table, state: GameState, headline: str | None) -> RenderJob:
        """How to draw the public board: a picklable call that returns PNG bytes."""
        raise NotImplementedError

    def render(self, table: Table, state: GameState, headline: str | None) -> bytes:
        """PNG bytes of the public board, drawn here."""
        return self.render_job(table, state, headline).run()

    def turn_controls(self, table: Table, state: GameState) -> list[discord.ui.Item[Any]]:
        """Components on the board message for the seat to act (a human)."""
        return []

    async def on_turn_component(self, turn: Turn) -> None:
        """A click on one of this game's controls by the seat whose turn it is."""
        await turn.interaction.response.send_message("Unknown control.", ephemeral=True)

    def status_text(self, table: Table, state: GameState) -> str:
        return ""

    def result_text(self, table: Table, state: GameState) -> str:
        return "The game is over."

    def rules_embed(self) -> discord.Embed:
        raise NotImplementedError

    private_label: str | None = None
    """Label of the board button that shows a seat its private view (None: nothing hidden)."""

    def private_payload(self, table: Table, state: GameState, seat: int) -> dict[str, Any]:
        """Message keyword arguments showing ``seat`` what only it may see."""
        raise NotImplementedError

    def private_recipients(
        self, table: Table, before: GameState | None, after: GameState
    ) -> list[int]:
        """Seats that should get their private view by DM after this change."""
        return []

    def narrate(self, table: Table, before: GameState, action: str, after: GameState) -> list[str]:
        """Lines telling the channel what a computer seat's ``action`` did."""
        seat = before.current_player
        name = table.seats[seat].name if seat is not None else "?"
        return [f"{name}: {before.describe(action)}"]

    async def after_play(
        self, turn: Turn, table: Table, after: GameState, done: str | None
    ) -> None:
        """Called once for each play that landed (never for a refused or outdated one),
        after the board is redrawn and before the next player is pinged: the place for a
        game's own summaries and follow-up menus. ``turn.state`` is the state before."""

    def automatic_action(self, state: GameState) -> str | None:
        """A human seat's action that plays itself (e.g. a forced move), or None to wait
        for the player."""
        return None


class Tables(commands.Cog):
    """The one place that runs lobbies and turns for every game."""

    game = app_commands.Group(name="game", description="Manage the game in this channel")

    def __init__(
        self,
        bot: commands.Bot,
        store: Store,
        seed_source: Callable[[], int],
        renderer: RenderPool | None = None,
    ) -> None:
        self.bot = bot
        self.renderer = renderer or RenderPool(processes=0)
        self.store = store
        self.seed_source = seed_source
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.boards = BoardKeeper(self, store)
        self._start_sync: asyncio.Task[None] | None = None
        self.clocks: Clocks | None = None
        """Set by the bot once the clocks exist; every table then runs on a clock."""

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: redraw every board a crash or outage left behind."""
        if self._start_sync is None:
            self._start_sync = asyncio.get_running_loop().create_task(
                self.boards.sync_all(), name="table: board sync at start-up"
            )

    async def cog_unload(self) -> None:
        self.boards.stop()
        self.renderer.close()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock every change to one game takes in this process."""
        return self._locks[game_id]

    def channel_of(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def game_cog(self, kind: str) -> GameCog:
        for cog in self.bot.cogs.values():
            if isinstance(cog, GameCog) and cog.spec.key == kind:
                return cog
        raise LookupError(f"no cog for game {kind!r}")

    # ---- creating a table -------------------------------------------------------------

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        kind: str,
        *,
        options: dict[str, Any],
        invited: discord.abc.User | None = None,
        computers: int = 0,
        level: str = DEFAULT_LEVEL,
        clock: int | None = None,
    ) -> None:
        """Answer a `/<game> new` command with a lobby message (or start at once)."""
        refusal = self._lobby_refusal(interaction, invited) or await self._lobby_limit(interaction)
        if refusal:
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        spec = GAMES[kind]
        seats = [Seat(interaction.user.display_name, interaction.user.id)]
        for _ in range(computers):
            seats.append(computer_seat(seats, level))
        del seats[spec.max_players :]
        # Acknowledge before writing: a write waiting for the database must not cost the
        # interaction its three seconds.
        await interaction.response.defer(thinking=True)
        guild_id = interaction.guild_id or 0
        channel_id = interaction.channel_id or 0
        extra, due_at = {}, None
        if self.clocks is not None:
            extra = await self.clocks.new_table_extra(guild_id, kind, clock)
            due_at = await self.clocks.lobby_due(guild_id)
            channel_id = await self.clocks.table_channel(interaction, spec.title)
        try:
            table = await self.store.create_table(
                kind=kind,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=interaction.user.id,
                seats=seats,
                options=options,
                seed=self.seed_source(),
                # Named in DMs, which the process of shard 0 may send without this server.
                extra={**extra, "server": interaction.guild.name} if interaction.guild else extra,
                due_at=due_at,
            )
        except ChannelBusy as busy:
            await _refuse_after_thinking(interaction, self._busy_sentence(busy.table))
            return
        if self.clocks is not None:
            self.clocks.saved(table)
        if invited is not None:
            table.extra["invited"] = [invited.id]
            await self.store.save(table, expected_version=table.version)
        if len(table.seats) == spec.max_players:
            await self._start(interaction, table, fresh_message=True)
            return
        await self._post_lobby(interaction, table, invited)

    async def _post_lobby(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        invited: discord.abc.User | None,
    ) -> None:
        """Show the new lobby as the command's answer (in its own thread: as the thread's
        first message), else as a channel message; a lobby that cannot be shown at all is
        removed, so it never blocks the channel unseen."""
        payload = self._lobby_payload(table, invited)
        try:
            if table.channel_id != interaction.channel_id:
                await self.boards.draw(table, payload)
                return
            message = await interaction.edit_original_response(**payload)
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not answer with the lobby (%s); posting it instead",
                table.id,
                failure_text(failure),
            )
            try:
                await self.boards.draw(table, payload)
            except discord.HTTPException as also:
                log.warning(
                    "game %d: could not post the lobby either (%s); removing it",
                    table.id,
                    failure_text(also),
                )
                await self.store.delete_lobby(table.id)
            return
        await self.boards.shown(table, message.id)

    async def _lobby_limit(self, interaction: discord.Interaction[Any]) -> str | None:
        opened = await self.store.open_lobbies_of(interaction.guild_id or 0, interaction.user.id)
        if opened < LOBBY_LIMIT:
            return None
        return (
            f"You already have {opened} open tables waiting for players on this server. "
            "Start or cancel one of them first."
        )

    def _lobby_refusal(
        self, interaction: discord.Interaction[Any], invited: discord.abc.User | None
    ) -> str | None:
        if interaction.guild_id is None:
            return "Games are played in server channels, not in direct messages."
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            return permission_sentence(missing)
        if invited is not None and invited.bot:
            return "Bots cannot join a table; use the `computer` option for a computer player."
        if invited is not None and invited.id == interaction.user.id:
            return "You cannot invite yourself: leave `opponent` empty to open the table."
        return None

    @staticmethod
    def _busy_sentence(table: Table) -> str:
        title = GAMES[table.kind].title
        stage = "a lobby" if table.status == "lobby" else "a running game"
        return (
            f"This channel already has {stage} of {title} (game #{table.id}). "
            "Finish it, or ask its creator or a moderator to `/game abandon` it, "
            "or start a thread for a second game."
        )

    def _lobby_payload(
        self, table: Table, invited: discord.abc.User | None = None
    ) -> dict[str, Any]:
        spec = GAMES[table.kind]
        seats = "\n".join(
            f"{index + 1}. {seat_line(seat)}"
            for index, seat in enumerate(table.seats)
        )
        embed = discord.Embed(
            title=f"{spec.title}: table #{table.id}",
            description=f"**Seats ({len(table.seats)}/{spec.max_players})**\n{seats}",
            colour=self.game_cog(table.kind).colour,
        )
        invited_ids = table.extra.get("invited") or []
        if invited_ids:
            embed.add_field(name="Invited", value=" ".join(f"<@{uid}>" for uid in invited_ids))
        needed = spec.min_players - len(table.seats)
        footer = f"Needs {needed} more player(s)." if needed > 0 else "Ready: the creator starts."
        embed.set_footer(text=f"{footer} Join, or the creator adds computer players.")
        target = Target(table.id, table.version, "join")
        full = len(table.seats) >= spec.max_players
        items: list[discord.ui.Item[Any]] = [
            TableButton(target, label="Join", style=discord.ButtonStyle.success, disabled=full),
            TableButton(target.but("leave"), label="Leave"),
            TableButton(
                target.but("start"),
                label="Start",
                style=discord.ButtonStyle.primary,
                disabled=needed > 0,
            ),
            TableButton(target.but("cancel"), label="Cancel", style=discord.ButtonStyle.danger),
        ]
        if not full:
            items.append(add_computer_select(target.but("addbot")))
        mention = discord.AllowedMentions(users=[invited]) if invited else _NO_MENTIONS
        content = f"{invited.mention}, you are invited to play {spec.title}." if invited else None
        return {
            "content": content,
            "embed": embed,
            "view": view_of(items),
            "allowed_mentions": mention,
        }

    # ---- routing clicks ---------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[Any], target: Target, values: list[str]
    ) -> None:
        if target == FORGED or not valid_values(values):
            await _tell(interaction, UNRECOGNISED)
            return
        if target.verb in LOBBY_VERBS:
            # Acknowledged before touching the database: forty clicks queued behind one
            # another's saves (or a busy database) must not outlive Discord's 3 seconds.
            await _acknowledge(interaction)
        table = await self.store.load(target.game_id)
        if table is None:
            await _tell(interaction, "This game no longer exists.")
            return
        if target.verb not in LOBBY_VERBS and table.board_behind and target.version < table.version:
            await self._catch_up(interaction, table)
            return
        if target.verb in LOBBY_VERBS:
            # One lobby click at a time, each on the table as the previous one left it:
            # forty simultaneous joins seat players in click order, none told to retry.
            async with self._locks[table.id]:
                fresh = await self.store.load(table.id)
                if fresh is None:
                    await _tell(interaction, "This game no longer exists.")
                else:
                    await self._on_lobby(interaction, fresh, target, values)
            return
        if target.verb == "resign":
            await self._confirm_resign(interaction, table)
            return
        if target.verb == "resign_yes":
            await self.resign(interaction, table)
            return
        if target.verb == "private":
            await self._show_private(interaction, table)
            return
        if target.verb in CLOCK_VERBS and self.clocks is not None:
            await self.clocks.on_component(interaction, table, target.verb)
            return
        await self._on_game_component(interaction, table, target, values)

    async def _on_game_component(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        target: Target,
        values: list[str],
    ) -> None:
        refusal = await self._turn_refusal(table, target, interaction)
        if refusal:
            await _tell(interaction, refusal)
            return
        cog = self.game_cog(table.kind)
        assert table.state is not None
        state = cog.spec.from_dict(table.state)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        if state.current_player != seat:
            await _tell(interaction, self._not_your_turn(table, state))
            return
        await cog.on_turn_component(Turn(interaction, table, state, seat, target, values))

    async def _catch_up(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click on a board left behind by a fault: redraw it instead of calling it
        outdated, and let the player choose again on the current position."""
        await _acknowledge(interaction)
        if not self.boards.left_behind(table):
            await _tell(interaction, OUTDATED)
            return
        try:
            redrawn = await self.sync_board(table.id)
        except discord.HTTPException as failure:
            self.boards.retry_later(table.id)
            await _tell(interaction, self.stuck_board_sentence(table, failure))
            return
        # Not redrawn: a move landing at the same moment already brought the board up.
        await _tell(interaction, CAUGHT_UP if redrawn else OUTDATED)

    async def _turn_refusal(
        self, table: Table, target: Target, interaction: discord.Interaction[Any]
    ) -> str | None:
        """The one check of every move, whether clicked on the board, in a private menu,
        in a DM or typed: the game runs, the user is seated, the control is current and
        the table's channel lets the bot show the result."""
        if table.status != "active":
            return "This game is over." if table.status != "lobby" else "The game has not started."
        if table.seat_of(interaction.user.id) is None:
            return NOT_SEATED
        if target.version != table.version:
            return OUTDATED
        paused = self.clocks.refusal(table) if self.clocks is not None else None
        if paused:
            return paused
        try:
            permissions = await self._table_channel_permissions(table, interaction)
        except discord.HTTPException as failure:
            log.info("game %d: cannot reach its channel: %s", table.id, failure_text(failure))
            return CHANNEL_UNREACHABLE
        if permissions is not None:
            missing = missing_permissions(permissions)
            if missing:
                return permission_sentence(missing)
        return None

    async def _table_channel_permissions(
        self, table: Table, interaction: discord.Interaction[Any]
    ) -> discord.Permissions | None:
        """The bot's permissions in the table's channel, also for a click in a DM. A
        channel missing from the cache is fetched (Discord's refusal propagates); None
        only when the server itself is not in this process's cache (another shard's), where
        a fetched channel proves the bot still sees it but its roles are unknown."""
        if interaction.channel_id == table.channel_id:
            return interaction.app_permissions
        guild = self.bot.get_guild(table.guild_id)
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        if channel is None:
            fetched = await self.bot.fetch_channel(table.channel_id)
            if not isinstance(fetched, discord.abc.GuildChannel | discord.Thread):
                return None
            channel = fetched
        if guild is None:
            return None
        return channel.permissions_for(guild.me)

    @staticmethod
    def _not_your_turn(table: Table, state: GameState) -> str:
        current = state.current_player
        if current is None:
            return "This game is over."
        return f"It is not your turn: {table.seats[current].name} is to act."

    # ---- lobby ------------------------------------------------------------------------

    async def _on_lobby(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        target: Target,
        values: list[str],
    ) -> None:
        if table.status != "lobby":
            await _tell(interaction, "This table has already started or closed.")
            return
        if target.version != table.version and target.verb not in ("join", "leave"):
            await _tell(interaction, "This lobby message is outdated; use the newest one.")
            return
        if target.verb == "addbot":
            await self._add_computer(interaction, table, level_chosen(values))
            return
        handler = {
            "join": self._join,
            "leave": self._leave,
            "start": self._start_clicked,
            "cancel": self._cancel_lobby,
        }[target.verb]
        await handler(interaction, table)

    async def _join(self, interaction: discord.Interaction[Any], table: Table) -> None:
        spec = GAMES[table.kind]
        user = interaction.user
        invited = table.extra.get("invited") or []
        refusal = None
        if table.seat_of(user.id) is not None:
            refusal = "You are already seated at this table."
        elif len(table.seats) >= spec.max_players:
            refusal = "This table is full."
        elif invited and user.id not in invited:
            refusal = "This table is reserved for the invited player."
        if refusal:
            await _tell(interaction, refusal)
            return
        table.seats.append(Seat(user.display_name, user.id))
        if not await self._save_lobby(interaction, table):
            return
        if len(table.seats) == spec.max_players:
            await self._start(interaction, table, fresh_message=False)
            return
        await self._show_lobby(interaction, table)

    async def _leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await _tell(interaction, "You are not seated at this table.")
            return
        if interaction.user.id == table.creator_id:
            await _tell(interaction, "You opened this table: use **Cancel** to close it.")
            return
        del table.seats[seat]
        if await self._save_lobby(interaction, table):
            await self._show_lobby(interaction, table)

    async def _add_computer(
        self, interaction: discord.Interaction[Any], table: Table, level: str
    ) -> None:
        if not self._may_manage(interaction, table):
            await _tell(interaction, "Only the table's creator can add computer players.")
            return
        if len(table.seats) >= GAMES[table.kind].max_players:
            await _tell(interaction, "This table is full.")
            return
        table.seats.append(computer_seat(table.seats, level))
        table.extra.pop("invited", None)
        if not await self._save_lobby(interaction, table):
            return
        if len(table.seats) == GAMES[table.kind].max_players:
            await self._start(interaction, table, fresh_message=False)
            return
        await self._show_lobby(interaction, table)

    async def _start_clicked(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if not self._may_manage(interaction, table):
            await _tell(interaction, "Only the table's creator can start the game.")
            return
        spec = GAMES[table.kind]
        if len(table.seats) < spec.min_players:
            await _tell(interaction, f"{spec.title} needs at least {spec.min_players} players.")
            return
        await self._start(interaction, table, fresh_message=False)

    async def _cancel_lobby(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if not self._may_manage(interaction, table):
            await _tell(interaction, "Only the table's creator or a moderator can cancel it.")
            return
        table.status = "aborted"
        if not await self._save_lobby(interaction, table):
            return
        embed = discord.Embed(
            title=f"{GAMES[table.kind].title}: table #{table.id}",
            description=f"Cancelled by {interaction.user.display_name}.",
        )
        await interaction.edit_original_response(content=None, embed=embed, view=None)
        if interaction.message is not None:
            await self.boards.shown(table, interaction.message.id)

    async def _show_lobby(self, interaction: discord.Interaction[Any], table: Table) -> None:
        await interaction.edit_original_response(**self._lobby_payload(table))
        if interaction.message is not None:
            await self.boards.shown(table, interaction.message.id)

    async def _save_lobby(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Save a lobby click, acknowledged already (on_component): a write waiting on a
        busy database must not cost the click its answer (Discord gives up after 3 s).
        The lobby message is updated afterwards through the acknowledged response."""
        try:
            await self.store.save(table, expected_version=table.version)
        except StaleVersion:
            await _tell(interaction, "The table changed at the same moment; try again.")
            return False
        return True

    @staticmethod
    def _may_manage(interaction: discord.Interaction[Any], table: Table) -> bool:
        if interaction.user.id == table.creator_id:
            return True
        return interaction.permissions.manage_messages

    async def _start(
        self, interaction: discord.Interaction[Any], table: Table, *, fresh_message: bool
    ) -> None:
        """Deal/set up the game, let computers open if they must, and show the board."""
        spec = GAMES[table.kind]
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=fresh_message)
        state = spec.new_game(players=len(table.seats), seed=table.seed, **table.options)
        state, actions, notes = await self.automatic_turns(table, state)
        table.status = "finished" if state.is_over else "active"
        table.state = state.to_dict()
        table.extra.pop("invited", None)
        if self.clocks is not None:
            self.clocks.stamp(table, state)
        try:
            await self.store.save(table, expected_version=table.version, actions=actions)
        except StaleVersion:
            await interaction.followup.send("The table changed at the same moment.", ephemeral=True)
            return
        if self.clocks is not None:
            self.clocks.saved(table)
        payload = await self._board_payload(table, state, notes=notes)
        if table.channel_id != interaction.channel_id:
            # The table has its own thread: the board is that thread's message.
            await self.refresh_board(table, state, notes=notes)
            await self._after_change(table, state, acting_user=interaction.user.id)
            return
        try:
            message = await interaction.edit_original_response(**payload)
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not answer with the board (%s); posting it instead",
                table.id,
                failure_text(failure),
            )
            await self.refresh_board(table, state, notes=notes)
        else:
            await self.boards.shown(table, message.id)
        await self._after_change(table, state, acting_user=interaction.user.id)

    # ---- playing ----------------------------------------------------------------------

    async def play(self, turn: Turn, actions: Sequence[str], *, done: str | None = None) -> None:
        """Apply the seat's ``actions``, let computers answer, save and redraw.

        All actions are checked before anything is saved, so an illegal one in the
        middle changes nothing. ``done``, when given, replaces the private control
        message the click came from.
        """
        interaction = turn.interaction
        unreadable = next((action for action in actions if len(action) > MAX_ACTION), None)
        if unreadable is not None:
            await _tell(
                interaction,
                f"{quoted(unreadable)} is not a move of {GAMES[turn.table.kind].title}.",
            )
            return
        try:
            state = _apply_all(turn.state, turn.seat, actions)
        except IllegalAction as illegal:
            await _tell(interaction, str(illegal))
            return
        await _acknowledge(interaction)
        async with self._locks[turn.table.id]:
            table = await self.store.load(turn.table.id)
            if table is None or table.version != turn.table.version:
                await interaction.followup.send(OUTDATED, ephemeral=True)
                return
            state, computer_actions, notes = await self.automatic_turns(table, state)
            logged = [(turn.seat, action) for action in actions]
            await self._commit(table, state, [*logged, *computer_actions])
            # Drawn under the lock: a click waiting for it then finds the board current,
            # so a board still behind afterwards can only be a fault. The private answer
            # goes out while the board is drawn, not before it.
            redrawn = self.refresh_board(table, state, notes=notes)
            if done is not None:
                answered = interaction.edit_original_response(
                    content=done, view=None, embed=None, attachments=[]
                )
                failure, _ = await asyncio.gather(answered, redrawn, return_exceptions=True)
                if isinstance(failure, BaseException):
                    raise failure
            else:
                await redrawn
        await self.game_cog(table.kind).after_play(turn, table, state, done)
        await self._after_change(table, state, acting_user=interaction.user.id, before=turn.state)

    async def text_move(
        self, interaction: discord.Interaction[Any], kind: str, actions: Sequence[str]
    ) -> None:
        """A move typed in the game's notation by a seated player whose turn it is."""
        table = await self._channel_table(interaction)
        if table is None:
            return
        title = GAMES[kind].title
        if table.kind != kind:
            await _tell(interaction, f"The game in this channel is not {title}.")
            return
        text = Target(table.id, table.version, "text")
        refusal = await self._turn_refusal(table, text, interaction)
        if refusal:
            await _tell(interaction, refusal)
            return
        assert table.state is not None
        state = GAMES[kind].from_dict(table.state)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        if state.current_player != seat:
            await _tell(interaction, self._not_your_turn(table, state))
            return
        turn = Turn(interaction, table, state, seat, Target(table.id, table.version, "text"))
        await self.play(turn, actions, done=f"You played {' '.join(actions)}.")

    async def _commit(
        self, table: Table, state: GameState, actions: list[tuple[int | None, str]]
    ) -> None:
        table.state = state.to_dict()
        if state.is_over:
            table.status = "finished"
        if self.clocks is not None:
            self.clocks.stamp(table, state)
        await self.store.save(table, expected_version=table.version, actions=actions)
        if self.clocks is not None:
            self.clocks.saved(table)

    async def automatic_turns(
        self,
        table: Table,
        state: GameState,
        stop_when: Callable[[GameState], bool] | None = None,
    ) -> tuple[GameState, list[tuple[int | None, str]], list[str]]:
        """Play every computer seat's decisions (substitutes' included), and every human's
        decision the game's cog plays for him, until a human must choose, the game ends
        or ``stop_when`` says so.

        Returns the new state, the actions played and the lines narrating the
        computers' moves for the board message.
        """
        spec = GAMES[table.kind]
        cog = self.game_cog(table.kind)
        actions: list[tuple[int | None, str]] = []
        notes: list[str] = []
        while not state.is_over and not (stop_when is not None and stop_when(state)):
            seat = state.current_player
            if seat is None:
                break
            by_computer = played_by_computer(table, seat)
            if by_computer:
                seed = computer_seed(table.seed, table.version + len(actions))
                level = table.seats[seat].level or DEFAULT_LEVEL
                action = await asyncio.to_thread(spec.bot_action, state, seed=seed, level=level)
                log.info("game %d: computer seat %d plays %s", table.id, seat, action)
            else:
                automatic = cog.automatic_action(state)
                if automatic is None:
                    break
                action = automatic
                log.info("game %d: seat %d's only choice %s plays itself", table.id, seat, action)
            after = state.apply(action)
            if by_computer:
                notes += cog.narrate(table, state, action, after)
            state = after
            actions.append((seat, action))
        return state, actions, notes

    # ---- the board message ------------------------------------------------------------

    async def _board_payload(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
    ) -> dict[str, Any]:
        """The board message: picture, status embed, controls, and above them what the
        computers just did (the next redraw clears it)."""
        cog = self.game_cog(table.kind)
        png = await self.renderer.render(cog.render_job(table, state, headline))
        filename = f"{table.kind}-{table.id}-{table.version}.png"
        description = self._board_text(table, state, cog, headline)
        if self.clocks is not None:
            description = "\n".join([description, *self.clocks.board_lines(table)]).strip()
        embed = discord.Embed(
            title=f"{cog.spec.title}: game #{table.id}",
            description=description,
            colour=cog.colour,
        )
        embed.set_image(url=f"attachment://{filename}")
        embed.set_footer(text=commitment_line(table))
        controls = self._controls(table, state, cog)
        return {
            "content": _computer_log(notes),
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(png), filename=filename)],
            "view": view_of(controls),
            "allowed_mentions": _NO_MENTIONS,
        }

    def _board_text(
        self, table: Table, state: GameState, cog: GameCog, headline: str | None
    ) -> str:
        if headline:
            return headline
        if table.status in ("finished", "aborted") or state.is_over:
            return cog.result_text(table, state)
        return cog.status_text(table, state)

    def _controls(self, table: Table, state: GameState, cog: GameCog) -> list[discord.ui.Item[Any]]:
        if table.status != "active" or state.is_over:
            return []
        controls = cog.turn_controls(table, state)
        if cog.private_label:
            controls.append(
                TableButton(
                    Target(table.id, table.version, "private"),
                    label=cog.private_label,
                    emoji="🂠",
                )
            )
        if self.clocks is not None:
            controls += self.clocks.board_controls(table)
        return controls

    async def refresh_board(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
    ) -> bool:
        """Redraw the board message in place (post a new one if it is gone). If Discord
        fails, a background retry takes over; True if the board shows the table now."""
        return await self.boards.draw_or_retry(
            table, lambda: self._board_payload(table, state, headline, notes)
        )

    async def sync_board(self, game_id: int) -> bool:
        """Bring the table's message to its committed version and ping the seat to act;
        False if it was up to date already.

        Discord's errors propagate, except that a lobby whose channel is gone is removed.
        """
        async with self._locks[game_id]:
            table = await self.store.load(game_id)
            if table is None or not table.board_behind:
                return False
            try:
                await self.boards.draw(table, await self.current_payload(table))
            except discord.HTTPException as failure:
                if table.status == "lobby" and channel_gone(failure):
                    log.warning("game %d: lobby's channel is gone; removing it", game_id)
                    await self.store.delete_lobby(game_id)
                    return False
                raise
        log.info("game %d: board brought up to version %d", game_id, table.version)
        if table.status == "active" and table.state is not None:
            state = GAMES[table.kind].from_dict(table.state)
            await self._ping_next(table, state, acting_user=None)
        return True

    async def current_payload(self, table: Table) -> dict[str, Any]:
        """The message a table shows as it is stored: its lobby, or its board."""
        if table.status == "lobby" or table.state is None:
            if table.status == "aborted":
                return {
                    "content": f"{GAMES[table.kind].title} table #{table.id} was closed.",
                    "embed": None,
                    "view": None,
                }
            return self._lobby_payload(table)
        state = GAMES[table.kind].from_dict(table.state)
        return await self._board_payload(table, state, self._stored_headline(table))

    def _stored_headline(self, table: Table) -> str | None:
        if table.status == "aborted":
            ended = table.extra.get("ended")
            if isinstance(ended, str):
                return f"{ended[0].upper()}{ended[1:]}: abandoned; the game is not rated."
            return "Abandoned; the game is not rated."
        resigned = table.extra.get("resigned")
        if table.status == "finished" and isinstance(resigned, int):
            return self.resign_headline(table, resigned)
        timed_out = table.extra.get("timed_out")
        if table.status == "finished" and isinstance(timed_out, int):
            return time_loss_headline(table, timed_out)
        return None

    def stuck_board_sentence(self, table: Table, failure: discord.HTTPException) -> str:
        title = GAMES[table.kind].title
        reason = "Discord did not accept the change"
        if isinstance(failure, discord.Forbidden):
            reason = "I lack a permission in this channel"
        return (
            f"⚠️ I could not update the board of {title} game #{table.id} ({reason}). "
            "The game is saved; `/game board` shows it again once I can."
        )

    async def _after_change(
        self,
        table: Table,
        state: GameState,
        *,
        acting_user: int | None,
        before: GameState | None = None,
    ) -> None:
        """Send private views that changed, then ping the next human once or announce
        the result."""
        cog = self.game_cog(table.kind)
        if cog.private_label and table.status == "active":
            await self._deliver_private(table, state, cog.private_recipients(table, before, state))
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        old_ping = await self.store.swap_ping(table.id, None)
        if old_ping is not None:
            await _delete_quietly(channel.get_partial_message(old_ping))
        if table.status != "active" or state.is_over:
            await self._announce_result(table, state, channel)
            self._forget(table.id)
            return
        await self._ping_next(table, state, acting_user)

    async def _ping_next(self, table: Table, state: GameState, acting_user: int | None) -> None:
        """Ping the human whose turn it is (not the one who just acted), once."""
        seat = state.current_player
        if seat is None:
            return
        user_id = table.seats[seat].user_id
        if user_id is None or user_id == acting_user:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        old_ping = await self.store.swap_ping(table.id, None)
        if old_ping is not None:
            await _delete_quietly(channel.get_partial_message(old_ping))
        try:
            ping = await channel.send(
                f"<@{user_id}>, it is your turn in {GAMES[table.kind].title} (game #{table.id}).",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not ping the next player: %s", table.id, failure_text(failure)
            )
            return
        await self.store.swap_ping(table.id, ping.id)

    async def after_clock_change(self, table: Table, state: GameState, before: GameState) -> None:
        """Private views and the next ping after the clock changed the game."""
        await self._after_change(table, state, acting_user=None, before=before)

    async def announce_ending(
        self, table: Table, state: GameState, headline: str, *, emoji: str
    ) -> None:
        """Tell the channel how a game the clock ended came out (a loss on time goes to
        the league like any finished game)."""
        channel = self.channel_of(table)
        old_ping = await self.store.swap_ping(table.id, None)
        if old_ping is not None:
            await _delete_quietly(channel.get_partial_message(old_ping))
        if table.status == "finished":
            await self._announce_result(table, state, channel, headline, emoji=emoji)
        else:
            title = GAMES[table.kind].title
            await channel.send(
                f"{emoji} {title} game #{table.id}: {headline}\n{seed_reveal(table)}"
            )
        self._forget(table.id)

    def _forget(self, game_id: int) -> None:
        """Drop what this process kept about a game that has ended.

        A click that still waits for the lock finds the game finished (a new version)
        and is refused as outdated, so dropping the lock is safe.
        """
        self._locks.pop(game_id, None)

    async def _show_private(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await _tell(interaction, NOT_SEATED)
            return
        if table.status != "active" or table.state is None:
            await _tell(interaction, "This game is not running.")
            return
        cog = self.game_cog(table.kind)
        state = cog.spec.from_dict(table.state)
        payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
        await interaction.response.send_message(ephemeral=True, **payload)

    async def _deliver_private(self, table: Table, state: GameState, seats: list[int]) -> None:
        """DM each seat its private view; a closed DM gets one note in the channel."""
        cog = self.game_cog(table.kind)
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
            payload["content"] = f"{self._where(table)}\n{payload.get('content') or ''}".strip()
            try:
                dm = await self.bot.create_dm(discord.Object(user_id))
                await dm.send(**payload)
            except discord.Forbidden as refused:
                if refused.code != 50007:
                    raise
                await self._note_closed_dms(table, user_id)

    def _where(self, table: Table) -> str:
        guild = self.bot.get_guild(table.guild_id)
        server = guild.name if guild else table.extra.get("server", "your server")
        return (
            f"**{GAMES[table.kind].title}** game #{table.id} in **{server}**, <#{table.channel_id}>"
        )

    async def _note_closed_dms(self, table: Table, user_id: int) -> None:
        if not await self.store.claim_once(f"closed-dms:{table.id}:{user_id}"):
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        label = self.game_cog(table.kind).private_label
        await channel.send(
            f"<@{user_id}>, I cannot send you direct messages: use the **{label}** button "
            "on the board to see your private view.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )

    async def _announce_result(
        self,
        table: Table,
        state: GameState,
        channel: discord.PartialMessageable,
        resigned_headline: str | None = None,
        *,
        emoji: str = "🏳️",
    ) -> None:
        if table.status != "finished":
            return
        title = GAMES[table.kind].title
        if resigned_headline is not None:
            text = f"{emoji} {title} game #{table.id}: {resigned_headline}"
        else:
            result = self.game_cog(table.kind).result_text(table, state)
            text = f"🏁 {title} game #{table.id}: {result}"
        # The league records each finished game once; a repeated finish gets None back.
        record = getattr(self.bot.get_cog("League"), "record_result", None)
        ratings = await record(table, state) if record is not None else None
        text = text if ratings is None else f"{text}\n{ratings}"
        await channel.send(f"{text}\n{seed_reveal(table)}")

    # ---- resign, abandon, board -------------------------------------------------------

    async def _confirm_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if table.status != "active":
            await _tell(interaction, "This game is not running.")
            return
        if table.seat_of(interaction.user.id) is None:
            await _tell(interaction, NOT_SEATED)
            return
        confirm = TableButton(
            Target(table.id, table.version, "resign_yes"),
            label="Yes, resign",
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            "Do you really want to resign? The game counts as a loss.",
            view=view_of([confirm]),
            ephemeral=True,
        )

    async def resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await _tell(interaction, "You are not playing a running game here.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._locks[table.id]:
            fresh = await self.store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active":
                await interaction.followup.send("This game is already over.", ephemeral=True)
                return
            fresh.status = "finished"
            fresh.extra["resigned"] = seat
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(seat, "!resign")]
            )
        state = GAMES[fresh.kind].from_dict(fresh.state)
        headline = self.resign_headline(fresh, seat)
        await interaction.followup.send("You resigned.", ephemeral=True)
        await self.refresh_board(fresh, state, headline)
        channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
        await self._announce_result(fresh, state, channel, resigned_headline=headline)
        self._forget(fresh.id)

    @staticmethod
    def resign_headline(table: Table, seat: int) -> str:
        others = [s.name for index, s in enumerate(table.seats) if index != seat]
        winners = " and ".join(others)
        verb = "wins" if len(others) == 1 else "win"
        return f"{table.seats[seat].name} resigned: {winners} {verb}."

    async def _channel_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        table = await self.store.open_table_in(interaction.channel_id or 0)
        if table is None:
            starts = ", ".join(f"`/{key} new`" for key in GAMES)
            await _tell(interaction, f"There is no game in this channel. Start one with {starts}.")
        return table

    @game.command(name="board", description="Post the current board of this channel's game again")
    async def board_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        await interaction.response.defer(thinking=True)
        async with self._locks[table.id]:
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.edit_original_response(content="That game has just ended.")
                return
            # A new version outdates every control on older copies of the board.
            await self.store.save(fresh, expected_version=fresh.version)
            old_board = fresh.board_message_id
            message = await interaction.edit_original_response(**await self.current_payload(fresh))
            await self.boards.shown(fresh, message.id)
        if old_board is not None:
            channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
            await _strip_components(channel.get_partial_message(old_board))

    async def _clock_command(self, interaction: discord.Interaction[Any], verb: str) -> None:
        table = await self._channel_table(interaction)
        if table is not None and self.clocks is not None:
            await self.clocks.on_component(interaction, table, verb)

    @game.command(name="rejoin", description="Take your seat back from the computer playing it")
    async def rejoin_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "rejoin")

    @game.command(name="pause", description="Propose (or accept) a pause; the clock stops")
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "pause")

    @game.command(name="resume", description="Resume a paused game; the clock runs again")
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "resume")

    @game.command(name="resign", description="Resign the game you are playing in this channel")
    async def resign_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is not None:
            await self._confirm_resign(interaction, table)

    @game.command(name="abandon", description="End this channel's game without a result")
    async def abandon_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self._channel_table(interaction)
        if table is None:
            return
        if not self._may_manage(interaction, table):
            await _tell(
                interaction,
                "Only the game's creator or someone with **Manage Messages** can abandon it.",
            )
            return
        await interaction.response.defer(thinking=True)
        async with self._locks[table.id]:
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.followup.send("That game has just ended.")
                return
            fresh.status = "aborted"
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(None, "!abandon")]
            )
        headline = f"Abandoned by {interaction.user.display_name}; the game is not rated."
        if fresh.state is not None:
            await self.refresh_board(fresh, GAMES[fresh.kind].from_dict(fresh.state), headline)
        elif fresh.board_message_id is not None:
            await self.boards.draw_or_retry(fresh, lambda: self.current_payload(fresh))
        await interaction.followup.send(
            f"{GAMES[fresh.kind].title} game #{fresh.id}: {headline}\n{seed_reveal(fresh)}"
        )
        self._forget(fresh.id)


COMPUTER_LOG_LINES = 15
MAX_ACTION = 40
"""Every game's actions are this short; longer text is refused before the rules see it."""
QUOTE_LIMIT = 40


def quoted(text: str) -> str:
    """``text`` in backticks for a refusal, cut to a few words so a reply stays short."""
    clean = text.replace("`", "'")
    return f"`{clean[:QUOTE_LIMIT]}…`" if len(clean) > QUOTE_LIMIT else f"`{clean}`"


CONTENT_LIMIT = 2000


def _computer_log(notes: Sequence[str]) -> str | None:
    """The newest narration lines that fit in one message, oldest first."""
    lines: list[str] = []
    length = 0
    for note in reversed(notes[-COMPUTER_LOG_LINES:]):
        line = "🤖 " + (note if len(note) <= 150 else note[:149] + "…")
        length += len(line) + 1
        if length > CONTENT_LIMIT:
            break
        lines.insert(0, line)
    return "\n".join(lines) or None


def _apply_all(state: GameState, seat: int, actions: Sequence[str]) -> GameState:
    if not actions:
        raise IllegalAction("No move given.")
    for action in actions:
        if state.current_player != seat:
            raise IllegalAction(f"'{action}' comes after your turn has ended.")
        state = state.apply(action)
    return state


async def _acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now: a click updates its own message later, a command answers privately."""
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


_NO_MENTIONS = discord.AllowedMentions.none()


async def _refuse_after_thinking(interaction: discord.Interaction[Any], text: str) -> None:
    """Refuse privately after a public "thinking…" acknowledgement: remove that, then tell."""
    await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=True)


async def _tell(interaction: discord.Interaction[Any], text: str) -> None:
    """A short private answer, whether or not the interaction was acknowledged yet."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def _delete_quietly(message: discord.PartialMessage) -> None:
    try:
        await message.delete()
    except discord.HTTPException:
        log.info("could not delete ping message %d", message.id)


async def _strip_components(message: discord.PartialMessage) -> None:
    try:
        await message.edit(view=None)
    except discord.HTTPException:
        log.info("could not strip controls from message %d", message.id)
