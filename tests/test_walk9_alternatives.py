"""Blind walk 9 (ps, P2): a failed kontra, the kontraš asks that his partner take his bula for a
weak dolaz; whether the contra was hopeless and whether the dolaz caused the fall nobody can
establish. Every alternative refuses the claim with the same entries: the decision says the
outcome does not depend on those facts, and no alternative's heading reads "yes or no"."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

P2 = {"deal_play": "both", "game": "tref", "game_mode": "talon",
      "kontras": "defender_1", "tricks_first": 2, "tricks_second": 1, "kontras_three": False,
      "kontras_no_trump": False, "deal_contra": "kontra", "claim": ["bad-dolaz"], "contra_level": "kontra",
      "dolaz_offender": "defender_2", "dolaz_situation": "lider-only", "holding_lider": ["none"],
      "no_trump": False, "partner_play_error": False, "borderline": True, "contra_hopeless": "unknown",
      "claimant_dolaz": "regular", "dolaz_caused_fall": "unknown", "partner_kontras": True}


def test_alternatives_with_one_outcome_say_the_outcome_does_not_depend_on_the_open_facts(tmp_path):
    ruling = rule_case(tmp_path, "preferans", {"answers": P2})
    assert len(ruling.alternatives) > 1 and ruling.result is not None
    text = render(ruling, "text")
    decision = text[text.index("DECISION"):text.index("ENTRIES ON THE SCORE SHEET")]
    assert "The outcome is the same whichever way the facts that could not be established go" in decision
    assert "The ruling depends on facts" not in decision
    assert "yes or no" not in decision
    sr = render(ruling, "text", lang="sr")
    assert "Ishod je isti kako god da stoje činjenice" in sr


def test_alternatives_with_different_penalties_still_say_the_ruling_depends_on_them(tmp_path):
    # bridge (walk 9, B1): a claim with a trump out; whether the claimer mentioned it nobody
    # knows: one trick to the defenders (70C) or the claim stands. The outcome is open.
    answers = {"deal_stage": "finished", "contract_level": 4, "contract_strain": "spades",
               "contract_doubled": "undoubled", "declarer": "S", "vulnerability": "none", "declarer_tricks": 10,
               "claim": ["claim-concession"], "l70_issues": ["outstanding-trump"], "l70c_mentioned": "unknown",
               "l70c_unaware": True, "l70c_normal_loss": True, "l70_tricks_lost": 1, "l70_claimer": "S"}
    ruling = rule_case(tmp_path, "bridge", {"answers": answers})
    assert len(ruling.alternatives) == 2
    text = render(ruling, "text")
    assert "The ruling depends on facts that could not be established" in text
    assert "The outcome is the same" not in text
    # the reasons give each alternative's finding its reasons, 70C's trick transfer among them
    reasons = text[text.index("REASONING"):]
    assert "1. Правило 70C1 — no violation" in reasons and "2. Правило 70C — settlement" in reasons
