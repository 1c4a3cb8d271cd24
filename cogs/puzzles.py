"""``/<game> puzzle``: a position from a real game where a blunder was played, to find the
best move in, privately.

A member's puzzle is the oldest blunder of this server's reviewed games of that game he
has not answered yet (in a channel he may read); without any, a blunder of the easy
computer in a game against the normal one, played and judged on the fly off the event
loop (the n-th such game for his n-th such puzzle, so everyone meets the same ones).
``/<game> puzzle`` shows it; ``/<game> puzzle move:…`` answers it, in the notation of
``/<game> move``: any move that loses less than the game's inaccuracy threshold against
the best one found solves it. The answer says what the game's player did and what it
cost; only the first answer to a puzzle counts (``data/reviews.py``).

In a game with hidden information (Barbu) the picture is what the deciding seat saw: the
table and that seat's own hand, never another's. A puzzle is shown only to the member who
asked, and only from a game that has ended, so the hand gives nothing away.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction
from cogs.language import private_language, public_command
from cogs.privacy import may_read
from cogs.replies import NO_MENTIONS, tell
from cogs.review_pool import ReviewPool, engine_version
from cogs.reviews import as_typed, game_cog
from cogs.table.computers import COMPUTER_NAMES
from cogs.table.records import facts_of, logged_actions
from cogs.worker import replay_work
from data import Store
from data.reviews import ReviewBook
from games import GAMES, IllegalAction
from games.base import GameState, Step
from games.proof import GameFacts, walk
from games.review import has_review, reviewer
from games.review.model import Judgement, Review
from render.replay import replay_picture, seat_picture
from render.toolkit.png import encode_png
from render.toolkit.text import clean_name
from texts.i18n import N_, command_name, t
from texts.reviews import amount, notation

COMPUTER_PUZZLE_TRIES = 4
"""Computer games tried for a blunder before giving up (easy blunders in most)."""
COMPUTER_ACTIONS = 2000
"""The longest computer game played for a puzzle."""
ACTIONS_BETWEEN_LOOKS = 40
"""Actions the computers play between two looks for the easy one's blunder: a game is
played only as far as its first blunder (a whole Barbu game is half a minute of play)."""
PUZZLE_FILE = "puzzle.png"


@dataclass(frozen=True)
class Puzzle:
    """A position to solve: where it comes from, the game up to it and the blunder."""

    key: str
    """``game:<id>:<move>`` or ``computer:<seed>:<move>``."""
    facts: GameFacts
    actions: tuple[tuple[int | None, str], ...]
    judgement: Judgement


class PuzzlesCog(commands.Cog):
    """``/<game> puzzle`` in each game's group whose game has a review."""

    def __init__(self, bot: Host, store: Store, pool: ReviewPool) -> None:
        self.bot = bot
        self.store = store
        self.pool = pool
        self.book = ReviewBook(store)
        self._added: list[app_commands.Group] = []

    async def cog_load(self) -> None:
        for kind in GAMES:
            group = self.bot.tree.get_command(kind)
            if not has_review(kind):
                continue
            assert isinstance(group, app_commands.Group), f"/{kind} is a command group"
            group.add_command(self._command(kind))
            self._added.append(group)

    async def cog_unload(self) -> None:
        for group in self._added:
            group.remove_command("puzzle")

    def _command(self, kind: str) -> app_commands.Command[Any, Any, None]:
        @app_commands.command(
            name=command_name("puzzle"),
            description=N_("Find the best move where a player blundered, privately"),
        )
        @app_commands.rename(move=command_name("move"))
        @app_commands.describe(move=N_("Your answer, in the notation of the game's move"))
        async def puzzle(interaction: Interaction, move: str | None = None) -> None:
            await self.puzzle(interaction, kind, move)

        return puzzle

    # ---- finding the puzzle ------------------------------------------------------------

    async def _puzzle(self, interaction: Interaction, kind: str) -> Puzzle | None:
        guild = interaction.guild_id or 0
        answered = await self.book.answered(interaction.user.id, guild)
        for stored in reversed(await self.book.reviewed_in(guild, kind, engine_version(kind))):
            review = Review.from_json(stored.review)
            blunders = [
                j
                for j in review.judgements
                if j.mark == "blunder" and f"game:{stored.game_id}:{j.index}" not in answered
            ]
            if not blunders:
                continue
            table = await self.store.load(stored.game_id)
            if table is None or not await may_read(interaction, table.channel_id):
                continue
            actions = tuple(await logged_actions(self.store, table.id))
            judgement = blunders[0]
            key = f"game:{table.id}:{judgement.index}"
            return Puzzle(key, facts_of(table), actions, judgement)
        done = sum(1 for key in answered if key.startswith(f"computer:{kind}:"))
        for attempt in range(COMPUTER_PUZZLE_TRIES):
            seed = done * COMPUTER_PUZZLE_TRIES + attempt + 1
            found = await self.pool.run(computer_puzzle, kind, seed)
            if found is not None and found.key not in answered:
                return found
        return None

    # ---- the command -------------------------------------------------------------------

    async def puzzle(self, interaction: Interaction, kind: str, move: str | None) -> None:
        language = private_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._puzzle(interaction, kind)
        if found is None:
            await interaction.followup.send(
                t(
                    language,
                    "No puzzle is left for you: review more games with {command}.",
                    command=public_command(language, "game review"),
                ),
                ephemeral=True,
            )
            return
        if move is None:
            picture = await replay_work(_draw_puzzle, found, language)
            mover = found.facts.seats[found.judgement.seat]
            await interaction.followup.send(
                t(
                    language,
                    "🧩 Find the best move for {name} (move {number}). Answer with {command}.",
                    name=mover,
                    number=found.judgement.index,
                    command=public_command(language, f"{kind} puzzle", move="…"),
                ),
                file=discord.File(io.BytesIO(picture), filename=PUZZLE_FILE),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
            return
        cog = game_cog(self.bot, kind)
        try:
            position = await self.pool.run(position_of, found)
            actions = [
                action for word in move.split() for action in cog.notation_actions(position, word)
            ]
            answer = as_typed(cog, await self.pool.run(judge_answer, found, actions))
        except IllegalAction as problem:
            await tell(interaction, t(language, problem.message, **problem.params))
            return
        played = as_typed(cog, found.judgement)
        unit = reviewer(kind).unit
        solved = answer.loss < reviewer(kind).thresholds.inaccuracy
        await self.book.answer_puzzle(
            interaction.user.id, interaction.guild_id or 0, kind, found.key, solved=solved
        )
        verdict = (
            t(language, "✅ Solved: {answer} is as good as the best move found, {best}.",
              answer=notation(answer.played), best=notation(answer.best))
            if solved
            else t(
                language,
                "❌ Not quite: {answer} loses {loss} against the best move found, {best}.",
                answer=notation(answer.played),
                loss=amount(language, unit, answer.loss),
                best=notation(answer.best),
            )
        )  # fmt: skip
        in_the_game = t(
            language,
            "In the game, {name} played {played} and lost {loss}.",
            name=found.facts.seats[found.judgement.seat],
            played=notation(played.played),
            loss=amount(language, unit, found.judgement.loss),
        )
        await interaction.followup.send(
            f"{verdict}\n{in_the_game}", ephemeral=True, allowed_mentions=NO_MENTIONS
        )


def _steps(facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> list[Step]:
    return [item for item in walk(facts, actions) if isinstance(item, Step)]


def computer_puzzle(kind: str, seed: int) -> Puzzle | None:
    """The easy computer's first blunder in game ``seed`` against normal computers (seat 0
    easy, as few seats as the game takes), or None if it made none."""
    spec = GAMES[kind]
    players = max(2, spec.min_players)
    state: GameState = spec.new_game(players=players, seed=seed)
    actions: list[tuple[int | None, str]] = []
    facts = GameFacts(
        kind=kind, game_id=0, guild_id=0, channel_id=0, seed=seed, options={},
        seats=list(COMPUTER_NAMES[:players]), status="finished", final=None,
    )  # fmt: skip
    judge = reviewer(kind)
    looked_at = 0
    while True:
        played_out = state.is_over or len(actions) >= COMPUTER_ACTIONS
        if played_out or (actions and len(actions) % ACTIONS_BETWEEN_LOOKS == 0):
            points = judge.decisions(facts, _steps(facts, actions))
            # The last decision may still be going on (a Gul Bara roll's further moves).
            whole = points if played_out else points[:-1]
            for point in whole[looked_at:]:
                if point.seat != 0:
                    continue
                judgement = judge.judge(facts, point)
                if judgement.mark == "blunder":
                    key = f"computer:{kind}:{seed}:{judgement.index}"
                    return Puzzle(key, facts, tuple(actions), judgement)
            looked_at = len(whole)
        if played_out:
            return None
        seat = state.current_player
        assert seat is not None
        level = "easy" if seat == 0 else "normal"
        action = spec.bot_action(state, seed=len(actions), level=level)
        actions.append((seat, action))
        state = state.apply(action)


def judge_answer(puzzle: Puzzle, answer: Sequence[str]) -> Judgement:
    """The answer (the game's actions) judged as the game's decision would be: played from
    the puzzle's position (IllegalAction for one the rules refuse, or one that does not
    make a whole decision)."""
    index = puzzle.judgement.index
    seat = puzzle.judgement.seat
    before = list(puzzle.actions[: index - 1])
    tried: list[tuple[int | None, str]] = [(seat, action) for action in answer]
    if not tried:
        raise IllegalAction(N_("Give your move, in the notation of the game's move command."))
    facts = dataclasses.replace(puzzle.facts, final=None)
    judge = reviewer(facts.kind)
    points = [p for p in judge.decisions(facts, _steps(facts, before + tried)) if p.index == index]
    if not points or len(points[0].steps) != len(tried):
        raise IllegalAction(N_("That is not a whole move for this position."))
    return judge.judge(facts, points[0])


def position_of(puzzle: Puzzle) -> GameState:
    """The position the puzzle's decision was made in."""
    before = list(puzzle.actions[: puzzle.judgement.index - 1])
    steps = _steps(dataclasses.replace(puzzle.facts, final=None), before)
    if steps:
        return steps[-1].after
    facts = puzzle.facts
    start: GameState = GAMES[facts.kind].new_game(
        players=len(facts.seats), seed=facts.seed, **facts.options
    )
    return start


def _draw_puzzle(puzzle: Puzzle, language: str) -> bytes:
    """The position as the board showed it, or in a game with hidden information as the
    deciding seat saw it (its own hand too)."""
    seat = puzzle.judgement.seat
    caption = clean_name(
        t(language, "Find the best move for {name}", name=puzzle.facts.seats[seat])
    )
    kind = puzzle.facts.kind
    position = position_of(puzzle)
    if GAMES[kind].hidden_information:
        image = seat_picture(kind)(position.view(seat), puzzle.facts.seats, caption, language)
    else:
        image = replay_picture(kind)(position.view(None), puzzle.facts.seats, caption, language)
    return encode_png(image.convert("RGB"))
