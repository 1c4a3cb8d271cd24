"""The play pipeline: check a seat's actions, let computers answer, save, redraw, tell."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import InteractionType

from cogs.host import Interaction
from cogs.language import private_language
from cogs.replies import MENU_OUTDATED, OUTDATED, acknowledge, failure_text, log, quoted, tell
from cogs.table.board import BoardComposer
from cogs.table.components import DATABASE_LOST
from cogs.table.deadlines import Deadlines
from cogs.table.delivery import Delivery
from cogs.table.game_cog import GameCogs, Step, Turn
from cogs.table.hints import Hints
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.menu_answer import PATIENCE, MenuAnswer
from cogs.table.private import is_private
from cogs.table.results import Results
from cogs.table.seats import played_by_computer
from cogs.table.turn_lines import told
from data import ConnectionLost, StaleVersion, Store, Table
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


NOT_SAVED = N_(
    "❌ Your move was not saved: I lost my connection to the database. Please make it again."
)


NOTHING_PLAYED = N_("Nothing was played: {action} is not allowed after {played}. {reason}")
"""The refusal of a move typed in several steps whose later step is illegal: the reason
the rules give speaks of the position after the earlier steps, which were not played."""


class RefusedStep(IllegalAction):
    """A step the rules refuse, after ``accepted`` earlier steps of the same move that
    they would allow (and that are not played either)."""

    def __init__(self, refused: IllegalAction, action: str, accepted: Sequence[str]) -> None:
        super().__init__(refused.message, **refused.params)
        self.action = action
        self.accepted = list(accepted)

    def sentence(self, language: str) -> str:
        """The refusal in ``language``, saying that nothing was played when the move
        broke off after legal steps."""
        reason = t(language, self.message, **self.params)
        if not self.accepted:
            return reason
        played = " ".join(self.accepted)
        return t(language, NOTHING_PLAYED, action=self.action, played=played, reason=reason)


def played_steps(state: GameState, seat: int, actions: Sequence[str]) -> list[Step[Any]]:
    """The seat's ``actions`` applied in order (RefusedStep if any is refused)."""
    if not actions:
        raise IllegalAction(N_("No move given."))
    steps: list[Step[Any]] = []
    for action in actions:
        try:
            if state.current_player != seat:
                raise IllegalAction(
                    N_("'{action}' comes after your turn has ended."), action=action
                )
            after = state.apply(action)
        except IllegalAction as refused:
            raise RefusedStep(refused, action, [step.action for step in steps]) from None
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
        hints: Hints,
    ) -> None:
        self.store = store
        self.memory = memory
        self.cogs = cogs
        self.composer = composer
        self.keeper = keeper
        self.delivery = delivery
        self.results = results
        self.deadlines = deadlines
        self.hints = hints
        # Acknowledging a click is a request or two; saving, drawing and pinging after
        # it are many steps, each queued behind every other runnable step. Under a flood
        # of moves, bounding the moves in progress keeps that queue short, so a new
        # click's acknowledgement does not wait behind hundreds of moves' work.
        self.move_slots = asyncio.Semaphore(MOVES_IN_PROGRESS)
        self.pick_patience = PATIENCE

    async def start(
        self,
        interaction: Interaction,
        table: Table,
        *,
        fresh_message: bool,
        board_below: bool = False,
    ) -> None:
        """Deal/set up the game, let computers open if they must, and show the board: as
        the interaction's answer (replacing the lobby it was clicked on), or with
        ``board_below`` (and in a table's own thread) as a message of its own."""
        spec = GAMES[table.kind]
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=fresh_message)
        state = spec.new_game(players=len(table.seats), seed=table.seed, **table.options)
        await self.hints.settle(table)
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
        if board_below or table.channel_id != interaction.channel_id:
            # The table has its own thread (the board is that thread's message), or the
            # click came from a message that stays as it is.
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

    async def start_unprompted(self, table: Table) -> bool:
        """Start a full table nobody clicked for (a tournament's), its board a message of
        its own in the table's channel, and ping the first player; False (nothing done)
        if another process started it first."""
        spec = GAMES[table.kind]
        state = spec.new_game(players=len(table.seats), seed=table.seed, **table.options)
        state, actions, notes = await self.automatic_turns(table, state)
        table.status = "active"
        if state.is_over:
            table.finish(state.returns())
        table.state = state.to_dict()
        self.deadlines.stamp(table, state)
        try:
            await self.store.save(table, expected_version=table.version, actions=actions)
        except StaleVersion:
            return False
        self.deadlines.saved(table)
        await self.keeper.refresh(table, state, notes=notes)
        await self.after_change(table, state, acting_user=None)
        return True

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
        except RefusedStep as refused:
            await tell(interaction, refused.sentence(private_language(interaction)))
            return
        except IllegalAction as illegal:
            await tell(interaction, illegal.message, **illegal.params)
            return
        # A pick in a private menu is answered when its move is saved, with what was
        # played: one request where a defer and a later edit were two (under load, REST
        # calls are most of the bot's work per move).
        picked = done is not None and interaction.type is InteractionType.component
        answer = MenuAnswer(interaction, self.pick_patience) if picked else None
        if answer is None:
            await acknowledge(interaction)
        try:
            async with self.move_slots:
                going_on = await self._save_and_show(turn, steps, actions, done, answer)
        finally:
            if answer is not None:
                await answer.close()
        if answer is not None and going_on is not None:
            # Tidying the previous confirmation away is no reason to keep the board waiting;
            # a game that ended meanwhile was forgotten, so its last one is not kept.
            await self.memory.private.confirmed(turn.table.id, interaction, keep=going_on)

    async def _save_and_show(
        self,
        turn: Turn[Any],
        steps: list[Step[Any]],
        actions: Sequence[str],
        done: str | None,
        answer: MenuAnswer | None,
    ) -> bool | None:
        """Save a move (unless the table moved on), confirm it, redraw and ping; whether
        the game is still going on afterwards, as far as this move knows (None when the
        move was not played: the player is told why)."""
        interaction = turn.interaction
        async with self.memory.lock(turn.table.id):
            saved = await self._saved(turn, steps, actions)
            if isinstance(saved, str):
                await self._not_played(interaction, saved, answer)
                return None
            table, state, notes = saved
            going_on = table.status == "active" and not state.is_over
            try:
                await self._redraw(turn, table, state, notes, done, answer)
            except ConnectionLost as lost:
                return self._lost_after_saving(table, lost, going_on)
        try:
            await self.cogs[table.kind].after_play(turn, table, state, done)
            await self.after_change(
                table, state, acting_user=interaction.user.id, before=turn.state
            )
        except ConnectionLost as lost:
            return self._lost_after_saving(table, lost, going_on)
        return going_on

    async def _saved(
        self,
        turn: Turn[Any],
        steps: list[Step[Any]],
        actions: Sequence[str],
    ) -> tuple[Table, GameState, list[str]] | str:
        """The move saved with the computers' answers (the table, its state and the
        board's lines), or the sentence (translated) saying why it was not.

        The table is not read again: the save is versioned, so a table that moved on
        since the click read it (another click of this process, which held the table's
        lock meanwhile, or another process) refuses it, and the control is outdated.
        What may change without a new version is the clock's reminder, which the move's
        new turn clock replaces anyway, and presentation the save does not write. On
        PostgreSQL the read was a round trip and, under load, a wait behind the other
        games' work at each await (bench/bench_scale.py).

        A connection lost while saving is looked into on a new one, as the commit may
        have landed before the break; when even that fails, the player is told that the
        move may not have happened."""
        interaction = turn.interaction
        language = private_language(interaction)
        # A copy: ``turn.table`` stays the table as it was before the move.
        table = replace(
            turn.table,
            seats=[replace(seat) for seat in turn.table.seats],
            extra=dict(turn.table.extra),
        )
        # His direct messages follow the client he last played from.
        table.seats[turn.seat].language = language
        state, computer_actions, notes = await self.automatic_turns(
            table, steps[-1].after, played=steps
        )
        logged = [(turn.seat, action) for action in actions]
        try:
            stored = await self._save_move(table, state, [*logged, *computer_actions])
        except StaleVersion:
            return t(language, MENU_OUTDATED if is_private(interaction) else OUTDATED)
        except ConnectionLost as lost:
            log.warning("game %d: cannot tell whether a move was saved: %s", table.id, lost)
            return t(language, DATABASE_LOST)
        return (table, state, notes) if stored else t(language, NOT_SAVED)

    async def _save_move(self, table: Table, state: GameState, actions: Logged) -> bool:
        """Commit the move; whether it is stored. After a connection lost on the way, the
        stored game tells (ConnectionLost again when it cannot be read either)."""
        expected = table.version
        try:
            await self._commit(table, state, actions)
        except ConnectionLost as lost:
            log.warning("game %d: lost the database while saving a move: %s", table.id, lost)
            stored = await self.store.load(table.id)
            if stored is None or stored.version != expected + 1:
                return False
            logged = [(entry.seat, entry.action) for entry in await self.store.actions(table.id)]
            if logged[-len(actions) :] != actions:
                return False
            table.version, table.updated_at = stored.version, stored.updated_at
            self.deadlines.saved(table)
        return True

    async def _redraw(
        self,
        turn: Turn[Any],
        table: Table,
        state: GameState,
        notes: list[str],
        done: str | None,
        answer: MenuAnswer | None,
    ) -> None:
        """Redraw the board of a saved move, under the table's lock: a click waiting for
        it then finds the board current, so a board still behind afterwards can only be a
        fault. The private confirmation goes out while the board is drawn."""
        interaction = turn.interaction
        record = await self.cogs[table.kind].finished_part(table, turn.state, state)
        redrawn = self.keeper.refresh(table, state, notes=notes, record=record)
        if done is None:
            await redrawn
            return
        answered: Awaitable[object]
        if answer is not None:
            answered = answer.played(done)
        else:
            answered = interaction.edit_original_response(
                content=done, view=None, embed=None, attachments=[]
            )
        outcomes = await asyncio.gather(answered, redrawn, return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
        if answer is None:
            await self.memory.private.confirmed(table.id, interaction)

    @staticmethod
    def _lost_after_saving(table: Table, lost: ConnectionLost, going_on: bool) -> bool:
        """The move is stored and confirmed, and its board drawn unless Discord failed
        (then the keeper retries): only the bookkeeping after it broke off (which board
        version is shown, pings, private views; the league records a finished game at
        the next start-up), no reason to tell the player his move may not have happened."""
        log.warning("game %d: saved, then lost the database: %s", table.id, lost)
        return going_on

    async def _not_played(
        self, interaction: Interaction, reason: str, answer: MenuAnswer | None
    ) -> None:
        if answer is None:
            await interaction.followup.send(reason, ephemeral=True)
        else:
            await answer.refused(reason)

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
            if before is not None and not state.is_over:
                await delivery.close_changed(table, before, state)
            await delivery.send_private(table, state, cog.private_recipients(table, before, state))
        if table.status != "active" or state.is_over:
            await delivery.drop_ping(table)
            await self.results.announce(table, state)
            self.memory.forget(table.id)
            return
        await delivery.ping_next(table, state, acting_user)
