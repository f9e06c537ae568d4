"""Casebooks that catch a rule author's mistakes (issue 19): what `referee test` compares, how
its failures read, what `--update` writes, and what `--coverage` lists."""
import shutil
from dataclasses import replace

import yaml
from click.testing import CliRunner

from conftest import FIXTURES
from referee.cli import main
from referee.expert.authoring.analysis.coverage import (add_examples, boundary_rows, override_rows,
                                                        production_rows)
from referee.expert.authoring.analysis.update import amend_expect, new_expect
from referee.expert.authoring.casebook import compare, run_case, run_casebook
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import load_rulebook

ART = "mini/articles/01-rules.yaml"
EARLY = {"claim": ["early"], "early_who": "d1", "early_turn": False, "game": "karo"}
PENALTY = [{"player": "d1", "effect": "bula", "amount": 6},
           {"player": "d2", "effect": "supe", "amount": 2, "against": "declarer"}]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def draft(tmp_path):
    root = tmp_path / "k"
    shutil.copytree(FIXTURES, root)
    return root, root / ART


def test_an_expected_finding_must_state_its_kind(mini_ruler):
    ruling = mini_ruler.rule(EARLY)
    stated = {"findings": [{"provisions": ["mini:1.early"], "kind": "violation", "penalty": PENALTY}]}
    assert compare(stated, ruling) == []
    unstated = {"findings": [{"provisions": ["mini:1.early"], "penalty": PENALTY}]}
    diffs = compare(unstated, ruling)
    assert len(diffs) == 1 and diffs[0].startswith("expected finding states no kind:")
    assert "`referee test --update` fills it in" in diffs[0]


def test_a_wrong_kind_or_a_lost_citation_fails_and_reads_as_yaml(mini_ruler):
    ruling = mini_ruler.rule(EARLY)
    wrong_kind = {"findings": [{"provisions": ["mini:1.early"], "kind": "rectification", "penalty": PENALTY}]}
    [diff] = compare(wrong_kind, ruling)
    assert diff.startswith("a finding differs (kind):")
    assert "ruled:    {provisions: [mini:1.early], kind: violation, penalty: [{player: d1, effect: bula, amount: 6}" in diff
    # the full list of provisions, not a subset: a production that cites one more fails
    more = {"findings": [{"provisions": ["mini:1.early", "mini:4.first"], "kind": "violation"}]}
    [diff] = compare(more, ruling)
    assert diff.startswith("a finding differs (provisions):")
    assert "('" not in diff and "None" not in diff        # no Python tuples or reprs


def test_a_finding_neither_expected_nor_ruled_is_listed_as_yaml(mini_ruler):
    ruling = mini_ruler.rule({"claim": ["bad-game"], "game": "pik"})
    expect = {"findings": [{"provisions": ["mini:2.bad-a"], "kind": "violation"}]}
    assert compare(expect, ruling) == [
        "expected, not ruled:\n  - {provisions: [mini:2.bad-a], kind: violation}",
        "ruled, not expected:\n  - {provisions: [mini:3.bad-b], kind: violation, penalty: "
        "[{player: declarer, effect: bula, amount: 8}]}"]


def test_the_loader_refuses_a_penalty_on_a_finding_that_establishes_no_infraction(tmp_path):
    root, art = draft(tmp_path)
    art.write_text(art.read_text().replace(
        'then: {finding: {kind: no-violation, summary: {en: "no violation"}}}',
        'then: {finding: {kind: no-violation, summary: {en: "no violation"}, '
        'penalty: [{player: d1, effect: bula, amount: 1}]}}'))
    try:
        load_rulebook("mini", root)
    except RefereeError as exc:
        assert "a no-violation finding carries a penalty" in exc.message and exc.line
    else:
        raise AssertionError("a no-violation finding with a penalty was loaded")
    result = run("test", "mini", "--knowledge", str(root))
    assert result.exit_code == 2 and "carries a penalty" in result.output
    result = run("check", "mini", "--knowledge", str(root))
    assert result.exit_code == 1 and "carries a penalty" in result.output


def test_the_loader_refuses_an_expected_kind_that_is_not_one(tmp_path):
    root, art = draft(tmp_path)
    art.write_text(art.read_text().replace("          kind: violation\n", "          kind: violaton\n"))
    result = run("check", "mini", "--knowledge", str(root))
    assert result.exit_code == 1 and "expected finding kind 'violaton'" in result.output


def test_update_adds_the_kind_line_and_keeps_the_rest_of_the_block(tmp_path):
    root, art = draft(tmp_path)
    text = art.read_text().replace("          kind: violation\n", "")
    text = text.replace("    expect:\n      findings:\n", "    expect:\n      # worked out by hand\n      findings:\n")
    art.write_text(text)
    result = run("test", "mini", "--update", "--knowledge", str(root), input="y\n")
    assert "1 updated" in result.output and result.exit_code == 0, result.output
    after = art.read_text()
    assert after == text.replace("        - provisions: [mini:1.early]\n",
                                 "        - provisions: [mini:1.early]\n          kind: violation\n")
    assert "# worked out by hand" in after
    assert run("test", "mini", "--knowledge", str(root)).exit_code == 0


def test_amend_completes_provisions_and_adds_not_ruled_in_place():
    text = ("cases:\n"
            "  - name: c\n"
            "    answers: {claim: [x]}\n"
            "    expect:\n"
            "      findings:\n"
            "        - provisions:\n"
            "          - a:1\n"
            "          penalty: []   # none\n"
            "      not_applied: [a:9]\n")
    old = {"findings": [{"provisions": ["a:1"], "penalty": []}], "not_applied": ["a:9"]}
    new = {"findings": [{"provisions": ["a:1", "a:2"], "kind": "undecided", "penalty": []}],
           "not_ruled": ["a:3"], "not_applied": ["a:9"]}
    out = amend_expect(text, 2, old, new)
    assert out is not None
    assert yaml.safe_load(out)["cases"][0]["expect"] == new
    assert "penalty: []   # none" in out and out.index("not_ruled") < out.index("not_applied")


def test_new_expectations_keep_the_authors_order_of_provisions(mini_ruler):
    ruling = mini_ruler.rule(EARLY)
    new = new_expect({"findings": [{"provisions": ["mini:1.early"], "penalty": PENALTY}]}, ruling)
    assert new == {"findings": [{"provisions": ["mini:1.early"], "kind": "violation", "penalty": PENALTY}]}


def test_new_expectations_keep_what_they_do_not_work_out_in_place(mini_ruler):
    # `referee test --update` rewrote only the findings and dropped the score sheet's entries and
    # the requests' answers: the case then asserted less without a word
    ruling = mini_ruler.rule(EARLY)
    result = {"entries": [{"player": "declarer", "item": "game", "amount": 10}]}
    requests = [{"party": "declarer", "request": "upheld", "answer": "granted"}]
    old = {"findings": [{"provisions": ["mini:1.early"]}], "result": result, "requests": requests,
           "not_applied": ["mini:1.early"]}
    new = new_expect(old, ruling)
    assert list(new) == ["findings", "result", "requests"]      # not_applied: it is applied now
    assert new["result"] == result and new["requests"] == requests


def test_coverage_lists_productions_overrides_and_boundaries(mini, mini_ruler):
    results = run_casebook(mini, mini_ruler)
    prows = {r["production"]: r for r in production_rows(mini, results)}
    assert prows["early-penalty"]["cases"] == ["early by d1"] and prows["spoke-early"]["cases"]
    assert prows["bad-a"]["cases"] == [] and prows["nothing"]["cases"] == []
    orows = override_rows(mini, results)
    assert [(r["winner"], r["loser"], r["cases"], r["never"]) for r in orows] == [("bad-b", "bad-a", [], False)]
    add_examples(mini, mini_ruler, list(prows.values()), orows)
    assert orows[0]["example"] == {"claim": ["bad-game"], "game": "pik"}
    assert prows["bad-a"]["example"]["claim"] == ["bad-game"]
    bounds = boundary_rows(mini, results)
    assert {(r["production"], r["at"], r["holds"], bool(r["cases"])) for r in bounds} == {
        ("first-only", 2, True, False), ("first-only", 1, False, True)}


def test_a_case_exercising_the_override_is_counted(mini, mini_ruler):
    case = replace(mini.cases[0], name="both fire", answers={"claim": ["bad-game"], "game": "pik"},
                   expect={"findings": [{"provisions": ["mini:3.bad-b"], "kind": "violation"}],
                           "not_ruled": ["mini:2.bad-a"]})
    result = run_case(mini_ruler, case)
    assert result.passed, result.differences
    [row] = override_rows(mini, [result])
    assert row["cases"] == ["both fire"]
    # without the loser under not_ruled the case passes, but exercises nothing
    quiet = replace(case, expect={"findings": case.expect["findings"]})
    assert override_rows(mini, [run_case(mini_ruler, quiet)])[0]["cases"] == []


def test_coverage_output_names_what_no_case_reaches():
    result = run("test", "mini", "--coverage", "--knowledge", str(FIXTURES))
    assert result.exit_code == 0
    out = result.output
    assert "! bad-a" in out and "a case could answer: {claim: [bad-game], game: pik}" in out
    assert "! bad-b > bad-a: 0" in out
    assert "mini: 2 of 6 productions reached by a case" in out
    assert "mini: 0 of 1 overrides exercised" in out
    assert "first-only: {q: claim, count_ge: 2} at 2 (holds): 0" in out
