"""The strength bench's baseline players and referee: whole games with legal moves, and
results scored from the measured seat's side."""

from __future__ import annotations

import pytest

from bench.baselines import BASELINES, _barbu_doubles, _barbu_trick_card
from bench.strength import PHASES, play_one, table_option
from games import GAMES
from games.barbu import KING_OF_HEARTS, parse_card


@pytest.mark.parametrize(
    ("game", "baseline"),
    [(game, name) for game, names in BASELINES.items() for name in names],
)
def test_each_baseline_plays_a_whole_game_against_the_easy_level(game: str, baseline: str) -> None:
    players = 4 if game == "barbu" else 2
    result = play_one((game, "easy", baseline, players, 3, 1, {}))
    assert 0.0 <= result.win_share <= 1.0
    assert result.finished, "the game was played to its end"
    assert result.deals == (7 if game == "barbu" else 1)


@pytest.mark.parametrize(
    ("game", "baseline", "option"),
    [("barbu", "rule-based", "french=true"), ("gulbara", "stage-greedy", "head_rule=pass")],
)
def test_the_baselines_play_a_whole_game_of_each_rule_variant(game, baseline, option) -> None:
    name, value = table_option(game, option)
    players = 4 if game == "barbu" else 2
    result = play_one((game, "easy", baseline, players, 3, 1, {name: value}))
    assert result.finished, "every decision was legal under the variant"
    if game == "barbu":
        assert result.doubling == {}, "nobody doubles in the French form"


def test_a_table_option_is_read_as_the_game_takes_it() -> None:
    assert table_option("barbu", "french=TRUE") == ("french", True)
    assert table_option("barbu", "series=2") == ("series", 2)
    assert table_option("gulbara", "head_rule=pass") == ("head_rule", "pass")
    for wrong in ("barbu:series=9", "gulbara:head_rule=later", "gulbara:head=pass"):
        game, _, text = wrong.partition(":")
        with pytest.raises(SystemExit):
            table_option(game, text)


def test_a_player_against_itself_scores_even_on_average_over_swapped_seats() -> None:
    results = [play_one(("barree", "greedy", "greedy", 2, 5, seat, {})) for seat in (0, 1)]
    assert sum(result.win_share for result in results) == pytest.approx(1.0)
    assert sum(result.points for result in results) == pytest.approx(0.0)


def _barbu_view(contract: str, hand: list[str], trick: list[str]) -> dict[str, object]:
    return {
        "contract": contract,
        "trump": None,
        "hand": hand,
        "trick": [{"seat": seat, "card": card} for seat, card in enumerate(trick)],
    }


def test_barbu_baseline_follows_with_the_highest_card_that_does_not_win() -> None:
    view = _barbu_view("notricks", ["2S", "9S", "AS"], ["TS"])
    legal = [parse_card(card) for card in ("2S", "9S", "AS")]
    assert _barbu_trick_card(view, legal) == parse_card("9S")


def test_barbu_baseline_sheds_the_king_of_hearts_when_void() -> None:
    view = _barbu_view("barbu", ["KH", "3D"], ["5S", "9S"])
    legal = [parse_card("KH"), parse_card("3D")]
    assert _barbu_trick_card(view, legal) == KING_OF_HEARTS


@pytest.mark.parametrize(
    ("hand", "doubles"),
    [
        (["2S", "3S", "4S", "2H", "3H", "4H", "2C", "3C", "4C", "5C", "2D", "3D", "4D"], True),
        (["AS", "KS", "QS", "AH", "KH", "QH", "AC", "KC", "QC", "JC", "AD", "KD", "QD"], False),
    ],
)
def test_barbu_baseline_doubles_declarer_in_no_tricks_only_with_a_safe_hand(
    hand: list[str], doubles: bool
) -> None:
    view = {
        "seat": 1,
        "declarer": 0,
        "hand": hand,
        "contract": "notricks",
        "contract_action": "notricks",
        "doubling": {"targets": [0, 2, 3], "required": None},
    }
    assert ("0" in _barbu_doubles(view).removeprefix("double:").split(",")) is doubles


def test_gulbara_phases_split_every_position_of_a_game_into_exactly_one() -> None:
    state = GAMES["gulbara"].new_game(players=2, seed=11)
    seen = set()
    while not state.is_over:
        holding = [name for name, holds in PHASES["gulbara"].items() if holds(state)]
        assert len(holding) == 1, holding
        seen.add(holding[0])
        state = state.apply(BASELINES["gulbara"]["stage-greedy"](state, 0))
    assert seen == set(PHASES["gulbara"]), "a whole game passes through every phase"


def test_a_player_limited_to_a_phase_decides_only_there() -> None:
    whole = play_one(("gulbara", "hard", "stage-greedy", 2, 4, 0, {}))
    bear_off_only = play_one(("gulbara", "hard@bear-off", "stage-greedy", 2, 4, 0, {}))
    assert bear_off_only.finished
    assert 0 < len(bear_off_only.decisions_ms) < len(whole.decisions_ms) / 3
