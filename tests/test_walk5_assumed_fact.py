"""A fact nobody could establish, settled by the answer the rulebook prescribes for that case,
is said in the decision itself as not established, with what was assumed and the article (blind
walk 5, U3: the decision stated "the bid had not been said clearly" as a fact; the doubt was
only in the annex)."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

EARLY_SPEECH = {"claim": ["early-speech"], "booked": False, "phase": "bidding",
                "offender": "declarer", "spoke_early": True}


def _decision(tmp_path, prev_clear) -> str:
    ruling = rule_case(tmp_path, "ulti", {"answers": {**EARLY_SPEECH, "prev_clear": prev_clear}})
    return render(ruling, "text").split("DECISION")[1].split("ENTRIES ON THE SCORE SHEET")[0]


def test_a_fact_settled_by_the_rules_presumption_is_said_so_in_the_decision(tmp_path):
    decision = _decision(tmp_path, "unknown")
    first = decision.split("\n  2.")[0]
    # what was not established comes first, then what follows from the rule for that case
    # (blind walk 8, U3: the finding says the violation is not established, not "no violation")
    assert ("Renonszok 1. pont, 2. mondat: Violation not established (not proven). It was not established "
            "that the bid of the player sitting before him was said clearly and intelligibly; for that case "
            "the rules (Renonszok, záró rész, 2. bekezdés) take it that the bid of the player sitting before "
            "him was not said clearly and intelligibly (") in first
    assert first.index("It was not established") < first.index("Not a renonsz")


def test_the_same_fact_established_is_stated_without_a_presumption(tmp_path):
    decision = _decision(tmp_path, False)
    assert "Not a renonsz" in decision and "not established" not in decision
    assert "Violation not established" not in render(
        rule_case(tmp_path, "ulti", {"answers": {**EARLY_SPEECH, "prev_clear": False}}), "text")
