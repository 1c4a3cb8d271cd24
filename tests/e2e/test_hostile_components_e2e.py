"""Every family of persistent component attacked as a hostile client would: forged
custom_ids of tables (``tb:``/``ts:``), league pages (``lg:``) and the replay menu
(``replay:pick``), each sent as a button and as a select, on the board, in a DM and from
another server; on every game's board and on a Barbu hand, every verb that game has no
control for (the other games', a made-up one) and a menu of another phase. Each gets one
short private answer, never an ERROR log or an unanswered interaction (the harness fails
on either), and leaves every row of the database as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from stored import stored_game, stored_state, typed
from test_archive_hostile_e2e import resign_a_bann_game, resign_a_bann_game_in
from test_hostile_input import assert_short_private_refusal
from testdb import TestDatabase

from fakediscord import Message, Result, SimUser
from games import GAMES

MESSAGE_COMPONENT = 3
BUTTON, SELECT = 2, 3


def every_row(database: TestDatabase) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table the bot keeps, in a stable order."""
    names = [
        row["name"]
        for row in database.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not row["name"].startswith("sqlite_")
    ]
    return {
        name: sorted(database.rows(f"SELECT * FROM {name}"), key=repr) for name in sorted(names)
    }


def placed(message: Message, custom_id: str, kind: int) -> dict[str, Any]:
    """A component a modified client claims sits on ``message``."""
    if kind == BUTTON:
        component = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    else:
        option = {"label": "forged", "value": "forged"}
        component = {"type": 3, "custom_id": custom_id, "options": [option]}
    return {"type": 1, "components": [component]}


async def forged(
    world,
    user: SimUser,
    message: Message,
    custom_id: str,
    *,
    kind: int = BUTTON,
    values: list[str] | None = None,
    place: int | None = None,
) -> Result:
    """Send a component interaction for ``custom_id`` on ``message`` as component type
    ``kind``; with ``place`` (a component type) a forged component of that type carrying
    the id is added to the message first, so discord.py finds it there."""
    if place is not None:
        message.components.append(placed(message, custom_id, place))
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if kind == SELECT:
        data["values"] = list(values if values is not None else ["forged"])
    try:
        return await world.fake.run_interaction(
            user=user,
            channel=message.channel,
            kind=MESSAGE_COMPONENT,
            data=data,
            label=f"forged {kind} {custom_id!r}",
            source=message,
        )
    finally:
        if place is not None:
            message.components.pop()


async def refused_and_unchanged(world, user, message, custom_id, database, **how) -> str:
    before = every_row(database)
    result = await forged(world, user, message, custom_id, **how)
    answer = assert_short_private_refusal(result, user)
    assert every_row(database) == before, f"{custom_id!r} {how} changed the database"
    return answer


async def bann_board(world):
    return (await world.alice.slash(world.games, "bann new", computer="normal")).message


# ---- tb: and ts: ------------------------------------------------------------------------


OWN_CHOICES = ("pause", "resign", "resign_yes")


def table_forgeries(game_id: int, version: int) -> list[str]:
    return [
        f"tb:999999:{version}:tip:3",
        f"tb:{'9' * 18}:{version}:tip:3",
        f"tb:0:{version}:tip:3",
        f"tb:{game_id}:{'9' * 9}:tip:3",
        f"tb:{game_id}:{version}:tip:١",
        f"tb:{game_id}:{version}:private:",
        f"ts:{game_id}:{version}:private:",
        f"tb:{game_id}:{version}:no_such_verb:",
        f"tb:{game_id}:{version}:rejoin:",
        f"tb:{game_id}:{version}:resume:",
        f"tb:{game_id}:{version}:join:",
        f"tb:{game_id}:{version}:leave:",
        f"tb:{game_id}:{version}:start:",
        f"tb:{game_id}:{version}:cancel:",
        f"ts:{game_id}:{version}:addbot:",
        f"ts:{game_id}:{version}:move:3>2",
        f"tb:{game_id}:{version}:rematch:",
    ]


@pytest.mark.parametrize("who", ["alice", "carol"])
async def test_forged_table_ids_on_a_bann_board_are_refused_and_change_nothing(
    fake_discord, start_bot, database, who
):
    world = fake_discord
    await start_bot()
    board = await bann_board(world)
    game = stored_game(database)
    user = getattr(world, who)
    forgeries = table_forgeries(game["id"], game["version"])
    if who == "carol":
        # Pausing and resigning are the seated player's own choices (`/game pause`).
        forgeries += [f"tb:{game['id']}:{game['version']}:{verb}:" for verb in OWN_CHOICES]
    for custom_id in forgeries:
        for kind in (BUTTON, SELECT):
            await refused_and_unchanged(
                world, user, board, custom_id, database, kind=kind, place=kind
            )


async def test_a_board_control_sent_as_the_other_kind_of_component_is_refused(
    fake_discord, start_bot, database
):
    """The real custom_id of a button sent as a select and of a select sent as a button:
    discord.py finds no component of that type on the message and would drop the click."""
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "gulbara new", computer="normal")).message
    buttons = [button.custom_id for button in board.buttons() if button.custom_id]
    selects = [select.custom_id for select in board.selects()]
    assert buttons and selects
    for custom_id in buttons:
        await refused_and_unchanged(world, world.alice, board, custom_id, database, kind=SELECT)
    for custom_id in selects:
        await refused_and_unchanged(world, world.alice, board, custom_id, database, kind=BUTTON)


async def test_table_ids_forged_in_a_dm_are_refused_and_change_nothing(
    fake_discord, start_bot, database
):
    """Barbu's hands arrive by DM with real table buttons; a DM takes no lobby, no
    other game's controls, no made-up verbs, no league page and no replay pick (game #3
    ended, so there is one to ask for)."""
    world = fake_discord
    await start_bot()
    lobby = (await world.bob.slash(world.games, "bann new")).message
    bann = stored_game(database)
    await world.alice.slash(
        world.games.guild.add_text_channel("cards"), "barbu new", series=1, computers=3
    )
    barbu = stored_game(database)
    hand = world.alice.dms[-1]
    assert hand.buttons(), "the hand came by DM with its controls"
    await resign_a_bann_game_in(world, world.carol, world.games.guild.add_text_channel("ended"))
    ended = stored_game(database)
    await world.carol.slash(world.games, "league standings", game="bann")
    season = max(row["id"] for row in database.rows("SELECT id FROM league_seasons"))
    forgeries = [
        f"tb:{bann['id']}:{bann['version']}:join:",
        f"tb:{bann['id']}:{bann['version']}:start:",
        f"tb:{bann['id']}:{bann['version']}:cancel:",
        f"ts:{bann['id']}:{bann['version']}:addbot:",
        f"tb:{barbu['id']}:{barbu['version']}:join:",
        f"tb:{barbu['id']}:{barbu['version']}:no_such_verb:",
        f"tb:{barbu['id']}:{barbu['version'] + 1}:play:AS",
        f"tb:{'9' * 18}:1:play:AS",
        f"tb:{ended['id']}:{ended['version']}:rematch:",
        f"lg:next:bann:{season}:1",
        "replay:pick",
    ]
    for custom_id in forgeries:
        for kind in (BUTTON, SELECT):
            await refused_and_unchanged(
                world, world.alice, hand, custom_id, database, kind=kind, place=kind
            )
    assert [b.label for b in lobby.buttons()][:1] == ["Join"], "the lobby is untouched"


# ---- every game's verbs on every game's board ---------------------------------------


GAME_VERBS = {
    "bann": {"tip": "3", "move": "1", "act": "offer"},
    "gulbara": {"from": "", "step": "24/18", "steps": "24/18/12", "undo": ""},
    "barbu": {
        "decide": "",
        "contract": "trumps",
        "trump": "S",
        "domino": "7",
        "play": "AS",
        "double_toggle": "1",
        "double_max": "",
        "double_pass": "",
        "double_confirm": "1",
    },
    "barree": {
        "roll": "",
        "walks": "",
        "drive": "",
        "walk_to": "5",
        "walk": "1-2",
        "send": "",
        "keep": "",
    },
}
"""Each game's own component verbs, each with an argument of the kind it takes."""


def foreign_verbs(kind: str) -> dict[str, str]:
    """The verbs a ``kind`` table has no control for: the other games', a typed move's
    (never a component), a made-up one, and "My hand" on a game without hidden cards."""
    verbs = {"text": "", "no_such_verb": "3"}
    if not GAMES[kind].hidden_information:
        verbs["private"] = ""
    for theirs in GAME_VERBS.values():
        verbs |= {verb: arg for verb, arg in theirs.items() if verb not in GAME_VERBS[kind]}
    return verbs


async def table_with_alice_to_act(world, kind: str) -> None:
    if kind == "barbu":
        await world.alice.slash(world.games, "barbu new", series=1, computers=3)
    elif kind == "barree":
        lobby = (await world.alice.slash(world.games, "barree new", computers=1)).message
        await world.alice.click(lobby, "Start")
    else:
        await world.alice.slash(world.games, f"{kind} new", computer="normal")


def newest_board(channel) -> Message:
    return next(m for m in reversed(channel.public_messages()) if m.attachments and m.components)


async def forged_verbs_refused(world, database, message: Message, verbs: dict[str, str]) -> None:
    """Each verb forged onto ``message`` as a button and as a select: one short private
    refusal, the message as it was and every database row unchanged."""
    game = stored_game(database)
    for verb, arg in verbs.items():
        for prefix, kind in (("tb", BUTTON), ("ts", SELECT)):
            custom_id = f"{prefix}:{game['id']}:{game['version']}:{verb}:{arg}"
            shown = (message.content, list(message.components), list(message.attachments))
            await refused_and_unchanged(
                world, world.alice, message, custom_id, database, kind=kind, place=kind
            )
            assert (message.content, message.components, message.attachments) == shown, custom_id


@pytest.mark.parametrize("kind", list(GAME_VERBS))
async def test_other_games_verbs_on_a_board_and_a_hand_are_refused_and_change_nothing(
    fake_discord, start_bot, database, kind
):
    """Forged on the game's board (and on a Barbu hand sent by DM) in every phase Alice
    meets in the first decisions of a game: every verb that game has no control for."""
    world = fake_discord
    await start_bot()
    await table_with_alice_to_act(world, kind)
    phases: set[str] = set()
    for decision in range(40):
        state = stored_state(database)
        if state.is_over:
            break
        assert state.current_player == 0, "the computers answer at once"
        phase = getattr(state, "phase", "")
        if phase not in phases:
            phases.add(phase)
            messages = [newest_board(world.games)]
            if kind == "barbu":
                messages.append(world.alice.dms[-1])
            for message in messages:
                await forged_verbs_refused(world, database, message, foreign_verbs(kind))
        action = GAMES[kind].bot_action(state, seed=decision)
        await world.alice.slash(world.games, f"{kind} move", notation=typed(action))
    assert len(phases) == {"bann": 1, "gulbara": 1, "barbu": 2, "barree": 3}[kind], phases


async def test_a_barree_menu_of_another_phase_is_refused(fake_discord, start_bot, database):
    """The walk menu is for the phase after a roll, the sending menu for a piece landed
    on: asked for in another phase (a forged click; the board offers neither then),
    each is refused instead of drawing a menu of nothing."""
    world = fake_discord
    await start_bot()
    await table_with_alice_to_act(world, "barree")
    other_phases = {"roll": ("walks", "drive"), "move": ("drive",), "drive": ("walks",)}
    met: set[str] = set()
    for decision in range(40):
        state = stored_state(database)
        if state.phase not in met and state.phase in other_phases:
            met.add(state.phase)
            menus = {verb: "" for verb in other_phases[state.phase]}
            await forged_verbs_refused(world, database, newest_board(world.games), menus)
        if met == set(other_phases):
            return
        action = GAMES["barree"].bot_action(state, seed=decision)
        await world.alice.slash(world.games, "barree move", notation=typed(action))
    raise AssertionError(f"Alice met only the phases {met}")


# ---- lg: ---------------------------------------------------------------------------------


async def other_server(world):
    """A second server alice belongs to too, with a channel and a league season."""
    guild = world.fake.add_guild("Other Server")
    channel = guild.add_text_channel("elsewhere")
    guild.members.append(world.alice)
    return guild, channel


async def test_forged_league_pages_are_refused_and_change_nothing(
    fake_discord, start_bot, database
):
    world = fake_discord
    _, elsewhere = await other_server(world)
    await start_bot()
    await world.alice.slash(elsewhere, "league standings", game="bann")
    (theirs,) = database.rows("SELECT id FROM league_seasons")
    standings = (await world.bob.slash(world.games, "league standings", game="bann")).message
    ours = max(row["id"] for row in database.rows("SELECT id FROM league_seasons"))
    board = await bann_board(world)
    forgeries = [
        f"lg:next:nim:{ours}:0",
        f"lg:next:unknown_game:{ours}:0",
        "lg:prev:bann:999999999:0",
        f"lg:prev:bann:{theirs['id']}:0",
        f"lg:next:bann:{ours}:٣",
        f"lg:next:bann:{ours}:9999999",
        f"lg:jump:bann:{ours}:1",
        f"lg:next:bann:{ours}",
    ]
    for message in (standings, board):
        for custom_id in forgeries:
            for kind in (BUTTON, SELECT):
                await refused_and_unchanged(
                    world, world.carol, message, custom_id, database, kind=kind, place=kind
                )


async def test_a_league_page_of_this_server_on_a_foreign_message_leaves_the_board_alone(
    fake_discord, start_bot, database
):
    """A page button is answered on its standings message only: pasted under a board it
    must not turn the board into a leaderboard."""
    world = fake_discord
    await start_bot()
    await world.bob.slash(world.games, "league standings", game="bann")
    season = max(row["id"] for row in database.rows("SELECT id FROM league_seasons"))
    board = await bann_board(world)
    shown = (board.content, list(board.attachments), list(board.components))
    await refused_and_unchanged(
        world, world.carol, board, f"lg:next:bann:{season}:0", database, place=BUTTON
    )
    assert (board.content, list(board.attachments), list(board.components)) == shown


# ---- replay:pick -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values",
    [["1e3"], ["٣"], [""], [], ["1", "1"], ["2"], ["3"], ["4"], ["0"], ["-1"], ["9" * 100]],
)
async def test_forged_replay_picks_are_refused_and_change_nothing(
    fake_discord, start_bot, database, values
):
    """Game #1 ended where carol reads (so her history offers its replay), #2 ended in a
    channel she cannot see, #3 runs, #4 ended on another server."""
    world = fake_discord
    _, elsewhere = await other_server(world)
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    back_room = world.guild.add_text_channel("back-room")
    back_room.hide_from(world.carol)
    await resign_a_bann_game_in(world, world.alice, back_room)
    await bann_board(world)
    await resign_a_bann_game_in(world, world.alice, elsewhere)
    assert [row["id"] for row in database.rows("SELECT id FROM games ORDER BY id")] == [1, 2, 3, 4]
    history = (await world.carol.slash(world.games, "league history")).message
    assert [select.values for select in history.selects()] == [["1"]]
    answer = await refused_and_unchanged(
        world, world.carol, history, "replay:pick", database, kind=SELECT, values=values
    )
    assert "Replay" not in answer


async def test_the_replay_menu_sent_as_a_button_or_placed_elsewhere_is_refused(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    history = (await world.carol.slash(world.games, "league history")).message
    board = await bann_board(world)
    await refused_and_unchanged(world, world.carol, history, "replay:pick", database, kind=BUTTON)
    for message in (history, board):
        await refused_and_unchanged(
            world, world.carol, message, "replay:pick", database, kind=BUTTON, place=BUTTON
        )
