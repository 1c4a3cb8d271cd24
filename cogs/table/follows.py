"""Spectating. A member follows a table (``/game watch`` in its channel, or the **Follow**
button on its board, which anyone may press; the same again stops) and gets a direct
message when it ends: its result and a link to its final board. He may follow a member
of the server too (``/game watch member:``): then a direct message tells him when a
tournament round that member plays in starts, with links to the member's tables
(``Spectators.round_started``, which the tournaments call).

The messages go out in a background task once the table's end is saved and its board
drawn, so neither the board nor the table's lock waits for them. A table's followers are
claimed in the database before anyone is told (``data.follows``), and a round's message
per follower once per key (``Store.claim_once``), so two processes tell each follower
once; a process that stopped between a table's end and its messages leaves them to the
next start (``deliver_missed``). A member whose direct messages are closed (Discord's
50007) is skipped: nothing is retried, and nothing is said in public.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from cogs.host import Host, Interaction
from cogs.language import private_language
from cogs.replies import NO_MENTIONS, failure_text, tell
from cogs.table.board import stored_headline
from cogs.table.delivery import DMS_CLOSED, server_name, where
from cogs.table.game_cog import GameCogs
from cogs.table.keeper import board_link
from data import ConnectionLost, Store, Table
from data.follows import FollowBook
from games import GAMES
from texts.i18n import N_, t

log = logging.getLogger("tablebot.follows")

FOLLOWING = N_("👁️ You follow {game} game #{number}: I will send you a direct message when it ends.")
UNFOLLOWED = N_("You no longer follow {game} game #{number}.")
ENDED_ALREADY = N_("{game} game #{number} has ended: there is nothing left to follow.")
FOLLOWING_MEMBER = N_(
    "👁️ You follow {name}: I will send you a direct message when a tournament round"
    " {name} plays in starts."
)
UNFOLLOWED_MEMBER = N_("You no longer follow {name}.")
NOT_YOURSELF = N_("You cannot follow yourself.")
NOT_A_BOT = N_("{name} is a bot: only members who play can be followed.")
MEMBERS_ON_A_SERVER = N_(
    "Members are followed on a server: use this command in one of its channels."
)
GAME_ENDED = N_("🏁 The game you follow has ended. {result}")
TABLE_CLOSED = N_("🏁 The table you follow was closed before its game began.")
FINAL_BOARD = N_("The final board: {link}")
ROUND_STARTED = N_("🏆 Round {round} of **{tournament}** has started in **{server}**.")
ROUND_TABLE = N_("{names} at {game} game #{number}: {link}")
ROUND_TABLE_UNSEEN = N_("{names} at {game} game #{number} in <#{channel}>")
MESSAGE_LIMIT = 2000


class Spectators:
    """Who follows which table or member, and the direct messages they get."""

    def __init__(self, bot: Host, store: Store, cogs: GameCogs) -> None:
        self.bot = bot
        self.store = store
        self.cogs = cogs
        self.book = FollowBook(store)
        self._sending: set[asyncio.Task[int]] = set()
        self._end_listeners: list[Callable[[Table], Awaitable[int]]] = []

    def on_table_ended(self, listener: Callable[[Table], Awaitable[int]]) -> None:
        """Call ``listener`` (in the background) with every table that ends from now on:
        a part above the tables (the tournaments) learns of each end this way."""
        self._end_listeners.append(listener)

    # ---- following ----------------------------------------------------------------------

    async def toggle_table(self, interaction: Interaction, table: Table) -> None:
        """The member follows ``table``, or stops following it; told privately."""
        language = private_language(interaction)
        following = await self.book.toggle_table(table.id, interaction.user.id, language)
        sentence = {True: FOLLOWING, False: UNFOLLOWED, None: ENDED_ALREADY}[following]
        await tell(interaction, sentence, game=GAMES[table.kind].title, number=table.id)

    async def toggle_member(self, interaction: Interaction, member: discord.abc.User) -> None:
        """The member follows another member of the server, or stops; told privately."""
        if interaction.guild_id is None:
            await tell(interaction, MEMBERS_ON_A_SERVER)
            return
        name = discord.utils.escape_markdown(member.display_name)
        if member.id == interaction.user.id:
            await tell(interaction, NOT_YOURSELF)
            return
        if member.bot:
            await tell(interaction, NOT_A_BOT, name=name)
            return
        following = await self.book.toggle_member(
            interaction.guild_id, member.id, interaction.user.id, private_language(interaction)
        )
        await tell(interaction, FOLLOWING_MEMBER if following else UNFOLLOWED_MEMBER, name=name)

    # ---- a table's end ------------------------------------------------------------------

    def table_ended(self, table: Table) -> None:
        """Tell the table's followers (and the listeners of table ends) that it has
        ended, in the background."""
        self._in_background(self.tell_followers(table.id), f"followers of game {table.id}")
        for listener in self._end_listeners:
            self._in_background(listener(table), f"the end of game {table.id}")

    async def tell_followers(self, game_id: int) -> int:
        """Claim an ended table's followers and send each his message; how many were sent
        (none when another process claimed them first)."""
        followers = await self.book.claim_ended(game_id)
        table = await self.store.load(game_id) if followers else None
        if table is None:
            return 0
        sent = 0
        for follow in followers:
            if await self._send(follow.follower_id, self._ended_message(table, follow.language)):
                sent += 1
        log.info("game %d: told %d of %d followers", game_id, sent, len(followers))
        return sent

    async def deliver_missed(self) -> None:
        """At start-up: tell the followers of every table that ended while no process was
        there to tell them."""
        for game_id in await self.book.ended_and_followed():
            await self.tell_followers(game_id)

    def _ended_message(self, table: Table, language: str) -> str:
        lines = [where(self.bot, table, language)]
        if table.state is None:
            lines.append(t(language, TABLE_CLOSED))
        else:
            lines.append(t(language, GAME_ENDED, result=self._result(table, language)))
        if table.board_message_id is not None and table.state is not None:
            lines.append(t(language, FINAL_BOARD, link=board_link(table, table.board_message_id)))
        return "\n".join(lines)

    def _result(self, table: Table, language: str) -> str:
        """How the table ended, in the follower's language: the table as he would read it."""
        read = dataclasses.replace(table, extra={**table.extra, "language": language})
        headline = stored_headline(read)
        if headline is not None:
            return headline
        assert table.state is not None
        return self.cogs[table.kind].result_text(read, GAMES[table.kind].from_dict(table.state))

    # ---- a tournament round -------------------------------------------------------------

    def round_started(
        self, tournament: str, round_number: int, tables: Sequence[Table]
    ) -> asyncio.Task[int]:
        """Tell, in the background, the followers of every member seated at ``tables`` (one
        tournament round's, all of one server, opened and their boards posted) that the
        round has started, with links to the tables of the members each one follows; a
        follower seated at a table needs no word about it. The task's result: how many
        were told. Each follower is told once per round across every process."""
        return self._in_background(
            self._tell_round(tournament, round_number, list(tables)),
            f"followers of round {round_number} of {tournament}",
        )

    async def _tell_round(self, tournament: str, round_number: int, tables: list[Table]) -> int:
        if not tables:
            return 0
        guild_id = tables[0].guild_id
        seated = {seat.user_id: table for table in tables for seat in table.seats if seat.user_id}
        follows = await self.book.followers_of_members(guild_id, list(seated))
        followed: dict[int, list[int]] = {}
        languages: dict[int, str] = {}
        for follow in follows:
            followed.setdefault(follow.follower_id, []).append(follow.member_id)
            languages.setdefault(follow.follower_id, follow.language)
        round_key = min(table.id for table in tables)
        sent = 0
        for follower, members in followed.items():
            theirs = {
                seated[member].id: seated[member]
                for member in members
                if seated[member].seat_of(follower) is None
            }
            if not theirs or not await self.store.claim_once(
                f"round-started:{round_key}:{follower}"
            ):
                continue
            language = languages[follower]
            message = self._round_message(
                tournament, round_number, list(theirs.values()), members, language
            )
            if await self._send(follower, message):
                sent += 1
        return sent

    def _round_message(
        self,
        tournament: str,
        round_number: int,
        tables: list[Table],
        members: list[int],
        language: str,
    ) -> str:
        lines = [
            t(
                language,
                ROUND_STARTED,
                round=round_number,
                tournament=discord.utils.escape_markdown(tournament),
                server=server_name(self.bot, tables[0], language),
            )
        ]
        for table in sorted(tables, key=lambda table: table.id):
            names = ", ".join(
                seat.name
                for seat in table.seats
                if seat.user_id is not None and seat.user_id in members
            )
            title = GAMES[table.kind].title
            if table.board_message_id is None:
                line = t(
                    language,
                    ROUND_TABLE_UNSEEN,
                    names=names,
                    game=title,
                    number=table.id,
                    channel=table.channel_id,
                )
            else:
                link = board_link(table, table.board_message_id)
                line = t(language, ROUND_TABLE, names=names, game=title, number=table.id, link=link)
            if len("\n".join([*lines, line])) > MESSAGE_LIMIT:
                break
            lines.append(line)
        return "\n".join(lines)

    # ---- sending ------------------------------------------------------------------------

    async def _send(self, user_id: int, content: str) -> bool:
        """One direct message; False (logged, not retried) when Discord refuses it."""
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(content, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as refused:
            if refused.code == DMS_CLOSED:
                log.info("member %d takes no direct messages: not told", user_id)
            else:
                log.warning("could not message member %d: %s", user_id, failure_text(refused))
            return False
        return True

    def _in_background(self, work: Awaitable[int], what: str) -> asyncio.Task[int]:
        async def guarded() -> int:
            try:
                return await work
            except ConnectionLost as lost:
                log.warning("lost the database while telling the %s: %s", what, lost)
                return 0

        task = asyncio.get_running_loop().create_task(guarded(), name=f"table: {what}")
        self._sending.add(task)
        task.add_done_callback(self._done)
        return task

    def stop(self) -> None:
        """The bot is closing: stop the messages still going out before the database
        closes under them (a table's followers not yet claimed are told at the next
        start)."""
        for task in list(self._sending):
            task.cancel()

    def _done(self, task: asyncio.Task[int]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("telling the followers failed", exc_info=task.exception())
