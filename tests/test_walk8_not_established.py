"""Blind walk 8 (su, U3): a fact nobody could establish, whose answer the text prescribes for that
case (ulti: the points are handed over only once the renonsz "has become unambiguous"), does not
make a finding of "no violation": the violation is NOT ESTABLISHED (not proven), the finding says
so, citing the provision that prescribes the default, and that provision is among the articles
applied with its quote. The same fact established says "No violation", as before."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports import document
from referee.reports.render import render

# U3: a defender's remark to his partner; whether it informed him nobody can establish
TABLE_TALK = {"played_out": False, "claim": ["information"], "booked": False, "phase": "play",
              "info_offender": "defender_2"}
NAMES = {"players": {"declarer": "Norbert", "defender_1": "Vilmos", "defender_2": "Endre"}}


def _ruled(tmp_path, helpful):
    return rule_case(tmp_path, "ulti", {"header": NAMES, "answers": {**TABLE_TALK, "info_helpful": helpful}})


def _section(text: str, head: str, until: str) -> str:
    return text.split(head, 1)[1].split(until, 1)[0]


def test_a_violation_resting_on_a_prescribed_default_is_not_established(tmp_path):
    text = render(_ruled(tmp_path, "unknown"), "text")
    decision = " ".join(_section(text, "DECISION", "ENTRIES ON THE SCORE SHEET").split())
    assert decision.startswith("1. Renonszok 3. pont: Violation not established (not proven). It was not "
                               "established that the remark or sign gave his partner information about the "
                               "deal; for that case the rules (Renonszok, záró rész, 2. bekezdés) take it "
                               "that the remark or sign gave his partner no information about the deal (")
    assert "The fact was not established" not in text
    assert "FINDING 1: Renonszok 3. pont — Violation not established (not proven)" in text
    assert "No violation" not in text
    # the paragraph that decides it is applied, and quoted
    applied = _section(text, "ARTICLES APPLIED", "REQUESTS OF THE PLAYERS")
    assert ("- Renonszok, záró rész, 2. bekezdés: “A renonsz egyértelművé válását követően a következők "
            "szerint történik a pontok átadása.”") in applied
    assert "Renonszok, záró rész, 2. bekezdés: ulti:renonsz.settlement" in text      # the technical record
    reasoning = _section(text, "REASONING", "OTHER ARTICLES CONSIDERED")
    assert "Renonszok 3. pont — violation not established (not proven)" in reasoning


def test_in_hungarian_too(tmp_path):
    text = render(_ruled(tmp_path, "unknown"), "text", lang="hu")
    assert "Renonszok 3. pont: szabálysértés nincs megállapítva (nem bizonyított). Nem állapítható meg, hogy" in text
    assert "Renonszok, záró rész, 2. bekezdés: „A renonsz egyértelművé válását követően" in text


def test_the_same_fact_established_is_no_violation(tmp_path):
    ruling = _ruled(tmp_path, False)
    text = render(ruling, "text")
    assert "FINDING 1: Renonszok 3. pont — No violation" in text
    assert "not established" not in _section(text, "DECISION", "ENTRIES ON THE SCORE SHEET")
    assert [a["label"] for a in document.applied(ruling, "en")] == ["Renonszok 3. pont"]


def test_bridge_a_touch_nobody_can_call_unmistakable_is_not_established(tmp_path):
    """Bridge 45C3: whether declarer's touch of dummy's card was unmistakable is not established;
    the text's 'безусловно' settles it: the violation is not established, under 45C3 itself."""
    ruling = rule_case(tmp_path, "bridge", {"answers": {"claim": ["play"], "play_claim": ["dummy-card-touched"],
                                                       "offender": "S", "l45c3_deliberate": "unknown"}})
    text = render(ruling, "text")
    assert "— Violation not established (not proven)" in text
    assert [a["id"] for a in document.applied(ruling, "en")] == ["bridge:45C3"]
    known = rule_case(tmp_path, "bridge", {"answers": {"claim": ["play"], "play_claim": ["dummy-card-touched"],
                                                      "offender": "S", "l45c3_deliberate": False}})
    assert "Violation not established" not in render(known, "text")
