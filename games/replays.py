"""The public positions of a finished game, one per move, for an animated replay.

Each frame is a public view (``view(None)``: no hand, no future card) and a caption
naming the move: a catalogue id and its parameters (names, numbers, notation), put into
words in the viewer's language by ``texts.replays``. Barbu shows one frame per completed
trick (the four cards on the table), one per round of Domino, and a summary after every
deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import GAMES
from games.base import N_, GameState
from games.proof import GameFacts, Step, walk

START = N_("Beginning")
MOVE = N_("{number}. {name}: {move}")
EVENTS = {"resign": N_("{name} resigns"), "abandon": N_("The game is abandoned")}
NUMBERED_EVENTS = {
    "resign": N_("{number}. {name} resigns"),
    "abandon": N_("{number}. The game is abandoned"),
}


@dataclass(frozen=True)
class Frame:
    view: Mapping[str, Any]
    caption: str
    """A catalogue id: English with ``{placeholders}`` filled from ``params``."""
    params: Mapping[str, object] = field(default_factory=dict)


def replay_frames(facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> list[Frame]:
    """Every public position worth a frame, from the start to the end."""
    steps = walk(facts, actions)
    next(steps)
    played = [step for step in steps if isinstance(step, Step)]
    if facts.kind == "barbu":
        return _barbu_frames(facts, played)
    return _move_frames(facts, played)


def _start(facts: GameFacts, played: Sequence[Step]) -> GameState:
    if played:
        return played[0].before
    return GAMES[facts.kind].new_game(players=len(facts.seats), seed=facts.seed, **facts.options)


def _name(facts: GameFacts, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(facts.seats):
        return "?"
    return facts.seats[seat]


def _event_frame(facts: GameFacts, step: Step, number: int | None = None) -> Frame:
    """A table event (``!resign``) as its sentence, after the move number if given."""
    event = step.action.removeprefix("!")
    params: dict[str, object] = {"name": _name(facts, step.seat), "move": event}
    if number is None:
        return Frame(step.after.view(None), EVENTS.get(event, N_("{name}: {move}")), params)
    params["number"] = number
    message = NUMBERED_EVENTS.get(event, MOVE)
    return Frame(step.after.view(None), message, params)


def _move_frames(facts: GameFacts, played: Sequence[Step]) -> list[Frame]:
    frames = [Frame(_start(facts, played).view(None), START)]
    for step in played:
        if step.is_table_event:
            frames.append(_event_frame(facts, step, step.number))
            continue
        params = {"number": step.number, "name": _name(facts, step.seat), "move": step.action}
        frames.append(Frame(step.after.view(None), MOVE, params))
    return frames


def _barbu_frames(facts: GameFacts, played: Sequence[Step]) -> list[Frame]:
    frames = [Frame(_start(facts, played).view(None), START)]
    laid: list[str] = []
    for step in played:
        before, after = step.before.view(None), step.after.view(None)
        if step.is_table_event:
            frames.append(_event_frame(facts, step))
            continue
        if before["phase"] != "play":
            continue
        laid.append(f"{_name(facts, step.seat)} {step.action}")
        deal_over = len(after["history"]) > len(before["history"])
        if before["contract"] == "domino":
            if len(laid) == len(facts.seats) or deal_over:
                frames.append(Frame(after, N_("Domino: {cards}"), {"cards": ", ".join(laid)}))
                laid = []
        elif len(before["trick"]) == len(facts.seats) - 1:
            frames.append(_trick_frame(before, step, laid))
            laid = []
        if deal_over:
            frames.append(_deal_summary(facts, after))
    return frames


def _trick_frame(before: Mapping[str, Any], step: Step, laid: list[str]) -> Frame:
    """The table with all four cards of the trick still on it."""
    view = dict(before)
    view["trick"] = [*before["trick"], {"seat": step.seat, "card": step.action}]
    view["hand_sizes"] = [
        size - (seat == step.seat) for seat, size in enumerate(before["hand_sizes"])
    ]
    number = len(before["tricks"]) + 1
    return Frame(view, N_("Trick {number}: {cards}"), {"number": number, "cards": ", ".join(laid)})


def _deal_summary(facts: GameFacts, view: Mapping[str, Any]) -> Frame:
    """The deal's scores; ``contract`` is the contract action (``trumps:H``), for the
    caption's language to name."""
    deal = view["history"][-1]
    scores = ", ".join(
        f"{_name(facts, seat)} {score:+d}" for seat, score in enumerate(deal["scores"])
    )
    params = {
        "number": len(view["history"]),
        "contract": deal["contract"],
        "declarer": _name(facts, deal["declarer"]),
        "scores": scores,
    }
    return Frame(view, N_("Deal {number} ({contract}, {declarer}): {scores}"), params)
