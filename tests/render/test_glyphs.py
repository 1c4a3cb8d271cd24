"""Every character a picture draws exists in the font that draws it.

The pictures are drawn with Noto Sans, which has no arrows, circled digits, emoji or most
other symbols: a character it lacks comes out as an empty box (the issue's "escalated
2-2 □ 3-3"). Three checks, in every language the bot speaks:

- every string drawn while the corpus below is rendered: every position of random games
  of each game with its options, hands, score sheets, replay frames with their captions,
  every headline a board can carry, the league and luck pictures;
- every sentence of the catalogues a picture can show, in English and in its
  translations: each one looked up while the corpus is drawn (the catalogue is traced),
  so a sentence seen in one language is checked in the others too, and each one written
  in a renderer (``render/``), whether the corpus reaches it or not;
- every symbol written in a renderer's code.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from tournament_views import bracket_views, round_views, standings_views

import render.bann
import render.barbu
import render.barree
import render.gulbara
import render.league
import render.luck
import render.replay
import render.tournament
import texts.i18n
from games import GAMES, GameState
from games.gulbara import from_code
from games.luck import DiceLuck
from games.proof import GameFacts
from games.replays import replay_frames
from render.toolkit import text as toolkit_text
from render.toolkit.text import FONT_FILE, MISSING_GLYPH_PROBE, has_glyph
from texts import table as table_text
from texts.i18n import catalogue_path, languages, t
from texts.replays import caption

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Alice", "Bob", "Carol", "Dave"]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
SEEDS = (3, 11)
"""Seeds of the random games drawn: every position of each."""
REPLAY_FRAMES = 12
"""Frames drawn from each replay (its first and its last ones): the captions repeat."""


@dataclass
class Seen:
    """What the corpus drew: (string, font file) pairs and the catalogue ids looked up,
    each id as (context, singular, plural) with None where there is none."""

    drawn: set[tuple[str, str]] = field(default_factory=set)
    looked_up: set[tuple[str | None, str, str | None]] = field(default_factory=set)


class TracingTranslations:
    """Stands in for a language's translations: notes each id looked up, then answers
    as the real ones do (English has none: the ids are the English sentences)."""

    def __init__(self, real: Any, seen: Seen) -> None:
        self.real = real
        self.seen = seen

    def gettext(self, message: str) -> str:
        self.seen.looked_up.add((None, message, None))
        return message if self.real is None else str(self.real.gettext(message))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        self.seen.looked_up.add((None, singular, plural))
        if self.real is None:
            return singular if count == 1 else plural
        return str(self.real.ngettext(singular, plural, count))

    def pgettext(self, context: str, message: str) -> str:
        self.seen.looked_up.add((context, message, None))
        return message if self.real is None else str(self.real.pgettext(context, message))


@contextmanager
def tracing(seen: Seen, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_translations = texts.i18n._translations
    real_record = toolkit_text._record

    def translations(language: str) -> TracingTranslations:
        return TracingTranslations(real_translations(language), seen)

    def record(text: str, text_font: Any) -> None:
        seen.drawn.add((text, str(text_font.path)))
        real_record(text, text_font)

    with monkeypatch.context() as patched:
        patched.setattr(texts.i18n, "_translations", translations)
        patched.setattr(toolkit_text, "_record", record)
        yield


# --- the corpus -----------------------------------------------------------------------


def random_game(kind: str, seed: int, **options: Any) -> list[GameState]:
    """Every position of a game played at random to its end."""
    state = GAMES[kind].new_game(seed=seed, **options)
    chooser = random.Random(seed)
    positions = [state]
    while not state.is_over:
        state = state.apply(chooser.choice(state.legal_actions()))
        positions.append(state)
    return positions


def escalated_double() -> GameState:
    """Seat 0 plays 1-1 out of its grace period: the chain climbs, and the next board
    shows the escalated turn in its footer."""
    state = from_code("GB1:,,,,,,,,,,,-14,,-1,,,,,,,,,,15|0,0|0|1,1,1,1|5,5")
    while state.current_player == 0:
        state = state.apply(state.legal_actions()[0])
    return state


def draw_bann(language: str) -> None:
    for seed in SEEDS:
        for state in random_game("bann", seed):
            render.bann.draw_bann(state.view(None), NAMES[:2], None, language)


def draw_gulbara(language: str) -> None:
    positions = [*random_game("gulbara", SEEDS[0], match_to=2), escalated_double()]
    for number, state in enumerate(positions):
        viewer = number % 2
        render.gulbara.draw_gulbara(state.view(None), NAMES[:2], None, viewer, language)


def draw_barbu(language: str) -> None:
    for number, state in enumerate(random_game("barbu", SEEDS[0], series=1, discard_king=True)):
        view = state.view(None)
        render.barbu.draw_barbu_table(view, NAMES, None, language)
        if state.current_player is not None and number % 4 == 0:
            render.barbu.render_barbu_hand(state.view(state.current_player), NAMES, language)
        if state.is_over or view["phase"] == "contract":
            render.barbu.render_barbu_scores(view, NAMES, language)


def draw_barree(language: str) -> None:
    for players, rounds in ((2, 1), (4, 2)):
        for state in random_game("barree", SEEDS[0] + players, players=players, rounds=rounds):
            render.barree.draw_barree(state.view(None), NAMES[:players], None, language)
    state = random_game("barree", SEEDS[1], players=2)[20]
    render.barree.render_barree_targets(state.view(None), NAMES[:2], list(range(1, 20)))


def draw_replays(language: str) -> None:
    for kind, players, options in (
        ("bann", 2, {}),
        ("gulbara", 2, {}),
        ("barbu", 4, {"series": 1}),
        ("barree", 3, {"rounds": 2}),
    ):
        seats = NAMES[:players]
        facts = GameFacts(kind, 9, 1, 1, 808, options, seats)
        state = GAMES[kind].new_game(players=players, seed=808, **options)
        chooser, actions = random.Random(808), []
        while not state.is_over:
            action = chooser.choice(state.legal_actions())
            actions.append((state.current_player, action))
            state = state.apply(action)
        frames = replay_frames(facts, actions)
        shown = [*frames[: REPLAY_FRAMES // 2], *frames[-REPLAY_FRAMES // 2 :]]
        drawer = render.replay.replay_picture(kind)
        for frame in shown:
            drawer(frame.view, seats, caption(language, frame), language)


def headlines(language: str, players: int) -> list[str]:
    """Every headline a board can carry in place of its status line."""
    names = NAMES[:players]
    return [
        *(table_text.resign_headline(language, names, seat) for seat in range(players)),
        table_text.time_loss_headline(language, names[0], names[1]),
        table_text.abandoned_headline(language),
        table_text.abandoned_by_headline(language, names[1]),
        *(
            table_text.ended_unrated_headline(language, reason)
            for reason in table_text.UNRATED_ENDINGS
        ),
        table_text.unrated_after_deal_headline(language),
    ]


def draw_headlines(language: str) -> None:
    for kind, players, options in (
        ("bann", 2, {}),
        ("gulbara", 2, {}),
        ("barbu", 4, {"series": 1}),
        ("barree", 4, {}),
    ):
        state = random_game(kind, SEEDS[0], **({"players": players} | options))[-1]
        drawer = render.replay.replay_picture(kind)
        for headline in headlines(language, players):
            drawer(state.view(None), NAMES[:players], headline, language)


def draw_league(language: str) -> None:
    rows = [
        {"rank": rank, "name": NAMES[rank % 4], "rating": 1200 - 9 * rank, "games": rank,
         "win_rate": 0.5, "trend": (-1) ** rank * rank or None}
        for rank in range(1, 12)
    ]  # fmt: skip
    for title in ("Bann", "Gul Bara", "Barbu", "Barree"):
        standings = {"title": title, "season": "Season 1", "page": 1, "pages": 2, "rows": rows}
        render.league.render_standings(standings, language)
        render.league.render_standings({**standings, "rows": []}, language)
    recent = [
        {"outcome": outcome, "change": change}
        for outcome, change in (("win", 12), ("loss", -9), ("draw", None), ("win", 0))
    ]
    entry = {
        "rating": 1136, "rank": 3, "games": 41, "wins": 30, "losses": 10, "draws": 1,
        "points": 30.5, "streak": -2, "recent": recent,
    }  # fmt: skip
    unrated = {**entry, "rating": None, "rank": None, "recent": []}
    games = [{**entry, "title": "Bann"}, {**unrated, "title": "Barbu"}]
    render.league.render_profile({"name": NAMES[0], "season": "Season 1", "games": games}, language)


def draw_luck(language: str) -> None:
    panels = []
    dice_games = (("Gul Bara", [[6, 6], [1, 2], [3, 4]], 1), ("Barree", [[0], [5]], 0))
    for title, throws, lowest in dice_games:
        luck = DiceLuck(games=2)
        for throw in throws:
            luck.add_throw(throw, lowest)
        panels.append(
            {
                "title": title,
                "rolls": luck.rolls,
                "dice": luck.dice,
                "games": luck.games,
                "faces": [
                    [face, t(language, "bar") if face == 0 else "", count]
                    for face, count in sorted(luck.faces.items())
                ],
                "expected": luck.expected_per_face,
                "pairs": luck.pair_rolls,
                "doubles": luck.doubles,
                "expected_doubles": luck.expected_doubles,
            }
        )
    render.luck.render_luck({"name": NAMES[0], "season": "Season 1", "games": panels}, language)


def draw_tournament(language: str) -> None:
    for view in standings_views():
        render.tournament.render_standings(view, language)
    for view in bracket_views():
        render.tournament.render_bracket(view, language)
    for view in round_views():
        render.tournament.render_round(view, language)


CORPUS: Sequence[Callable[[str], None]] = (
    draw_bann,
    draw_gulbara,
    draw_barbu,
    draw_barree,
    draw_replays,
    draw_headlines,
    draw_league,
    draw_luck,
    draw_tournament,
)


@pytest.fixture(scope="module")
def seen() -> Iterator[Seen]:
    found = Seen()
    with pytest.MonkeyPatch.context() as monkeypatch, tracing(found, monkeypatch):
        for language in languages():
            for picture in CORPUS:
                picture(language)
    yield found


# --- the checks -----------------------------------------------------------------------


def missing(text: str, font_file: str = str(FONT_FILE)) -> list[str]:
    """The characters of ``text`` (placeholders aside) the font cannot draw."""
    assert font_file == str(FONT_FILE), "every picture draws with the toolkit's Noto Sans"
    shown = PLACEHOLDER.sub("", text)
    return sorted({char for char in shown if not char.isspace() and not has_glyph(char)})


def catalogue(language: str) -> Catalog:
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language)


def forms(entry_id: tuple[str | None, str, str | None], language: str) -> list[str]:
    """Every text of a catalogue entry in ``language``: the English forms, or the
    translated ones."""
    context, singular, plural = entry_id
    english = [singular] if plural is None else [singular, plural]
    if language == "en":
        return english
    entry = catalogue(language).get(singular if plural is None else (singular, plural), context)
    assert entry is not None, f"{singular!r} is missing from the {language} catalogue"
    strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    return list(strings)


def renderer_sentences() -> list[tuple[str | None, str, str | None]]:
    """The catalogue's sentences that a renderer (``render/``) writes itself."""
    found = []
    for entry in catalogue(languages()[-1]):
        if not entry.id or not any(path.startswith("render/") for path, _ in entry.locations):
            continue
        if isinstance(entry.id, tuple):
            found.append((entry.context, entry.id[0], entry.id[1]))
        else:
            found.append((entry.context, entry.id, None))
    return found


def test_the_corpus_draws_every_picture_in_every_language(seen: Seen) -> None:
    texts_drawn = {text for text, _ in seen.drawn}
    assert len(languages()) >= 2
    for expected in ("Last turn:", "Trick", "Round", "standings", "Dice luck"):
        assert any(expected in text for text in texts_drawn), expected
    assert any("Letzter Zug" in text for text in texts_drawn), "German pictures are drawn too"
    assert any(len(turn["stages"]) > 1 for turn in escalated_double().view(None)["recent_turns"])


def test_every_string_a_picture_draws_has_its_glyphs(seen: Seen) -> None:
    boxes = {
        text: missing(text, font_file) for text, font_file in seen.drawn if missing(text, font_file)
    }
    assert boxes == {}, "drawn as empty boxes"


@pytest.mark.parametrize("language", languages())
def test_every_sentence_a_picture_shows_has_its_glyphs_in_every_language(
    seen: Seen, language: str
) -> None:
    sentences = seen.looked_up | set(renderer_sentences())
    assert len(sentences) > 100
    boxes = {
        text: missing(text)
        for entry_id in sorted(sentences, key=str)
        for text in forms(entry_id, language)
        if missing(text)
    }
    assert boxes == {}, f"{language}: sentences a picture shows with characters Noto Sans lacks"


def symbols_in(path: Path) -> Iterator[str]:
    """The string constants of a module, its docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
            and node.value != MISSING_GLYPH_PROBE
        ):
            yield node.value


def test_every_symbol_in_a_renderers_code_has_its_glyph() -> None:
    boxes = {
        f"{path.relative_to(ROOT)}: {text!r}": missing(text)
        for path in sorted((ROOT / "render").rglob("*.py"))
        for text in symbols_in(path)
        if missing(text)
    }
    assert boxes == {}


def test_the_check_sees_a_missing_glyph() -> None:
    assert missing("escalated 2-2 → 3-3") == ["→"]
    assert missing("banned ① + tip") == ["①"]
    assert missing("Würfel · −3 … „Größe“") == []
