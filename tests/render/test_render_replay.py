"""Animated replays: one frame per move (per trick and deal in Barbu), the move written
on it, and always under the upload limit."""

from __future__ import annotations

import io
import random

import pytest
from german import english_in
from PIL import Image

import render.bann
import render.gulbara
import render.replay
from games import GAMES
from games.proof import GameFacts
from games.replays import replay_frames
from render.replay import ReplayTooLarge, render_replay
from texts.replays import caption

PLAYERS = {"bann": 2, "gulbara": 2, "barree": 2, "barbu": 4, "nim": 2}


def game(kind: str, moves: int | None = None) -> tuple[GameFacts, list]:
    chooser = random.Random(3)
    options = {"series": 1} if kind == "barbu" else {}
    facts = GameFacts(kind, 9, 1, 1, 808, options, [f"P{n}" for n in range(PLAYERS[kind])])
    state = GAMES[kind].new_game(players=PLAYERS[kind], seed=808, **options)
    actions = []
    while not state.is_over and (moves is None or len(actions) < moves):
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    return facts, actions


def animation(data: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(data))
    assert picture.format in ("GIF", "WEBP") and picture.is_animated
    return picture


@pytest.mark.parametrize("game_key", ["bann", "gulbara", "barree", "nim"], indirect=True)
def test_one_frame_per_move_with_the_move_written_on_it(game_key):
    kind = game_key
    facts, actions = game(kind, moves=12)
    frames = replay_frames(facts, actions)
    assert len(frames) == len(actions) + 1, "the start, then one frame per move"
    assert frames[0].caption == "Beginning"
    for number, (frame, (seat, action)) in enumerate(zip(frames[1:], actions, strict=True), 1):
        assert caption("en", frame) == f"{number}. P{seat}: {action}"
    movie = render_replay(kind, [(f.view, caption("en", f)) for f in frames], facts.seats, 10 << 20)
    assert animation(movie.data).n_frames == len(frames) == movie.frames


def test_barbu_shows_each_trick_with_its_four_cards_and_a_summary_per_deal():
    facts, actions = game("barbu")
    frames = replay_frames(facts, actions)
    summaries = [frame for frame in frames if caption("en", frame).startswith("Deal ")]
    assert len(summaries) == 7, "one summary per deal of a seven-deal series"
    tricks = [frame for frame in frames if caption("en", frame).startswith("Trick ")]
    assert tricks and all(len(frame.view["trick"]) == 4 for frame in tricks)
    assert all(len(set(frame.view["hand_sizes"])) == 1 for frame in tricks), (
        "with the trick complete, everyone holds as many cards"
    )
    assert all(frame.view["hand"] is None or frame.view["hand"] == [] for frame in frames), (
        "public views only: no hand is ever drawn"
    )


def test_a_small_upload_limit_drops_frames_then_shrinks_but_fits():
    facts, actions = game("gulbara", moves=24)
    frames = [(f.view, caption("en", f)) for f in replay_frames(facts, actions)]
    full = render_replay("gulbara", frames, facts.seats, 10 << 20)
    limit = len(full.data) // 5
    small = render_replay("gulbara", frames, facts.seats, limit)
    assert len(small.data) <= limit
    assert small.frames < full.frames or small.width < full.width
    picture = animation(small.data)
    picture.seek(picture.n_frames - 1)
    assert picture.n_frames == small.frames, "the final position is always the last frame"
    with pytest.raises(ReplayTooLarge):
        render_replay("gulbara", frames[:4], facts.seats, 2000)


def test_a_very_long_game_draws_a_bounded_number_of_evenly_spread_frames(monkeypatch):
    """A 25-point Gul Bara match runs to thousands of positions: drawing them all took
    minutes and more memory than the machine has (about 3 MB a frame)."""
    facts, actions = game("gulbara", moves=40)
    frames = [(f.view, caption("en", f)) for f in replay_frames(facts, actions)]
    monkeypatch.setattr(render.replay, "MAX_FRAMES", 9)
    drawing = render.gulbara.REPLAY_PICTURE
    captions: list[str] = []

    def counted(view, names, shown, language):
        captions.append(shown)
        return drawing(view, names, shown, language)

    monkeypatch.setattr(render.gulbara, "REPLAY_PICTURE", counted)
    movie = render_replay("gulbara", frames, facts.seats, 10 << 20)
    assert (movie.frames, movie.moves, movie.fitted) == (9, len(frames), False)
    assert animation(movie.data).n_frames == 9
    assert len(captions) == 9, "each shown position is drawn once, no other"
    assert captions[0] == "Beginning" and f"{len(actions)}. " in captions[-1]


def test_captions_leave_out_what_the_font_cannot_draw(monkeypatch):
    """Names in captions come straight from Discord: emoji would be drawn as boxes."""
    facts, actions = game("bann", moves=2)
    frames = [(f.view, caption("en", f)) for f in replay_frames(facts, actions)]
    frames[-1] = (frames[-1][0], "2. Zoë 😀🎲 ★: 5>6:N")
    drawing = render.bann.REPLAY_PICTURE
    captions: list[str] = []

    def seen(view, names, shown, language):
        captions.append(shown)
        return drawing(view, names, shown, language)

    monkeypatch.setattr(render.bann, "REPLAY_PICTURE", seen)
    render_replay("bann", frames, ["Zoë 😀🎲 ★", "Bob"], 10 << 20)
    assert captions[-1] == "2. Zoë : 5>6:N"


def test_a_barbu_replay_speaks_the_viewers_language():
    facts, actions = game("barbu")
    frames = replay_frames(facts, actions)
    german = [caption("de", frame) for frame in frames]
    assert german[0] == "Beginn"
    assert any(text.startswith("Stich 1: ") for text in german)
    summaries = [text for text in german if text.startswith("Spiel ")]
    assert len(summaries) == 7, "one summary per deal"
    assert any("Keine" in text or "Trumpf (" in text for text in summaries), "contracts named"
    assert [text for text in german if english_in(text)] == []
    shown = [(frame.view, caption("de", frame)) for frame in frames[:3]]
    in_german = render_replay("barbu", shown, facts.seats, 10 << 20, "de")
    in_english = render_replay("barbu", shown, facts.seats, 10 << 20, "en")
    assert in_german.data != in_english.data, "the pictures' words follow the language"
