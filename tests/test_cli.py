"""Every command through click's CliRunner: outputs, rulings, and one-line errors with exit 2."""
import json

import pytest
import yaml
from click.testing import CliRunner

from referee.cli import main
from conftest import FIXTURES

K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("command", [[], ["games"], ["articles"], ["questions"], ["rule"], ["interview"],
                                     ["test"], ["check"], ["demo"]])
def test_every_command_has_help(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output


def test_rule_prints_the_ruling_in_each_format():
    result = run("rule", str(CASE), "--format", "json", *K)
    data = json.loads(result.stdout)
    assert data["verification"].count("-") == 1      # saved in the register, code printed
    assert data["game"] == "mini"
    assert [f["provisions"] for f in data["findings"]] == [["mini:1.early"]]
    assert data["findings"][0]["penalty"][0] == {"player": "d2", "effect": "bula", "amount": 4}
    assert [n["provisions"] for n in data["not_ruled"]] == [["mini:2.bad-a"], ["mini:3.bad-b"]]
    assert data["no_infraction"] is False
    assert set(data) >= {"game", "findings", "not_ruled", "no_infraction", "answers", "trail"}
    text = run("rule", str(CASE), *K).output
    assert "FINDING 1: Rule 1" in text and "Marko (second defender)" in text
    assert "  Offender: Marko (second defender)\n" in text           # named even where no penalty says it
    assert text.count("1. spoke-early (mini:1.early)") == 1
    md = run("rule", str(CASE), "--format", "md", *K).stdout
    assert md.startswith("# Ruling") and "**Offender:** Marko (second defender)" in md
    html = run("rule", str(CASE), "--format", "html", *K).stdout
    assert "<!DOCTYPE html>" in html and "size: A4" in html
    assert 'Offender: <strong>Marko (second defender)</strong>' in html


def test_rule_writes_to_out_file(tmp_path):
    out = tmp_path / "r.html"
    result = run("rule", str(CASE), "--format", "html", "--out", str(out), *K)
    assert result.exit_code == 0
    assert "Finding 1" in out.read_text()


def test_html_escapes_what_the_referee_typed(tmp_path):
    case = tmp_path / "c.yaml"
    data = yaml.safe_load(CASE.read_text())
    data["header"]["referee"] = "<script>alert(1)</script>{{ 7*7 }}"
    data["header"]["players"] = {"d2": "<img src=x onerror=alert(2)>{% raw %}"}
    case.write_text(yaml.safe_dump(data))
    html = run("rule", str(case), "--format", "html", *K).output
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "<img" not in html and "&lt;img src=x" in html and "{% raw %}" in html
    assert "{{ 7*7 }}" in html and "&lt;/script&gt;49" not in html   # not evaluated as a template


def write(tmp_path, text):
    path = tmp_path / "case.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, words", [
    ("game: mini\nanswers: {claim: [early], nope: 1}\n", "unknown question id 'nope'"),
    ("game: mini\nanswers: {claim: [early], early_turn: maybe}\n", "invalid answer 'maybe' to 'early_turn'"),
    ("game: mini\nanswers: {claim: [sideways]}\n", "invalid answer"),
    ("game: chess\nanswers: {}\n", "unknown game 'chess'"),
    ("game: mini\nanswers: {claim: [early\n", "malformed YAML"),
    ("answers: {}\n", "missing 'game:'"),
    ("game: mini\nanswers: !!python/object/apply:os.system [echo hi]\n", "malformed YAML"),
])
def test_bad_case_files_give_one_line_and_exit_2(tmp_path, text, words):
    path = write(tmp_path, text)
    result = run("rule", str(path), *K)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output
    assert lines[0].startswith(f"error: {path}:")
    assert "Traceback" not in result.output


def test_missing_case_file_and_unknown_game():
    result = run("rule", "/no/such/case.yaml", *K)
    assert result.exit_code == 2 and "no such file" in result.output
    result = run("articles", "chess", *K)
    assert result.exit_code == 2 and "unknown game 'chess', expected one of: mini" in result.output


def test_games_articles_questions_list_the_rulebook():
    assert "mini" in run("games", *K).output
    rows = json.loads(run("articles", "mini", "--format", "json", *K).output)
    early = next(r for r in rows if r["id"] == "mini:1.early")
    assert early["cited"] and early["cases"] == 1 and early["quote"] == "q1"
    assert "early_who (seat)" in run("questions", "mini", *K).output


def test_test_command_counts_and_fails_on_a_wrong_expectation(tmp_path):
    result = run("test", "mini", *K)
    assert result.exit_code == 0 and result.output.strip().endswith("1 passed, 0 failed")
    import shutil
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("amount: 6}", "amount: 7}"))
    result = run("test", "mini", "--knowledge", str(draft))
    assert result.exit_code == 1
    # the finding as YAML, as a case states it: the expected one and the ruled one
    assert "a finding differs (penalty):" in result.output
    assert ("expected: {provisions: [mini:1.early], kind: violation, penalty: [{player: d1, effect: bula, "
            "amount: 7}, {player: d2, effect: supe, amount: 2, against: declarer}]}") in result.output
    assert "ruled:    {provisions: [mini:1.early], kind: violation, penalty: [{player: d1, effect: bula, amount: 6}" in result.output
    assert "('d1'" not in result.output
    assert result.output.strip().endswith("0 passed, 1 failed")


def test_check_reports_dangling_references_in_a_draft(tmp_path):
    import shutil
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("cites: [mini:2.bad-a]", "cites: [mini:9.nothing]")
                   .replace("{q: claim, has: bad-game}\n    then: {finding: {kind: violation, claim: bad-game, summary: {en: a}",
                            "{q: claim, has: bad-gaem}\n    then: {finding: {kind: violation, claim: bad-game, summary: {en: a}"))
    result = run("check", "mini", "--knowledge", str(draft))
    assert result.exit_code == 1
    assert "cites 'mini:9.nothing'" in result.output
    assert "'bad-gaem', which that question does not allow" in result.output
    ok = run("check", "mini", *K)
    assert ok.exit_code == 0 and "0 error(s)" in ok.output


def test_check_lists_where_the_rules_do_not_decide(tmp_path):
    import shutil
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace("{finding: {kind: violation, claim: bad-game, summary: {en: a}, "
                                           "penalty: [{player: declarer, effect: bula, amount: 20}]}}",
                                           "{finding: {kind: undecided, claim: bad-game, summary: {en: the text "
                                           "stops here}}}"))
    result = CliRunner().invoke(main, ["check", "mini", "--knowledge", str(draft)])
    assert "note: undecided:" in result.output and "bad-a (mini:2.bad-a): the text stops here" in result.output


def test_a_claim_not_examined_says_which_finding_made_its_facts_irrelevant(tmp_path):
    cases = {
        "preferans": ("{claim: [bad-play, out-of-turn], order: [out-of-turn, bad-play], "
                      "game: herc, partner_fell: true, oot_before_turn: true, game_mode: talon, contra_level: none, "
                      "oot_offender: defender_2}",
                      "not examined — raised after an earlier violation (Član 7, stav 7); only the violation committed "
                      "first is ruled on (Član 22"),
        "ulti": ("{claim: [dealing, revoke], booked: false, deal_issue: wrong-count}",
                 "not examined — Osztás, 4. mondat settles the deal"),
        "skat": ("{claim: [trick-ownership]}", "the facts found meet no article's conditions"),
    }
    for game, (answers, expected) in cases.items():
        case = tmp_path / f"{game}.yaml"
        case.write_text(f"game: {game}\nanswers: {answers}\n")
        result = run("rule", str(case), "--no-register", "--allow-incomplete")
        if game == "skat":
            assert "not examined" not in result.output
            continue
        assert result.exit_code == 0 and expected in result.output, result.output


def test_rule_ignores_with_a_warning_an_answer_the_interview_would_not_ask(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text("game: mini\nanswers: {claim: [bad-game], game: pik, early_who: d1, early_turn: false}\n")
    result = run("rule", str(case), "--format", "json", "--no-register", *K)
    assert result.exit_code == 0
    assert "the answer to 'early_who' is ignored" in result.stderr
    assert "the answer to 'early_turn' is ignored" in result.stderr
    data = json.loads(result.stdout)
    assert "early_who" not in data["answers"] and [f["provisions"] for f in data["findings"]] == [["mini:3.bad-b"]]


def test_a_rectification_states_its_consequence_not_a_penalty(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text("game: bridge\nanswers: {claim: [misinformation], l21_player: S, l21_cause: misinformation, "
                    "l21_auction_over: false, l21_partner_called: false, l21_changes: true, "
                    "l21b2_lho_changes: false, deal_stage: auction}\n")   # ruled during the auction
    text = run("rule", str(case), "--no-register").output
    assert "Consequence:\n    - South — call cancelled" in text and "Penalty:" not in text
    assert "Последствие:" in run("rule", str(case), "--no-register", "--lang", "ru").output
    assert "  Penalty:\n" in run("rule", str(CASE), "--no-register", *K).output


def test_a_payment_due_without_any_irregularity_is_a_settlement_not_a_rectification(tmp_path):
    case = tmp_path / "case.yaml"
    # the deal as played (for the result on the score sheet): a makk parti made, nothing else bid
    case.write_text("game: ulti\nanswers: {claim: [scoring], booked: false, played_out: true, score_item: silent-ulti-made, seven_took_last: true, "
                    "scorer: declarer, trump: makk, game_kind: colour, res_parti: won, res_negyvenszaz: not-bid, "
                    "res_huszszaz: not-bid, res_ulti: not-bid, res_durchmars: not-bid, "
                    "res_teritett_durchmars: not-bid}\n")
    result = run("rule", str(case), "--format", "json", "--no-register")
    data = json.loads(result.stdout)
    assert data["no_infraction"] is True and [f["kind"] for f in data["findings"]] == ["settlement"]
    text = run("rule", str(case), "--no-register").output
    assert "Settlement due under the rules (no irregularity)" in text and "Irregularity established" not in text
