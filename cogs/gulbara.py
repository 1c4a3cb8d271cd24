"""Gul Bara in Discord: a select of the points to move from, die buttons, Undo.

A turn is several single steps by the same seat, each one a ``tables.play`` that saves
and redraws the board. The board carries the point select (every point a checker can
legally leave) with Undo and Resign; picking a point whose checker has a single legal
step plays it at once (with the ``autoplay`` option, on by default), otherwise a private
panel offers one button per legal die, showing where the checker would land. With
``autoplay`` a step that is the only legal one plays itself, at the start of a turn too.
In a match the channel gets the score after each game that does not end the match.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.clocks import CLOCK_HELP, CLOCK_OPTIONS
from cogs.components import TableButton, TableSelect, Target, view_of
from cogs.computers import Level
from cogs.render_pool import RenderJob
from cogs.table import GameCog, Turn, quoted
from data import Table
from games import DEFAULT_LEVEL, GAMES, GameState
from games.base import whole_number
from games.gulbara import MAX_MATCH, UNDO, GulbaraState, split_steps, to_seat0
from render.gulbara import board_steps, chain_text, render_gulbara

POINT_PLACEHOLDER = "Move a checker from point…"
NOTHING_TO_UNDO = "There is no step of this turn you can take back."
ONLY_FORCED = "Every step of this turn so far was forced: there is nothing to take back."

RULES = """\
**Goal.** Bear off all 15 of your checkers first. 1 point for the win, 2 if your opponent \
has borne off none. A match goes to the points chosen with `match_to`.
**Board.** Everyone numbers the points 24→1 in his own direction: all 15 checkers start \
on your 24, you move towards your home (points 1–6) and bear off below 1. Both players \
travel the same way round; the opponent's 24 is your 12.
**Moving.** Each die is a step of one checker; a double is played four times. Play as \
many dice as you can; if only one of two dice can be played, it must be the higher one.
**No hitting.** A point with even one checker belongs to its owner: the other player may \
not land on it.
**Head rule.** Until your first checker reaches your points 12–7, it is the only one you \
may move.
**No prime.** You may not hold six points in a row in front of the opponent unless one \
of his checkers is already past them.
**Escalating doubles.** After playing `n-n` four times you go on with `(n+1)-(n+1)`, up \
to 6-6, until a double cannot be played in full. Each player's first three rolls are \
exempt: their doubles are played four times and that is all.
**Bearing off.** Once all your checkers are home: a die equal to a checker's point bears \
it off; a higher die bears off from your highest point.
**Playing here.** Pick a point in the board's menu, then the die. Forced steps play \
themselves (option `autoplay`). **Undo** takes back this turn's last choice.
**Notation for `/gulbara move`.** Steps in your numbering: `24/18 18/13`, `24/18/13`, \
`6/off`, `8/5(2)` for two checkers, or `undo`.
**Full rules:** `docs/rules/gulbara.md` in the bot's repository.\
"""


def undo_actions(state: GulbaraState) -> list[str] | None:
    """The ``undo`` actions that take back the player's last choice, or None if none.

    With autoplay a step that was the only legal one would play itself again, so Undo
    also takes back the forced steps before the choice and stops where the player had
    one. A turn whose steps were all forced has nothing to take back.
    """
    actions: list[str] = []
    while state.can_undo:
        state = state.apply(UNDO)
        actions.append(UNDO)
        if not state.autoplay or state.forced_step() is None:
            return actions
    return None


def forced_note(state: GulbaraState, action: str) -> str:
    """The steps of this turn that will play themselves after the legal ``action``."""
    if not state.autoplay:
        return ""
    after = state.apply(action)
    forced: list[str] = []
    while after.current_player == state.current_player and (step := after.forced_step()):
        forced.append(step)
        after = after.apply(step)
    return f" Then forced: {' '.join(forced)}." if forced else ""


def die_label(choice: dict[str, Any]) -> str:
    landing = "bear off" if choice["to"] == "off" else choice["to"]
    return f"{choice['die']} → {landing}"


def dice_text(dice: list[int]) -> str:
    return ", ".join(str(die) for die in dice) or "none"


class GulbaraCog(GameCog, name="GulBara"):
    spec = GAMES["gulbara"]
    colour = discord.Colour.from_rgb(176, 120, 48)

    group = app_commands.Group(
        name="gulbara", description="Gul Bara: Bulgarian backgammon with escalating doubles"
    )

    # ---- the board ---------------------------------------------------------------------

    def render_job(self, table: Table, state: Any, headline: str | None) -> RenderJob:
        arguments = (state.view(None), table.names, headline, board_seat(table))
        return RenderJob(render_gulbara, arguments)

    def automatic_action(self, state: GameState) -> str | None:
        assert isinstance(state, GulbaraState)
        return state.forced_step() if state.autoplay else None

    def turn_controls(self, table: Table, state: Any) -> list[discord.ui.Item[Any]]:
        target = Target(table.id, table.version, "from")
        items: list[discord.ui.Item[Any]] = []
        points = state.movable_points()
        if points:
            options = [point_option(state, point) for point in points]
            items.append(TableSelect(target, options=options, placeholder=POINT_PLACEHOLDER, row=0))
        items.append(
            TableButton(
                target.but("undo"),
                label="Undo",
                emoji="↩️",
                disabled=undo_actions(state) is None,
                row=1,
            )
        )
        items.append(
            TableButton(
                target.but("resign"), label="Resign", style=discord.ButtonStyle.danger, row=1
            )
        )
        return items

    def status_text(self, table: Table, state: Any) -> str:
        view = state.view(None)
        names = table.names
        lines = []
        if view["recent_turns"]:
            lines.append(last_turn_sentence(view["recent_turns"][-1], names, board_seat(table)))
        mover = names[view["turn"]]
        roll = "-".join(str(die) for die in view["roll"])
        lines.append(
            f"**{mover}** to move: rolled {roll}, dice left {dice_text(view['dice'])}. "
            "Pick a point, then a die."
        )
        chain = chain_text(view)
        if chain:
            lines.append(f"Escalating doubles: {chain}.")
        if view["played"]:
            played = board_steps(view["played"], view["turn"], board_seat(table))
            lines.append(f"This turn: {played}.")
        if view["match_to"] > 1:
            lines.append(match_line(view, names))
        return "\n".join(lines)

    def result_text(self, table: Table, state: Any) -> str:
        view = state.view(None)
        names = table.names
        last = view["last_game"]
        if not view["over"] or last is None:
            return "The game ended before it was decided."
        game = game_sentence(last, names)
        if view["match_to"] <= 1:
            return game
        winner = view["winner"]
        score = f"{view['score'][winner]}–{view['score'][1 - winner]}"
        return f"**{names[winner]}** wins the match {score}. Last game: {game}"

    def rules_embed(self) -> discord.Embed:
        return discord.Embed(
            title="Gul Bara: the rules in short", description=RULES, colour=self.colour
        )

    # ---- clicks ------------------------------------------------------------------------

    async def on_turn_component(self, turn: Turn) -> None:
        verb = turn.target.verb
        if verb == "from" and len(turn.values) == 1:
            await self._picked_point(turn, turn.values[0])
        elif verb == "step":
            await self._step(turn, turn.target.arg)
        elif verb == "undo":
            await self._undo(turn)
        else:
            await turn.interaction.response.send_message("Unknown control.", ephemeral=True)

    async def _picked_point(self, turn: Turn, value: str) -> None:
        state: GulbaraState = turn.state  # type: ignore[assignment]
        point = whole_number(value, max_digits=2)
        choices = state.step_choices(point) if point is not None else []
        if not choices:
            await turn.interaction.response.send_message(
                f"No checker can legally leave point {quoted(value)} now.", ephemeral=True
            )
            return
        if len(choices) == 1 and state.autoplay:
            await self.tables.play(turn, [choices[0]["action"]])
            return
        target = turn.target.but("step")
        buttons: list[discord.ui.Item[Any]] = [
            TableButton(
                target.but("step", choice["action"]),
                label=die_label(choice),
                emoji="🎲",
                style=discord.ButtonStyle.primary,
            )
            for choice in choices
        ]
        await turn.interaction.response.send_message(
            f"Checker on point **{value}**: which die? Dice left: {dice_text(list(state.dice))}.",
            view=view_of(buttons),
            ephemeral=True,
        )

    async def _step(self, turn: Turn, action: str) -> None:
        state: GulbaraState = turn.state  # type: ignore[assignment]
        source = whole_number(action.partition("/")[0], max_digits=2)
        choices = state.step_choices(source) if source is not None else []
        dice = [choice["die"] for choice in choices if choice["action"] == action]
        done = f"✅ Played {action} ({dice[0]}).{forced_note(state, action)}" if dice else None
        await self.tables.play(turn, [action], done=done)

    async def _undo(self, turn: Turn) -> None:
        state: GulbaraState = turn.state  # type: ignore[assignment]
        actions = undo_actions(state)
        if actions is None:
            await turn.interaction.response.send_message(
                ONLY_FORCED if state.can_undo else NOTHING_TO_UNDO, ephemeral=True
            )
            return
        await self.tables.play(turn, actions)

    # ---- games of a match --------------------------------------------------------------

    async def after_play(self, turn: Turn, table: Table, after: Any, done: str | None) -> None:
        """Tell the channel the score after a game that did not end the match."""
        before: GulbaraState = turn.state  # type: ignore[assignment]
        state: GulbaraState = after
        last = state.last_game
        if state.over or last is None or state.match_to <= 1:
            return
        if last["game_number"] < before.game_number:
            return
        view = state.view(None)
        names = table.names
        opener = names[state.turn]
        opening = "-".join(str(die) for die in view["roll"])
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(
            f"🎲 Gul Bara game #{table.id}: game {last['game_number']} is over. "
            f"{game_sentence(last, names)}\n{match_line(view, names)}\n"
            f"Game {state.game_number} begins: {opener} opens with {opening}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ---- slash commands ----------------------------------------------------------------

    @group.command(name="new", description="Open a Gul Bara table in this channel")
    @app_commands.describe(
        opponent="Invite one player (only they can take the seat)",
        computer="Play against the computer right away, at this level",
        match_to="Points needed to win the match (1 = a single game)",
        autoplay="Forced steps play themselves (default: on)",
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCK_OPTIONS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        computer: Level | None = None,
        match_to: app_commands.Range[int, 1, MAX_MATCH] = 1,
        autoplay: bool = True,
        clock: app_commands.Choice[int] | None = None,
    ) -> None:
        await self.tables.open_lobby(
            interaction,
            "gulbara",
            options={"match_to": match_to, "autoplay": autoplay},
            invited=None if computer else opponent,
            computers=1 if computer else 0,
            level=computer or DEFAULT_LEVEL,
            clock=clock.value if clock else None,
        )

    @group.command(name="rules", description="How to play Gul Bara")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=self.rules_embed(), ephemeral=True)

    @group.command(name="move", description="Play steps in notation, e.g. 24/18 18/13")
    @app_commands.describe(steps="Steps in your numbering: 24/18 18/13, 24/18/13, 6/off, or undo")
    async def move(self, interaction: discord.Interaction[Any], steps: str) -> None:
        table = await self.tables.store.open_table_in(interaction.channel_id or 0)
        before = self._state_to_move(table, interaction.user.id)
        actions = split_steps(steps)
        if before is not None and actions == [UNDO] and before.can_undo:
            undo = undo_actions(before)
            if undo is None:
                await interaction.response.send_message(ONLY_FORCED, ephemeral=True)
                return
            actions = undo
        await self.tables.text_move(interaction, "gulbara", actions)

    def _state_to_move(self, table: Table | None, user_id: int) -> GulbaraState | None:
        """The running Gul Bara state of ``table`` if ``user_id`` is the seat to move."""
        if table is None or table.kind != "gulbara" or table.state is None:
            return None
        if table.status != "active":
            return None
        state: GulbaraState = self.spec.from_dict(table.state)  # type: ignore[assignment]
        if state.current_player is None or state.current_player != table.seat_of(user_id):
            return None
        return state


def point_option(state: GulbaraState, point: int) -> discord.SelectOption:
    choices = state.step_choices(point)
    checkers = checkers_on(state, point)
    return discord.SelectOption(
        label=f"Point {point} ({checkers} checker{'s' if checkers != 1 else ''})",
        value=str(point),
        description=" · ".join(die_label(choice) for choice in choices),
    )


def checkers_on(state: GulbaraState, point: int) -> int:
    """The mover's checkers on his ``point``."""
    return abs(state.board[to_seat0(point, state.turn) - 1])


def board_seat(table: Table) -> int:
    """The seat whose numbering the board shows all game long: the first human's."""
    humans = [seat for seat, taken in enumerate(table.seats) if not taken.is_computer]
    return humans[0] if humans else 0


def last_turn_sentence(turn: dict[str, Any], names: list[str], viewer: int = 0) -> str:
    """One turn in the numbering of the board drawn from ``viewer``'s side."""
    name = names[turn["seat"]]
    roll = "-".join(str(die) for die in turn["roll"])
    if turn["passed"]:
        return f"{name} rolled {roll} and could not move."
    stages = turn["stages"]
    escalated = ""
    if len(stages) > 1:
        escalated = " (escalated " + " → ".join(f"{die}-{die}" for die in stages) + ")"
    return f"{name} rolled {roll}{escalated}: {board_steps(turn['steps'], turn['seat'], viewer)}"


def game_sentence(last_game: dict[str, int], names: list[str]) -> str:
    winner, points = last_game["winner"], last_game["points"]
    sentence = f"**{names[winner]}** wins {points} point{'s' if points != 1 else ''}"
    if points == 2:
        sentence += f": {names[1 - winner]} bore off no checker"
    return sentence + "."


def match_line(view: dict[str, Any], names: list[str]) -> str:
    score = view["score"]
    return (
        f"Match to {view['match_to']}: {names[0]} {score[0]}, {names[1]} {score[1]} "
        f"(game {view['game_number']})."
    )
