"""The register: every ruling and appeal of a tournament, in one SQLite file.

Standard library ``sqlite3`` only. The file runs in WAL mode with a busy timeout, so two
referees saving on one laptop (two processes) wait for each other instead of failing, and a
reader never blocks a writer. Each save is ONE transaction (``BEGIN IMMEDIATE`` … ``COMMIT``):
a crash, a kill or Ctrl-C while saving leaves the register valid and the ruling either fully
there (record, citations, penalties, players) or not there at all.

Records are never altered: triggers refuse UPDATE and DELETE on rulings and appeals. An
appeal is a record of its own (kind ``appeal``) linked to the ruling it appeals.

The path is, in order: the ``path`` argument (the CLI's ``--register``), the environment
variable ``REFEREE_REGISTER``, ``./referee-register.sqlite``.

Note: SQLite's WAL needs shared memory, so in WAL mode every process using the file must run
on the same machine (two referees on one laptop, or one laptop writing to a synced folder).
For a network share written from several machines, set ``REFEREE_REGISTER_JOURNAL=delete``
(rollback journal; still one transaction per save), and even then SQLite relies on the
share's file locking (https://www.sqlite.org/useovernet.html). SQLite keeps ``-wal`` and
``-shm`` files next to the register while it is open; they are part of it.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from referee.expert.language.errors import RefereeError
from referee.expert.records.record import (canonical_json, check_record_shape, compute_code, format_code,
                           looks_like_code, normalize_code)

ENV_VAR = "REFEREE_REGISTER"
#: ``wal`` (default) or ``delete``: SQLite's WAL needs shared memory, so a register kept on a
#: network share used from SEVERAL machines must use the rollback journal instead.
JOURNAL_ENV_VAR = "REFEREE_REGISTER_JOURNAL"
DEFAULT_NAME = "referee-register.sqlite"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 30_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rulings (
    id            INTEGER PRIMARY KEY,
    code          TEXT NOT NULL UNIQUE,
    kind          TEXT NOT NULL CHECK (kind IN ('ruling', 'appeal')),
    game          TEXT,
    edition       TEXT,
    rulebook_hash TEXT,
    referee       TEXT,
    table_no      TEXT,
    deal          TEXT,
    date          TEXT,
    created       TEXT,
    saved         TEXT NOT NULL,
    no_infraction INTEGER NOT NULL DEFAULT 0,
    appeal_of     INTEGER REFERENCES rulings(id),
    record        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS citations (
    ruling_id    INTEGER NOT NULL REFERENCES rulings(id),
    finding      INTEGER,
    provision    TEXT NOT NULL,
    article      TEXT,
    role         TEXT NOT NULL CHECK (role IN ('finding', 'not_ruled')),
    finding_kind TEXT
);
CREATE TABLE IF NOT EXISTS penalties (
    ruling_id INTEGER NOT NULL REFERENCES rulings(id),
    finding   INTEGER NOT NULL,
    player    TEXT,
    effect    TEXT,
    amount    NUMERIC,
    against   TEXT
);
CREATE TABLE IF NOT EXISTS players (
    ruling_id INTEGER NOT NULL REFERENCES rulings(id),
    player    TEXT NOT NULL,
    role      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS appeals (
    id          INTEGER PRIMARY KEY,
    ruling_id   INTEGER NOT NULL UNIQUE REFERENCES rulings(id),
    original_id INTEGER NOT NULL REFERENCES rulings(id),
    note        TEXT,
    amended     TEXT NOT NULL,
    diff        TEXT NOT NULL,
    saved       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_rulings_table ON rulings(table_no);
CREATE INDEX IF NOT EXISTS ix_rulings_deal ON rulings(deal);
CREATE INDEX IF NOT EXISTS ix_rulings_date ON rulings(date);
CREATE INDEX IF NOT EXISTS ix_rulings_referee ON rulings(referee);
CREATE INDEX IF NOT EXISTS ix_citations_provision ON citations(provision);
CREATE INDEX IF NOT EXISTS ix_citations_ruling ON citations(ruling_id);
CREATE INDEX IF NOT EXISTS ix_penalties_ruling ON penalties(ruling_id);
CREATE INDEX IF NOT EXISTS ix_players_player ON players(player);
CREATE INDEX IF NOT EXISTS ix_appeals_original ON appeals(original_id);
CREATE TRIGGER IF NOT EXISTS rulings_never_altered BEFORE UPDATE ON rulings
    BEGIN SELECT RAISE(ABORT, 'a ruling in the register is never altered'); END;
CREATE TRIGGER IF NOT EXISTS rulings_never_deleted BEFORE DELETE ON rulings
    BEGIN SELECT RAISE(ABORT, 'a ruling in the register is never deleted'); END;
CREATE TRIGGER IF NOT EXISTS appeals_never_altered BEFORE UPDATE ON appeals
    BEGIN SELECT RAISE(ABORT, 'an appeal in the register is never altered'); END;
CREATE TRIGGER IF NOT EXISTS appeals_never_deleted BEFORE DELETE ON appeals
    BEGIN SELECT RAISE(ABORT, 'an appeal in the register is never deleted'); END;
"""


def default_register_path(path: str | os.PathLike | None = None) -> Path:
    """``path`` if given, else ``$REFEREE_REGISTER``, else ``./referee-register.sqlite``."""
    if path:
        return Path(path)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return Path.cwd() / DEFAULT_NAME


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def _text(v: Any) -> str | None:
    return None if v is None else str(v)


class Register:
    """One register file. Use as a context manager or call ``close()``."""

    def __init__(self, path: str | os.PathLike | None = None, *, create: bool = True,
                 timeout: float = BUSY_TIMEOUT_MS / 1000, journal: str | None = None):
        journal = (journal or os.environ.get(JOURNAL_ENV_VAR) or "wal").lower()
        if journal not in ("wal", "delete"):
            raise RefereeError(f"register journal '{journal}': expected wal or delete "
                               f"(${JOURNAL_ENV_VAR})")
        self.path = default_register_path(path)
        if not create and not self.path.exists():
            raise RefereeError(f"no register at {self.path} (set --register or "
                               f"{ENV_VAR}, or save a ruling first)")
        if self.path.exists() and self.path.is_dir():
            raise RefereeError(f"register path {self.path} is a directory, expected a file")
        if not self.path.parent.exists():
            raise RefereeError(f"cannot create register {self.path}: folder "
                               f"{self.path.parent} does not exist")
        #: called with a stage name between the writes of a save (tests simulate crashes)
        self._save_hook: Callable[[str], None] | None = None
        try:
            self._conn = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise RefereeError(f"cannot open register {self.path}: {exc}") from None
        # Switching a new file to WAL and creating the schema can meet SQLITE_BUSY without
        # SQLite's busy handler being called (lock upgrade while another process does the
        # same); retry those steps until the timeout.
        deadline = time.monotonic() + timeout
        delay = 0.005
        while True:
            try:
                self._conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
                mode = self._conn.execute(f"PRAGMA journal_mode = {journal.upper()}").fetchone()[0]
                self.journal_mode = str(mode).lower()
                self._conn.execute("PRAGMA synchronous = FULL")
                self._conn.execute("PRAGMA foreign_keys = ON")
                self._ensure_schema()
                break
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    if time.monotonic() < deadline:
                        time.sleep(delay)
                        delay = min(delay * 2, 0.2)
                        continue
                self._conn.close()
                raise RefereeError(f"cannot open register {self.path}: {exc}") from None
            except sqlite3.DatabaseError as exc:
                self._conn.close()
                raise RefereeError(f"{self.path} is not a usable referee register: {exc}") from None
            except BaseException:
                self._conn.close()
                raise

    # ------------------------------------------------------------ plumbing

    def __enter__(self) -> "Register":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "_conn", None) is not None:
            self._conn.close()
            self._conn = None

    def _ensure_schema(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise RefereeError(f"register {self.path} has schema version {version}; this "
                               f"referee knows version {SCHEMA_VERSION} (upgrade referee)")
        with self._transaction():
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                tables = self._conn.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'").fetchall()
                if tables and "rulings" not in {t[0] for t in tables}:
                    raise RefereeError(f"{self.path} is an SQLite file but not a referee register")
                for stmt in _split_sql(_SCHEMA):
                    self._conn.execute(stmt)
                self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    class _Tx:
        def __init__(self, conn):
            self.conn = conn

        def __enter__(self):
            self.conn.execute("BEGIN IMMEDIATE")
            return self.conn

        def __exit__(self, exc_type, exc, tb):
            if exc_type is None:
                self.conn.execute("COMMIT")
            else:  # any exception, KeyboardInterrupt included: nothing of it stays
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            return False

    def _transaction(self):
        return Register._Tx(self._conn)

    def _hook(self, stage: str) -> None:
        if self._save_hook is not None:
            self._save_hook(stage)

    # ------------------------------------------------------------ writing

    def save(self, record: Mapping) -> int:
        """Save a sealed record; returns its id. Saving the same record again returns the
        id it already has. Refuses a record whose content does not hash to its code."""
        check_record_shape(record)
        code = self._check_seal(record)
        if record.get("kind", "ruling") == "appeal":
            raise RefereeError("an appeal decision is saved with save_appeal()")
        try:
            with self._transaction():
                existing = self._id_of(code)
                if existing is not None:
                    return existing
                return self._insert(record, code, None)
        except sqlite3.Error as exc:
            raise RefereeError(f"could not save the ruling in {self.path}: {exc}") from None

    def save_appeal(self, decision: Mapping, original: Mapping | None = None) -> int:
        """Save an appeal decision (kind ``appeal``, ``appeal_of`` = the original's code),
        linked to its original. If ``original`` is given and not yet in the register, it is
        saved first, in the same transaction. Returns the appeal's ruling id."""
        check_record_shape(decision)
        code = self._check_seal(decision)
        if decision.get("kind") != "appeal" or not decision.get("appeal_of"):
            raise RefereeError("not an appeal decision (kind 'appeal' with 'appeal_of')")
        orig_code = normalize_code(str(decision["appeal_of"]))
        if original is not None:
            if self._check_seal(original) != orig_code:
                raise RefereeError("the original given is not the ruling this appeal is of")
        try:
            with self._transaction():
                existing = self._id_of(code)
                if existing is not None:
                    return existing
                orig_id = self._id_of(orig_code)
                if orig_id is None:
                    if original is None:
                        raise RefereeError(f"the appealed ruling {format_code(orig_code)} is "
                                           "not in the register")
                    orig_id = (self._insert(original, orig_code, None)
                               if original.get("kind", "ruling") != "appeal"
                               else self._insert_appeal_row_less(original, orig_code))
                    self._hook("original-saved")
                rid = self._insert(decision, code, orig_id)
                self._hook("appeal-ruling-saved")
                appeal = decision.get("appeal") or {}
                self._conn.execute(
                    "INSERT INTO appeals (ruling_id, original_id, note, amended, diff, saved) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (rid, orig_id, appeal.get("note"),
                     canonical_json(appeal.get("amended") or []),
                     canonical_json(appeal.get("differences") or {}), _now()))
                self._hook("appeal-linked")
                return rid
        except sqlite3.Error as exc:
            raise RefereeError(f"could not save the appeal in {self.path}: {exc}") from None

    def _insert_appeal_row_less(self, rec: Mapping, code: str) -> int:
        # an appeal of an appeal whose first appeal is not registered: register it plainly
        parent = rec.get("appeal_of")
        parent_id = self._id_of(normalize_code(str(parent))) if parent else None
        return self._insert(rec, code, parent_id)

    def _check_seal(self, record: Mapping) -> str:
        computed = compute_code(record)
        claimed = record.get("code")
        if claimed is None:
            raise RefereeError("the record has no verification code (seal it first)")
        if normalize_code(str(claimed)) != computed:
            raise RefereeError(f"the record's content hashes to {format_code(computed)}, not "
                               f"to its code {claimed}: it was altered; not saved")
        return computed

    def _id_of(self, code: str) -> int | None:
        row = self._conn.execute("SELECT id FROM rulings WHERE code = ?", (code,)).fetchone()
        return row[0] if row else None

    def _insert(self, rec: Mapping, code: str, appeal_of: int | None) -> int:
        rb = rec.get("rulebook") or {}
        cur = self._conn.execute(
            "INSERT INTO rulings (code, kind, game, edition, rulebook_hash, referee, table_no, "
            "deal, date, created, saved, no_infraction, appeal_of, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (code, rec.get("kind", "ruling"), rb.get("game"), _text(rb.get("edition")),
             rb.get("hash"), _text(rec.get("referee")), _text(rec.get("table")),
             _text(rec.get("deal")), _text(rec.get("date")), _text(rec.get("created")), _now(),
             1 if rec.get("no_infraction") else 0, appeal_of, canonical_json(dict(rec))))
        rid = cur.lastrowid
        self._hook("ruling-row")
        cits, pens, players = _index_rows(rec)
        self._conn.executemany(
            "INSERT INTO citations (ruling_id, finding, provision, article, role, finding_kind) "
            "VALUES (?, ?, ?, ?, ?, ?)", [(rid, *c) for c in cits])
        self._hook("citations")
        self._conn.executemany(
            "INSERT INTO penalties (ruling_id, finding, player, effect, amount, against) "
            "VALUES (?, ?, ?, ?, ?, ?)", [(rid, *p) for p in pens])
        self._hook("penalties")
        self._conn.executemany(
            "INSERT INTO players (ruling_id, player, role) VALUES (?, ?, ?)",
            [(rid, *p) for p in players])
        self._hook("players")
        return rid

    # ------------------------------------------------------------ reading

    def get(self, id_or_code: Any) -> tuple[int, dict] | None:
        """``(id, record)`` by id (int or digits) or by code (as printed); None if absent."""
        row = None
        if isinstance(id_or_code, int) or (isinstance(id_or_code, str)
                                           and id_or_code.strip().lstrip("#").isdigit()):
            rid = int(str(id_or_code).strip().lstrip("#"))
            row = self._conn.execute("SELECT id, record FROM rulings WHERE id = ?",
                                     (rid,)).fetchone()
            if row is None and isinstance(id_or_code, str) and looks_like_code(id_or_code):
                # a code can be all digits 2-7 (rarely): try it as a code too
                row = self._conn.execute("SELECT id, record FROM rulings WHERE code = ?",
                                         (normalize_code(id_or_code),)).fetchone()
        elif isinstance(id_or_code, str) and looks_like_code(id_or_code):
            row = self._conn.execute("SELECT id, record FROM rulings WHERE code = ?",
                                     (normalize_code(id_or_code),)).fetchone()
        else:
            raise RefereeError(f"'{id_or_code}' is neither a ruling number nor a "
                               "verification code")
        if row is None:
            return None
        return row[0], json.loads(row[1])

    def show(self, id_or_code: Any) -> dict:
        """A ruling with its links: ``{id, code, record, appeals: [...], original: {...}|None}``."""
        found = self.get(id_or_code)
        if found is None:
            raise RefereeError(f"no ruling {id_or_code} in the register {self.path}")
        rid, rec = found
        appeals = [
            {"id": r[0], "code": r[1], "date": r[2], "note": r[3],
             "amended": json.loads(r[4]), "differences": json.loads(r[5])}
            for r in self._conn.execute(
                "SELECT r.id, r.code, r.date, a.note, a.amended, a.diff FROM appeals a "
                "JOIN rulings r ON r.id = a.ruling_id WHERE a.original_id = ? ORDER BY r.id",
                (rid,))]
        original = None
        row = self._conn.execute(
            "SELECT o.id, o.code FROM rulings r JOIN rulings o ON o.id = r.appeal_of "
            "WHERE r.id = ?", (rid,)).fetchone()
        if row:
            original = {"id": row[0], "code": row[1]}
        return {"id": rid, "code": rec.get("code"), "record": rec, "appeals": appeals,
                "original": original}

    def count(self, kind: str | None = None) -> int:
        if kind:
            return self._conn.execute("SELECT count(*) FROM rulings WHERE kind = ?",
                                      (kind,)).fetchone()[0]
        return self._conn.execute("SELECT count(*) FROM rulings").fetchone()[0]

    def integrity(self) -> str:
        """SQLite's own ``integrity_check`` (``ok`` when sound)."""
        return "; ".join(r[0] for r in self._conn.execute("PRAGMA integrity_check"))

    def records(self) -> Iterable[tuple[int, dict]]:
        for rid, text in self._conn.execute("SELECT id, record FROM rulings ORDER BY id"):
            yield rid, json.loads(text)

    def _where(self, *, game=None, table=None, deal=None, player=None, provision=None,
               article=None, date=None, date_from=None, date_to=None, referee=None,
               kind=None, code=None) -> tuple[str, list]:
        cond, args = [], []
        if game:
            cond.append("r.game = ?"); args.append(game)
        if table is not None:
            cond.append("r.table_no = ?"); args.append(str(table))
        if deal is not None:
            cond.append("r.deal = ?"); args.append(str(deal))
        if date:
            cond.append("r.date LIKE ?"); args.append(f"{date}%")
        if date_from:
            cond.append("r.date >= ?"); args.append(str(date_from))
        if date_to:
            cond.append("substr(r.date, 1, length(?)) <= ?"); args += [str(date_to), str(date_to)]
        if referee:
            cond.append("r.referee = ? COLLATE NOCASE"); args.append(referee)
        if kind:
            cond.append("r.kind = ?"); args.append(kind)
        if code:
            cond.append("r.code = ?"); args.append(normalize_code(code))
        if player:
            # a seat id exactly; a player's name (from the header) in part, any case
            cond.append("EXISTS (SELECT 1 FROM players p WHERE p.ruling_id = r.id AND "
                        "(lower(p.player) = lower(?) OR (p.role LIKE 'named%' AND "
                        "instr(lower(p.player), lower(?)) > 0)))"); args += [player, player]
        if provision:
            cond.append("EXISTS (SELECT 1 FROM citations c WHERE c.ruling_id = r.id AND "
                        "c.provision = ?)"); args.append(provision)
        if article:
            cond.append("EXISTS (SELECT 1 FROM citations c WHERE c.ruling_id = r.id AND "
                        "(c.article = ? COLLATE NOCASE OR c.article LIKE ?))")
            args += [article, f"%{article}"]
        return (" WHERE " + " AND ".join(cond)) if cond else "", args

    def list(self, limit: int | None = None, **filters) -> list[dict]:
        """Rulings (newest last) matching the filters: game, table, deal, player (seat or
        name, substring), provision (inventory id), article, date (prefix: ``2026-11``),
        date_from, date_to, referee, kind (``ruling``/``appeal``)."""
        where, args = self._where(**filters)
        sql = ("SELECT r.id, r.code, r.kind, r.game, r.date, r.table_no, r.deal, r.referee, "
               "r.no_infraction, r.appeal_of, r.record, "
               "(SELECT count(*) FROM appeals a WHERE a.original_id = r.id) "
               f"FROM rulings r{where} ORDER BY r.date, r.id")
        if limit:
            sql += f" LIMIT {int(limit)}"
        out = []
        for row in self._conn.execute(sql, args):
            rec = json.loads(row[10])
            out.append({
                "id": row[0], "code": row[1], "kind": row[2], "game": row[3], "date": row[4],
                "table": row[5], "deal": row[6], "referee": row[7],
                "no_infraction": bool(row[8]), "appeal_of": row[9], "appeals": row[11],
                "findings": [finding_line(f) for f in rec.get("findings") or []],
                "provisions": sorted({p for f in rec.get("findings") or []
                                      for p in f.get("provisions") or []}),
            })
        return out

    search = list

    def precedents(self, provision: str, *, before: Any = None, **filters) -> list[dict]:
        """Earlier rulings on a provision: each with how it was ruled there (the findings
        that cite it, or why it was set aside). ``before``: a ruling id or code; only rulings
        saved before it. Other filters as for ``list``."""
        where, args = self._where(provision=provision, **filters)
        if before is not None:
            found = self.get(before)
            if found is None:
                raise RefereeError(f"no ruling {before} in the register")
            where += (" AND " if where else " WHERE ") + "r.id < ?"
            args.append(found[0])
        out = []
        for rid, code, kind, date, table, deal, referee, text in self._conn.execute(
                "SELECT r.id, r.code, r.kind, r.date, r.table_no, r.deal, r.referee, r.record "
                f"FROM rulings r{where} ORDER BY r.date, r.id", args):
            rec = json.loads(text)
            ruled = [f for f in rec.get("findings") or [] if provision in (f.get("provisions") or [])]
            set_aside = [n for n in rec.get("not_ruled") or []
                         if provision in (n.get("provisions") or [])]
            out.append({"id": rid, "code": code, "kind": kind, "date": date, "table": table,
                        "deal": deal, "referee": referee, "findings": ruled,
                        "not_ruled": set_aside, "answers": rec.get("answers") or {}})
        return out

    def stats(self, top: int = 10, **filters) -> dict:
        """Counts: rulings, appeals, no-infraction rulings; rulings per referee, per table,
        per date; the most-cited provisions and articles (findings that stand)."""
        where, args = self._where(**filters)
        q = self._conn.execute

        def grouped(col):
            return [{"key": k, "rulings": n} for k, n in q(
                f"SELECT {col}, count(*) FROM rulings r{where}"
                f"{' AND' if where else ' WHERE'} r.kind = 'ruling' "
                f"GROUP BY {col} ORDER BY count(*) DESC, {col}", args)]

        total = q(f"SELECT r.kind, count(*), sum(r.no_infraction) FROM rulings r{where} "
                  "GROUP BY r.kind", args).fetchall()
        counts = {k: (n, ni or 0) for k, n, ni in total}
        cited = [{"provision": p, "article": a, "rulings": n} for p, a, n in q(
            "SELECT c.provision, max(c.article), count(DISTINCT c.ruling_id) FROM citations c "
            f"JOIN rulings r ON r.id = c.ruling_id{where}"
            f"{' AND' if where else ' WHERE'} c.role = 'finding' AND r.kind = 'ruling' "
            f"GROUP BY c.provision ORDER BY 3 DESC, c.provision LIMIT {int(top)}", args)]
        articles = [{"article": a, "rulings": n} for a, n in q(
            "SELECT c.article, count(DISTINCT c.ruling_id) FROM citations c "
            f"JOIN rulings r ON r.id = c.ruling_id{where}"
            f"{' AND' if where else ' WHERE'} c.role = 'finding' AND r.kind = 'ruling' "
            "AND c.article IS NOT NULL "
            f"GROUP BY c.article ORDER BY 2 DESC, c.article LIMIT {int(top)}", args)]
        appealed = q(f"SELECT count(DISTINCT a.original_id) FROM appeals a "
                     f"JOIN rulings r ON r.id = a.original_id{where}", args).fetchone()[0]
        return {
            "rulings": counts.get("ruling", (0, 0))[0],
            "no_infraction": counts.get("ruling", (0, 0))[1],
            "appeals": counts.get("appeal", (0, 0))[0],
            "rulings_appealed": appealed,
            "per_referee": grouped("r.referee"),
            "per_table": grouped("r.table_no"),
            "per_date": grouped("r.date"),
            "most_cited_provisions": cited,
            "most_cited_articles": articles,
        }


# ---------------------------------------------------------------- helpers

def _split_sql(script: str) -> list[str]:
    """Split the schema into statements (triggers keep their inner ``;``)."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if text.endswith(";") and (not text.upper().startswith("CREATE TRIGGER")
                                   or text.upper().endswith("END;")):
            out.append(text)
            buf = []
    if "".join(buf).strip():
        out.append("\n".join(buf))
    return out


def finding_line(f: Mapping) -> str:
    summary = f.get("summary")
    if isinstance(summary, Mapping):
        summary = summary.get("en") or next(iter(summary.values()), "")
    provs = ", ".join(f.get("provisions") or [])
    bits = [b for b in (f.get("article"), f.get("kind"), provs) if b]
    return " · ".join(str(b) for b in bits) + (f": {summary}" if summary else "")


def _seat_names(header: Mapping) -> list[tuple[str, str]]:
    """(seat, name) pairs a header may carry under ``players``."""
    players = header.get("players") if isinstance(header, Mapping) else None
    out = []
    if isinstance(players, Mapping):
        for seat, name in players.items():
            if isinstance(name, Mapping):
                name = name.get("name")
            if name:
                out.append((str(seat), str(name)))
    elif isinstance(players, list):
        for p in players:
            if isinstance(p, Mapping) and p.get("name"):
                out.append((str(p.get("seat") or ""), str(p["name"])))
            elif isinstance(p, str):
                out.append(("", p))
    return out


def _index_rows(rec: Mapping) -> tuple[list, list, list]:
    """Rows for citations, penalties and players of one record."""
    cits, pens = [], []
    seats: dict[str, set] = {}
    for i, f in enumerate(rec.get("findings") or []):
        for p in f.get("provisions") or []:
            cits.append((i, str(p), _text(f.get("article")), "finding", _text(f.get("kind"))))
        for pen in f.get("penalty") or []:
            player = pen.get("player")
            amount = pen.get("amount")
            if not isinstance(amount, (int, float)) or isinstance(amount, bool):
                amount = None if amount is None else str(amount)
            pens.append((i, _text(player), _text(pen.get("effect")), amount,
                         _text(pen.get("against"))))
            if player is not None:
                seats.setdefault(str(player), set()).add("penalised")
        if f.get("offender") is not None:
            seats.setdefault(str(f["offender"]), set()).add("offender")
    for n in rec.get("not_ruled") or []:
        for p in n.get("provisions") or []:
            cits.append((None, str(p), _text(n.get("article")), "not_ruled", None))
    names = _seat_names(rec.get("header") or {})
    players = []
    for seat, roles in sorted(seats.items()):
        for role in sorted(roles):
            players.append((seat, role))
    for seat, name in names:
        role = "named"
        if seat in seats:
            role = "named-" + "-".join(sorted(seats[seat]))
        players.append((name, role))
    return cits, pens, players


# ---------------------------------------------------------------- one call for the CLI

def register_ruling(ruling: Any, rulebook: Any, *, register: "Register | str | os.PathLike | None" = None,
                    record_path: str | os.PathLike | None = None, **record_fields) -> tuple[dict, int]:
    """Build the record of a ruling, save it in the register (and, if ``record_path`` is
    given, as a JSON file), return ``(record, id)``. ``record_fields`` go to
    ``expert.record.build_record`` (answer_times, cards, referee, table, deal, date, header)."""
    from referee.expert.records.record import build_record, save_record
    rec = build_record(ruling, rulebook, **record_fields)
    if isinstance(register, Register):
        rid = register.save(rec)
    else:
        with Register(register) as reg:
            rid = reg.save(rec)
    if record_path:
        save_record(rec, record_path)
    return rec, rid
