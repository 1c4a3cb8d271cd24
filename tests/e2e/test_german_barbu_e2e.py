"""A German server and four German clients play Barbu by clicks, and read no English.

Deal 1 is played in full: Trumpf with its suit, a doubling round with a double, a
maximum, a pass and a redouble, every card clicked in a hand DM or in the hand behind the
board's hand button, and a typed card she does not hold is refused. Then the table skips
to the last deal, Domino from a starting rank, played to the end of the game. Along the
way a player asks for the score sheet and the rules. Everything the four saw (public
messages with every version, their private answers and their DMs) holds no English word.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from german import english_seen
from stored import arrange, board_in, stored_game, stored_state

from fakediscord import Message, Result, SimUser
from games import GAMES
from games.barbu import BarbuState
from texts.barbu import card_label

BARBU = GAMES["barbu"]
SUITS_DE = {"S": "Pik", "H": "Herz", "C": "Kreuz", "D": "Karo"}


def alice_declares_first() -> Iterator[int]:
    for seed in itertools.count(1000):
        if BARBU.new_game(seed=seed).declarer == 0:
            yield seed


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """Seeds whose first deal Alice (seat 0) declares."""
    return alice_declares_first()


def labels(message: Message) -> list[str]:
    return [button.label or "" for button in message.buttons()]


async def press(user: SimUser, message: Message, verb: str) -> Result:
    """Press the button whose target is ``verb`` (the table machinery's buttons, found
    by what they do, whatever their label)."""
    button = next(b for b in message.buttons() if (b.custom_id or "").split(":")[3] == verb)
    return await user.click(message, custom_id=button.custom_id)


class GermanTable:
    def __init__(self, world, database_path, board: Message) -> None:
        self.world = world
        self.database_path = database_path
        self.board = board
        self.players: list[SimUser] = [world.alice, world.bob, world.carol, world.dave]
        self.step = 0
        self.routes: set[str] = set()

    @property
    def state(self) -> BarbuState:
        state = stored_state(self.database_path)
        assert isinstance(state, BarbuState)
        return state

    @property
    def names(self) -> list[str]:
        return [user.name for user in self.players]

    async def hand(self, user: SimUser) -> Message:
        """The player's hand with his controls: alternately his DM and the board's button."""
        if self.step % 3 and user.dms and user.dms[-1].buttons():
            self.routes.add("dm")
            return user.dms[-1]
        self.routes.add("button")
        shown = await press(user, self.board, "private")
        return shown.ephemeral[0]

    async def choose(self, contract: str, detail: str) -> None:
        """Alice picks ``contract`` on the board, then its suit or starting rank."""
        asked = await self.world.alice.click(self.board, contract)
        assert asked.ephemeral, "the suit or rank is asked privately"
        await self.world.alice.click(asked.ephemeral[0], detail)

    async def double(self, seat: int, toggles: list[str]) -> Message:
        """The player toggles ``toggles`` on his panel and confirms; returns the panel."""
        user = self.players[seat]
        panel = await self.hand(user)
        for label in toggles:
            await user.click(panel, label)
        confirm = next(label for label in labels(panel) if label.endswith("bestätigen"))
        await user.click(panel, confirm)
        return panel

    async def play_on(self) -> None:
        """Each player to act plays the computer's choice by a click, until the deal ends."""
        deal = self.state.deal_number
        while not (state := self.state).is_over and state.deal_number == deal:
            seat = state.current_player
            assert seat is not None and state.phase == "play"
            action = BARBU.bot_action(state, seed=self.step)
            user = self.players[seat]
            hand = await self.hand(user)
            if action == "pass":
                await user.click(hand, "Passen (keine Karte passt)")
            else:
                await user.click(hand, card_label("de", action))
            self.step += 1
            assert self.step < 200


async def test_four_german_players_play_barbu_in_german(fake_discord, start_bot, database_path):
    world = fake_discord
    world.guild.preferred_locale = "de"
    players = [world.alice, world.bob, world.carol, world.dave]
    for user in players:
        user.locale = "de"
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    for user in players[1:-1]:
        await press(user, lobby, "join")
    board = (await press(world.dave, lobby, "join")).message
    table = GermanTable(world, database_path, board)
    assert table.state.declarer == 0

    contracts = labels(board)[:7]
    assert contracts == [
        "Keine Stiche",
        "Keine Damen",
        "Keine letzten zwei",
        "Keine Herzen",
        "Barbu",
        "Trumpf …",
        "Domino …",
    ]
    await table.choose("Trumpf …", "Herz")
    assert "Vertrag: **Trumpf (Herz)**" in board.embeds[0]["description"]
    bob_panel = await table.double(1, ["Alice doppeln"])
    assert bob_panel.content == "✅ Du hast Alice gedoppelt."
    carol = await table.hand(world.carol)
    await world.carol.click(carol, "Maximum")
    dave = await table.hand(world.dave)
    await world.dave.click(dave, "Passen")
    alice_panel = await table.hand(world.alice)
    assert labels(alice_panel)[:2] == ["Bob zurückdoppeln", "Carol zurückdoppeln"]
    await world.alice.click(alice_panel, "Bob zurückdoppeln")
    assert "1 Doppel bestätigen" in labels(alice_panel)
    await world.alice.click(alice_panel, "1 Doppel bestätigen")
    assert table.state.phase == "play"
    version = stored_game(database_path)["version"]
    not_hers = table.state.view(1)["hand"][0]
    typed = await world.alice.slash(world.games, "barbu move", notation=not_hers)
    assert typed.message.is_ephemeral and not_hers in typed.message.content
    assert stored_game(database_path)["version"] == version, "a refused move changes nothing"

    scores = await world.bob.slash(world.games, "barbu scores")
    assert scores.message.content.startswith("Barbu-Partie #1: 0 von 7 Spielen gespielt.")
    rules = await world.carol.slash(world.games, "barbu rules")
    assert rules.message.embeds, "the rules come as an embed"

    await table.play_on()
    assert {"dm", "button"} <= table.routes
    summary = next(m for m in world.games.public_messages() if m.content.startswith("📋"))
    assert "Spiel 1 von 7 ist vorbei. Trumpf (Herz) von Alice:" in summary.content
    assert "Gesamt: Alice" in summary.content

    board = await arrange(
        world, database_path, deal_number=6, remaining=["domino"], declarer_doubled=[0, 2, 2, 2]
    )
    table.board = board
    await table.choose("Domino …", "Fünfen")
    while (state := table.state).phase == "doubling":
        seat = state.current_player
        assert seat is not None
        user = table.players[seat]
        await user.click(await table.hand(user), "Passen")
    assert "Vertrag: **Domino (Fünfen)**" in board.embeds[0]["description"]
    await table.play_on()

    assert stored_game(database_path)["status"] == "finished"
    board = board_in(world.games, database_path)
    assert " mit " in board.embeds[0]["description"], "the result names the winner"
    assert english_seen(world.games, players) == {}
