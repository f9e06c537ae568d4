"""Bridge disputes as they happened: several grounds of one act, events, requests (issue 13)."""
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.session import Session
from referee.expert.language.answers import check_all
from referee.expert.language.rulebook import load_rulebook


def test_a_party_may_ask_for_the_effect_a_sub_claim_gives():
    # bridge findings answer the play sub-claim (revoke), not the claim 'play' itself: the trick
    # transfer of 64A1 must still be offered to a party of a revoke dispute
    book = load_rulebook("bridge")
    session = Session(book, enter_cards=False)
    session.events = [{"claim": ["play"], "play_claim": ["revoke"], "offender": "E"}]
    # every effect may be asked for; those the claims made can give are marked
    likely = {o.value for o in session.request_options() if o.likely}
    assert "effect:trick_transfer" in likely and "effect:penalty_card" not in likely
    session.events = [{"claim": ["wrong-board"], "wb_kind": ["board-replayed"]}]
    likely = {o.value for o in session.request_options() if o.likely}
    assert "effect:result_cancelled" in likely and "effect:trick_transfer" not in likely


def test_two_grounds_of_one_act_are_both_ruled():
    book = load_rulebook("bridge")
    answers = check_all({"claim": ["play"], "play_claim": ["dummy-conduct", "lead-out-of-turn"], "offender": "S",
                         "l42_act": "warned-declarer", "l53_out_of_turn": True, "l53_opening": "later",
                         "l53_acceptance": "next-played"}, book)
    ruling = Ruler(book).rule(answers)
    cited = {p for f in ruling.findings for p in f.provisions}
    assert {"bridge:42B2", "bridge:53A"} <= cited
