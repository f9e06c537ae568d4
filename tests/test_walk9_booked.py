"""Blind walk 9 (bu, U2): once the points of an ulti deal were booked, a claim changes nothing on
the sheet (Továbbiak 2; Renonszok, záró rész, 1. bekezdés): the interview asks nothing of the
deal as played (colour, trump, bids, their outcomes) to write it again, and the sheet says the
points stand as booked. Before booking the deal as played is asked as before."""
from __future__ import annotations

from case_helpers import asked_unknown_else as asked

from referee.expert.language.rulebook import load_rulebook

PLAYED = {"game_kind", "trump", "bids", "res_parti", "res_negyvenszaz", "res_ulti", "played_out"}


def test_after_booking_nothing_of_the_deal_as_played_is_asked():
    book = load_rulebook("ulti")
    claim = {"claim": ["lower-bid"]}
    facts = {"phase": "bidding", "offender": "declarer", "bid_lower": True, "game_kind": "colour",
             "trump": "tok", "bids": ["negyvenszaz"], "played_out": True, "res_negyvenszaz": "won"}
    booked = asked(book, claim, {**facts, "booked": True})
    assert "booked" in booked and not PLAYED & set(booked), booked
    open_ = asked(book, claim, {**facts, "booked": False})
    assert PLAYED & set(open_), open_
