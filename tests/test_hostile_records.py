"""Issue 17.2, 17.5 and 17.6: forged records are not appealed, outputs never replace special
files, and a write that fails leaves nothing half-done."""
import json
import os
import sqlite3

import pytest
from click.testing import CliRunner

import hostile_inputs as H
from conftest import FIXTURES
from referee.cli import main
from referee.expert.language import fileio
from referee.expert.language.errors import RefereeError
from referee.expert.records.record import compute_code

K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def one_line_error(result):
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


def count(register):
    if not register.exists():
        return 0
    return sqlite3.connect(register).execute("SELECT count(*) FROM rulings").fetchone()[0]


@pytest.fixture
def ruled(tmp_path):
    reg, record = tmp_path / "reg.sqlite", tmp_path / "ruling.json"
    r = run("rule", CASE, "--register", reg, "--record", record, *K)
    assert r.exit_code == 0, r.output
    return reg, record, json.loads(record.read_text())


def forge(tmp_path, rec, name="forged.json", **changes):
    rec = json.loads(json.dumps(rec))
    for path, value in changes.items():
        node = rec
        *parents, last = path.split(".")
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        node[int(last) if isinstance(node, list) else last] = value
    rec["code"] = compute_code(rec)           # anyone can: the code is an unkeyed hash
    out = tmp_path / name
    out.write_text(json.dumps(rec))
    return out


def test_a_fabricated_self_consistent_record_is_not_appealed(ruled, tmp_path):
    reg, _record, rec = ruled
    fake = forge(tmp_path, rec, **{"findings.0.penalty.0.amount": 99, "referee": "Nobody"})
    err = one_line_error(run("appeal", fake, "--set", "game=karo", "--register", reg, *K))
    assert "not in the register" in err
    assert count(reg) == 1
    v = run("verify", fake, "--register", reg, *K)
    assert v.exit_code == 1 and not v.output.startswith("OK")


def test_garbage_answers_in_a_resealed_record_are_refused(ruled, tmp_path):
    reg, _record, rec = ruled
    for i, answers in enumerate([{"claim": ["<script>"], "early_who": 7}, {"nope": 1},
                                 {"claim": "early", "early_turn": "maybe"}, [], "x"]):
        fake = forge(tmp_path, rec, f"g{i}.json", answers=answers)
        err = one_line_error(run("appeal", fake, "--set", "game=karo", "--register", reg, *K))
        assert "not in the register" in err or "answers" in err
    assert count(reg) == 1


@pytest.mark.parametrize("game", ["/etc", "../mini", "/tmp/x/mini", "mini/../mini", "", None, 5, ["mini"]])
def test_a_record_naming_a_rulebook_by_path_loads_nothing(ruled, tmp_path, game):
    reg, _record, rec = ruled
    fake = forge(tmp_path, rec, **{"rulebook.game": game})
    for command in (["appeal", fake, "--set", "game=karo", "--register", reg, *K],):
        result = run(*command)
        assert result.exit_code == 2 and "Traceback" not in result.output
    v = run("verify", fake, "--register", reg, *K)
    assert v.exit_code in (1, 2) and "Traceback" not in v.output and not v.output.startswith("OK")
    assert count(reg) == 1


def test_an_unchanged_record_file_appeals_its_registered_ruling(ruled):
    reg, record, rec = ruled
    r = run("appeal", record, "--set", "game=karo", "--register", reg, *K)
    assert r.exit_code == 0 and "appeal #2 on ruling #1" in r.stderr
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 0


def test_a_record_file_that_differs_from_its_registered_ruling_is_refused(ruled, tmp_path):
    reg, record, rec = ruled
    data = json.loads(record.read_text())
    data["answer_times"] = {}               # re-sealed, same code? no: a new code, not registered
    fake = forge(tmp_path, data)
    assert "not in the register" in one_line_error(run("appeal", fake, "--set", "game=karo",
                                                       "--register", reg, *K))


@pytest.mark.parametrize("junk", [b"", b"{", b"\xff\xfe\x00", b"[1, 2]", b'{"format": "referee-ruling/1"}',
                                  b'{"format": "referee-ruling/1", "rulebook": 1, "answers": 2, "findings": 3}',
                                  b'{"a": NaN}', b'{"a": ' + b"9" * 5000 + b"}", b"[" * 100000])
def test_junk_record_files(ruled, tmp_path, junk):
    reg, _record, _rec = ruled
    bad = tmp_path / "junk.json"
    bad.write_bytes(junk)
    for command in (["verify", bad, "--register", reg, *K], ["appeal", bad, "--set", "game=karo", "--register", reg, *K]):
        r = run(*command)
        assert r.exit_code in (1, 2) and "Traceback" not in r.output, (junk[:30], r.output, r.exception)
        assert r.exception is None or isinstance(r.exception, SystemExit), (junk[:30], repr(r.exception))
    assert count(reg) == 1


# ---------------------------------------------------------------- outputs (17.6)

def specials(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link.json"
    os.symlink(tmp_path / "target.json", link)
    folder = tmp_path / "folder"
    folder.mkdir()
    out = {str(fifo): "FIFO", str(link): "symbolic link", str(folder): "folder",
           str(tmp_path / "missing" / "x.json"): "no such folder"}
    null = H.private_null(tmp_path)         # a /dev/null of our own: a regression breaks only it
    if null:
        out[null] = "character device"
    return out


@pytest.mark.parametrize("option", ["--record", "--out"])
def test_rule_never_replaces_a_special_file_and_registers_nothing_then(tmp_path, option):
    reg = tmp_path / "reg.sqlite"
    for target, kind in specials(tmp_path).items():
        before = os.lstat(target).st_mode if os.path.lexists(target) else None
        assert kind in one_line_error(run("rule", CASE, option, target, "--register", reg, *K))
        after = os.lstat(target).st_mode if os.path.lexists(target) else None
        assert before == after                         # the node is still what it was
        assert count(reg) == 0                          # nothing half-done
    assert not (tmp_path / "target.json").exists()      # the link was not followed


def test_a_read_only_folder_for_the_record_registers_nothing(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    reg = tmp_path / "reg.sqlite"
    one_line_error(run("rule", CASE, "--record", folder / "r.json", "--register", reg, *K))
    assert count(reg) == 0


def test_the_atomic_writer(tmp_path):
    target = tmp_path / "a.txt"
    fileio.write_atomic(target, "one")
    target.chmod(0o640)
    fileio.write_atomic(target, "two")
    assert target.read_text() == "two" and oct(target.stat().st_mode & 0o777) == "0o640"
    pending = fileio.prepare(target, "three")
    pending.discard()
    assert target.read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["a.txt"]
    for special in specials(tmp_path):
        with pytest.raises(RefereeError):
            fileio.write_atomic(special, "x")
    assert not os.path.isfile("/dev/null")


def test_save_case_refuses_special_files(tmp_path):
    from referee.expert.interview.casefile import save_case
    for special in specials(tmp_path):
        with pytest.raises(RefereeError):
            save_case(special, "mini", {"claim": ["early"]}, note="x\ny")
    saved = save_case(tmp_path / "ok.yaml", "mini", {"claim": ["early"]}, note="two\nlines")
    assert saved.read_text().startswith("# two lines\n")
