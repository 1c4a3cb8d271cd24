"""Every engine answers any text with a new state or IllegalAction, never another error.

Text reaches ``apply`` from slash commands, select values and custom_ids, all of which a
hostile user can forge. The positions cover each game's phases (Barbu's contract choice,
doubling, trick play and Domino; Gul Bara's steps; Barree's walks and sends).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES, GameState, IllegalAction

UNICODE_DIGITS = "²³¹٣۴߃१১੩୩௩౩೩൩๓໓༣၃႓៣᠓᥆᧓᪃᭓᮳᱃᱓꘣꣓꤃꧓꩓꯳０１２３９𝟎𝟙𝟚𝟛"
PLAYERS = {"bann": 2, "gulbara": 2, "barbu": 4, "barree": 3}


@cache
def positions(kind: str) -> tuple[GameState, ...]:
    """The start and positions reached by random legal play, one every few moves."""
    spec = GAMES[kind]
    found: list[GameState] = []
    for seed in range(3):
        rng = random.Random(seed)
        state = spec.new_game(players=PLAYERS[kind], seed=seed)
        for step in range(400):
            if state.is_over:
                break
            if step % 7 == 0:
                found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return tuple(found)


def twisted(action: str, data: st.DataObject) -> str:
    """A legal action with its digits swapped for look-alikes, or cut, doubled or padded."""
    chars = [
        data.draw(st.sampled_from(UNICODE_DIGITS)) if char.isdigit() else char for char in action
    ]
    how = data.draw(st.sampled_from(["unicode", "cut", "double", "pad", "case"]))
    if how == "unicode":
        return "".join(chars)
    if how == "cut":
        return action[: data.draw(st.integers(0, max(0, len(action) - 1)))]
    if how == "double":
        return f"{action},{action}" if ":" in action else action + action
    if how == "pad":
        return action + data.draw(st.text(max_size=8))
    return action.swapcase()


hostile_text = st.one_of(
    st.text(max_size=60),
    st.text(
        alphabet="0123456789:,>/-+ *" + UNICODE_DIGITS + "SHCDNEWKQJTAabcdefoxpuldm", max_size=20
    ),
    st.builds(lambda char, n: char * n, st.characters(), st.integers(100, 6000)),
    st.just("9" * 6000),
    st.just("double:3,3"),
)


def check(state: GameState, text: str) -> None:
    try:
        state.apply(text)
    except IllegalAction as refusal:
        assert str(refusal), "a refusal must say why"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(GAMES)), index=st.integers(0, 10_000), text=hostile_text)
def test_apply_on_any_text_raises_only_illegal_action(kind, index, text):
    states = positions(kind)
    check(states[index % len(states)], text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(GAMES)), index=st.integers(0, 10_000), data=st.data())
def test_apply_on_twisted_legal_actions_raises_only_illegal_action(kind, index, data):
    states = [state for state in positions(kind) if not state.is_over]
    state = states[index % len(states)]
    action = data.draw(st.sampled_from(state.legal_actions()))
    check(state, twisted(action, data))


def test_doubling_a_seat_twice_in_one_answer_is_refused():
    state = GAMES["barbu"].new_game(players=4, seed=1).apply("notricks")
    target = state.doubling_choice().targets[-1]
    assert f"double:{target}" in state.legal_actions()
    for text in (f"double:{target},{target}", f"double:{'٣' if target == 3 else '²'}"):
        with pytest.raises(IllegalAction):
            state.apply(text)
