"""Blind walk 8 (su, s1 and u3): the review before the ruling lists the answers in the order the
questions were asked (the soloist's seat, asked last, headed the list), and a party asking for
an effect written in his own favour (the soloist's game scored as won) is offered himself, not
"the other side", when he presses Enter at "whom"."""
from __future__ import annotations

import pytest

from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook

NAMES = {"soloist": "Adam", "opponent_1": "Bartek", "opponent_2": "Czeslaw"}
# s1: a revoke by the first opponent found later; the soloist's seat is asked first
S1 = "Środek 6 2 y 2 n 4 1 1 2 1 y 41 14 18".split()   # the seat first (blind walk 9) ... bid 18


@pytest.fixture(scope="module")
def skat():
    return load_rulebook("skat")


# answers that follow from others and are filled in, not asked (the level to reach from the bid)
FILLED = {"required_level"}


def _rows(prompt) -> list[str]:
    return [r["question"] for r in prompt.rows if r["question"] not in FILLED]


def _asked(session, typed) -> list[str]:
    asked = []
    for raw in typed:
        prompt = session.next()
        asked.append(prompt.id)
        session.answer(raw)
    return asked


def test_the_review_lists_the_answers_in_the_order_asked(skat):
    s = Session(skat, header={"players": NAMES}, enter_cards=False)
    asked = _asked(s, S1)
    review = s.next()
    assert review.kind == "review"
    assert asked[:2] == ["soloist_place", "claim"]
    assert _rows(review) == asked


def test_an_answer_changed_at_the_review_keeps_its_place(skat):
    s = Session(skat, header={"players": NAMES}, enter_cards=False)
    asked = _asked(s, S1)
    rows = s.next().rows
    n = [r["question"] for r in rows].index("soloist_points") + 1
    s.answer(str(n))                     # change the soloist's card points
    assert s.next().id == "soloist_points"
    s.answer("40")
    review = s.next()
    assert review.kind == "review"
    assert _rows(review) == asked


def test_the_order_survives_a_saved_and_restored_session(skat):
    s = Session(skat, header={"players": NAMES}, enter_cards=False)
    asked = _asked(s, S1)
    again = Session.from_state(skat, s.to_state())
    assert _rows(again.next()) == asked


def _to_whom(skat, party: str, asks: str):
    s = Session(skat, header={"players": NAMES}, enter_cards=False)
    _asked(s, S1)
    s.answer("r")
    s.answer(party)
    options = [o.value for o in s.next().options]
    s.answer(str(options.index(asks) + 1))
    prompt = s.next()
    assert prompt.kind == "request_on"
    return s, prompt


def test_the_soloist_asking_his_own_game_won_is_offered_himself(skat):
    s, prompt = _to_whom(skat, "soloist", "effect:game_won")
    assert "the other side" not in prompt.text
    assert "(Enter: the player who asks, Adam)" in prompt.text
    s.answer("")
    assert s.draft["on"] == "soloist"


def test_an_opponent_asking_the_soloists_game_lost_is_still_offered_the_other_side(skat):
    s, prompt = _to_whom(skat, "opponent_1", "effect:game_lost")
    assert "(Enter: the other side)" in prompt.text
    s.answer("")
    assert s.draft["on"] is None


def test_a_payment_is_asked_from_the_other_side_in_ulti():
    """A payment passes from one player to another: Enter is the other side, as before."""
    from referee.expert.language.dispute import favours_its_player
    ulti = load_rulebook("ulti")
    assert not favours_its_player(ulti, "pays")
    preferans = load_rulebook("preferans")
    # bula is written on the offender; bula taken off (pad skinut) on the innocent defender
    assert favours_its_player(preferans, "pad_skinut") and not favours_its_player(preferans, "bula")
