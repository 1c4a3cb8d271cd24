"""Barbu's replay (``barbu.SPEC.replay_frames``): one frame per completed trick (the four
cards on the table), one per round of Domino, and a summary after every deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import N_, START, Frame, GameState, Step, event_frame, seat_name


def barbu_frames(seats: Sequence[str], start: GameState, played: Sequence[Step]) -> list[Frame]:
    frames = [Frame(start.view(None), START)]
    laid: list[str] = []
    for step in played:
        before, after = step.before.view(None), step.after.view(None)
        if step.is_table_event:
            frames.append(event_frame(seats, step))
            continue
        if before["phase"] != "play":
            continue
        laid.append(f"{seat_name(seats, step.seat)} {step.action}")
        deal_over = len(after["history"]) > len(before["history"])
        if before["contract"] == "domino":
            if len(laid) == len(seats) or deal_over:
                frames.append(Frame(after, N_("Domino: {cards}"), {"cards": ", ".join(laid)}))
                laid = []
        elif len(before["trick"]) == len(seats) - 1:
            frames.append(_trick_frame(before, step, laid))
            laid = []
        if deal_over:
            frames.append(_deal_summary(seats, after))
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


def _deal_summary(seats: Sequence[str], view: Mapping[str, Any]) -> Frame:
    """The deal's scores; ``contract`` is the contract action (``trumps:H``), for the
    caption's language to name."""
    deal = view["history"][-1]
    scores = ", ".join(
        f"{seat_name(seats, seat)} {score:+d}" for seat, score in enumerate(deal["scores"])
    )
    params = {
        "number": len(view["history"]),
        "contract": deal["contract"],
        "declarer": seat_name(seats, deal["declarer"]),
        "scores": scores,
    }
    return Frame(view, N_("Deal {number} ({contract}, {declarer}): {scores}"), params)
