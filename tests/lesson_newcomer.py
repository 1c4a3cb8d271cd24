"""A scripted newcomer who takes a game's lesson through the fake Discord, reading only
what the bot shows.

He knows no rule and no move notation. On each step he reads the task (the line that
begins with 👉) and presses the controls it names in bold, in their order, as they read
on the buttons and in the menus; when no control he sees is named (a task such as "tip
to any side but 3"), he tries the first control he has not tried yet, and reads the
answer. After a wrong try he starts the task from its beginning. He knows the
words of the lesson's own buttons ("Next step") in his language, as a person reads them.

He counts what a person would spend: taps (a button is one, a menu two: open it, pick)
and the words he read, each line once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cogs.table.lessons import AGAIN_LABEL, LEAVE_LABEL, NEXT_LABEL, PRACTICE_LABEL, RESTART_LABEL
from fakediscord import Channel, Message, SimUser
from texts.i18n import t

WORDS_PER_MINUTE = 200
SECONDS_PER_TAP = 2
MOST_ACTIONS_PER_STEP = 12
BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass
class Walkthrough:
    """One lesson as the newcomer took it."""

    game: str
    steps: int = 0
    taps: int = 0
    wrong_tries: int = 0
    words: int = 0
    seen: set[str] = field(default_factory=set)
    titles: list[str] = field(default_factory=list)

    @property
    def minutes(self) -> float:
        """Reading at 200 words a minute, plus two seconds a tap."""
        return self.words / WORDS_PER_MINUTE + self.taps * SECONDS_PER_TAP / 60

    def read(self, message: Message) -> None:
        for line in message.content.splitlines():
            if line and line not in self.seen:
                self.seen.add(line)
                self.words += len(line.split())


def names(phrase: str, text: str) -> bool:
    """Whether ``text`` (a label) contains ``phrase`` as whole words."""
    pattern = r"(?<!\w)" + re.escape(phrase.casefold()) + r"(?!\w)"
    return re.search(pattern, text.casefold()) is not None


def is_lesson(message: Message) -> bool:
    return message.content.startswith("🎓")


def task_phrases(message: Message) -> list[str]:
    task = next(line for line in message.content.splitlines() if line.startswith("👉"))
    return BOLD.findall(task)


class Newcomer:
    def __init__(self, user: SimUser, channel: Channel, language: str = "en") -> None:
        self.user = user
        self.channel = channel
        self.language = language
        self.own_buttons = {
            t(language, label)
            for label in (NEXT_LABEL, AGAIN_LABEL, LEAVE_LABEL, PRACTICE_LABEL, RESTART_LABEL)
        }

    async def take_lesson(self, game: str) -> tuple[Walkthrough, Message]:
        """The whole lesson of ``game`` from `/<game> learn` to its last screen."""
        walk = Walkthrough(game)
        started = await self.user.slash(self.channel, f"{game} learn")
        lesson = started.message
        assert lesson is not None and is_lesson(lesson), "the lesson answers privately"
        assert lesson.is_ephemeral
        while True:
            walk.read(lesson)
            walk.steps += 1
            walk.titles.append(lesson.content.splitlines()[0])
            lesson = await self.solve_step(lesson, walk)
            if self.has_button(lesson, PRACTICE_LABEL):
                return walk, lesson
            walk.taps += 1
            lesson = (await self.user.click(lesson, t(self.language, NEXT_LABEL))).message
            assert lesson is not None and is_lesson(lesson)

    async def solve_step(self, lesson: Message, walk: Walkthrough) -> Message:
        """Follow the task until the step says it is solved; the lesson message then."""
        phrases = task_phrases(lesson)
        screen, tried, followed = lesson, set[str](), list[str]()
        for _ in range(MOST_ACTIONS_PER_STEP):
            screen = await self.act(screen, phrases, followed, tried, walk)
            walk.read(screen)
            if is_lesson(screen):
                if "❌" in screen.content:
                    walk.wrong_tries += 1
                    followed.clear()
                if self.has_button(screen, NEXT_LABEL) or self.has_button(screen, PRACTICE_LABEL):
                    assert sorted(followed) == sorted(phrases), (
                        f"the task names controls the newcomer never saw: {phrases}"
                    )
                    return screen
        raise AssertionError(f"the newcomer could not finish {lesson.content.splitlines()[0]}")

    async def act(
        self,
        screen: Message,
        phrases: list[str],
        followed: list[str],
        tried: set[str],
        walk: Walkthrough,
    ) -> Message:
        """One tap (or menu pick) on ``screen`` for the first phrase of the task not
        followed yet; the message to look at next."""
        for phrase in [phrase for phrase in phrases if phrase not in followed]:
            for select in screen.selects():
                for option in select.options:
                    if names(phrase, option.label) or names(phrase, option.description or ""):
                        followed.append(phrase)
                        return await self.pick(screen, select.custom_id, option.value, walk)
            for button in self.buttons(screen):
                if names(phrase, button.label or ""):
                    followed.append(phrase)
                    return await self.press(screen, button.custom_id, walk)
        for select in screen.selects():
            for option in select.options:
                key = f"{select.custom_id}={option.value}"
                if key not in tried:
                    tried.add(key)
                    return await self.pick(screen, select.custom_id, option.value, walk)
        for button in self.buttons(screen):
            if button.custom_id not in tried:
                tried.add(button.custom_id or "")
                return await self.press(screen, button.custom_id, walk)
        raise AssertionError(f"nothing left to try on {screen.content!r}")

    def buttons(self, screen: Message) -> list:
        return [
            button
            for button in screen.buttons()
            if not button.disabled and button.label not in self.own_buttons
        ]

    async def press(self, screen: Message, custom_id: str | None, walk: Walkthrough) -> Message:
        walk.taps += 1
        result = await self.user.click(screen, custom_id=custom_id)
        return self.next_screen(screen, result.ephemeral)

    async def pick(self, screen: Message, custom_id: str, value: str, walk: Walkthrough) -> Message:
        walk.taps += 2
        result = await self.user.select(screen, [value], custom_id=custom_id)
        return self.next_screen(screen, result.ephemeral)

    @staticmethod
    def next_screen(screen: Message, opened: list[Message]) -> Message:
        """A menu the tap opened, else the tapped message as it is now."""
        fresh = [message for message in opened if not message.deleted]
        return fresh[-1] if fresh else screen

    def has_button(self, message: Message, label: str) -> bool:
        wanted = t(self.language, label)
        return any(button.label == wanted for button in message.buttons())
