"""referee verify / register / appeal through click's CliRunner: edge cases and bad input."""
import json

import pytest
from click.testing import CliRunner

from referee.cli import main
from conftest import FIXTURES

K = ["--knowledge", str(FIXTURES)]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(result):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    err = result.stderr.strip()
    assert err and "\n" not in err and "Traceback" not in result.output
    return err


@pytest.fixture
def setup(tmp_path, mini, mini_ruler):
    from referee.expert.records.register import register_ruling
    reg = tmp_path / "reg.sqlite"
    recs = []
    for i, (who, game) in enumerate([("d1", "karo"), ("d2", "pik"), ("d1", "pik")]):
        answers = {"claim": ["early"], "early_who": who, "early_turn": False, "game": game}
        header = {"tournament": "Open", "table": str(i + 1), "deal": str(10 + i),
                  "referee": "Ana" if i < 2 else "Bela", "players": {"d2": "Marko"}}
        rec, rid = register_ruling(mini_ruler.rule(answers, header), mini, register=reg,
                                   record_path=tmp_path / f"r{i}.json", date="2026-11-29")
        recs.append(rec)
    return tmp_path, reg, recs


@pytest.mark.parametrize("command", [["verify"], ["register"], ["register", "list"],
                                     ["register", "search"], ["register", "show"],
                                     ["register", "stats"], ["appeal"]])
def test_help(command):
    result = run(*command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


def test_verify_code_as_typed_and_record_file(setup):
    tmp, reg, recs = setup
    code = recs[0]["code"]
    r = run("verify", f"{code[:5].lower()} {code[5:].lower()}", "--register", reg, *K)
    assert r.exit_code == 0 and r.output.startswith("OK:") and "ruling #1" in r.output
    assert "the rulebook is unchanged" in r.output
    r = run("verify", tmp / "r1.json", "--register", reg, *K)
    assert r.exit_code == 0 and r.output.startswith("OK:") and "#2" in r.output


def test_verify_names_each_field_that_differs(setup):
    tmp, reg, recs = setup
    rec = json.loads((tmp / "r0.json").read_text())
    rec["findings"][0]["penalty"][0]["amount"] = 1
    rec["table"] = "9"
    (tmp / "bad.json").write_text(json.dumps(rec))
    r = run("verify", tmp / "bad.json", "--register", reg, *K)
    assert r.exit_code == 1 and r.output.startswith("MISMATCH")
    assert "  - findings[0].penalty[0].amount" in r.output and "  - table" in r.output


def test_verify_bad_input_is_one_line(setup, tmp_path):
    tmp, reg, recs = setup
    assert "not a verification code" in one_line_error(run("verify", "xyz", "--register", reg))
    one_line_error(run("verify", recs[0]["code"], "--register", tmp_path / "none.sqlite"))
    (tmp / "junk.json").write_text("{")
    assert "junk.json:1" in one_line_error(run("verify", tmp / "junk.json", "--register", reg))
    (tmp / "notrec.json").write_text('{"a": 1}')
    assert "not a ruling record" in one_line_error(run("verify", tmp / "notrec.json",
                                                       "--register", reg))
    (tmp / "junk.sqlite").write_bytes(b"junk" * 1000)
    one_line_error(run("verify", recs[0]["code"], "--register", tmp / "junk.sqlite"))


def test_verify_a_record_without_a_register_checks_its_seal(setup, tmp_path):
    tmp, reg, recs = setup
    r = run("verify", tmp / "r0.json", "--register", tmp_path / "none.sqlite", *K)
    # consistent with its own code, which anyone can compute: not a verified ruling (exit 1)
    assert r.exit_code == 1 and "no register was consulted" in r.output
    assert r.output.startswith("UNREGISTERED")
    rec = json.loads((tmp / "r0.json").read_text())
    rec["deal"] = "99"
    (tmp / "bad.json").write_text(json.dumps(rec))
    r = run("verify", tmp / "bad.json", "--register", tmp_path / "none.sqlite", *K)
    assert r.exit_code == 1 and "altered" in r.output


def test_verify_when_the_rulebook_no_longer_loads(setup, tmp_path):
    """A committee can verify a record even if its game is not in this knowledge root."""
    tmp, reg, recs = setup
    empty = tmp_path / "emptykb"
    empty.mkdir()
    r = run("verify", tmp / "r0.json", "--register", reg, "--knowledge", empty)
    assert r.exit_code == 0 and r.output.startswith("OK:")


def test_register_filters(setup):
    tmp, reg, recs = setup
    r = run("register", "list", "--register", reg)
    assert r.exit_code == 0 and r.output.count("Rule 1") == 3 and recs[2]["code"][:5] in r.output
    assert run("register", "list", "--referee", "Bela", "--register", reg).output.count("Rule 1") == 1
    assert run("register", "list", "--player", "marko", "--register", reg).output.count("Rule 1") == 3
    r = run("register", "search", "--table", "2", "--register", reg)
    assert r.output.count("Rule 1") == 1 and recs[1]["code"][:5] in r.output
    r = run("register", "search", "--deal", "12", "--register", reg)
    assert recs[2]["code"][:5] in r.output and r.output.count("Rule 1") == 1
    r = run("register", "search", "--article", "Rule 1", "--date", "2026-11", "--register", reg)
    assert r.output.count("Rule 1") == 3
    r = run("register", "search", "--provision", "mini:1.early", "--register", reg)
    assert r.exit_code == 0 and "earlier rulings on mini:1.early" in r.output
    assert "d1 bula 6" in r.output and "d2 bula 4" in r.output
    r = run("register", "search", "--provision", "mini:9.none", "--register", reg)
    assert "no earlier rulings" in r.output
    r = run("register", "show", recs[1]["code"], "--register", reg)
    assert r.exit_code == 0 and "RULING #2" in r.output and "early_who = d2" in r.output
    r = run("register", "stats", "--register", reg)
    assert "rulings: 3" in r.output and "Ana: 2" in r.output and "mini:1.early (Rule 1): 3" in r.output
    assert "rulings: 1" in run("register", "stats", "--deal", "11", "--register", reg).output


def test_register_bad_input(setup, tmp_path):
    tmp, reg, recs = setup
    assert "no ruling 99" in one_line_error(run("register", "show", "99", "--register", reg))
    assert "neither" in one_line_error(run("register", "show", "what?", "--register", reg))
    assert "no register" in one_line_error(run("register", "list", "--register",
                                               tmp_path / "none.sqlite"))
    (tmp / "junk.sqlite").write_bytes(b"junk" * 1000)
    one_line_error(run("register", "stats", "--register", tmp / "junk.sqlite"))
    (tmp / "dir.sqlite").mkdir()  # click's own usage error: exit 2, no traceback
    r = run("register", "list", "--register", tmp / "dir.sqlite")
    assert r.exit_code == 2 and "is a directory" in r.output and "Traceback" not in r.output


def test_register_path_from_env(setup, monkeypatch):
    tmp, reg, recs = setup
    monkeypatch.setenv("REFEREE_REGISTER", str(reg))
    r = run("register", "stats")
    assert r.exit_code == 0 and "rulings: 3" in r.output


def test_appeal_by_number_code_and_file(setup):
    from referee.expert.records.register import Register
    tmp, reg, recs = setup
    r = run("appeal", "1", "--set", "early_who=d2", "--set", "game=pik",
            "--note", "it was the second defender", "--register", reg, *K)
    assert r.exit_code == 0, r.output + r.stderr
    for part in ("DECISION OF THE APPEALS COMMITTEE", "THE RULING APPEALED", "FACTS AMENDED",
                 "Who spoke early: first defender → Marko (second defender)", "Game: karo → pik", "NEW DECISION",
                 "CHANGES PER PLAYER", "first defender — bula: +6 → —", "Marko (second defender) — bula: — → +4",
                 "Note: it was the second defender"):
        assert part in r.output, part
    assert "appeal #4 on ruling #1" in r.stderr
    r = run("verify", tmp / "r0.json", "--register", reg, *K)  # the original is unaltered
    assert r.exit_code == 0
    r = run("register", "show", "1", "--register", reg)
    assert "appealed: #4" in r.output and "it was the second defender" in r.output
    r = run("register", "show", "4", "--register", reg)
    assert "APPEAL DECISION #4" in r.output and "appeal of ruling #1" in r.output
    r = run("appeal", recs[1]["code"].lower(), "--set", "early_turn=yes", "--register", reg, *K)
    assert r.exit_code == 0 and "Rule 5: no violation" in r.output
    r = run("appeal", tmp / "r2.json", "--set", "game=", "--register", reg, *K)
    assert r.exit_code == 3 and "open questions the interview would ask: game" in r.stderr
    r = run("appeal", tmp / "r2.json", "--set", "game=", "--allow-incomplete", "--register", reg, *K)
    assert r.exit_code == 0 and "Game: pik → —" in r.output
    with Register(reg) as r_:
        assert r_.count("appeal") == 3 and r_.count("ruling") == 3
    assert "appeals: 3 on 3 rulings" in run("register", "stats", "--register", reg).output


def test_appeal_from_a_record_file_needs_the_register_holding_its_ruling(setup, tmp_path):
    tmp, reg, recs = setup
    fresh = tmp_path / "committee.sqlite"
    assert "no register" in one_line_error(run("appeal", tmp / "r0.json", "--set", "game=pik",
                                               "--register", fresh, *K))
    assert not fresh.exists()
    r = run("appeal", tmp / "r0.json", "--set", "game=pik", "--register", reg, *K)
    assert r.exit_code == 0, r.stderr
    r = run("register", "list", "--register", reg)
    assert recs[0]["code"][:5] in r.output and "APPEAL of #1" in r.output


def test_appeal_bad_input(setup):
    from referee.expert.records.register import Register
    tmp, reg, recs = setup
    assert "nobody" in one_line_error(run("appeal", "1", "--set", "early_who=nobody",
                                          "--register", reg, *K))
    assert "unknown question 'colour'" in one_line_error(run("appeal", "1", "--set", "colour=red",
                                                        "--register", reg, *K))
    assert "QUESTION=VALUE" in one_line_error(run("appeal", "1", "--set", "game",
                                                  "--register", reg, *K))
    assert "given twice" in one_line_error(run("appeal", "1", "--set", "game=pik", "--set",
                                               "game=karo", "--register", reg, *K))
    assert "no ruling 42" in one_line_error(run("appeal", "42", "--set", "game=pik",
                                                "--register", reg, *K))
    r = run("appeal", "1", "--register", reg, *K)  # --set is required
    assert r.exit_code == 2 and "Traceback" not in r.output
    rec = json.loads((tmp / "r0.json").read_text())
    rec["deal"] = "99"
    (tmp / "bad.json").write_text(json.dumps(rec))
    assert "altered" in one_line_error(run("appeal", tmp / "bad.json", "--set", "game=pik",
                                           "--register", reg, *K))
    with Register(reg) as r:
        assert r.count() == 3


def test_a_conditional_ruling_is_listed_as_conditional_not_as_no_finding(tmp_path):
    # preferans: item 2 claimed; whether the error caused the partner's fall is unknown:
    # alternative 1 finds a violation (Član 12, stav 2), alternative 2 none. No finding stands
    # outside the alternatives, and the list said "no finding"
    from case_helpers import rule_case
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.records.register import register_ruling
    ruling = rule_case(tmp_path, "preferans", {"answers": {
        "claim": ["bad-play"], "game": "herc", "game_mode": "talon", "contra_level": "none",
        "deal_play": "both", "deal_contra": "none", "tricks_first": 3, "tricks_second": 1,
        "play_offender": "defender_1", "play_error": "gross-2", "error_caused_fall": "unknown",
        "signal_discard": True, "could_not_know": False, "gentlemen": False}})
    assert not ruling.findings and len(ruling.alternatives) == 2
    reg = tmp_path / "reg.sqlite"
    register_ruling(ruling, load_rulebook("preferans"), register=reg, date="2026-11-29")
    r = run("register", "list", "--register", reg)
    assert r.exit_code == 0, r.output
    line = r.output.splitlines()[1]
    assert "no finding" not in line.split("alternatives", 1)[0] and "no infraction" not in line
    assert "conditional: infraction in 1 of 2 alternatives" in line
    assert "1. if error_caused_fall=True: Član 12, stav 2 · violation" in line
    rows = json.loads(run("register", "list", "--format", "json", "--register", reg).output)
    c = rows[0]["conditional"]
    assert (c["alternatives"], c["with_infraction"]) == (2, 1)
    assert [a["infraction"] for a in c["each"]] == [True, False] and rows[0]["no_infraction"] is False
    shown = run("register", "show", "1", "--register", reg).output
    assert "  - conditional: infraction in 1 of 2 alternatives" in shown
    assert "    1. if error_caused_fall=True: Član 12, stav 2 · violation" in shown
