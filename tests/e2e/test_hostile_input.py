"""What a hostile client can send: select values that were never offered, forged and
replayed custom_ids, absurd text. Each gets a short private answer and changes nothing.

The fake's simulated users only pick offered values and click existing buttons; these
tests go around that the way a modified client would, by dispatching the raw
interaction (and, for forged ids, by adding the forged component to the message the
client claims to have clicked).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from stored import stored_game

from fakediscord import Message, Result, SimUser

MESSAGE_COMPONENT = 3
DISCORD_CONTENT_LIMIT = 2000
UNICODE_DIGITS = "²³٣۴߃१১０𝟙"


def examples(strategy: st.SearchStrategy, count: int) -> list:
    """``count`` values hypothesis generates for ``strategy`` (same ones every run)."""
    found: list = []

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value):
        found.append(value)

    collect()
    return found[:count]


hostile_values = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.text(alphabet="0123456789>:/-NESWsend" + UNICODE_DIGITS, max_size=12),
        st.builds(lambda n: "9" * n, st.integers(90, 6000)),
    ),
    max_size=30,
)


async def raw_select(world, user: SimUser, message: Message, custom_id: str, values) -> Result:
    return await world.run_interaction(
        user=user,
        channel=message.channel,
        kind=MESSAGE_COMPONENT,
        data={"custom_id": custom_id, "component_type": 3, "values": list(values)},
        label=f"forged select {custom_id!r}",
        source=message,
    )


async def forged_click(world, user: SimUser, message: Message, custom_id: str, *, place=True):
    """Click ``custom_id`` on ``message``; with ``place`` the forged button is added to the
    message first, so discord.py finds it there as it would a real one."""
    if place:
        button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
        message.components.append({"type": 1, "components": [button]})
    try:
        return await world.run_interaction(
            user=user,
            channel=message.channel,
            kind=MESSAGE_COMPONENT,
            data={"custom_id": custom_id, "component_type": 2},
            label=f"forged button {custom_id!r}",
            source=message,
        )
    finally:
        if place:
            message.components.pop()


def assert_short_private_refusal(result: Result, user: SimUser) -> str:
    assert len(result.ephemeral) == 1, "one private answer"
    answer = result.ephemeral[0]
    assert answer.ephemeral_for == user.id
    assert 0 < len(answer.content) < 300, answer.content
    return answer.content


async def check_select_refuses_anything_not_offered(
    world, user: SimUser, menu: Message, select_index: int, database_path: Path
) -> int:
    select = menu.selects()[select_index]
    version = stored_game(database_path)["version"]
    refused = 0
    for values in examples(hostile_values, 25):
        if len(values) == 1 and values[0] in select.values:
            continue
        result = await raw_select(world, user, menu, select.custom_id, values)
        assert_short_private_refusal(result, user)
        assert stored_game(database_path)["version"] == version, f"{values!r} changed the game"
        refused += 1
    return refused


async def test_bann_move_menu_refuses_values_it_never_offered(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    tip = next(
        button
        for button in board.buttons()
        if button.label.startswith("Tip") and not button.disabled
    )
    menu = (await world.alice.click(board, tip.label)).ephemeral[0]
    assert (
        await check_select_refuses_anything_not_offered(world, world.alice, menu, 0, database_path)
        > 15
    )


async def test_gulbara_point_select_refuses_values_it_never_offered(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "gulbara new", computer="normal")).message
    assert (
        await check_select_refuses_anything_not_offered(world, world.alice, board, 0, database_path)
        > 15
    )


async def test_barree_walk_buttons_refuse_fields_and_walks_never_offered(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computers=2)).message
    board = (await world.alice.click(lobby, "Start")).message
    for _ in range(20):
        rolled = await world.alice.click(board, "Roll")
        if rolled.ephemeral and rolled.ephemeral[0].buttons():
            menu = rolled.ephemeral[0]
            break
    else:
        raise AssertionError("twenty rolls without a walk menu")
    game = stored_game(database_path)
    game_id, version = game["id"], game["version"]
    # A field of the menu of the other fields is as much offered as a numbered button.
    in_the_menu = [value for select in menu.selects() for value in select.values]
    offered = {button.custom_id for button in menu.buttons()} | {
        f"tb:{game_id}:{version}:walk_to:{field}" for field in in_the_menu
    }
    hostile_args = examples(st.text(alphabet="0123456789-" + UNICODE_DIGITS, max_size=20), 15)
    forged = [
        f"tb:{game_id}:{version}:{verb}:{arg}"
        for verb in ("walk_to", "walk")
        for arg in [*hostile_args, "99", "0", "-1", "11-12-99"]
    ]
    refused = 0
    for custom_id in forged:
        if custom_id in offered:
            continue
        # Placed on the board: the menu may already hold Discord's five rows of buttons.
        result = await forged_click(world, world.alice, board, custom_id)
        assert_short_private_refusal(result, world.alice)
        assert stored_game(database_path)["version"] == version, custom_id
        refused += 1
    assert refused > 25


async def test_forged_and_replayed_custom_ids_are_refused_and_change_nothing(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    game = stored_game(database_path)
    game_id, version = game["id"], game["version"]
    forged = [
        f"tb:{game_id}:{version}:tip:²",
        f"tb:{game_id}:{version}:tip:٣",
        f"tb:{game_id}:{version}:tip:9",
        f"tb:٣:{version}:tip:3",
        f"tb:{'9' * 25}:{version}:tip:3",
        f"tb:{game_id}:{'9' * 30}:tip:3",
        f"tb:{game_id}:{version}:contract:trumps",
        f"tb:{game_id}:{version}:double_confirm:3.3",
        f"tb:{game_id}:{version}:act:4>3",
        f"tb:{game_id}:{version}:act:4>3:N",
        f"tb:{game_id}:{version - 1}:tip:3",
        f"tb:{game_id}:{version}:TIP:3",
        f"ts:{game_id}:{version}:move:",
        "tb:" + "x" * 90,
        "lg:next:bann:99999999999999999999999999:0",
        "lg:next:bann:٣:0",
        "zz:anything",
    ]
    for custom_id in forged:
        result = await forged_click(world, world.alice, board, custom_id)
        assert_short_private_refusal(result, world.alice)
        assert stored_game(database_path)["version"] == version, custom_id

    not_on_the_message = f"tb:{game_id}:{version}:tip:3"
    result = await forged_click(world, world.alice, board, not_on_the_message, place=False)
    assert_short_private_refusal(result, world.alice)
    assert stored_game(database_path)["version"] == version


async def test_absurd_text_moves_get_a_short_answer_quoting_a_few_words(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await world.alice.slash(world.games, "bann new", computer="normal")
    version = stored_game(database_path)["version"]
    for notation in ("²>3:N", "٣>3:N", "4>3:N" * 1200, "a" * 5999 + "²"):
        result = await world.alice.slash(world.games, "bann move", notation=notation)
        answer = assert_short_private_refusal(result, world.alice)
        if len(notation) > 40:
            assert notation[:41] not in answer, "a refusal quotes at most 40 characters"
        assert stored_game(database_path)["version"] == version
