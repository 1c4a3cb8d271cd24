"""The public positions of a finished game, one per move, for an animated replay.

Each frame is a public view (``view(None)``: no hand, no future card) and a caption
naming the move. Barbu shows one frame per completed trick (the four cards on the
table), one per round of Domino, and a summary after every deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import GAMES
from games.base import GameState
from games.proof import GameFacts, Step, walk


@dataclass(frozen=True)
class Frame:
    view: Mapping[str, Any]
    caption: str


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
        return "Table"
    return facts.seats[seat]


def _move_frames(facts: GameFacts, played: Sequence[Step]) -> list[Frame]:
    frames = [Frame(_start(facts, played).view(None), "Start")]
    for step in played:
        if step.is_table_event:
            text = f"{_name(facts, step.seat)} {step.action.removeprefix('!')}s"
        else:
            text = f"{_name(facts, step.seat)}: {step.action}"
        frames.append(Frame(step.after.view(None), f"{step.number}. {text}"))
    return frames


def _barbu_frames(facts: GameFacts, played: Sequence[Step]) -> list[Frame]:
    frames = [Frame(_start(facts, played).view(None), "Start")]
    laid: list[str] = []
    for step in played:
        before, after = step.before.view(None), step.after.view(None)
        if step.is_table_event:
            frames.append(Frame(after, f"{_name(facts, step.seat)} {step.action[1:]}s"))
            continue
        if before["phase"] != "play":
            continue
        laid.append(f"{_name(facts, step.seat)} {step.action}")
        deal_over = len(after["history"]) > len(before["history"])
        if before["contract"] == "domino":
            if len(laid) == len(facts.seats) or deal_over:
                frames.append(Frame(after, "Domino: " + ", ".join(laid)))
                laid = []
        elif len(before["trick"]) == len(facts.seats) - 1:
            frames.append(_trick_frame(before, step, laid))
            laid = []
        if deal_over:
            frames.append(Frame(after, _deal_summary(facts, after)))
    return frames


def _trick_frame(before: Mapping[str, Any], step: Step, laid: list[str]) -> Frame:
    """The table with all four cards of the trick still on it."""
    view = dict(before)
    view["trick"] = [*before["trick"], {"seat": step.seat, "card": step.action}]
    view["hand_sizes"] = [
        size - (seat == step.seat) for seat, size in enumerate(before["hand_sizes"])
    ]
    number = len(before["tricks"]) + 1
    return Frame(view, f"Trick {number}: " + ", ".join(laid))


def _deal_summary(facts: GameFacts, view: Mapping[str, Any]) -> str:
    deal = view["history"][-1]
    scores = ", ".join(
        f"{_name(facts, seat)} {score:+d}" for seat, score in enumerate(deal["scores"])
    )
    declarer = _name(facts, deal["declarer"])
    return f"Deal {len(view['history'])} ({deal['contract']}, {declarer}): {scores}"
