"""Barbu: four players, seven contracts per declarer, doubling (docs/rules/barbu.md).

The package: ``cards`` (cards, contracts, scoring and the trick and Domino rules),
``views`` (the view's ``TypedDict``s), ``doubling`` (the doubling round's choice),
``state`` (``BarbuState`` and ``new_game``), ``codec`` (``from_dict``) and ``computer``
(``bot_action``); this module holds ``SPEC`` and re-exports the public names.
"""

from collections.abc import Mapping
from typing import Any

from games.barbu.cards import (
    ACE,
    ACE_OF_HEARTS,
    CONTRACT_TITLES,
    CONTRACTS,
    DEALS_PER_SERIES,
    DOMINO_PRIZES,
    DOUBLES_OWED_PER_SERIES,
    HEART_LEAD_CONTRACTS,
    HEARTS,
    KING,
    KING_OF_HEARTS,
    NAMED_CONTRACTS,
    PASS,
    POSITIVE_CONTRACTS,
    QUEEN,
    RANK_NAMES,
    RANK_PLURALS,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    TRICKS_PER_DEAL,
    Card,
    DominoRows,
    card_name,
    card_words,
    contract_label,
    domino_lay,
    domino_playable,
    is_penalty_card,
    legal_trick_cards,
    parse_card,
    settle,
    sort_cards,
    trick_ends_deal,
    trick_points,
    trick_winner,
)
from games.barbu.codec import (
    from_dict,
)
from games.barbu.computer import (
    CONTRACT_PLAYOUTS,
    DECLARER_PAR,
    DOUBLING_CONFIDENCE,
    DOUBLING_PLAYOUTS,
    EASY_CONTRACT_PLAYOUTS,
    EASY_NOISE,
    HARD_DOUBLING_MARGIN,
    HARD_DOUBLING_MARGIN_OTHERWISE,
    HARD_DOUBLING_PLAYOUTS,
    HARD_PLAY_PLAYOUTS,
    MIN_WORLDS,
    PLAY_PLAYOUTS,
    SENSIBLE_NOISE,
    Policy,
    bot_action,
)
from games.barbu.doubling import (
    DoublingChoice,
    parse_seats,
)
from games.barbu.frames import barbu_frames
from games.barbu.state import (
    BarbuState,
    new_game,
)
from games.barbu.views import (
    BarbuDeal,
    BarbuDomino,
    BarbuDominoMove,
    BarbuDoubling,
    BarbuTrick,
    BarbuTrickCard,
    BarbuView,
)
from games.base import (
    N_,
    GameSpec,
    IllegalAction,
    Length,
    Nn_,
    Option,
)

DEALS = Nn_("{count} deal", "{count} deals")
DECISIONS_PER_DEAL = 40.0
"""A deal's decisions, all four seats together, when a single legal card plays itself:
the contract, four doubling answers and about 35 of the 52 cards."""
DECISIONS_PER_DEAL_BY_HAND = 54.0
"""The same without ``autoplay``: every card is a decision."""
FRENCH_DECISIONS_SAVED = 4.0
"""The simple French form has no doubling round (four answers fewer) and names five of
its seven contracts itself."""


def game_length(options: Mapping[str, Any]) -> Length:
    """Seven deals per declarer series."""
    decisions = DECISIONS_PER_DEAL if options["autoplay"] else DECISIONS_PER_DEAL_BY_HAND
    if options["french"]:
        decisions -= FRENCH_DECISIONS_SAVED
    return Length(int(options["series"]) * DEALS_PER_SERIES, DEALS, decisions)


SPEC = GameSpec(
    key="barbu",
    title="Barbu",
    min_players=4,
    max_players=4,
    position=3,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="substitute",
    dice=None,
    hidden_information=True,
    replay_frames=barbu_frames,
    progress_marker=lambda state: state.deal_number,
    length=game_length,
    options=(
        Option(
            "french",
            False,
            N_("The simple French form: the seven contracts in a fixed order, no doubling."),
            shown=N_("French Barbu"),
        ),
        Option(
            "series",
            4,
            N_("Number of declarer series of seven deals (1–4)."),
            1,
            4,
            shown=Nn_("{count} series", "{count} series"),
        ),
        Option(
            "discard_king",
            False,
            N_(
                "In Barbu, the holder of the king of hearts must discard it the first time he "
                "cannot follow suit."
            ),
            shown=N_("King of hearts discarded when void"),
        ),
        Option(
            "autoplay",
            True,
            N_("A single legal card, or a forced pass, plays itself."),
            shown=N_("No autoplay"),
        ),
    ),
)

__all__ = [
    "ACE",
    "ACE_OF_HEARTS",
    "CONTRACTS",
    "CONTRACT_PLAYOUTS",
    "CONTRACT_TITLES",
    "DEALS_PER_SERIES",
    "DECLARER_PAR",
    "DOMINO_PRIZES",
    "DOUBLES_OWED_PER_SERIES",
    "DOUBLING_CONFIDENCE",
    "DOUBLING_PLAYOUTS",
    "EASY_CONTRACT_PLAYOUTS",
    "EASY_NOISE",
    "HARD_DOUBLING_MARGIN",
    "HARD_DOUBLING_MARGIN_OTHERWISE",
    "HARD_DOUBLING_PLAYOUTS",
    "HARD_PLAY_PLAYOUTS",
    "HEARTS",
    "HEART_LEAD_CONTRACTS",
    "KING",
    "KING_OF_HEARTS",
    "MIN_WORLDS",
    "NAMED_CONTRACTS",
    "PASS",
    "PLAY_PLAYOUTS",
    "POSITIVE_CONTRACTS",
    "QUEEN",
    "RANKS",
    "RANK_NAMES",
    "RANK_PLURALS",
    "SENSIBLE_NOISE",
    "SPEC",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "TRICKS_PER_DEAL",
    "BarbuDeal",
    "BarbuDomino",
    "BarbuDominoMove",
    "BarbuDoubling",
    "BarbuState",
    "BarbuTrick",
    "BarbuTrickCard",
    "BarbuView",
    "Card",
    "DominoRows",
    "DoublingChoice",
    "IllegalAction",
    "Policy",
    "bot_action",
    "card_name",
    "card_words",
    "contract_label",
    "domino_lay",
    "domino_playable",
    "from_dict",
    "is_penalty_card",
    "legal_trick_cards",
    "new_game",
    "parse_card",
    "parse_seats",
    "settle",
    "sort_cards",
    "trick_ends_deal",
    "trick_points",
    "trick_winner",
]
