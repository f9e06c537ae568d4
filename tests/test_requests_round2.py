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


def test_a_loss_asked_larger_than_the_rules_give_is_granted_in_part(tmp_path):
    """The game lost is given, at -96, not at the -144 asked: granted in part, saying what is
    given and what not (blind walk 8, s1: it read "refused")."""
    ruling = rule_case(tmp_path, "skat", {"answers": TOO_FEW, "requests": [
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -144},
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -96},
        {"party": "opponent_1", "asks": "effect:game_lost", "on": "soloist", "amount": -48}]})
    assert [e.amount for e in ruling.result.entries] == [-96]
    assert _answers(ruling) == [("granted", "less", -96), ("granted", "granted", None),
                                ("granted", "granted", None)]
    assert ruling.requests[0].to_dict()["in_part"] is True
    assert ("granted in part — given: −96 points (4.2.6); not given: the rest of the −144 points asked"
            in render(ruling, "text"))
    assert ("uwzględnione częściowo – uwzględnione: −96 punktów (pkt. 4.2.6); nieuwzględnione: pozostała "
            "część żądania (−144 punkty)") in render(ruling, "text", lang="pl")


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


# bridge 30B1: South passed out of turn at his right-hand opponent's turn, after 1H opened
PASS_AT_RHO = {"deal_stage": "auction", "claim": ["pass-out-of-turn"], "offender": "S",
               "l30_out_of_turn": True, "l30_bid_before": True, "l30_conventional": False,
               "l30_turn": "rho", "l30_suit_shown": False, "l11_lho_acted": False,
               "l11_attention": "player", "l11a_gain": False}


def test_an_obligation_asked_for_longer_than_the_article_gives_is_refused(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": PASS_AT_RHO, "requests": [
        {"party": "E", "asks": "effect:forced_pass", "on": "S", "scope": "rest_of_auction",
         "text": "South must pass for the whole auction"},
        {"party": "E", "asks": "effect:forced_pass", "on": "S", "scope": "next_turn"},
        {"party": "E", "asks": "effect:forced_pass", "on": "S"}]})
    line = next(p for f in ruling.findings for p in f.penalty if p.effect == "forced_pass")
    assert (line.player, line.scope) == ("S", "next_turn")
    assert _answers(ruling) == [("refused", "scope", "next_turn"), ("granted", "granted", None),
                                ("granted", "granted", None)]
    assert ruling.requests[0].to_dict()["scope"] == "rest_of_auction"
    assert ruling.requests[0].reason["en"].startswith(
        "refused: the rules give it at his next turn only, not at every remaining turn of the auction (")
    text = render(ruling, "text")
    assert ("forced pass (the player must pass), at every remaining turn of the auction, concerning: South"
            in text)
    assert ("refused — the rules give it at his next turn only, not at every remaining turn of the "
            "auction (") in text
    assert "по правилам это полагается только в свою следующую очередь, а не в каждую оставшуюся" \
        in render(ruling, "text", lang="ru")


def test_a_pass_for_the_rest_of_the_auction_is_granted_where_the_article_gives_it(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": {**PASS_AT_RHO, "l30_turn": "partner"}, "requests": [
        {"party": "E", "asks": "effect:forced_pass", "on": "S", "scope": "rest_of_auction"}]})
    assert [p.scope for f in ruling.findings for p in f.penalty if p.effect == "forced_pass"] \
        == ["rest_of_auction"]
    assert _answers(ruling) == [("granted", "granted", None)]


def test_a_scope_the_effect_does_not_declare_is_refused_with_a_message(tmp_path):
    import pytest

    from referee.expert.language.errors import RefereeError
    with pytest.raises(RefereeError, match="request scope 'whole_game', expected one of next_turn, "
                                           "rest_of_auction"):
        rule_case(tmp_path, "bridge", {"answers": PASS_AT_RHO, "requests": [
            {"party": "E", "asks": "effect:forced_pass", "on": "S", "scope": "whole_game"}]})


def test_the_interview_asks_how_long_an_obligation_is_asked_for():
    from referee.expert.interview.session import Session
    from referee.expert.language.rulebook import load_rulebook

    session = Session(load_rulebook("bridge"), enter_cards=False)
    session.events = [PASS_AT_RHO]
    session.draft = {"party": "E", "asks": "effect:forced_pass", "on": "S"}
    prompt = session._request_prompt()
    assert prompt.kind == "request_scope"
    assert [(o.value, o.label) for o in prompt.options] == [
        ("next_turn", "at his next turn only"), ("rest_of_auction", "at every remaining turn of the auction")]
    session._answer_request_scope(prompt, "2")
    assert session._request_prompt().kind == "request_text"     # no amount for a forced pass
    session._answer_request_text(session._request_prompt(), "for the whole auction")
    assert session.requests[-1].scope == "rest_of_auction"
    assert session.requests[-1].to_dict()["scope"] == "rest_of_auction"
