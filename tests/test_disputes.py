"""A dispute as it happened: events, facts nobody could establish, requests, the result on the
score sheet, the tournament's values, and no ruling on missing facts."""
import json
import re
import shutil

import pytest
import yaml
from click.testing import CliRunner

from conftest import FIXTURES
from referee.cli import main
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.language.dispute import Dispute, Request
from referee.expert.language.rulebook import DEFAULT_ROOT, load_rulebook

DEMO = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
K = ["--knowledge", str(FIXTURES)]


@pytest.fixture(scope="module")
def preferans():
    book = load_rulebook("preferans")
    return book, Ruler(book)


@pytest.fixture(scope="module")
def demo_answers():
    return yaml.safe_load(DEMO.read_text())["answers"]


def run(*args, **kw):
    return CliRunner().invoke(main, list(args), **kw)


def penalties(findings):
    return sorted((f.production, p.player, p.effect, p.amount) for f in findings for p in f.penalty)


FRAME = ("deal_play", "deal_contra", "tricks_first", "tricks_second")     # the hand as played


def told(demo_answers):
    """The demo without the hand as played: the referee says whether the partner fell."""
    return dict({k: v for k, v in demo_answers.items() if k not in FRAME}, partner_fell=True)


def test_an_unknown_fact_that_decides_gives_a_conditional_ruling(preferans, demo_answers):
    book, ruler = preferans
    # without the hand as played, whether the partner fell is the referee's fact to establish
    ruling = rule_dispute(ruler, Dispute(dict(told(demo_answers), partner_fell="unknown")))
    assert ruling.findings == []                       # nothing stands whatever the fact
    branches = {json.dumps(a.when[0]): penalties(a.findings) for a in ruling.alternatives}
    assert branches == {
        '{"partner_fell": true}': [("dolaz-ruled-fall", "defender_1", "pad_skinut", 6),
                                   ("dolaz-ruled-fall", "defender_2", "bula", 6)],
        '{"partner_fell": false}': []}
    [fact] = ruling.unknown
    assert (fact.question, fact.matters) == ("partner_fell", True)
    results = {json.dumps(a.when[0]): a.result.to_dict(book, {})["text"] for a in ruling.alternatives}
    assert results['{"partner_fell": true}'] == ("defender_1: bula -6; defender_2: bula +6; "
                                                 "to fill in once known: deal_play")


def test_the_hand_as_played_tells_whether_the_partner_fell(preferans, demo_answers):
    """Član 8, stav 1: a follower answers for two tricks. With the tricks entered, the partner's
    fall is read from them (the question is not asked, an answer to it is set aside), and the
    result adds the hand as played to the finding."""
    from referee.expert.interview.relevance import not_asked
    book, ruler = preferans
    answers = dict(demo_answers)
    ruling = rule_dispute(ruler, Dispute(dict(answers)))
    assert penalties(ruling.findings) == [("dolaz-ruled-fall", "defender_1", "pad_skinut", 6),
                                          ("dolaz-ruled-fall", "defender_2", "bula", 6)]
    assert ruling.result.to_dict(book, {})["text"] == (
        "declarer: bula -6; defender_1: supe +6 against declarer; "      # his fall struck off: no bula line
        "defender_2: bula +6; defender_2: supe +18 against declarer")
    assert "partner_fell" in not_asked(book, dict(answers, partner_fell=False))
    # the first defender took his two tricks: he did not fall, the dolaz answers for nothing
    stood = rule_dispute(ruler, Dispute(dict(answers, tricks_first=2, tricks_second=2)))
    assert penalties(stood.findings) == []
    assert [f.production for f in stood.findings] == ["dolaz-incorrect-no-fall"]
    # the tricks unknown: the partner's fall is asked as before, and decides
    from referee.expert.interview.relevance import Interview
    iv = Interview(book, dict(answers, tricks_first="unknown"))
    assert iv.next_question().id == "partner_fell"


def test_an_unknown_fact_that_changes_only_amounts_leaves_them_to_fill_in(preferans, demo_answers):
    _, ruler = preferans
    # (with the hand as played, the game decides more than amounts: a pik bought with the talon
    # without contra is not played, so nobody fell; the referee's word on the fall is used here)
    ruling = rule_dispute(ruler, Dispute(dict(told(demo_answers), game="unknown")))
    assert not ruling.alternatives
    assert [(p.player, p.amount, p.needs) for f in ruling.findings for p in f.penalty] == \
        [("defender_2", None, "game"), ("defender_1", None, "game")]
    # the two findings' lines wait for the game, the deal as played for how the declaring ended
    assert [e["needs"] for e in ruling.to_dict()["result"]["entries"]] == [["game"], ["game"], ["deal_play"]]


def test_an_unknown_fact_that_does_not_matter_is_listed_without_consequence(preferans, demo_answers):
    _, ruler = preferans
    known = rule_dispute(ruler, Dispute(dict(demo_answers)))
    ruling = rule_dispute(ruler, Dispute(dict(demo_answers, no_trump="unknown")))
    assert penalties(ruling.findings) == penalties(known.findings) and not ruling.alternatives
    assert [(u.question, u.matters) for u in ruling.unknown] == [("no_trump", False)]


def test_a_default_the_text_prescribes_is_applied_and_cited(tmp_path):
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace(
        '    text: {en: "Was it his turn?"}\n',
        '    text: {en: "Was it his turn?"}\n    unknown: {value: true, cites: [mini:5.none], why: {en: "benefit of the doubt"}}\n'))
    book = load_rulebook("mini", draft)
    ruling = rule_dispute(Ruler(book), Dispute({"claim": ["early"], "early_turn": "unknown", "game": "pik"}))
    [fact] = ruling.unknown
    assert (fact.default, fact.cites) == (True, ["mini:5.none"])
    assert not ruling.alternatives and ruling.no_infraction     # his turn: no early speech


def test_requests_are_granted_refused_or_left_undecided(preferans, demo_answers):
    _, ruler = preferans
    asks = [Request("defender_1", "upheld"), Request("defender_2", "rejected"),
            Request("defender_1", "effect:bula"), Request("declarer", "effect:supe"),
            Request("defender_1", "provision:preferans:8.voluntary-takeover")]
    ruling = rule_dispute(ruler, Dispute(dict(demo_answers), requests=asks))
    assert [(r.request, r.answer) for r in ruling.requests] == [
        ("upheld", "granted"), ("rejected", "refused"), ("effect:bula", "granted"),
        ("effect:supe", "refused"), ("provision:preferans:8.voluntary-takeover", "refused")]
    assert ruling.requests[0].provisions[0] == "preferans:8.ruled-fall"
    # a request the unknown fact decides one way or the other is undecided, and says on what
    unsure = rule_dispute(ruler, Dispute(dict(told(demo_answers), partner_fell="unknown"), requests=asks[2:3]))
    assert unsure.requests[0].answer == "undecided" and unsure.requests[0].cause == "depends"


def test_the_demo_ruling_gives_the_result_with_the_players_names():
    result = run("rule", str(DEMO), "--format", "json", "--no-register")
    data = json.loads(result.output)["result"]
    # the fall moves from Jovan to Petar; the hand as played gives Marko's pass and the supe
    assert [(e["name"], e["item"], e["amount"]) for e in data["entries"]] == [
        ("Marko", "bula", -6), ("Jovan", "supe", 6), ("Petar", "bula", 6), ("Petar", "supe", 18)]   # Jovan's fall struck off


def test_the_tournament_sets_a_value_the_text_lacks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "referee.toml").write_text('[tournament]\nname = "Kup Beograda"\n'
                                           '[rulebooks.preferans.parameters.game_value]\ntalon = {karo = 7}\n')
    data = json.loads(run("rule", str(DEMO), "--format", "json", "--no-register").output)
    assert [e["amount"] for e in data["result"]["entries"]] == [-7, 7, 7, 21]
    text = run("rule", str(DEMO), "--no-register").output
    assert "the tournament's value (talon karo 7)" in text
    (tmp_path / "referee.toml").write_text('[rulebooks.preferans.parameters.game_value]\ntalon = {karoo = 7}\n')
    bad = run("rule", str(DEMO), "--no-register")
    assert bad.exit_code == 2
    assert "referee.toml:2: rulebooks.preferans.parameters.game_value.talon.karoo: unknown key" in bad.output


def test_the_tournament_value_is_stamped_into_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "referee.toml").write_text('[rulebooks.preferans.parameters.game_value]\ntalon = {karo = 7}\n')
    run("rule", str(DEMO), "--no-register", "--format", "json")
    result = run("rule", str(DEMO), "--record", str(tmp_path / "r.json"), "--register", str(tmp_path / "reg.sqlite"))
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "r.json").read_text())
    assert record["rulebook"]["values"] == {"game_value": {"talon": {"karo": 7}}}


def test_rule_names_what_the_interview_would_still_ask_and_rules_nothing(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text("game: mini\nanswers: {claim: [early], early_turn: false}\n")
    result = run("rule", str(case), "--no-register", *K)
    assert result.exit_code == 3
    assert "the interview would still ask: game, early_who" in result.output
    ok = run("rule", str(case), "--no-register", "--allow-incomplete", "--format", "json", *K)
    assert ok.exit_code == 0
    assert json.loads(ok.stdout)["open_questions"] == ["game", "early_who"]


def test_a_case_file_with_events_rules_each_and_applies_the_chronology(tmp_path):
    case = tmp_path / "two.yaml"
    case.write_text(
        "game: preferans\n"
        "answers: {game: herc, game_mode: talon, contra_level: none}\n"
        "events:\n"
        "  - {claim: [out-of-turn], oot_offender: defender_2, oot_before_turn: true}\n"
        "  - {claim: [bad-lead], lead_offender: defender_1, lead_kind: ordinary, lead_rule: lead-1, lead_followed: false}\n"
        "requests:\n  - {party: defender_1, asks: 'provision:preferans:9.lead.1'}\n")
    data = json.loads(run("rule", str(case), "--no-register", "--format", "json").output)
    assert [(f["production"], f["event"]) for f in data["findings"]] == [("out-of-turn", 1)]
    [later] = data["not_ruled"]
    assert later["event"] == 2 and "preferans:22.first-violation-only" in later["by_provisions"]
    assert data["requests"][0]["answer"] == "refused"
    assert [e["player"] for e in data["events"]] == ["defender_2", None]


def score_draft(tmp_path):
    """mini with a score sheet: bula from the findings, and the declarer's game as played."""
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    rb = draft / "mini" / "rulebook.yaml"
    rb.write_text(rb.read_text() + """
score:
  items:
    - {id: bula, label: {en: bula}}
    - {id: supe, label: {en: supe}}
  effects:
    bula: {item: bula}
    supe: {item: supe}
  play:
    - when: {q: tricks, ge: 6}
      entries: [{player: declarer, item: bula, amount: {mul: [-1, {param: game_value, key: {answer: game}}]}}]
    - when: {q: tricks, lt: 6}
      entries: [{player: declarer, item: bula, amount: {param: game_value, key: {answer: game}}}]
""")
    qs = draft / "mini" / "questions.yaml"
    qs.write_text(qs.read_text() + """- id: tricks
  type: number
  scope: deal
  min: 0
  max: 10
  text: {en: "How many tricks did the declarer take?"}
""")
    return draft


def test_the_result_adds_the_deal_as_played_to_the_findings_entries(tmp_path):
    book = load_rulebook("mini", score_draft(tmp_path))
    ruler = Ruler(book)
    answers = {"claim": ["early"], "early_turn": False, "early_who": "d1", "game": "karo"}
    made = rule_dispute(ruler, Dispute(dict(answers, tricks=6))).to_dict()["result"]
    assert made["text"] == "declarer: bula -6; d1: bula +6; d2: supe +2 against declarer"
    unknown = rule_dispute(ruler, Dispute(dict(answers, tricks="unknown"))).to_dict()["result"]
    assert unknown["needs"] == ["tricks"]
    # the interview asks the state of play the result needs, after what decides the findings
    from referee.expert.interview.relevance import Interview
    assert Interview(book, answers).next_question().id == "tricks"


def test_an_unknown_order_of_events_rules_in_each_order(tmp_path):
    case = tmp_path / "ord.yaml"
    case.write_text(
        "game: preferans\n"
        "answers: {game: herc, game_mode: talon, contra_level: none}\n"
        "events_order: unknown\n"
        "events:\n"
        "  - {claim: [out-of-turn], oot_offender: defender_2, oot_before_turn: true}\n"
        "  - {claim: [bad-lead], lead_offender: defender_1, lead_kind: ordinary, lead_rule: lead-1, lead_followed: false}\n")
    data = json.loads(run("rule", str(case), "--no-register", "--format", "json").output)
    assert data["events_order"] == "unknown" and data["findings"] == []
    by_order = {tuple(a["if"]["events_order"]): [(f["production"], f["event"]) for f in a["findings"]]
                for a in data["alternatives"]}
    assert by_order == {(1, 2): [("out-of-turn", 1)], (2, 1): [("lead-1-breach", 2)]}
    text = run("rule", str(case), "--no-register").output
    # each alternative a numbered heading with the statement of what must be established
    assert re.search(r"Alternative \d — if established: the events happened in this order: Event 2, Event 1\n", text)


def test_unknown_but_one_of_some_answers_tries_only_those(preferans, demo_answers):
    from referee.expert.language.answers import parse_typed
    book, ruler = preferans
    value = parse_typed(book.questions["game"], "unknown: pik, karo", book, demo_answers)
    assert value == {"unknown": ["pik", "karo"]}
    ruling = rule_dispute(ruler, Dispute(dict(told(demo_answers), game=value)))
    line = ruling.findings[0].penalty[0]
    assert line.amount is None and [amount for _, amount in line.options] == [4, 6]
    from referee.reports.render import render
    assert "4 (pik) or 6 (karo)" in render(ruling, "text")


def test_an_effect_asked_on_a_player_and_in_an_amount_is_answered_as_asked(preferans, demo_answers):
    _, ruler = preferans
    asks = [Request("defender_1", "effect:bula", on="defender_2"),            # Petar falls: granted
            Request("defender_2", "effect:bula", on="defender_1"),            # on Jovan: it falls on Petar
            Request("defender_1", "effect:bula", on="defender_2", amount=10),  # 6, not 10
            Request("defender_2", "no-penalty"),
            Request("declarer", "stands"),      # the dolaz answers to the partner, not the lider: his −6 stands
            Request("defender_1", "stands"),    # Jovan's fall is struck off: his result does not stand
            Request("defender_1", "no-penalty")]                             # the innocent partner: nothing on him
    ruling = rule_dispute(ruler, Dispute(dict(demo_answers), requests=asks))
    assert [(r.answer, r.cause) for r in ruling.requests] == [
        ("granted", "granted"), ("refused", "other-player"), ("granted", "less"),   # in part: 6 of 10
        ("refused", "own-infraction"), ("granted", "granted"), ("refused", "changed"),
        ("granted", "granted")]
    assert ruling.requests[2].given == 6


def test_a_transfer_asked_on_the_offender_or_for_the_side_is_granted_and_a_partner_answers_with_his_side():
    """Bridge: tricks transferred FROM East may be asked "on East" (whom the effect is against) or
    "on South" (the side that gains); East's partner cannot have "no penalty" (sides are fixed)."""
    book = load_rulebook("bridge")
    answers = {"claim": ["play"], "play_claim": ["revoke"], "offender": "E", "l63_events": ["played-next"],
               "l63_trick12": False, "l64_exception": ["none"], "l64_winner": "offender",
               "l64_later_tricks": 3, "l63_revoked": True}
    asks = [Request("S", "effect:trick_transfer", on="E"), Request("S", "effect:trick_transfer", on="S"),
            Request("S", "effect:trick_transfer", on="E", amount=3), Request("W", "no-penalty"),
            Request("E", "effect:trick_transfer", on="N")]
    # ruled on these answers alone (ask=False): with the questions still open (Law 11's, the
    # board's), the requests they could change would be left undecided
    ruling = rule_dispute(Ruler(book), Dispute(answers, requests=asks), ask=False)
    assert [(r.answer, r.cause) for r in ruling.requests] == [
        ("granted", "granted"), ("granted", "granted"), ("granted", "less"), ("refused", "own-infraction"),
        ("granted", "granted")]


def test_number_answers_of_one_branch_read_as_ranges_beside_the_other_unknowns():
    """Skat: two unknowns, the card points and a yes/no; a branch reached by the points 0, 29 and
    30 (neighbours among the values tried) reads "0 to 30", the one value 120 "at least 90 (e.g.
    120)"; a number every value of which leads
    to the branch drops out of its heading; values that are not neighbours stay apart."""
    from referee.expert.interview.adjudicate import _merge_numbers
    book = load_rulebook("skat")
    tried = {"soloist_points": [0, 29, 30, 31, 60, 61, 120]}
    when = [{"soloist_points": v, "announced_before_lead": True} for v in (0, 29, 30)] \
        + [{"soloist_points": v, "announced_before_lead": False} for v in (0, 29, 30, 31, 60, 61, 120)] \
        + [{"soloist_points": 120, "announced_before_lead": True}]
    assert _merge_numbers(book, when, tried) == [
        {"announced_before_lead": True, "soloist_points": {"from": 0, "to": 30}},
        # one value tried alone: the range it stands for (the rulebook's next threshold is 90)
        {"announced_before_lead": True, "soloist_points": {"from": 90, "e.g.": 120}},
        {"announced_before_lead": False}]
