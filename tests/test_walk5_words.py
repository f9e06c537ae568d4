"""The words of a ruling agree with themselves and with the source text (blind walk 5): the
article set aside is named by the paragraph it is (P2), a claim not examined is not also "no
violation" (P1), the ulti's value reads the same throughout (U1)."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render


def _section(text: str, head: str, end: str) -> str:
    return text.split(head)[1].split(end)[0]


def test_the_in_turn_finding_set_aside_for_the_compound_statement_says_why_it_is_stav_6(tmp_path):
    """Član 7 of the source text: stav 6 is the order of declaring, stav 7 "preko reda", stav 8 one
    statement. The finding set aside (the words came in his turn: no violation) is stav 6's, the
    label is right; the reason given beside it spoke only of stav 7 and read as a wrong label."""
    ruling = rule_case(tmp_path, "preferans", {"answers": {
        "claim": ["out-of-turn", "compound-statement"], "claims_one_act": True, "compound_made": True,
        "deal_contra": "none", "deal_play": "second-alone", "first_declined": True, "first_words": "dođem",
        "game": "herc", "game_mode": "talon", "oot_after_close": False, "oot_before_turn": False,
        "oot_offender": "defender_2", "tricks_first": 1, "tricks_second": 3}})
    decision = _section(render(ruling, "text"), "DECISION", "ENTRIES ON THE SCORE SHEET")
    assert ('2. Član 7, stav 6: set aside — Član 7, stav 8 prevails. One statement, two articles: the '
            'claim of a statement "preko reda" (stav 7, judged by the order of declaring of stav 6, whose '
            'finding is the one set aside when the words came in his turn) and stav 8.') in decision


def test_a_later_claim_not_examined_under_clan_22_is_not_also_no_violation(tmp_path):
    ruling = rule_case(tmp_path, "preferans", {
        "answers": {"game": "tref", "game_mode": "talon"},
        "events": [{"claim": ["out-of-turn"], "contra_level": "none", "oot_before_turn": True,
                    "oot_offender": "defender_2"},
                   {"claim": ["bad-lead"]}]})
    text = render(ruling, "text")
    assert "— not examined — raised after an earlier violation (Član 7, stav 7)" in \
        _section(text, "CLAIMED BUT NOT ESTABLISHED", "\nREASONING\n")
    reasoning = _section(text, "\nREASONING\n", "TECHNICAL RECORD")
    assert "Član 7, stav 7 — violation established" in reasoning
    assert "no violation" not in reasoning and "event 2" not in reasoning


def test_the_ulti_is_valued_four_units_throughout(tmp_path):
    ruling = rule_case(tmp_path, "ulti", {"answers": {
        "game_kind": "colour", "trump": "tok", "claim": ["revoke"], "booked": False, "offender": "defender_1",
        "revoke_kind": "not-follow", "could_comply": True, "card_visible": True, "st_parti": "not-bid",
        "st_negyvenszaz": "open", "st_huszszaz": "not-bid", "st_ulti": "lost", "st_durchmars": "not-bid",
        "st_teritett_durchmars": "not-bid"}})
    text = render(ruling, "text")
    assert "ulti 4 (the table writes it '4+1': the 1 is the parti" in text
    assert "ulti 4+1," not in text
