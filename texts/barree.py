"""Barree's sentences: rules, what the table waits for, rounds and the result."""

from __future__ import annotations

from collections.abc import Sequence

from games.barree import BAR, KEEP, BarreeEvent, BarreeState, BarreeView, format_walk, row_of
from games.barree.hints import BarreeHint
from texts.common import reasons
from texts.i18n import N_, t, tn

RULES = N_(
    """\
**How to play**
1. Roll the die: the bar moves the blockade; 1–5 is a walk of exactly that many steps.
2. Every field you pass or reach whose card you hold is discarded.
3. End your walk on another player's piece and you may send it away with one of your cards.
4. Nobody enters or crosses the blockaded row.
5. Discard all your cards first to win the round; cards left over are minus points.
**Words.** *Field*: one of the 48 numbered places on the board, each with its card. \
*Blockade*: the row nobody may enter. *Bar*: the die's face without a number, which moves \
the blockade. *Send*: put another player's piece on the field of a card you play.
**Goal.** Get rid of your cards: every card held when the round ends is a minus point.
**Board.** 48 fields, 8 number rows of 6: field 34 is row 3, place 4. Lines join the \
neighbours in a row and the fields above and below; four diagonals (21–32, 34–45, \
56–65, 76–85) break the grid's pattern.
**Cards.** One card per field. You hold 7 face-up cards (everyone sees them) and 2 hidden \
ones nobody sees, not even you. Once anyone is down to 2 or fewer of the 7, all hidden \
cards are turned up and count like the others.
**Your turn.** Roll the die (faces: the bar and 1–5). The **bar** moves the blockade to \
the row of a freshly drawn card and ends your turn. **1–5:** walk exactly that many steps \
along the lines; back and forth is allowed. Every field you pass or reach whose card you \
hold is discarded.
**Blockade.** Nobody enters or crosses the blockaded row; a piece standing in it waits for \
a bar.
**Driving out.** End on an opponent and you may play one of your cards to send him to its \
field (not in the blockaded row, not onto a piece), or keep him there.
**End.** The first to discard every card wins the round; the others finish the turn round \
up to the starter. Fewest minus points over the match wins.
**`/barree move`.** `roll`; a walk listing every field from the start, e.g. `34-35-45`; \
`send:<player>:<field>` with the player number the board shows, e.g. `send:2:63`; `keep`.\
"""
)

SEND_NOTATION = N_(
    "Write a sending as send:<player>:<field> with the player number the board shows, "
    "e.g. send:2:63."
)

ROLLED_PICK_FIELD = N_(
    "You rolled **{die}** on field {start}. Pick the number of the field to end on (1 "
    "discards the most cards)."
)

# What happened in an action, one sentence per event (``BarreeState.events``).
ROLLS_BAR = N_("{name} rolls the bar.")
ROLLS = N_("{name} rolls {die}.")
BLOCKADE_MOVES = N_("Card {card}: the blockade moves to row {row}.")
TRAPPED = N_("{name} is trapped in the blockade until a bar; the turn passes.")
WALKS = N_("{name} walks {path}.")
WALKS_DISCARDING = N_("{name} walks {path}, discarding {cards}.")
KEEPS = N_("{name} leaves the piece there.")
SENDS = N_("{name} sends {target} to {field}.")
REVEAL = N_("{name} has two or fewer face-up cards left: everyone reveals the hidden cards.")
FINISHED_FIRST = N_("{name} has discarded every card and wins the round!")
FINISHED_TOO = N_("{name} has discarded every card too.")
ROUND_ENDS = N_("Round {number} is over. Minus points: {points}.")
MATCH_ENDS = N_("The match is over. Total minus points: {points}.")
GAME_ENDS = N_("The game is over. Minus points: {points}.")
ROUND_STARTS = N_(
    "Round {number}: {starter} rolled highest and starts; the blockade stands on row {row}."
)
RESHUFFLED = N_("The discard pile is shuffled into a new draw pile.")

YOU_WALKED = N_("✅ You walked {path}.")
YOU_WALKED_DISCARDING = N_("✅ You walked {path} and discarded {cards}.")
YOU_SENT = N_("✅ You played card {field} and sent {name} to {field}.")
YOU_KEPT = N_("✅ You left the piece there.")
YOU_ROLLED = N_("✅ You rolled {die}: choose a walk.")
YOU_ROLLED_BAR = N_("✅ You rolled the bar: the blockade moves to row {row}.")
YOU_ROLLED_TRAPPED = N_(
    "✅ You rolled {die}, but your piece is trapped in the blockade: only a bar frees it. "
    "The turn passes."
)

ROUND = N_("Round {number} of {rounds} · {status}")
ROLLED = N_("{name} rolled {die}: choose a walk")
LANDED = N_("{name} landed on {targets}: send away or keep")
TO_ROLL = N_("{name} to roll")
TO_ROLL_TRAPPED = N_("{name} to roll · trapped")
TRAPPED_HINT = N_("{name} is trapped in the blockade: only a bar frees the piece.")
LAST_TURNS = N_("{status} · {finisher} is out, last turns")
WINS = N_("{winner} wins with {points}")
SHARED_WIN = N_("{winners} share the win with {points}")
NOT_PLAYED_OUT = N_("The match ended before its last round was played.")
ROUND_MINUS = N_("Round {number}: {points}")
ALL_MINUS = N_("Minus points: {points}.")
ROUND_OVER = N_(
    "📋 Barree game #{table}: round {number} of {rounds} is over. "
    "Minus points this round: {points}. Totals so far: {totals}."
)


def confirmation(language: str, state: BarreeState, action: str, names: Sequence[str]) -> str:
    """The private note for the legal walk, sending or keep ``action`` of the seat to act."""
    if action == KEEP:
        return t(language, YOU_KEPT)
    if action.startswith("send:"):
        _, seat, field = action.split(":")
        return t(language, YOU_SENT, field=field, name=names[int(seat)])
    walk = state.apply(action).last_walk
    assert walk is not None, "a walk is recorded as it is played"
    path = format_walk(walk["path"])
    if walk["discarded"]:
        cards = ", ".join(str(card) for card in walk["discarded"])
        return t(language, YOU_WALKED_DISCARDING, path=path, cards=cards)
    return t(language, YOU_WALKED, path=path)


def roll_confirmation(language: str, view: BarreeView) -> str:
    """The private note for a roll, from the view right after it."""
    kinds = {event["type"]: event for event in view["events"]}
    if "bar" in kinds:
        return t(language, YOU_ROLLED_BAR, row=kinds["bar"]["row"])
    if "trapped" in kinds:
        return t(language, YOU_ROLLED_TRAPPED, die=kinds["trapped"]["die"])
    return t(language, YOU_ROLLED, die=kinds["roll"]["die"])


def minus_points(language: str, count: int) -> str:
    return tn(language, "{count} minus point", "{count} minus points", count)


def fields_left_out(language: str, count: int) -> str:
    """The note under the walk menu when more end fields exist than it has buttons."""
    return tn(
        language,
        "{count} weaker end field is not numbered; type a walk there with `/barree move` if "
        "you really want it.",
        "{count} weaker end fields are not numbered; type a walk there with `/barree move` if "
        "you really want it.",
        count,
    )


def both(language: str, names: Sequence[str]) -> str:
    """Names joined as a sentence joins them: "Alice and Bob"."""
    text = names[0]
    for name in names[1:]:
        text = t(language, "{first} and {second}", first=text, second=name)
    return text


def points_list(points: Sequence[int], names: Sequence[str]) -> str:
    """ "Alice 3, Bob 0": each seat's points after its name."""
    return ", ".join(f"{names[seat]} {value}" for seat, value in enumerate(points))


def status(language: str, view: BarreeView, names: Sequence[str]) -> str:
    """What the table waits for, e.g. "Round 2 of 3 · Alice rolled 4: choose a walk"."""
    if view["phase"] == "over" or view["current"] is None:
        text = result(language, view, names)
    else:
        text = _turn_status(language, view, names, view["current"])
    if view["rounds"] > 1:
        return t(language, ROUND, number=view["round"], rounds=view["rounds"], status=text)
    return text


def _turn_status(language: str, view: BarreeView, names: Sequence[str], seat: int) -> str:
    name = names[seat]
    if view["phase"] == "move":
        text = t(language, ROLLED, name=name, die=view["die"])
    elif view["phase"] == "drive":
        targets = both(language, [names[target] for target in view["drive_targets"]])
        text = t(language, LANDED, name=name, targets=targets)
    elif is_trapped(view, seat):
        text = t(language, TO_ROLL_TRAPPED, name=name)
    else:
        text = t(language, TO_ROLL, name=name)
    if view["finisher"] is not None:
        return t(language, LAST_TURNS, status=text, finisher=names[view["finisher"]])
    return text


def is_trapped(view: BarreeView, seat: int) -> bool:
    """Whether ``seat``'s piece stands in the blockaded row, where it cannot walk."""
    return row_of(view["pieces"][seat]) == view["blockade"]


def trapped_hint(language: str, view: BarreeView, names: Sequence[str]) -> str | None:
    """The line that explains a trapped piece to the player about to roll, or None."""
    seat = view["current"]
    if view["phase"] != "roll" or seat is None or not is_trapped(view, seat):
        return None
    return t(language, TRAPPED_HINT, name=names[seat])


def result(language: str, view: BarreeView, names: Sequence[str]) -> str:
    """The sentence for a finished match, e.g. "Alice wins with 0 minus points"."""
    minus = view["minus"]
    best = min(minus)
    winners = [names[seat] for seat, points in enumerate(minus) if points == best]
    points = minus_points(language, best)
    if len(winners) == 1:
        return t(language, WINS, winner=winners[0], points=points)
    return t(language, SHARED_WIN, winners=both(language, winners), points=points)


def narrate(language: str, events: Sequence[BarreeEvent], names: Sequence[str]) -> list[str]:
    """Sentences for the events of the last action (``view["events"]``). A game of one
    round ends in one sentence: the end of its first round is the end of the game."""
    kinds = {(event["type"], event.get("round")) for event in events}
    one_round = ("round_over", 1) in kinds and ("match_over", None) in kinds
    return [
        sentence
        for event in events
        if not (one_round and event["type"] == "round_over")
        and (sentence := event_sentence(language, event, names, one_round=one_round))
    ]


def event_sentence(
    language: str, event: BarreeEvent, names: Sequence[str], *, one_round: bool = False
) -> str | None:
    """One event's sentence; the match's end is the game's in a game of ``one_round``."""
    kind = event["type"]
    name = names[event["seat"]] if "seat" in event else ""
    if kind == "roll":
        sentence = ROLLS_BAR if event["die"] == BAR else ROLLS
        return t(language, sentence, name=name, die=event["die"])
    if kind == "walk":
        path = format_walk(event["path"])
        if event["discarded"]:
            cards = ", ".join(str(card) for card in event["discarded"])
            return t(language, WALKS_DISCARDING, name=name, path=path, cards=cards)
        return t(language, WALKS, name=name, path=path)
    if kind == "send":
        target = names[event["target"]]
        return t(language, SENDS, name=name, target=target, field=event["field"])
    if kind == "finished":
        return t(language, FINISHED_FIRST if event["first"] else FINISHED_TOO, name=name)
    if kind in ("round_over", "match_over"):
        sentence = ROUND_ENDS if kind == "round_over" else GAME_ENDS if one_round else MATCH_ENDS
        points = points_list(event["minus"], names)
        return t(language, sentence, number=event.get("round"), points=points)
    if kind == "setup":
        starter = names[event["starter"]]
        return t(
            language, ROUND_STARTS, number=event["round"], starter=starter, row=event["blockade"]
        )
    simple = {"bar": BLOCKADE_MOVES, "trapped": TRAPPED, "keep": KEEPS, "reveal": REVEAL}
    if kind in simple:
        return t(language, simple[kind], name=name, card=event.get("card"), row=event.get("row"))
    return t(language, RESHUFFLED) if kind == "reshuffle" else None


HINT_WALK = N_("Walk {path}: {reasons}.")
HINT_SEND = N_("Send {name} to {field} with your card {field}: {reasons}.")
HINT_KEEP = N_("Keep your cards: no sending would help you.")
HINT_GOES_OUT = N_("discards your last card: you are out")
HINT_NOTHING_TO_DISCARD = N_("no walk of this roll discards a card")
HINT_REVEALS = N_("leaves you two or fewer face-up cards: everyone reveals the hidden ones")
HINT_LANDS_ON = N_("lands on {names}: you may send a piece away")
HINT_SHEDS = N_("you discard card {field} without walking to it")
HINT_RIVAL_STUCK = N_("from there no card {name} holds can be reached until the blockade moves")


def hint(language: str, advice: BarreeHint, names: Sequence[str]) -> str:
    """The advice of a hint with its reasons, e.g. "Walk 34-35-45: discards 3 cards (34,
    35, 45); ends 1 step from your card 55."."""
    if advice.kind == "keep":
        return t(language, HINT_KEEP)
    if advice.kind == "send":
        assert advice.target is not None
        return t(
            language,
            HINT_SEND,
            name=names[advice.target],
            field=advice.field,
            reasons=reasons(language, _send_reasons(language, advice, names[advice.target])),
        )
    return t(
        language,
        HINT_WALK,
        path=format_walk(advice.path),
        reasons=reasons(language, _walk_reasons(language, advice, names)),
    )


def _walk_reasons(language: str, advice: BarreeHint, names: Sequence[str]) -> list[str]:
    if advice.goes_out:
        return [t(language, HINT_GOES_OUT)]
    if advice.discards:
        cards = ", ".join(map(str, advice.discards))
        found = [
            tn(
                language,
                "discards {count} card ({cards})",
                "discards {count} cards ({cards})",
                len(advice.discards),
                cards=cards,
            )
        ]
    else:
        found = [t(language, HINT_NOTHING_TO_DISCARD)]
    if advice.reveals:
        found.append(t(language, HINT_REVEALS))
    if advice.lands_on:
        who = both(language, [names[seat] for seat in advice.lands_on])
        found.append(t(language, HINT_LANDS_ON, names=who))
    if advice.nearest is not None:
        found.append(
            tn(
                language,
                "ends {count} step from your card {card}",
                "ends {count} steps from your card {card}",
                advice.nearest.steps,
                card=advice.nearest.card,
            )
        )
    return found


def _send_reasons(language: str, advice: BarreeHint, name: str) -> list[str]:
    """How far the sending puts the rival from his cards, then the card it sheds."""
    before, after = advice.rival_before, advice.rival_after
    found = []
    if after is None:
        found.append(t(language, HINT_RIVAL_STUCK, name=name))
    elif before is None or after.steps > before.steps:
        found.append(
            tn(
                language,
                "{name}'s nearest card is then {count} step away",
                "{name}'s nearest card is then {count} steps away",
                after.steps,
                name=name,
            )
        )
    found.append(t(language, HINT_SHEDS, field=advice.field))
    return found
