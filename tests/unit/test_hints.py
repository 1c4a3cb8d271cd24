"""A hint's choice and its reasons, per game: the choice is the normal computer's own,
the reasons are what the choice does on real positions (in English and in German),
and a hint knows no more than the player it is for (no hidden card, no coming roll)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from german import english_in

from cogs.barbu import BarbuCog
from cogs.gulbara import GulbaraCog
from cogs.table.game_cog import hint_seed
from data import Seat, Table
from games import GAMES
from games.bann import from_code as bann_position
from games.bann.hints import describe_move
from games.bann.hints import explain as bann_hint
from games.barbu import BarbuState
from games.barbu import from_dict as barbu_from_dict
from games.barbu.hints import BarbuHint, CardEffect, card_effect
from games.barbu.hints import explain as barbu_hint
from games.barree import BarreeState
from games.barree.hints import describe_action
from games.barree.hints import explain as barree_hint
from games.gulbara import from_code as gulbara_position
from games.gulbara.hints import describe_play, stage_steps
from games.gulbara.hints import explain as gulbara_hint
from texts import bann as bann_text
from texts import barbu as barbu_text
from texts import barree as barree_text
from texts import gulbara as gulbara_text

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def table_of(kind: str, seed: int = 5, version: int = 3) -> Table:
    seats = [Seat(name, user_id=index + 1) for index, name in enumerate(NAMES)]
    return Table(
        id=1,
        kind=kind,
        guild_id=1,
        channel_id=1,
        creator_id=1,
        status="active",
        seats=seats[: GAMES[kind].max_players],
        options={},
        seed=seed,
        state=None,
        version=version,
        board_message_id=None,
        created_at=0.0,
        updated_at=0.0,
    )


def no_english(text: str) -> None:
    assert english_in(text) == [], text


# ---- Bann --------------------------------------------------------------------------------

TWO_IN_REACH = "BN1:.....a/....../....../.b.e../..3.../1.....|1,1|0"
"""Seat 0's knight 3 on c2 can step to c3, between the opponent's knights 2 and 5."""


def test_bann_a_double_capture_is_named_by_the_knights_it_takes():
    advice = bann_hint(bann_position(TWO_IN_REACH), seed=1)
    assert advice.action.endswith(">3:N") and advice.captured == (2, 5)
    english = bann_text.hint("en", advice)
    assert english.startswith(f"Tip to {advice.tip} and move knight 3 c2–c3: captures knights 2")
    assert "captures knights 2 and 5" in english
    german = bann_text.hint("de", advice)
    assert "schlägt die Springer 2 und 5" in german
    no_english(german)


def test_bann_a_step_onto_the_castle_wins_and_says_so_alone():
    state = bann_position("BN1:....1./....../....../....../....../.....a|2,3|0")
    advice = bann_hint(state, seed=4)
    assert bann_text.hint("en", advice) == (
        f"Tip to {advice.tip} and move knight 1 e6–f6: reaches the castle and wins."
    )
    assert bann_text.hint("de", advice).endswith("erreicht die Burg und gewinnt.")


def test_bann_a_tip_that_bans_the_threatening_knight_says_which():
    # The opponent's knight 4 on c3 could step to c2 and take knight 2 on b2.
    state = bann_position("BN1:....../....../....../..d.../.2..../1....f|1,1|0")
    advice = describe_move(state, "4>2:S")
    assert advice.bans == 4 and advice.safe_again == (2,)
    assert bann_text.hint("en", advice) == (
        "Tip to 4 and move knight 2 b2–b1: your tip bans the opponent's knight 4, which could"
        " strike next turn; takes knight 2 out of danger."
    )
    no_english(bann_text.hint("de", advice))


def test_bann_a_draw_offer_is_answered_as_the_computer_would():
    state = bann_position("BN1:....../....../....../..d.../.2..../1....f|1,1|0").apply("offer")
    advice = bann_hint(state, seed=2)
    assert advice.answer == GAMES["bann"].bot_action(state, seed=2)
    assert bann_text.hint("en", advice).startswith(("Accept the draw", "Decline the draw"))


@pytest.mark.parametrize("seed", [3, 8])
def test_bann_hints_are_the_normal_computers_moves_and_every_one_has_a_reason(seed):
    state = GAMES["bann"].new_game(seed=seed)
    for step in range(60):
        if state.is_over:
            break
        advice = bann_hint(state, seed=step)
        assert advice.action == GAMES["bann"].bot_action(state, seed=step, level="normal")
        english, german = bann_text.hint("en", advice), bann_text.hint("de", advice)
        assert english.endswith(".") and ": " in english
        no_english(german)
        state = state.apply(advice.action)


# ---- Gul Bara ----------------------------------------------------------------------------


def gulbara_code(points: dict[int, int], turn: int, dice: str, rolls: str = "5,5") -> str:
    """A ``GB1`` code from seat 0's points (positive: seat 0's checkers)."""
    board = ",".join(str(points.get(point, "")) for point in range(1, 25))
    off = [
        15 - sum(n for n in points.values() if n > 0),
        15 + sum(n for n in points.values() if n < 0),
    ]
    return f"GB1:{board}|{off[0]},{off[1]}|{turn}|{dice}|{rolls}"


def test_gulbara_taking_the_landing_point_of_every_six_says_the_sixes_are_blocked():
    # All fifteen of the opponent's checkers wait on his 24 (seat 0's 12): only a 6 from
    # there lands on seat 0's point 6.
    state = gulbara_position(gulbara_code({24: 14, 8: 1, 12: -15}, 0, "2,1"))
    advice = describe_play(state, ["8/6", "24/23"])
    assert advice.new_points == (23, 6) and advice.blocked_dice == (6,)
    english = gulbara_text.hint("en", advice)
    assert english == (
        "Play 8/6 24/23: takes points 23 and 6: the opponent cannot play a 6 any more."
    )
    german = gulbara_text.hint("de", advice)
    assert german == (
        "Spiele 8/6 24/23: besetzt die Punkte 23 und 6: der Gegner kann keine 6 mehr spielen."
    )


def test_gulbara_the_second_player_is_advised_in_his_own_numbering():
    # Seat 1 to move: his steps and points are written as his menus and `/gulbara move`
    # write them, counting down from his 24.
    state = gulbara_position(gulbara_code({12: -14, 20: -1, 24: 15}, 1, "2,1"))
    advice = describe_play(state, ["8/6", "24/23"])
    assert gulbara_text.hint("en", advice).startswith("Play 8/6 24/23: takes points 23 and 6")


def test_gulbara_bearing_off_counts_the_checkers():
    state = gulbara_position(gulbara_code({1: 5, 2: 5, 3: 5, 12: -15}, 0, "3,2"))
    advice = gulbara_hint(state, lambda step: step)
    assert advice.borne_off == 2
    assert gulbara_text.hint("en", advice).endswith(": bears off 2 checkers.")
    assert gulbara_text.hint("de", advice).endswith(": würfelt 2 Steine aus.")


def test_gulbara_an_escalating_double_played_in_full_names_the_next_double():
    state = gulbara_position(gulbara_code({24: 13, 10: 2, 12: -15}, 0, "4,4,4,4", "5,5"))
    advice = gulbara_hint(state, lambda step: step)
    assert len(advice.steps) == 4 and advice.chain_next == 5
    assert "the escalation goes on to 5-5" in gulbara_text.hint("en", advice)
    assert "die Eskalation geht weiter mit 5-5" in gulbara_text.hint("de", advice)


def test_gulbara_a_double_that_cannot_be_played_in_full_ends_the_escalation():
    # The head rule lets only the two runners on 20 move; 12 is the opponent's.
    state = gulbara_position(gulbara_code({24: 13, 20: 2, 12: -15}, 0, "4,4,4,4", "5,5"))
    advice = gulbara_hint(state, lambda step: step)
    assert advice.steps == ("20/16", "20/16") and advice.chain_ends
    assert gulbara_text.hint("en", advice) == (
        "Play 20/16 20/16: takes point 16; the escalation ends here: this double cannot be"
        " played in full."
    )


def test_gulbara_a_hint_plays_only_the_current_stage_and_never_the_next_roll():
    state = GAMES["gulbara"].new_game(seed=11)
    for turn in range(40):
        if state.is_over:
            break
        steps = stage_steps(state, lambda step, turn=turn: turn * 10 + step)
        after = state
        for step in steps:
            assert after.current_player == state.current_player
            assert after.rolls == state.rolls, "a step of a later roll was played"
            after = after.apply(step)
        # Another random source (another next roll) gives the same hint.
        other = GAMES["gulbara"].from_dict(state.to_dict() | {"rng": {"seed": 99, "draws": 0}})
        assert stage_steps(other, lambda step, turn=turn: turn * 10 + step) == steps
        state = after


def test_gulbara_hints_are_the_computers_steps_one_seed_per_step():
    state = GAMES["gulbara"].new_game(seed=4)
    table = table_of("gulbara", seed=77, version=12)
    cog = GulbaraCog(None, None)
    advice = cog.hint(table, state, "en")
    first = GAMES["gulbara"].bot_action(state, seed=hint_seed(table), level="normal")
    assert advice.startswith(f"Play {first}")


# ---- Barree ------------------------------------------------------------------------------


def barree_states(seed: int, players: int = 3) -> list[BarreeState]:
    """Every state of a game of computers in which a walk or a sending is to be chosen."""
    state = GAMES["barree"].new_game(players=players, seed=seed)
    choices = []
    for step in range(400):
        if state.is_over:
            break
        if state.phase in ("move", "drive"):
            choices.append(state)
        state = state.apply(GAMES["barree"].bot_action(state, seed=step))
    return choices


def test_barree_a_walk_names_the_cards_it_discards_and_where_it_ends():
    walk = next(
        state
        for state in barree_states(7)
        if state.phase == "move" and barree_hint(state, 0).discards
    )
    advice = barree_hint(walk, 0)
    cards = ", ".join(map(str, advice.discards))
    english = barree_text.hint("en", advice, NAMES)
    count = len(advice.discards)
    assert english.startswith(f"Walk {advice.action}: discards {count} card")
    assert f"({cards})" in english
    german = barree_text.hint("de", advice, NAMES)
    assert german.startswith(f"Ziehe {advice.action}: legt {count} Karte")
    no_english(german)


def test_barree_a_sending_names_the_card_and_what_it_does_to_the_rival():
    drive = next(state for state in barree_states(7) if state.phase == "drive")
    advice = barree_hint(drive, 0)
    assert advice.kind == "send" and advice.target is not None
    name = NAMES[advice.target]
    english = barree_text.hint("en", advice, NAMES)
    assert english.startswith(f"Send {name} to {advice.field} with your card {advice.field}: ")
    assert english.endswith(f"you discard card {advice.field} without walking to it.")
    no_english(barree_text.hint("de", advice, NAMES))


def test_barree_the_last_card_walked_off_wins_the_round():
    state = next(
        state
        for seed in range(20)
        for state in barree_states(seed, players=2)
        if state.phase == "move" and describe_action(state, state.legal_actions()[0]).goes_out
    )
    advice = describe_action(state, state.legal_actions()[0])
    assert barree_text.hint("en", advice, NAMES).endswith(": discards your last card: you are out.")


@pytest.mark.parametrize("seed", [2, 7])
def test_barree_hints_are_the_normal_computers_choices_from_public_facts(seed):
    for step, state in enumerate(barree_states(seed)):
        advice = barree_hint(state, step)
        assert advice.action == GAMES["barree"].bot_action(state, seed=step, level="normal")
        # The hidden cards and the coming draws are no part of a hint.
        shuffled = state.to_dict() | {"rng": {"seed": 1, "draws": 0}}
        shuffled["draw_pile"] = list(reversed(shuffled["draw_pile"]))
        other = GAMES["barree"].from_dict(shuffled)
        assert barree_text.hint("en", barree_hint(other, step), NAMES) == (
            barree_text.hint("en", advice, NAMES)
        )


# ---- Barbu -------------------------------------------------------------------------------


def barbu_states(seed: int) -> list[BarbuState]:
    """Every state of one series in which the seat to act has a choice."""
    state = GAMES["barbu"].new_game(players=4, seed=seed, series=1)
    chooser = random.Random(seed)
    choices = []
    while not state.is_over and len(choices) < 150:
        legal = state.legal_actions()
        if len(legal) > 1:
            choices.append(state)
        state = state.apply(chooser.choice(legal))
    return choices


def other_hands_swapped(state: BarbuState) -> BarbuState:
    """The same deal as the seat to act sees it, with the other seats' cards dealt anew
    among them (each keeps his number of cards)."""
    data: dict[str, Any] = state.to_dict()
    seat = state.current_player
    others = [other for other in range(4) if other != seat]
    pool = [card for other in others for card in data["hands"][other]]
    random.Random(1).shuffle(pool)
    for other in others:
        size = len(data["hands"][other])
        data["hands"][other], pool = pool[:size], pool[size:]
    return barbu_from_dict(data)


def test_barbu_hints_are_the_normal_computers_choices_and_ignore_the_hidden_cards():
    cog = BarbuCog(None, None)
    table = table_of("barbu")
    for state in barbu_states(3)[::6]:
        seat = state.current_player
        advice = barbu_hint(state.view(seat), hint_seed(table))
        assert advice.action == GAMES["barbu"].bot_action(state, seed=hint_seed(table))
        other = other_hands_swapped(state)
        assert other.view(seat) == state.view(seat)
        assert cog.hint(table, other, "en") == cog.hint(table, state, "en")


def test_barbu_every_kind_of_decision_reads_as_advice_in_both_languages():
    seen = set()
    for state in barbu_states(5):
        advice = barbu_hint(state.view(state.current_player), 1)
        english = barbu_text.hint("en", advice, NAMES)
        german = barbu_text.hint("de", advice, NAMES)
        seen.add(english.split()[0])
        assert english.endswith(".") and ": " in english
        no_english(german)
    assert {"Choose", "Play"} <= seen and seen & {"Pass:", "Double", "Redouble"}


def test_barbu_a_contract_hint_compares_the_hand_with_an_average_one():
    state = next(state for state in barbu_states(5) if state.phase == "contract")
    advice = barbu_hint(state.view(state.current_player), 1)
    assert advice.expected is not None and advice.par is not None
    english = barbu_text.hint("en", advice, NAMES)
    title = barbu_text.contract_title_of("en", advice.action)
    assert english.startswith(f"Choose {title}: your hand should score about ")
    assert "an average hand" in english


def test_barbu_a_doubling_hint_says_how_the_deal_should_end_against_each_target():
    state = next(state for state in barbu_states(5) if state.phase == "doubling")
    advice = barbu_hint(state.view(state.current_player), 1)
    english = barbu_text.hint("en", advice, NAMES)
    assert "the computer expects you to finish this deal " in english
    assert all(NAMES[seat] in english for seat, _lead in advice.leads)


@pytest.mark.parametrize(
    "effect, english, german",
    [
        (
            CardEffect("under", "QS", other="KS"),
            "stays under the king of spades: this trick cannot be yours",
            "bleibt unter Pik-König: dieser Stich kann nicht an dich gehen",
        ),
        (
            CardEffect("takes", "AS", other="KS", points=-6),
            "takes the trick at a cost of 6 points",
            "nimmt den Stich und kostet dich 6 Punkte",
        ),
        (
            CardEffect("discard", "QH", led="C", costly=True),
            "you have no clubs: you get rid of a card that costs points here",
            "du hast kein Kreuz: du wirst eine Karte los, die hier Punkte kostet",
        ),
        (
            CardEffect("extends", "6H", other="5H", frees="7H"),
            "goes next to the five of hearts; your seven of hearts can follow next",
            "kommt neben Herz-Fünf; danach kann Herz-Sieben folgen",
        ),
    ],
)
def test_barbu_a_cards_effect_in_words(effect, english, german):
    advice = BarbuHint(effect.card, "play", effect=effect)
    assert barbu_text.hint("en", advice, NAMES).endswith(f": {english}.")
    assert barbu_text.hint("de", advice, NAMES).endswith(f": {german}.")


def test_barbu_a_card_that_stays_under_the_trick_is_seen_so():
    for state in barbu_states(9):
        view = state.view(state.current_player)
        if state.phase != "play" or not view["trick"] or state.contract == "domino":
            continue
        for action in view["legal"]:
            effect = card_effect(view, action)
            if effect.kind == "under":
                assert effect.other is not None
                return
    pytest.fail("no card under the trick's best one in a whole series")
