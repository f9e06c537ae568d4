"""The rule author's loop: referee test -k / --format json|junit / --watch, referee check --strict."""
import json
import shutil
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.expert.authoring import watch as watching
from referee.expert.authoring.test_report import name_matches
from conftest import FIXTURES

K = ["--knowledge", str(FIXTURES)]


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture
def draft(tmp_path):
    """A copy of the miniature rulebook with a second case, one that fails."""
    root = tmp_path / "knowledge"
    shutil.copytree(FIXTURES, root)
    article = root / "mini" / "articles" / "01-rules.yaml"
    article.write_text(article.read_text() + """\
  - name: early by d2, expected wrongly
    answers: {claim: [early], early_who: d2, early_turn: false, game: pik}
    expect:
      findings:
        - provisions: [mini:1.early]
          kind: violation
          penalty:
            - {player: d2, effect: bula, amount: 5}
            - {player: d1, effect: supe, amount: 2, against: declarer}
  - name: nothing claimed early, bad game
    answers: {claim: [bad-game], game: pik}
    expect: {not_applied: [mini:1.early]}
""")
    return root


def test_k_chooses_cases_by_part_of_the_name_or_a_glob():
    assert name_matches("early by d1", ["EARLY"])
    assert name_matches("early by d1", ["early*d1"])
    assert not name_matches("early by d1", ["d1*"])                     # a glob matches the whole name
    assert name_matches("early by d1", ["nothing", "by d"])             # any pattern may match


def test_k_runs_only_the_matching_cases(draft):
    result = run("test", "mini", "--knowledge", str(draft), "-k", "d2", "-v")
    assert result.exit_code == 1
    assert "FAIL mini: early by d2, expected wrongly" in result.output
    assert "early by d1" not in result.output and "nothing claimed" not in result.output
    assert result.output.strip().endswith("0 passed, 1 failed")
    ok = run("test", "mini", "--knowledge", str(draft), "-k", "early by d1", "-k", "bad game", "-v")
    assert ok.exit_code == 0 and ok.output.strip().endswith("2 passed, 0 failed")


def test_k_that_matches_nothing_is_an_error_with_a_suggestion(draft):
    result = run("test", "--knowledge", str(draft), "-k", "erly")
    assert result.exit_code == 2
    assert "no case name matches 'erly'" in result.stderr and "did you mean -k 'early'" in result.stderr


def test_format_json_is_the_whole_report(draft):
    result = run("test", "mini", "--knowledge", str(draft), "--format", "json")
    assert result.exit_code == 1                     # a case fails; stdout is still one JSON document
    data = json.loads(result.stdout)
    assert (data["passed"], data["failed"]) == (2, 1)
    assert data["games"] == {"mini": {"passed": 2, "failed": 1}}
    failed = [c for c in data["cases"] if not c["passed"]]
    assert [c["name"] for c in failed] == ["early by d2, expected wrongly"]
    assert failed[0]["file"].endswith("01-rules.yaml") and failed[0]["line"] > 50
    assert any("penalty" in d for d in failed[0]["differences"])
    chosen = json.loads(run("test", "--knowledge", str(draft), "-k", "d1", "--format", "json").stdout)
    assert [c["name"] for c in chosen["cases"]] == ["early by d1"]


def test_format_junit_is_xml_a_ci_system_reads(draft):
    result = run("test", "mini", "--knowledge", str(draft), "--format", "junit")
    assert result.exit_code == 1
    suites = ET.fromstring(result.stdout)
    assert suites.tag == "testsuites" and suites.get("tests") == "3" and suites.get("failures") == "1"
    suite = suites.find("testsuite")
    assert suite.get("name") == "mini"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"early by d1", "early by d2, expected wrongly", "nothing claimed early, bad game"}
    failure = cases["early by d2, expected wrongly"].find("failure")
    assert failure is not None and "penalty" in failure.get("message")
    assert cases["early by d1"].find("failure") is None
    assert cases["early by d1"].get("classname") == "mini.Rule 1"


def test_formats_that_cannot_go_together_are_refused():
    for args, words in ((["--format", "json", "--update"], "--update"),
                        (["--format", "junit", "--watch"], "--watch"),
                        (["--format", "json", "--coverage"], "--coverage")):
        result = run("test", "mini", *K, *args)
        assert result.exit_code == 2 and words in result.stderr
        if "json" in args:
            assert "error" in json.loads(result.stdout)


def test_watch_reruns_the_casebook_of_the_rulebook_that_changed(draft, monkeypatch):
    article = draft / "mini" / "articles" / "01-rules.yaml"
    questions = draft / "mini" / "questions.yaml"
    steps = []

    def fake_sleep(_seconds):
        steps.append(len(steps))
        if len(steps) == 1:       # the author fixes the wrong expectation
            # (a comment changes the size too: a change within one tick of the file clock shows)
            article.write_text(article.read_text().replace("amount: 5}", "amount: 4}") + "# fixed\n")
        elif len(steps) == 2:     # nothing changed: nothing runs
            pass
        elif len(steps) == 3:     # a half-typed edit: the error is shown, the watch goes on
            questions.write_text(questions.read_text() + "- id: [\n")
        else:
            raise KeyboardInterrupt
    monkeypatch.setattr(watching, "_sleep", fake_sleep)
    result = run("test", "mini", "--knowledge", str(draft), "--watch")
    assert result.exit_code == 0, result.output
    out = result.stdout
    first, rest = out.split("mini: articles/01-rules.yaml changed")
    assert "FAIL mini: early by d2, expected wrongly" in first and "2 passed, 1 failed" in first
    after_fix, after_break = rest.split("mini: questions.yaml changed")
    assert "3 passed, 0 failed" in after_fix and "FAIL" not in after_fix
    assert "malformed YAML" in result.stderr and "questions.yaml" in result.stderr
    assert "watching mini" in result.stderr and "stopped watching" in result.stderr
    assert out.count("changed") == 2                 # the quiet round ran nothing


def test_watch_sees_files_added_edited_and_removed(tmp_path):
    (tmp_path / "g" / "articles").mkdir(parents=True)
    a = tmp_path / "g" / "articles" / "a.yaml"
    a.write_text("x: 1\n")
    before = watching.snapshot(tmp_path, ["g"])
    assert watching.changed(before, watching.snapshot(tmp_path, ["g"])) == {}
    a.write_text("x: 12\n")
    b = tmp_path / "g" / "articles" / "b.yaml"
    b.write_text("y: 1\n")
    after = watching.snapshot(tmp_path, ["g"])
    assert watching.changed(before, after) == {"g": [a, b]}
    a.unlink()
    assert watching.changed(after, watching.snapshot(tmp_path, ["g"])) == {"g": [a]}


def test_check_strict_fails_on_warnings():
    # the miniature rulebook checks without errors but with coverage warnings
    plain = run("check", "mini", *K)
    assert plain.exit_code == 0 and "warning [coverage]" in plain.output
    strict = run("check", "mini", *K, "--strict")
    assert strict.exit_code == 1 and "--strict: 5 warning(s) fail the check" in strict.stderr
    data = json.loads(run("check", "mini", *K, "--strict", "--format", "json").stdout)
    assert {p["severity"] for p in data["mini"]} == {"warning"}
