"""Lessons: `/<game> learn` (and the Learn button under `/<game> rules`) teaches a game
step by step, privately, with the game's own controls. What is taught lives in
``texts/lessons``; this module only shows it.

A step is one ephemeral message: what the step teaches, the task, the position's picture
and the controls the game's cog draws for a table that exists only in memory (its id
``LESSON_TABLE``, its version the version of the member's lesson). A click on them comes
here from the router and goes on to the game's cog as a table's click would; a move the
cog plays on that table comes back here (``play``) instead of the play pipeline: judged,
saved (``data/lessons.py``, so a lesson survives a restart and resumes where it was
left) and shown in the message the move was picked in, which is the lesson's message
from then on (the previous one is deleted while Discord allows it). Nothing is posted
in the channel, no table is opened and nothing is rated, so a lesson blocks nobody; the
last step offers a practice game against the easy computer, an unrated table.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import discord

from cogs.host import Interaction
from cogs.language import private_language
from cogs.render_pool import RenderPool
from cogs.replies import MENU_OUTDATED, log, tell
from cogs.table.components import (
    LESSON_TABLE,
    UNRECOGNISED,
    TableButton,
    TableSelect,
    Target,
    view_of,
)
from cogs.table.game_cog import LEARN, GameCogs, Turn
from cogs.table.lobby import Lobby
from data import Seat, Table
from data.lessons import LessonBook, LessonProgress
from games import GAMES, GameState, IllegalAction
from texts.i18n import COMMAND_NAME, N_, t, tp
from texts.lessons import HOW_TO_PLAY, PLAYERS, Lesson, Verdict, lesson_of

NEXT = "lesson_next"
AGAIN = "lesson_again"
LEAVE = "lesson_leave"
RESTART = "lesson_restart"
PRACTICE = "lesson_practice"
LESSON_VERBS = frozenset({NEXT, AGAIN, LEAVE, RESTART, PRACTICE})
WHOLE_GAME_VERBS = frozenset({"resign"})
"""The table machinery's verbs about a whole game, which a lesson has not."""
NAVIGATION_ROW = 4
PRACTICE_LEVEL = "easy"
EDITABLE_FOR = timedelta(minutes=15)
"""How long Discord lets the bot delete an interaction's answer."""

HEADER = N_("🎓 **{game} lesson · step {number} of {count}: {title}**")
TASK = N_("👉 {task}")
RULE_BOOK = N_("📖 Rule book: {sections}")
SOLVED = N_("✅ {verdict}")
TRY_AGAIN = N_("❌ {verdict} Try again.")
WELCOME_BACK = N_("Welcome back: the lesson goes on where you left it.")
FINISHED = N_(
    "🎓 You have finished the {game} lesson! Play a practice game against the easy"
    " computer (it is not rated), or take the lesson again."
)
LEFT = N_(
    "📌 Lesson paused at step {number} of {count}. `/{command}` takes you back here,"
    " also after a restart of the bot."
)
NEXT_LABEL = N_("Next step")
AGAIN_LABEL = N_("Start this step again")
LEAVE_LABEL = N_("Leave the lesson")
RESTART_LABEL = N_("Take the lesson again")
PRACTICE_LABEL = N_("Practice game against the easy computer")


class Lessons:
    """Every member's lessons, for every game that has one."""

    def __init__(
        self, book: LessonBook, cogs: GameCogs, renderer: RenderPool, lobby: Lobby
    ) -> None:
        self.book = book
        self.cogs = cogs
        self.renderer = renderer
        self.lobby = lobby
        self._shown: OrderedDict[int, tuple[Interaction, int]] = OrderedDict()
        """Each member's lesson message and the interaction that may delete it."""

    # ---- beginning and resuming ----------------------------------------------------------

    async def start(self, interaction: Interaction, kind: str) -> None:
        """Show the member's lesson of ``kind`` in a new private message: where he left
        it, or its first step."""
        lesson = lesson_of(kind) if kind in GAMES else None
        if lesson is None:
            # Only a game with a lesson has `/<game> learn` and the Learn button.
            await tell(interaction, UNRECOGNISED)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.book.get(interaction.user.id, kind)
        note = None
        if progress is None or progress.step >= len(lesson.steps):
            progress = await self.book.save(
                progress.at(0) if progress else LessonProgress(interaction.user.id, kind)
            )
        elif progress.step or progress.moves:
            note = t(private_language(interaction), WELCOME_BACK)
        await self._show(interaction, progress, note)

    # ---- clicks ---------------------------------------------------------------------------

    async def on_component(
        self, interaction: Interaction, target: Target, values: list[str]
    ) -> None:
        """A click on a lesson's control: the Learn button, the lesson's own buttons, or
        the game's controls (handed to the game's cog)."""
        if target.verb == LEARN:
            await self.start(interaction, target.arg)
            return
        progress = await self.book.at_version(interaction.user.id, target.version)
        lesson = lesson_of(progress.kind) if progress is not None else None
        if progress is None or lesson is None or progress.step >= len(lesson.steps):
            await tell(interaction, MENU_OUTDATED)
            return
        if target.verb in LESSON_VERBS:
            await self._navigate(interaction, target.verb, progress, lesson)
            return
        step = lesson.steps[progress.step]
        state = lesson.state_at(progress.step, progress.moves)
        if progress.solved or state.current_player != step.seat:
            await tell(interaction, MENU_OUTDATED)
            return
        language = private_language(interaction)
        table = lesson_table(interaction, progress, lesson, language)
        turn = Turn(interaction, table, state, step.seat, target, values)
        await self.cogs[progress.kind].on_turn_component(turn)

    async def _navigate(
        self, interaction: Interaction, verb: str, progress: LessonProgress, lesson: Lesson[Any]
    ) -> None:
        finished = progress.solved and progress.step == len(lesson.steps) - 1
        if verb == PRACTICE and finished:
            await self._practice(interaction, progress.kind, lesson)
            return
        if verb == LEAVE:
            await interaction.response.defer()
            await self._leave(interaction, progress, lesson)
            return
        if verb == NEXT and progress.solved and not finished:
            moved = progress.at(progress.step + 1)
        elif verb == AGAIN and progress.moves and not progress.solved:
            moved = progress.at(progress.step)
        elif verb == RESTART and finished:
            moved = progress.at(0)
        else:
            await tell(interaction, MENU_OUTDATED)
            return
        await interaction.response.defer()
        await self._show(interaction, await self.book.save(moved))

    async def _leave(
        self, interaction: Interaction, progress: LessonProgress, lesson: Lesson[Any]
    ) -> None:
        """The lesson message says where the lesson rests; its progress is saved already."""
        language = private_language(interaction)
        command = f"{progress.kind} {tp(language, COMMAND_NAME, LEARN)}"
        note = t(language, LEFT, number=progress.step + 1, count=len(lesson.steps), command=command)
        await interaction.edit_original_response(
            content=note, attachments=[], view=None, embed=None
        )
        self._shown.pop(interaction.user.id, None)

    async def _practice(self, interaction: Interaction, kind: str, lesson: Lesson[Any]) -> None:
        """An unrated table against the easy computer, opened like `/<game> new`."""
        spec = GAMES[kind]
        options = {option.name: option.default for option in spec.options}
        options.update(lesson.practice_options)
        await self.lobby.open(
            interaction,
            kind,
            options=options,
            computers=spec.max_players - 1,
            level=PRACTICE_LEVEL,
            practice=True,
        )

    # ---- the learner's moves ------------------------------------------------------------

    async def play(self, turn: Turn[Any], actions: Sequence[str]) -> None:
        """Actions picked with the game's controls on a lesson's table: judge them, save
        the lesson and show it again in the message they were picked in."""
        interaction = turn.interaction
        progress = await self.book.at_version(interaction.user.id, turn.table.version)
        lesson = lesson_of(progress.kind) if progress is not None else None
        if progress is None or lesson is None or progress.solved:
            await tell(interaction, MENU_OUTDATED)
            return
        cog = self.cogs[progress.kind]
        try:
            outcome = await asyncio.to_thread(
                lesson.attempt, progress.step, progress.moves, actions, cog.automatic_action
            )
        except IllegalAction as illegal:
            await tell(interaction, illegal.message, **illegal.params)
            return
        if not interaction.response.is_done():
            await interaction.response.defer()
        solved = outcome.verdict is not None and outcome.verdict.solved
        saved = await self.book.save(progress.at(progress.step, outcome.moves, solved=solved))
        note = verdict_line(private_language(interaction), outcome.verdict)
        await self._show(interaction, saved, note)

    # ---- the lesson message -------------------------------------------------------------

    async def _show(
        self, interaction: Interaction, progress: LessonProgress, note: str | None = None
    ) -> None:
        """Draw the lesson into the interaction's message, and delete the member's
        previous lesson message if it was another one."""
        language = private_language(interaction)
        lesson = lesson_of(progress.kind)
        assert lesson is not None
        content, picture, items = await self._compose(interaction, progress, lesson, language)
        if note:
            content = f"{content}\n{note}"
        message = await interaction.edit_original_response(
            content=content, attachments=[picture], view=view_of(items), embed=None
        )
        await self._replace(interaction, message.id)

    async def _compose(
        self,
        interaction: Interaction,
        progress: LessonProgress,
        lesson: Lesson[Any],
        language: str,
    ) -> tuple[str, discord.File, list[discord.ui.Item[Any]]]:
        """The text, the picture and the controls of the lesson's message."""
        cog = self.cogs[progress.kind]
        step = lesson.steps[progress.step]
        state: GameState = lesson.state_at(progress.step, progress.moves)
        table = lesson_table(interaction, progress, lesson, language)
        lines = [
            t(
                language,
                HEADER,
                game=cog.spec.title,
                number=progress.step + 1,
                count=len(lesson.steps),
                title=t(language, step.title),
            ),
            t(language, step.teaching),
            t(language, TASK, task=step.task(language)),
        ]
        sections = dict.fromkeys(rule.section for rule in step.rules if rule.section != HOW_TO_PLAY)
        if sections:
            shown = " · ".join(f"*{t(language, section)}*" for section in sections)
            lines.append(t(language, RULE_BOOK, sections=shown))
        target = Target(LESSON_TABLE, progress.version, NEXT)
        finished = progress.solved and progress.step == len(lesson.steps) - 1
        acting = not progress.solved and state.current_player == step.seat
        items: list[discord.ui.Item[Any]]
        if acting and cog.spec.hidden_information:
            # The learner plays from his hand, as from his DM at a table.
            private = await asyncio.to_thread(
                cog.private_payload, table, state, step.seat, language
            )
            lines.append(private.get("content", ""))
            view = private.get("view")
            items = list(view.children) if view is not None else []
        else:
            private = {}
            items = cog.turn_controls(table, state) if acting else []
            if acting:
                lines.append(cog.status_text(table, state))
        picture = private.get("file") or await self._board(table, state)
        items = [item for item in items if not _whole_game(item)]
        if finished:
            lines.append(t(language, FINISHED, game=cog.spec.title))
            items = [
                button(
                    target.but(PRACTICE), t(language, PRACTICE_LABEL), discord.ButtonStyle.success
                ),
                button(target.but(RESTART), t(language, RESTART_LABEL)),
            ]
        elif progress.solved:
            items = [button(target, t(language, NEXT_LABEL), discord.ButtonStyle.success)]
        elif progress.moves:
            items.append(button(target.but(AGAIN), t(language, AGAIN_LABEL)))
        if not finished:
            items.append(button(target.but(LEAVE), t(language, LEAVE_LABEL)))
        return "\n".join(line for line in lines if line), picture, items

    async def _board(self, table: Table, state: GameState) -> discord.File:
        """The position as the game's board picture shows it."""
        png = await self.renderer.render(self.cogs[table.kind].render_job(table, state, None))
        return discord.File(io.BytesIO(png), filename=f"{table.kind}-lesson.png")

    async def _replace(self, interaction: Interaction, message_id: int) -> None:
        """Remember the member's lesson message; delete the one it replaces."""
        user = interaction.user.id
        previous = self._shown.pop(user, None)
        self._shown[user] = (interaction, message_id)
        now = discord.utils.utcnow()
        while self._shown:
            oldest = next(iter(self._shown.values()))[0]
            if now - oldest.created_at < EDITABLE_FOR:
                break
            self._shown.popitem(last=False)
        if previous is None or previous[1] == message_id:
            return
        try:
            await previous[0].delete_original_response()
        except discord.HTTPException as failure:
            log.info("could not delete an earlier lesson message: %s", failure)


def lesson_table(
    interaction: Interaction, progress: LessonProgress, lesson: Lesson[Any], language: str
) -> Table:
    """The table a lesson's step is drawn and played on, in memory only: the learner in
    his seat, the lesson's other players in theirs."""
    step = lesson.steps[progress.step]
    others = iter(PLAYERS)
    seats = [
        Seat(interaction.user.display_name, interaction.user.id)
        if seat == step.seat
        else Seat(next(others))
        for seat in range(lesson.players)
    ]
    return Table(
        id=LESSON_TABLE,
        kind=progress.kind,
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        creator_id=interaction.user.id,
        status="active",
        seats=seats,
        options={},
        seed=0,
        state=None,
        version=progress.version,
        board_message_id=None,
        created_at=0.0,
        updated_at=0.0,
        extra={"language": language},
    )


def verdict_line(language: str, verdict: Verdict | None) -> str | None:
    """The judge's sentence: solved, or what was wrong and that the step starts over."""
    if verdict is None:
        return None
    sentence = verdict.said(language)
    return t(language, SOLVED if verdict.solved else TRY_AGAIN, verdict=sentence)


def button(
    target: Target, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> TableButton:
    return TableButton(target, label=label, style=style, row=NAVIGATION_ROW)


def _whole_game(item: discord.ui.Item[Any]) -> bool:
    return isinstance(item, TableButton | TableSelect) and item.target.verb in WHOLE_GAME_VERBS
