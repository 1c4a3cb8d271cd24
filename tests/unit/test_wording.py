"""Singular and plural are right everywhere: every sentence in texts/ is rendered with
every number in it 1 and then 2, the sentences built in code are rendered with counts of 1
and 2, and no string in the bot's code hedges with "(s)"."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import discord
import pytest

import texts
from cogs.barbu import BarbuCog
from cogs.luck import luck_text
from cogs.table.components import Target
from games import GAMES
from games.barbu import DoublingChoice
from games.barbu.state import must_double_now
from games.luck import DiceLuck
from texts import bann, barbu, barree, gulbara, table
from texts.common import duration

ROOT = Path(__file__).resolve().parents[2]
TEXT_MODULES = (texts, table, bann, barbu, barree, gulbara)
NOUNS = [
    *("game", "player", "point", "roll", "deal", "double", "walk", "outcome", "card"),
    *("checker", "trick", "seat", "move", "turn", "round", "minute", "hour", "day", "second"),
    *("knight", "stone", "step", "position", "action", "event"),
]
ONE_WITH_PLURAL = re.compile(rf"\b1 (?:more )?(?:{'|'.join(NOUNS)})s\b|\b1 dice\b")
TWO_WITH_SINGULAR = re.compile(rf"\b2 (?:more )?(?:{'|'.join(NOUNS)})\b(?!s)|\b2 die\b")


def sentences(module: ModuleType) -> Iterator[tuple[str, str]]:
    """Every string a texts module holds at its top level, in a dict or a tuple too."""
    for name, value in vars(module).items():
        if not name.isupper():
            continue
        values = value.values() if isinstance(value, dict) else [value]
        for item in values:
            if isinstance(item, str):
                yield f"{module.__name__}.{name}", item


PERSON_FIELDS = frozenset(
    {
        *("name", "winner", "winners", "loser", "offerer", "answerer", "starter", "opener"),
        *("finisher", "target", "targets", "first", "second", "doubled", "redoubled"),
    }
)
"""Placeholders that take a player's name: "{name} rolls" is a verb, not a count."""


class EveryField(string.Formatter):
    """Fills every placeholder that may hold a number with the same number."""

    def __init__(self, number: int) -> None:
        self.number = number

    def get_value(self, key: object, args: object, kwargs: object) -> int | str:
        return "Alice" if key in PERSON_FIELDS else self.number


ALL_SENTENCES = [pair for module in TEXT_MODULES for pair in sentences(module)]


def wrong_number(text: str) -> list[str]:
    return [*ONE_WITH_PLURAL.findall(text), *TWO_WITH_SINGULAR.findall(text)]


def test_the_texts_hold_the_sentences_that_count() -> None:
    names = {name for name, _ in ALL_SENTENCES}
    assert {"texts.table.READY", "texts.barbu.DOUBLES_NOTATION"} <= names


@pytest.mark.parametrize("number", [1, 2])
@pytest.mark.parametrize(("name", "sentence"), ALL_SENTENCES, ids=[n for n, _ in ALL_SENTENCES])
def test_every_sentence_reads_right_with_one_and_with_two(
    name: str, sentence: str, number: int
) -> None:
    rendered = EveryField(number).format(sentence)
    assert "(s)" not in rendered, rendered
    if not (number == 2 and "1" in sentence) and not (number == 1 and "{count}" in sentence):
        # A sentence for exactly one ("1 checker") is not rendered with 2, nor the
        # sentence for several ("{count} checkers") with 1: ``counted`` picks between them.
        assert wrong_number(rendered) == [], rendered


@pytest.mark.parametrize("count", [1, 2])
def test_sentences_chosen_by_count_agree_with_it(count: int) -> None:
    rendered = [
        table.needs_players("en", count),
        table.earlier_turns("en", count),
        barbu.confirm_label("en", count),
        gulbara.point_label("en", 7, count),
        barree.fields_left_out("en", count),
        duration("en", 60 * count),
        duration("en", 3600 * count),
        duration("en", 86400 * count),
        duration("en", count),
        barree.minus_points("en", count),
    ]
    for text in rendered:
        assert str(count) in text and "(s)" not in text, text
        assert wrong_number(text) == [], text


@pytest.mark.parametrize(
    ("owed", "deal", "phase", "deals_left"),
    [(1, 6, "contract", 1), (1, 5, "play", 1), (1, 2, "doubling", 5), (2, 0, "contract", 7)],
)
def test_barbus_owed_doubles_read_right_for_any_count(
    owed: int, deal: int, phase: str, deals_left: int
) -> None:
    """The deals left are those in which the player still decides on doubles."""
    view = GAMES["barbu"].new_game(seed=1).view(None)
    seat = (view["declarer"] + 1) % 4
    doubled = [0, 0, 0, 0]
    doubled[seat] = 2 - owed
    view |= {"deal": deal, "phase": phase, "declarer_doubled": doubled, "doubling_acted": []}
    text = barbu.doubles_owed("en", view, seat, ["Ann", "Ben", "Cid", "Dot"])
    assert text and "(s)" not in text and wrong_number(text) == [], text
    if deals_left == 1:
        assert ("this deal" if phase == "contract" else "the next deal") in text, text
    else:
        assert f"{owed} more double" in text and f"the {deals_left} deals left" in text, text
    view["declarer_doubled"] = [2, 2, 2, 2]
    assert barbu.doubles_owed("en", view, seat, ["Ann", "Ben", "Cid", "Dot"]) is None


@pytest.mark.parametrize(("needed", "deals_left"), [(1, 1), (2, 2)])
def test_a_double_owed_now_reads_right(needed: int, deals_left: int) -> None:
    """Owed now: as many doubles owed as deals are left, this one included."""
    text = str(must_double_now(DoublingChoice(1, 0, (0, 2, 3), (), 0, needed, deals_left)))
    assert text.startswith("You must double declarer now") and wrong_number(text) == [], text


def test_the_doubling_panels_confirm_counts_the_doubles_and_never_repeats_pass() -> None:
    choice = DoublingChoice(1, 0, (0, 2, 3), (), None, 0, 7)
    target = Target(1, 1, "decide")
    names = ["Alice", "Bob", "Carol", "Dave"]

    def confirm(chosen: frozenset[int]) -> tuple[str, bool]:
        button = BarbuCog._doubling_panel(target, choice, chosen, names, "en")[-1].item
        assert isinstance(button, discord.ui.Button)
        return button.label or "", button.disabled

    assert confirm(frozenset()) == ("Confirm", True)
    assert confirm(frozenset({0})) == ("Confirm 1 double", False)
    assert confirm(frozenset({0, 2})) == ("Confirm 2 doubles", False)


def code_strings() -> Iterator[tuple[str, str]]:
    for folder in ("cogs", "games", "texts", "render"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def test_no_string_in_the_code_hedges_its_number() -> None:
    hedged = [where for where, text in code_strings() if "(s)" in text]
    assert hedged == []


def test_the_dice_luck_tells_the_rolls_of_one_die_from_those_that_can_be_doubles() -> None:
    """108 rolls, but doubles "in 105 rolls": the three opening rolls of one die are
    named, and a game of one die counts its rolls alone."""
    gulbara = DiceLuck(games=9)
    for _ in range(3):
        gulbara.add_throw([4], 1)
    for index in range(105):
        gulbara.add_throw([index % 6 + 1, (index // 6) % 6 + 1], 1)
    text = luck_text("gulbara", gulbara, "en").splitlines()
    assert text[0] == "108 rolls (213 dice) in 9 games, 3 of them opening rolls of one die"
    assert text[-1].startswith(f"Doubles: {gulbara.doubles} in 105 two-dice rolls")
    barree = DiceLuck(games=2)
    for face in (0, 3, 5):
        barree.add_throw([face], 0)
    assert luck_text("barree", barree, "en").splitlines()[0] == "3 rolls in 2 games"
