"""The Barbu lesson: six deals set up through the engine's own state (its ``to_dict`` and
``from_dict``), one rule each, played with the hand's buttons as a player's DM shows
them. The learner sits in the first seat; Ada, Max and Zoe (``PLAYERS``) in the others,
Max (opposite) declaring where the learner does not."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.barbu import (
    RANKS,
    SUITS,
    BarbuState,
    domino_lay,
    from_dict,
    new_game,
    parse_card,
)
from texts.barbu import card_label, confirm_label, contract_title
from texts.i18n import N_
from texts.lessons import (
    HOW_TO_PLAY,
    PLAYERS,
    Attempt,
    Label,
    Lesson,
    Rule,
    Step,
    Verdict,
    bold,
    right,
    said,
    wrong,
)

DEALS = N_("The deals")
TRICK_PLAY = N_("Trick play")
NEGATIVE = N_("The five negative contracts")
TRUMPS = N_("Trumps: +5 for every trick")
DOMINO = N_("Domino: +45, +20, +5, −5")
DOUBLING = N_("Doubling")
SCORING = N_("Scoring a deal")
FRENCH = N_("The simple French form")

LEARNER = 0
DECLARER = 2
"""Max, opposite the learner, declares every deal but the first."""
HAND = 13


def card(name: str) -> Label:
    """A card button of the hand, as it reads ("5♥", "D♠" in German)."""
    return bold(lambda language: card_label(language, name))


def deal(
    *,
    contract: str,
    hands: Mapping[int, str],
    played: Sequence[str] = (),
    doubling_step: int | None = None,
) -> BarbuState:
    """The first deal of Max's series under ``contract`` (``trumps:S``, ``domino:5``),
    with the ``hands`` given (the other seats get the cards nobody was given), the cards
    ``played`` so far from Max on, and the doubling round at ``doubling_step`` (None:
    over, nobody doubled)."""
    data = new_game(seed=0).to_dict()
    name, _, detail = contract.partition(":")
    laid = [parse_card(text) for text in played]
    given = {seat: [parse_card(text) for text in cards.split()] for seat, cards in hands.items()}
    taken = {card for cards in given.values() for card in cards} | set(laid)
    rest = iter(sorted(set(range(52)) - taken))
    seats = [(DECLARER + offset) % 4 for offset in range(4)]
    for seat in seats:
        if seat not in given:
            size = HAND - sum(1 for index, _ in enumerate(laid) if seats[index % 4] == seat)
            given[seat] = [next(rest) for _ in range(size)]
    rows: list[tuple[int, int] | None] = [None, None, None, None]
    for laid_card in laid:
        domino_lay(rows, laid_card)
    data.update(
        first_declarer=DECLARER,
        phase="play" if doubling_step is None else "doubling",
        hands=[sorted(given[seat]) for seat in range(4)],
        contract=name,
        trump=SUITS.index(detail) if name == "trumps" else None,
        start_rank=RANKS.index(detail) if name == "domino" else None,
        remaining=[other for other in data["remaining"] if other != name],
        doubling_step=doubling_step or 0,
        leader=DECLARER,
        trick=[] if name == "domino" else laid,
        rows=[list(row) if row else None for row in rows],
        domino_turn=seats[len(laid) % 4],
        domino_moves=[[seats[index], laid_card] for index, laid_card in enumerate(laid)]
        if name == "domino"
        else [],
    )
    return from_dict(data)


def contract_chosen(attempt: Attempt[BarbuState]) -> Verdict:
    contract = attempt.last.partition(":")[0]
    return right(
        N_("You chose {contract}. Each of the seven contracts comes once in your series."),
        contract=lambda language: contract_title(language, contract),
    )


TrickJudge = Callable[[int, bool], Verdict]
"""Judges the trick the learner played to by its winner and whether it ended the deal."""


def after_trick(judge: TrickJudge) -> Callable[[Attempt[BarbuState]], Verdict | None]:
    """A judge that waits until the trick the learner played to is complete."""

    def waiting(attempt: Attempt[BarbuState]) -> Verdict | None:
        state, start = attempt.state, attempt.start
        if len(state.history) > len(start.history):
            raw = state.history[-1]["raw"]
            return judge(raw.index(min(raw)), True)
        if len(state.tricks) == len(start.tricks):
            return None
        return judge(state.tricks[-1][2], False)

    return waiting


def ducked(winner: int, deal_over: bool) -> Verdict:
    if winner != LEARNER:
        return right(N_("You followed suit under the 9♥: the trick, and its −2, went to Max."))
    return wrong(
        N_("Your J♥ beat the 9♥ and took the trick: −2 in No Tricks. Follow with a lower heart.")
    )


def king_given(winner: int, deal_over: bool) -> Verdict:
    if deal_over and winner != LEARNER:
        return right(N_("Max won the trick with the K♥ in it: −20 for him, and the deal is over."))
    return wrong(N_("The K♥ is still in your hand: give it away while Max wins the trick."))


def overtrumped(winner: int, deal_over: bool) -> Verdict:
    if winner == LEARNER:
        return right(N_("Your trump beat Zoe's 8♠: the trick is yours, +5."))
    return wrong(N_("Someone else won the trick: beat the 8♠ with a higher spade."))


def opened(attempt: Attempt[BarbuState]) -> Verdict:
    if attempt.last == "5C":
        return right(N_("Clubs are open: from now on the 4♣ and the 6♣ may follow the 5♣."))
    return wrong(
        N_("{card} grows hearts; a new suit opens only with a card of the starting rank: the 5♣."),
        card=lambda language: card_label(language, attempt.last),
    )


def doubled_declarer(attempt: Attempt[BarbuState]) -> Verdict:
    action = attempt.last
    if action.startswith("double:") and str(DECLARER) in action.removeprefix("double:").split(","):
        return right(
            N_(
                "You doubled Max: whoever of you two scores worse in this deal pays the other"
                " the difference."
            )
        )
    return wrong(N_("Max, the declarer, is not doubled: toggle Double Max, then confirm."))


LESSON = Lesson[BarbuState](
    players=4,
    practice_options={"series": 1},
    steps=(
        Step(
            title=N_("Choosing the contract"),
            teaching=N_(
                "Each deal gives everyone 13 cards. The declarer chooses the contract; he"
                " declares seven deals, each contract once, then the player on his left"
                " declares. Five contracts cost points (avoid tricks, queens, the last two"
                " tricks, hearts, the king of hearts), two earn them (Trumps, Domino)."
            ),
            task=said(
                N_("You declare: press {contract}."),
                contract=bold(lambda language: contract_title(language, "notricks")),
            ),
            rules=(Rule(DEALS), Rule(HOW_TO_PLAY, "1"), Rule(HOW_TO_PLAY, "5")),
            position=lambda: from_dict({**new_game(seed=0).to_dict(), "first_declarer": LEARNER}),
            judge=contract_chosen,
        ),
        Step(
            title=N_("Follow suit"),
            teaching=N_(
                "Max declared No Tricks: every trick costs its taker 2. You must follow the"
                " suit led if you can, so only your hearts are offered; the highest card of"
                " the suit led wins the trick."
            ),
            task=said(N_("Stay under Max's 9♥: play {card}."), card=card("5H")),
            rules=(
                Rule(TRICK_PLAY),
                Rule(NEGATIVE),
                Rule(HOW_TO_PLAY, "3"),
                Rule(HOW_TO_PLAY, "4"),
            ),
            position=lambda: deal(
                contract="notricks",
                hands={
                    LEARNER: "5H JH 2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D",
                    1: "AS KS QS JS TS 9S 8S AC KC QC JC TC 9C",
                },
                played=("9H", "4H"),
            ),
            judge=after_trick(ducked),
        ),
        Step(
            title=N_("The king of hearts"),
            teaching=N_(
                "In the Barbu contract only the king of hearts costs: −20, and the deal ends"
                " when it is taken. In No Hearts and Barbu nobody may lead a heart while he"
                " holds another suit. You have no spade, so you may play any card (with the"
                " table option `discard_king`, the king itself)."
            ),
            task=said(N_("Give the king away under Max's A♠: play {card}."), card=card("KH")),
            rules=(Rule(NEGATIVE), Rule(TRICK_PLAY)),
            position=lambda: deal(
                contract="barbu",
                hands={
                    LEARNER: "KH 2H 3H 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D",
                    1: "KS QS JS TS 9S 8S AC KC QC JC TC 9C 8C",
                },
                played=("AS", "5S"),
            ),
            judge=after_trick(king_given),
        ),
        Step(
            title=N_("Trumps: beat the trump"),
            teaching=N_(
                "In Trumps every trick earns +5. Max named spades. You must follow suit; if"
                " you cannot, and a trump of yours beats every trump in the trick, you must"
                " play one. On a trump lead, beat the highest trump if you can."
            ),
            task=said(N_("You have no heart: play {card} over Zoe's 8♠."), card=card("TS")),
            rules=(Rule(TRUMPS), Rule(HOW_TO_PLAY, "4")),
            position=lambda: deal(
                contract="trumps:S",
                hands={
                    LEARNER: "KS TS 3S 2C 3C 4C 5C 6C 2D 3D 4D 5D 6D",
                    1: "AH KH QH JH TH 9H 8H AC KC QC JC TC 9C",
                    3: "7S 6S 5S 4S 2S AD KD QD JD TD 9D 8D",
                },
                played=("7H", "8S"),
            ),
            judge=after_trick(overtrumped),
        ),
        Step(
            title=N_("Domino: open a suit"),
            teaching=N_(
                "In Domino Max named fives. You lay a five, which opens its suit, or the card"
                " just above or below a suit already laid; you pass only when nothing fits."
                " The first out scores +45, then +20, +5 and −5."
            ),
            task=said(N_("Open clubs: lay {card}."), card=card("5C")),
            rules=(Rule(DOMINO), Rule(HOW_TO_PLAY, "4")),
            position=lambda: deal(
                contract="domino:5",
                hands={LEARNER: "5C 7H 4H 2S 3S 9C TC 2D 3D 4D 9D TD JD"},
                played=("5H", "6H"),
            ),
            judge=opened,
        ),
        Step(
            title=N_("Doubling"),
            teaching=N_(
                "After the contract each player may double others: of two doubled players,"
                " the one with the worse deal score pays the other the difference, twice if"
                " doubled back. Each player must double the declarer twice in his series; in"
                " Trumps and Domino only he may be doubled. A table of the simple French"
                " form has no doubling and plays the seven contracts in a fixed order."
            ),
            task=said(
                N_("Max declared No Hearts. Press {double}, then {confirm}."),
                double=bold(said(N_("Double {name}"), name=PLAYERS[1])),
                confirm=bold(lambda language: confirm_label(language, 1)),
            ),
            rules=(Rule(DOUBLING), Rule(FRENCH), Rule(SCORING), Rule(HOW_TO_PLAY, "2")),
            position=lambda: deal(contract="nohearts", hands={}, doubling_step=1),
            judge=doubled_declarer,
        ),
    ),
)
