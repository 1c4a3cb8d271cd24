"""The engine contract every game honours.

A game is a ``GameSpec`` in the ``GAMES`` registry whose ``new_game`` returns an
immutable-by-convention ``GameState``: ``apply`` returns a new state and leaves the old
one untouched, so the Discord layer can try an action and throw the result away. The
spec also declares the game's facts the shared machinery asks about (how a timeout ends,
its dice, hidden information, its replay frames, its progress marker), so no shared
module needs to know a game by its key.
"""

from __future__ import annotations

import contextlib
import hmac
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, MutableSequence, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

T = TypeVar("T")

LEVELS = ("easy", "normal", "hard")
"""Computer player strengths: easy loses to sensible players more often than it wins,
normal beats them, hard is the strongest."""
DEFAULT_LEVEL = "normal"


def N_(message: str) -> str:
    """Marks an English sentence for the translation catalogue (``texts.i18n``), which
    ``python -m texts.catalogue`` finds by this name; the engines stay free of it."""
    return message


class IllegalAction(ValueError):
    """An action the rules do not allow, with a sentence for the player: ``message`` is
    its catalogue id (English, ``{placeholders}`` named), ``params`` fill them in after
    translation. ``str()`` of it is the English sentence."""

    def __init__(self, message: str, /, **params: object) -> None:
        super().__init__(message.format(**params) if params else message)
        self.message = message
        self.params = params


def whole_number(text: str, max_digits: int = 6) -> int | None:
    """The number ``text`` writes in ASCII digits, or None for anything else.

    ``int()`` alone is too lenient for player input: it accepts signs, spaces,
    underscores and digits of other scripts, and ``str.isdigit()`` lets through "²",
    which ``int()`` then refuses with a ValueError.
    """
    if not 0 < len(text) <= max_digits or not all("0" <= char <= "9" for char in text):
        return None
    return int(text)


class Rng:
    """The game's random source: every die, shuffle and draw comes from its secret seed.

    Draw number ``n`` reads 64-bit words from HMAC-SHA256 keyed with the seed's decimal
    digits over the message ``"<n>:<block>"`` (block 0, 1, … as more words are needed).
    Ranges use rejection sampling, so every value is exactly equally likely, and shuffles
    are Fisher-Yates from the last position down. Seeing any number of results tells
    nothing about the seed or the next result, so publishing a hash of the seed before
    play (a commitment) binds the game to its dice without giving them away. The whole
    source serialises as two integers and replays exactly.

    ``journal``, when set, receives one ``ChanceEvent`` per draw; copies share it, so a
    replay can list every die and shuffle in order (it is never serialised). Sources
    created inside ``journaling()`` get that block's journal.
    """

    __slots__ = ("draws", "journal", "seed")

    def __init__(self, seed: int, draws: int = 0, journal: list[ChanceEvent] | None = None) -> None:
        self.seed = seed
        self.draws = draws
        self.journal = journal if journal is not None else _ACTIVE_JOURNAL.get()

    def _words(self) -> Iterator[int]:
        """The 64-bit words of the next draw, endlessly."""
        key = str(self.seed).encode()
        draw = self.draws
        self.draws += 1
        for block in itertools.count():
            digest = hmac.digest(key, f"{draw}:{block}".encode(), "sha256")
            for start in range(0, len(digest), 8):
                yield int.from_bytes(digest[start : start + 8], "big")

    def _record(self, kind: str, outcome: str, seat: int | None = None) -> None:
        if self.journal is not None:
            self.journal.append(ChanceEvent(self.draws - 1, kind, outcome, seat))

    def randint(self, low: int, high: int, seat: int | None = None) -> int:
        """A uniform integer in [low, high]; ``seat`` names whose roll it is, if anyone's."""
        value = low + _below(self._words(), high - low + 1)
        self._record(f"{low}..{high}", str(value), seat)
        return value

    def die(self, seat: int | None = None) -> int:
        return self.randint(1, 6, seat)

    def dice(self, count: int, seat: int | None = None) -> list[int]:
        """``count`` six-sided dice thrown together by ``seat``: one draw, one roll."""
        words = self._words()
        values = [1 + _below(words, 6) for _ in range(count)]
        self._record("dice", " ".join(map(str, values)), seat)
        return values

    def choice(self, options: Sequence[T]) -> T:
        picked = options[_below(self._words(), len(options))]
        self._record(f"choice of {len(options)}", str(picked))
        return picked

    def shuffle(self, items: MutableSequence[Any]) -> None:
        words = self._words()
        for last in range(len(items) - 1, 0, -1):
            other = _below(words, last + 1)
            items[last], items[other] = items[other], items[last]
        self._record(f"shuffle of {len(items)}", " ".join(str(item) for item in items))

    def copy(self) -> Rng:
        return Rng(self.seed, self.draws, self.journal)

    def to_dict(self) -> dict[str, int]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> Rng:
        return cls(int(data["seed"]), int(data["draws"]))


WORD_RANGE = 1 << 64
_ACTIVE_JOURNAL: ContextVar[list[ChanceEvent] | None] = ContextVar("journal", default=None)


@contextlib.contextmanager
def journaling() -> Iterator[list[ChanceEvent]]:
    """Every random source created in this block (and its copies) lists its draws in
    the yielded journal; per thread and per task, so concurrent replays stay apart."""
    journal: list[ChanceEvent] = []
    token = _ACTIVE_JOURNAL.set(journal)
    try:
        yield journal
    finally:
        _ACTIVE_JOURNAL.reset(token)


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform integer in ``[0, bound)``: words from the top partial range are
    rejected, so no value is favoured by the modulo."""
    if bound <= 0:
        raise ValueError("nothing to choose from")
    limit = WORD_RANGE - WORD_RANGE % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("the word stream is endless")


@dataclass(frozen=True)
class ChanceEvent:
    """One draw of a game's random source, as a replay lists it."""

    draw: int
    kind: str
    outcome: str
    seat: int | None = None

    def line(self) -> str:
        """The event as a record file writes it, e.g. ``seat 1 dice -> 6 5``."""
        who = "" if self.seat is None else f"seat {self.seat} "
        return f"{who}{self.kind} -> {self.outcome}"


class GameState(ABC):
    """One position of a game, including whose turn it is and the random source."""

    players: int
    rng: Rng

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must act now; None once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """Every action the current seat may take, in the game's notation (docs/rules/)."""

    @abstractmethod
    def apply(self, action: str) -> GameState:
        """The state after ``action``; raises ``IllegalAction`` if it is not legal."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat final score, higher is better."""

    @abstractmethod
    def view(self, seat: int | None) -> Mapping[str, Any]:
        """A JSON-safe dict of what ``seat`` may see (None: what everyone sees); each game
        names its keys in a ``TypedDict`` (``BannView``, …) that its renderer reads."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """An exact JSON-safe snapshot, random source included."""

    def describe(self, action: str) -> str:
        """A short human sentence for an action, used in move logs."""
        return action


S = TypeVar("S", bound=GameState)
S_co = TypeVar("S_co", bound=GameState, covariant=True)
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class NewGame(Protocol[S_co]):
    """A game's start: ``new_game(players=…, seed=…, **options)``, each of the spec's
    options a keyword with its default."""

    def __call__(self, *, players: int, seed: int) -> S_co: ...


class BotAction(Protocol[S_contra]):
    """A game's computer player: the same state, seed and level give the same action."""

    def __call__(self, state: S_contra, /, *, seed: int, level: str = ...) -> str: ...


TABLE_EVENT = "!"
"""The mark of a logged table event (``!resign``, ``!abandon``) the rules never see."""


@dataclass(frozen=True)
class Step:
    """One logged action and what it did: the chance events it caused and the result."""

    number: int
    seat: int | None
    action: str
    before: GameState
    after: GameState
    chance: tuple[ChanceEvent, ...]

    @property
    def is_table_event(self) -> bool:
        return self.action.startswith(TABLE_EVENT)


@dataclass(frozen=True)
class Frame:
    """One picture of a replay: a public view and the caption naming what led to it."""

    view: Mapping[str, Any]
    caption: str
    """A catalogue id: English with ``{placeholders}`` filled from ``params``."""
    params: Mapping[str, object] = field(default_factory=dict)


START = N_("Beginning")
MOVE = N_("{number}. {name}: {move}")
EVENTS = {
    "resign": N_("{name} resigns"),
    "abandon": N_("The game is abandoned"),
    "hint": N_("{name} asks for a hint"),
}
NUMBERED_EVENTS = {
    "resign": N_("{number}. {name} resigns"),
    "abandon": N_("{number}. The game is abandoned"),
    "hint": N_("{number}. {name} asks for a hint"),
}

ReplayFrames = Callable[[Sequence[str], GameState, Sequence[Step]], list[Frame]]
"""A game's replay: the seat names, the start and the logged steps -> its frames."""


def seat_name(seats: Sequence[str], seat: int | None) -> str:
    """The name of ``seat`` in a replay's caption ("?" for no or an unknown seat)."""
    if seat is None or not 0 <= seat < len(seats):
        return "?"
    return seats[seat]


def event_frame(seats: Sequence[str], step: Step, number: int | None = None) -> Frame:
    """A table event (``!resign``) as its sentence, after the move number if given."""
    event = step.action.removeprefix(TABLE_EVENT)
    params: dict[str, object] = {"name": seat_name(seats, step.seat), "move": event}
    if number is None:
        return Frame(step.after.view(None), EVENTS.get(event, N_("{name}: {move}")), params)
    params["number"] = number
    message = NUMBERED_EVENTS.get(event, MOVE)
    return Frame(step.after.view(None), message, params)


def move_frames(seats: Sequence[str], start: GameState, played: Sequence[Step]) -> list[Frame]:
    """One frame per move: the default replay of a game."""
    frames = [Frame(start.view(None), START)]
    for step in played:
        if step.is_table_event:
            frames.append(event_frame(seats, step, step.number))
            continue
        params = {"number": step.number, "name": seat_name(seats, step.seat), "move": step.action}
        frames.append(Frame(step.after.view(None), MOVE, params))
    return frames


def no_progress(state: GameState) -> int | None:
    """A game with no deals or rounds: a table of substitutes plays it to its end."""
    return None


@dataclass(frozen=True)
class Dice:
    """A game played with six-sided dice, for the luck statistics (``games.luck``).

    ``face_names`` names a face that is not a number of pips (Barree's 0 is "bar"), as a
    catalogue id."""

    face_names: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Counted:
    """A phrase that follows a number: English singular and plural with ``{count}``, looked
    up in the catalogue with the plural rules of each language."""

    singular: str
    plural: str


def Nn_(singular: str, plural: str) -> Counted:
    """Marks a phrase and its plural for the translation catalogue (``texts.i18n``), which
    ``python -m texts.catalogue`` finds by this name."""
    return Counted(singular, plural)


@dataclass(frozen=True)
class Choice:
    """One value of an option that takes one of a fixed set of words."""

    value: str
    name: str
    """How the value reads in `/<game> new` and on the table (a catalogue id)."""


@dataclass(frozen=True)
class Option:
    """A table option a player may set when creating a game (``/<game> new``) and nobody
    changes afterwards: a whole number from ``minimum`` to ``maximum`` (an ``int``
    default), yes or no (a ``bool`` default), or one of ``choices`` (a ``str`` default,
    the value of one of them)."""

    name: str
    default: int | bool | str
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Choice, ...] = ()
    shown: str | Counted = ""
    """How a table whose value is not the default says so in a few words, on its lobby and
    board (catalogue ids): for a number a phrase with ``{count}`` (``Nn_`` gives it a
    plural), for yes or no the phrase of the value that is not the default, for choices a
    phrase with ``{choice}``, the chosen one's name. Empty: the option's name and value."""

    def __post_init__(self) -> None:
        values = [choice.value for choice in self.choices]
        if isinstance(self.default, str) != bool(values) or (values and self.default not in values):
            raise ValueError(f"option {self.name}: a word default needs choices that hold it")

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is one this option may take (as stored and as recorded)."""
        if self.choices:
            return any(value == choice.value for choice in self.choices)
        if isinstance(self.default, bool):
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        above = self.minimum is None or self.minimum <= value
        below = self.maximum is None or value <= self.maximum
        return above and below

    def allowed(self) -> str:
        """What ``accepts`` takes, in English words (for a record checker's answer)."""
        if self.choices:
            return "one of " + ", ".join(f'"{choice.value}"' for choice in self.choices)
        if isinstance(self.default, bool):
            return "true or false"
        low = "" if self.minimum is None else f" from {self.minimum}"
        high = "" if self.maximum is None else f" up to {self.maximum}"
        return f"a whole number{low}{high}"

    def choice(self, value: object) -> Choice | None:
        """The choice whose value ``value`` is (None for an option without choices)."""
        return next((choice for choice in self.choices if choice.value == value), None)


@dataclass(frozen=True)
class Length:
    """How long a table with given options plays, as its lobby tells it beforehand."""

    parts: int
    """Its deals (or rounds)."""
    part_name: Counted
    """``Nn_("{count} deal", "{count} deals")``: how a number of parts is said."""
    decisions_per_part: float
    """The decisions a player has to take in one part, all seats together (a card
    played for him because it was his only one does not count), as computer play
    measures them (tests/games/test_length.py keeps the figure honest)."""


@dataclass(frozen=True, kw_only=True)
class GameSpec(Generic[S]):
    """A game, and the facts about it the shared machinery asks (none is guessed)."""

    key: str
    title: str
    position: int
    """Where the game stands in every list and command (the lowest first)."""
    min_players: int
    max_players: int
    new_game: NewGame[S]
    from_dict: Callable[[dict[str, Any]], S]
    bot_action: BotAction[S]
    on_timeout: Literal["loss", "substitute"]
    """What a run-out clock does: the absent player loses (two players), or a computer
    substitute takes the seat and the others play on."""
    dice: Dice | None
    """The game's dice (None: no dice game; a single opening roll does not make one)."""
    hidden_information: bool
    """Whether a seat sees what the others do not (its cog then labels the button)."""
    options: tuple[Option, ...] = field(default=())
    replay_frames: ReplayFrames = move_frames
    """What a replay shows: by default one frame per move."""
    progress_marker: Callable[[S], int | None] = no_progress
    """The deal or round a game is in, so a table of substitutes stops after it ends."""
    length: Callable[[Mapping[str, Any]], Length] | None = None
    """A long game's length for a table's options (each option present, defaults filled
    in), told in its lobby; None for a game short enough not to need it."""

    def with_defaults(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with every option the table did not set at its default."""
        return {option.name: options.get(option.name, option.default) for option in self.options}


def check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; choose from {', '.join(LEVELS)}")
