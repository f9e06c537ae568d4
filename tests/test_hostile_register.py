"""Issue 17.3, 17.5 and 17.9: the seal covers what is searched; damaged, altered and read-only
registers give one-line answers, and nothing is written to a damaged one."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import FIXTURES, ROOT
from referee.cli import main
from referee.expert.records.record import canonical_json, compute_code
from referee.expert.records.register import Register
from referee.expert.records.seal import key_path

K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(result):
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


@pytest.fixture
def reg(tmp_path):
    """A register with three rulings (tables 1-3, deals 7-9) and one appeal of the first."""
    path = tmp_path / "reg.sqlite"
    for i in range(3):
        case = tmp_path / f"c{i}.yaml"
        case.write_text(CASE.read_text().replace("table: 3", f"table: {i + 1}").replace("deal: 7", f"deal: {7 + i}"))
        assert run("rule", case, "--register", path, *K).exit_code == 0
    assert run("appeal", "1", "--set", "game=karo", "--register", path, *K).exit_code == 0
    return path


def tamper(path, *statements):
    conn = sqlite3.connect(path)
    for trigger in ("rulings_never_altered", "rulings_never_deleted", "appeals_never_altered",
                    "appeals_never_deleted"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for stmt in statements:
        if callable(stmt):
            stmt(conn)
        else:
            conn.execute(stmt)
    conn.commit()
    conn.close()


def listing(path, *args):
    r = run("register", "list", "--format", "json", "--register", path, *args)
    return r, (json.loads(r.stdout) if r.stdout.strip() else None)


def test_a_fresh_register_verifies_and_its_key_is_private(reg):
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 0 and r.output.startswith("OK:") and "4 ruling(s)" in r.output
    assert "head: ruling #4, seal " in r.output
    assert oct(key_path(reg).stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("edit,named", [
    ("UPDATE penalties SET amount = 0 WHERE ruling_id = 2", "#2: its penalties rows differ"),
    ("DELETE FROM citations WHERE ruling_id = 3", "#3: its citations rows differ"),
    ("UPDATE players SET player = 'Zed' WHERE ruling_id = 1", "#1: its players rows differ"),
    ("INSERT INTO citations VALUES (2, 0, 'mini:9.forged', 'Rule 9', 'finding', 'violation')",
     "#2: its citations rows differ"),
    ("UPDATE rulings SET referee = 'Zed', table_no = '9' WHERE id = 1", "#1: column referee is 'Zed'"),
    ("UPDATE rulings SET date = '2020-01-01' WHERE id = 2", "#2: column date"),
    ("UPDATE appeals SET note = 'forged' WHERE ruling_id = 4", "#4: its appeals row differs"),
    ("UPDATE rulings SET appeal_of = 2 WHERE id = 4", "#4: column appeal_of"),
    ("INSERT INTO penalties VALUES (99, 0, 'd1', 'bula', 5, NULL)", "penalties: rows for ruling number"),
])
def test_edited_index_rows_and_columns_change_no_answer_and_are_named(reg, edit, named):
    before = {args: listing(reg, *args)[1] for args in [(), ("--provision", "mini:1.early"), ("--table", "1"),
                                                      ("--player", "Marko"), ("--referee", "Ana")]}
    stats = json.loads(run("register", "stats", "--format", "json", "--register", reg).stdout)
    tamper(reg, edit)
    for args, rows in before.items():
        r, after = listing(reg, *args)
        assert r.exit_code == 0 and after == rows, (args, edit)
    assert json.loads(run("register", "stats", "--format", "json", "--register", reg).stdout) == stats
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 1 and r.output.startswith("DAMAGED OR ALTERED") and named in r.output, r.output


def resealed(conn, rid=2):
    """An altered record with its code recomputed: what anyone without the key can do."""
    text = conn.execute("SELECT record FROM rulings WHERE id = ?", (rid,)).fetchone()[0]
    rec = json.loads(text)
    rec["findings"][0]["penalty"][0]["amount"] = 0
    rec["answers"]["early_who"] = "nobody"
    rec["code"] = compute_code(rec)
    conn.execute("UPDATE rulings SET record = ?, code = ? WHERE id = ?", (canonical_json(rec), rec["code"], rid))
    return rec


def test_a_resealed_record_fails_its_seal_and_is_left_out(reg):
    codes = [r["code"] for r in listing(reg)[1]]
    tamper(reg, resealed)
    r, rows = listing(reg)
    assert r.exit_code == 1 and [x["id"] for x in rows] == [1, 3, 4]
    assert "fail their seal" in r.stderr and "#2" in r.stderr
    assert "fails its seal" in one_line_error(run("register", "show", "2", "--register", reg))
    forged = json.loads(sqlite3.connect(reg).execute("SELECT record FROM rulings WHERE id = 2").fetchone()[0])
    v = run("verify", forged["code"], "--register", reg)
    assert v.exit_code == 1 and "fail" in v.output
    v = run("verify", codes[1], "--register", reg)      # the code printed on the original ruling
    assert v.exit_code == 1
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 1 and "#2: the seal does not match" in r.output
    assert "fails its seal" in one_line_error(run("appeal", "2", "--set", "game=pik", "--register", reg, *K))


def test_a_removed_or_reordered_ruling_breaks_the_chain(reg, tmp_path):
    copy = tmp_path / "copy.sqlite"
    shutil.copy(reg, copy)
    shutil.copy(key_path(reg), key_path(copy))
    tamper(reg, "DELETE FROM citations WHERE ruling_id = 2", "DELETE FROM penalties WHERE ruling_id = 2",
           "DELETE FROM players WHERE ruling_id = 2", "DELETE FROM rulings WHERE id = 2")
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 1 and "#2 missing" in r.output and "#3: the seal does not match" in r.output

    def swap(conn):
        one, two = conn.execute("SELECT record, seal, saved FROM rulings WHERE id IN (2, 3) ORDER BY id").fetchall()
        conn.execute("UPDATE rulings SET record = ?, seal = ?, saved = ? WHERE id = 2", two)
        conn.execute("UPDATE rulings SET record = ?, seal = ?, saved = ? WHERE id = 3", one)
    tamper(copy, swap)
    r = run("register", "verify", "--register", copy)
    assert r.exit_code == 1 and "#2: the seal does not match" in r.output and "#3: the seal" in r.output


def test_nothing_is_written_to_an_altered_or_damaged_register(reg):
    size = reg.stat().st_size
    tamper(reg, "DROP TABLE players")
    err = one_line_error(run("rule", CASE, "--register", reg, *K))
    assert "damaged or was altered" in err and "players" in err
    with Register(reg, readonly=True) as r:
        assert r.count() == 4


def test_a_garbled_page_gives_one_line_errors_and_no_write(reg):
    data = bytearray(reg.read_bytes())
    page = 4096
    for i in range(page * 2, min(len(data), page * 2 + 3000)):
        data[i] = 0x5A
    reg.write_bytes(bytes(data))
    for command in (["register", "list"], ["register", "stats"], ["register", "show", "2"],
                    ["register", "search", "--table", "2"], ["verify", "AAAAA-AAAAA"]):
        r = run(*command, "--register", reg)
        assert r.exit_code in (0, 1, 2) and "Traceback" not in r.output, (command, r.output)
        assert r.exception is None or isinstance(r.exception, SystemExit), (command, repr(r.exception))
    r = run("register", "verify", "--register", reg)
    assert r.exit_code in (1, 2) and "Traceback" not in r.output
    r = run("rule", CASE, "--register", reg, *K)
    one_line_error(r)


def test_a_record_that_is_not_json(reg):
    tamper(reg, "UPDATE rulings SET record = '{not json' WHERE id = 3")
    r, rows = listing(reg)
    assert r.exit_code == 1 and [x["id"] for x in rows] == [1, 2, 4]
    assert "#3" in one_line_error(run("register", "show", "3", "--register", reg))
    r = run("register", "verify", "--register", reg)
    assert r.exit_code == 1 and "#3: the record is not a JSON ruling record" in r.output


def test_junk_and_other_files_as_a_register(tmp_path):
    (tmp_path / "junk.sqlite").write_bytes(os.urandom(8192))
    (tmp_path / "empty.sqlite").write_bytes(b"")
    os.mkfifo(tmp_path / "fifo.sqlite")
    for name in ("junk.sqlite", "fifo.sqlite"):
        for command in (["register", "list"], ["register", "verify"], ["rule", CASE, *K]):
            one_line_error(run(*command, "--register", tmp_path / name))
    assert run("register", "list", "--register", tmp_path / "empty.sqlite").exit_code in (0, 2)


def test_a_missing_or_foreign_key_file(reg, tmp_path):
    key = key_path(reg)
    saved = key.read_bytes()
    key.unlink()
    r = run("register", "list", "--register", reg)
    assert r.exit_code == 0 and "seals not checked" in r.stderr and "key file" in r.stderr
    assert "key file" in one_line_error(run("rule", CASE, "--register", reg, *K))
    assert run("register", "verify", "--register", reg).exit_code == 1
    key.write_text("00" * 32 + "\n")                # another register's key
    assert "not this register's key" in one_line_error(run("rule", CASE, "--register", reg, *K))
    key.write_bytes(saved)
    assert run("register", "verify", "--register", reg).exit_code == 0


def test_an_older_register_is_sealed_when_first_written(tmp_path):
    """A schema-1 register (no seals) still reads, and is sealed in order at the next save."""
    path = tmp_path / "old.sqlite"
    assert run("rule", CASE, "--register", path, *K).exit_code == 0
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER rulings_never_altered")
    conn.execute("ALTER TABLE rulings DROP COLUMN seal")
    conn.execute("DROP TABLE meta")
    conn.execute("CREATE TRIGGER rulings_never_altered BEFORE UPDATE ON rulings BEGIN "
                 "SELECT RAISE(ABORT, 'a ruling in the register is never altered'); END")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    key_path(path).unlink()
    r = run("register", "list", "--register", path)
    assert r.exit_code == 0 and "not sealed" in r.stderr
    second = tmp_path / "second.yaml"
    second.write_text(CASE.read_text().replace("deal: 7", "deal: 8"))
    assert run("rule", second, "--register", path, *K).exit_code == 0
    r = run("register", "verify", "--register", path)
    assert r.exit_code == 0 and "2 ruling(s)" in r.output, r.output


READ_ONLY = """
set -e
mount -t tmpfs -o size=8m tmpfs "$1"
cp "$2" "$2.key" "$1/"
mount -o remount,ro "$1"
export REFEREE_REGISTER="$1/$(basename "$2")"
for c in "register list" "register stats" "register show 1" "register verify" "register search --table 2"; do
    "$3" -c "from referee.cli import main; main()" $c >/dev/null 2>"$1.err" || { echo "FAIL $c"; cat "$1.err"; }
done
"$3" -c "from referee.cli import main; main()" rule "$4" --knowledge "$5" >/dev/null 2>"$1.err" && echo "WROTE"
cat "$1.err"
"""


def test_a_register_on_read_only_media_reads_and_refuses_writes_in_one_line(reg, tmp_path):
    """Run as root in a private mount namespace: a read-only tmpfs holding the register."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare to mount a read-only file system")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot make a mount namespace here")
    media = tmp_path / "media"
    media.mkdir()
    done = subprocess.run(["unshare", "-m", "sh", "-c", READ_ONLY, "sh", str(media), str(reg), sys.executable,
                           str(CASE), str(FIXTURES)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "FAIL" not in done.stdout and "WROTE" not in done.stdout, done.stdout + done.stderr
    err = done.stdout.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "read-only" in err[0], done.stdout
