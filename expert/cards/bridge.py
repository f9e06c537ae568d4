"""Bridge: the board's frame from the deal record - the contract's level and doubling, and the
tricks declarer's side took in a complete play record. The knowledge folder maps them to its
frame questions (knowledge/bridge/cards.yaml); the score sheet reads those answers."""
from __future__ import annotations

import re

from referee.expert.cards.derive import DerivedFact

# After the strain: 'X' (or '*') doubled, 'XX' ('**') redoubled: 4♠X, 3NTXX, 2H*.
_DOUBLING = re.compile(r"([xX*]{1,2})\s*$")


def doubling(text) -> str | None:
    """'undoubled', 'doubled' or 'redoubled' as a bridge contract's text writes it ('4♠',
    '4♠X', '3NT XX'); None for a contract given as a mapping (no doubling in it)."""
    if not isinstance(text, str):
        return None
    m = _DOUBLING.search(text.strip())
    if not m:
        return "undoubled"
    return "doubled" if len(m.group(1)) == 1 else "redoubled"


def frame_facts(deal, contract_text=None) -> list[DerivedFact]:
    """``contract_level`` (value 1-7), ``contract_doubled`` (value undoubled/doubled/redoubled,
    from the contract's text) and, when all 13 tricks are in the record, ``declarer_side_tricks``
    (value: the tricks declarer and dummy won as played, before anything a ruling transfers)."""
    out: list[DerivedFact] = []
    c = deal.contract
    if c is None:
        return out
    if c.level:
        out.append(DerivedFact("contract_level", deal.declarer, None, f"the contract is {c}", value=c.level))
    how = doubling(contract_text)
    if how:
        out.append(DerivedFact("contract_doubled", deal.declarer, None,
                               f"the contract '{str(contract_text).strip()}' is {how}", value=how))
    complete = [t for t in deal.tricks if t.complete and t.winner]
    if deal.declarer and len(complete) == 13:
        side = next((set(p) for p in deal.partnerships if deal.declarer in p), {deal.declarer})
        won = sum(1 for t in complete if t.winner in side)
        out.append(DerivedFact("declarer_side_tricks", deal.declarer, None,
                               f"declarer's side won {won} of the 13 tricks as played", value=won))
    return out
