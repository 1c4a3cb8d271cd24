"""Barree in Discord: a Roll button, then a private picture of the walks' numbered end
fields, then the sendings.

A turn is up to three decisions by the same seat: ``roll`` (a button on the board), the
walk and, after landing on a piece, the sending (a select per piece landed on, or Keep).
The walk menu comes privately right after the roll (and again through the board's
"Choose a walk" button): a small picture of the board with every field a walk can end
on numbered, best first, and one button per number. A field reached by a single walk
worth taking plays it at once; otherwise the menu turns into a button per walk there,
so a walk is one or two taps. Barree hides nothing, so the
board needs no private view. Between the rounds of a match the channel gets a short
summary of the round's minus points.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Any

import discord

from cogs.host import Interaction
from cogs.language import private_language
from cogs.replies import NO_MENTIONS, quoted
from cogs.table.components import TableButton, TableSelect, Target, view_of
from cogs.table.game_cog import GameCog, Step, Turn, TurnLine, hint_seed
from cogs.table.payload import PrivateView, private_edit
from data import Table
from games import GAMES, IllegalAction
from games.barree import (
    KEEP,
    PHASE_DRIVE,
    PHASE_MOVE,
    PHASE_ROLL,
    ROLL,
    BarreeState,
    SendOption,
    WalkOption,
    send_options,
    walk_options,
)
from games.barree.hints import explain
from games.base import whole_number
from render.barree import render_barree, render_barree_targets
from texts import barree as barree_text
from texts import clipped
from texts.barree import narrate, points_list
from texts.i18n import N_, t, tn

SELECT_OPTIONS = 25
BEST_TARGETS = 5
"""End fields offered as buttons: one row, which a phone shows without scrolling; the
others are in a menu below them."""
WALK_BUTTONS = 25
BUTTONS_PER_ROW = 5
LABEL_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
NARRATED_EVENTS = 6


def walk_targets(options: Sequence[WalkOption]) -> list[int]:
    """The fields the walks end on, in the order of their best walk, as many as the
    menu numbers: a row of buttons and a select."""
    return list(dict.fromkeys(option.end for option in options))[: BEST_TARGETS + SELECT_OPTIONS]


def walks_to(options: Sequence[WalkOption], end: int) -> list[WalkOption]:
    """The walks ending on ``end`` worth offering, best first: a walk is left out when
    another one ending there discards every card it does and more (it can only be worse)."""
    ending = [option for option in options if option.end == end]
    return [
        option
        for option in ending
        if not any(set(option.discards) < set(other.discards) for other in ending)
    ][:WALK_BUTTONS]


class BarreeCog(
    GameCog[BarreeState],
    name="Barree",
    group_name="barree",
    group_description=N_("Barree: walk the board, shed your cards"),
):
    spec = GAMES["barree"]
    colour = discord.Colour.from_rgb(46, 125, 90)
    rules_text = barree_text.RULES
    move_help = N_("Play in notation: roll, a walk like 34-35-45, send, keep")
    notation_help = N_(
        "roll · a walk from your field, e.g. 34-35-45 · send:<player>:<field> · keep"
    )
    picture = staticmethod(render_barree)

    # ---- the board ---------------------------------------------------------------------

    def notation_actions(self, state: BarreeState, notation: str) -> list[str]:
        """A typed move; ``send:`` names the player as the board numbers him (from 1)."""
        text = notation.strip().lower()
        if not text.startswith("send:"):
            return [text]
        return [engine_sending(text, state.players)]

    def typed_action(self, action: str) -> str:
        """``send:1:63`` as the player types it, naming the player from 1: ``send:2:63``."""
        if not action.startswith("send:"):
            return action
        _, seat, field = action.split(":")
        return f"send:{int(seat) + 1}:{field}"

    def narrate(
        self, table: Table, before: BarreeState, action: str, after: BarreeState
    ) -> list[str]:
        return narrate(table.language, after.view(None)["events"], table.names)

    def turn_lines(self, table: Table, steps: Sequence[Step[BarreeState]]) -> list[TurnLine]:
        """One line per turn: a roll starts a turn, and the walk and sending after it
        (or the bar, or being stuck) are told on the same line."""
        lines: list[TurnLine] = []
        for turn in turns_of(steps):
            sentences = [
                sentence
                for step in turn
                for sentence in narrate(
                    table.language, step.after.view(None)["events"], table.names
                )
            ]
            lines.append(TurnLine(turn[0].seat, " ".join(sentences)))
        return lines

    def status_text(self, table: Table, state: BarreeState) -> str:
        view, language = state.view(None), table.language
        lines = narrate(language, view["events"], table.names)[-NARRATED_EVENTS:]
        lines.append(f"**{barree_text.status(language, view, table.names)}**")
        hint = barree_text.trapped_hint(language, view, table.names)
        if hint:
            lines.append(f"🔒 {hint}")
        return "\n".join(lines)

    def result_text(self, table: Table, state: BarreeState) -> str:
        language = table.language
        if not state.is_over:
            return t(language, barree_text.NOT_PLAYED_OUT)
        view, names = state.view(None), table.names
        lines = [f"**{barree_text.result(language, view, names)}**."]
        if view["rounds"] > 1:
            lines += [
                t(
                    language,
                    barree_text.ROUND_MINUS,
                    number=number,
                    points=points_list(minus, names),
                )
                for number, minus in enumerate(view["round_minus"], start=1)
            ]
        all_minus = points_list(view["minus"], names)
        lines.append(t(language, barree_text.ALL_MINUS, points=all_minus))
        return "\n".join(lines)

    def turn_controls(self, table: Table, state: BarreeState) -> list[discord.ui.Item[Any]]:
        language = table.language
        target = Target(table.id, table.version, "roll")
        resign = TableButton(
            target.but("resign"), label=t(language, "Resign"), style=discord.ButtonStyle.danger
        )
        if state.phase == PHASE_ROLL:
            roll = TableButton(
                target, label=t(language, "Roll"), emoji="🎲", style=discord.ButtonStyle.primary
            )
            return [roll, resign]
        if state.phase == PHASE_MOVE:
            walks = TableButton(
                target.but("walks"),
                label=t(language, "Choose a walk ({die})", die=state.die),
                emoji="👣",
                style=discord.ButtonStyle.primary,
            )
            return [walks, resign]
        if state.phase == PHASE_DRIVE:
            drive = TableButton(
                target.but("drive"),
                label=t(language, "Send away…"),
                style=discord.ButtonStyle.primary,
            )
            keep = TableButton(target.but("keep"), label=t(language, "Keep"))
            return [drive, keep, resign]
        return []

    def hint_offered(self, state: BarreeState) -> bool:
        """A walk or a sending is a choice; the roll is not."""
        return state.phase in (PHASE_MOVE, PHASE_DRIVE)

    def hint(self, table: Table, state: BarreeState, language: str) -> str:
        advice = explain(state, hint_seed(table))
        return barree_text.hint(language, advice, table.names)

    # ---- clicks ------------------------------------------------------------------------

    async def on_turn_component(self, turn: Turn[BarreeState]) -> None:
        verb, language = turn.target.verb, private_language(turn.interaction)
        if verb == "roll":
            await self._play(turn, ROLL)
        elif verb == "walks" and turn.state.phase == PHASE_MOVE:
            await turn.interaction.response.send_message(
                ephemeral=True, **await self.walk_menu(language, turn.table, turn.state)
            )
        elif verb == "drive" and turn.state.phase == PHASE_DRIVE:
            await turn.interaction.response.send_message(
                ephemeral=True, **self.drive_menu(language, turn.table, turn.state)
            )
        elif verb == "walk_to" and len(turn.values) <= 1:
            # A button carries its field; the menu of the other fields, the one picked.
            await self._walk_to(turn, turn.values[0] if turn.values else turn.target.arg)
        elif verb == "walk":
            await self._play(turn, turn.target.arg)
        elif verb == "send" and len(turn.values) == 1:
            await self._play(turn, turn.values[0])
        elif verb == "keep":
            await self._play(turn, KEEP)
        else:
            # Another game's verb, or a menu of a phase the game is not in: a forged click.
            await super().on_turn_component(turn)

    async def _walk_to(self, turn: Turn[BarreeState], value: str) -> None:
        """A numbered end field: its only walk plays, or the menu offers its walks."""
        language = private_language(turn.interaction)
        options = await asyncio.to_thread(walk_options, turn.state)
        end = whole_number(value, max_digits=2)
        walks = walks_to(options, end) if end is not None else []
        if not walks:
            await turn.interaction.response.send_message(
                t(language, "No walk of yours ends on field {field}.", field=quoted(value)),
                ephemeral=True,
            )
            return
        if len(walks) == 1:
            await self._play(turn, walks[0].action)
            return
        target = turn.target.but("walk")
        buttons: list[discord.ui.Item[Any]] = [
            TableButton(
                target.but("walk", walk.action),
                label=clipped(walk_button_label(language, walk), BUTTON_LABEL_LIMIT),
                emoji="⚔️" if walk.lands_on else None,
                style=discord.ButtonStyle.primary,
                row=index // BUTTONS_PER_ROW,
            )
            for index, walk in enumerate(walks)
        ]
        await turn.interaction.response.edit_message(
            content=t(
                language,
                "{count} walks end on field **{field}**, best first: which one?",
                count=len(walks),
                field=end,
            ),
            view=view_of(buttons),
        )

    async def _play(self, turn: Turn[BarreeState], action: str) -> None:
        """Play ``action``; a private menu the click came from shows what was done."""
        before = turn.state
        private = _from_private_menu(turn.interaction)
        legal = action in before.legal_actions()
        done = None
        if private and legal and action != ROLL:
            language = private_language(turn.interaction)
            done = barree_text.confirmation(language, before, action, turn.table.names)
        await self.tables.play(turn, [action], done=done)

    def typed_confirmation(
        self, table: Table, state: BarreeState, actions: Sequence[str], language: str
    ) -> str | None:
        """A typed roll says what it rolled; a typed walk or sending what it did."""
        if len(actions) != 1 or actions[0] not in state.legal_actions():
            return None
        action = actions[0]
        if action == ROLL:
            return barree_text.roll_confirmation(language, state.apply(ROLL).view(None))
        return barree_text.confirmation(language, state, action, table.names)

    async def after_play(
        self, turn: Turn[BarreeState], table: Table, after: BarreeState, done: str | None
    ) -> None:
        """Summarise finished rounds, then offer the seat its next decision of this turn.

        ``done`` is set when the decision came from a private menu: the next menu replaces
        it, under the sentence saying what was done.
        """
        state = after
        await self._tell_rounds(table, turn.state, state)
        if table.status != "active" or state.current_player != turn.seat:
            return
        if state.phase not in (PHASE_MOVE, PHASE_DRIVE):
            return
        interaction = turn.interaction
        language = private_language(interaction)
        if state.phase == PHASE_MOVE:
            menu = await self.walk_menu(language, table, state)
        else:
            menu = self.drive_menu(language, table, state)
        if done is not None and _from_private_menu(interaction):
            menu["content"] = f"{done}\n{menu['content']}"
            await interaction.edit_original_response(**private_edit(menu))
        else:
            await interaction.followup.send(ephemeral=True, **menu)

    async def _tell_rounds(self, table: Table, before: BarreeState, after: BarreeState) -> None:
        """A channel message for each round that ended with more rounds still to play."""
        told = len(before.round_minus)
        ended = len(after.round_minus)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        for index in range(told, min(ended, after.rounds - 1)):
            totals = [
                sum(minus[seat] for minus in after.round_minus[: index + 1])
                for seat in range(after.players)
            ]
            await channel.send(
                t(
                    table.language,
                    barree_text.ROUND_OVER,
                    table=table.id,
                    number=index + 1,
                    rounds=after.rounds,
                    points=points_list(after.round_minus[index], table.names),
                    totals=points_list(totals, table.names),
                ),
                allowed_mentions=NO_MENTIONS,
            )

    # ---- private menus -----------------------------------------------------------------

    async def walk_menu(self, language: str, table: Table, state: BarreeState) -> PrivateView:
        """The board with the walks' end fields numbered, best first: a button for each of
        the best few, a menu with the others (each saying what its walk discards)."""
        # A roll of 5 can have hundreds of outcomes: sort them off the event loop.
        options = await asyncio.to_thread(walk_options, state)
        targets = walk_targets(options)
        png = await asyncio.to_thread(render_barree_targets, state.view(None), table.names, targets)
        target = Target(table.id, table.version, "walk_to")
        items: list[discord.ui.Item[Any]] = []
        for number, end in enumerate(targets[:BEST_TARGETS], start=1):
            items.append(
                TableButton(
                    target.but("walk_to", str(end)),
                    label=t(language, "{number} · field {field}", number=number, field=end),
                    emoji="⚔️" if _lands_on(options, end) else None,
                    style=discord.ButtonStyle.primary,
                    row=0,
                )
            )
        others = targets[BEST_TARGETS:]
        if others:
            items.append(
                TableSelect(
                    target.but("walk_to"),
                    options=[
                        field_choice(language, options, number, end)
                        for number, end in enumerate(others, start=BEST_TARGETS + 1)
                    ],
                    placeholder=tn(
                        language,
                        "{count} more field: {first}–{last}…",
                        "{count} more fields: {first}–{last}…",
                        len(others),
                        first=BEST_TARGETS + 1,
                        last=len(targets),
                    ),
                    row=1,
                )
            )
        start_field = state.pieces[state.current]
        lines = [t(language, barree_text.ROLLED_PICK_FIELD, die=state.die, start=start_field)]
        left_out = len(set(option.end for option in options)) - len(targets)
        if left_out:
            lines.append(barree_text.fields_left_out(language, left_out))
        picture = discord.File(io.BytesIO(png), filename=f"barree-walks-{table.id}.png")
        return {"content": "\n".join(lines), "view": view_of(items), "file": picture}

    def drive_menu(self, language: str, table: Table, state: BarreeState) -> PrivateView:
        """One select per piece landed on (its fields to send it to), and Keep."""
        names = table.names
        target = Target(table.id, table.version, "send")
        sendings = send_options(state)
        victims = list(dict.fromkeys(option.seat for option in sendings))
        items: list[discord.ui.Item[Any]] = [
            TableSelect(
                target.but("send", str(victim)),
                options=[
                    send_choice(language, option, names)
                    for option in sendings
                    if option.seat == victim
                ][:SELECT_OPTIONS],
                placeholder=t(language, "Send {name} to…", name=clipped(names[victim], 60)),
            )
            for victim in victims
        ]
        items.append(TableButton(target.but("keep"), label=t(language, "Keep them there")))
        who = barree_text.both(language, [names[victim] for victim in victims])
        content = t(
            language,
            "You landed on **{names}**. Play one of your cards to send a piece to its field, "
            "or keep them there.",
            names=who,
        )
        return {"content": content, "view": view_of(items)}


def engine_sending(text: str, players: int) -> str:
    """``send:2:63`` (player 2 as the board shows him) as the rules write it, ``send:1:63``."""
    parts = text.split(":")
    numbers = [part.strip() for part in parts[1:]]
    if len(parts) != 3 or not all(number.isdecimal() and len(number) <= 2 for number in numbers):
        raise IllegalAction(barree_text.SEND_NOTATION)
    player, field = (int(number) for number in numbers)
    if not 1 <= player <= players:
        raise IllegalAction(barree_text.SEND_NOTATION)
    return f"send:{player - 1}:{field}"


def turns_of(steps: Sequence[Step[BarreeState]]) -> list[list[Step[BarreeState]]]:
    """The steps grouped by turn: a new turn begins with a roll or with another seat."""
    turns: list[list[Step[BarreeState]]] = []
    for step in steps:
        if not turns or step.action == ROLL or step.seat != turns[-1][-1].seat:
            turns.append([step])
        else:
            turns[-1].append(step)
    return turns


def _from_private_menu(interaction: Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _lands_on(options: Sequence[WalkOption], end: int) -> bool:
    return any(option.lands_on for option in options if option.end == end)


def field_choice(
    language: str, options: Sequence[WalkOption], number: int, end: int
) -> discord.SelectOption:
    """A numbered end field in the walk menu's select: what its best walk discards."""
    best = next(option for option in options if option.end == end)
    if best.discards:
        cards = ", ".join(map(str, best.discards))
        what = t(language, "Discards {cards}", cards=cards)
    else:
        what = t(language, "Discards nothing")
    if best.lands_on:
        what = t(language, "{discards} · lands on a piece", discards=what)
    return discord.SelectOption(
        label=t(language, "{number} · field {field}", number=number, field=end),
        value=str(end),
        description=clipped(what, LABEL_LIMIT),
    )


def walk_button_label(language: str, walk: WalkOption) -> str:
    if not walk.discards:
        return t(language, "Discard nothing · via {walk}", walk=walk.action)
    discards = ", ".join(map(str, walk.discards))
    return t(language, "Discard {cards} · via {walk}", cards=discards, walk=walk.action)


def send_choice(language: str, option: SendOption, names: Sequence[str]) -> discord.SelectOption:
    label = t(language, "Send {name} to {field}", name=names[option.seat], field=option.field)
    return discord.SelectOption(
        label=clipped(label, LABEL_LIMIT),
        value=option.action,
        description=t(language, "Discards your card {field}", field=option.field),
    )
