"""Barbu in Discord: contract buttons, a doubling panel of toggles, hands by DM and by button.

The board shows only the public table. Each human's hand (with his decision controls
when he is to act) reaches him privately: by DM at every new deal and whenever it
becomes his turn, and at any time through the board's "My hand" button. The doubling
panel keeps the seats toggled so far in its buttons' custom_id argument (``1.3``), so
toggling needs no memory in the bot and survives a restart. After each finished deal the
channel gets the deal's scores and the score sheet.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from cogs.clocks import CLOCK_HELP, CLOCK_OPTIONS
from cogs.components import TableButton, TableSelect, Target, view_of
from cogs.computers import LEVEL_HELP, Level
from cogs.render_pool import RenderJob
from cogs.table import GameCog, Turn
from data import Table
from games import GAMES, GameState
from games.barbu import (
    CONTRACT_TITLES,
    PASS,
    RANK_PLURALS,
    RANKS,
    SUIT_NAMES,
    SUITS,
    BarbuState,
    DoublingChoice,
    contract_label,
)
from render.barbu import render_barbu_hand, render_barbu_scores, render_barbu_table

SUIT_SYMBOLS = dict(zip(SUITS, "♠♥♣♦", strict=True))
NAME_LIMIT = 40
DETAILED_CONTRACTS = frozenset({"trumps", "domino"})
UNKNOWN_CONTROL = "Unknown control."

RULES = """\
**Deals.** 52 cards, 13 each. One player declares for seven deals in a row, choosing each \
of the seven contracts once; then his left-hand neighbour declares. Four series make a \
game (`/barbu new series:` plays fewer). Declarer leads first; follow suit if you can; the \
highest card of the led suit wins the trick, and the winner leads next.
**Negative contracts.** No Tricks −2 a trick · No Queens −6 a queen (ends with the fourth) \
· No Last Two −10 and −20 for tricks 12 and 13 · No Hearts −2 a heart, −6 the ace; no \
heart lead while you hold another suit · Barbu −20 for the king of hearts (ends when taken; \
same heart lead rule).
**Trumps** (+5 a trick). Declarer names trumps. On a trump lead, beat the highest trump if \
you can; unable to follow a plain suit, you must play a trump that wins the trick if you \
hold one.
**Domino** (+45, +20, +5, −5 in the order players go out). Declarer names a starting rank. \
Lay a card of that rank, or the next card up or down in an opened suit; pass only when \
nothing fits.
**Doubling.** After the contract, from declarer's left round to declarer, each player may \
double others: in Trumps and Domino only declarer; declarer only redoubles those who \
doubled him. Each other player must double declarer at least twice in each series. A \
double makes the two players settle the difference of their deal scores; a redouble \
twice it.
**Playing.** Your hand comes by DM and under **My hand** on the board, with a menu of the \
cards you may play when it is your turn.
**`/barbu play`.** A card `QS` (T for ten), a contract `notricks`, `noqueens`, \
`nolasttwo`, `nohearts`, `barbu`, `trumps:H`, `domino:5`, doubles `double:0,2` or `pass`. \
In `double:` the seats are numbered 0–3 clockwise (the table picture shows them as 1–4).
**Full rules:** `docs/rules/barbu.md` in the bot's repository.\
"""


def clipped(text: str, limit: int = NAME_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rank_label(rank: str) -> str:
    return "10" if rank == "T" else rank


def card_label(card: str) -> str:
    """``QS`` as ``Q♠``, ``TD`` as ``10♦``."""
    return f"{rank_label(card[0])}{SUIT_SYMBOLS[card[1]]}"


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def scores_list(scores: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(f"{names[seat]} {signed(score)}" for seat, score in enumerate(scores))


def doubles_text(doubles: Iterable[Sequence[int]], declarer: int, names: Sequence[str]) -> str:
    """E.g. "Bob doubled Alice (redoubled)": the one who acted first in the round doubled."""
    pairs = {(doubler, doubled) for doubler, doubled in doubles}

    def acting_order(seat: int) -> int:
        return (seat - declarer - 1) % 4

    sentences = []
    for doubler, doubled in sorted(pairs, key=lambda pair: acting_order(pair[0])):
        redoubled = (doubled, doubler) in pairs
        if redoubled and acting_order(doubled) < acting_order(doubler):
            continue
        suffix = " (redoubled)" if redoubled else ""
        sentences.append(f"{names[doubler]} doubled {names[doubled]}{suffix}")
    return "; ".join(sentences) if sentences else "no doubles"


def parse_seat_set(arg: str) -> frozenset[int] | None:
    """The seats in a panel argument such as ``1.3`` (empty: none); None if malformed."""
    if not arg:
        return frozenset()
    parts = arg.split(".")
    if not all(part in ("0", "1", "2", "3") for part in parts):
        return None
    return frozenset(int(part) for part in parts)


def seat_set_arg(seats: Iterable[int]) -> str:
    return ".".join(str(seat) for seat in sorted(seats))


def deal_heading(view: dict[str, Any]) -> str:
    number = min(view["deal"] + 1, view["total_deals"])
    return f"Deal {number} of {view['total_deals']}"


class BarbuCog(GameCog, name="Barbu"):
    spec = GAMES["barbu"]
    colour = discord.Colour.from_rgb(28, 92, 62)
    private_label = "My hand"

    group = app_commands.Group(name="barbu", description="Barbu: seven contracts, four players")

    # ---- the public board --------------------------------------------------------------

    def render_job(self, table: Table, state: Any, headline: str | None) -> RenderJob:
        return RenderJob(render_barbu_table, (state.view(None), table.names, headline))

    def status_text(self, table: Table, state: Any) -> str:
        view = state.view(None)
        names = table.names
        declarer = names[view["declarer"]]
        to_act = names[view["to_act"]]
        lines = [f"{deal_heading(view)} · declarer **{declarer}**"]
        if view["phase"] == "contract":
            if view["history"]:
                lines.append(f"Last deal, {self._deal_sentence(view['history'][-1], names)}")
            lines.append(f"**{to_act}** chooses a contract.")
            return "\n".join(lines)
        doubles = doubles_text(view["doubles"], view["declarer"], names)
        lines.append(f"Contract: **{view['contract_label']}** · Doubles: {doubles}")
        if view["phase"] == "doubling":
            lines.append(f"**{to_act}** decides whom to double.")
        elif view["contract"] == "domino":
            lines.append(f"**{to_act}** lays a card or passes.")
        else:
            lines.append(f"Trick {len(view['tricks']) + 1} · **{to_act}** to play.")
        return "\n".join(lines)

    def result_text(self, table: Table, state: Any) -> str:
        totals = state.view(None)["totals"]
        if not state.is_over:
            return f"The game ended early. Totals: {scores_list(totals, table.names)}."
        best = max(totals)
        winners = [table.names[seat] for seat in range(4) if totals[seat] == best]
        verb = "wins" if len(winners) == 1 else "win"
        return (
            f"**{' and '.join(winners)}** {verb} with {signed(best)}. "
            f"Totals: {scores_list(totals, table.names)}."
        )

    @staticmethod
    def _deal_sentence(deal: dict[str, Any], names: Sequence[str]) -> str:
        contract = contract_title_of(deal["contract"])
        return f"{names[deal['declarer']]}'s {contract}: {scores_list(deal['scores'], names)}."

    def turn_controls(self, table: Table, state: Any) -> list[discord.ui.Item[Any]]:
        target = Target(table.id, table.version, "decide")
        if state.phase == "contract":
            items = self._contract_buttons(target, state)
        else:
            label = "Double or pass…" if state.phase == "doubling" else "Play a card…"
            items = [TableButton(target, label=label, style=discord.ButtonStyle.primary, row=0)]
        resign = TableButton(
            target.but("resign"), label="Resign", style=discord.ButtonStyle.danger, row=2
        )
        return [*items, resign]

    @staticmethod
    def _contract_buttons(target: Target, state: BarbuState) -> list[discord.ui.Item[Any]]:
        return [
            TableButton(
                target.but("contract", contract),
                label=CONTRACT_TITLES[contract] + ("…" if contract in DETAILED_CONTRACTS else ""),
                style=discord.ButtonStyle.primary,
                row=index // 5,
            )
            for index, contract in enumerate(state.contract_choices())
        ]

    # ---- the private hand --------------------------------------------------------------

    def private_payload(self, table: Table, state: Any, seat: int) -> dict[str, Any]:
        view = state.view(seat)
        names = table.names
        png = render_barbu_hand(view, names)
        lines = [self._hand_heading(view, names)]
        controls: list[discord.ui.Item[Any]] = []
        target = Target(table.id, table.version, "decide")
        if view["to_act"] != seat:
            lines.append(f"{names[view['to_act']]} is to act; this is your hand for now.")
        elif view["phase"] == "contract":
            lines.append("**Your turn:** choose the contract for this deal.")
            controls = self._contract_buttons(target, state)
        elif view["phase"] == "doubling":
            choice = state.doubling_choice()
            lines.extend(self._doubling_lines(view, choice, names))
            controls = self._doubling_panel(target, choice, frozenset(), names)
        else:
            lines.append(f"**Your turn:** {self._table_line(view, names)}")
            controls = [self._card_control(target, view)]
        payload: dict[str, Any] = {
            "content": "\n".join(lines),
            "file": discord.File(io.BytesIO(png), filename=f"barbu-hand-{table.id}.png"),
        }
        if controls:
            payload["view"] = view_of(controls)
        return payload

    @staticmethod
    def _hand_heading(view: dict[str, Any], names: Sequence[str]) -> str:
        declarer = names[view["declarer"]]
        contract = view["contract_label"] or "contract not chosen yet"
        return f"Your hand · {deal_heading(view)} · declarer {declarer} · {contract}"

    @staticmethod
    def _table_line(view: dict[str, Any], names: Sequence[str]) -> str:
        """What lies on the table, for a player deciding away from the board."""
        if view["contract"] == "domino":
            rows = [
                f"{SUIT_SYMBOLS[suit]} {rank_label(row[0])}–{rank_label(row[1])}"
                for suit, row in view["domino"]["rows"].items()
                if row
            ]
            laid = " · ".join(rows) if rows else "nothing yet"
            return f"lay a card or pass. Laid so far: {laid}."
        number = len(view["tricks"]) + 1
        if not view["trick"]:
            return f"you lead trick {number}."
        played = ", ".join(
            f"{names[entry['seat']]} {card_label(entry['card'])}" for entry in view["trick"]
        )
        return f"play to trick {number}: {played}."

    @staticmethod
    def _card_control(target: Target, view: dict[str, Any]) -> discord.ui.Item[Any]:
        if view["legal"] == [PASS]:
            return TableButton(
                target.but("play", PASS),
                label="Pass (no card fits)",
                style=discord.ButtonStyle.primary,
            )
        verb = "Lay" if view["contract"] == "domino" else "Play"
        options = [
            discord.SelectOption(label=card_label(card), value=card) for card in view["legal"]
        ]
        return TableSelect(target.but("play"), options=options, placeholder=f"{verb} a card")

    # ---- doubling ----------------------------------------------------------------------

    @staticmethod
    def _doubling_lines(
        view: dict[str, Any], choice: DoublingChoice, names: Sequence[str]
    ) -> list[str]:
        lines = [
            "**Your turn to double.** Toggle the players to double, then **Confirm**; "
            "**Maximum** doubles everyone you may, **Pass** doubles nobody.",
            f"Doubles so far: {doubles_text(view['doubles'], view['declarer'], names)}.",
        ]
        if choice.redoubles:
            doublers = ", ".join(names[seat] for seat in choice.redoubles)
            lines.append(f"Doubling {doublers} again is a redouble.")
        obligation = choice.obligation_text()
        if obligation:
            lines.append(obligation)
        return lines

    @staticmethod
    def _doubling_panel(
        target: Target, choice: DoublingChoice, chosen: frozenset[int], names: Sequence[str]
    ) -> list[discord.ui.Item[Any]]:
        toggles: list[discord.ui.Item[Any]] = []
        for seat in choice.targets:
            verb = "Redouble" if seat in choice.redoubles else "Double"
            on = seat in chosen
            toggles.append(
                TableButton(
                    target.but("double_toggle", seat_set_arg(chosen ^ {seat})),
                    label=f"{verb} {clipped(names[seat])}",
                    style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                    emoji="✅" if on else None,
                    row=0,
                )
            )
        summary = f"{len(chosen)} double(s)" if chosen else "pass"
        return [
            *toggles,
            TableButton(target.but("double_max"), label="Maximum", row=1),
            TableButton(target.but("double_pass"), label="Pass", row=1),
            TableButton(
                target.but("double_confirm", seat_set_arg(chosen)),
                label=f"Confirm ({summary})",
                style=discord.ButtonStyle.primary,
                row=1,
            ),
        ]

    # ---- clicks ------------------------------------------------------------------------

    async def on_turn_component(self, turn: Turn) -> None:
        state: BarbuState = turn.state  # type: ignore[assignment]
        verb, arg = turn.target.verb, turn.target.arg
        if verb == "decide":
            payload = await asyncio.to_thread(self.private_payload, turn.table, state, turn.seat)
            await turn.interaction.response.send_message(ephemeral=True, **payload)
        elif verb == "contract" and arg in DETAILED_CONTRACTS:
            await self._ask_contract_detail(turn, arg)
        elif verb == "contract":
            await self._play(turn, arg)
        elif verb == "trump":
            await self._play(turn, f"trumps:{arg}")
        elif verb == "domino":
            await self._play(turn, f"domino:{arg}")
        elif verb == "play":
            await self._play(turn, turn.values[0] if len(turn.values) == 1 else arg)
        elif verb.startswith("double_") and state.phase == "doubling":
            await self._on_doubling(turn, state)
        else:
            await turn.interaction.response.send_message(UNKNOWN_CONTROL, ephemeral=True)

    async def _ask_contract_detail(self, turn: Turn, contract: str) -> None:
        target = turn.target
        buttons: list[discord.ui.Item[Any]]
        if contract == "trumps":
            question = "Choose the trump suit:"
            buttons = [
                TableButton(
                    target.but("trump", suit),
                    label=SUIT_NAMES[index].capitalize(),
                    emoji=SUIT_SYMBOLS[suit],
                )
                for index, suit in enumerate(SUITS)
            ]
        else:
            question = "Choose the starting rank for Domino:"
            buttons = [
                TableButton(
                    target.but("domino", rank),
                    label=RANK_PLURALS[index].capitalize(),
                    row=index // 5,
                )
                for index, rank in enumerate(RANKS)
            ]
        await turn.interaction.response.send_message(
            question, view=view_of(buttons), ephemeral=True
        )

    async def _on_doubling(self, turn: Turn, state: BarbuState) -> None:
        choice = state.doubling_choice()
        assert choice is not None
        verb = turn.target.verb
        chosen = parse_seat_set(turn.target.arg)
        if chosen is None or not chosen <= set(choice.targets):
            await turn.interaction.response.send_message(UNKNOWN_CONTROL, ephemeral=True)
        elif verb == "double_toggle":
            panel = self._doubling_panel(turn.target, choice, chosen, turn.table.names)
            await turn.interaction.response.edit_message(view=view_of(panel))
        elif verb == "double_max":
            await self._play(turn, choice.maximum)
        elif verb == "double_pass":
            await self._play(turn, PASS)
        elif verb == "double_confirm":
            await self._play(turn, choice.action_for(chosen))
        else:
            await turn.interaction.response.send_message(UNKNOWN_CONTROL, ephemeral=True)

    async def _play(self, turn: Turn, action: str) -> None:
        """Play ``action``; a private message the click came from says what was done."""
        before: BarbuState = turn.state  # type: ignore[assignment]
        done = None
        if is_private(turn.interaction) and action in before.legal_actions():
            done = f"✅ {before.describe(action, turn.table.names)}"
        await self.tables.play(turn, [action], done=done)

    # ---- finished deals ----------------------------------------------------------------

    async def after_play(self, turn: Turn, table: Table, after: Any, done: str | None) -> None:
        """Post each deal the play finished: its scores and the score sheet."""
        view = after.view(None)
        told = len(turn.state.history)  # type: ignore[attr-defined]
        finished = len(view["history"])
        if finished <= told:
            return
        names = table.names
        # The engine counts deals in ``deal``; the history holds the finished ones, newest last.
        first_number = view["deal"] - finished + 1
        lines = [
            f"📋 Barbu game #{table.id}: deal {first_number + index} of {view['total_deals']} "
            f"is over. {self._deal_sentence(view['history'][index], names)}"
            for index in range(told, finished)
        ]
        lines.append(f"Totals: {scores_list(view['totals'], names)}.")
        png = await asyncio.to_thread(render_barbu_scores, view, names)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(
            "\n".join(lines),
            file=discord.File(io.BytesIO(png), filename=f"barbu-scores-{table.id}.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    def private_recipients(self, table: Table, before: GameState | None, after: Any) -> list[int]:
        """Every human at a new deal; otherwise the human whose decision it now is."""
        if after.is_over:
            return []
        humans = [seat for seat, player in enumerate(table.seats) if not player.is_computer]
        if before is None or before.deal_number != after.deal_number:
            return humans
        return [after.current_player] if after.current_player in humans else []

    def narrate(self, table: Table, before: Any, action: str, after: Any) -> list[str]:
        return [before.describe(action, table.names)]

    def rules_embed(self) -> discord.Embed:
        return discord.Embed(
            title="Barbu: the rules in short", description=RULES, colour=self.colour
        )

    # ---- slash commands ----------------------------------------------------------------

    @group.command(name="new", description="Open a Barbu table in this channel (four players)")
    @app_commands.describe(
        series="Declarer series of seven deals each (default 4: everyone declares once)",
        computers="Computer players to seat at once (more can be added in the lobby)",
        computer_level=LEVEL_HELP,
        discard_king="In Barbu, the king of hearts must go the first time its holder cannot "
        "follow suit",
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCK_OPTIONS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        series: app_commands.Range[int, 1, 4] = 4,
        computers: app_commands.Range[int, 0, 3] = 0,
        computer_level: Level = "normal",
        discard_king: bool = False,
        clock: app_commands.Choice[int] | None = None,
    ) -> None:
        await self.tables.open_lobby(
            interaction,
            "barbu",
            options={"series": series, "discard_king": discard_king},
            computers=computers,
            level=computer_level,
            clock=clock.value if clock else None,
        )

    @group.command(name="rules", description="How to play Barbu")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=self.rules_embed(), ephemeral=True)

    @group.command(name="scores", description="The score sheet of this channel's Barbu game")
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.tables.store.open_table_in(interaction.channel_id or 0)
        if table is None or table.kind != "barbu" or table.state is None:
            await interaction.response.send_message(
                "There is no Barbu game running in this channel.", ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = self.spec.from_dict(table.state).view(None)
        png = await asyncio.to_thread(render_barbu_scores, view, table.names)
        await interaction.followup.send(
            f"Barbu game #{table.id}: {len(view['history'])} of {view['total_deals']} deals "
            f"played. Totals: {scores_list(view['totals'], table.names)}.",
            file=discord.File(io.BytesIO(png), filename=f"barbu-scores-{table.id}.png"),
            ephemeral=True,
        )

    @group.command(name="play", description="Play in notation: a card, a contract, doubles")
    @app_commands.describe(
        move="A card (QS, TD), a contract (notricks, trumps:H, domino:5), double:0,2 or pass"
    )
    async def play(self, interaction: discord.Interaction[Any], move: str) -> None:
        await self.tables.text_move(interaction, "barbu", [move.strip()])


def is_private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click came from an ephemeral message or a DM, not from the board."""
    message = interaction.message
    if message is None:
        return False
    return message.flags.ephemeral or interaction.guild_id is None


def contract_title_of(action: str | None) -> str:
    """``trumps:H`` as "Trumps (hearts)", ``domino:5`` as "Domino from the fives"."""
    if not action:
        return "contract"
    name, _, detail = action.partition(":")
    if name == "trumps" and detail:
        return contract_label(name, trump=SUITS.index(detail))
    if name == "domino" and detail:
        return contract_label(name, start_rank=RANKS.index(detail))
    return CONTRACT_TITLES.get(name, name)
