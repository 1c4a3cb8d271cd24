"""Gul Bara in Discord: a select of the points to move from, a private step panel, Undo.

A turn is several steps by the same seat, each click a ``tables.play`` that saves and
redraws the board. The board carries the point select (every point a checker can
legally leave) with Undo and Resign; picking a point whose checker has a single legal
step, and no "all" choice, plays it at once (with the ``autoplay`` option, on by
default), otherwise a private panel offers one button per legal step. In a double the
panel also offers "all": one checker taking every step of the die it can, from this
point and from every other point that can. After each click the panel is edited to show
the moved checker's next choices, so moving one checker again is one tap. Every step a
control names is written the same way, in the mover's own numbering (the one he types,
and a row of the board's numbers): ``24/18 (6)``, the step and its die. With
``autoplay`` a step that is the only legal one plays itself, at the start of a turn too.
In a match the channel gets the score after each game that does not end the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.language import private_language
from cogs.render_pool import RenderJob
from cogs.replies import NO_MENTIONS, quoted
from cogs.table.components import TableButton, TableSelect, Target, view_of
from cogs.table.game_cog import GameCog, Step, Turn, TurnLine, hint_seed
from cogs.table.payload import PrivateView, private_edit
from data import Table
from games import GAMES, IllegalAction
from games.base import whole_number
from games.gulbara import UNDO, GulbaraState, GulbaraTurn, split_steps, step_notation, to_seat0
from games.gulbara.hints import explain
from render.gulbara import render_gulbara
from texts import bold
from texts import gulbara as gulbara_text
from texts.gulbara import step_label, steps_text
from texts.i18n import N_, t

POINT_PLACEHOLDER = N_("Move a checker from point…")
PANEL_BUTTONS = 25
BUTTONS_PER_ROW = 5
NOTHING_TO_UNDO = N_("There is no step of this turn you can take back.")
ONLY_FORCED = N_("Every step of this turn so far was forced: there is nothing to take back.")


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


def forced_after(state: GulbaraState, action: str) -> list[str]:
    """The steps of this turn that will play themselves after the legal ``action``."""
    if not state.autoplay:
        return []
    after = state.apply(action)
    forced: list[str] = []
    while after.current_player == state.current_player and (step := after.forced_step()):
        forced.append(step)
        after = after.apply(step)
    return forced


def step_confirmation(language: str, state: GulbaraState, action: str, die: int) -> str:
    """The private note for a step, with the steps that then played themselves."""
    forced = forced_after(state, action)
    if forced:
        return t(
            language,
            gulbara_text.YOU_STEPPED_THEN_FORCED,
            step=action,
            die=die,
            forced=" ".join(forced),
        )
    return t(language, gulbara_text.YOU_STEPPED, step=action, die=die)


def repeated_steps(state: GulbaraState, point: int) -> list[str]:
    """In a double, the steps of one checker from ``point`` taking the stage's die as
    often as it legally can (the "all" choice); empty outside a double."""
    dice = state.dice
    if len(dice) < 2 or len(set(dice)) != 1:
        return []
    die, mover = dice[0], state.turn
    steps: list[str] = []
    while state.current_player == mover and state.dice and state.dice[0] == die:
        step = step_notation(point, die)
        if step not in (choice["action"] for choice in state.step_choices(point)):
            break
        steps.append(step)
        state = state.apply(step)
        point -= die
        if point <= 0:
            break
    return steps


def path_text(steps: Sequence[str]) -> str:
    """Steps of one checker as one path, e.g. ``24/20/16``."""
    return "/".join([steps[0].split("/")[0], *(step.split("/")[1] for step in steps)])


def path_confirmation(
    language: str, before_last: GulbaraState, steps: list[str], die: int
) -> str:
    """The private note for one checker moved several times with one die (the "all"
    choice), with the steps that then played themselves; ``before_last`` is the game
    before the path's last step."""
    path = path_text(steps)
    forced = forced_after(before_last, steps[-1])
    if forced:
        return t(
            language,
            gulbara_text.YOU_STEPPED_PATH_THEN_FORCED,
            path=path,
            times=len(steps),
            die=die,
            forced=" ".join(forced),
        )
    return t(language, gulbara_text.YOU_STEPPED_PATH, path=path, times=len(steps), die=die)


class GulbaraCog(
    GameCog[GulbaraState],
    name="GulBara",
    group_name="gulbara",
    group_description=N_("Gul Bara: Bulgarian backgammon with escalating doubles"),
):
    spec = GAMES["gulbara"]
    colour = discord.Colour.from_rgb(176, 120, 48)
    rules_text = gulbara_text.RULES
    move_help = N_("Play steps in notation, e.g. 24/18 18/13")
    notation_help = N_("Steps in your numbering: 24/18 18/13, 24/18/13, 6/off, or undo")

    # ---- the board ---------------------------------------------------------------------

    def render_job(self, table: Table, state: GulbaraState, headline: str | None) -> RenderJob:
        arguments = (state.view(None), table.names, headline, board_seat(table), table.language)
        return RenderJob(render_gulbara, arguments)

    def automatic_action(self, state: GulbaraState) -> str | None:
        return state.forced_step() if state.autoplay else None

    def notation_actions(self, state: GulbaraState, notation: str) -> list[str]:
        actions = split_steps(notation)
        if actions != [UNDO] or not state.can_undo:
            return actions
        undo = undo_actions(state)
        if undo is None:
            raise IllegalAction(ONLY_FORCED)
        return undo

    def turn_lines(self, table: Table, steps: Sequence[Step[GulbaraState]]) -> list[TurnLine]:
        """A line for every turn the steps finished: a turn of several steps (some
        clicked earlier), a turn that could not move, each autoplayed turn on its own."""
        viewer = board_seat(table)
        return [
            TurnLine(
                turn["seat"], gulbara_text.turn_sentence(table.language, turn, table.names, viewer)
            )
            for step in steps
            for turn in finished_turns(step.before, step.action, step.after)
        ]

    def turn_controls(self, table: Table, state: GulbaraState) -> list[discord.ui.Item[Any]]:
        language = table.language
        target = Target(table.id, table.version, "from")
        items: list[discord.ui.Item[Any]] = []
        points = state.movable_points()
        if points:
            options = [point_option(language, state, point) for point in points]
            placeholder = t(language, POINT_PLACEHOLDER)
            items.append(TableSelect(target, options=options, placeholder=placeholder, row=0))
        items.append(
            TableButton(
                target.but("undo"),
                label=t(language, "Undo"),
                emoji="↩️",
                disabled=undo_actions(state) is None,
                row=1,
            )
        )
        items.append(
            TableButton(
                target.but("resign"),
                label=t(language, "Resign"),
                style=discord.ButtonStyle.danger,
                row=1,
            )
        )
        return items

    def status_text(self, table: Table, state: GulbaraState) -> str:
        view, language = state.view(None), table.language
        names, viewer = table.names, board_seat(table)
        mover = view["turn"]
        assert mover is not None
        lines = [
            gulbara_text.last_turn(language, turn, names, viewer)
            for turn in view["recent_turns"][-1:]
        ]
        lines.append(
            t(
                language,
                gulbara_text.TO_MOVE,
                name=bold(names)[mover],
                roll=gulbara_text.dice_roll(view["roll"]),
                dice=gulbara_text.dice_left(language, view["dice"]),
            )
        )
        chain = gulbara_text.chain_text(view)
        if chain:
            lines.append(t(language, gulbara_text.ESCALATING, chain=chain))
        if view["played"]:
            steps = steps_text(language, view["played"], mover, viewer)
            lines.append(t(language, gulbara_text.THIS_TURN, steps=steps))
        if view["match_to"] > 1:
            lines.append(gulbara_text.match_standing(language, view, names))
        return "\n".join(lines)

    def result_text(self, table: Table, state: GulbaraState) -> str:
        view, language = state.view(None), table.language
        if not view["over"]:
            return t(language, gulbara_text.UNDECIDED)
        names = bold(table.names)
        sentence = gulbara_text.result(language, view, names)
        last = view["last_game"]
        if view["match_to"] <= 1 or last is None:
            return sentence
        last_result = gulbara_text.game_result(language, last, names)
        last_game = t(language, gulbara_text.LAST_GAME, result=last_result)
        return f"{sentence} {last_game}"

    def hint(self, table: Table, state: GulbaraState, language: str) -> str:
        advice = explain(state, lambda step: hint_seed(table, step))
        return gulbara_text.hint(language, advice)

    # ---- clicks ------------------------------------------------------------------------

    async def on_turn_component(self, turn: Turn[GulbaraState]) -> None:
        verb = turn.target.verb
        if verb == "from" and len(turn.values) == 1:
            await self._picked_point(turn, turn.values[0])
        elif verb == "step":
            await self._step(turn, turn.target.arg)
        elif verb == "steps":
            await self._steps(turn, turn.target.arg)
        elif verb == "undo":
            await self._undo(turn)
        else:
            await turn.interaction.response.send_message(
                t(private_language(turn.interaction), "Unknown control."), ephemeral=True
            )

    async def _picked_point(self, turn: Turn[GulbaraState], value: str) -> None:
        state = turn.state
        point = whole_number(value, max_digits=2)
        choices = state.step_choices(point) if point is not None else []
        language = private_language(turn.interaction)
        if point is None or not choices:
            await turn.interaction.response.send_message(
                t(language, "No checker can legally leave point {point} now.", point=quoted(value)),
                ephemeral=True,
            )
            return
        if len(choices) == 1 and state.autoplay and len(repeated_steps(state, point)) < 2:
            await self.tables.play(turn, [choices[0]["action"]])
            return
        panel = step_panel(language, turn.table, state, point)
        await turn.interaction.response.send_message(ephemeral=True, **panel)

    async def _step(self, turn: Turn[GulbaraState], action: str) -> None:
        state = turn.state
        source = whole_number(action.partition("/")[0], max_digits=2)
        choices = state.step_choices(source) if source is not None else []
        dice = [choice["die"] for choice in choices if choice["action"] == action]
        language = private_language(turn.interaction)
        done = step_confirmation(language, state, action, dice[0]) if dice else None
        await self.tables.play(turn, [action], done=done)

    async def _steps(self, turn: Turn[GulbaraState], path: str) -> None:
        """The "all" choice: one checker along ``path`` (``24/20/16``), one die each hop."""
        state = turn.state
        steps = split_steps(path)
        source = whole_number(path.partition("/")[0], max_digits=2)
        legal = source is not None and steps == repeated_steps(state, source)
        done = None
        if legal:
            after = state
            for step in steps[:-1]:
                after = after.apply(step)
            language = private_language(turn.interaction)
            done = path_confirmation(language, after, steps, state.dice[0])
        await self.tables.play(turn, steps, done=done)

    async def _undo(self, turn: Turn[GulbaraState]) -> None:
        state = turn.state
        actions = undo_actions(state)
        if actions is None:
            refusal = ONLY_FORCED if state.can_undo else NOTHING_TO_UNDO
            await turn.interaction.response.send_message(
                t(private_language(turn.interaction), refusal), ephemeral=True
            )
            return
        await self.tables.play(turn, actions)

    async def _follow_up(
        self, turn: Turn[GulbaraState], table: Table, state: GulbaraState, done: str | None
    ) -> None:
        """After a step from the panel, the panel shows what was done and, while the turn
        goes on, the moved checker's next choices (or the double's "all" choices)."""
        if done is None or table.status != "active" or state.current_player != turn.seat:
            return
        landing = whole_number(turn.target.arg.rpartition("/")[2], max_digits=2)
        point = landing if landing is not None and state.step_choices(landing) else None
        panel = step_panel(private_language(turn.interaction), table, state, point)
        if len(panel["view"].children) == 0:
            return
        panel["content"] = f"{done}\n{panel['content']}"
        await turn.interaction.edit_original_response(**private_edit(panel))

    # ---- games of a match --------------------------------------------------------------

    async def after_play(
        self, turn: Turn[GulbaraState], table: Table, after: GulbaraState, done: str | None
    ) -> None:
        """Offer the moved checker's next choices in the panel the click came from, and
        tell the channel the score after a game that did not end the match."""
        await self._follow_up(turn, table, after, done)
        before, state = turn.state, after
        last = state.last_game
        if state.over or last is None or state.match_to <= 1:
            return
        if last["game_number"] < before.game_number:
            return
        view, language = state.view(None), table.language
        names = table.names
        over = t(
            language,
            gulbara_text.GAME_OVER_IN_MATCH,
            table=table.id,
            number=last["game_number"],
            result=gulbara_text.game_result(language, last, bold(names)),
        )
        begins = t(
            language,
            gulbara_text.NEXT_GAME,
            number=state.game_number,
            opener=names[state.turn],
            roll=gulbara_text.dice_roll(view["roll"]),
        )
        standing = gulbara_text.match_standing(language, view, names)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(
            f"{over}\n{standing}\n{begins}",
            allowed_mentions=NO_MENTIONS,
        )


def finished_turns(before: GulbaraState, action: str, after: GulbaraState) -> list[GulbaraTurn]:
    """The turns ``action`` finished: the mover's, and any roll after it that could not move."""
    if after.game_number != before.game_number:
        # The game's last step: the new game cleared the turns the old one recorded.
        return [
            {
                "seat": before.turn,
                "roll": list(before.roll),
                "steps": [*before.played_steps(), action],
                "stages": list(before.stages),
                "passed": False,
            }
        ]
    started = sum(after.rolls) - sum(before.rolls)
    finished = started + 1 if after.over and not before.over else started
    return after.recent[len(after.recent) - finished :] if finished > 0 else []


def point_option(language: str, state: GulbaraState, point: int) -> discord.SelectOption:
    """A point of the board's select, in the mover's numbering, with its legal steps."""
    steps = (step_label(choice["action"], choice["die"]) for choice in state.step_choices(point))
    return discord.SelectOption(
        label=gulbara_text.point_label(language, point, checkers_on(state, point)),
        value=str(point),
        description=" · ".join(steps),
    )


def step_panel(
    language: str, table: Table, state: GulbaraState, point: int | None
) -> PrivateView:
    """The private panel of the checker on ``point``: a button per legal step, then in a
    double an "all" button for it and for every other point whose checker can take more
    than one step of the die. Without a checker (``point`` None): the "all" buttons,
    then every legal step."""
    target = Target(table.id, table.version, "step")
    choices: list[tuple[Target, str, str]] = []
    lines = []
    if point is not None and state.step_choices(point):
        lines.append(t(language, "Checker on point **{point}**: which step?", point=point))
        choices += step_choices(target, state, [point])
    sources = [point] if point is not None else []
    sources += [other for other in state.movable_points() if other != point]
    for source in sources:
        steps = repeated_steps(state, source)
        if len(steps) > 1:
            path = path_text(steps)
            die = state.dice[0]
            label = t(language, "All {times} × {die}: {path}", times=len(steps), die=die, path=path)
            choices.append((target.but("steps", path), label, "⏩"))
    if point is None:
        lines.append(t(language, "Choose the next step (or pick a point on the board)."))
        choices += step_choices(target, state, state.movable_points())
    lines.append(
        t(language, "Dice left: {dice}.", dice=gulbara_text.dice_left(language, state.dice))
    )
    buttons: list[discord.ui.Item[Any]] = [
        TableButton(
            choice_target,
            label=label,
            emoji=emoji,
            style=discord.ButtonStyle.primary,
            row=index // BUTTONS_PER_ROW,
        )
        for index, (choice_target, label, emoji) in enumerate(choices[:PANEL_BUTTONS])
    ]
    return {"content": "\n".join(lines), "view": view_of(buttons)}


def step_choices(
    target: Target, state: GulbaraState, points: Sequence[int]
) -> list[tuple[Target, str, str]]:
    """A panel button (target, label, emoji) for every legal step from ``points``."""
    return [
        (target.but("step", choice["action"]), step_label(choice["action"], choice["die"]), "🎲")
        for point in points
        for choice in state.step_choices(point)
    ]


def checkers_on(state: GulbaraState, point: int) -> int:
    """The mover's checkers on his ``point``."""
    return abs(state.board[to_seat0(point, state.turn) - 1])


def board_seat(table: Table) -> int:
    """The seat whose numbering the board shows all game long: the first human's."""
    humans = [seat for seat, taken in enumerate(table.seats) if not taken.is_computer]
    return humans[0] if humans else 0
