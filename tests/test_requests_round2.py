"""Requests compared with what the player asked, not only with the kind of effect (blind walk 5,
bridge and skat): the amount asked for a loss (skat 4.2.6: -144 asked, -96 given), the result
as played on a sheet that writes only the soloist's line (skat 4.2.5 / 4.2.4: open while the
alternatives answer it differently), and how long an obligation lasts (bridge 30B1: the next turn
only, not the whole auction)."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

# skat 4.2.6: the soloist held too few cards; the opponents cannot prove the Schneider they claim
TOO_FEW = {"game_type": "grand", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
           "announced": "none", "bid": 24, "claim": ["wrong-card-count"], "offender": "soloist",
           "count_wrong": True, "deal_correct": True, "proven_level": "unknown"}

# skat 4.2.5 / 4.2.4 + 4.1.4: a revoke found after the game; nobody knows whether the cards were mixed
LATE_REVOKE = {"game_type": "hearts", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
               "announced": "none", "required_level": "none", "bid": 20, "played_out": True,
               "final_soloist_points": 55, "claim": ["revoke"], "offender": "opponent_2",
               "could_follow": True, "revoke_found": "after_game", "cards_mixed": "unknown",
               "points_counted": True, "soloist_points": 14, "opponents_points": 11}


def _answers(ruling):
    return [(r.answer, r.cause, r.given) for r in ruling.requests]


def test_a_loss_asked_larger_than_the_rules_give_is_refused(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": TOO_FEW, "requests": [
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -144},
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -96},
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -48}]})
    assert [e.amount for e in ruling.result.entries] == [-96]
    assert _answers(ruling) == [("refused", "less", -96), ("granted", "granted", None),
                                ("granted", "granted", None)]
    assert "refused — the rules give −96 points, not −144 points" in render(ruling, "text")
    assert "przepisy dają −96 punktów, nie −144 punkty" in render(ruling, "text", lang="pl")


def test_the_result_as_played_asked_by_an_opponent_stays_open_on_the_unknown_fact(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": LATE_REVOKE, "requests": [
        {"party": "soloist", "asks": "effect:game_won"},
        {"party": "opponent_1", "asks": "stands"}]})
    assert len(ruling.alternatives) == 2
    assert [r.answer for r in ruling.requests] == ["undecided", "undecided"]
    stands = ruling.requests[1]
    # it says on which alternative it is met
    assert "cards_mixed = True: granted" in stands.reason["en"]
    assert "cards_mixed = False: refused" in stands.reason["en"]
    assert stands.branches == ["granted", "refused"]
    assert stands.to_dict()["alternatives"] == ["granted", "refused"]
    text = render(ruling, "text")
    assert "Answer to the request: granted" not in text
    # the signed page says on which alternative each request is met, in every language
    assert ("The request remains open — it depends on facts not established: alternative 1: granted; "
            "alternative 2: refused.") in text
    assert "wariant 1: uwzględnione; wariant 2: oddalone" in render(ruling, "text", lang="pl")


def test_the_result_as_played_is_granted_to_an_opponent_when_the_sheet_is_as_played(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": {**LATE_REVOKE, "cards_mixed": True}, "requests": [
        {"party": "opponent_1", "asks": "stands"}, {"party": "soloist", "asks": "stands"}]})
    assert [r.answer for r in ruling.requests] == ["granted", "granted"]
    ruling = rule_case(tmp_path, "skat", {"answers": {**LATE_REVOKE, "cards_mixed": False}, "requests": [
        {"party": "opponent_1", "asks": "stands"}]})
    assert [r.answer for r in ruling.requests] == ["refused"]


def test_the_request_menu_is_numbered_alike_whatever_the_claims_and_marks_the_likely_ones():
    from referee.expert.console.prompt import _show
    from referee.expert.interview.session import Session
    from referee.expert.language.rulebook import load_rulebook

    book = load_rulebook("bridge")
    session = Session(book, enter_cards=False)
    menus = {}
    for claim in (["pass-out-of-turn"], ["play"], ["wrong-board"]):
        session.events = [{"claim": claim, "offender": "S"}]
        menus[claim[0]] = session.request_options()
    values = [[o.value for o in menu] for menu in menus.values()]
    # the same number picks the same request in every context (blind walk 5, B2: forced pass
    # was 6 in one menu and 5 in another)
    assert values[0] == values[1] == values[2]
    marked = {k: {o.value for o in menu if o.likely} for k, menu in menus.items()}
    assert "effect:forced_pass" in marked["pass-out-of-turn"]
    assert "effect:forced_pass" not in marked["wrong-board"]
    session.events = [{"claim": ["pass-out-of-turn"], "offender": "S"}]
    session.draft = {"party": "E"}
    prompt = session._request_prompt()
    assert any(o.get("likely") for o in prompt.to_dict()["options"])
    lines: list[str] = []
    _show(session, prompt, lines.append)
    n = values[0].index("effect:forced_pass") + 1
    assert any(line.startswith(f"  {n}. * forced pass") for line in lines), lines
    assert "  * what the findings on the claims made can give" in lines
