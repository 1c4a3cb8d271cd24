"""Barbu's sentences: rules, the deal's status, scores and the result."""

from __future__ import annotations

from collections.abc import Sequence

from games.barbu import (
    CONTRACT_TITLES,
    PASS,
    RANKS,
    SUITS,
    BarbuState,
    BarbuView,
    card_words,
    contract_label,
    parse_card,
)

RULES = """\
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
**Playing.** Your hand comes by DM and under **My hand** on the board, with a menu of the \
cards you may play when it is your turn.
**`/barbu move`.** A card `QS` (T for ten), a contract `notricks`, `noqueens`, \
`nolasttwo`, `nohearts`, `barbu`, `trumps:H`, `domino:5`, doubles `double:2,4` or `pass`. \
In `double:` name the players by the numbers the table picture shows (1–4).
**Full rules:** `docs/rules/barbu.md` in the bot's repository.\
"""

DOUBLES_NOTATION = (
    "Write doubles as double:2,4 with the player numbers the table picture shows (1–4)."
)

DEAL_HEADING = "Deal {number} of {total}"
WINS = "{winner} wins with {score}."
SHARED_WIN = "{winners} win with {score}."
ENDED_EARLY = "The game ended early."
TOTALS = "Totals: {scores}."
NO_DOUBLES = "no doubles"

# The board's status line, short enough for the picture.
BOARD_CHOOSING = "{deal} · {name} is choosing"
BOARD_DOUBLING = "{deal} · doubling: {name} to decide"
BOARD_PLAYING = "{deal} · {name} to play"

# The board message's lines.
DECLARER = "{deal} · declarer {name}"
LAST_DEAL = "Last deal, {sentence}"
CHOOSES = "{name} chooses a contract."
CONTRACT = "Contract: {contract} · Doubles: {doubles}"
DOUBLING = "{name} decides whom to double."
DOMINO_TURN = "{name} lays a card or passes."
TRICK_TURN = "Trick {number} · {name} to play."


CONFIRM_NOTHING = "Confirm"
CONFIRM_ONE_DOUBLE = "Confirm 1 double"
CONFIRM_DOUBLES = "Confirm {count} doubles"

YOU_CHOSE = "✅ You chose {contract}."
YOU_PLAYED_CARD = "✅ You played the {card}."
YOU_LAID_CARD = "✅ You laid the {card}."
YOU_PASSED = "✅ You passed."
YOU_DOUBLED = "✅ You doubled {doubled}."
YOU_REDOUBLED = "✅ You redoubled {redoubled}."
YOU_DOUBLED_AND_REDOUBLED = "✅ You doubled {doubled} and redoubled {redoubled}."


def confirmation(state: BarbuState, action: str, names: Sequence[str]) -> str:
    """The private note for the legal ``action`` of the seat to act, e.g. "✅ You played
    the queen of spades."."""
    if state.phase == "contract":
        return YOU_CHOSE.format(contract=contract_title_of(action))
    if action == PASS:
        return YOU_PASSED
    if action.startswith("double:"):
        return _doubled(state, [int(seat) for seat in action.split(":")[1].split(",")], names)
    card = card_words(parse_card(action))
    sentence = YOU_LAID_CARD if state.contract == "domino" else YOU_PLAYED_CARD
    return sentence.format(card=card)


def _doubled(state: BarbuState, seats: Sequence[int], names: Sequence[str]) -> str:
    mover = state.current_player
    doubled = " and ".join(names[seat] for seat in seats if (seat, mover) not in state.doubles)
    redoubled = " and ".join(names[seat] for seat in seats if (seat, mover) in state.doubles)
    if doubled and redoubled:
        return YOU_DOUBLED_AND_REDOUBLED.format(doubled=doubled, redoubled=redoubled)
    if redoubled:
        return YOU_REDOUBLED.format(redoubled=redoubled)
    return YOU_DOUBLED.format(doubled=doubled)


def contract_title_of(action: str | None) -> str:
    """``trumps:H`` as "Trumps (hearts)", ``domino:5`` as "Domino from the fives"."""
    if not action:
        return "contract"
    name, _, detail = action.partition(":")
    if name == "trumps" and detail:
        return contract_label(name, trump=SUITS.index(detail))
    if name == "domino" and detail:
        return contract_label(name, start_rank=RANKS.index(detail))
    return CONTRACT_TITLES.get(name, name)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def scores_list(scores: Sequence[int], names: Sequence[str]) -> str:
    """ "Alice +12, Bob −3": each seat's score after its name."""
    return ", ".join(f"{names[seat]} {signed(score)}" for seat, score in enumerate(scores))


def deal_heading(view: BarbuView) -> str:
    number = min(view["deal"] + 1, view["total_deals"])
    return DEAL_HEADING.format(number=number, total=view["total_deals"])


def result(view: BarbuView, names: Sequence[str]) -> str:
    """The winner (or winners) by the final totals, e.g. "Alice wins with +12."."""
    totals = view["totals"]
    best = max(totals)
    winners = [names[seat] for seat in range(len(totals)) if totals[seat] == best]
    if len(winners) == 1:
        return WINS.format(winner=winners[0], score=signed(best))
    return SHARED_WIN.format(winners=" and ".join(winners), score=signed(best))


def board_status(view: BarbuView, names: Sequence[str]) -> str:
    """The picture's status line: the deal and who acts, or the result."""
    to_act = view["to_act"]
    if view["phase"] == "over" or to_act is None:
        return result(view, names)
    deal, name = deal_heading(view), names[to_act]
    if view["phase"] == "contract":
        return BOARD_CHOOSING.format(deal=deal, name=name)
    if view["phase"] == "doubling":
        return BOARD_DOUBLING.format(deal=deal, name=name)
    return BOARD_PLAYING.format(deal=deal, name=name)
