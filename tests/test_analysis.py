"""Rule-base analysis (issue 7): each deliberately broken rulebook is caught with a useful
message; the clean ones give no false alarm of error severity."""
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from conftest import FIXTURES, ROOT, shipped_check
from referee.expert.authoring.checks import check_game
from referee.reports.authoring_views import problem_text
from referee.expert.language.rulebook import list_games

BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
ANALYSIS_ERRORS = {"conflict", "unreachable", "circularity", "order", "deficiency", "dangling", "unasked"}


def found(game, category, root=BROKEN):
    problems = check_game(game, root)
    return problems, [p for p in problems.items if p.category == category]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


# --- one broken fixture per anomaly class ------------------------------------------------

def test_conflict_names_both_productions_with_an_example():
    problems, hits = found("conflict", "conflict")
    assert len(hits) == 1
    p = hits[0]
    assert p.severity == "error"
    assert set(p.productions) == {"bad-a", "bad-b"}
    assert set(p.provisions) == {"mini:2.bad-a", "mini:3.bad-b"}
    assert p.example["claim"] == ["bad-game"]
    assert "overrides" in p.message and "declarer bula 20" in p.message
    assert re.match(r".*01-rules\.yaml:\d+: error \[conflict\]", problem_text(p))


def _with_condition(tmp_path, fixture: str, pid: str, cites: str, literal: str) -> None:
    """A copy of a broken fixture in ``tmp_path`` whose production ``pid`` (when: claim has
    bad-game) needs ``literal`` too."""
    shutil.copytree(BROKEN / fixture, tmp_path / fixture)
    art = tmp_path / fixture / "articles" / "01-rules.yaml"
    text = art.read_text()
    head = f"  - id: {pid}\n    cites: [{cites}]\n"
    old = head + "    when: {q: claim, has: bad-game}\n"
    assert old in text
    art.write_text(text.replace(old, head + f"    when: {{all: [{{q: claim, has: bad-game}}, {literal}]}}\n"))


def _conflict_on_pik(tmp_path, declared: bool) -> list:
    """The conflict fixture with bad-a made to need a pik game (the two still stand together
    there), and, if ``declared``, a pik game declared impossible with an impossible game claimed:
    the conflict errors of its check."""
    _with_condition(tmp_path, "conflict", "bad-a", "mini:2.bad-a", "{q: game, is: pik}")
    if declared:
        _declare(tmp_path / "conflict")
    return [p for p in check_game("conflict", tmp_path).items if p.category == "conflict"]


def _declare(folder) -> None:
    """A pik with an impossible game claimed declared impossible, on a question nothing the
    two productions read touches (``early_who``): a declaration may stand on any question."""
    art = folder / "articles" / "01-rules.yaml"
    text = art.read_text()
    at = "    text: {en: \"Who spoke early?\"}\n    when: {q: claim, has: early}\n"
    assert at in text
    art.write_text(text.replace(at, at + "    impossible:\n"
                                "      - when: {all: [{q: claim, has: bad-game}, {q: game, is: pik}]}\n"
                                "        why: {en: no impossible game is claimed in a pik}\n", 1))


def test_a_conflict_only_on_answers_declared_impossible_is_not_reported(tmp_path, monkeypatch):
    found = _conflict_on_pik(tmp_path / "open", declared=False)
    assert len(found) == 1 and found[0].example["game"] == "pik"
    # the interview refuses a pik with an impossible game claimed: no referee can reach them
    assert _conflict_on_pik(tmp_path / "declared", declared=True) == []
    # with the check's results kept: the declaration added afterwards is read, not the old result
    monkeypatch.delenv("REFEREE_NO_CHECK_CACHE", raising=False)
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert len(_conflict_on_pik(tmp_path / "kept", declared=False)) == 1
    _declare(tmp_path / "kept" / "conflict")
    assert [p for p in check_game("conflict", tmp_path / "kept").items if p.category == "conflict"] == []


def test_two_verdicts_on_one_act_are_an_error_until_one_prevails(tmp_path):
    problems, hits = found("verdict", "verdict")
    assert len(hits) == 1 and hits[0].severity == "error"
    assert set(hits[0].productions) == {"led-together", "claim-good"}
    assert set(hits[0].example["claim"]) == {"two-led", "shown"}
    assert "one act gets two verdicts" in hits[0].message and "overrides: [claim-good]" in hits[0].message
    # declared precedence settles it
    shutil.copytree(BROKEN / "verdict", tmp_path / "verdict")
    art = tmp_path / "verdict" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("    cites: [mini:2.shown]\n",
                                           "    cites: [mini:2.shown]\n    overrides: [led-together]\n"
                                           "    why: {en: the claim decides the act}\n"))
    assert [p for p in check_game("verdict", tmp_path).items if p.category == "verdict"] == []


def test_declared_precedence_is_not_a_conflict():
    _, hits = found("mini", "conflict", FIXTURES)
    assert hits == []


def test_redundant_production_is_a_warning_naming_the_one_that_covers_it():
    _, hits = found("redundancy", "redundancy")
    assert [(p.severity, p.productions) for p in hits] == [("warning", ["bad-b-pik", "bad-b"])]
    assert "fires whenever it does" in hits[0].message


def _redundancy_variant(tmp_path, covering: str) -> list:
    """The redundancy fixture with bad-b's condition made ``covering`` (bad-b-pik keeps
    ``{q: game, is: pik}``): the redundancy warnings of its check."""
    _with_condition(tmp_path, "redundancy", "bad-b", "mini:3.bad-b", covering)
    return [p for p in check_game("redundancy", tmp_path).items if p.category == "redundancy"]


def test_a_condition_implied_on_one_question_makes_a_production_redundant_without_a_search(tmp_path):
    # pik is not karo: bad-b fires wherever bad-b-pik does, though neither literal is the other's
    hits = _redundancy_variant(tmp_path, "{not: {q: game, is: karo}}")
    assert [p.productions for p in hits] == [["bad-b-pik", "bad-b"]]
    assert "checked on their conditions, with the derived facts unfolded" in hits[0].message


def test_a_condition_that_does_not_follow_is_not_redundant(tmp_path):
    assert _redundancy_variant(tmp_path, "{not: {q: game, is: pik}}") == []
    assert _redundancy_variant(tmp_path / "2", "{q: game, is: karo}") == []


def test_unreachable_productions_say_why():
    _, hits = found("unreachable", "unreachable")
    by = {p.productions[0]: p for p in hits}
    assert set(by) == {"early-both", "early-only-d1"}
    assert all(p.severity == "error" for p in hits)
    assert "{q: early_turn, is: true} and {q: early_turn, is: false} cannot hold together" in by["early-both"].message
    assert "'early_who' is asked only when" in by["early-only-d1"].message


def test_a_production_needing_a_fact_absent_that_every_full_answer_derives_is_a_warning(tmp_path):
    """Where every question asked is answered, 'turn-known' is always derived; an answer
    'unknown' derives nothing, so the production can fire at the table: a warning naming the
    fact, not an error (and not a search that gives up)."""
    shutil.copytree(BROKEN / "unreachable", tmp_path / "unreachable")
    art = tmp_path / "unreachable" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("productions:\n", """productions:
  - id: turn-known-yes
    cites: [mini:1.early]
    when: {q: early_turn, is: true}
    then: {derive: turn-known}
  - id: turn-known-no
    cites: [mini:1.early]
    when: {q: early_turn, is: false}
    then: {derive: turn-known}
  - id: turn-unknown
    cites: [mini:1.early]
    when: {all: [{q: claim, has: early}, {not: {fact: turn-known}}]}
    then: {finding: {kind: violation-no-penalty, claim: early, summary: {en: "turn unknown"}}}
""", 1))
    problems = check_game("unreachable", tmp_path)
    hits = [p for p in problems.items if p.category == "unreachable" and p.productions == ["turn-unknown"]]
    assert [p.severity for p in hits] == ["warning"]
    assert "fires only where an answer is unknown or left unasked" in hits[0].message
    assert "fact 'turn-known'" in hits[0].message


def test_circularity_is_reported_not_raised():
    problems, hits = found("circularity", "circularity")
    assert len(hits) == 1 and hits[0].severity == "error"
    assert set(hits[0].productions) == {"loop-a", "loop-b"}
    assert "loop-a" in hits[0].message and "loop-b" in hits[0].message


def test_uncited_penalty_bearing_provision_is_an_error():
    _, hits = found("deficiency", "deficiency")
    assert [p.severity for p in hits] == ["error"]
    assert "mini:6.slow" in hits[0].message


def test_a_penalty_reading_an_answer_never_asked_when_it_fires_is_an_error():
    _, hits = found("unasked", "unasked")
    assert [(p.severity, p.productions) for p in hits] == [("error", ["bad-b"])]
    assert hits[0].example["claim"] == ["bad-game"] and "early_who" not in hits[0].example
    assert "'early_who'" in hits[0].message and "does not ask" in hits[0].message
    _, clean = found("mini", "unasked", FIXTURES)       # early_who read only where early is claimed
    assert clean == []


def test_silent_claim_is_a_warning_with_an_example():
    _, hits = found("silent", "silent")
    slow = [p for p in hits if p.example and p.example.get("claim") == ["slow"]]
    assert len(slow) == 1 and slow[0].severity == "warning"
    assert slow[0].example["slow_minutes"] < 5
    assert "silent on claim 'slow'" in slow[0].message and "no finding at all" in slow[0].message
    _, none = found("mini", "silent", FIXTURES)       # mini's general no-violation answers every claim
    assert none == []


def test_unused_question_parameter_and_effect():
    _, hits = found("unused", "unused")
    text = " | ".join(p.message for p in hits)
    assert "question 'forgotten'" in text
    assert "parameter 'table_fee'" in text
    assert "effect 'warning'" in text
    assert all(p.severity == "warning" for p in hits)


def test_dangling_references_surface_with_their_category():
    _, hits = found("dangling", "dangling")
    text = " | ".join(p.message for p in hits)
    assert "'mini:9.nothing'" in text and "fact 'ghost'" in text
    assert all(p.severity == "error" for p in hits)


def test_order_dependence_is_caught():
    _, hits = found("order", "order")
    assert len(hits) == 1 and hits[0].severity == "error"
    assert "both warnings could apply" in hits[0].message
    assert "warn-turn" in hits[0].message and "warn-game" in hits[0].message


# --- no false alarms --------------------------------------------------------------------

def test_mini_has_no_errors():
    problems = check_game("mini", FIXTURES)
    assert problems.errors == []


_SHIPPED: dict = {}


def shipped(game):
    # one check per game per test session, shared with test_knowledge (conftest.shipped_check)
    return shipped_check(game)


def test_all_shipped_rulebooks_check():
    # how long it takes is measured in bench/ (bench/scale.py, bench/run.py), never asserted here
    for game in list_games():
        _SHIPPED[game] = shipped(game)
        crashed = [p.message for p in _SHIPPED[game].items if p.category == "analysis"]
        assert crashed == [], game


@pytest.mark.parametrize("game", list_games())
def test_shipped_rulebooks_have_no_analysis_errors(game):
    """An error here is a real finding for the knowledge authors (see the message)."""
    problems = shipped(game)
    errors = [problem_text(p) for p in problems.errors if p.category in ANALYSIS_ERRORS - {"dangling"}]
    assert errors == []


def test_preferans_clan_6_against_clan_7_without_the_reading(tmp_path):
    """Član 6 and Član 7 sanction one act differently; the rulebook keeps them apart by the
    referee's reading (impossible_reading). Without that gate on Član 7, the pair is a conflict."""
    source = ROOT / "knowledge" / "preferans"
    gate = "{q: impossible_reading, is: clan-7}"
    art = source / "articles" / "07-najava.yaml"
    assert gate in art.read_text()
    shutil.copytree(source, tmp_path / "preferans")
    copy = tmp_path / "preferans" / "articles" / "07-najava.yaml"
    copy.write_text(copy.read_text().replace(",\n    " + gate, ""))
    problems, hits = found("preferans", "conflict", tmp_path)
    pairs = [set(p.productions) for p in hits]
    assert {"impossible-game-clan-6", "impossible-game-clan-7"} in pairs
    # and with the reading asked, the same pair is no conflict
    clean = [p for p in shipped("preferans").items if p.category == "conflict"]
    assert {"impossible-game-clan-6", "impossible-game-clan-7"} not in [set(p.productions) for p in clean]


# --- the commands -------------------------------------------------------------------------

def test_check_command_text_and_json_and_exit_codes():
    result = run("check", "conflict", "--knowledge", str(BROKEN))
    assert result.exit_code == 1
    assert "error [conflict]" in result.output and "1 error(s)" in result.output
    data = json.loads(run("check", "conflict", "--knowledge", str(BROKEN), "--format", "json").output)
    conflict = [p for p in data["conflict"] if p["category"] == "conflict"][0]
    assert conflict["productions"] == ["bad-a", "bad-b"] and conflict["example"]["claim"] == ["bad-game"]
    assert conflict["file"].endswith("01-rules.yaml") and conflict["line"]
    ok = run("check", "mini", "--knowledge", str(FIXTURES))
    assert ok.exit_code == 0 and "warning [coverage]" in ok.output      # warnings only


def test_check_has_no_progress_bar_off_a_terminal():
    result = run("check", "mini", "--knowledge", str(FIXTURES))
    assert "checking" not in result.output


def test_test_coverage_lists_cases_per_provision():
    result = run("test", "mini", "--coverage", "--knowledge", str(FIXTURES))
    assert result.exit_code == 0
    assert "mini:1.early" in result.output and "+ early by d1" in result.output
    assert "penalty-bearing provisions covered both ways" in result.output
    assert "uncovered: mini:1.early, mini:2.bad-a, mini:3.bad-b" in result.output


def test_whatif_shows_the_diff_of_findings():
    case = FIXTURES / "mini" / "examples" / "case.yaml"
    result = run("whatif", str(case), "--set", "game=karo", "--knowledge", str(FIXTURES))
    assert result.exit_code == 0, result.output
    assert "  Game: pik -> karo" in result.output                     # the fact's label, not its id
    assert "~ Rule 1" in result.output and "bula: 4 bula" in result.output and "bula: 6 bula" in result.output
    gone = run("whatif", str(case), "--set", "claim=bad-game", "--knowledge", str(FIXTURES))
    assert "- Rule 1" in gone.output
    assert "dropped, no longer asked: In what order; Who spoke early; Was it his turn" in gone.output
    data = json.loads(run("whatif", str(case), "--set", "game=karo", "--format", "json",
                          "--knowledge", str(FIXTURES)).output)
    assert data["diff"]["changed"][0]["after"]["production"] == "early-penalty"
    bad = run("whatif", str(case), "--set", "game=trump", "--knowledge", str(FIXTURES))
    assert bad.exit_code == 2 and "invalid answer 'trump'" in bad.output


def test_update_rewrites_only_the_expect_block(tmp_path):
    root = tmp_path / "k"
    shutil.copytree(FIXTURES, root)
    art = root / "mini" / "articles" / "01-rules.yaml"
    original = art.read_text()
    wrong = original.replace("{player: d1, effect: bula, amount: 6}", "{player: d1, effect: bula, amount: 7}")
    art.write_text(wrong)
    refused = run("test", "mini", "--update", "--knowledge", str(root), input="n\n")
    assert refused.exit_code == 1 and art.read_text() == wrong
    result = run("test", "mini", "--update", "--knowledge", str(root), input="y\n")
    assert "-      amount: 7" in result.output.replace("- player: d1\n", "") or "amount: 7" in result.output
    assert "1 updated" in result.output and result.exit_code == 0
    after = art.read_text()
    head, _, _ = wrong.partition("    expect:\n")
    assert after.startswith(head)                           # everything before expect: byte-identical
    assert "amount: 6" in after.partition("    expect:\n")[2]
    assert run("test", "mini", "--knowledge", str(root)).exit_code == 0


def test_analysis_waits_for_files_that_do_not_load(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "k")
    art = tmp_path / "k" / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("when: {q: claim, has: bad-game}\n", "when: {q: claim, hass: bad-game}\n"))
    problems = check_game("mini", tmp_path / "k")
    assert problems.errors and {p.category for p in problems.items} == {"invalid"}
    assert "skipped" in problems.notes[0]


def test_whatif_can_leave_a_question_unanswered():
    case = FIXTURES / "mini" / "examples" / "case.yaml"
    refused = run("whatif", str(case), "--set", "early_turn=", "--knowledge", str(FIXTURES))
    assert refused.exit_code == 3                 # never a ruling silently on a missing fact
    assert "open questions the interview would ask: early_turn" in refused.output
    result = run("whatif", str(case), "--set", "early_turn=", "--allow-incomplete", "--knowledge", str(FIXTURES))
    assert result.exit_code == 0
    assert "Was it his turn: no -> —" in result.output and "- Rule 1" in result.output


def test_the_same_penalty_under_two_provisions_is_a_conflict(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "k")
    art = tmp_path / "k" / "mini" / "articles" / "01-rules.yaml"
    text = art.read_text()
    start = text.index("  - id: early-penalty")
    block = text[start:text.index("  - id: bad-a")]
    again = block.replace("id: early-penalty", "id: early-again").replace("cites: [mini:1.early]",
                                                                         "cites: [mini:4.first]")
    art.write_text(text.replace("cases:\n", again + "cases:\n", 1))
    _, hits = found("mini", "conflict", tmp_path / "k")
    assert [set(p.productions) for p in hits] == [{"early-penalty", "early-again"}]
    assert "applied twice" in hits[0].message


def test_update_of_a_flow_style_case_goes_to_a_separate_file(tmp_path):
    root = tmp_path / "k"
    shutil.copytree(FIXTURES, root)
    art = root / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text() + "  - {name: flow case, answers: {claim: [bad-game], game: pik}, "
                   "expect: {findings: [{provisions: [mini:2.bad-a]}]}}\n")
    before = art.read_bytes()
    result = run("test", "mini", "--update", "--knowledge", str(root), input="y\n")
    assert art.read_bytes() == before
    side = root / "mini" / "expect-update-01-rules.yaml"
    assert "written to" in result.output and side.exists()
    import yaml
    entry = yaml.safe_load(side.read_text())[0]
    assert entry["case"] == "flow case" and entry["expect"]["not_ruled"] == ["mini:2.bad-a"]
    assert run("check", "mini", "--knowledge", str(root)).exit_code == 0   # not read as an article


def test_update_rewrites_a_conditional_expectation_that_became_unconditional():
    """`referee test --update` works out the alternatives and the facts not established from
    the ruling too: a case that expected two branches, and now gets one ruling because the
    question has a default for 'unknown', loses the stale branches (they were kept before)."""
    from referee.expert.authoring.analysis.update import new_expect
    from referee.expert.engine.ruler import Ruler
    from referee.expert.interview.adjudicate import rule_dispute
    from referee.expert.language.dispute import Dispute
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("preferans")
    case = next(c for c in book.cases if "nobody can establish what had shown the suit" in c.name)
    ruling = rule_dispute(Ruler(book), Dispute(dict(case.answers)))
    old = {"alternatives": [{"if": {"could_not_know": False}, "findings": []}],
           "unknown": [{"question": "could_not_know", "matters": True}], "findings": []}
    new = new_expect(old, ruling)
    assert "alternatives" not in new
    assert new["unknown"] == [{"question": "could_not_know", "matters": False}]
    assert [f["kind"] for f in new["findings"]] == ["no-violation"]
