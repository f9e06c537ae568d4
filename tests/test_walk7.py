"""Faults found by blind walk 7 (preferans and skat), through the interview a referee sees and
the ruling it gives: a case in, the questions and the ruling out.

- preferans: the contra in force at any act but a statement in the declaring is the contra the
  hand was played at, one fact of the deal: asked once in a dispute of two events, and an
  answer against it refused; who gave the kontra answers "was the partner the kontraš";
"""
from __future__ import annotations

import pytest

from case_helpers import rule_case
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render


def walk(game: str, events: list[dict], shared: dict, limit: int = 80) -> tuple[Session, list[tuple]]:
    """Answer the interview event by event (question id -> what the referee types; ``shared``
    for the deal's questions), adding an event at the review while ``events`` has more; stop at
    the first question nobody answered. Returns the session and the questions asked, as
    (event number or None for the deal, question id)."""
    s = Session(load_rulebook(game), enter_cards=False, ask_names=False)
    asked: list[tuple] = []
    ev = 0
    for _ in range(limit):
        p = s.next()
        if p is None:
            break
        if p.kind == "review":
            if ev + 1 < len(events):
                ev += 1
                s.answer("+")
                continue
            break
        if p.kind != "question":
            break
        asked.append((None if p.event is None else p.event + 1, p.id))
        typed = shared if p.event is None else events[p.event]
        if p.id not in typed:
            break
        s.answer(str(typed[p.id]))
    return s, asked


# a defender's dolaz disputed under a kontra, then the 7/8-tricks conduct of the play
DOLAZ = {"claim": "bad-dolaz", "contra_level": "kontra", "dolaz_offender": "defender_2",
         "dolaz_situation": "partner-bid", "holding_partner": "d16", "no_trump": "no"}
SEVEN = {"claim": "seven-eight", "countable": "eight", "se_offender_correct": "no", "se_both_correct": "yes",
         "se_conduct": "demand"}
DEAL = {"referee_plays": "no", "deal_play": "both", "game": "herc", "game_mode": "talon",
        "deal_contra": "kontra", "kontras": "defender_2", "tricks_first": "3", "tricks_second": "0"}


def test_the_contra_of_the_hand_is_asked_once_in_a_dispute_of_two_events():
    s, asked = walk("preferans", [DOLAZ, SEVEN], DEAL)
    assert asked[-1] == (2, "se_conduct") and s.next().kind == "review", asked
    contra = [a for a in asked if a[1] in ("contra_level", "deal_contra")]
    assert contra == [(1, "contra_level")], asked
    # the second event's act is weighed at the same contra, taken from what was said
    assert s.events[1].get("contra_level") == "kontra" and s.shared.get("deal_contra") == "kontra"


def test_a_contra_against_the_contra_of_the_hand_is_refused_but_not_for_a_statement_out_of_turn():
    book = load_rulebook("preferans")
    bad = Session(book, enter_cards=False, ask_names=False)
    bad.shared.update({"deal_play": "both", "deal_contra": "kontra", "game": "herc"})
    bad.events[0].update({"claim": ["seven-eight"]})
    assert bad.impossible("contra_level", "none", 0) is not None
    assert bad.impossible("contra_level", "kontra", 0) is None
    # a statement out of turn in the declaring meets the level then in force: a later kontra
    # does not make its level the hand's
    oot = Session(book, enter_cards=False, ask_names=False)
    oot.shared.update({"deal_play": "both", "deal_contra": "kontra", "game": "herc"})
    oot.events[0].update({"claim": ["out-of-turn"]})
    assert oot.impossible("contra_level", "none", 0) is None


def test_who_gave_the_kontra_answers_whether_the_partner_who_fell_was_the_kontras():
    book = load_rulebook("preferans")
    s = Session(book, enter_cards=False, ask_names=False)
    s.shared.update({"kontras": "defender_2"})
    s.events[0].update({"claim": ["bad-dolaz"], "dolaz_offender": "defender_1", "contra_level": "kontra"})
    assert s.impossible("partner_kontras", False, 0) is not None
    assert s.impossible("partner_kontras", True, 0) is None
    s.shared["kontras"] = "defender_1"
    assert s.impossible("partner_kontras", True, 0) is not None
