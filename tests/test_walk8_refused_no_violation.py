"""Blind walk 8 (bp, b3 and p3): a request refused where the deciding article finds no violation
says so ("no violation is established (Law 48A), so nothing of this follows"), not merely "no
article applied gives this"; a request refused while a violation does stand keeps the plain
wording (the violation's penalty is not what was asked)."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

# b3: declarer dropped a card face up during the play; East asks that it be a penalty card
B3 = {"deal_stage": "play", "declarer": "S", "claim": ["play"], "play_claim": ["declarer-exposed"],
      "l48_how": "dropped"}
PENALTY_CARD = {"party": "E", "asks": "effect:penalty_card", "on": "S", "event": 1}


def _requests_part(text: str) -> str:
    return text.split("REQUESTS OF THE PLAYERS")[1].split("SIGNATURES")[0]


def test_a_request_the_no_violation_finding_refuses_says_no_violation_is_established(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": B3, "requests": [PENALTY_CARD]})
    [r] = ruling.requests
    assert (r.answer, r.cause, r.no_violation) == ("refused", "not-given", True)
    assert [f.kind for f in ruling.findings] == ["no-violation"]
    text = _requests_part(render(ruling, "text"))
    assert "refused — no violation is established (Правило 48A), so nothing of this follows" in text
    assert "no article applied gives this" not in text
    ru = render(ruling, "text", lang="ru")
    assert "отклонено — нарушение не установлено (правило 48A), поэтому ничего из этого не следует" in ru


def test_a_request_refused_beside_a_violation_keeps_the_plain_wording(tmp_path):
    # a defender's card exposed (Law 49/50: a penalty card): asking the play to stop is not what
    # the violation's penalty gives, and a violation is established
    answers = {"deal_stage": "play", "declarer": "S", "claim": ["play"], "play_claim": ["defender-exposed"]}
    ruling = rule_case(tmp_path, "bridge", {"answers": answers, "requests": [
        {"party": "S", "asks": "effect:artificial_adjusted_score", "event": 1}]})
    [r] = ruling.requests
    assert r.answer == "refused" and not r.no_violation
    assert "no violation is established" not in _requests_part(render(ruling, "text"))
