"""Blind walk 9 (ps): questions asked in the order a referee expects them, and the annex's
"other articles considered" read as plain statements.

1. Preferans: Član 18 ("Sudije ne mogu suditi u partijama u kojima učestvuju") is the referee's
   own bar, read by no other article: whether the referee plays at the table is asked only when a
   player objects to it (claim referee-plays), not after every claim.
"""
from __future__ import annotations

import pytest

from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook

PREF_NAMES = {"declarer": "South", "defender_1": "West", "defender_2": "East"}


@pytest.fixture(scope="module")
def preferans():
    return load_rulebook("preferans")


def _walk(session, answers: dict, limit: int = 60) -> list[str]:
    """Answer each question asked from ``answers`` ('unknown' for the rest) until the review."""
    asked = []
    for _ in range(limit):
        prompt = session.next()
        if prompt is None or prompt.kind == "review":
            break
        asked.append(prompt.id)
        session.answer(str(answers.get(prompt.id, "unknown")))
    return asked


def test_a_preferans_dispute_does_not_ask_whether_the_referee_plays(preferans):
    s = Session(preferans, header={"players": PREF_NAMES}, enter_cards=False)
    asked = _walk(s, {"claim": "bad-dolaz", "deal_play": "both", "game": "tref", "game_mode": "talon",
                      "contra_level": "kontra", "kontras": "defender_1", "tricks_first": 2, "tricks_second": 1})
    assert asked[0] == "claim"
    assert "referee_plays" not in asked


def test_the_objection_that_the_referee_plays_asks_it_at_once(preferans):
    s = Session(preferans, header={"players": PREF_NAMES}, enter_cards=False)
    asked = _walk(s, {"claim": "referee-plays", "referee_plays": "yes"})
    assert asked[:2] == ["claim", "referee_plays"]
