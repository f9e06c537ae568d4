"""What an earlier event's finding establishes for the later events of a dispute
(engine/carried.py; knowledge/README.md, "What an earlier event establishes").

Bridge: West passes out of turn at East's turn after North's 1♥ (Law 30B2); East then doubles at
that turn. 30B2b bars the double, so Law 36 cancels it, without the Director being asked whether
Law 19 permits such a double (the honest answer, yes, used to let the double stand)."""
from __future__ import annotations

import pytest

from case_helpers import rule_case
from referee.expert.engine.carried import answers_from, carried_by, forward
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import open_questions
from referee.expert.interview.session import Session
from referee.expert.language.dispute import Dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import load_rulebook

PASS_AT_PARTNERS_TURN = {"claim": ["pass-out-of-turn"], "offender": "W", "l30_out_of_turn": True,
                         "l30_conventional": False, "l30_bid_before": True, "l30_turn": "partner",
                         "l11_lho_acted": False, "l11_attention": "player", "l11a_gain": False}
# the double 30B2b bars is made at the doubler's own turn: whether it was out of turn is not asked
DOUBLE_BY = {"claim": ["inadmissible-double"], "l11_lho_acted": False,
             "l11_attention": "player", "l11a_gain": False, "l26_auction_over": False}


@pytest.fixture(scope="module")
def book():
    return load_rulebook("bridge")


def _findings(ruling):
    return sorted((f.event, f.production, tuple((p.player, p.effect) for p in f.penalty))
                  for f in ruling.findings)


def test_the_double_barred_by_30b2b_is_cancelled_under_law_36_through_the_case_file(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [PASS_AT_PARTNERS_TURN, {**DOUBLE_BY, "offender": "E", "l36_barred_turn": True}]})
    found = _findings(ruling)
    assert (1, "l36-cancel-and-penalise", (("E", "call_cancelled"), ("W", "forced_pass"))) in found
    assert not any(p == "l36-permitted" for _, p, _ in found)
    assert ruling.open_questions == []
    # the facts say why: the earlier event's bar, in the event it bears on
    assert ruling.events[1]["l36_barred_earlier"] is True
    assert "l36_permitted" not in ruling.events[1]


def test_a_double_at_a_later_turn_is_a_question_for_law_19(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [PASS_AT_PARTNERS_TURN, {"claim": ["inadmissible-double"], "offender": "E",
                                           "l36_barred_turn": False, "l36_permitted": True}]})
    assert [p for e, p, _ in _findings(ruling) if e == 1] == ["l36-permitted"]


def test_nothing_is_carried_from_a_pass_at_rhos_turn_nor_to_another_player(tmp_path):
    rho = {**PASS_AT_PARTNERS_TURN, "l30_turn": "rho", "l30_suit_shown": False}
    for first, doubler in ((rho, "E"), (PASS_AT_PARTNERS_TURN, "N"), (PASS_AT_PARTNERS_TURN, "S")):
        ruling = rule_case(tmp_path, "bridge", {
            "answers": {"deal_stage": "auction"},
            "events": [first, {"claim": ["inadmissible-double"], "offender": doubler, "l36_permitted": True}]})
        assert "l36_barred_earlier" not in ruling.events[1]
        assert [p for e, p, _ in _findings(ruling) if e == 1] == ["l36-permitted"]


def test_nothing_is_carried_backwards_or_by_a_finding_set_aside(book, tmp_path):
    # the double first, then the pass out of turn: the pass cannot bar what came before it
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [{"claim": ["inadmissible-double"], "offender": "E", "l36_permitted": True},
                   PASS_AT_PARTNERS_TURN]})
    assert "l36_barred_earlier" not in ruling.events[0]
    # West's LHO called over the pass out of turn: 11B takes the penalty away, and the bar with it
    lost = {**PASS_AT_PARTNERS_TURN, "l11_lho_acted": True, "l11d_procedural": False}
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [lost, {"claim": ["inadmissible-double"], "offender": "E", "l36_permitted": True}]})
    assert "l36_barred_earlier" not in ruling.events[1]


def test_a_call_by_a_player_an_earlier_event_obliged_to_pass_is_cancelled_under_law_37(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [PASS_AT_PARTNERS_TURN,
                   {"claim": ["call-while-barred"], "offender": "W", "l11_lho_acted": False,
                    "l11_attention": "player", "l11a_gain": False, "l26_auction_over": False}]})
    assert ruling.open_questions == []                       # l37_obliged is not asked
    assert (1, "l37-cancel-and-penalise",
            (("W", "call_cancelled"), ("W", "forced_pass"), ("E", "forced_pass"))) in _findings(ruling)
    # a one-turn obligation (30B1) binds only his next turn: a call at a later turn is not bound
    rho = {**PASS_AT_PARTNERS_TURN, "l30_turn": "rho", "l30_suit_shown": False}
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [rho, {"claim": ["call-while-barred"], "offender": "W", "l37_at_next_turn": False,
                         "l37_obliged": False}]})
    assert [p for e, p, _ in _findings(ruling) if e == 1] == ["l37-not-obliged"]
    # ... and at that very turn the earlier penalty binds him: Law 37, l37_obliged not asked
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [rho, {"claim": ["call-while-barred"], "offender": "W", "l37_at_next_turn": True,
                         "l11_lho_acted": False, "l11_attention": "player", "l11a_gain": False,
                         "l26_auction_over": False}]})
    assert ruling.open_questions == []
    assert "l37-cancel-and-penalise" in [p for e, p, _ in _findings(ruling) if e == 1]


def test_the_interview_asks_the_turn_not_law_19(book):
    """The interview of the later event: it asks whether the double was at the barred turn, and
    never whether Law 19 permits it."""
    session = Session.resume(book, {"answers": {"deal_stage": "auction"},
                                    "events": [PASS_AT_PARTNERS_TURN,
                                               {"claim": ["inadmissible-double"], "offender": "E"}]})
    while (prompt := session.next()).kind == "name":
        session.answer("")                          # the players' names left out
    assert (prompt.id, prompt.event) == ("l36_barred_turn", 1)
    session.answer("yes")
    asked = []
    while (prompt := session.next()) is not None and prompt.kind == "question":
        asked.append(prompt.id)
        answer = {"l11_lho_acted": "no", "l11_attention": "player",
                  "l11a_gain": "no", "l26_auction_over": "no"}.get(prompt.id)
        assert answer is not None, prompt.id
        session.answer(answer)
    assert "l36_permitted" not in asked and "l36_out_of_turn" not in asked
    assert session.events[1]["l36_barred_turn"] is True            # not pruned away
    assert ("l36-cancel-and-penalise", 1) in {(f.production, f.event) for f in session.rule().findings}


def test_open_questions_read_what_earlier_events_carry(book):
    dispute = Dispute({"deal_stage": "auction"}, [PASS_AT_PARTNERS_TURN,
                                                  {"claim": ["inadmissible-double"], "offender": "E"}])
    assert "l36_barred_turn" in open_questions(book, dispute)
    assert "l36_permitted" not in open_questions(book, dispute)


def test_carried_answers_follow_the_seat_of_each_event(book):
    carried = carried_by(book, ["l30b2-at-partner-turn"], {"offender": "W"})
    assert carried == [("l36_barred_earlier", "E", True), ("l37_obliged_earlier", "W", True)]
    assert carried_by(book, ["l30b1-at-rho-turn"], {"offender": "W"}) == [("l37_next_turn_earlier", "W", True)]
    assert answers_from(book, carried, {"offender": "E"}) == {"l36_barred_earlier": True}
    assert answers_from(book, carried, {"offender": "W"}) == {"l37_obliged_earlier": True}
    assert answers_from(book, carried, {"offender": "S"}) == {}
    assert answers_from(book, carried, {}) == {}             # whom it is about not known yet
    answers, rulings = forward(Ruler(book), [PASS_AT_PARTNERS_TURN, {**DOUBLE_BY, "offender": "E"}])
    assert answers[1]["l36_barred_earlier"] is True and len(rulings) == 2


def _mini(tmp_path, production_extra: str, question_extra: str = ""):
    root = tmp_path / "kb" / "mini"
    (root / "articles").mkdir(parents=True)
    (root / "rulebook.yaml").write_text(
        "game: mini\ntitle: {en: Mini}\nlanguage: en\nseats:\n  - {id: a, label: {en: A}}\n"
        "  - {id: b, label: {en: B}}\neffects:\n  pen: {label: {en: pen}, unit: {en: [point, points]}}\n",
        encoding="utf-8")
    (root / "questions.yaml").write_text(
        "- id: claim\n  type: multi\n  text: {en: What?}\n  fact: {en: Claimed}\n  values:\n"
        "    - {value: x, label: {en: x}}\n"
        "- id: who\n  type: seat\n  text: {en: Who?}\n  fact: {en: Who}\n"
        "- id: barred\n  type: yesno\n  text: {en: Barred?}\n  fact: {en: {yes: Barred., no: Not barred.}}\n"
        + question_extra, encoding="utf-8")
    (root / "articles" / "a1.yaml").write_text(
        "article: Art 1\ntitle: {en: One}\nprovisions:\n  - {id: mini:1, label: Art 1, kind: penalty,"
        " penalty_bearing: true, quote: q, english: e}\nproductions:\n  - id: p1\n    cites: [mini:1]\n"
        "    when: {q: claim, has: x}\n    then:\n      finding:\n        kind: violation\n        claim: x\n"
        "        summary: {en: s}\n        penalty: [{player: {answer: who}, effect: pen, amount: 1}]\n"
        + production_extra, encoding="utf-8")
    return root.parent


@pytest.mark.parametrize("production_extra, question_extra, message", [
    ("        carries: [{question: barred, seat: {answer: who}}]\n", "",
     "naming a question marked from_earlier"),
    ("        carries: [{question: barred}]\n", "  from_earlier: {seat: {answer: who}}\n",
     "give a seat exactly when"),
    ("", "  from_earlier: {seat: {answer: nobody}}\n", "from_earlier: seat reference reads unknown question"),
])
def test_check_refuses_a_bad_carry(tmp_path, production_extra, question_extra, message):
    root = _mini(tmp_path, production_extra, question_extra)
    with pytest.raises(RefereeError) as exc:
        load_rulebook("mini", root)
    assert message in str(exc.value)


def test_check_warns_of_a_question_from_earlier_that_nothing_carries(tmp_path):
    from referee.expert.language.problems import Problems
    root = _mini(tmp_path, "", "  from_earlier: {seat: {answer: who}}\n")
    problems = Problems()
    load_rulebook("mini", root, problems=problems)
    assert not problems.errors
    assert any("no finding carries it" in p.message for p in problems.warnings)


def test_from_earlier_is_refused_on_a_question_that_is_not_yes_no(tmp_path):
    root = _mini(tmp_path, "", "- id: how\n  type: number\n  text: {en: How many?}\n  fact: {en: Count}\n"
                               "  from_earlier: true\n")
    with pytest.raises(RefereeError) as exc:
        load_rulebook("mini", root)
    assert "from_earlier must be true or {seat: REF} on a yesno question" in str(exc.value)


def test_a_carried_question_without_a_seat_reaches_every_later_event(tmp_path):
    """``from_earlier: true``: whoever the later event is about, the earlier finding decides it."""
    root = _mini(tmp_path, "        carries: [{question: barred}]\n", "  from_earlier: true\n")
    book = load_rulebook("mini", root)
    answers, _ = forward(Ruler(book), [{"claim": ["x"], "who": "a"}, {"claim": ["x"], "who": "b"}])
    assert "barred" not in answers[0] and answers[1]["barred"] is True


def test_referee_rule_on_the_blind_testers_dispute(tmp_path):
    """The dispute as the blind tester entered it, through `referee rule`: East's double is
    cancelled under Law 36 in event 2, with the earlier event's bar among its facts."""
    import json

    import yaml
    from click.testing import CliRunner

    from referee.cli import main
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump({
        "game": "bridge", "answers": {"deal_stage": "auction"},
        "events": [PASS_AT_PARTNERS_TURN, {**DOUBLE_BY, "offender": "E", "l36_barred_turn": True}]},
        allow_unicode=True), encoding="utf-8")
    result = CliRunner().invoke(main, ["rule", str(case), "--no-register", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert ["bridge:36"] in [f["provisions"] for f in data["findings"]]
    double = next(f for f in data["findings"] if f["provisions"] == ["bridge:36"])
    assert double["penalty"][0] == {"player": "E", "effect": "call_cancelled", "amount": None}
    text = CliRunner().invoke(main, ["rule", str(case), "--no-register"]).output
    assert "Event 2: An earlier irregularity in this auction barred this player from doubling" in text
    assert "Law 19 permits" not in text


def test_referee_questions_says_which_questions_are_answered_from_earlier_events():
    import json

    from click.testing import CliRunner

    from referee.cli import main
    text = CliRunner().invoke(main, ["questions", "bridge"]).output
    assert ("l36_barred_earlier (yesno): Had an earlier irregularity in this auction barred this player"
            in text)
    after = text.split("l36_barred_earlier (yesno):")[1].splitlines()[1]
    assert after.strip().startswith("never asked: answered from what the earlier events")
    rows = json.loads(CliRunner().invoke(main, ["questions", "bridge", "--format", "json"]).stdout)
    by_id = {r["id"]: r for r in rows}
    assert by_id["l36_barred_earlier"]["from_earlier"] is True
    assert by_id["l36_permitted"]["from_earlier"] is False


# --- an earlier event's alternatives: a carried obligation follows each of them ----------------
# West passes at East's turn; nobody can establish whether the pass was conventional (30B2 if not;
# 30C -> Law 31, absent, if so); West later bids while (perhaps) barred.
UNKNOWN_CONVENTIONAL = {**PASS_AT_PARTNERS_TURN, "l30_conventional": "unknown"}
BID_BY_WEST = {"claim": ["call-while-barred"], "offender": "W", "l11_lho_acted": False,
               "l11_attention": "player", "l11a_gain": False, "l26_auction_over": False}


def _by_alternative(ruling):
    return {str(alt.when): sorted((f.event, f.production) for f in alt.findings) for alt in ruling.alternatives}


def test_an_undecided_earlier_finding_carries_unknown(book):
    conventional = {**PASS_AT_PARTNERS_TURN, "l30_conventional": True}
    carried = carried_by(book, ["l30c-conventional"], conventional)
    assert carried == [("l37_obliged_earlier", "W", "unknown"), ("l37_obliged_earlier", "E", "unknown"),
                       ("l36_barred_earlier", "E", "unknown")]
    assert answers_from(book, carried, {"offender": "W"}) == {"l37_obliged_earlier": "unknown"}
    # a "yes" another event carries prevails over an undecided one
    both = carried + [("l37_obliged_earlier", "W", True)]
    assert answers_from(book, both, {"offender": "W"}) == {"l37_obliged_earlier": True}


def test_law_37_follows_each_alternative_of_the_earlier_pass(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": {"deal_stage": "auction"},
                                            "events": [UNKNOWN_CONVENTIONAL, BID_BY_WEST]})
    assert ruling.open_questions == []               # l37_obliged is asked under neither alternative
    alts = {tuple(p for e, p in found if e == 1) for found in _by_alternative(ruling).values()}
    # not conventional: 30B2a obliged West to pass, Law 37 applies; conventional: Law 31 is absent,
    # so whether he was obliged is undecided, and so is Law 37 (never applied outright)
    assert ("l37-undecided-earlier",) in alts
    assert any("l37-cancel-and-penalise" in a for a in alts)
    assert not any(f.production == "l37-cancel-and-penalise" for f in ruling.findings)
    conventional = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [{**PASS_AT_PARTNERS_TURN, "l30_conventional": True}, BID_BY_WEST]})
    assert [(f.kind, f.production) for f in conventional.findings if f.event == 1] == \
        [("undecided", "l37-undecided-earlier")]


def test_an_answer_to_l37_obliged_given_anyway_does_not_decide_the_undecided_alternative(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {
        "answers": {"deal_stage": "auction"},
        "events": [{**PASS_AT_PARTNERS_TURN, "l30_conventional": True}, BID_BY_WEST]})
    assert "l37_obliged" not in ruling.events[1]


def test_the_interview_chooses_the_later_questions_over_the_earlier_alternatives(book):
    ruler = Ruler(book)
    from referee.expert.engine.carried import with_carried
    got = with_carried(ruler, [UNKNOWN_CONVENTIONAL, {"claim": ["call-while-barred"], "offender": "W"}])
    assert got[1]["l37_obliged_earlier"] == "unknown"          # carried in both, decided in one
    # an earlier fact on which one alternative carries and another does not: nothing is carried,
    # so what it gates is still asked for the alternative that needs it
    turn = {**PASS_AT_PARTNERS_TURN, "l30_turn": "unknown", "l30_suit_shown": False}
    got = with_carried(ruler, [turn, {"claim": ["call-while-barred"], "offender": "W"}])
    assert "l37_obliged_earlier" not in got[1]
    session = Session.resume(book, {"answers": {"deal_stage": "auction"},
                                    "events": [UNKNOWN_CONVENTIONAL,
                                               {"claim": ["call-while-barred"], "offender": "W"}]})
    asked = []
    while (prompt := session.next()) is not None and prompt.kind in ("name", "question"):
        if prompt.kind == "question":
            asked.append(prompt.id)
            assert prompt.id != "l37_obliged"
        session.answer({"l11_lho_acted": "no", "l11_attention": "player", "l11a_gain": "no",
                        "l26_auction_over": "no"}.get(prompt.id, ""))
    assert ("l37-undecided-earlier", 1) in {(f.production, f.event) for a in session.rule().alternatives
                                            for f in a.findings}
