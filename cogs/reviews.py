"""``/game review``: an ended game's decisions judged, its luck measured, the turning
points shown.

A review is worked out once per game in a worker process (``cogs/review_pool.py``),
its progress edited into the answer as it goes, and stored (``data/reviews.py``), so a
second request is answered at once. The answer shows the value of the game for each
player over its moves with the marked decisions, each player's figures, and the three
costliest decisions, each with a button that shows, privately and in the clicker's
language, the board after the move played and after the better one.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import re
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.archive import ended_table
from cogs.host import Host, Interaction, route_click
from cogs.language import channel_language, private_language
from cogs.privacy import may_read
from cogs.replies import NO_MENTIONS, mention_only, refuse_after_thinking, tell
from cogs.review_pool import ReviewPool, ReviewQueueFull, engine_version
from cogs.table.components import answering_database_failures
from cogs.table.game_cog import GameCog
from cogs.table.records import facts_of, logged_actions
from cogs.worker import replay_work
from data import Store, Table
from data.league import League
from data.reviews import ReviewBook
from games import GAMES, IllegalAction
from games.base import Step
from games.proof import walk
from games.review import has_review, reviewer
from games.review.model import Judgement, Review, Unit
from render.review import render_decision, render_review_chart
from texts.i18n import N_, command_name, t, tn
from texts.reviews import amount, costliest, decision_line, seat_lines
from texts.reviews import result as result_text

log = logging.getLogger("tablebot.reviews")

PROGRESS_SECONDS = 2.0
"""At most one progress edit this often: Discord allows an interaction's message about
five edits in five seconds, and a review takes many decisions a second."""
STILL_RUNNING = N_("Game #{game} has not ended yet: it can be reviewed once it has.")
NO_REVIEWER = N_("{title} games cannot be reviewed yet.")
CHART_FILE = "review.png"
PROFILE_GAMES = 50
"""The member's last games of a season whose reviews /league profile sums."""
EXPIRED_TOKEN = 50027
"""Discord's code for an interaction token past its 15 minutes: a review that waited that
long in a busy queue can no longer edit its answer and is posted in the channel instead."""


def token_expired(error: discord.HTTPException) -> bool:
    return error.code == EXPIRED_TOKEN


class ReviewsCog(commands.Cog):
    """``/game review`` and the buttons of its costliest decisions."""

    def __init__(
        self, bot: Host, store: Store, game_group: app_commands.Group, pool: ReviewPool
    ) -> None:
        self.bot = bot
        self.store = store
        self.book = ReviewBook(store)
        self.game_group = game_group
        self.pool = pool
        bot.answer_clicks(DecisionButton, self.on_decision)

    async def cog_load(self) -> None:
        @app_commands.command(
            name=command_name("review"),
            description=N_("Every decision of an ended game judged, and the luck measured"),
        )
        @app_commands.rename(game=command_name("game"))
        @app_commands.describe(game=N_("The game's number (default: this channel's last game)"))
        async def review(interaction: Interaction, game: int | None = None) -> None:
            await self.review(interaction, game)

        self.game_group.add_command(review)

    async def cog_unload(self) -> None:
        self.game_group.remove_command("review")
        self.pool.close()

    # ---- the review -----------------------------------------------------------------

    async def review(self, interaction: Interaction, game: int | None) -> None:
        table = await ended_table(self.store, interaction, game, STILL_RUNNING)
        if table is None:
            return
        title = GAMES[table.kind].title
        if not has_review(table.kind):
            await tell(interaction, NO_REVIEWER, title=title)
            return
        engine = engine_version(table.kind)
        stored = await self.book.get(table.id, engine)
        if stored is None and self.pool.is_full(table.id):
            await tell(interaction, _queue_full(private_language(interaction), self.pool.limit))
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        if stored is not None:
            text = stored.review
        else:
            reviewed = await self._reviewed(interaction, table, language)
            if reviewed is None:
                return
            text = reviewed
            await self.book.save(table.id, engine, text)
        await self._show(interaction, table, Review.from_json(text), language)

    async def _reviewed(self, interaction: Interaction, table: Table, language: str) -> str | None:
        """The review's JSON, worked out now, its progress edited into the answer; None
        after telling why not."""
        actions = await logged_actions(self.store, table.id)
        last_edit = 0.0

        async def progress(done: int, total: int) -> None:
            nonlocal last_edit
            now = time.monotonic()
            if now - last_edit < PROGRESS_SECONDS and done < total:
                return
            last_edit = now
            try:
                await interaction.edit_original_response(
                    content=t(
                        language,
                        "🔍 Reviewing {title} game #{game}… {done} of {total} decisions",
                        title=GAMES[table.kind].title,
                        game=table.id,
                        done=done,
                        total=total,
                    )
                )
            except discord.HTTPException as error:
                if not token_expired(error):
                    raise
                last_edit = float("inf")

        try:
            return await self.pool.review(table.id, facts_of(table), actions, progress)
        except ReviewQueueFull as full:
            refusal = _queue_full(private_language(interaction), full.limit)
            await refuse_after_thinking(interaction, refusal)
        except IllegalAction:
            await interaction.edit_original_response(
                content=t(
                    language,
                    "Game #{game} was played before game records existed and cannot be reviewed.",
                    game=table.id,
                )
            )
        return None

    async def _show(
        self, interaction: Interaction, table: Table, review: Review, language: str
    ) -> None:
        names = facts_of(table).seats
        unit = _unit(review)
        chart = await replay_work(_draw_chart, table, review, names, language)
        cog = game_cog(self.bot, table.kind)
        worst = [as_typed(cog, judgement) for judgement in costliest(review)]
        embed = discord.Embed(
            title=t(
                language,
                "Review of {title} game #{game}",
                title=GAMES[table.kind].title,
                game=table.id,
            ),
            description="\n".join(
                [t(language, "**The costliest decisions**")]
                + [
                    f"{place}. {decision_line(language, unit, judgement, names)}"
                    for place, judgement in enumerate(worst, start=1)
                ]
                if worst
                else [t(language, "Nobody lost anything by a decision.")]
            ),
        )
        for seat in review.seats:
            name = names[seat.seat] if seat.seat < len(names) else "?"
            embed.add_field(name=name[:256], value=seat_lines(language, unit, seat), inline=False)
        embed.set_image(url=f"attachment://{CHART_FILE}")
        view = discord.ui.View(timeout=None)
        for place, judgement in enumerate(worst, start=1):
            view.add_item(DecisionButton(table.id, judgement.index, place, language))
        try:
            await interaction.edit_original_response(
                content=None,
                embed=embed,
                attachments=[discord.File(io.BytesIO(chart), filename=CHART_FILE)],
                view=view,
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException as error:
            if not token_expired(error):
                raise
            await self._post_late(interaction, table, language, embed, chart, view)

    async def _post_late(
        self,
        interaction: Interaction,
        table: Table,
        language: str,
        embed: discord.Embed,
        chart: bytes,
        view: discord.ui.View,
    ) -> None:
        """The review as a new channel message naming the member who asked, once the
        answer's token has expired; his "Reviewing…" answer stays as it was."""
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return
        content = t(
            language,
            "{member}, your review of {title} game #{game} is ready.",
            member=interaction.user.mention,
            title=GAMES[table.kind].title,
            game=table.id,
        )
        try:
            await channel.send(
                content,
                embed=embed,
                file=discord.File(io.BytesIO(chart), filename=CHART_FILE),
                view=view,
                allowed_mentions=mention_only(interaction.user.id),
            )
        except discord.HTTPException as error:
            log.warning("could not post the late review of game %d: %s", table.id, error)

    # ---- a costly decision ------------------------------------------------------------

    async def on_decision(self, interaction: Interaction, button: DecisionButton) -> None:
        await answering_database_failures(interaction, lambda: self._decision(interaction, button))

    async def _decision(self, interaction: Interaction, button: DecisionButton) -> None:
        table = await self.store.load(button.game_id)
        if (
            table is None
            or table.guild_id != (interaction.guild_id or 0)
            or not await may_read(interaction, table.channel_id)
        ):
            await tell(
                interaction, N_("There is no game #{game} in this server."), game=button.game_id
            )
            return
        stored = await self.book.get(table.id, engine_version(table.kind))
        judgement = None
        if stored is not None:
            review = Review.from_json(stored.review)
            judgement = next((j for j in review.judgements if j.index == button.index), None)
        if judgement is None:
            await tell(
                interaction,
                N_("This review has been renewed since: ask {command} again."),
                command="`/game review`",
            )
            return
        language = private_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        actions = await logged_actions(self.store, table.id)
        names = facts_of(table).seats
        unit = _unit(review)
        shown = as_typed(game_cog(self.bot, table.kind), judgement)
        try:
            picture = await replay_work(
                _draw_decision, table, actions, judgement, shown, names, language
            )
        except IllegalAction:
            # Only a review made by rules that read the moves otherwise gets here.
            await interaction.followup.send(
                t(language, "This position cannot be drawn any more."), ephemeral=True
            )
            return
        await interaction.followup.send(
            decision_line(language, unit, shown, names),
            file=discord.File(io.BytesIO(picture), filename=f"decision-{judgement.index}.png"),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )


class ReviewFigures:
    """What `/league profile` shows of reviews: per game, a member's summed luck, result
    and luck-adjusted result over his reviewed games of the season, and his puzzles."""

    def __init__(self, store: Store, league: League) -> None:
        self.book = ReviewBook(store)
        self.league = league

    async def profile_fields(
        self, guild_id: int, user_id: int, season_id: int, language: str
    ) -> list[tuple[str, str]]:
        """Embed fields (name, value), one per game he has reviewed games or puzzles of."""
        puzzles = await self.book.tallies(user_id, guild_id)
        fields = []
        for kind in GAMES:
            if not has_review(kind):
                continue
            lines = []
            results = await self.league.history(
                guild_id, kind=kind, user_id=user_id, season_id=season_id, limit=PROFILE_GAMES
            )
            seats = {
                result.game_id: seat.seat
                for result in results
                for seat in result.seats
                if seat.user_id == user_id
            }
            reviews = await self.book.of_games(list(seats), engine_version(kind))
            summaries = [
                summary
                for game_id, text in reviews.items()
                for summary in Review.from_json(text).seats
                if summary.seat == seats[game_id]
            ]
            if summaries:
                unit = reviewer(kind).unit
                lines.append(
                    tn(
                        language,
                        "Luck {luck} in {count} reviewed game · result {result},"
                        " luck-adjusted {adjusted}",
                        "Luck {luck} in {count} reviewed games · result {result},"
                        " luck-adjusted {adjusted}",
                        len(summaries),
                        luck=amount(language, unit, sum(s.luck for s in summaries), sign=True),
                        result=result_text(language, unit, sum(s.result for s in summaries)),
                        adjusted=result_text(
                            language, unit, sum(s.luck_adjusted for s in summaries)
                        ),
                    )
                )
            if kind in puzzles:
                tally = puzzles[kind]
                lines.append(
                    tn(
                        language,
                        "Puzzles: {solved} of {count} solved",
                        "Puzzles: {solved} of {count} solved",
                        tally.answered,
                        solved=tally.solved,
                    )
                )
            if lines:
                name = t(language, "🔍 {game}: reviews", game=GAMES[kind].title)
                fields.append((name, "\n".join(lines)))
        return fields


def game_cog(bot: Host, kind: str) -> GameCog[Any]:
    """The cog of game ``kind``, which knows how its players type its actions."""
    return next(
        cog for cog in bot.cogs.values() if isinstance(cog, GameCog) and cog.spec.key == kind
    )


def as_typed(cog: GameCog[Any], judgement: Judgement) -> Judgement:
    """The judgement with its actions as the game's players type them (Barree's sendings
    and Barbu's doubles name players from 1, where the rules count seats from 0)."""

    def typed(actions: str) -> str:
        return " ".join(cog.typed_action(action) for action in actions.split(" "))

    return dataclasses.replace(
        judgement, played=typed(judgement.played), best=typed(judgement.best)
    )


def _queue_full(language: str, limit: int) -> str:
    return tn(
        language,
        "{count} review is being worked out already, the most at once: please ask again in a"
        " minute or two.",
        "{count} reviews are being worked out already, the most at once: please ask again in"
        " a minute or two.",
        limit,
    )


def _unit(review: Review) -> Unit:
    return reviewer(review.kind).unit


def _draw_chart(table: Table, review: Review, names: Sequence[str], language: str) -> bytes:
    view = chart_view(review, names, title=f"{GAMES[table.kind].title} #{table.id}")
    return render_review_chart(view, language)


def chart_view(review: Review, names: Sequence[str], title: str) -> dict[str, Any]:
    """The chart's view of a review: each seat's value after each of its decisions (and,
    at a table of two valued by the chance to win, one minus its opponent's), the marks
    at the value their mover had."""
    unit = _unit(review)
    seats = len(review.seats)
    mirrored = unit == "win" and seats == 2
    values: list[list[list[float]]] = [[] for _ in range(seats)]
    for judgement in review.judgements:
        values[judgement.seat].append([judgement.index, judgement.value_played])
        if mirrored:
            values[1 - judgement.seat].append([judgement.index, 1 - judgement.value_played])
    last = max((judgement.index for judgement in review.judgements), default=1)
    return {
        "title": title,
        "unit": unit,
        "last": last,
        "seats": [
            {"name": names[seat] if seat < len(names) else "?", "values": values[seat]}
            for seat in range(seats)
        ],
        "marks": [
            {
                "index": judgement.index,
                "seat": judgement.seat,
                "mark": judgement.mark,
                "value": judgement.value_played,
            }
            for judgement in review.judgements
            if judgement.mark is not None
        ],
    }


def _draw_decision(
    table: Table,
    actions: list[tuple[int | None, str]],
    judgement: Judgement,
    shown: Judgement,
    names: Sequence[str],
    language: str,
) -> bytes:
    """The board after the decision as played and as the better choice would have left it,
    captioned with the moves as players type them (``shown``)."""
    before = next(
        item.before
        for item in walk(facts_of(table), actions)
        if isinstance(item, Step) and item.number == judgement.index
    )
    played, better = before, before
    for action in judgement.played.split(" "):
        played = played.apply(action)
    for action in judgement.best.split(" "):
        better = better.apply(action)
    return render_decision(
        table.kind,
        (played.view(None), shown.played),
        (better.view(None), shown.best),
        names,
        language,
    )


class DecisionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"review:(?P<game>\d{1,19}):(?P<index>\d{1,7})",
):
    """A costly decision of a review: shows its position privately; works after a restart."""

    def __init__(self, game_id: int, index: int, place: int = 1, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t(language, "{place}. Move {number}", place=place, number=index),
                style=discord.ButtonStyle.secondary,
                emoji="🔍",
                custom_id=f"review:{game_id}:{index}",
            )
        )
        self.game_id = game_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DecisionButton:
        return cls(int(match["game"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)
