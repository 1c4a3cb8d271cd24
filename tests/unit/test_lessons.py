"""The lessons without Discord: every step of every game is a real position where the
learner acts, its task can be done, every try the rules allow is judged in one sentence
of both languages, and a wrong one starts the step over; and every rule of each game's
rule page is taught by a step, under the page's own headings in English and German."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import GAMES, GameState, IllegalAction
from texts.i18n import t
from texts.lessons import HOW_TO_PLAY, Lesson, LessonError, Outcome, Rule, lesson_of

ROOT = Path(__file__).resolve().parents[2]
NOT_RULES = ("Words used here", "Playing in Discord", "Notation")
"""Sections of a rule page that explain words and the bot, not rules of the game."""
LABELLED_LINE = re.compile(r"^(?:- |\d\. )\*\*(.+?)\*\*", re.MULTILINE)
GAME_KEYS = list(GAMES)

SOLUTIONS: dict[str, list[list[str]]] = {
    "bann": [
        ["2>6:N"],
        ["1>3:N"],
        ["2>4:N"],
        ["3>5:N"],
        ["3>2:N"],
        ["2>4:E"],
        ["offer"],
        ["1>6:S"],
    ],
    "gulbara": [
        ["24/18"],
        ["16/13"],
        ["15/13"],
        ["24/19", "19/14", "14/9", "9/4"],
        ["4/off", "3/off"],
        ["2/off"],
    ],
    "barbu": [["notricks"], ["5H"], ["KH"], ["TS"], ["5C"], ["double:2"]],
    "barree": [
        ["roll", "34-45-35-25-15"],
        ["roll"],
        ["roll", "34-35-36", "send:1:81"],
        ["roll", "34-35"],
        ["roll", "34-35"],
    ],
}
"""Each step's task done as its text asks, action by action."""


def automatic(state: GameState) -> str | None:
    """The action that plays itself at a table with autoplay (on by default): a step or
    card that is the only one the rules allow."""
    forced: Callable[[], str | None] | None = getattr(state, "forced_step", None) or getattr(
        state, "forced_play", None
    )
    if forced is None or not getattr(state, "autoplay", False):
        return None
    return forced()


def lesson(key: str) -> Lesson[Any]:
    found = lesson_of(key)
    assert found is not None, f"{key} has a lesson"
    return found


def solve(found: Lesson[Any], index: int, actions: list[str]) -> Outcome:
    """The step played one action at a time, as the controls send them."""
    moves: tuple[str, ...] = ()
    outcome = Outcome(moves, None)
    for action in actions:
        outcome = found.attempt(index, moves, [action], automatic)
        if outcome.verdict is not None:
            return outcome
        moves = outcome.moves
    return outcome


def one_sentence(text: str) -> bool:
    return "\n" not in text and text.rstrip().endswith((".", "!")) and len(text) < 200


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_game_has_a_lesson_that_ends_with_a_practice_game(key):
    found = lesson(key)
    assert 5 <= len(found.steps) <= 8, "short: one rule a step, a handful of steps"
    spec = GAMES[key]
    assert spec.min_players <= found.players <= spec.max_players
    assert set(found.practice_options) <= {option.name for option in spec.options}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_each_step_is_a_position_where_the_learner_acts(key):
    found = lesson(key)
    for step in found.steps:
        state = step.position()
        assert not state.is_over and state.current_player == step.seat, step.title
        assert state.legal_actions(), step.title
        assert type(state) is type(GAMES[key].new_game(players=found.players, seed=1))


@pytest.mark.parametrize("key", GAME_KEYS)
def test_each_task_done_as_it_says_solves_its_step(key):
    found = lesson(key)
    assert len(SOLUTIONS[key]) == len(found.steps)
    for index, actions in enumerate(SOLUTIONS[key]):
        outcome = solve(found, index, actions)
        assert outcome.verdict is not None and outcome.verdict.solved, found.steps[index].title
        assert one_sentence(outcome.verdict.said("en"))
        replayed = found.state_at(index, outcome.moves)
        assert replayed.to_dict() == found.state_at(index, outcome.moves).to_dict()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_try_the_rules_allow_is_judged_and_a_wrong_one_explained(key):
    """Wherever the learner acts on the way through a step, whatever he picks: solved,
    going on, or wrong in one sentence of both languages, and then the step starts over
    from its position."""
    found = lesson(key)
    wrong_tries = 0
    for index, step in enumerate(found.steps):
        moves: tuple[str, ...] = ()
        for planned in SOLUTIONS[key][index]:
            for action in found.state_at(index, moves).legal_actions():
                try:
                    outcome = found.attempt(index, moves, [action], automatic)
                except LessonError:
                    pytest.fail(f"{step.title}: {action} leaves the step undecided")
                verdict = outcome.verdict
                if verdict is None or verdict.solved:
                    continue
                wrong_tries += 1
                english, german = verdict.said("en"), verdict.said("de")
                assert one_sentence(english) and one_sentence(german), english
                assert german != english, f"not translated: {english}"
                assert outcome.moves == (), "a wrong try starts the step over"
            played = found.attempt(index, moves, [planned], automatic)
            if played.verdict is not None:
                break
            moves = played.moves
    assert wrong_tries > 0, "a lesson where nothing can go wrong teaches nothing"


def test_a_try_the_rules_refuse_is_refused_with_their_sentence_and_plays_nothing():
    with pytest.raises(IllegalAction) as refused:
        lesson("bann").attempt(1, (), ["3>3:N"])
    assert refused.value.message == "Knight {number} is banned: a die shows {number}."
    gulbara = lesson("gulbara")
    started = gulbara.attempt(4, (), ["4/off"], automatic)
    assert started.verdict is None
    with pytest.raises(IllegalAction):
        gulbara.attempt(4, started.moves, ["6/off"], automatic)


def test_a_scripted_answer_is_played_for_the_other_seat():
    outcome = lesson("bann").attempt(6, (), ["offer"])
    assert outcome.moves == ("offer", "accept")


# ---- the rule pages ------------------------------------------------------------------------


def page(key: str, language: str = "") -> str:
    return (ROOT / "docs" / "rules" / language / f"{key}.md").read_text(encoding="utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """Each ``##`` section of a page: its heading and its text."""
    parts = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    return [(part.partition("\n")[0].strip(), part.partition("\n")[2]) for part in parts]


def rules_of(text: str) -> set[Rule]:
    """The rules of a rule page: each numbered line of How to play, each section of rules
    and each line of one that begins with a bold label."""
    found: set[Rule] = set()
    for heading, body in sections(text):
        if heading.startswith(NOT_RULES):
            continue
        if heading == HOW_TO_PLAY:
            found |= {Rule(heading, number) for number in re.findall(r"^(\d)\. ", body, re.M)}
            continue
        found.add(Rule(heading))
        found |= {Rule(heading, label.rstrip(".:")) for label in LABELLED_LINE.findall(body)}
    return found


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_rule_of_the_rule_page_is_taught_by_a_step(key):
    taught = {rule for step in lesson(key).steps for rule in step.rules}
    rules = rules_of(page(key))
    assert len(rules) >= 10
    assert sorted(rules - taught, key=str) == [], "rules no step teaches"
    assert sorted(taught - rules, key=str) == [], "steps name rules the page does not have"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_each_step_names_its_rules_as_the_german_page_heads_them(key):
    english = [heading for heading, _ in sections(page(key))]
    german = [heading for heading, _ in sections(page(key, "de"))]
    assert len(english) == len(german)
    for step in lesson(key).steps:
        for rule in step.rules:
            assert t("de", rule.section) == german[english.index(rule.section)], rule.section


def test_the_rule_finder_reads_sections_numbered_lines_and_bold_labels():
    text = (
        "# Game\n\n## How to play\n\n1. One.\n2. Two.\n\n## Words used here\n\n- **Word**: x\n\n"
        "## Moving\n\n- **Fast.** Go.\n- plain line\n1. **Tip** it.\n\n## Notation\n\n- **Card**\n"
    )
    assert rules_of(text) == {
        Rule(HOW_TO_PLAY, "1"),
        Rule(HOW_TO_PLAY, "2"),
        Rule("Moving"),
        Rule("Moving", "Fast"),
        Rule("Moving", "Tip"),
    }
