"""How many taps a decision costs a player, and how many private messages pile up.

A simulated player goes through ``Taps``, which counts what a phone user touches: a
button is one tap, a select two (open it, pick an option). The bounds are the ones a
player on a phone can live with; each test prints what it measured.
"""

from __future__ import annotations

import random

from stored import logged_moves, stored_state, write_state

from cogs.barree import walk_targets, walks_to
from cogs.gulbara import POINT_PLACEHOLDER, step_label
from fakediscord import Channel, Message, Result, SimUser
from games import GAMES
from games.barree import walk_options
from games.gulbara import from_code
from texts.barbu import card_label

BANN = GAMES["bann"]

ESCALATION_CODE = "GB1:,,,,,,,10,,,,,,-1,,,,,,,2,1,1,1|0,14|0|2,2,2,2|10,10"
"""Alice (seat 0) to play 2-2 after her grace rolls, so the double escalates to 6-6:
checkers on her 24, 23, 22 and 21 (two) can each take a whole group of steps, ten wait
at home on 8, and Bob's last checker sits on her 14."""


class Taps:
    """Clicks and picks of simulated players, counted as a phone user's taps."""

    def __init__(self) -> None:
        self.count = 0

    async def click(
        self,
        user: SimUser,
        message: Message,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> Result:
        self.count += 1
        return await user.click(message, label, custom_id=custom_id)

    async def select(
        self, user: SimUser, message: Message, values: list[str], placeholder: str | None = None
    ) -> Result:
        self.count += 2
        return await user.select(message, values, placeholder=placeholder)

    def take(self) -> int:
        """The taps since the last call."""
        taken, self.count = self.count, 0
        return taken


def live_private_messages(channel: Channel, user: SimUser) -> list[Message]:
    """The ephemeral messages ``user`` still has in the channel (deleted ones are gone)."""
    return [message for message in channel.messages if message.ephemeral_for == user.id]


async def test_a_bann_move_is_three_taps_and_a_game_leaves_two_private_messages(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    board = (await world.bob.click(opened.message, "Join")).message
    seats = [world.alice, world.bob]
    taps = Taps()
    per_move: list[int] = []
    chooser = random.Random(17)
    while not (state := stored_state(database_path)).is_over:
        player = seats[state.current_player]
        action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        menu = (await taps.click(player, board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
        await taps.select(player, menu, [action])
        per_move.append(taps.take())
        for user in seats:
            assert len(live_private_messages(world.games, user)) <= 2

    print(f"Bann: {len(per_move)} moves, at most {max(per_move)} taps a move")
    assert max(per_move) <= 3
    for user in seats:
        live = live_private_messages(world.games, user)
        assert len(live) <= 2, f"{user.name} holds {len(live)} private messages after the game"


async def test_a_gulbara_double_escalating_to_six_six_takes_at_most_eight_taps(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "gulbara new", opponent=world.bob)
    await world.bob.click(opened.message, "Join")
    write_state(database_path, from_code(ESCALATION_CODE).to_dict())
    board = (await world.alice.slash(world.games, "game board")).message
    taps = Taps()

    picked = await taps.select(world.alice, board, ["24"], placeholder=POINT_PLACEHOLDER)
    panel = picked.ephemeral[0]
    while stored_state(database_path).current_player == 0:
        labels = [button.label or "" for button in panel.buttons()]
        alls = [label for label in labels if label.startswith("All")]
        longest = max(alls, key=lambda label: int(label.split()[1]), default=labels[0])
        panel = (await taps.click(world.alice, panel, longest)).message
        assert taps.count <= 8

    steps = [action for seat, action in logged_moves(database_path) if seat == 0]
    print(f"Gul Bara: 2-2 to 6-6, {len(steps)} steps in {taps.count} taps")
    assert len(steps) == 20, "every group of four, 2-2 up to 6-6, was played"
    assert taps.count <= 8


async def test_gulbara_menus_number_points_as_the_second_player_does(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "gulbara new", opponent=world.bob)
    board = (await world.bob.click(opened.message, "Join")).message
    while (state := stored_state(database_path)).current_player != 1:
        await world.alice.slash(world.games, "gulbara move", notation=state.legal_steps()[0])
    point = next(p for p in state.movable_points() if len(state.step_choices(p)) > 1)
    [select] = board.selects()
    assert f"Point {point} " in select.labels[select.values.index(str(point))], "Bob's own"

    panel = (await world.bob.select(board, [str(point)], placeholder=POINT_PLACEHOLDER)).ephemeral[
        0
    ]

    assert f"point **{point}**" in panel.content
    expected = [step_label(choice["action"], choice["die"]) for choice in state.step_choices(point)]
    assert [button.label for button in panel.buttons()][: len(expected)] == expected


async def test_a_barbu_card_is_one_tap_and_a_deal_is_one_dm_per_player(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    users = [world.alice, world.bob, world.carol, world.dave]
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    for user in users[1:]:
        board = (await user.click(lobby, "Join")).message
    taps = Taps()
    card_taps: list[int] = []
    while (state := stored_state(database_path)).deal_number == 0:
        user = users[state.current_player]
        if state.phase == "contract":
            await taps.click(user, board, "No Tricks")
        elif state.phase == "doubling":
            choice = state.doubling_choice()
            await taps.click(user, user.dms[-1], "Pass" if choice.may_pass else "Maximum")
        else:
            card = state.legal_actions()[0]
            await taps.click(user, user.dms[-1], card_label("en", card))
            card_taps.append(taps.count)
        taps.take()

    print(f"Barbu: {len(card_taps)} cards clicked, {max(card_taps)} tap each")
    assert max(card_taps) == 1
    cards_logged = sum(len(action) == 2 for _, action in logged_moves(database_path))
    assert cards_logged == 52 and len(card_taps) < 52, "the last card of each hand played itself"
    for user in users:
        deal_one = [
            dm for dm in user.dms if any("Deal 1 of" in v.content for v in [*dm.versions, dm])
        ]
        assert len(deal_one) == 1, f"{user.name} got {len(deal_one)} DMs for the first deal"


def button_ending(message: Message, suffix: str) -> str | None:
    return next((b.custom_id for b in message.buttons() if b.custom_id.endswith(suffix)), None)


async def test_a_barree_walk_is_one_or_two_taps_on_the_numbered_picture(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computers=2)).message
    board = (await world.alice.click(lobby, "Start")).message
    taps = Taps()
    walk_taps: dict[str, list[int]] = {"button": [], "menu": []}
    menu: Message | None = None
    while not (state := stored_state(database_path)).is_over:
        if state.phase == "roll":
            rolled = await taps.click(world.alice, board, "Roll")
            menu = rolled.ephemeral[0] if rolled.ephemeral else None
            taps.take()
            continue
        assert menu is not None
        if state.phase == "drive":
            await taps.click(world.alice, menu, "Keep them there")
            taps.take()
            continue
        options = walk_options(state)
        # The weakest field each time: the last button, or the last field of the menu.
        targets = walk_targets(options)
        end = targets[-1]
        walk = walks_to(options, end)[-1].action
        button = button_ending(menu, f":walk_to:{end}")
        if button is not None:
            await taps.click(world.alice, menu, custom_id=button)
        else:
            await taps.select(world.alice, menu, [str(end)])
        if (second := button_ending(menu, f":walk:{walk}")) is not None:
            await taps.click(world.alice, menu, custom_id=second)
        assert stored_state(database_path).to_dict() != state.to_dict(), "the walk was played"
        walk_taps["button" if button is not None else "menu"].append(taps.take())

    shown = {kind: max(counts) for kind, counts in walk_taps.items() if counts}
    print(f"Barree: {walk_taps} taps a walk, at most {shown}")
    assert walk_taps["button"] and walk_taps["menu"], "both kinds of field were tried"
    assert max(walk_taps["button"]) <= 2, "a field with a button: one or two taps"
    assert max(walk_taps["menu"]) <= 3, "a field of the menu: open, pick, and maybe a walk"
