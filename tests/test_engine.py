"""The compiled engine on a miniature rulebook: findings, precedence, first violation, trail."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

BASE = {"claim": ["early"], "early_who": "d1", "early_turn": False, "game": "karo"}


def penalties(ruling):
    return [(f.provisions, [p.to_dict() for p in f.penalty]) for f in ruling.findings]


def test_derived_fact_chains_to_a_finding_with_computed_penalty(mini_ruler):
    r = mini_ruler.rule(BASE)
    assert penalties(r) == [(["mini:1.early"], [
        {"player": "d1", "effect": "bula", "amount": 6},
        {"player": "d2", "effect": "supe", "amount": 2, "against": "declarer"}])]
    assert [t["production"] for t in r.trail] == ["spoke-early", "early-penalty"]
    assert not r.no_infraction


def test_no_violation_when_condition_fails(mini_ruler):
    r = mini_ruler.rule(dict(BASE, early_turn=True))
    assert [f.kind for f in r.findings] == ["no-violation"]
    assert r.no_infraction
    assert r.not_established == ["early"]


def test_override_sets_the_other_production_aside_with_reason(mini_ruler):
    r = mini_ruler.rule({"claim": ["bad-game"], "game": "pik"})
    assert penalties(r) == [(["mini:3.bad-b"], [{"player": "declarer", "effect": "bula", "amount": 8}])]
    assert [n.provisions for n in r.not_ruled] == [["mini:2.bad-a"]]
    assert "B is the article on games" in r.not_ruled[0].reason


def test_keep_first_rules_only_on_the_earlier_claim(mini_ruler):
    both = dict(BASE, claim=["early", "bad-game"], game="pik")
    first_early = mini_ruler.rule(dict(both, order=["early", "bad-game"]))
    assert [f.provisions for f in first_early.findings] == [["mini:1.early"]]
    first_bad = mini_ruler.rule(dict(both, order=["bad-game", "early"]))
    assert [f.provisions for f in first_bad.findings] == [["mini:3.bad-b"]]
    reasons = {n.production: n.reason for n in first_bad.not_ruled}
    assert "committed after" in reasons["early-penalty"]


def test_a_claim_whose_findings_were_all_set_aside_does_not_count_as_first(tmp_path):
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.engine.ruler import Ruler
    root = _mini_with(tmp_path, "cases:\n", """  - id: excused
    cites: [mini:5.none]
    when: {all: [{q: claim, has: bad-game}, {q: game, is: karo}]}
    overrides: [bad-a, bad-b]
    why: {en: "excused in karo"}
    then: {finding: {kind: no-violation, claim: bad-game, summary: {en: excused}}}
cases:\n""")
    ruler = Ruler(load_rulebook("mini", root))
    r = ruler.rule(dict(BASE, claim=["early", "bad-game"], order=["bad-game", "early"], game="karo"))
    assert [f.provisions for f in r.findings] == [["mini:1.early"], ["mini:5.none"]]
    by = {n.production: n.by for n in r.not_ruled}
    assert set(by) == {"bad-a", "bad-b"} and by["bad-b"] == "excused"


def test_one_engine_gives_the_same_ruling_for_the_same_case_again(mini_ruler):
    first = mini_ruler.rule(BASE).to_dict()
    mini_ruler.rule({"claim": ["bad-game"], "game": "pik"})
    assert mini_ruler.rule(BASE).to_dict() == first


def test_firing_order_is_the_same_in_every_process():
    script = (
        "import json,sys;sys.path.insert(0,'tests');from conftest import FIXTURES;"
        "from referee.expert.language.rulebook import load_rulebook;from referee.expert.engine.ruler import Ruler;"
        "r=Ruler(load_rulebook('mini',FIXTURES)).rule({'claim':['early','bad-game'],"
        "'order':['bad-game','early'],'early_who':'d2','early_turn':False,'game':'pik'});"
        "print(json.dumps(r.trail))")
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True).stdout
        outputs.add(out)
    assert len(outputs) == 1
    assert len(json.loads(outputs.pop())) >= 5


def _mini_with(tmp_path, old, new):
    import shutil
    from conftest import FIXTURES
    shutil.copytree(FIXTURES, tmp_path / "k")
    rules = tmp_path / "k" / "mini" / "articles" / "01-rules.yaml"
    rules.write_text(rules.read_text().replace(old, new, 1))
    return tmp_path / "k"


@pytest.mark.parametrize("spec, order", [
    ("among: [bad-a, bad-b]", ["bad-game", "early"]),       # early does not compete: it stands
    ("except: [early-penalty]", ["early", "bad-game"]),     # early does not compete: bad-game stands
])
def test_keep_first_among_and_except_choose_which_findings_compete(tmp_path, spec, order):
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.engine.ruler import Ruler
    root = _mini_with(tmp_path, "then: {keep_first: {order: order}}", f"then: {{keep_first: {{order: order, {spec}}}}}")
    r = Ruler(load_rulebook("mini", root)).rule(dict(BASE, claim=["early", "bad-game"], order=order, game="pik"))
    assert sorted(f.provisions[0] for f in r.findings) == ["mini:1.early", "mini:3.bad-b"]


def test_keep_first_among_must_name_finding_productions(tmp_path):
    result = subprocess.run([sys.executable, "-c", "from referee.cli import main; main()", "check", "mini", "--knowledge",
                             str(_mini_with(tmp_path, "then: {keep_first: {order: order}}",
                                            "then: {keep_first: {order: order, among: [spoke-early, nope]}}"))],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert "'spoke-early'" in result.stdout + result.stderr and "'nope'" in result.stdout + result.stderr
