"""The Barree lesson: five positions built with the engine's own state, one rule each,
played with the Roll button, the walk menu and the sending menu of a table. The learner
sits in the first seat, Ada in the second. Every roll is the one the step needs: the
state's random source is seeded with the first seed whose roll it is (a search over
seeds, the same on every machine)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count

from games.barree import BAR, FIELDS, PHASE_ROLL, BarreeState
from games.base import Rng
from texts.i18n import N_
from texts.lessons import (
    HOW_TO_PLAY,
    PLAYERS,
    Attempt,
    Lesson,
    Rule,
    Step,
    Verdict,
    bold,
    right,
    said,
    wrong,
)

BOARD = N_("The board")
SETTING_UP = N_("Setting up a round")
TURN = N_("A turn")
BLOCKADE = N_("The blockade")
DRIVING_OUT = N_("Driving out")
REVEALING = N_("Revealing the hidden cards")
ROUND_END = N_("The end of a round")
MATCH = N_("A match")

ROLL = N_("Roll")
CHOOSE_WALK = N_("Choose a walk ({die})")
FIELD = N_("field {field}")
SEND_AWAY = N_("Send away…")
SEND_TO = N_("Send {name} to {field}")
LEARNER = 0


def seeded_for(roll: int) -> Rng:
    """The random source of the first seed whose first roll for the learner is ``roll``."""
    for seed in count():
        if Rng(seed).randint(BAR, 5, LEARNER) == roll:
            return Rng(seed)
    raise AssertionError("every face of the die comes up for some seed")


def position(
    *,
    roll: int,
    pieces: Sequence[int],
    cards: Sequence[Sequence[int]],
    hidden: Sequence[Sequence[int]] = ((), ()),
    blockade: int = 7,
    draw_top: int | None = None,
) -> BarreeState:
    """The learner to roll ``roll``, the pieces and cards given; every other field's card
    is in the draw pile (``draw_top`` on top) or, once the hidden cards are revealed, on
    the discard pile."""
    held = {card for hand in [*cards, *hidden] for card in hand}
    rest = [field for field in FIELDS if field not in held and field != draw_top]
    revealed = not any(hidden)
    return BarreeState(
        players=2,
        rounds=1,
        rng=seeded_for(roll),
        round_no=1,
        starter=LEARNER,
        current=LEARNER,
        phase=PHASE_ROLL,
        blockade=blockade,
        pieces=list(pieces),
        cards=[list(hand) for hand in cards],
        hidden=[list(hand) for hand in hidden],
        revealed=revealed,
        draw_pile=[] if revealed else rest + ([draw_top] if draw_top else []),
        discard_pile=rest if revealed else [],
        start_rolls=[[5, 2]],
    )


def walked(attempt: Attempt[BarreeState]) -> dict[str, object] | None:
    """The learner's walk in this step, once he has walked."""
    walk = attempt.state.last_walk
    return dict(walk) if walk is not None and walk["seat"] == LEARNER else None


def after_walk(
    judge: Callable[[Attempt[BarreeState], list[int]], Verdict | None],
) -> Callable[[Attempt[BarreeState]], Verdict | None]:
    """A judge that waits for the learner's walk: ``judge`` gets the cards it discarded."""

    def waiting(attempt: Attempt[BarreeState]) -> Verdict | None:
        walk = walked(attempt)
        if walk is None:
            return None
        discarded = walk["discarded"]
        assert isinstance(discarded, list)
        return judge(attempt, discarded)

    return waiting


def two_discarded(attempt: Attempt[BarreeState], discarded: list[int]) -> Verdict:
    if len(discarded) == 2:
        return right(N_("Your walk passed both fields of your cards: both are discarded."))
    return wrong(
        N_("That walk passed {count} of your two fields: end on field 15."), count=len(discarded)
    )


def freed(attempt: Attempt[BarreeState]) -> Verdict | None:
    state = attempt.state
    if state.current_player == LEARNER:
        return None
    return right(
        N_("A bar: the blockade moved to row {row}, and your piece is free from your next turn."),
        row=state.blockade,
    )


def sent(attempt: Attempt[BarreeState]) -> Verdict | None:
    if walked(attempt) is None or attempt.state.current_player == LEARNER:
        return None
    if attempt.last.startswith("send:"):
        return right(N_("You played your card 81 and sent Ada there: the card is discarded."))
    return wrong(N_("You left Ada there: this time, send her away with one of your cards."))


def revealed(attempt: Attempt[BarreeState], discarded: list[int]) -> Verdict:
    if attempt.state.revealed:
        return right(
            N_(
                "Two face-up cards left: everyone turns his hidden cards up, and they count"
                " from now on."
            )
        )
    return wrong(N_("Walk over field 35 so that only two face-up cards are left."))


def finished(attempt: Attempt[BarreeState], discarded: list[int]) -> Verdict:
    if attempt.state.finisher == LEARNER:
        return right(
            N_(
                "Your last card is gone: you win the round. Ada still gets her last turn;"
                " every card she keeps is a minus point."
            )
        )
    return wrong(N_("Your card 35 is still in your hand: walk onto field 35."))


def walk_to(field: int) -> object:
    """The walk menu's button for the walk that ends on ``field``."""
    return bold(said(FIELD, field=field))


LESSON = Lesson[BarreeState](
    players=2,
    practice_options={"rounds": 1},
    steps=(
        Step(
            title=N_("Roll and walk"),
            teaching=N_(
                "The board has 48 fields in 8 rows; the tens name the row. Each player gets"
                " seven cards face up and two hidden ones, each card a field; pieces and the"
                " blockade start on fields drawn from the pile. Roll 1 to 5 and walk exactly"
                " that many steps along the lines, back and forth if you like: each field of"
                " your cards you pass or reach is discarded."
            ),
            task=said(
                N_("Press {roll} (a 4 comes up), then {walk}, then {field}."),
                roll=bold(said(ROLL)),
                walk=bold(said(CHOOSE_WALK, die=4)),
                field=walk_to(15),
            ),
            rules=(
                Rule(BOARD),
                Rule(SETTING_UP),
                Rule(TURN),
                Rule(TURN, "1 to 5"),
                Rule(HOW_TO_PLAY, "1"),
                Rule(HOW_TO_PLAY, "2"),
                Rule(HOW_TO_PLAY, "3"),
            ),
            position=lambda: position(
                roll=4,
                pieces=(34, 17),
                cards=((35, 45, 81, 82, 83, 12, 16), (11, 21, 31, 41, 51, 61, 71)),
                hidden=((13, 14), (15, 22)),
            ),
            judge=after_walk(two_discarded),
        ),
        Step(
            title=N_("The bar and the blockade"),
            teaching=N_(
                "The blockade closes a whole row: nobody may enter or cross it, and a piece"
                " standing in it cannot move. Only a bar, rolled by anyone, moves it: a card is"
                " drawn and the blockade goes to that card's row. Your piece stands in the"
                " blockaded row 3."
            ),
            task=said(N_("Press {roll}: a bar comes up."), roll=bold(said(ROLL))),
            rules=(Rule(BLOCKADE), Rule(TURN, "The bar"), Rule(HOW_TO_PLAY, "4")),
            position=lambda: position(
                roll=BAR,
                pieces=(34, 17),
                cards=((35, 45, 81, 82, 83, 12, 16), (11, 21, 41, 51, 61, 71, 72)),
                hidden=((13, 14), (15, 22)),
                blockade=3,
                draw_top=66,
            ),
            judge=freed,
        ),
        Step(
            title=N_("Sending a rival away"),
            teaching=N_(
                "End your walk where a rival stands and you may play one of your face-up"
                " cards to send the piece to that card's field (not into the blockaded row,"
                " nor onto another piece); the card is discarded. Or keep the piece there."
            ),
            task=said(
                N_(
                    "Press {roll} (a 2), {walk}, then {field} where Ada stands; press {send}"
                    " and choose {where}."
                ),
                roll=bold(said(ROLL)),
                walk=bold(said(CHOOSE_WALK, die=2)),
                field=walk_to(36),
                send=bold(said(SEND_AWAY)),
                where=bold(said(SEND_TO, name=PLAYERS[0], field=81)),
            ),
            rules=(Rule(DRIVING_OUT),),
            position=lambda: position(
                roll=2,
                pieces=(34, 36),
                cards=((35, 81, 82, 83, 12, 16, 61), (11, 21, 41, 51, 63, 71, 72)),
                hidden=((13, 14), (15, 22)),
            ),
            judge=sent,
        ),
        Step(
            title=N_("The hidden cards"),
            teaching=N_(
                "Hidden cards cannot be discarded at first. As soon as a player has two or"
                " fewer face-up cards left after his walk, everyone turns his two hidden"
                " cards up, and they count like the others."
            ),
            task=said(
                N_("Press {roll} (a 1), {walk}, then {field}."),
                roll=bold(said(ROLL)),
                walk=bold(said(CHOOSE_WALK, die=1)),
                field=walk_to(35),
            ),
            rules=(Rule(REVEALING),),
            position=lambda: position(
                roll=1,
                pieces=(34, 17),
                cards=((35, 81, 82), (11, 21, 41, 51, 61, 71, 72)),
                hidden=((13, 14), (15, 22)),
            ),
            judge=after_walk(revealed),
        ),
        Step(
            title=N_("The end of the round"),
            teaching=N_(
                "The first to discard every card wins the round; the others then get one"
                " more turn each, up to the player who started the round. Every card still"
                " held is a minus point, and a match of several rounds goes to the fewest."
            ),
            task=said(
                N_("Press {roll} (a 1), {walk}, then {field}."),
                roll=bold(said(ROLL)),
                walk=bold(said(CHOOSE_WALK, die=1)),
                field=walk_to(35),
            ),
            rules=(Rule(ROUND_END), Rule(MATCH), Rule(HOW_TO_PLAY, "5")),
            position=lambda: position(
                roll=1,
                pieces=(34, 17),
                cards=((35,), (11, 21, 41, 51)),
            ),
            judge=after_walk(finished),
        ),
    ),
)
