"""Barbu's sentences: rules, card and contract words, the deal's status, scores and the
result, each in the language it is shown in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from babel.lists import format_list

from games.barbu import (
    CONTRACT_TITLES,
    DEALS_PER_SERIES,
    DOUBLES_OWED_PER_SERIES,
    PASS,
    RANKS,
    SUITS,
    BarbuDeal,
    BarbuState,
    BarbuView,
    card_name,
    parse_card,
    parse_seats,
)
from games.barbu.hints import BarbuHint, CardEffect
from games.base import IllegalAction
from texts.common import reasons
from texts.i18n import N_, t, tn, tp

RULES = N_("""\
**How to play**
1. Four players, 13 cards each; in each deal the declarer chooses the contract.
2. The declarer leads; follow the suit led if you can; the highest card of it wins the trick.
3. Most contracts cost points for what you take; Trumps pays for tricks; Domino is a race.
4. Before the cards are played, each player may double others to raise the stakes.
5. Your hand and your choices come by DM and under **My hand** on the board.
**Words.** *Trick*: the four cards played in a round, one each. *Lead*: play a trick's \
first card. *Declarer*: the player who chooses this deal's contract. *Trumps*: a suit that \
beats every other. *Double*: a bet with one other player on who scores better this deal. \
*Redouble*: doubling back a player who doubled you, which doubles that bet again.
**Deals.** 52 cards, 13 each. One player declares for seven deals in a row, choosing each \
of the seven contracts once; then his left-hand neighbour declares. Four series make a \
game (`/barbu new series:` plays fewer). Declarer leads first; follow suit if you can; the \
highest card of the led suit wins the trick, and the winner leads next.
**Negative contracts.** No Tricks −2 a trick · No Queens −6 a queen (ends with the fourth) \
· No Last Two −10 and −20 for tricks 12 and 13 · No Hearts −2 a heart, −6 the ace; no \
heart lead while you hold another suit · Barbu −20 for the king of hearts (ends when taken; \
same heart lead rule).
**Trumps** (+5 a trick). Declarer names trumps. On a trump lead, beat the highest trump if \
you can; unable to follow a plain suit, you must play a trump that wins the trick if you \
hold one.
**Domino** (+45, +20, +5, −5 in the order players go out). Declarer names a starting rank. \
Lay a card of that rank, or the next card up or down in an opened suit; pass only when \
nothing fits.
**Doubling.** After the contract, from declarer's left round to declarer, each player may \
double others: in Trumps and Domino only declarer; declarer only redoubles those who \
doubled him. Each other player must double declarer at least twice in each series. A \
double makes the two players settle the difference of their deal scores; a redouble \
twice it.
**French form** (`/barbu new french:True`). Each declarer plays the contracts in a fixed \
order: No Tricks, No Queens, No Last Two, No Hearts, Barbu, Trumps, Domino. He still names \
trumps and Domino's starting rank; nobody doubles.
**Playing.** Your hand comes by DM and under **My hand** on the board, with a menu of the \
cards you may play when it is your turn.
**`/barbu move`.** A card `QS` (T for ten), a contract `notricks`, `noqueens`, \
`nolasttwo`, `nohearts`, `barbu`, `trumps:H`, `domino:5`, doubles `double:2,4` or `pass`. \
In `double:` name the players by the numbers the table picture shows (1–4).\
""")

DOUBLES_NOTATION = N_(
    "Write doubles as double:2,4 with the player numbers the table picture shows (1–4)."
)

RANKS_AS_NUMBERS = "23456789"
SUIT_SYMBOLS = dict(zip(SUITS, "♠♥♣♦", strict=True))
CONTRACT_WORDS = {
    "notricks": N_("No Tricks"),
    "noqueens": N_("No Queens"),
    "nolasttwo": N_("No Last Two"),
    "nohearts": N_("No Hearts"),
    "barbu": N_("Barbu"),
    "trumps": N_("Trumps"),
    "domino": N_("Domino"),
}
assert CONTRACT_WORDS == CONTRACT_TITLES, "the engine's English titles are the catalogue ids"


def suit_name(language: str, suit: str) -> str:
    """``H`` as "hearts", "Herz"."""
    names = {
        "S": tp(language, "card suit", "spades"),
        "H": tp(language, "card suit", "hearts"),
        "C": tp(language, "card suit", "clubs"),
        "D": tp(language, "card suit", "diamonds"),
    }
    return names[suit]


def rank_name(language: str, rank: str) -> str:
    """``Q`` as "queen", "Dame"."""
    names = {
        "2": tp(language, "card rank", "two"),
        "3": tp(language, "card rank", "three"),
        "4": tp(language, "card rank", "four"),
        "5": tp(language, "card rank", "five"),
        "6": tp(language, "card rank", "six"),
        "7": tp(language, "card rank", "seven"),
        "8": tp(language, "card rank", "eight"),
        "9": tp(language, "card rank", "nine"),
        "T": tp(language, "card rank", "ten"),
        "J": tp(language, "card rank", "jack"),
        "Q": tp(language, "card rank", "queen"),
        "K": tp(language, "card rank", "king"),
        "A": tp(language, "card rank", "ace"),
    }
    return names[rank]


def rank_plural(language: str, rank: str) -> str:
    """``5`` as "fives", "Fünfen" (Domino's starting rank)."""
    names = {
        "2": tp(language, "card ranks", "twos"),
        "3": tp(language, "card ranks", "threes"),
        "4": tp(language, "card ranks", "fours"),
        "5": tp(language, "card ranks", "fives"),
        "6": tp(language, "card ranks", "sixes"),
        "7": tp(language, "card ranks", "sevens"),
        "8": tp(language, "card ranks", "eights"),
        "9": tp(language, "card ranks", "nines"),
        "T": tp(language, "card ranks", "tens"),
        "J": tp(language, "card ranks", "jacks"),
        "Q": tp(language, "card ranks", "queens"),
        "K": tp(language, "card ranks", "kings"),
        "A": tp(language, "card ranks", "aces"),
    }
    return names[rank]


def rank_label(language: str, rank: str) -> str:
    """The rank as a card's corner shows it: "10" for T, "D" for a German queen."""
    if rank in RANKS_AS_NUMBERS:
        return rank
    letters = {
        "T": "10",
        "J": tp(language, "card rank letter", "J"),
        "Q": tp(language, "card rank letter", "Q"),
        "K": tp(language, "card rank letter", "K"),
        "A": tp(language, "card rank letter", "A"),
    }
    return letters[rank]


def card_label(language: str, card: str) -> str:
    """``QS`` as ``Q♠`` (``D♠`` in German), ``TD`` as ``10♦``."""
    return rank_label(language, card[0]) + SUIT_SYMBOLS[card[1]]


def card_words(language: str, card: str) -> str:
    """``QS`` as "queen of spades", "Pik-Dame"."""
    return t(
        language,
        "{rank} of {suit}",
        rank=rank_name(language, card[0]),
        suit=suit_name(language, card[1]),
    )


def contract_title(language: str, contract: str) -> str:
    """``nohearts`` as "No Hearts", "Keine Herzen"."""
    word = CONTRACT_WORDS.get(contract)
    return contract if word is None else t(language, word)


def short_contract_title(language: str, contract: str) -> str:
    """The contract's name where a column is narrow (the score sheet)."""
    titles = {
        "notricks": tp(language, "short contract title", "No Tricks"),
        "noqueens": tp(language, "short contract title", "No Queens"),
        "nolasttwo": tp(language, "short contract title", "No Last Two"),
        "nohearts": tp(language, "short contract title", "No Hearts"),
    }
    return titles.get(contract) or contract_title(language, contract)


def contract_title_of(language: str, action: str | None) -> str:
    """``trumps:H`` as "Trumps (hearts)", ``domino:5`` as "Domino from the fives"."""
    if not action:
        return t(language, "contract")
    name, _, detail = action.partition(":")
    if name == "trumps" and detail:
        return t(language, "Trumps ({suit})", suit=suit_name(language, detail))
    if name == "domino" and detail:
        return t(language, "Domino from the {ranks}", ranks=rank_plural(language, detail))
    return contract_title(language, name)


def view_contract(language: str, view: Mapping[str, Any]) -> str | None:
    """The contract of ``view`` with its suit or rank, None before it is chosen."""
    action = view.get("contract_action")
    return contract_title_of(language, action) if action else None


def named_contract(view: BarbuView) -> str | None:
    """In the French form, the contract declarer names a trump suit or starting rank for
    (the next of the fixed order); None where he chooses among contracts, or acts no more."""
    if view.get("french") and view["phase"] == "contract":
        return view["remaining_contracts"][0]
    return None


def contract_wait(language: str, view: BarbuView, name: str) -> str:
    """The board's line while declarer ``name`` decides the contract."""
    named = named_contract(view)
    if named == "trumps":
        return t(language, "{name} names the trump suit.", name=name)
    if named == "domino":
        return t(language, "{name} names the starting rank for Domino.", name=name)
    return t(language, "{name} chooses a contract.", name=name)


def contract_prompt(language: str, view: BarbuView) -> str:
    """Declarer's own hand message when the contract is his to decide."""
    named = named_contract(view)
    if named == "trumps":
        return t(language, "**Your turn:** name the trump suit.")
    if named == "domino":
        return t(language, "**Your turn:** name the starting rank for Domino.")
    return t(language, "**Your turn:** choose the contract for this deal.")


def naming_caption(language: str, view: BarbuView, name: str | None) -> str | None:
    """The picture's words in the French form while declarer ``name`` (None: the hand's
    own player) names the trump suit or starting rank; None in every other moment."""
    named = named_contract(view)
    if named is None:
        return None
    if name is None:
        if named == "trumps":
            return t(language, "Your turn: name the trump suit")
        return t(language, "Your turn: name the starting rank")
    if named == "trumps":
        return t(language, "{name} names the trump suit", name=name)
    return t(language, "{name} names the starting rank", name=name)


def listing(language: str, items: Iterable[str]) -> str:
    """ "Alice and Bob", "Alice und Bob": names as a sentence lists them."""
    return str(format_list(list(items), locale=language))


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def scores_list(scores: Sequence[int], names: Sequence[str]) -> str:
    """ "Alice +12, Bob −3": each seat's score after its name."""
    return ", ".join(f"{names[seat]} {signed(score)}" for seat, score in enumerate(scores))


def deal_heading(language: str, view: BarbuView) -> str:
    number = min(view["deal"] + 1, view["total_deals"])
    return t(language, "Deal {number} of {total}", number=number, total=view["total_deals"])


def deal_sentence(language: str, deal: BarbuDeal, names: Sequence[str]) -> str:
    """ "Alice's No Hearts: Alice −4, Bob …": one finished deal's scores."""
    return t(
        language,
        "{name}'s {contract}: {scores}.",
        name=names[deal["declarer"]],
        contract=contract_title_of(language, deal["contract"]),
        scores=scores_list(deal["scores"], names),
    )


def totals(language: str, view: BarbuView, names: Sequence[str]) -> str:
    return t(language, "Totals: {scores}.", scores=scores_list(view["totals"], names))


def result(language: str, view: BarbuView, names: Sequence[str]) -> str:
    """The winner (or winners) by the final totals, e.g. "Alice wins with +12."."""
    scores = view["totals"]
    best = max(scores)
    winners = [names[seat] for seat in range(len(scores)) if scores[seat] == best]
    if len(winners) == 1:
        return t(language, "{winner} wins with {score}.", winner=winners[0], score=signed(best))
    return t(
        language,
        "{winners} win with {score}.",
        winners=listing(language, winners),
        score=signed(best),
    )


def ended_early(language: str, view: BarbuView, names: Sequence[str]) -> str:
    return t(
        language,
        "The game ended early. Totals: {scores}.",
        scores=scores_list(view["totals"], names),
    )


def board_status(language: str, view: BarbuView, names: Sequence[str]) -> str:
    """The picture's status line: the deal and who acts, or the result."""
    to_act = view["to_act"]
    if view["phase"] == "over" or to_act is None:
        return result(language, view, names)
    deal, name = deal_heading(language, view), names[to_act]
    if view["phase"] == "contract":
        return t(language, "{deal} · {name} is choosing", deal=deal, name=name)
    if view["phase"] == "doubling":
        return t(language, "{deal} · doubling: {name} to decide", deal=deal, name=name)
    return t(language, "{deal} · {name} to play", deal=deal, name=name)


def doubles_text(
    language: str, doubles: Iterable[Sequence[int]], declarer: int, names: Sequence[str]
) -> str:
    """E.g. "Bob doubled Alice (redoubled)": the one who acted first in the round doubled."""
    pairs = {(doubler, doubled) for doubler, doubled in doubles}

    def acting_order(seat: int) -> int:
        return (seat - declarer - 1) % 4

    sentences = []
    for doubler, doubled in sorted(pairs, key=lambda pair: acting_order(pair[0])):
        redoubled = (doubled, doubler) in pairs
        if redoubled and acting_order(doubled) < acting_order(doubler):
            continue
        sentence = (
            N_("{doubler} doubled {doubled} (redoubled)")
            if redoubled
            else N_("{doubler} doubled {doubled}")
        )
        sentences.append(t(language, sentence, doubler=names[doubler], doubled=names[doubled]))
    return "; ".join(sentences) if sentences else t(language, "no doubles")


def doubles_owed(
    language: str, view: BarbuView, seat: int, names: Sequence[str]
) -> str | None:
    """What ``seat`` still owes this series' declarer, e.g. "You owe 2 more doubles of
    declarer Alice in the 5 deals left of the series." (None when nothing is owed).

    The deals left are those in which the seat still decides on doubles: this one too
    while its doubling round has not come past him."""
    declarer = view["declarer"]
    needed = DOUBLES_OWED_PER_SERIES - view["declarer_doubled"][seat]
    if seat == declarer or needed <= 0 or view["phase"] == "over":
        return None
    decides_now = view["phase"] == "contract" or (
        view["phase"] == "doubling" and seat not in view["doubling_acted"]
    )
    deals = DEALS_PER_SERIES - view["deal"] % DEALS_PER_SERIES - (0 if decides_now else 1)
    name = names[declarer]
    if deals <= 1:
        sentence = (
            N_("You owe declarer {name} a double in this deal, the last of the series.")
            if decides_now
            else N_("You owe declarer {name} a double in the next deal, the last of the series.")
        )
        return t(language, sentence, name=name)
    return tn(
        language,
        "You owe {count} more double of declarer {name} in the {deals} deals left of the "
        "series.",
        "You owe {count} more doubles of declarer {name} in the {deals} deals left of the "
        "series.",
        needed,
        name=name,
        deals=deals,
    )


def confirm_label(language: str, doubles: int) -> str:
    """The doubling panel's confirm button for ``doubles`` toggled seats."""
    if not doubles:
        return t(language, "Confirm")
    return tn(language, "Confirm {count} double", "Confirm {count} doubles", doubles)


def confirmation(language: str, state: BarbuState, action: str, names: Sequence[str]) -> str:
    """The private note for the legal ``action`` of the seat to act, e.g. "✅ You played
    the queen of spades."."""
    if state.phase == "contract":
        return t(language, "✅ You chose {contract}.", contract=contract_title_of(language, action))
    if action == PASS:
        return t(language, "✅ You passed.")
    if action.startswith("double:"):
        seats = [int(seat) for seat in action.split(":")[1].split(",")]
        return _doubled(language, state, seats, names)
    card = card_words(language, action.upper())
    if state.contract == "domino":
        return t(language, "✅ You laid the {card}.", card=card)
    return t(language, "✅ You played the {card}.", card=card)


def _doubled(language: str, state: BarbuState, seats: Sequence[int], names: Sequence[str]) -> str:
    mover = state.current_player
    doubled = [names[seat] for seat in seats if (seat, mover) not in state.doubles]
    redoubled = [names[seat] for seat in seats if (seat, mover) in state.doubles]
    if doubled and redoubled:
        return t(
            language,
            "✅ You doubled {doubled} and redoubled {redoubled}.",
            doubled=listing(language, doubled),
            redoubled=listing(language, redoubled),
        )
    if redoubled:
        return t(language, "✅ You redoubled {redoubled}.", redoubled=listing(language, redoubled))
    return t(language, "✅ You doubled {doubled}.", doubled=listing(language, doubled))


def _seat_word(language: str, seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names else t(language, "Seat {number}", number=seat + 1)


def describe(
    language: str, state: BarbuState, action: str, names: Sequence[str] | None = None
) -> str:
    """The channel's sentence about ``action`` taken in ``state`` (in English the same as
    the move log's ``state.describe``)."""
    seat = state.current_player
    if seat is None:
        return action
    who = _seat_word(language, seat, names)
    lowered = action.strip().lower()
    if state.phase == "contract":
        name, _, detail = lowered.partition(":")
        detail = detail.upper()
        if name == "trumps" and len(detail) == 1 and detail in SUITS:
            return t(
                language,
                "{name} chooses Trumps with {suit}.",
                name=who,
                suit=suit_name(language, detail),
            )
        if name == "domino" and len(detail) == 1 and detail in RANKS:
            return t(
                language,
                "{name} chooses Domino from the {ranks}.",
                name=who,
                ranks=rank_plural(language, detail),
            )
        title = contract_title(language, name) if name in CONTRACT_WORDS else action
        return t(language, "{name} chooses {contract}.", name=who, contract=title)
    if lowered == PASS:
        return t(language, "{name} passes.", name=who)
    if lowered.startswith("double:"):
        return _describe_double(language, state, who, lowered.removeprefix("double:"), names)
    try:
        card = card_words(language, card_name(parse_card(action)))
    except IllegalAction:
        return action
    if state.contract == "domino":
        return t(language, "{name} lays the {card}.", name=who, card=card)
    return t(language, "{name} plays the {card}.", name=who, card=card)


def _describe_double(
    language: str, state: BarbuState, who: str, seats_text: str, names: Sequence[str] | None
) -> str:
    seat = state.current_player
    try:
        seats = parse_seats(seats_text)
    except IllegalAction:
        seats = []
    if not seats or not all(0 <= target < 4 for target in seats):
        return t(language, "{name} doubles {seats}.", name=who, seats=seats_text)
    doubled = ", ".join(
        _seat_word(language, s, names) for s in seats if (s, seat) not in state.doubles
    )
    redoubled = ", ".join(
        _seat_word(language, s, names) for s in seats if (s, seat) in state.doubles
    )
    if doubled and redoubled:
        return t(
            language,
            "{name} doubles {doubled} and redoubles {redoubled}.",
            name=who,
            doubled=doubled,
            redoubled=redoubled,
        )
    if redoubled:
        return t(language, "{name} redoubles {redoubled}.", name=who, redoubled=redoubled)
    return t(language, "{name} doubles {doubled}.", name=who, doubled=doubled)


HINT_PLAY = N_("Play the {card}: {reasons}.")
HINT_LAY = N_("Lay the {card}: {reasons}.")
HINT_CONTRACT = N_("Choose {contract}: {reasons}.")
HINT_PASS = N_("Pass: {reasons}.")
HINT_DOUBLE = N_("Double {doubled}: {reasons}.")
HINT_REDOUBLE = N_("Redouble {redoubled}: {reasons}.")
HINT_DOUBLE_AND_REDOUBLE = N_("Double {doubled} and redouble {redoubled}: {reasons}.")
CARD_EFFECTS = {
    "lead_top": N_("no higher card in {suit} is still out, so it takes the trick"),
    "lead_top_trumps": N_(
        "no higher card in {suit} is still out: it takes the trick unless someone trumps"
    ),
    "lead_bottom": N_("no lower card in {suit} is still out: whoever follows suit plays above it"),
    "under": N_("stays under the {other}: this trick cannot be yours"),
    "ahead": N_("beats the {other} for now"),
    "trumps": N_("you have no {suit}: the trump beats the {other} for now"),
    "discard": N_("you have no {suit}, so any card may go"),
    "discard_costly": N_("you have no {suit}: you get rid of a card that costs points here"),
    "opens": N_("opens {suit}"),
    "extends": N_("goes next to the {other}"),
}
HINT_FREES = N_("your {card} can follow next")
HINT_EXPECTED = N_("the computer expects about {score} for you this deal with it")
HINT_EXPECTED_BETTER = N_(
    "the computer expects about {score} for you this deal with it, {margin} more than with"
    " any other card"
)
HINT_OBLIGED = N_("the rules oblige you to double declarer while you owe doubles in this series")
AHEAD_OF = N_("about {count} ahead of {name}")
BEHIND = N_("about {count} behind {name}")
LEVEL_WITH = N_("level with {name}")
HINT_STANDINGS = N_("the computer expects you to finish this deal {standings}")
HINT_BEST = N_("the computer rates it best")


def hint(language: str, advice: BarbuHint, names: Sequence[str]) -> str:
    """The advice of a hint with its reasons, e.g. "Play the queen of spades: stays under
    the king of spades: this trick cannot be yours; the computer expects about -4 for you
    this deal with it, 6 more than with any other card."."""
    if advice.phase == "contract":
        contract = contract_title_of(language, advice.action)
        return t(
            language, HINT_CONTRACT, contract=contract, reasons=_contract_reason(language, advice)
        )
    if advice.phase == "doubling":
        return _doubling_hint(language, advice, names)
    found = _card_reasons(language, advice)
    sentence = (
        HINT_LAY
        if advice.effect is not None and advice.effect.kind in ("opens", "extends")
        else HINT_PLAY
    )
    card = card_words(language, advice.action.upper())
    return t(language, sentence, card=card, reasons=reasons(language, found))


def _contract_reason(language: str, advice: BarbuHint) -> str:
    if advice.expected is None or advice.par is None:
        return t(language, HINT_BEST)
    score, gain = round(advice.expected), round(advice.expected - advice.par)
    if gain >= 0:
        return t(
            language,
            "your hand should score about {score} there, {gain} above an average hand",
            score=signed(score),
            gain=gain,
        )
    return t(
        language,
        "your hand should score about {score} there, {loss} below an average hand: the"
        " smallest shortfall of your contracts left",
        score=signed(score),
        loss=-gain,
    )


def _card_reasons(language: str, advice: BarbuHint) -> list[str]:
    found = []
    effect = advice.effect
    if effect is not None:
        found.append(_card_effect(language, effect, advice.trump))
        if effect.frees is not None:
            found.append(t(language, HINT_FREES, card=card_words(language, effect.frees)))
    if advice.expected is not None:
        score = signed(round(advice.expected))
        margin = None if advice.runner_up is None else round(advice.expected - advice.runner_up)
        if margin:
            found.append(t(language, HINT_EXPECTED_BETTER, score=score, margin=margin))
        else:
            found.append(t(language, HINT_EXPECTED, score=score))
    return found or [t(language, HINT_BEST)]


def _card_effect(language: str, effect: CardEffect, trump: str | None) -> str:
    card_suit = effect.card[1]
    kind = effect.kind
    if kind == "lead":
        return tn(
            language,
            "{count} higher card in {suit} is still out",
            "{count} higher cards in {suit} are still out",
            effect.higher_out,
            suit=suit_name(language, card_suit),
        )
    if kind == "lead_top" and trump is not None and card_suit != trump:
        kind = "lead_top_trumps"
    if kind == "discard" and effect.costly:
        kind = "discard_costly"
    if kind == "takes":
        return _takes(language, effect.points)
    suit = suit_name(language, effect.led or card_suit)
    other = card_words(language, effect.other) if effect.other else ""
    return t(language, CARD_EFFECTS[kind], suit=suit, other=other)


def _takes(language: str, points: int) -> str:
    if points > 0:
        return t(language, "takes the trick: {points} for you", points=signed(points))
    if points < 0:
        return tn(
            language,
            "takes the trick at a cost of {count} point",
            "takes the trick at a cost of {count} points",
            -points,
        )
    return t(language, "takes the trick, which costs nothing")


def _doubling_hint(language: str, advice: BarbuHint, names: Sequence[str]) -> str:
    found = []
    standings = [_standing(language, names[seat], lead) for seat, lead in advice.leads]
    if standings:
        found.append(t(language, HINT_STANDINGS, standings=listing(language, standings)))
    if advice.obliged is not None:
        found.append(t(language, HINT_OBLIGED))
    text = reasons(language, found or [t(language, HINT_BEST)])
    doubled = listing(language, [names[seat] for seat in advice.doubles])
    redoubled = listing(language, [names[seat] for seat in advice.redoubles])
    if advice.doubles and advice.redoubles:
        return t(
            language, HINT_DOUBLE_AND_REDOUBLE, doubled=doubled, redoubled=redoubled, reasons=text
        )
    if advice.redoubles:
        return t(language, HINT_REDOUBLE, redoubled=redoubled, reasons=text)
    if advice.doubles:
        return t(language, HINT_DOUBLE, doubled=doubled, reasons=text)
    return t(language, HINT_PASS, reasons=text)


def _standing(language: str, name: str, lead: float) -> str:
    """How far ahead of (or behind) ``name`` the seat is expected to finish the deal."""
    points = round(lead)
    if points > 0:
        return t(language, AHEAD_OF, count=points, name=name)
    if points < 0:
        return t(language, BEHIND, count=-points, name=name)
    return t(language, LEVEL_WITH, name=name)
