"""Cards, the deal record and the facts derived from them (pure Python, no Experta).

* :mod:`.deck`      Card, decks, rank orders, contracts and trumps per game
* :mod:`.notation`  the compact card notation (``♠AK7 ♥QJ109``, ``P:AKD``, ``Kr:B``, ``P:Á K X``)
* :mod:`.deal`      the deal record: hands, talon, discard, contract, tricks (``parse_deal``)
* :mod:`.derive`    facts from the play record (revoke, out of turn, winners, transfers)
* :mod:`.holdings`  preferans holdings: Član 6 and Član 8 standards item by item

See ``expert/cards/README.md`` for the ``deal:`` format of case files.
"""
from .deal import Deal, Trick, parse_contract, parse_deal
from .deck import Card, Contract, deck, rank_order, trick_winner_index
from .derive import DerivedAnswers, DerivedFact, answers_from_facts, derive, infractions_in_order
from .notation import format_cards, parse_card, parse_cards, parse_hand

__all__ = ["Card", "Contract", "Deal", "DerivedAnswers", "DerivedFact", "Trick",
           "answers_from_facts", "deck", "derive", "format_cards", "infractions_in_order",
           "parse_card", "parse_cards", "parse_contract", "parse_deal", "parse_hand",
           "rank_order", "trick_winner_index"]
