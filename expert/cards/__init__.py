"""Cards, the deal record and the facts derived from them (pure Python, no Experta).

* :mod:`.deck`      Card, decks, rank orders, contracts and trumps per game
* :mod:`.notation`  the compact card notation (``♠AK7 ♥QJ109``, ``P:AKD``, ``Kr:B``, ``P:Á K X``)
* :mod:`.deal`      the deal record: hands, talon, discard, contract, tricks (``parse_deal``)
* :mod:`.derive`    facts from the play record (revoke, out of turn, winners, transfers)
* :mod:`.holdings`  preferans holdings: Član 6 and Član 8 standards item by item
* :mod:`.preferans` preferans: the tricks the score sheet reads, from the play record

See ``expert/cards/README.md`` for the ``deal:`` format of case files.
"""
from referee.expert.cards.deal import Deal, Trick, parse_contract, parse_deal
from referee.expert.cards.deck import Card, Contract, deck, rank_order, trick_winner_index
from referee.expert.cards.derive import DerivedAnswers, DerivedFact, answers_from_facts, derive, infractions_in_order
from referee.expert.cards.notation import format_cards, parse_card, parse_cards, parse_hand



SUIT_WORDS = {"preferans": {"S": "pik", "D": "karo", "H": "herc", "C": "tref"},
              "ulti": {"P": "piros", "T": "tok", "Z": "zold", "M": "makk"},
              "skat": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"},
              "bridge": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}}


def contract_word(contract) -> str:
    """The contract as one word a knowledge folder can map: for a suit contract the trump
    suit's word (preferans pik/karo/herc/tref, ulti piros/tok/zold/makk without accents, skat
    and bridge clubs/spades/hearts/diamonds), else the contract type (betl, sans, grand, null,
    notrump, betli, durchmars)."""
    if contract.type == "suit":
        return SUIT_WORDS[contract.game].get(contract.trump, contract.trump)
    return contract.type


def betl_lead_facts(deal) -> list:
    """Preferans betl (Član 10, with contra): the first lead of a defender whose hand is known,
    judged by 10.betl-contra-lead (singleton or shortest suit) and 10.betl-contra-bought-suit
    (not the suit of both bought cards). One fact per item (value True/False/None) and
    ``betl_lead_breach`` (value ``bought-suit``, ``lead``, ``none``, or None when undecided).
    Whether a contra was given is not in the cards: the rule binds only then."""
    from referee.expert.cards.holdings import betl_contra_lead_items, preferans_context
    if not deal.tricks or not deal.tricks[0].cards:
        return []
    seat, led = deal.tricks[0].cards[0]
    hand = deal.hands.get(seat)
    if seat == deal.declarer or hand is None or len(hand) != 10:
        return []
    items = betl_contra_lead_items(hand, led, preferans_context(deal, seat))
    out = [DerivedFact(i.item, seat, 1, f"{i.item.split(':')[1]}: {i.detail_en}", value=i.satisfied,
                       seq=0, card=str(led)) for i in items]
    got = {i.item.rsplit(".", 1)[-1]: i.satisfied for i in items}
    if got.get("betl-contra-bought-suit") is False:
        v = "bought-suit"
    elif got.get("betl-contra-lead") is False:
        v = "lead"
    elif got.get("betl-contra-lead") is True and got.get("betl-contra-bought-suit") is not False:
        v = "none"
    else:
        v = None
    why = "; ".join(i.detail_en for i in items)
    out.append(DerivedFact("betl_lead_breach", seat, 1, f"{seat}'s first lead on betl: {why}",
                           value=v, seq=0, card=str(led)))
    return out


def matador_facts(deal) -> list:
    """Skat: the soloist's matadors (``matadors_with``: with/without; ``matadors``: how many),
    counted in his ten cards and the skat, when both are given and the game has trumps."""
    from referee.expert.cards.skat import matadors
    hand = deal.hands.get(deal.declarer) if deal.declarer else None
    cards = set(hand or []) | set(deal.talon)
    if deal.contract is None or deal.contract.type == "null" or len(cards) != 12:
        return []
    kind, n = matadors(sorted(cards, key=str), deal.contract)
    why = f"the soloist's cards with the skat: {kind} {n} matador(s)"
    return [DerivedFact("matadors_with", deal.declarer, None, why, value=kind),
            DerivedFact("matadors", deal.declarer, None, why, value=n)]


def case_facts(data: dict, game: str, *, file: str | None = None, line: int | None = None):
    """One call for a case file's ``deal:`` mapping: the validated Deal and every fact the
    cards give - the play record's facts and, in preferans, the holdings of each seat whose
    hand is given (dolaz for defenders; correct bid for a seat whose ``bids`` entry names a
    suit)."""
    deal = parse_deal(data, game, file=file, line=line)
    facts = derive(deal)
    if deal.contract is not None:
        facts.append(DerivedFact("contract", deal.declarer, None, f"the contract is {deal.contract}",
                                 value=contract_word(deal.contract)))
    if deal.game == "preferans" and deal.contract is not None and deal.contract.type == "betl":
        facts.extend(betl_lead_facts(deal))
    if deal.game == "skat":
        facts.extend(matador_facts(deal))
        from referee.expert.cards.skat import play_state_facts
        facts.extend(play_state_facts(deal, facts))
    if deal.game == "preferans":
        from referee.expert.cards.holdings import holding_facts
        for seat in deal.seats:
            if seat in deal.hands:
                bid = deal.bids.get(seat)
                facts.extend(holding_facts(deal, seat, bid_suit=bid if bid not in (None, "none")
                                           else None))
        # the tricks the score sheet reads, once the record shows how the hand ended
        from referee.expert.cards.preferans import play_state_facts as preferans_play_state
        facts.extend(preferans_play_state(deal))
    if deal.game == "bridge":
        from referee.expert.cards.bridge import frame_facts
        facts.extend(frame_facts(deal, data.get("contract")))
    return deal, facts


__all__ = ["case_facts", "Card", "Contract", "Deal", "DerivedAnswers", "DerivedFact", "Trick",
           "answers_from_facts", "deck", "derive", "format_cards", "infractions_in_order",
           "parse_card", "parse_cards", "parse_contract", "parse_deal", "parse_hand",
           "rank_order", "trick_winner_index"]
