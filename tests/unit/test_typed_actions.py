"""Reviews and puzzles show actions as players type them: each game cog's
``typed_action`` undoes its ``notation_actions`` (Barree's sendings and Barbu's doubles
name players from 1, the rules count seats from 0)."""

from __future__ import annotations

import pytest

from cogs.bann import BannCog
from cogs.barbu import BarbuCog
from cogs.barree import BarreeCog
from games import GAMES


@pytest.mark.parametrize(
    ("cog_class", "typed", "engine"),
    [
        (BarreeCog, "send:2:63", "send:1:63"),
        (BarreeCog, "34-35-45", "34-35-45"),
        (BarbuCog, "double:2,4", "double:1,3"),
        (BarbuCog, "QS", "QS"),
        (BannCog, "4>5:N", "4>5:N"),
    ],
)
def test_a_typed_action_reads_back_as_the_rules_action(cog_class, typed, engine):
    cog = cog_class.__new__(cog_class)
    state = GAMES[cog_class.spec.key].new_game(seed=3)
    assert cog.notation_actions(state, typed) == [engine]
    assert cog.typed_action(engine) == typed
