"""The result on the score sheet (engine/result.py): an effect written as several entries (a
payment: the payer's minus, the payee's plus and the payment itself), findings that settle the
deal by themselves (settles_result, settles_deal), and casebook cases that check the result."""
import shutil

import pytest

from conftest import FIXTURES
from referee.expert.authoring.casebook import run_case
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.relevance import Interview
from referee.expert.language.dispute import Dispute
from referee.expert.language.model import Case
from referee.expert.language.rulebook import load_rulebook
from referee.expert.language.problems import Problems
from referee.expert.language.validate import validate

SCORE = """
score:
  items:
    - {id: net, label: {en: units, net}}
    - {id: paid, label: {en: pays}}
    - {id: gets, label: {en: receives}}
  effects:
    bula:
      - {item: net, sign: -1, against: none}
      - {item: net, player: against, against: none}
      - {item: paid}
      - {item: gets, player: against, against: player}
    supe: {item: paid}
  play:
    - when: {q: tricks, ge: 6}
      entries: [{player: declarer, item: net, amount: 5}]
"""

TRICKS = """- id: tricks
  type: number
  scope: deal
  min: 0
  max: 10
  text: {en: "How many tricks did the declarer take?"}
"""


def errors(book) -> list[str]:
    problems = Problems()
    validate(book, problems)
    return [p.message for p in problems.errors]


REDEAL = """  - id: redeal
    cites: [mini:5.none]
    when: {q: claim, has: bad-game}
    overrides: [bad-a, bad-b]
    then: {finding: {kind: rectification, claim: bad-game, summary: {en: redeal}, penalty: [], settles_deal: true}}
"""


def draft(tmp_path, finding_extra: str = ""):
    """mini where bula is a payment to the declarer (against: declarer), written three times."""
    root = tmp_path / "k"
    shutil.copytree(FIXTURES, root)
    (root / "mini" / "rulebook.yaml").write_text((root / "mini" / "rulebook.yaml").read_text() + SCORE)
    (root / "mini" / "questions.yaml").write_text((root / "mini" / "questions.yaml").read_text() + TRICKS)
    art = root / "mini" / "articles" / "01-rules.yaml"
    text = art.read_text().replace(
        "- {player: {answer: early_who}, effect: bula, amount: {param: game_value, key: {answer: game}}}",
        "- {player: {answer: early_who}, effect: bula, amount: {param: game_value, key: {answer: game}}, against: declarer}")
    if finding_extra:
        text = text.replace('summary: {en: "spoke early"}', 'summary: {en: "spoke early"}\n        ' + finding_extra)
    art.write_text(text.replace("cases:\n", REDEAL + "cases:\n"))
    return load_rulebook("mini", root)


EARLY = {"claim": ["early"], "early_turn": False, "early_who": "d1", "game": "karo"}


def test_an_effect_written_as_several_entries_gives_each_player_his_net_and_the_payment(tmp_path):
    book = draft(tmp_path)
    assert not errors(book)
    result = rule_dispute(Ruler(book), Dispute(dict(EARLY, tricks=3))).to_dict()["result"]
    got = sorted((e["player"], e["item"], e["amount"], e.get("against")) for e in result["entries"])
    # d1 pays 6 to the declarer: his net -6, the declarer's +6, and the payment itself, written for
    # the payer (paid, against the payee) and for the payee (gets, against the payer); d2's supe
    assert got == [("d1", "net", -6, None), ("d1", "paid", 6, "declarer"), ("d2", "paid", 2, "declarer"),
                   ("declarer", "gets", 6, "d1"), ("declarer", "net", 6, None)]


def test_a_finding_that_settles_the_result_keeps_the_deal_as_played_off_the_sheet(tmp_path):
    played = rule_dispute(Ruler(draft(tmp_path / "a")), Dispute(dict(EARLY, tricks=8))).to_dict()["result"]
    assert ("declarer", "net", 11) in [(e["player"], e["item"], e["amount"]) for e in played["entries"]]
    book = draft(tmp_path / "b", "settles_result: true")
    settled = rule_dispute(Ruler(book), Dispute(dict(EARLY, tricks=8))).to_dict()["result"]
    assert settled["settled_by"] == ["early-penalty"]
    assert ("declarer", "net", 6) in [(e["player"], e["item"], e["amount"]) for e in settled["entries"]]
    # nor does the interview ask the state of play the deal as played would need
    assert Interview(book, EARLY).next_question() is None


def test_a_finding_that_settles_the_deal_writes_nothing_of_it(tmp_path):
    book = draft(tmp_path)
    result = rule_dispute(Ruler(book), Dispute({"claim": ["bad-game"], "game": "pik", "tricks": 8})).to_dict()["result"]
    assert result["entries"] == [] and result["settled_by"] == ["redeal"]


def test_a_list_of_entries_is_checked_entry_by_entry(tmp_path):
    book = draft(tmp_path)
    book.score["effects"]["bula"].append({"item": "nowhere"})
    found = errors(book)
    assert any("'bula' needs item: one of net, paid" in m for m in found), found


@pytest.mark.parametrize("expect, differences", [
    ({"result": {"text": "declarer: net +6; declarer: gets +6 against d1; d1: net -6; d1: paid +6 against declarer; "
                         "d2: paid +2 against declarer"}}, []),
    ({"result": {"entries": [{"player": "declarer", "item": "net", "amount": 6},
                             {"player": "d1", "item": "net", "amount": -6},
                             {"player": "d1", "item": "paid", "amount": 6},
                             {"player": "declarer", "item": "gets", "amount": 6},
                             {"player": "d2", "item": "paid", "amount": 2}]}}, []),
    ({"result": {"entries": [{"player": "declarer", "item": "net", "amount": 7}]}}, ["result entries: expected"]),
    ({"result": {"text": "nothing"}}, ["result: expected 'nothing', got 'declarer: net +6"]),
])
def test_a_casebook_case_checks_the_result(tmp_path, expect, differences):
    book = draft(tmp_path)
    case = Case(name="early", article="Rule 1", answers=dict(EARLY, tricks=3), expect=expect, file="x", line=1)
    got = run_case(Ruler(book), case).differences
    assert len(got) == len(differences) and all(g.startswith(d) for g, d in zip(got, differences)), got


def test_a_play_rule_on_a_question_the_interview_never_asks_waits_for_nothing(tmp_path):
    book = draft(tmp_path)
    qs = book.root / "questions.yaml"
    qs.write_text(qs.read_text() + """- id: bonus
  type: yesno
  scope: deal
  text: {en: "Bonus?"}
  when: {q: game, is: pik}
""")
    rb = book.root / "rulebook.yaml"
    rb.write_text(rb.read_text() + """    - when: {q: bonus, is: true}
      entries: [{player: declarer, item: net, amount: 1}]
""")
    book = load_rulebook("mini", book.root.parent)
    result = rule_dispute(Ruler(book), Dispute(dict(EARLY, tricks=8))).to_dict()["result"]
    # the game is karo: 'bonus' is closed, so its rule does not apply and nothing is left open
    assert result["needs"] == [] and ("declarer", "net", 11) in [
        (e["player"], e["item"], e["amount"]) for e in result["entries"]]
    asked = rule_dispute(Ruler(book), Dispute(dict(EARLY, game="pik", tricks=8))).to_dict()["result"]
    assert asked["needs"] == ["bonus"]


def test_what_only_the_score_sheet_reads_is_not_reported_unused(tmp_path):
    from referee.expert.authoring.analysis import unused
    book = draft(tmp_path)
    problems = Problems()
    unused.check(book, None, problems)
    messages = " ".join(p.message for p in problems.items)
    assert "'tricks'" not in messages            # read only by the deal as played
    assert "'game_value'" not in messages


def test_an_undecided_finding_marks_the_entries_as_the_deal_as_played():
    """Blind walk 7, B2: with the winner of the revoke trick unknown, the alternative where the
    source text leaves the transfer undecided printed the table score as if it stood; its
    entries now say first that they are the deal as played and which article leaves it open."""
    from referee.expert.language.rulebook import load_rulebook
    from referee.reports.document import entries
    book = load_rulebook("bridge")
    answers = {"deal_stage": "finished", "contract_level": 4, "contract_strain": "spades",
               "contract_doubled": "undoubled", "declarer": "S", "vulnerability": "none",
               "declarer_tricks": 9, "claim": ["play"], "play_claim": ["revoke"], "offender": "E",
               "l63_revoked": True, "l63_events": ["played-next"], "l63_trick12": False,
               "l64_exception": ["none"], "l64_winner": "unknown"}
    ruling = rule_dispute(Ruler(book), Dispute(answers))
    shown = {}
    for alt in ruling.alternatives:
        rows = entries(ruling, alt.result, "en")
        undecided = any(f.kind == "undecided" for f in alt.findings)
        shown[undecided] = rows[0]["amount"]
    assert shown[True].startswith("As played: the rules leave undecided what Правило 63B changes")
    assert not shown[False].startswith("As played")
