"""Barbu in Discord: contract buttons, a doubling panel of toggles, hands by DM and by button.

The board shows only the public table. Each human's hand (with his decision controls,
a button per playable card, when he is to act) reaches him privately: in one DM per
deal, edited whenever it becomes his turn or he has acted, and at any time through the
board's "My hand" button. With the ``autoplay`` option (on by default) a single legal
card, or a forced pass in Domino, plays itself. The doubling
panel keeps the seats toggled so far in its buttons' custom_id argument (``1.3``), so
toggling needs no memory in the bot and survives a restart. Each finished deal's board
turns into the deal's scores and the score sheet, and the board moves below it; the hand
DMs of that deal say it is over and lose their buttons.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from cogs.host import Interaction
from cogs.language import private_language
from cogs.replies import NO_MENTIONS
from cogs.table.components import TableButton, Target, view_of
from cogs.table.game_cog import GameCog, Turn, hint_seed
from cogs.table.payload import MessagePayload, PrivateView
from cogs.table.private import answers_privately
from data import Table
from games import GAMES, IllegalAction
from games.barbu import (
    NAMED_CONTRACTS,
    PASS,
    RANKS,
    SUITS,
    BarbuDeal,
    BarbuState,
    BarbuView,
    DoublingChoice,
)
from games.barbu.hints import explain
from render.barbu import render_barbu_hand, render_barbu_scores, render_barbu_table
from texts import barbu as barbu_text
from texts import bold, clipped
from texts.barbu import (
    SUIT_SYMBOLS,
    card_label,
    contract_title,
    deal_heading,
    deal_sentence,
    doubles_text,
    listing,
    rank_label,
    rank_plural,
    scores_list,
    suit_name,
    view_contract,
)
from texts.i18n import N_, command_name, t

NAME_LIMIT = 40
UNKNOWN_CONTROL = N_("Unknown control.")
CARDS_PER_ROW = 5


def _laid_row(language: str, suit: str, row: Sequence[str]) -> str:
    """A Domino suit row as its ends: "♥ 4–K"."""
    return f"{SUIT_SYMBOLS[suit]} {rank_label(language, row[0])}–{rank_label(language, row[1])}"


def _record_of_deal(before: BarbuState, after: BarbuState) -> BarbuDeal | None:
    """The score sheet's entry of ``before``'s deal, if it was played to its end by
    ``after`` (a game over is its last deal's end)."""
    if before.is_over:
        return after.history[-1] if after.history else None
    finished = len(before.history)
    return after.history[finished] if len(after.history) > finished else None


def parse_seat_set(arg: str) -> frozenset[int] | None:
    """The seats in a panel argument such as ``1.3`` (empty: none); None if malformed."""
    if not arg:
        return frozenset()
    parts = arg.split(".")
    if not all(part in ("0", "1", "2", "3") for part in parts):
        return None
    return frozenset(int(part) for part in parts)


def seats_of_players(players: str) -> list[int]:
    """The seats of player numbers such as ``2,4`` (1–4 as the picture shows them)."""
    parts = [part.strip() for part in players.split(",")]
    if not all(part in ("1", "2", "3", "4") for part in parts):
        raise IllegalAction(barbu_text.DOUBLES_NOTATION)
    return [int(part) - 1 for part in parts]


def seat_set_arg(seats: Iterable[int]) -> str:
    return ".".join(str(seat) for seat in sorted(seats))


class BarbuCog(
    GameCog[BarbuState],
    name="Barbu",
    group_name="barbu",
    group_description=N_("Barbu: seven contracts, four players"),
):
    spec = GAMES["barbu"]
    colour = discord.Colour.from_rgb(28, 92, 62)
    private_label = N_("My hand")
    rules_text = barbu_text.RULES
    move_help = N_("Play in notation: a card, a contract, doubles")
    notation_help = N_(
        "A card (QS, TD), a contract (notricks, trumps:H, domino:5), double:2,4 or pass"
    )
    picture = staticmethod(render_barbu_table)

    def notation_actions(self, state: BarbuState, notation: str) -> list[str]:
        """A typed move; ``double:`` names players as the picture numbers them (1–4)."""
        text = notation.strip()
        verb, colon, players = text.partition(":")
        if verb.lower() != "double" or not colon:
            return [text]
        return [f"double:{','.join(str(seat) for seat in seats_of_players(players))}"]

    def typed_action(self, action: str) -> str:
        """``double:0,2`` as the player types it, naming players from 1: ``double:1,3``."""
        verb, colon, seats = action.partition(":")
        if verb != "double" or not colon or not seats:
            return action
        return f"double:{','.join(str(int(seat) + 1) for seat in seats.split(','))}"

    # ---- the public board --------------------------------------------------------------

    def status_text(self, table: Table, state: BarbuState) -> str:
        language = table.language
        view = state.view(None)
        names, marked = table.names, bold(table.names)
        to_act = view["to_act"]
        assert to_act is not None
        deal = deal_heading(language, view)
        lines = [t(language, "{deal} · declarer {name}", deal=deal, name=marked[view["declarer"]])]
        if view["phase"] == "contract":
            if view["history"]:
                sentence = deal_sentence(language, view["history"][-1], names)
                lines.append(t(language, "Last deal, {sentence}", sentence=sentence))
            lines.append(barbu_text.contract_wait(language, view, marked[to_act]))
            return "\n".join(lines)
        contract = f"**{view_contract(language, view)}**"
        if state.french:
            lines.append(t(language, "Contract: {contract}", contract=contract))
        else:
            doubles = doubles_text(language, view["doubles"], view["declarer"], names)
            lines.append(
                t(
                    language,
                    "Contract: {contract} · Doubles: {doubles}",
                    contract=contract,
                    doubles=doubles,
                )
            )
        if view["phase"] == "doubling":
            lines.append(t(language, "{name} decides whom to double.", name=marked[to_act]))
        elif view["contract"] == "domino":
            lines.append(t(language, "{name} lays a card or passes.", name=marked[to_act]))
        else:
            number = len(view["tricks"]) + 1
            lines.append(
                t(language, "Trick {number} · {name} to play.", number=number, name=marked[to_act])
            )
        return "\n".join(lines)

    def result_text(self, table: Table, state: BarbuState) -> str:
        language = table.language
        view = state.view(None)
        if not state.is_over:
            return barbu_text.ended_early(language, view, table.names)
        totals = barbu_text.totals(language, view, table.names)
        return f"{barbu_text.result(language, view, bold(table.names))} {totals}"

    def turn_controls(self, table: Table, state: BarbuState) -> list[discord.ui.Item[Any]]:
        language = table.language
        target = Target(table.id, table.version, "decide")
        if state.phase == "contract":
            items = self._contract_buttons(target, state, language)
        else:
            label = (
                t(language, "Double or pass…")
                if state.phase == "doubling"
                else t(language, "Play a card…")
            )
            items = [TableButton(target, label=label, style=discord.ButtonStyle.primary, row=0)]
        resign = TableButton(
            target.but("resign"),
            label=t(language, "Resign"),
            style=discord.ButtonStyle.danger,
            row=2,
        )
        return [*items, resign]

    @staticmethod
    def _contract_buttons(
        target: Target, state: BarbuState, language: str
    ) -> list[discord.ui.Item[Any]]:
        return [
            TableButton(
                target.but("contract", contract),
                label=(
                    t(language, "{contract}…", contract=contract_title(language, contract))
                    if contract in NAMED_CONTRACTS
                    else contract_title(language, contract)
                ),
                style=discord.ButtonStyle.primary,
                row=index // 5,
            )
            for index, contract in enumerate(state.contract_choices())
        ]

    # ---- the private hand --------------------------------------------------------------

    def private_payload(
        self, table: Table, state: BarbuState, seat: int, language: str
    ) -> PrivateView:
        """The player's hand with his decision controls when he is to act."""
        view = state.view(seat)
        names = table.names
        png = render_barbu_hand(view, names, language)
        lines = [self._hand_heading(view, names, language)]
        owed = barbu_text.doubles_owed(language, view, seat, names)
        if owed:
            lines.append(owed)
        controls: list[discord.ui.Item[Any]] = []
        target = Target(table.id, table.version, "decide")
        to_act = view["to_act"]
        assert to_act is not None, "a hand is shown only while the game runs"
        if to_act != seat:
            lines.append(
                t(language, "{name} is to act; this is your hand for now.", name=names[to_act])
            )
        elif view["phase"] == "contract":
            lines.append(barbu_text.contract_prompt(language, view))
            controls = self._contract_buttons(target, state, language)
        elif view["phase"] == "doubling":
            choice = state.doubling_choice()
            assert choice is not None
            lines.extend(self._doubling_lines(view, choice, names, language))
            controls = self._doubling_panel(target, choice, frozenset(), names, language)
        else:
            lines.append(self._table_line(view, names, language))
            controls = self._card_controls(target, view, language)
        payload: PrivateView = {
            "content": "\n".join(lines),
            "file": discord.File(io.BytesIO(png), filename=f"barbu-hand-{table.id}.png"),
        }
        if controls:
            payload["view"] = view_of(controls)
        return payload

    def private_closed(
        self, table: Table, before: BarbuState, after: BarbuState, language: str
    ) -> str:
        """The hand DM of a deal that ended: the deal's scores, and where to look next."""
        lines = []
        record = _record_of_deal(before, after)
        if record is not None:
            lines.append(
                t(
                    language,
                    "**Deal {number} of {total} is over.** {sentence}",
                    number=min(before.deal_number, before.total_deals - 1) + 1,
                    total=after.total_deals,
                    sentence=deal_sentence(language, record, table.names),
                )
            )
        if after.is_over or table.status != "active":
            lines.append(t(language, "The game has ended; the channel says how."))
        else:
            lines.append(
                t(
                    language,
                    "Your hand for deal {number} is in a new message.",
                    number=after.deal_number + 1,
                )
            )
        return "\n".join(lines)

    @staticmethod
    def _hand_heading(view: BarbuView, names: Sequence[str], language: str) -> str:
        return t(
            language,
            "Your hand · {deal} · declarer {name} · {contract}",
            deal=deal_heading(language, view),
            name=names[view["declarer"]],
            contract=view_contract(language, view) or t(language, "contract not chosen yet"),
        )

    @staticmethod
    def _table_line(view: BarbuView, names: Sequence[str], language: str) -> str:
        """What lies on the table, for a player deciding away from the board."""
        domino = view["domino"]
        if view["contract"] == "domino" and domino is not None:
            rows = [_laid_row(language, suit, row) for suit, row in domino["rows"].items() if row]
            if not rows:
                return t(language, "**Your turn:** lay a card or pass. Laid so far: nothing yet.")
            return t(
                language,
                "**Your turn:** lay a card or pass. Laid so far: {laid}.",
                laid=" · ".join(rows),
            )
        number = len(view["tricks"]) + 1
        if not view["trick"]:
            return t(language, "**Your turn:** you lead trick {number}.", number=number)
        played = ", ".join(
            f"{names[entry['seat']]} {card_label(language, entry['card'])}"
            for entry in view["trick"]
        )
        return t(
            language,
            "**Your turn:** play to trick {number}: {played}.",
            number=number,
            played=played,
        )

    @staticmethod
    def _card_controls(
        target: Target, view: BarbuView, language: str
    ) -> list[discord.ui.Item[Any]]:
        """One button per playable card, so a card is one tap (or Pass in Domino)."""
        if view["legal"] == [PASS]:
            return [
                TableButton(
                    target.but("play", PASS),
                    label=t(language, "Pass (no card fits)"),
                    style=discord.ButtonStyle.primary,
                )
            ]
        return [
            TableButton(
                target.but("play", card),
                label=card_label(language, card),
                style=discord.ButtonStyle.primary,
                row=index // CARDS_PER_ROW,
            )
            for index, card in enumerate(view["legal"])
        ]

    # ---- doubling ----------------------------------------------------------------------

    @staticmethod
    def _doubling_lines(
        view: BarbuView, choice: DoublingChoice, names: Sequence[str], language: str
    ) -> list[str]:
        doubles = doubles_text(language, view["doubles"], view["declarer"], names)
        lines = [
            t(
                language,
                "**Your turn to double.** Toggle the players to double, then **Confirm**; "
                "**Maximum** doubles everyone you may, **Pass** doubles nobody.",
            ),
            t(language, "Doubles so far: {doubles}.", doubles=doubles),
        ]
        if choice.redoubles:
            doublers = listing(language, [names[seat] for seat in choice.redoubles])
            lines.append(t(language, "Doubling {doublers} again is a redouble.", doublers=doublers))
        return lines

    @staticmethod
    def _doubling_panel(
        target: Target,
        choice: DoublingChoice,
        chosen: frozenset[int],
        names: Sequence[str],
        language: str,
    ) -> list[discord.ui.Item[Any]]:
        toggles: list[discord.ui.Item[Any]] = []
        for seat in choice.targets:
            name = clipped(names[seat], NAME_LIMIT)
            label = (
                t(language, "Redouble {name}", name=name)
                if seat in choice.redoubles
                else t(language, "Double {name}", name=name)
            )
            on = seat in chosen
            toggles.append(
                TableButton(
                    target.but("double_toggle", seat_set_arg(chosen ^ {seat})),
                    label=label,
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                    emoji="✅" if on else None,
                    row=0,
                )
            )
        return [
            *toggles,
            TableButton(target.but("double_max"), label=t(language, "Maximum"), row=1),
            TableButton(target.but("double_pass"), label=t(language, "Pass"), row=1),
            TableButton(
                target.but("double_confirm", seat_set_arg(chosen)),
                label=barbu_text.confirm_label(language, len(chosen)),
                style=discord.ButtonStyle.primary,
                # With nobody toggled, confirming would only repeat Pass beside it.
                disabled=not chosen,
                row=1,
            ),
        ]

    # ---- clicks ------------------------------------------------------------------------

    async def on_turn_component(self, turn: Turn[BarbuState]) -> None:
        state = turn.state
        verb, arg = turn.target.verb, turn.target.arg
        language = self._reader_language(turn)
        if verb == "decide":
            payload = await asyncio.to_thread(
                self.private_payload, turn.table, state, turn.seat, language
            )
            await turn.interaction.response.send_message(ephemeral=True, **payload)
        elif verb == "contract" and arg in NAMED_CONTRACTS:
            await self._ask_contract_detail(turn, arg, language)
        elif verb == "contract":
            await self._play(turn, arg)
        elif verb == "trump":
            await self._play(turn, f"trumps:{arg}")
        elif verb == "domino":
            await self._play(turn, f"domino:{arg}")
        elif verb == "play":
            await self._play(turn, arg)
        elif verb.startswith("double_") and state.phase == "doubling":
            await self._on_doubling(turn, state, language)
        else:
            await turn.interaction.response.send_message(
                t(language, UNKNOWN_CONTROL), ephemeral=True
            )

    @staticmethod
    def _reader_language(turn: Turn[BarbuState]) -> str:
        """The language of the message a click came from: a hand DM is written in the
        language its seat remembers (``private_payload`` by DM), anything else in the
        clicking member's."""
        if turn.interaction.guild_id is None:
            return turn.table.reader_language(turn.seat)
        return private_language(turn.interaction)

    async def _ask_contract_detail(
        self, turn: Turn[BarbuState], contract: str, language: str
    ) -> None:
        target = turn.target
        buttons: list[discord.ui.Item[Any]]
        if contract == "trumps":
            question = t(language, "Choose the trump suit:")
            buttons = [
                TableButton(
                    target.but("trump", suit),
                    label=suit_name(language, suit).capitalize(),
                    emoji=SUIT_SYMBOLS[suit],
                )
                for suit in SUITS
            ]
        else:
            question = t(language, "Choose the starting rank for Domino:")
            buttons = [
                TableButton(
                    target.but("domino", rank),
                    label=rank_plural(language, rank).capitalize(),
                    row=index // 5,
                )
                for index, rank in enumerate(RANKS)
            ]
        await turn.interaction.response.send_message(
            question, view=view_of(buttons), ephemeral=True
        )

    async def _on_doubling(self, turn: Turn[BarbuState], state: BarbuState, language: str) -> None:
        choice = state.doubling_choice()
        assert choice is not None
        verb = turn.target.verb
        chosen = parse_seat_set(turn.target.arg)
        if chosen is None or not chosen <= set(choice.targets):
            await turn.interaction.response.send_message(
                t(language, UNKNOWN_CONTROL), ephemeral=True
            )
        elif verb == "double_toggle":
            panel = self._doubling_panel(turn.target, choice, chosen, turn.table.names, language)
            await turn.interaction.response.edit_message(view=view_of(panel))
        elif verb == "double_max":
            await self._play(turn, choice.maximum)
        elif verb == "double_pass":
            await self._play(turn, PASS)
        elif verb == "double_confirm":
            await self._play(turn, choice.action_for(chosen))
        else:
            await turn.interaction.response.send_message(
                t(language, UNKNOWN_CONTROL), ephemeral=True
            )

    async def _play(self, turn: Turn[BarbuState], action: str) -> None:
        """Play ``action``; a private panel the click came from says what was done (a DM
        is redrawn with the hand instead: ``private_recipients``)."""
        before = turn.state
        done = None
        if answers_privately(turn.interaction) and action in before.legal_actions():
            language = private_language(turn.interaction)
            done = barbu_text.confirmation(language, before, action, turn.table.names)
        await self.tables.play(turn, [action], done=done)

    # ---- finished deals ----------------------------------------------------------------

    async def finished_part(
        self, table: Table, before: BarbuState, after: BarbuState
    ) -> MessagePayload | None:
        """The deals the play finished: their scores and the score sheet."""
        view = after.view(None)
        told = len(before.history)
        finished = len(view["history"])
        if finished <= told:
            return None
        names, language = table.names, table.language
        # The engine counts deals in ``deal``; the history holds the finished ones, newest last.
        first_number = view["deal"] - finished + 1
        lines = [
            t(
                language,
                "📋 Barbu game #{game}: deal {number} of {total} is over. {sentence}",
                game=table.id,
                number=first_number + index,
                total=view["total_deals"],
                sentence=deal_sentence(language, view["history"][index], names),
            )
            for index in range(told, finished)
        ]
        lines.append(barbu_text.totals(language, view, names))
        png = await asyncio.to_thread(render_barbu_scores, view, names, language)
        return MessagePayload(
            content="\n".join(lines),
            embed=None,
            view=None,
            allowed_mentions=NO_MENTIONS,
            files=[discord.File(io.BytesIO(png), filename=f"barbu-scores-{table.id}.png")],
        )

    def automatic_action(self, state: BarbuState) -> str | None:
        return state.forced_play() if state.autoplay else None

    def hint(self, table: Table, state: BarbuState, language: str) -> str:
        """From the seat's own view: its hand, the cards played, the doubles."""
        seat = state.current_player
        advice = explain(state.view(seat), hint_seed(table))
        return barbu_text.hint(language, advice, table.names)

    def private_purpose(self, state: BarbuState) -> str:
        """One hand DM per deal; a finished game's is its last deal's."""
        return f"deal{min(state.deal_number, state.total_deals - 1)}"

    def private_recipients(
        self, table: Table, before: BarbuState | None, after: BarbuState
    ) -> list[int]:
        """Every human at a new deal; otherwise the human who just acted (his hand
        changed) and the human whose decision it now is."""
        if after.is_over:
            return []
        humans = [seat for seat, player in enumerate(table.seats) if not player.is_computer]
        if before is None or before.deal_number != after.deal_number:
            return humans
        changed = [before.current_player, after.current_player]
        return [seat for seat in humans if seat in changed]

    def narrate(
        self, table: Table, before: BarbuState, action: str, after: BarbuState
    ) -> list[str]:
        return [barbu_text.describe(table.language, before, action, table.names)]

    # ---- slash commands ----------------------------------------------------------------

    @app_commands.command(
        name=command_name("scores"), description=N_("The score sheet of this channel's Barbu game")
    )
    async def scores(self, interaction: Interaction) -> None:
        language = private_language(interaction)
        table = await self.tables.table_in_channel(interaction.channel_id or 0)
        if table is None or table.kind != "barbu" or table.state is None:
            await interaction.response.send_message(
                t(language, "There is no Barbu game running in this channel."), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        state = self.spec.from_dict(table.state)
        assert isinstance(state, BarbuState)
        view = state.view(None)
        png = await asyncio.to_thread(render_barbu_scores, view, table.names, language)
        await interaction.followup.send(
            t(
                language,
                "Barbu game #{game}: {played} of {total} deals played. Totals: {scores}.",
                game=table.id,
                played=len(view["history"]),
                total=view["total_deals"],
                scores=scores_list(view["totals"], table.names),
            ),
            file=discord.File(io.BytesIO(png), filename=f"barbu-scores-{table.id}.png"),
            ephemeral=True,
        )
