"""The table machinery of one bot, its parts built in the order they depend on each other.

Each part is handed exactly the partners it uses; none reaches another through this
object. What a game's cog may ask of the machinery is ``TablePort``, which this class
implements, and clicks on the tables' buttons reach the router through the bot's
switchboard (``Host.answer_clicks``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord

from cogs.host import Host, Interaction
from cogs.render_pool import RenderPool
from cogs.table.abandon import Abandoning
from cogs.table.board import BoardComposer
from cogs.table.clock_verbs import ClockVerbs
from cogs.table.components import LESSON_TABLE, TableButton, TableSelect
from cogs.table.deadlines import Deadlines
from cogs.table.delivery import Delivery
from cogs.table.follows import Spectators
from cogs.table.game_cog import GameCog, GameCogs, Turn
from cogs.table.game_commands import GameCommands
from cogs.table.hints import Hints, RatingRules
from cogs.table.keeper import BoardKeeper
from cogs.table.lengths import GameLengths
from cogs.table.lessons import Lessons
from cogs.table.lobby import Lobby
from cogs.table.memory import GameMemory
from cogs.table.pipeline import Pipeline
from cogs.table.private import PrivateMessages
from cogs.table.rematch import Rematches
from cogs.table.results import ResultRecorder, Results
from cogs.table.router import Router
from data import Store, Table
from data.lessons import LessonBook
from data.rematches import RematchStore

C = TypeVar("C", bound=GameCog[Any])


class TableMachinery:
    """Lobbies, turns, boards, private views and results for every game of one bot."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        *,
        seed_source: Callable[[], int],
        renderer: RenderPool,
        deadlines: Deadlines,
        recorder: ResultRecorder,
        rating: RatingRules,
    ) -> None:
        self.bot = bot
        self.store = store
        self.deadlines = deadlines
        self.cogs = GameCogs()
        self.memory = GameMemory()
        self.lengths = GameLengths(store)
        self.composer = BoardComposer(self.cogs, renderer, deadlines, self.lengths)
        self.delivery = Delivery(bot, store, self.cogs)
        self.keeper = BoardKeeper(
            bot, store, self.memory, self.composer, self.delivery, deadlines.time
        )
        self.spectators = Spectators(bot, store, self.cogs)
        offers = RematchStore(store)
        self.results = Results(
            bot,
            store,
            self.memory,
            self.keeper,
            self.cogs,
            recorder,
            offers,
            deadlines,
            self.spectators,
        )
        self.hints = Hints(store, self.cogs, rating)
        self.pipeline = Pipeline(
            store,
            self.memory,
            self.cogs,
            self.composer,
            self.keeper,
            self.delivery,
            self.results,
            deadlines,
            self.hints,
        )
        self.lobby = Lobby(
            store,
            self.composer,
            self.lengths,
            self.keeper,
            self.pipeline,
            deadlines,
            seed_source,
            self.spectators,
        )
        self.lessons = Lessons(LessonBook(store), self.cogs, renderer, self.lobby)
        self.clock_verbs = ClockVerbs(bot, store, self.memory, self.keeper, deadlines)
        self.rematches = Rematches(store, offers, self.pipeline, deadlines, seed_source)
        self.abandoning = Abandoning(
            bot, store, self.memory, self.keeper, self.composer, self.spectators
        )
        self.router = Router(
            bot,
            store,
            self.memory,
            self.cogs,
            self.keeper,
            self.lobby,
            self.pipeline,
            self.results,
            self.abandoning,
            self.delivery,
            deadlines,
            self.clock_verbs,
            self.rematches,
            self.hints,
            self.lessons,
            self.spectators,
        )
        self.commands = GameCommands(
            bot,
            store,
            self.memory,
            self.router,
            self.composer,
            self.keeper,
            self.results,
            self.abandoning,
            self.clock_verbs,
            renderer,
            self.spectators,
        )
        bot.answer_clicks(TableButton, self.router.on_click)
        bot.answer_clicks(TableSelect, self.router.on_click)

    def game_cog(self, cog_class: type[C]) -> C:
        """A game's cog, built with this machinery as its ``TablePort``."""
        cog = cog_class(self.bot, self)
        self.cogs.add(cog)
        return cog

    # ---- TablePort: what a game's cog may ask -----------------------------------------

    @property
    def private(self) -> PrivateMessages:
        return self.memory.private

    async def play(
        self, turn: Turn[Any], actions: Sequence[str], *, done: str | None = None
    ) -> None:
        if turn.table.id == LESSON_TABLE:
            # A lesson's table exists only in memory: its moves are judged, not saved as a
            # game's, and the lesson says itself what was played.
            await self.lessons.play(turn, actions)
            return
        await self.pipeline.play(turn, actions, done=done)

    async def text_move(self, interaction: Interaction, kind: str, notation: str) -> None:
        await self.router.text_move(interaction, kind, notation)

    async def open_table(
        self,
        interaction: Interaction,
        kind: str,
        *,
        options: dict[str, Any],
        invited: discord.abc.User | None,
        computers: int,
        level: str,
        clock: int | None,
    ) -> None:
        await self.lobby.open(
            interaction,
            kind,
            options=options,
            invited=invited,
            computers=computers,
            level=level,
            clock=clock,
        )

    async def table_in_channel(self, channel_id: int) -> Table | None:
        return await self.store.open_table_in(channel_id)

    async def learn(self, interaction: Interaction, kind: str) -> None:
        await self.lessons.start(interaction, kind)
