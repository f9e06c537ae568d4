"""Preferans: the state of play the score sheet reads, from the play record.

The result of a deal (knowledge/preferans/rulebook.yaml ``score:``) needs the tricks each
defender took, or on betl whether the declarer took one. The record gives them only once the
hand is over: all ten tricks played, or the hand stopped when it was decided against the
declarer (the defence's fifth trick; on betl the declarer's first). A hand the record leaves
open (the declarer has six tricks and the rest is not recorded) gives nothing: a defender's own
fall still depends on the tricks to come, so the interview asks.
"""
from __future__ import annotations

DEFENDERS = ("defender_1", "defender_2")


def play_state_facts(deal) -> list:
    """``final_tricks_defender_1`` / ``final_tricks_defender_2`` (trump games and sans) or
    ``final_betl_taken`` (betl), when the record shows how the hand ended."""
    from referee.expert.cards.derive import DerivedFact
    if deal.game != "preferans" or deal.contract is None or not deal.declarer or not deal.tricks:
        return []
    done = [t for t in deal.tricks if len(t.cards) == 3 and t.winner]
    if len(done) != len([t for t in deal.tricks if t.cards]):
        return []                                   # a trick left half-played: not over
    mine = sum(1 for t in done if t.winner == deal.declarer)
    theirs = len(done) - mine
    if deal.contract.type == "betl":
        if mine == 0 and len(done) < 10:
            return []
        why = (f"the declarer took a trick on betl (trick {next(t.number for t in done if t.winner == deal.declarer)})"
               if mine else "the declarer took none of the ten tricks on betl")
        return [DerivedFact("final_betl_taken", deal.declarer, None, why, value=mine > 0)]
    if len(done) < 10 and theirs < 5:
        return []
    how = "all ten tricks" if len(done) == 10 else f"the {len(done)} tricks until the defence's fifth"
    out = []
    for seat in DEFENDERS:
        if seat in deal.seats:
            n = sum(1 for t in done if t.winner == seat)
            out.append(DerivedFact(f"final_tricks_{seat}", seat, None,
                                   f"{seat} took {n} of {how}", value=n))
    return out
