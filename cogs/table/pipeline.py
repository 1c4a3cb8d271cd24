"""The play pipeline: check a seat's actions, let computers answer, save, redraw, tell."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import InteractionType

from cogs.host import Interaction
from cogs.language import private_language
from cogs.replies import MENU_OUTDATED, OUTDATED, acknowledge, failure_text, log, quoted, tell
from cogs.table.board import BoardComposer
from cogs.table.components import RACED
from cogs.table.deadlines import Deadlines
from cogs.table.delivery import Delivery
from cogs.table.game_cog import GameCogs, Step, Turn
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.private import is_private
from cogs.table.results import Results
from cogs.table.seats import played_by_computer
from cogs.table.turn_lines import told
from data import StaleVersion, Store, Table
from games import DEFAULT_LEVEL, GAMES, GameState, IllegalAction
from games.proof import computer_seed
from texts.i18n import N_, t

MAX_ACTION = 40
"""Every game's actions are this short; longer text is refused before the rules see it."""
MOVES_IN_PROGRESS = 64
"""Acknowledged moves saved, drawn and announced at once; more wait their turn.

A move spends most of its time waiting (database, render worker, Discord), so the bound
must cover the moves waiting at full load, or it sets the pace instead of the CPU: at 24
a two-core machine stopped at 146-158 moves/s with a core's tenth idle; at 64 it makes
160-165 with acknowledgements no slower (bench/bench_load.py, alternated runs)."""

Logged = list[tuple[int | None, str]]


NOT_PLAYED = N_("↩️ This click played nothing: {reason}")


async def not_played(
    interaction: Interaction, sentence: str, answered_early: bool
) -> None:
    """Tell the player privately why his move was not played. A private menu answered
    early already says what was played (perhaps truly, by a double click's first half),
    so the reply says plainly that this move was not."""
    language = private_language(interaction)
    text = t(language, sentence)
    if answered_early:
        text = t(language, NOT_PLAYED, reason=text)
    await interaction.followup.send(text, ephemeral=True)


def played_steps(state: GameState, seat: int, actions: Sequence[str]) -> list[Step[Any]]:
    """The seat's ``actions`` applied in order (IllegalAction if any is refused)."""
    if not actions:
        raise IllegalAction(N_("No move given."))
    steps: list[Step[Any]] = []
    for action in actions:
        if state.current_player != seat:
            raise IllegalAction(N_("'{action}' comes after your turn has ended."), action=action)
        after = state.apply(action)
        steps.append(Step(seat, state, action, after))
        state = after
    return steps


class Pipeline:
    """Every change of a running game goes through here, under the table's lock."""

    def __init__(
        self,
        store: Store,
        memory: GameMemory,
        cogs: GameCogs,
        composer: BoardComposer,
        keeper: BoardKeeper,
        delivery: Delivery,
        results: Results,
        deadlines: Deadlines,
    ) -> None:
        self.store = store
        self.memory = memory
        self.cogs = cogs
        self.composer = composer
        self.keeper = keeper
        self.delivery = delivery
        self.results = results
        self.deadlines = deadlines
        # Acknowledging a click is a request or two; saving, drawing and pinging after
        # it are many steps, each queued behind every other runnable step. Under a flood
        # of moves, bounding the moves in progress keeps that queue short, so a new
        # click's acknowledgement does not wait behind hundreds of moves' work.
        self.move_slots = asyncio.Semaphore(MOVES_IN_PROGRESS)

    async def start(
        self, interaction: Interaction, table: Table, *, fresh_message: bool
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
        self.deadlines.stamp(table, state)
        try:
            await self.store.save(table, expected_version=table.version, actions=actions)
        except StaleVersion:
            await interaction.followup.send(
                t(private_language(interaction), "The table changed at the same moment."),
                ephemeral=True,
            )
            return
        self.deadlines.saved(table)
        if table.channel_id != interaction.channel_id:
            # The table has its own thread: the board is that thread's message.
            await self.keeper.refresh(table, state, notes=notes)
            await self.after_change(table, state, acting_user=interaction.user.id)
            return
        payload = await self.composer.payload(table, state, notes=notes)
        try:
            message = await interaction.edit_original_response(**payload.edit())
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not answer with the board (%s); posting it instead",
                table.id,
                failure_text(failure),
            )
            await self.keeper.refresh(table, state, notes=notes)
        else:
            await self.keeper.shown(table, message.id)
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
                N_("{move} is not a move of {game}."),
                move=quoted(unreadable),
                game=GAMES[turn.table.kind].title,
            )
            return
        try:
            steps = played_steps(turn.state, turn.seat, actions)
        except IllegalAction as illegal:
            await tell(interaction, illegal.message, **illegal.params)
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
            going_on = await self._save_and_show(turn, steps, actions, done, answered_early)
        if answered_early:
            # Tidying the previous confirmation away is no reason to keep the board waiting;
            # a game that ended meanwhile was forgotten, so its last one is not kept.
            await self.memory.private.confirmed(turn.table.id, interaction, keep=going_on)

    async def _save_and_show(
        self,
        turn: Turn[Any],
        steps: list[Step[Any]],
        actions: Sequence[str],
        done: str | None,
        answered_early: bool,
    ) -> bool:
        """Save an acknowledged move (unless the table moved on), redraw and ping; whether
        the game is still going on afterwards, as far as this move knows."""
        interaction = turn.interaction
        async with self.memory.lock(turn.table.id):
            table = await self.store.load(turn.table.id)
            if table is None or table.version != turn.table.version:
                outdated = MENU_OUTDATED if is_private(interaction) else OUTDATED
                await not_played(interaction, outdated, answered_early)
                return table is not None and table.status == "active"
            state, computer_actions, notes = await self.automatic_turns(
                table, steps[-1].after, played=steps
            )
            logged = [(turn.seat, action) for action in actions]
            try:
                await self._commit(table, state, [*logged, *computer_actions])
            except StaleVersion:
                if not answered_early:
                    raise
                await not_played(interaction, RACED, answered_early)
                return False
            # Drawn under the lock: a click waiting for it then finds the board current,
            # so a board still behind afterwards can only be a fault. A typed move's private
            # answer goes out while the board is drawn, not before it.
            redrawn = self.keeper.refresh(table, state, notes=notes)
            if done is not None and not answered_early:
                answered = interaction.edit_original_response(
                    content=done, view=None, embed=None, attachments=[]
                )
                failure, _ = await asyncio.gather(answered, redrawn, return_exceptions=True)
                if isinstance(failure, BaseException):
                    raise failure
                await self.memory.private.confirmed(table.id, interaction)
            else:
                await redrawn
        await self.cogs[table.kind].after_play(turn, table, state, done)
        await self.after_change(table, state, acting_user=interaction.user.id, before=turn.state)
        return table.status == "active" and not state.is_over

    async def _commit(self, table: Table, state: GameState, actions: Logged) -> None:
        table.state = state.to_dict()
        if state.is_over:
            table.finish(state.returns())
        self.deadlines.stamp(table, state)
        await self.store.save(table, expected_version=table.version, actions=actions)
        self.deadlines.saved(table)

    async def automatic_turns(
        self,
        table: Table,
        state: GameState,
        stop_when: Callable[[GameState], bool] | None = None,
        played: Sequence[Step[Any]] = (),
    ) -> tuple[GameState, Logged, list[str]]:
        """Play every computer seat's decisions (substitutes' included), and every human's
        decision the game's cog plays for him, until a human must choose, the game ends
        or ``stop_when`` says so.

        Returns the new state, the actions played and the board's lines telling each
        turn, those of the steps a person just ``played`` first.
        """
        spec = GAMES[table.kind]
        cog = self.cogs[table.kind]
        actions: Logged = []
        steps: list[Step[Any]] = list(played)
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
            steps.append(Step(seat, state, action, after))
            state = after
            actions.append((seat, action))
        return state, actions, told(table, cog.turn_lines(table, steps))

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
        cog = self.cogs[table.kind]
        delivery = self.delivery
        if cog.spec.hidden_information and table.status == "active":
            await delivery.send_private(table, state, cog.private_recipients(table, before, state))
        if table.status != "active" or state.is_over:
            await delivery.drop_ping(table)
            await self.results.announce(table, state)
            self.memory.forget(table.id)
            return
        await delivery.ping_next(table, state, acting_user)
