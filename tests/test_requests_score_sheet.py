"""A player's request is answered from what the ruling's own score sheet writes (blind walk 5, P4:
a defender asked that he "writes supe" against the partner who did not lead a club; the ruling
wrote exactly that, as tricks charged "written as supe", and answered the request "refused")."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

# Član 9, stav 3, tačka 5: on sans the partner called, held a club and did not lead one
CALLED_SANS = {"game": "sans", "game_mode": "talon", "claim": ["bad-lead"],
               "lead_kind": "sans-called", "sans_partner_bid": False, "holds_suit": True,
               "led_suit": False, "gentlemen": False, "contra_level": "none",
               "lead_offender": "defender_1"}
HEADER = {"players": {"declarer": "Sava", "defender_1": "Zoran", "defender_2": "Milan"}}


def _ruled(tmp_path, tricks, *requests):
    return rule_case(tmp_path, "preferans", {"header": HEADER,
                                             "answers": {**CALLED_SANS, "lost_tricks": tricks},
                                             "requests": list(requests)})


def _answers(ruling):
    return [(r.answer, r.cause, r.given) for r in ruling.requests]


def test_supe_asked_are_granted_by_tricks_charged_written_as_supe(tmp_path):
    ruling = _ruled(tmp_path, 4,
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1"},
                    # the same, in the sheet's amount: 4 tricks x sans 14 = 56 supe
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1", "amount": 56},
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1", "amount": 60},
                    # on the declarer: the article writes no supe against him (bez duženja)
                    {"party": "defender_2", "asks": "effect:supe", "on": "declarer"})
    sheet = [(e.player, e.item, e.amount, e.against) for e in ruling.result.entries]
    assert ("defender_2", "supe", 56, "defender_1") in sheet
    assert _answers(ruling) == [("granted", "granted", None), ("granted", "granted", None),
                                ("granted", "less", 56), ("refused", "not-given", None)]
    text = render(ruling, "text")
    # 56 of the 60 asked: granted in part
    assert "granted in part — given: 56 supe (Član 9, stav 3, tačka 5); not given: the rest of the 60 supe asked" in text
    assert text.count("Answer to the request: granted — Član 9, stav 3, tačka 5.") == 2


def test_a_trick_count_known_to_be_one_of_two_gives_each_amount_and_the_requests_follow(tmp_path):
    ruling = _ruled(tmp_path, {"unknown": [4, 5]},
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1"},
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1", "amount": 60},
                    {"party": "defender_2", "asks": "effect:supe", "on": "defender_1", "amount": 80},
                    {"party": "defender_2", "asks": "effect:duzenje", "on": "defender_1", "amount": 5})
    line = next(p for p in ruling.findings[0].penalty if p.effect == "duzenje")
    assert line.amount is None and [a for _, a in line.options] == [4, 5]
    entry = next(e for e in ruling.result.entries if e.item == "supe")
    assert entry.amount is None and [a for _, a in entry.options] == [56, 70]
    assert _answers(ruling) == [("granted", "granted", None), ("undecided", "depends", [56, 70]),
                                ("refused", "less", [56, 70]), ("undecided", "depends", [4, 5])]
    text = render(ruling, "text")
    sheet = text.split("ENTRIES ON THE SCORE SHEET")[1].split("ARTICLES APPLIED")[0]
    assert "+56 (tricks the caller or kontraš would have had after the obligatory lead — 4) or +70 (" in sheet
    # an entry still open: the deal is not said to be settled by these entries
    assert "settled by these entries" not in sheet
    assert "the rules give 56 or 70 supe, not 80 supe" in text


def test_a_settled_deal_with_every_entry_written_says_so(tmp_path):
    text = render(_ruled(tmp_path, 5), "text")
    sheet = text.split("ENTRIES ON THE SCORE SHEET")[1].split("ARTICLES APPLIED")[0]
    assert "+70" in sheet and "The deal is settled by these entries." in sheet
