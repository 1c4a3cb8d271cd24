"""The Gul Bara hard player's trained network: the shipped weights and what they decide."""

from __future__ import annotations

from games import gulbara_net
from games.gulbara import bot_action, from_code, mover_against, network_inputs, new_game


def _inputs(mine: dict[int, int], theirs: dict[int, int]) -> gulbara_net.Floats:
    """The network's inputs for one position right after the mover's stage, both sides
    given by point of the mover's numbering (0 = borne off), the opponent to roll."""
    my_list = [mine.get(point, 0) for point in range(25)]
    their_list = [theirs.get(point, 0) for point in range(25)]
    mover = mover_against(their_list)
    return network_inputs(mover, [bytes(my_list)], their_list, None, (True, True))


def _chance(mine: dict[int, int], theirs: dict[int, int]) -> float:
    return float(gulbara_net.trained().win_chances(_inputs(mine, theirs))[0])


def test_the_shipped_weights_load_and_fit_the_encoding() -> None:
    network = gulbara_net.trained()
    width = _inputs({24: 15}, {12: 15}).shape[1]
    assert network.hidden_weights.shape[0] == width
    assert network.out_weights.shape == network.hidden_weights.shape[1:]


def test_the_network_knows_a_won_race_from_a_lost_one() -> None:
    # 13 borne off and two checkers at home, against 15 still on their starting point
    # (the mover's 12); then the other way round (their points 1 and 2 are the mover's
    # 13 and 14)
    assert _chance({0: 13, 1: 1, 2: 1}, {12: 15}) > 0.9
    assert _chance({24: 15}, {0: 13, 13: 1, 14: 1}) < 0.1


def test_hard_plays_whole_games_legally_and_the_same_way_for_a_seed() -> None:
    def play(seed: int) -> list[str]:
        state = new_game(seed=seed)
        actions = []
        while not state.is_over:
            action = bot_action(state, seed=len(actions), level="hard")
            assert action in state.legal_steps()
            state = state.apply(action)
            actions.append(action)
        assert max(state.returns()) >= 1
        return actions

    for seed in (3, 4):
        assert play(seed) == play(seed)


def test_hard_bears_off_both_last_checkers_rather_than_moving_one_home() -> None:
    # 6-5 from 6 and 5: both come off, or 6/1 and 5/off leaves a checker behind
    state = from_code("GB1:,,,,1,1,,,,,,,-15,,,,,,,,,,,|13,0|0|6,5|5,5")
    state = state.apply(bot_action(state, level="hard"))
    state = state.apply(bot_action(state, level="hard"))
    assert state.is_over and state.winner == 0
