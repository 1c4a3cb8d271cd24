"""The play pipeline: check a seat's actions, let computers answer, save, redraw, tell."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import InteractionType

from cogs.clock_seats import played_by_computer
from cogs.table.components import Target
from cogs.table.hooks import Turn
from cogs.table.keeper import failure_text
from cogs.table.replies import OUTDATED, acknowledge, log, quoted, tell
from data import StaleVersion, Table
from games import DEFAULT_LEVEL, GAMES, GameState, IllegalAction
from games.proof import computer_seed

if TYPE_CHECKING:
    from cogs.table.commands import Tables

COMPUTER_LOG_LINES = 15
MAX_ACTION = 40
"""Every game's actions are this short; longer text is refused before the rules see it."""
CONTENT_LIMIT = 2000
MOVES_IN_PROGRESS = 24
"""Acknowledged moves saved, drawn and announced at once; more wait their turn."""

Logged = list[tuple[int | None, str]]


def computer_log(notes: Sequence[str]) -> str | None:
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


def apply_all(state: GameState, seat: int, actions: Sequence[str]) -> GameState:
    if not actions:
        raise IllegalAction("No move given.")
    for action in actions:
        if state.current_player != seat:
            raise IllegalAction(f"'{action}' comes after your turn has ended.")
        state = state.apply(action)
    return state


class Pipeline:
    """Every change of a running game goes through here, under the table's lock."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store
        # Acknowledging a click is a request or two; saving, drawing and pinging after
        # it are many steps, each queued behind every other runnable step. Under a flood
        # of moves, bounding the moves in progress keeps that queue short, so a new
        # click's acknowledgement does not wait behind hundreds of moves' work.
        self.move_slots = asyncio.Semaphore(MOVES_IN_PROGRESS)

    async def start(
        self, interaction: discord.Interaction[Any], table: Table, *, fresh_message: bool
    ) -> None:
        """Deal/set up the game, let computers open if they must, and show the board."""
        spec = GAMES[table.kind]
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=fresh_message)
        state = spec.new_game(players=len(table.seats), seed=table.seed, **table.options)
        state, actions, notes = await self.automatic_turns(table, state)
        table.status = "active"
        if state.is_over:
            table.finish(state.returns())
        table.state = state.to_dict()
        table.extra.pop("invited", None)
        clocks = self.tables.bot.clocks
        clocks.stamp(table, state)
        try:
            await self.store.save(table, expected_version=table.version, actions=actions)
        except StaleVersion:
            await interaction.followup.send("The table changed at the same moment.", ephemeral=True)
            return
        clocks.saved(table)
        board = self.tables.board
        if table.channel_id != interaction.channel_id:
            # The table has its own thread: the board is that thread's message.
            await board.refresh(table, state, notes=notes)
            await self.after_change(table, state, acting_user=interaction.user.id)
            return
        payload = await board.payload(table, state, notes=notes)
        try:
            message = await interaction.edit_original_response(**payload)
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not answer with the board (%s); posting it instead",
                table.id,
                failure_text(failure),
            )
            await board.refresh(table, state, notes=notes)
        else:
            await self.tables.boards.shown(table, message.id)
        await self.after_change(table, state, acting_user=interaction.user.id)

    async def play(
        self, turn: Turn[Any], actions: Sequence[str], *, done: str | None = None
    ) -> None:
        """Apply the seat's ``actions``, let computers answer, save and redraw.

        All actions are checked before anything is saved, so an illegal one in the
        middle changes nothing. ``done``, when given, replaces the private control
        message the click came from.
        """
        interaction = turn.interaction
        unreadable = next((action for action in actions if len(action) > MAX_ACTION), None)
        if unreadable is not None:
            await tell(
                interaction,
                f"{quoted(unreadable)} is not a move of {GAMES[turn.table.kind].title}.",
            )
            return
        try:
            state = apply_all(turn.state, turn.seat, actions)
        except IllegalAction as illegal:
            await tell(interaction, str(illegal))
            return
        # A private control is answered with what was played in the acknowledgement
        # itself: one request where a defer and a later edit were two (under load, REST
        # calls are most of the bot's work per move). Should the table have moved on
        # meanwhile (a double click, say), a private reply below says so.
        answered_early = done is not None and interaction.type is InteractionType.component
        if answered_early:
            await interaction.response.edit_message(
                content=done, view=None, embed=None, attachments=[]
            )
        else:
            await acknowledge(interaction)
        async with self.move_slots:
            await self._save_and_show(turn, state, actions, done, answered_early)

    async def _save_and_show(
        self,
        turn: Turn[Any],
        state: GameState,
        actions: Sequence[str],
        done: str | None,
        answered_early: bool,
    ) -> None:
        """Save an acknowledged move (unless the table moved on), redraw and ping."""
        interaction = turn.interaction
        async with self.tables.locks[turn.table.id]:
            table = await self.store.load(turn.table.id)
            if table is None or table.version != turn.table.version:
                await interaction.followup.send(OUTDATED, ephemeral=True)
                return
            state, computer_actions, notes = await self.automatic_turns(table, state)
            logged = [(turn.seat, action) for action in actions]
            await self._commit(table, state, [*logged, *computer_actions])
            # Drawn under the lock: a click waiting for it then finds the board current,
            # so a board still behind afterwards can only be a fault. A typed move's private
            # answer goes out while the board is drawn, not before it.
            redrawn = self.tables.board.refresh(table, state, notes=notes)
            if done is not None and not answered_early:
                answered = interaction.edit_original_response(
                    content=done, view=None, embed=None, attachments=[]
                )
                failure, _ = await asyncio.gather(answered, redrawn, return_exceptions=True)
                if isinstance(failure, BaseException):
                    raise failure
            else:
                await redrawn
        await self.tables.game_cog(table.kind).after_play(turn, table, state, done)
        await self.after_change(table, state, acting_user=interaction.user.id, before=turn.state)

    async def text_move(
        self, interaction: discord.Interaction[Any], kind: str, notation: str
    ) -> None:
        """A move typed in the game's notation by a seated player whose turn it is."""
        table = await self.tables.channel_table(interaction)
        if table is None:
            return
        if table.kind != kind:
            await tell(interaction, f"The game in this channel is not {GAMES[kind].title}.")
            return
        target = Target(table.id, table.version, "text")
        turn = await self.tables.router.turn_of(interaction, table, target, [])
        if turn is None:
            return
        try:
            actions = self.tables.game_cog(kind).notation_actions(turn.state, notation)
        except IllegalAction as illegal:
            await tell(interaction, str(illegal))
            return
        await self.play(turn, actions, done=f"You played {' '.join(actions)}.")

    async def _commit(self, table: Table, state: GameState, actions: Logged) -> None:
        table.state = state.to_dict()
        if state.is_over:
            table.finish(state.returns())
        self.tables.bot.clocks.stamp(table, state)
        await self.store.save(table, expected_version=table.version, actions=actions)
        self.tables.bot.clocks.saved(table)

    async def automatic_turns(
        self,
        table: Table,
        state: GameState,
        stop_when: Callable[[GameState], bool] | None = None,
    ) -> tuple[GameState, Logged, list[str]]:
        """Play every computer seat's decisions (substitutes' included), and every human's
        decision the game's cog plays for him, until a human must choose, the game ends
        or ``stop_when`` says so.

        Returns the new state, the actions played and the lines narrating the
        computers' moves for the board message.
        """
        spec = GAMES[table.kind]
        cog = self.tables.game_cog(table.kind)
        actions: Logged = []
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

    async def after_change(
        self,
        table: Table,
        state: GameState,
        *,
        acting_user: int | None,
        before: GameState | None = None,
    ) -> None:
        """Send private views that changed, then ping the next human once or announce
        the result."""
        cog = self.tables.game_cog(table.kind)
        delivery = self.tables.delivery
        if cog.private_label and table.status == "active":
            await delivery.send_private(table, state, cog.private_recipients(table, before, state))
        if table.status != "active" or state.is_over:
            await delivery.drop_ping(table)
            await self.tables.results.announce(table, state)
            self.tables.forget(table.id)
            return
        await delivery.ping_next(table, state, acting_user)
