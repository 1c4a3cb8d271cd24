"""Barbu's sentences."""

RULES = """\
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
`nolasttwo`, `nohearts`, `barbu`, `trumps:H`, `domino:5`, doubles `double:0,2` or `pass`. \
In `double:` the seats are numbered 0–3 clockwise (the table picture shows them as 1–4).
**Full rules:** `docs/rules/barbu.md` in the bot's repository.\
"""
