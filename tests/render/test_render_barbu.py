"""Barbu pictures: table, hand and score sheet from views, in every phase of a game."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games import barbu
from render.barbu import (
    TABLE_HEIGHT,
    TABLE_WIDTH,
    render_barbu,
    render_barbu_hand,
    render_barbu_scores,
    render_barbu_table,
    sorted_hand,
)
from render.barbu.sheet import deals_played
from render.theme import HIGHLIGHT
from render.toolkit.text import clean_name, recording_text_sizes

NAMES = ["Jürgen Größe", "Bob 🎲 the very long named builder of things", "Chloé", "Dmitri"]


def decoded(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def advance_to(state: barbu.BarbuState, done, rng: random.Random) -> barbu.BarbuState:
    while not done(state):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def highlight_pixels(image: Image.Image) -> int:
    """Pixels of the card row close to the legal-card outline colour."""
    cards = image.crop((0, 60, image.width, image.height))
    return sum(
        count
        for count, colour in cards.getcolors(maxcolors=1 << 20)
        if max(abs(channel - target) for channel, target in zip(colour, HIGHLIGHT, strict=True))
        < 32
    )


@pytest.fixture(scope="module")
def states() -> dict[str, barbu.BarbuState]:
    rng = random.Random(6)
    start = barbu.new_game(seed=12)
    doubling = start.apply("nohearts")
    trick = advance_to(
        doubling, lambda s: s.phase == "play" and len(s.tricks) >= 3 and s.trick, rng
    )
    domino_deal = advance_to(
        trick, lambda s: s.phase == "contract" and "domino" in s.remaining, rng
    )
    domino = domino_deal.apply("domino:9")
    domino = advance_to(domino, lambda s: s.phase == "play" and len(s.domino_moves) >= 20, rng)
    over = advance_to(domino, lambda s: s.is_over, rng)
    return {
        "contract": start,
        "doubling": doubling,
        "trick": trick,
        "domino": domino,
        "over": over,
    }


@pytest.mark.parametrize("phase", ["contract", "doubling", "trick", "domino", "over"])
def test_table_renders_every_phase_from_the_public_view(states, phase):
    image = decoded(render_barbu_table(states[phase].view(None), NAMES))
    assert image.size == (TABLE_WIDTH, TABLE_HEIGHT)


def test_table_headline_changes_the_picture(states):
    view = states["trick"].view(None)
    assert render_barbu(view, NAMES, headline="Chloé left the table") != render_barbu_table(
        view, NAMES
    )


def test_table_shows_played_cards(states):
    state = states["trick"]
    before = decoded(render_barbu_table(state.view(None), NAMES))
    after = decoded(render_barbu_table(state.apply(state.legal_actions()[0]).view(None), NAMES))
    assert before.tobytes() != after.tobytes()


def test_hand_raises_legal_cards_only_on_the_seats_turn(states):
    state = states["trick"]
    seat = state.current_player
    waiting = (seat + 1) % 4
    own_turn = decoded(render_barbu_hand(state.view(seat), NAMES))
    not_turn = decoded(render_barbu_hand(state.view(waiting), NAMES))
    assert highlight_pixels(own_turn) > 200
    assert highlight_pixels(not_turn) < 50


def test_hand_renders_a_domino_pass_and_an_empty_hand(states):
    domino = states["domino"]
    decoded(render_barbu_hand(domino.view(domino.current_player), NAMES))
    decoded(render_barbu_hand(states["over"].view(0), NAMES))


def test_score_sheet_grows_with_the_deals_played(states):
    empty = decoded(render_barbu_scores(states["contract"].view(None), NAMES))
    full = decoded(render_barbu_scores(states["over"].view(None), NAMES))
    assert full.height > empty.height + 27 * 20
    assert full.width == empty.width


def test_hand_is_sorted_by_suit_then_falling_rank():
    assert sorted_hand(["2C", "AH", "TS", "KH", "3S", "9D"]) == ["TS", "3S", "AH", "KH", "2C", "9D"]


def test_the_last_trick_stays_on_the_felt_until_the_next_lead(states):
    rng = random.Random(2)
    state = advance_to(
        states["trick"], lambda s: s.phase == "play" and not s.trick and len(s.tricks) >= 4, rng
    )
    view = state.view(None)
    last = view["tricks"][-1]
    with recording_text_sizes() as drawn:
        render_barbu_table(view, NAMES)
    texts = [text for _size, text in drawn]
    winner = clean_name(NAMES[last["winner"]])
    lead_in = f"Trick {len(view['tricks'])} to "
    named = [text for text in texts if text.startswith(lead_in)]
    shown = [text.removeprefix(lead_in).split(" · ")[0] for text in named]
    assert shown, "the last trick is named on the felt"
    assert winner.startswith(shown[0].removesuffix("…")), "its winner, at most shortened"
    without_last = decoded(render_barbu_table({**view, "tricks": []}, NAMES))
    with_last = decoded(render_barbu_table(view, NAMES))
    felt_middle = (200, 300, 520, 560)
    assert without_last.crop(felt_middle).tobytes() != with_last.crop(felt_middle).tobytes()


def test_penalty_cards_show_as_ranks_beside_their_suit(states):
    rng = random.Random(3)
    state = advance_to(
        states["trick"], lambda s: any(s.view(None)["penalty_cards"]) or s.phase != "play", rng
    )
    view = state.view(None)
    taken = [pile for pile in view["penalty_cards"] if pile]
    assert taken, "in No Hearts someone takes a heart before the deal ends"
    with recording_text_sizes() as drawn:
        render_barbu_table(view, NAMES)
    texts = {text for _size, text in drawn}
    for pile in taken:
        hearts = "".join("10" if card[0] == "T" else card[0] for card in pile if card[1] == "H")
        assert hearts in texts


def drawn(picture) -> list[str]:
    with recording_text_sizes() as strings:
        picture()
    return [text for _size, text in strings]


def test_a_seats_points_in_the_deal_never_read_as_a_deal_number(states):
    """The issue's "Spiel 0": under "Spiel 1 von 7" in the header, a seat's score in the
    deal read like another deal's number."""
    view = states["trick"].view(None)
    english = drawn(lambda: render_barbu_table(view, NAMES, None, "en"))
    german = drawn(lambda: render_barbu_table(view, NAMES, None, "de"))
    assert sum(text.endswith(" this deal") for text in english) == 4
    assert sum(text.endswith(" Punkte") for text in german) == 4
    assert not any(" · Spiel " in text for text in german)


def test_the_score_sheet_counts_the_deals_against_the_whole_game():
    """The issue's "1 of 28 deal"."""
    assert deals_played("en", 1, 28) == "1 of 28 deals played"
    assert deals_played("en", 7, 7) == "7 of 7 deals played"
    assert deals_played("de", 1, 28) == "1 von 28 Spielen gespielt"
    state = barbu.new_game(seed=12)
    rng = random.Random(6)
    state = advance_to(state, lambda s: s.deal_number == 1, rng)
    assert "1 of 28 deals played" in drawn(lambda: render_barbu_scores(state.view(None), NAMES))
