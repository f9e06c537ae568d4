"""Records, the register, verification and appeals through the command line."""
import json

from click.testing import CliRunner

from referee.cli import main
from conftest import FIXTURES

K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"


def run(*args):
    return CliRunner().invoke(main, list(args))


def ruled(tmp_path):
    record = tmp_path / "record.json"
    result = run("rule", str(CASE), "--format", "json", "--record", str(record), *K)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["verification"], record


def test_every_ruling_is_registered_and_its_printed_code_verifies(tmp_path):
    code, record = ruled(tmp_path)
    listing = run("register", "list").output
    assert code in listing and "Rule 1" in listing
    ok = run("verify", code, *K)
    assert ok.exit_code == 0 and ok.output.startswith("OK:")
    ok = run("verify", str(record), *K)
    assert ok.exit_code == 0 and "the rulebook is unchanged" in ok.output
    assert code in run("register", "show", "1").output


def test_an_altered_record_or_an_unknown_code_does_not_verify(tmp_path):
    _code, record = ruled(tmp_path)
    data = json.loads(record.read_text())
    data["findings"][0]["penalty"][0]["amount"] = 1
    record.write_text(json.dumps(data))
    bad = run("verify", str(record), *K)
    assert bad.exit_code == 1 and "MISMATCH" in bad.output and "findings" in bad.output
    unknown = run("verify", "AAAAA-BBBBB", *K)
    assert unknown.exit_code == 1 and unknown.output.startswith("NOT FOUND")


def test_search_by_provision_lists_precedents_and_stats_count_rulings(tmp_path, monkeypatch):
    # A record carries the second it was made; the same facts ruled in another second are another ruling.
    monkeypatch.setattr("referee.expert.records.record._now", lambda: "2026-11-29T16:00:00+00:00")
    # ... and the ruling the second it was made (the front end's clock): the same second for all
    from datetime import datetime, timezone

    class _SameSecond(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2026, 11, 29, 16, 0, 0, tzinfo=timezone.utc)
    monkeypatch.setattr("referee.cli.datetime", _SameSecond)
    ruled(tmp_path)
    other = tmp_path / "other.yaml"
    other.write_text(CASE.read_text().replace("deal: 7", "deal: 8").replace("early_who: d2", "early_who: d1"))
    assert run("rule", str(other), *K).exit_code == 0
    assert ruled(tmp_path)[0]                       # the same ruling again is kept once
    found = run("register", "search", "--provision", "mini:1.early").output
    assert found.count("\n#") == 2 and "d2 bula 4" in found and "d1 bula 4" in found
    stats = run("register", "stats").output
    assert "rulings: 2" in stats and "Ana: 2" in stats
    assert run("register", "search").exit_code == 2


def test_appeal_rerules_on_amended_facts_and_keeps_the_original(tmp_path):
    code, record = ruled(tmp_path)
    before = record.read_text()
    result = run("appeal", "1", "--set", "early_turn=yes", "--note", "it was his turn", *K)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "FACTS AMENDED" in out and "no → yes" in out
    assert "Marko (second defender) — bula: +4 → —" in out
    assert record.read_text() == before
    shown = run("register", "show", "1").output
    assert code in shown and "appeal" in shown.lower()
    bad = run("appeal", "1", "--set", "early_turn=perhaps", *K)
    assert bad.exit_code == 2 and "perhaps" in bad.output


def test_no_register_means_no_code(tmp_path):
    result = run("rule", str(CASE), "--format", "json", "--no-register", *K)
    assert "verification" not in json.loads(result.stdout)
    assert "no register at" in run("register", "list").output


def test_listings_as_json_and_by_date_range_and_kind(tmp_path):
    for day, deal in (("2026-11-27", 1), ("2026-11-28", 2), ("2026-12-01", 3)):
        case = tmp_path / f"case{deal}.yaml"
        case.write_text(CASE.read_text().replace("deal: 7", f"deal: {deal}, date: '{day}'"))
        assert run("rule", str(case), *K).exit_code == 0
    listed = json.loads(run("register", "list", "--format", "json").stdout)
    assert [row["deal"] for row in listed] == ["1", "2", "3"]
    assert all(row["provisions"] == ["mini:1.early"] for row in listed)
    november = json.loads(run("register", "search", "--from", "2026-11-28", "--to", "2026-11",
                              "--format", "json").stdout)
    assert [row["deal"] for row in november] == ["2"]
    precedents = json.loads(run("register", "search", "--provision", "mini:1.early", "--from", "2026-11-28",
                                "--format", "json").stdout)
    assert [row["deal"] for row in precedents] == ["2", "3"] and precedents[0]["findings"]
    assert run("register", "search", "--kind", "appeal").output == "no rulings match\n"
    assert json.loads(run("register", "search", "--kind", "ruling", "--format", "json").stdout)
    stats = json.loads(run("register", "stats", "--to", "2026-11-30", "--format", "json").stdout)
    assert stats["rulings"] == 2
    shown = json.loads(run("register", "show", "1", "--format", "json").stdout)
    assert shown and json.dumps(shown)


def test_a_malformed_date_is_refused_with_what_was_expected(tmp_path):
    ruled(tmp_path)
    bad = run("register", "list", "--from", "28.11.2026")
    assert bad.exit_code == 2 and "expected a date YYYY-MM-DD" in bad.output and "--from" in bad.output


def test_an_amended_fact_that_closes_another_question_drops_its_answer_and_says_so(tmp_path):
    ruled(tmp_path)
    result = run("appeal", "1", "--set", "claim=bad-game", "--note", "only the game was claimed", *K)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Who spoke early: Marko (second defender) → —" in out and "no → —" in out
    decision = json.loads(run("register", "show", "2", "--format", "json").stdout)["record"]
    assert "early_who" not in decision["answers"] and "early_turn" not in decision["answers"]
    assert [f["provisions"] for f in decision["findings"]] == [["mini:3.bad-b"]]
