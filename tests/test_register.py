"""The SQLite register: saving, never altering, searching, stats, crash safety, concurrency."""
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from referee.expert.language.errors import RefereeError
from referee.expert.records.record import build_record, compute_code, verify
from referee.expert.records.register import ENV_VAR, Register, default_register_path

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = {"game": "toy", "edition": "1", "hash": "sha256:" + "0" * 64}


def ruling(table=1, deal=1, offender="east", provision="toy:1.late", article="Član 1",
           amount=6, referee="Ana", date="2026-11-29", names=None):
    findings = []
    if offender:
        findings.append({"provisions": [provision], "article": article, "kind": "violation",
                         "summary": {"en": "x"}, "offender": offender,
                         "penalty": [{"player": offender, "effect": "bula", "amount": amount}]})
    r = {"game": "toy", "findings": findings, "not_ruled": [], "no_infraction": not findings,
         "answers": {"offender": offender}, "trail": [],
         "header": {"table": table, "deal": deal, "referee": referee}}
    if names:
        r["header"]["players"] = names
    return build_record(r, RULEBOOK, date=date)


@pytest.fixture
def reg(tmp_path):
    with Register(tmp_path / "reg.sqlite") as r:
        yield r


def test_wal_mode_and_one_file(reg, tmp_path, monkeypatch):
    assert reg.journal_mode == "wal"
    assert reg.integrity() == "ok"
    monkeypatch.setenv("REFEREE_REGISTER_JOURNAL", "delete")
    with Register(tmp_path / "share.sqlite") as r:
        assert r.journal_mode == "delete"
    monkeypatch.setenv("REFEREE_REGISTER_JOURNAL", "memory")
    with pytest.raises(RefereeError):
        Register(tmp_path / "x.sqlite")


def test_save_is_idempotent_and_get_by_id_or_code(reg):
    rec = ruling()
    rid = reg.save(rec)
    assert reg.save(rec) == rid and reg.count() == 1
    assert reg.get(rid) == (rid, rec)
    assert reg.get(str(rid)) == (rid, rec)
    assert reg.get(rec["code"].lower()) == (rid, rec)
    assert reg.get(999) is None
    with pytest.raises(RefereeError):
        reg.get("what?")


def test_refuses_an_altered_record(reg):
    rec = ruling()
    rec["deal"] = 99
    with pytest.raises(RefereeError, match="altered"):
        reg.save(rec)
    assert reg.count() == 0


def test_records_are_never_altered(reg, tmp_path):
    rid = reg.save(ruling())
    with pytest.raises(sqlite3.DatabaseError, match="never altered"):
        reg._conn.execute("UPDATE rulings SET referee = 'X' WHERE id = ?", (rid,))
    with pytest.raises(sqlite3.DatabaseError, match="never deleted"):
        reg._conn.execute("DELETE FROM rulings")
    assert verify(reg.get(rid)[1], reg).ok


def test_list_and_search_filters(reg):
    a = reg.save(ruling(table=1, deal=1, offender="east", date="2026-11-28", referee="Ana",
                        names={"east": "Petrović", "west": "Kovač"}))
    b = reg.save(ruling(table=2, deal=5, offender="west", provision="toy:2.revoke",
                        article="Član 2", date="2026-11-29", referee="Bela"))
    c = reg.save(ruling(table=2, deal=6, offender=None, date="2026-11-29", referee="Ana"))
    ids = lambda rows: [r["id"] for r in rows]
    assert ids(reg.list()) == [a, b, c]
    assert ids(reg.list(table=2)) == [b, c]
    assert ids(reg.list(deal=5)) == [b]
    assert ids(reg.list(player="west")) == [b]
    assert ids(reg.list(player="petrov")) == [a]  # by name, part of it, any case
    assert ids(reg.list(provision="toy:2.revoke")) == [b]
    assert ids(reg.search(article="Član 1")) == [a]
    assert ids(reg.search(article="2")) == [b]
    assert ids(reg.list(date="2026-11-29")) == [b, c]
    assert ids(reg.list(date="2026-11")) == [a, b, c]
    assert ids(reg.list(date_from="2026-11-29")) == [b, c]
    assert ids(reg.list(date_to="2026-11-28")) == [a]
    assert ids(reg.list(referee="ana")) == [a, c]
    row = reg.list(deal=5)[0]
    assert row["provisions"] == ["toy:2.revoke"] and row["table"] == "2"
    assert reg.list(deal=6)[0]["no_infraction"] is True


def test_precedents_list_earlier_rulings_on_a_provision(reg):
    first = reg.save(ruling(deal=1, amount=6))
    reg.save(ruling(deal=2, provision="toy:2.revoke", article="Član 2"))
    second = reg.save(ruling(deal=3, amount=4))
    later = reg.save(ruling(deal=4, amount=10))
    rows = reg.precedents("toy:1.late", before=later)
    assert [r["id"] for r in rows] == [first, second]
    assert [r["findings"][0]["penalty"][0]["amount"] for r in rows] == [6, 4]
    assert len(reg.precedents("toy:1.late")) == 3
    assert reg.precedents("toy:9.none") == []


def test_stats(reg):
    reg.save(ruling(table=1, referee="Ana"))
    reg.save(ruling(table=1, referee="Ana", deal=2))
    reg.save(ruling(table=2, referee="Bela", provision="toy:2.revoke", article="Član 2"))
    reg.save(ruling(table=3, referee="Bela", offender=None))
    s = reg.stats()
    assert s["rulings"] == 4 and s["no_infraction"] == 1 and s["appeals"] == 0
    assert s["per_referee"] == [{"key": "Ana", "rulings": 2}, {"key": "Bela", "rulings": 2}]
    assert s["most_cited_provisions"][0] == {"provision": "toy:1.late", "article": "Član 1",
                                             "rulings": 2}
    assert s["most_cited_articles"][0] == {"article": "Član 1", "rulings": 2}
    assert reg.stats(referee="Bela")["rulings"] == 2


def test_path_from_env_and_default(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env.sqlite"))
    assert default_register_path() == tmp_path / "env.sqlite"
    assert default_register_path(tmp_path / "x.sqlite") == tmp_path / "x.sqlite"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.chdir(tmp_path)
    assert default_register_path() == tmp_path / "referee-register.sqlite"
    with Register() as r:
        r.save(ruling())
    assert (tmp_path / "referee-register.sqlite").exists()


def test_bad_register_files(tmp_path):
    (tmp_path / "junk.sqlite").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(RefereeError):
        Register(tmp_path / "junk.sqlite")
    with pytest.raises(RefereeError):
        Register(tmp_path / "missing.sqlite", create=False)
    with pytest.raises(RefereeError):
        Register(tmp_path / "no" / "such" / "dir.sqlite")
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    with pytest.raises(RefereeError, match="not a referee register"):
        Register(tmp_path / "other.sqlite")


@pytest.mark.parametrize("stage", ["ruling-row", "citations", "penalties", "players"])
def test_interrupt_while_saving_leaves_nothing(reg, stage):
    reg.save(ruling(deal=1))

    def hook(s):
        if s == stage:
            raise KeyboardInterrupt

    reg._save_hook = hook
    with pytest.raises(KeyboardInterrupt):
        reg.save(ruling(deal=2))
    reg._save_hook = None
    assert reg.count() == 1 and reg.integrity() == "ok"
    for table in ("citations", "penalties", "players"):
        n = reg._conn.execute(f"SELECT count(DISTINCT ruling_id) FROM {table}").fetchone()[0]
        assert n <= 1
    reg.save(ruling(deal=2))  # and the register still takes rulings
    assert reg.count() == 2


def test_hard_crash_while_saving_leaves_register_valid(tmp_path):
    """A process killed mid-save (no rollback, no cleanup) leaves the ruling not there."""
    path = tmp_path / "reg.sqlite"
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(ROOT)!r})
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_register import ruling
        from referee.expert.records.register import Register
        reg = Register({str(path)!r})
        reg.save(ruling(deal=1))
        reg._save_hook = lambda stage: os._exit(9) if stage == "penalties" else None
        reg.save(ruling(deal=2))
        os._exit(0)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 9, proc.stderr
    with Register(path) as reg:
        assert reg.integrity() == "ok"
        assert [r["deal"] for r in reg.list()] == ["1"]
        assert reg._conn.execute("SELECT count(*) FROM citations").fetchone()[0] == 1


WRITER = """
import sys
sys.path.insert(0, {root!r})
from referee.expert.records.record import build_record
from referee.expert.records.register import Register
import os, time
who, n, path, go, journal = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
open(go + "." + who, "w").close()  # ready
while not os.path.exists(go):  # start together
    time.sleep(0.001)
rb = {{"game": "toy", "edition": "1", "hash": "sha256:" + "0" * 64}}
start = time.time()
with Register(path, journal=journal) as reg:
    for i in range(n):
        r = {{"game": "toy", "no_infraction": False, "not_ruled": [], "trail": [],
              "answers": {{"writer": who, "i": i}},
              "findings": [{{"provisions": ["toy:1.late"], "article": "Član 1",
                             "kind": "violation", "summary": {{"en": "late"}},
                             "penalty": [{{"player": who, "effect": "bula", "amount": i}}]}}],
              "header": {{"table": who, "deal": i, "referee": who}}}}
        reg.save(build_record(r, rb, date="2026-11-29"))
print(start, time.time())
"""


@pytest.mark.parametrize("journal,n", [("wal", 200), ("delete", 50)])
def test_two_processes_writing_at_once(tmp_path, journal, n):
    """Two processes save n rulings each into one register at the same moment: all are
    there, none is corrupted (WAL: the default; delete: the network-share setting)."""
    path = tmp_path / "shared.sqlite"
    code = WRITER.format(root=str(ROOT))
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", code, who, str(n), str(path), str(go), journal],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for who in ("north", "south")]
    import time
    deadline = time.time() + 60
    while time.time() < deadline and not all((tmp_path / f"go.{w}").exists() for w in ("north", "south")):
        time.sleep(0.01)  # both interpreters up and waiting
    go.write_text("go")
    spans = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        spans.append([float(x) for x in out.split()])
    # the two really wrote at the same time: each started before the other finished
    assert spans[0][0] < spans[1][1] and spans[1][0] < spans[0][1], spans
    with Register(path, journal=journal) as reg:
        assert reg.journal_mode == journal
        assert reg.integrity() == "ok"
        assert reg.count() == 2 * n
        seen = set()
        for rid, rec in reg.records():
            assert compute_code(rec) == rec["code"]  # none corrupted
            seen.add((rec["answers"]["writer"], rec["answers"]["i"]))
        assert seen == {(w, i) for w in ("north", "south") for i in range(n)}
        assert reg.stats()["per_referee"] == [{"key": "north", "rulings": n},
                                              {"key": "south", "rulings": n}]
        assert reg._conn.execute("SELECT count(*) FROM penalties").fetchone()[0] == 2 * n


def test_register_ruling_and_text_views(tmp_path):
    from referee.expert.records.register import register_ruling
    from referee.expert.records.record import format_code, load_record
    from referee.reports.register_views import list_text, precedents_text, show_text, stats_text, verification_text
    r = {"game": "toy", "findings": [{"provisions": ["toy:1.late"], "article": "Član 1",
                                      "kind": "violation", "summary": "late", "offender": "east",
                                      "penalty": [{"player": "east", "effect": "bula", "amount": 6}]}],
         "not_ruled": [{"provisions": ["toy:3.x"], "reason": "set aside: Član 1 prevails"}],
         "no_infraction": False, "answers": {"offender": "east", "claim": ["late"]},
         "trail": [{"production": "late", "cites": ["toy:1.late"], "facts": []}],
         "header": {"tournament": "Open", "table": "3", "deal": "12", "referee": "Ana",
                    "players": {"east": "Petrović"}}}
    path = tmp_path / "reg.sqlite"
    rec, rid = register_ruling(r, RULEBOOK, register=path, record_path=tmp_path / "r.json",
                               answer_times={"offender": "2026-11-29T10:01:00+00:00"},
                               date="2026-11-29")
    assert load_record(tmp_path / "r.json") == rec
    with Register(path) as reg:
        text = list_text(reg.list())
        assert format_code(rec["code"]) in text and "Član 1" in text and "Ana" in text
        show = show_text(reg.show(rid))
        for part in ("RULING #1", "tournament Open", "east Petrović", "offender = east",
                     "(at 2026-11-29T10:01:00+00:00)", "east: bula 6", "set aside [toy:3.x]",
                     "trail: late"):
            assert part in show, part
        stats = stats_text(reg.stats())
        assert "rulings: 1" in stats and "toy:1.late (Član 1): 1" in stats and "Ana: 1" in stats
        prec = precedents_text("toy:1.late", reg.precedents("toy:1.late"))
        assert "ruled: Član 1" in prec and "east bula 6" in prec
        assert "no earlier rulings" in precedents_text("toy:9", [])
        assert "no rulings match" in list_text([])
        assert verification_text(verify(rec, reg)).startswith("OK:")
        rec["deal"] = "13"
        out = verification_text(verify(rec, reg))
        assert out.startswith("MISMATCH") and "  - deal" in out


LOOPER = """
import sys
sys.path.insert(0, {root!r})
from referee.expert.records.record import build_record
from referee.expert.records.register import Register
rb = {{"game": "toy", "edition": "1", "hash": "sha256:" + "0" * 64}}
reg = Register(sys.argv[1])
i = 0
while True:
    r = {{"game": "toy", "no_infraction": False, "not_ruled": [], "trail": [],
          "answers": {{"i": i}},
          "findings": [{{"provisions": ["toy:1.late", "toy:1.later"], "article": "Član 1",
                         "kind": "violation", "summary": "late", "offender": "east",
                         "penalty": [{{"player": "east", "effect": "bula", "amount": i}},
                                     {{"player": "west", "effect": "supe", "amount": 2}}]}}],
          "header": {{"table": 1, "deal": i, "referee": "Ana"}}}}
    reg.save(build_record(r, rb, date="2026-11-29"))
    i += 1
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGKILL"])
def test_signal_in_the_middle_of_saving(tmp_path, sig):
    """Ctrl-C or a kill at a random moment of a stream of saves: every ruling that is
    there is whole (its citations, penalties and players), and the file is sound."""
    import signal
    import time
    path = tmp_path / "reg.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", LOOPER.format(root=str(ROOT)), str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    try:
        while time.time() < deadline:
            time.sleep(0.05)
            if path.exists():
                try:
                    with Register(path) as r:
                        if r.count() >= 30:
                            break
                except RefereeError:
                    pass
        proc.send_signal(getattr(signal, sig))
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    with Register(path) as reg:
        assert reg.integrity() == "ok"
        n = reg.count()
        assert n >= 30
        q = reg._conn.execute
        for rid, rec in reg.records():
            assert compute_code(rec) == rec["code"]
            assert q("SELECT count(*) FROM citations WHERE ruling_id = ?", (rid,)).fetchone()[0] == 2
            assert q("SELECT count(*) FROM penalties WHERE ruling_id = ?", (rid,)).fetchone()[0] == 2
            assert q("SELECT count(*) FROM players WHERE ruling_id = ?", (rid,)).fetchone()[0] == 3
        assert sorted(rec["answers"]["i"] for _, rec in reg.records()) == list(range(n))
