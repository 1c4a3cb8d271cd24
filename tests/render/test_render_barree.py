"""The Barree picture: what a player must be able to read off the PNG."""

import io
import random

import pytest
from PIL import Image

from games.barree import FIELDS, PHASE_MOVE, SPEC, BarreeState
from games.base import Rng
from render.barree import (
    BOARD_BOX,
    CARD_GAP,
    CARD_HEIGHT,
    CARD_WIDTH,
    CLUSTER_OFFSETS,
    FIELD_RADIUS,
    HEIGHT,
    PIECE_RADIUS,
    SIDE_LEFT,
    WIDTH,
    field_centre,
    render_barree,
)
from render.barree.picture import score_text
from render.theme import CARD_BACK, DANGER, SEAT_COLOURS
from texts.barree import narrate
from texts.barree import result as result_text
from texts.barree import status as status_text

NAMES = ["Alice", "Bob", "Carla", "Dan"]


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(actual, expected, tolerance: int = 28) -> bool:
    return sum(abs(a - b) for a, b in zip(actual, expected, strict=True)) <= tolerance


def table(**changes) -> BarreeState:
    """Alice (to move, rolled 2) on 34 after walking 32-33-34, Bob on 61, blockade on row 5."""
    placed = {11, 12, 35, 36, 21, 22, 23, 13, 14, 15, 16}
    state = BarreeState(
        players=2,
        rounds=1,
        rng=Rng(1),
        round_no=1,
        current=0,
        phase=PHASE_MOVE,
        die=2,
        blockade=5,
        pieces=[34, 61],
        cards=[[11, 35, 36, 52], [21, 22, 23]],
        hidden=[[13, 14], [15, 16]],
        draw_pile=[field for field in FIELDS if field not in placed | {32, 33, 34}],
        discard_pile=[32, 33, 34],
        last_walk={"seat": 0, "path": [32, 33, 34], "discarded": [34]},
        events=[{"type": "roll", "seat": 0, "die": 2}],
    )
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def pixel(image: Image.Image, point) -> tuple[int, int, int]:
    return image.getpixel((round(point[0]), round(point[1])))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_renders_a_png_of_the_board_size_for_every_table(players):
    state = SPEC.new_game(players=players, seed=players)
    image = decode(render_barree(state.view(None), NAMES[:players]))
    assert image.size == (WIDTH, HEIGHT)


def reddish(colour) -> bool:
    return colour[0] > colour[1] + 40 and colour[0] > colour[2] + 40


def test_the_blockaded_row_is_drawn_as_a_red_barrier():
    image = decode(render_barree(table().view(None), NAMES))

    def red_share(left: int, right: int) -> float:
        x0, x1 = field_centre(left)[0] + FIELD_RADIUS + 2, field_centre(right)[0] - FIELD_RADIUS - 2
        y = field_centre(left)[1] - 10
        run = [pixel(image, (x, y)) for x in range(round(x0), round(x1))]
        return sum(reddish(colour) for colour in run) / len(run)

    assert red_share(52, 53) > 0.3
    assert red_share(42, 43) == 0


def test_pieces_wear_their_players_colours():
    image = decode(render_barree(table().view(None), NAMES))
    for seat, field in ((0, 34), (1, 61)):
        x, y = field_centre(field)
        assert close(pixel(image, (x, y + PIECE_RADIUS - 6)), SEAT_COLOURS[seat].fill)


def test_several_pieces_on_one_field_are_all_visible():
    image = decode(render_barree(table(pieces=[34, 34]).view(None), NAMES))
    x, y = field_centre(34)
    # below each small disc's letter, inside its coloured rim
    colours = {pixel(image, (x + dx, y + dy + 9)) for dx, dy in CLUSTER_OFFSETS[:2]}
    assert any(close(colour, SEAT_COLOURS[0].fill) for colour in colours)
    assert any(close(colour, SEAT_COLOURS[1].fill) for colour in colours)


def test_cards_of_the_player_to_move_are_highlighted_on_the_board():
    image = decode(render_barree(table().view(None), NAMES))
    below_number = FIELD_RADIUS - 7
    own = pixel(image, (field_centre(11)[0], field_centre(11)[1] + below_number))
    opponent = pixel(image, (field_centre(21)[0], field_centre(21)[1] + below_number))
    assert close(own, SEAT_COLOURS[0].tint)
    assert not close(opponent, SEAT_COLOURS[1].tint)
    assert not close(opponent, SEAT_COLOURS[0].tint)


def test_the_last_walk_is_drawn_as_a_path_in_the_movers_colour():
    image = decode(render_barree(table().view(None), NAMES))
    (x0, y0), (x1, y1) = field_centre(32), field_centre(33)
    across = [pixel(image, ((x0 + x1) / 2, y0 + dy)) for dy in range(-2, 3)]
    assert any(close(colour, SEAT_COLOURS[0].fill) for colour in across)
    untouched = field_centre(43)
    assert not close(
        pixel(image, ((x1 + untouched[0]) / 2, (y1 + untouched[1]) / 2)), SEAT_COLOURS[0].fill
    )


def test_hidden_cards_are_drawn_as_backs_after_the_face_up_cards():
    image = decode(render_barree(table().view(None), NAMES))
    top = BOARD_BOX[1] + 50
    first_back = SIDE_LEFT + 14 + 4 * (CARD_WIDTH + CARD_GAP)
    assert close(pixel(image, (first_back + 4, top + CARD_HEIGHT / 2)), CARD_BACK)
    revealed = table(hidden=[[], []], cards=[[11, 35, 36, 52, 13, 14], [21, 22, 23, 15, 16]])
    shown = decode(render_barree(revealed.view(None), NAMES))
    assert not close(pixel(shown, (first_back + 4, top + CARD_HEIGHT / 2)), CARD_BACK)


def test_a_bar_roll_shows_the_bar_on_the_die():
    events = [
        {"type": "roll", "seat": 1, "die": 0},
        {"type": "bar", "seat": 1, "card": 52, "row": 5},
    ]
    state = table(phase="roll", die=None, current=0, events=events)
    image = decode(render_barree(state.view(None), NAMES))
    die_centre = (WIDTH - 16 - 14 - 24, 46)
    assert close(pixel(image, die_centre), DANGER, 40)


def test_status_line_says_what_the_table_waits_for():
    view = table().view(None)
    assert status_text("en", view, NAMES) == "Alice rolled 2: choose a walk"
    view.update(phase="drive", drive_targets=[1])
    assert status_text("en", view, NAMES) == "Alice landed on Bob: send away or keep"
    view.update(phase="roll", rounds=3, round=2, finisher=1)
    assert status_text("en", view, NAMES) == "Round 2 of 3 · Alice to roll · Bob is out, last turns"


def test_result_names_the_fewest_minus_points_and_shared_wins():
    assert result_text("en", {"minus": [3, 0]}, NAMES) == "Bob wins with 0 minus points"
    shared = result_text("en", {"minus": [1, 1, 4]}, NAMES)
    assert shared == "Alice and Bob share the win with 1 minus point"


def test_a_finished_match_and_awkward_names_render():
    state = SPEC.new_game(players=3, seed=2, rounds=2)
    while not state.is_over:
        state = state.apply(SPEC.bot_action(state, seed=2))
    names = ["🎲🎲", "A name far too long to fit anywhere on this board at all", ""]
    assert decode(render_barree(state.view(None), names, headline="Match over")).size == (
        WIDTH,
        HEIGHT,
    )
    assert decode(render_barree(state.view(None), names[:1])).size == (WIDTH, HEIGHT)


def played_to_the_end(players: int, rounds: int, seed: int = 3) -> BarreeState:
    state = SPEC.new_game(players=players, seed=seed, rounds=rounds)
    chooser = random.Random(seed)
    while not state.is_over:
        state = state.apply(chooser.choice(state.legal_actions()))
    return state


def test_a_game_of_one_round_ends_as_a_game_not_as_a_match():
    """The issue: "Round 1 is over" then "The match is over" after a one-round game."""
    view = played_to_the_end(2, rounds=1).view(None)
    told = narrate("en", view["events"], NAMES)
    assert told[-1].startswith("The game is over. Minus points: Alice ")
    assert not any("match" in line or "Round 1 is over" in line for line in told)
    german = narrate("de", view["events"], NAMES)
    assert german[-1].startswith("Die Partie ist zu Ende. Minuspunkte: ")
    matched = played_to_the_end(2, rounds=2).view(None)
    last_two = narrate("en", matched["events"], NAMES)[-2:]
    assert last_two[0].startswith("Round 2 is over.")
    assert last_two[1].startswith("The match is over. Total minus points:")


def test_a_player_out_with_no_minus_points_is_simply_out():
    """The issue's "Bob out! · −0"."""
    view = played_to_the_end(2, rounds=1).view(None)
    winner = view["minus"].index(0)
    assert score_text("en", view, winner) == "out!"
    loser = 1 - winner
    assert score_text("en", view, loser).endswith(f" · −{view['minus'][loser]}")
