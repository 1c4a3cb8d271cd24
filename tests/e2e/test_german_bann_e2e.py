"""A German Bann table through the real discord.py against the fake Discord: a German
server and two German clients play whole games by clicks (a draw offered and declined,
then a win; a draw offered and accepted), and nothing any of them saw is English."""

from __future__ import annotations

import random

from german import english_seen
from stored import stored_game, stored_state

from fakediscord import Message, SimUser
from games import GAMES
from games.bann import BannState

BANN = GAMES["bann"]


def _german(world) -> None:
    world.guild.preferred_locale = "de"
    for user in (world.alice, world.bob):
        user.locale = "de"


def _mover(state: BannState, seats: list[SimUser]) -> SimUser:
    assert state.current_player is not None
    return seats[state.current_player]


async def _play(user: SimUser, board: Message, action: str) -> str:
    """Tip with the board's German button, pick the move in the private menu; the
    private confirmation."""
    tip = action.split(">")[0]
    opened = await user.click(board, f"Auf {tip} kippen")
    assert len(opened.ephemeral) == 1, "the tip opens one private move menu"
    menu = opened.ephemeral[0]
    assert menu.content.startswith(f"Dein Würfel wird **{tip}** zeigen.")
    chosen = await user.select(menu, [action])
    return chosen.message.content


async def _german_table(world, start_bot) -> Message:
    _german(world)
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    lobby = opened.message
    assert lobby.embeds[0]["title"] == "Bann: Tisch #1"
    assert lobby.content == f"<@{world.bob.id}>, du bist zu einer Partie Bann eingeladen."
    joined = await world.bob.click(lobby, "Beitreten")
    return joined.message


async def test_a_german_table_plays_bann_to_a_win_in_german(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await _german_table(world, start_bot)
    seats = [world.alice, world.bob]
    rules = await world.alice.slash(world.games, "bann rules")
    assert rules.message.embeds[0]["title"] == "Bann: die Regeln in Kürze"
    assert rules.message.embeds[0]["description"].startswith("**So wird gespielt**")

    state = stored_state(database_path)
    waiting = seats[1 - state.current_player]
    refused = await waiting.click(board, "Remis anbieten")
    assert refused.message.content.startswith("Du bist nicht am Zug:")

    offerer = _mover(state, seats)
    await offerer.click(board, "Remis anbieten")
    assert "bietet Remis an." in board.embeds[0]["description"]
    await waiting.click(board, "Remis ablehnen")
    assert board.content.endswith("lehnt das Remis ab.")

    chooser = random.Random(7)
    moves = 0
    while not (state := stored_state(database_path)).is_over:
        player = _mover(state, seats)
        if player is world.alice:
            action = BANN.bot_action(state, seed=moves)
        else:
            action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        confirmation = await _play(player, board, action)
        assert confirmation.startswith("✅ Du hast auf")
        moves += 1
        assert moves < 300

    assert stored_game(database_path)["status"] == "finished"
    assert "gewinnt" in board.embeds[0]["description"]
    assert world.games.public_messages()[-1].content.startswith("🏁 Bann-Partie #1:")
    assert english_seen(world.games, seats) == {}


async def test_a_german_table_agrees_a_draw_in_german(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await _german_table(world, start_bot)
    seats = [world.alice, world.bob]
    state = stored_state(database_path)
    offerer = _mover(state, seats)
    answerer = seats[1 - state.current_player]

    await offerer.click(board, "Remis anbieten")
    await answerer.click(board, "Remis annehmen")

    assert stored_state(database_path).is_over
    assert board.embeds[0]["description"] == "Remis durch Einigung."
    assert board.buttons() == [], "a finished board takes no more clicks"
    assert world.games.public_messages()[-1].content.startswith(
        "🏁 Bann-Partie #1: Remis durch Einigung."
    )
    assert english_seen(world.games, seats) == {}


async def test_a_german_client_resigns_in_german(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await _german_table(world, start_bot)
    asked = await world.bob.click(board, "Aufgeben")
    assert asked.message.content == "Willst du wirklich aufgeben? Die Partie zählt als Niederlage."
    await world.bob.click(asked.message, "Ja, aufgeben")

    assert board.embeds[0]["description"] == "Bob hat aufgegeben: Alice gewinnt."
    assert english_seen(world.games, [world.alice, world.bob]) == {}


async def test_the_bann_and_game_commands_carry_german_names(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    commands = {command["name"]: command for command in world.commands.listing(None)}
    bann, game = commands["bann"], commands["game"]
    options = {option["name"]: option for option in bann["options"]}

    assert bann["description_localizations"]["de"] == "Bann: Springer, Würfel und Banne"
    assert options["new"]["name_localizations"]["de"] == "neu"
    assert options["new"]["description_localizations"]["de"] == (
        "Einen Bann-Tisch in diesem Kanal eröffnen"
    )
    new_options = {option["name"]: option for option in options["new"]["options"]}
    assert new_options["opponent"]["name_localizations"]["de"] == "gegner"
    assert new_options["opponent"]["description_localizations"]["de"] == (
        "Einen Spieler einladen (nur er kann den Platz nehmen)"
    )
    assert options["rules"]["name_localizations"]["de"] == "regeln"
    assert options["rules"]["description_localizations"]["de"] == "So wird Bann gespielt"
    move = options["move"]
    assert move["name_localizations"]["de"] == "zug"
    assert move["description_localizations"]["de"] == "Einen Zug in Notation spielen, z. B. 4>5:N"
    assert move["options"][0]["description"].startswith("tip>knight"), "Bann's own notation"
    assert move["options"][0]["description_localizations"]["de"].startswith("Kippen>Springer")
    assert game["name_localizations"]["de"] == "partie"
    game_options = {option["name"]: option for option in game["options"]}
    assert game_options["board"]["name_localizations"]["de"] == "brett"
    assert game_options["resign"]["name_localizations"]["de"] == "aufgeben"


async def test_a_german_lobby_board_and_abandon_speak_german(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    _german(world)
    world.carol.locale = "de"
    await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new")).message
    labels = [b.label for b in lobby.buttons()]
    assert labels == ["Beitreten", "Verlassen", "Beginnen", "Abbrechen", "Tipps: aus"]
    assert lobby.embeds[0]["footer"]["text"] == (
        "Es fehlt noch 1 Spieler. Tritt bei, oder wer den Tisch eröffnet hat, fügt"
        " Computerspieler hinzu."
    )
    again = await world.alice.click(lobby, "Beitreten")
    assert again.ephemeral[0].content == "Du sitzt schon an diesem Tisch."
    refused = await world.bob.select(lobby, ["hard"], placeholder="Computer hinzufügen …")
    assert refused.ephemeral[0].content == (
        "Nur wer den Tisch eröffnet hat, kann Computerspieler hinzufügen."
    )
    await world.alice.select(lobby, ["easy"], placeholder="Computer hinzufügen …")
    assert stored_game(database_path)["status"] == "active"

    shown = await world.alice.slash(world.games, "game board")
    assert shown.message.embeds[0]["title"] == "Bann: Partie #1"
    footer = shown.message.embeds[0]["footer"]["text"]
    assert "mit /partie export (oder /game export) prüfbar" in footer, "English clients too"
    not_seated = await world.carol.click(shown.message, "Aufgeben")
    assert not_seated.message.content == "Du spielst in dieser Partie nicht mit."
    assert "AdaBot (leicht)" in stored_game(database_path)["seats"], "its level in German"
    refused = await world.carol.slash(world.games, "game abandon")
    assert refused.message.content.startswith("Nur wer die Partie eröffnet hat")
    asked = await world.alice.slash(world.games, "game abandon")
    assert asked.message.content.startswith("Die Bann-Partie #1 jetzt für alle beenden?")
    await world.alice.click(asked.message, "Ja, abbrechen")

    announcement = world.games.public_messages()[-1].content
    assert announcement.startswith(
        "Bann-Partie #1: Abgebrochen von Alice; die Partie wird nicht gewertet."
    )
    assert "`/partie export partie:1` (oder `/game export game:1`) liefert" in announcement
    assert english_seen(world.games, [world.alice, world.bob, world.carol]) == {}


async def test_a_german_client_at_an_english_table_is_answered_in_german(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    world.bob.locale = "de"
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    board = (await world.bob.click(opened.message, "Join")).message
    state = stored_state(database_path)
    waiting = [world.alice, world.bob][1 - state.current_player]
    refusal = "Du bist nicht am Zug:" if waiting is world.bob else "It is not your turn:"

    answered = await waiting.click(board, "Offer draw")

    assert answered.message.content.startswith(refusal)
    assert board.embeds[0]["title"] == "Bann: game #1", "the table stays English"
