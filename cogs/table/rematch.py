"""The rematch: the result message's **Rematch** button, one click at a time.

Each person who played asks with the button (a computer is ready at once); the result
message says who has and who is still awaited. The click that completes them opens the
rematch as a game of its own (``games.rematch``: the same players and computers each one
seat on, the player after the previous starter beginning, the same options and time per
decision, a new seed with its own commitment) and posts its board below. The offer and
its clicks live in the database (``data.rematches``), so a restart changes nothing and
two processes open it once; it runs out with the server's lobby expiry, and a channel
that has a game of its own meanwhile keeps it from opening.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from cogs.host import Interaction
from cogs.language import channel_language, private_language
from cogs.replies import missing_permissions, permission_sentence, tell
from cogs.table.deadlines import Deadlines
from cogs.table.keeper import board_link
from cogs.table.pipeline import Pipeline
from data import ChannelBusy, Seat, Store, Table
from data.rematches import RematchClick, RematchStore
from data.store import NewLobby
from games import GAMES
from games.rematch import rematch_seed, rotated, starter
from texts.i18n import N_, t

MARK = "🔁"
"""Starts the result message's line about its rematch (replaced at every click)."""
NOT_A_PLAYER = N_("Only the players of game #{number} can ask for its rematch.")
NO_OFFER = N_("This game offers no rematch.")
EXPIRED = N_("This rematch offer has expired; open a new table instead.")
OPENED_BEFORE = N_("The rematch has started already: game #{number}.")
ASKED_AGAIN = N_("You have asked for the rematch already; still waiting for {names}.")
ASKED = N_("You are in for the rematch; still waiting for {names}.")
CHANNEL_TAKEN = N_(
    "The rematch cannot open while this channel has a table of {game} (game #{number});"
    " ask again once it has ended."
)
WAITING_LINE = N_("🔁 Rematch asked for by {ready}; waiting for {names}.")
OPENED_LINE = N_("🔁 The rematch is game #{number}: {link}")
OPENED_UNSEEN_LINE = N_("🔁 The rematch is game #{number}.")


def people_of(table: Table) -> list[int]:
    """The seats whose players must ask for the rematch: every person's."""
    return [index for index, seat in enumerate(table.seats) if not seat.is_computer]


def names_of(table: Table, seats: Collection[int]) -> str:
    return ", ".join(table.seats[seat].name for seat in sorted(seats))


def with_line(content: str, line: str) -> str:
    """The result message with ``line`` as its rematch line (in place of the last one)."""
    kept = [text for text in content.splitlines() if not text.startswith(MARK)]
    return "\n".join([*kept, line])


class Rematches:
    """Answers the clicks on the result messages' **Rematch** buttons."""

    def __init__(
        self,
        store: Store,
        offers: RematchStore,
        pipeline: Pipeline,
        deadlines: Deadlines,
        seed_source: Callable[[], int],
    ) -> None:
        self.store = store
        self.offers = offers
        self.pipeline = pipeline
        self.deadlines = deadlines
        self.seed_source = seed_source

    async def on_click(self, interaction: Interaction, table: Table) -> None:
        """A click on the result message of ``table`` (acknowledged already)."""
        seat = table.seat_of(interaction.user.id)
        if table.status != "finished":
            await tell(interaction, NO_OFFER)
            return
        if seat is None:
            await tell(interaction, NOT_A_PLAYER, number=table.id)
            return
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            await tell(interaction, permission_sentence(private_language(interaction), missing))
            return
        rematch = await self._rematch_of(interaction, table)
        try:
            click = await self.offers.ready(
                table.id,
                seat,
                channel_id=table.channel_id,
                people=people_of(table),
                now=self.deadlines.time.now(),
                rematch=rematch,
            )
        except ChannelBusy as busy:
            game = GAMES[busy.table.kind].title
            await tell(interaction, CHANNEL_TAKEN, game=game, number=busy.table.id)
            return
        await self._answer(interaction, table, click)

    async def _answer(self, interaction: Interaction, table: Table, click: RematchClick) -> None:
        missing = names_of(table, set(people_of(table)) - click.ready)
        if click.outcome == "waiting":
            line = t(
                table.language,
                WAITING_LINE,
                ready=names_of(table, click.ready),
                names=missing,
            )
            await self._show_line(interaction, line, keep_button=True)
            await tell(interaction, ASKED, names=missing)
        elif click.outcome == "again":
            await tell(interaction, ASKED_AGAIN, names=missing)
        elif click.outcome == "expired":
            await tell(interaction, EXPIRED)
        elif click.outcome == "opened before":
            await tell(interaction, OPENED_BEFORE, number=click.rematch_id)
        elif click.outcome == "no offer":
            await tell(interaction, NO_OFFER)
        else:
            assert click.rematch_id is not None
            await self._open(interaction, table, click.rematch_id)

    async def _open(self, interaction: Interaction, table: Table, rematch_id: int) -> None:
        """Start the rematch the click opened, its board below the result message."""
        rematch = await self.store.load(rematch_id)
        assert rematch is not None, "opened in the click's own transaction"
        await self.pipeline.start(interaction, rematch, fresh_message=False, board_below=True)
        board = rematch.board_message_id
        if board is None:
            line = t(table.language, OPENED_UNSEEN_LINE, number=rematch.id)
        else:
            link = board_link(rematch, board)
            line = t(table.language, OPENED_LINE, number=rematch.id, link=link)
        await self._show_line(interaction, line, keep_button=False)

    async def _show_line(self, interaction: Interaction, line: str, *, keep_button: bool) -> None:
        message = interaction.message
        if message is None:
            return
        content = with_line(message.content, line)
        if keep_button:
            await interaction.edit_original_response(content=content)
        else:
            await interaction.edit_original_response(content=content, view=None)

    async def _rematch_of(self, interaction: Interaction, table: Table) -> Callable[[], NewLobby]:
        """The rematch's table as the click that completes the players opens it: what it
        needs of the server is read now, its seed is drawn only then."""
        clock = table.extra.get("clock") or {}
        extra = await self.deadlines.new_table_extra(
            table.guild_id, table.kind, clock.get("seconds")
        )
        extra["language"] = await channel_language(interaction)
        extra["rematch_of"] = table.id
        server = interaction.guild.name if interaction.guild else table.extra.get("server")
        if server is not None:
            extra["server"] = server
        due = await self.deadlines.lobby_due(table.guild_id)
        spec = GAMES[table.kind]
        players = len(table.seats)
        begins = starter(spec, players, table.seed, table.options)

        def rematch() -> NewLobby:
            return NewLobby(
                kind=table.kind,
                guild_id=table.guild_id,
                channel_id=table.channel_id,
                creator_id=table.creator_id,
                seats=[Seat(s.name, s.user_id, s.level) for s in rotated(table.seats)],
                options=dict(table.options),
                seed=rematch_seed(spec, players, table.options, begins, self.seed_source),
                extra=extra,
                due_at=due,
            )

        return rematch
