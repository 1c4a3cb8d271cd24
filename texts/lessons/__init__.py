"""Lessons: a game taught in short steps, each one rule in a real position the learner
plays with the game's own controls.

A game's lesson is ``LESSON`` in ``texts/lessons/<key>.py`` (``lesson_of`` finds it; a
game without one has no lesson). A ``Step`` holds its position (built with the engine),
what it teaches, the task, which sections of the game's rule page
(``docs/rules/<key>.md``) it teaches, and its judge: after each action the judge says
whether the step is solved, tried wrongly (with the one sentence that explains why), or
still going on. ``Lesson.attempt`` plays the learner's actions, lets the other seats
answer and judges; a wrong try goes back to the step's position, to be tried again.

Everything here is pure and deterministic (the other seats play scripted answers or the
first action the rules allow), so a step replays exactly from its stored moves, and a
lesson can be tested without Discord.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from games import GameState, IllegalAction, layer_package
from texts.i18n import N_, t

# A game's lesson is ``texts.lessons.<key>``, in whichever game root holds the game.
layer_package("texts/lessons", __path__)

S = TypeVar("S", bound=GameState)

MOST_ACTIONS = 200
"""More actions than any step takes: a step whose judge never decides is a bug, not a
loop."""

PLAYERS = ("Ada", "Max", "Zoe")
"""The other players at a lesson's table, in seat order after the learner's: a task may
name them, as its controls do ("Double Max")."""

HOW_TO_PLAY = N_("How to play")
"""The first section of every rule page: five numbered lines."""

Label = Callable[[str], str]
"""A text drawn in the reader's language by a function (a control's label, say)."""


@dataclass(frozen=True)
class Said:
    """A sentence of the catalogue and the values of its placeholders; a value may be a
    ``Said`` or a ``Label`` itself, put in the reader's language first."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, language: str) -> str:
        shown = {name: _shown(language, value) for name, value in self.params.items()}
        return t(language, self.text, **shown)


def said(text: str, /, **params: Any) -> Said:
    return Said(text, params)


def bold(value: Said | Label) -> Label:
    """A text shown in bold, in the reader's language: a task names the controls to use so,
    as they read."""
    return lambda language: f"**{value(language)}**"


def _shown(language: str, value: Any) -> Any:
    if isinstance(value, Said) or callable(value):
        return value(language)
    return value


@dataclass(frozen=True)
class Rule:
    """A rule of a game's rule page: a section (by its heading, as the page names it) or,
    with ``item``, one line of it: a numbered line of "How to play" ("1" to "5") or the
    bold label that begins a line of the section."""

    section: str
    item: str = ""


@dataclass(frozen=True)
class Verdict:
    """The judge's word on a try: solved, or wrong and why, in one sentence."""

    solved: bool
    said: Said


def right(text: str, /, **params: Any) -> Verdict:
    return Verdict(True, Said(text, params))


def wrong(text: str, /, **params: Any) -> Verdict:
    return Verdict(False, Said(text, params))


@dataclass(frozen=True)
class Attempt(Generic[S]):
    """A step being played: its position, the state now, and every action since, each
    with the seat that played it."""

    start: S
    state: S
    played: tuple[tuple[int, str], ...]
    seat: int

    @property
    def mine(self) -> list[str]:
        """The learner's own actions, in order."""
        return [action for seat, action in self.played if seat == self.seat]

    @property
    def last(self) -> str:
        """The learner's latest action."""
        return self.mine[-1]

    @property
    def before_last(self) -> S:
        """The state the learner's latest action was played in."""
        state = self.start
        index = max(i for i, (seat, _) in enumerate(self.played) if seat == self.seat)
        for _, action in self.played[:index]:
            state = _apply(state, action)
        return state


Judge = Callable[[Attempt[S]], Verdict | None]


@dataclass(frozen=True)
class Step(Generic[S]):
    """One rule taught in one position."""

    title: str
    teaching: str
    """The rule in a few sentences (a sentence of the catalogue)."""
    task: Said
    """What to do, naming in bold the controls to use."""
    rules: tuple[Rule, ...]
    position: Callable[[], S]
    judge: Judge[S]
    seat: int = 0
    """The learner's seat."""
    replies: Mapping[str, str] = field(default_factory=dict)
    """The other seats' answers by the position's code or the action answered, where a
    step scripts them (see ``Lesson.answer``)."""


@dataclass(frozen=True)
class Outcome:
    """What a try did: the step's moves afterwards (none after a wrong try: the step
    starts over) and the verdict (None: the learner acts again)."""

    moves: tuple[str, ...]
    verdict: Verdict | None


class LessonError(Exception):
    """A step the learner cannot finish: its judge left a position undecided where the
    learner cannot act. Every lesson's tests play each step, so this is a bug."""


@dataclass(frozen=True)
class Lesson(Generic[S]):
    """A game's lesson: its steps, the seats at its table, and the practice game it ends
    with."""

    steps: tuple[Step[S], ...]
    players: int
    practice_options: Mapping[str, Any] = field(default_factory=dict)
    """The options of the practice game against the easy computer after the last step."""

    def state_at(self, index: int, moves: Sequence[str]) -> S:
        state = self.steps[index].position()
        for action in moves:
            state = _apply(state, action)
        return state

    def attempt(
        self,
        index: int,
        moves: Sequence[str],
        actions: Sequence[str],
        automatic: Callable[[S], str | None] = lambda state: None,
    ) -> Outcome:
        """Play the learner's ``actions`` in step ``index`` after its ``moves`` so far;
        the other seats answer and actions that play themselves (``automatic``, as at a
        table) are played, the judge deciding after every action. An action the rules
        refuse raises their ``IllegalAction`` (its sentence says why), and nothing is
        played: the controls offer none, so only an old menu or a forged click sends one."""
        step = self.steps[index]
        start = step.position()
        played: list[tuple[int, str]] = []
        state = start
        for action in moves:
            played.append((_seat(state), action))
            state = _apply(state, action)
        verdict: Verdict | None = None
        for action in actions:
            if state.current_player != step.seat:
                raise IllegalAction(
                    N_("'{action}' comes after your turn has ended."), action=action
                )
            state, verdict = _played(step, start, state, played, action)
            if verdict is not None:
                break
        while verdict is None and not state.is_over and len(played) < MOST_ACTIONS:
            answer = self.answer(step, state, played, automatic)
            if answer is None:
                break
            state, verdict = _played(step, start, state, played, answer)
        if verdict is None and state.current_player != step.seat:
            raise LessonError(f"{step.title!r} is undecided where the learner cannot act")
        if verdict is not None and not verdict.solved:
            return Outcome((), verdict)
        return Outcome(tuple(action for _, action in played), verdict)

    @staticmethod
    def answer(
        step: Step[S],
        state: S,
        played: Sequence[tuple[int, str]],
        automatic: Callable[[S], str | None],
    ) -> str | None:
        """The next action nobody needs to choose: another seat's (scripted by the step
        for the action it answers, else the first its rules allow), or the learner's
        when it plays itself; None when the learner chooses."""
        seat = state.current_player
        if seat == step.seat:
            return automatic(state)
        scripted = step.replies.get(played[-1][1]) if played else None
        if scripted is not None:
            return scripted
        return state.legal_actions()[0]


def _apply(state: S, action: str) -> S:
    """A game's state after ``action``: the game's own state type (each game's ``apply``
    returns its own)."""
    return cast(S, state.apply(action))


def _seat(state: GameState) -> int:
    seat = state.current_player
    if seat is None:
        raise LessonError("a step's moves go on after the game ended")
    return seat


def _played(
    step: Step[S], start: S, state: S, played: list[tuple[int, str]], action: str
) -> tuple[S, Verdict | None]:
    seat = _seat(state)
    after = _apply(state, action)
    played.append((seat, action))
    return after, step.judge(Attempt(start, after, tuple(played), step.seat))


def lesson_of(key: str) -> Lesson[Any] | None:
    """The lesson of game ``key`` (``texts/lessons/<key>.py``), None if it has none."""
    name = f"{__name__}.{key}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None
    lesson: Lesson[Any] = module.LESSON
    return lesson
