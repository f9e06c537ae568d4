"""The register: every ruling and appeal of a tournament, in one SQLite file.

Standard library ``sqlite3`` only. The file runs in WAL mode with a busy timeout, so two
referees saving on one laptop (two processes) wait for each other instead of failing, and a
reader never blocks a writer. Each save is ONE transaction (``BEGIN IMMEDIATE`` … ``COMMIT``):
a crash, a kill or Ctrl-C while saving leaves the register valid and the ruling either fully
there (record, citations, penalties, players) or not there at all.

Records are never altered: triggers refuse UPDATE and DELETE on rulings and appeals. An
appeal is a record of its own (kind ``appeal``) linked to the ruling it appeals.

Every ruling carries a seal (``expert.records.seal``: a keyed MAC chained over the rulings, the
key in ``<register>.key``). Lists, searches, counts and precedents are computed from the sealed
records alone: the index tables (citations, penalties, players, appeals) and the indexed columns
serve ``referee register verify``, which re-derives every one of them from the records and names
what differs. A register is opened read-only for reading (read-only media work), and is checked
(SQLite's quick_check, its tables and triggers, the last seal) before anything is written to it.

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
from referee.expert.language.finding_kinds import INFRACTION_KINDS
from referee.expert.records.record import (canonical_json, check_record_shape, compute_code, format_code,
                           looks_like_code, normalize_code)

ENV_VAR = "REFEREE_REGISTER"
#: ``wal`` (default) or ``delete``: SQLite's WAL needs shared memory, so a register kept on a
#: network share used from SEVERAL machines must use the rollback journal instead.
JOURNAL_ENV_VAR = "REFEREE_REGISTER_JOURNAL"
DEFAULT_NAME = "referee-register.sqlite"
SCHEMA_VERSION = 2
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
    record        TEXT NOT NULL,
    seal          TEXT
);
CREATE TABLE IF NOT EXISTS meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
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


TABLES = ("rulings", "citations", "penalties", "players", "appeals", "meta")
TRIGGERS = ("rulings_never_altered", "rulings_never_deleted", "appeals_never_altered",
            "appeals_never_deleted")
_NEVER_ALTERED = ("CREATE TRIGGER IF NOT EXISTS rulings_never_altered BEFORE UPDATE ON rulings\n"
                  "    BEGIN SELECT RAISE(ABORT, 'a ruling in the register is never altered'); END;")


class SealError(RefereeError):
    """A ruling in the register does not check against its seal (it, or the register, was altered)."""


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


def _damaged(method):
    """A damaged file (garbled pages, a dropped table, a record that is not JSON) found while
    reading: one line naming the register, never a traceback."""
    import functools

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise RefereeError(f"the register is damaged: {exc} (run `referee register verify`)",
                               str(self.path)) from None
    return guarded


class Register:
    """One register file. Use as a context manager or call ``close()``.

    ``readonly``: open for reading only (``mode=ro``; on read-only media, where SQLite cannot make
    its ``-shm`` file, as an immutable file); nothing is switched, created or migrated."""

    def __init__(self, path: str | os.PathLike | None = None, *, create: bool = True,
                 timeout: float = BUSY_TIMEOUT_MS / 1000, journal: str | None = None,
                 readonly: bool = False):
        journal = (journal or os.environ.get(JOURNAL_ENV_VAR) or "wal").lower()
        if journal not in ("wal", "delete"):
            raise RefereeError(f"register journal '{journal}': expected wal or delete "
                               f"(${JOURNAL_ENV_VAR})")
        self.path = default_register_path(path)
        self.readonly = readonly
        if (readonly or not create) and not self.path.exists():
            raise RefereeError(f"no register at {self.path} (set --register or "
                               f"{ENV_VAR}, or save a ruling first)")
        if self.path.exists() and self.path.is_dir():
            raise RefereeError(f"register path {self.path} is a directory, expected a file")
        if self.path.exists() and not self.path.is_file():
            raise RefereeError(f"register path {self.path} is not a regular file (a device, FIFO "
                               "or socket), expected an SQLite file")
        if not self.path.parent.exists():
            raise RefereeError(f"cannot create register {self.path}: folder "
                               f"{self.path.parent} does not exist")
        #: called with a stage name between the writes of a save (tests simulate crashes)
        self._save_hook: Callable[[str], None] | None = None
        self.key: bytes | None = None
        #: why seals cannot be checked or made here (no key file, a key of another register)
        self.key_problem: str | None = None
        self.sealed = True             # False: a register of schema 1, read-only (never sealed)
        self._write_checked = False
        self._conn = None
        if readonly:
            self._open_readonly(timeout)
        else:
            self._open_for_writing(timeout, journal)

    def _open_readonly(self, timeout: float) -> None:
        from urllib.parse import quote
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        last = None
        for suffix in ("", "&immutable=1"):
            try:
                self._conn = sqlite3.connect(uri + suffix, uri=True, timeout=timeout,
                                             isolation_level=None)
                self._conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
                version = self._conn.execute("PRAGMA user_version").fetchone()[0]
                tables = {t[0] for t in self._conn.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'")}
                break
            except sqlite3.DatabaseError as exc:
                last = exc
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
                if "unable to open" not in str(exc) and "readonly" not in str(exc):
                    break
        if self._conn is None:
            raise RefereeError(f"{self.path} is not a usable referee register: {last}")
        self.journal_mode = "read-only"
        if "rulings" not in tables:
            self.close()
            raise RefereeError(f"{self.path} is an SQLite file but not a referee register")
        if version > SCHEMA_VERSION:
            self.close()
            raise RefereeError(f"register {self.path} has schema version {version}; this "
                               f"referee knows version {SCHEMA_VERSION} (upgrade referee)")
        if version < 2:
            self.sealed = False
            self.key_problem = ("the register was made by an older referee and is not sealed; "
                                "save a ruling in it (or run `referee register verify` with write "
                                "access) to seal it")
            return
        self._load_key(create=False)

    def _open_for_writing(self, timeout: float, journal: str) -> None:
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
                self._load_key(create=True)
                break
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    if time.monotonic() < deadline:
                        time.sleep(delay)
                        delay = min(delay * 2, 0.2)
                        continue
                self.close()
                writable = os.access(self.path.parent, os.W_OK) and (
                    not self.path.exists() or os.access(self.path, os.W_OK))
                if "readonly" in str(exc) or "read-only" in str(exc) or not writable:
                    raise RefereeError(f"cannot write to register {self.path}: it is read-only "
                                       "(reading it works: register list, show, search, stats, "
                                       "verify)") from None
                raise RefereeError(f"cannot open register {self.path}: {exc}") from None
            except sqlite3.DatabaseError as exc:
                self.close()
                raise RefereeError(f"{self.path} is not a usable referee register: {exc}") from None
            except BaseException:
                self.close()
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
                if tables:             # an unversioned register of the first design
                    version = 1
                else:
                    for stmt in _split_sql(_SCHEMA):
                        self._conn.execute(stmt)
                    self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    return
            if version == 1:
                self._seal_old_register()

    def _seal_old_register(self) -> None:
        """Schema 1 to 2: add the seal column and the meta table, and seal the rulings there are,
        in order (they are taken as they are: the chain starts now)."""
        from referee.expert.records.seal import compute_seal, create_key, key_id
        self._conn.execute("ALTER TABLE rulings ADD COLUMN seal TEXT")
        for stmt in _split_sql(_SCHEMA):
            if stmt.startswith("CREATE TABLE IF NOT EXISTS meta"):
                self._conn.execute(stmt)
        key = create_key(self.path)
        self._conn.execute("DROP TRIGGER IF EXISTS rulings_never_altered")
        previous = None
        for rid, saved, text in self._conn.execute(
                "SELECT id, saved, record FROM rulings ORDER BY id").fetchall():
            previous = compute_seal(key, previous, rid, saved, text)
            self._conn.execute("UPDATE rulings SET seal = ? WHERE id = ?", (previous, rid))
        self._conn.execute(_NEVER_ALTERED)
        self._conn.execute("INSERT OR REPLACE INTO meta (name, value) VALUES ('key_id', ?)",
                           (key_id(key),))
        self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _load_key(self, create: bool) -> None:
        """The key file beside the register: made with a register that has no sealed ruling yet;
        a sealed register without its key (or with another register's) can be read, not sealed."""
        from referee.expert.records.seal import create_key, key_id, key_path, read_key
        # the key file is made before the first seal: once a seal is seen, the key is there to read
        any_sealed = self._conn.execute("SELECT 1 FROM rulings WHERE seal IS NOT NULL LIMIT 1").fetchone()
        key = read_key(self.path)
        stored = self._conn.execute("SELECT value FROM meta WHERE name = 'key_id'").fetchone()
        if key is None:
            if create and not any_sealed:
                key = create_key(self.path)
                with self._transaction():
                    self._conn.execute("INSERT OR REPLACE INTO meta (name, value) VALUES ('key_id', ?)",
                                       (key_id(key),))
                stored = (key_id(key),)
            else:
                self.key_problem = (f"the register's key file {key_path(self.path)} is missing: seals "
                                    "cannot be checked or made (restore the key file made with the register)")
                return
        if stored is not None and stored[0] != key_id(key):
            self.key_problem = (f"the key file {key_path(self.path)} is not this register's key "
                                "(its fingerprint differs): seals cannot be checked or made")
            return
        self.key = key

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

    def _ready_to_write(self) -> None:
        """Before the first write: the file is sound (quick_check), every table and trigger is
        there, the key is this register's, and the last ruling's seal holds. A damaged or
        tampered register is not written to."""
        if self._write_checked:
            return
        if self.readonly:
            raise RefereeError(f"the register {self.path} was opened for reading only")
        problem = None
        try:
            # the full check (indexes against their tables too): a few milliseconds a megabyte
            check = "; ".join(r[0] for r in self._conn.execute("PRAGMA integrity_check(20)"))
            if check != "ok":
                problem = f"SQLite finds it damaged ({check[:200]})"
            else:
                names = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master")}
                missing = [n for n in (*TABLES, *TRIGGERS) if n not in names]
                if missing:
                    problem = f"{', '.join(missing)} missing"
                elif self.key_problem:
                    problem = self.key_problem
                else:
                    failing = self._chain_failures()   # a ruling altered on disk stops us
                    if failing:
                        problem = (f"{len(failing)} ruling(s) fail their seal "
                                   f"({', '.join(failing[:5])})")
        except (sqlite3.DatabaseError, RefereeError) as exc:
            problem = str(exc)
        if problem:
            raise RefereeError(f"the register {self.path} is damaged or was altered: {problem}; "
                               "nothing was written (run `referee register verify`)")
        self._write_checked = True

    def _chain_failures(self) -> list[str]:
        """The rulings whose seal (with its link to the one before) fails: MACs only, no parsing."""
        from referee.expert.records.seal import seal_matches
        failing, previous = [], None
        for rid, saved, text, seal in self._conn.execute(
                "SELECT id, saved, record, seal FROM rulings ORDER BY id"):
            if not seal_matches(self.key, seal, previous, rid, saved, text):
                failing.append(f"#{rid}")
            previous = seal
        return failing

    def _link_holds(self, row, previous_seal) -> bool:
        from referee.expert.records.seal import seal_matches
        rid, saved, text, seal = row
        return self.key is not None and seal_matches(self.key, seal, previous_seal, rid, saved, text)

    def save(self, record: Mapping) -> int:
        """Save a sealed record; returns its id. Saving the same record again returns the
        id it already has. Refuses a record whose content does not hash to its code."""
        check_record_shape(record)
        code = self._check_seal(record)
        if record.get("kind", "ruling") == "appeal":
            raise RefereeError("an appeal decision is saved with save_appeal()")
        self._ready_to_write()
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
        linked to its original, which must be in the register (an appeal starts from a
        registered ruling). Returns the appeal's ruling id."""
        check_record_shape(decision)
        code = self._check_seal(decision)
        if decision.get("kind") != "appeal" or not decision.get("appeal_of"):
            raise RefereeError("not an appeal decision (kind 'appeal' with 'appeal_of')")
        orig_code = normalize_code(str(decision["appeal_of"]))
        if original is not None and self._check_seal(original) != orig_code:
            raise RefereeError("the original given is not the ruling this appeal is of")
        self._ready_to_write()
        try:
            with self._transaction():
                existing = self._id_of(code)
                if existing is not None:
                    return existing
                orig_id = self._id_of(orig_code)
                if orig_id is None:
                    raise RefereeError(f"the appealed ruling {format_code(orig_code)} is not in the "
                                       f"register {self.path}: an appeal starts from a registered ruling")
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
        from referee.expert.records.seal import compute_seal
        self._sealed_cache = None
        last = self._conn.execute("SELECT id, seal FROM rulings ORDER BY id DESC LIMIT 1").fetchone()
        rid = (last[0] if last else 0) + 1
        saved = _now()
        text = canonical_json(dict(rec))
        seal = compute_seal(self.key, last[1] if last else None, rid, saved, text)
        self._conn.execute(
            "INSERT INTO rulings (id, code, kind, game, edition, rulebook_hash, referee, table_no, "
            "deal, date, created, saved, no_infraction, appeal_of, record, seal) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rid, *index_columns(rec)[:-1], saved, 1 if rec.get("no_infraction") else 0, appeal_of,
             text, seal))
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

    # ------------------------------------------------------------ reading sealed data

    @_damaged
    def sealed_rows(self) -> list[tuple[int, dict]]:
        """Every ruling whose seal holds, in order, as ``(id, record)``. Rulings that fail are left
        out and named in ``self.seal_failures``; ``self.warnings`` says when seals could not be
        checked at all (no key file, an older register)."""
        from referee.expert.records.seal import seal_matches
        if getattr(self, "_sealed_cache", None) is not None:
            return list(self._sealed_cache)
        self.seal_failures: list[str] = []
        self.warnings: list[str] = [self.key_problem] if self.key_problem else []
        out = []
        previous = None
        columns = "id, saved, record, seal" if self.sealed else "id, saved, record, NULL"
        for rid, saved, text, seal in self._conn.execute(f"SELECT {columns} FROM rulings ORDER BY id"):
            link, previous = previous, seal
            if self.key is not None and not seal_matches(self.key, seal, link, rid, saved, text):
                self.seal_failures.append(f"#{rid}")
                continue
            try:
                rec = json.loads(text)
                check_record_shape(rec)
            except (ValueError, TypeError, RefereeError):
                self.seal_failures.append(f"#{rid}")
                continue
            out.append((rid, rec))
        self._sealed_cache = out        # one command reads the register once; a save clears it
        return list(out)

    def trust_note(self) -> str | None:
        """One line for stderr after a query: what was left out, or why nothing could be checked."""
        failures = getattr(self, "seal_failures", [])
        if failures:
            shown = ", ".join(failures[:10]) + (" ..." if len(failures) > 10 else "")
            return (f"{len(failures)} ruling(s) in the register fail their seal and are left out "
                    f"({shown}): the register was altered or damaged; run `referee register verify`")
        warnings = getattr(self, "warnings", [])
        if warnings:
            return f"seals not checked: {warnings[0]}"
        return None

    def _code_index(self, rows) -> dict[str, int]:
        return {rec.get("code"): rid for rid, rec in rows}

    @_damaged
    def get(self, id_or_code: Any) -> tuple[int, dict] | None:
        """``(id, record)`` by id (int or digits) or by code (as printed); None if absent.
        Raises ``SealError`` when the ruling found fails its seal."""
        rid, code = None, None
        if isinstance(id_or_code, int) or (isinstance(id_or_code, str)
                                           and id_or_code.strip().lstrip("#").isdigit()):
            digits = str(id_or_code).strip().lstrip("#")
            if not digits.isascii() or len(digits) > 18:    # '٣' or 5,000 digits: no such number
                return None
            rid = int(digits)
            if not self._conn.execute("SELECT 1 FROM rulings WHERE id = ?", (rid,)).fetchone():
                rid = None
                if isinstance(id_or_code, str) and looks_like_code(id_or_code):
                    code = normalize_code(id_or_code)  # a code can be all digits 2-7 (rarely)
                else:
                    return None
        elif isinstance(id_or_code, str) and looks_like_code(id_or_code):
            code = normalize_code(id_or_code)
        else:
            raise RefereeError(f"'{str(id_or_code)[:40]}' is neither a ruling number nor a "
                               "verification code")
        if code is not None:
            row = self._conn.execute("SELECT id FROM rulings WHERE code = ?", (code,)).fetchone()
            rid = row[0] if row else None
        if rid is not None:
            rec = self._checked(rid)
            if code is None or rec.get("code") == code:
                return rid, rec
        # the code column is only an index: a ruling whose column was edited is still found
        for other, rec in self.sealed_rows():
            if rec.get("code") == code:
                return other, rec
        return None

    def _checked(self, rid: int) -> dict:
        """The record of ruling ``rid`` after checking its seal (and its link to the one before)."""
        from referee.expert.records.seal import seal_matches
        columns = "id, saved, record, seal" if self.sealed else "id, saved, record, NULL"
        rid_, saved, text, seal = self._conn.execute(
            f"SELECT {columns} FROM rulings WHERE id = ?", (rid,)).fetchone()
        if self.key is not None:
            before = self._conn.execute(
                "SELECT seal FROM rulings WHERE id < ? ORDER BY id DESC LIMIT 1", (rid,)).fetchone()
            if not seal_matches(self.key, seal, before[0] if before else None, rid, saved, text):
                raise SealError(f"ruling #{rid} in the register fails its seal: it or the register "
                                "was altered (run `referee register verify`)", str(self.path))
        try:
            rec = json.loads(text)
        except ValueError:
            raise RefereeError(f"ruling #{rid} in the register is not a JSON record: the register is "
                               "damaged (run `referee register verify`)", str(self.path)) from None
        check_record_shape(rec, str(self.path))
        return rec

    def show(self, id_or_code: Any) -> dict:
        """A ruling with its links: ``{id, code, record, appeals: [...], original: {...}|None}``."""
        found = self.get(id_or_code)
        if found is None:
            raise RefereeError(f"no ruling {str(id_or_code)[:40]} in the register {self.path}")
        rid, rec = found
        rows = self.sealed_rows()
        ids = self._code_index(rows)
        appeals = [{"id": aid, "code": a.get("code"), "date": a.get("date"),
                    "note": (a.get("appeal") or {}).get("note"),
                    "amended": (a.get("appeal") or {}).get("amended") or [],
                    "differences": (a.get("appeal") or {}).get("differences") or {}}
                   for aid, a in rows if a.get("kind") == "appeal" and a.get("appeal_of") == rec.get("code")]
        original = None
        if rec.get("appeal_of") in ids:
            original = {"id": ids[rec["appeal_of"]], "code": rec["appeal_of"]}
        return {"id": rid, "code": rec.get("code"), "record": rec, "appeals": appeals,
                "original": original}

    @_damaged
    def count(self, kind: str | None = None) -> int:
        if kind:
            return self._conn.execute("SELECT count(*) FROM rulings WHERE kind = ?",
                                      (kind,)).fetchone()[0]
        return self._conn.execute("SELECT count(*) FROM rulings").fetchone()[0]

    def integrity(self) -> str:
        """SQLite's own ``integrity_check`` (``ok`` when sound)."""
        try:
            return "; ".join(r[0] for r in self._conn.execute("PRAGMA integrity_check"))
        except sqlite3.DatabaseError as exc:
            return str(exc)

    def records(self) -> Iterable[tuple[int, dict]]:
        yield from self.sealed_rows()

    def _matching(self, *, game=None, table=None, deal=None, player=None, provision=None,
                  article=None, date=None, date_from=None, date_to=None, referee=None,
                  kind=None, code=None) -> list[tuple[int, dict, tuple, dict]]:
        """The sealed rulings that pass the filters, ordered by date then number, each with its
        index rows and indexed columns (derived from the record, never read from the index)."""
        code = normalize_code(code) if code else None
        out = []
        for rid, rec in self.sealed_rows():
            cols = dict(zip(COLUMNS, index_columns(rec)))
            rows = _index_rows(rec)
            if game and cols["game"] != game:
                continue
            if table is not None and cols["table_no"] != str(table):
                continue
            if deal is not None and cols["deal"] != str(deal):
                continue
            day = cols["date"]
            if date and not (day or "").startswith(date):
                continue
            if date_from and (day is None or day < str(date_from)):
                continue
            if date_to and (day is None or day[:len(str(date_to))] > str(date_to)):
                continue
            if referee and (cols["referee"] or "").casefold() != referee.casefold():
                continue
            if kind and cols["kind"] != kind:
                continue
            if code and rec.get("code") != code:
                continue
            if player and not any(p.lower() == player.lower()
                                  or (role.startswith("named") and player.lower() in p.lower())
                                  for p, role in rows[2]):
                continue
            if provision and not any(c[1] == provision for c in rows[0]):
                continue
            if article and not any(c[2] is not None and (c[2].casefold() == article.casefold()
                                                         or c[2].casefold().endswith(article.casefold()))
                                   for c in rows[0]):
                continue
            out.append((rid, rec, rows, cols))
        out.sort(key=lambda t: (_nulls_first(t[3]["date"]), t[0]))
        return out

    def list(self, limit: int | None = None, **filters) -> list[dict]:
        """Rulings (newest last) matching the filters: game, table, deal, player (seat or
        name, substring), provision (inventory id), article, date (prefix: ``2026-11``),
        date_from, date_to, referee, kind (``ruling``/``appeal``). From sealed records only."""
        if limit is not None and limit < 0:
            raise RefereeError(f"--limit {limit}: expected a number of rulings, 0 or more")
        matching = self._matching(**filters)
        everything = self.sealed_rows() if filters else [(rid, rec) for rid, rec, _r, _c in matching]
        ids = self._code_index(everything)
        appealed: dict[str, int] = {}
        for _rid, rec in everything:
            if rec.get("kind") == "appeal" and rec.get("appeal_of"):
                appealed[rec["appeal_of"]] = appealed.get(rec["appeal_of"], 0) + 1
        out = []
        for rid, rec, _rows, cols in matching[:limit] if limit else matching:
            out.append({
                "id": rid, "code": rec.get("code"), "kind": cols["kind"], "game": cols["game"],
                "date": cols["date"], "table": cols["table_no"], "deal": cols["deal"],
                "referee": cols["referee"], "no_infraction": bool(rec.get("no_infraction")),
                "appeal_of": ids.get(rec.get("appeal_of")) if rec.get("appeal_of") else None,
                "appeals": appealed.get(rec.get("code"), 0),
                "findings": [finding_line(f) for f in rec.get("findings") or []],
                "provisions": sorted({str(p) for f in rec.get("findings") or []
                                      for p in f.get("provisions") or []}),
                "conditional": conditional_summary(rec),
            })
        return out

    search = list

    def precedents(self, provision: str, *, before: Any = None, **filters) -> list[dict]:
        """Earlier rulings on a provision: each with how it was ruled there (the findings
        that cite it, or why it was set aside). ``before``: a ruling id or code; only rulings
        saved before it. Other filters as for ``list``."""
        limit_id = None
        if before is not None:
            found = self.get(before)
            if found is None:
                raise RefereeError(f"no ruling {before} in the register")
            limit_id = found[0]
        out = []
        for rid, rec, _rows, cols in self._matching(provision=provision, **filters):
            if limit_id is not None and rid >= limit_id:
                continue
            ruled = [f for f in rec.get("findings") or [] if provision in (f.get("provisions") or [])]
            set_aside = [n for n in rec.get("not_ruled") or []
                         if provision in (n.get("provisions") or [])]
            out.append({"id": rid, "code": rec.get("code"), "kind": cols["kind"], "date": cols["date"],
                        "table": cols["table_no"], "deal": cols["deal"], "referee": cols["referee"],
                        "findings": ruled, "not_ruled": set_aside, "answers": rec.get("answers") or {}})
        return out

    def stats(self, top: int = 10, **filters) -> dict:
        """Counts: rulings, appeals, no-infraction rulings; rulings per referee, per table,
        per date; the most-cited provisions and articles (findings that stand). From sealed
        records only."""
        matching = self._matching(**filters)
        rulings = [t for t in matching if t[3]["kind"] == "ruling"]
        codes = {rec.get("code") for _rid, rec, _rows, _cols in matching}
        appealed = {rec.get("appeal_of") for _rid, rec in self.sealed_rows()
                    if rec.get("kind") == "appeal" and rec.get("appeal_of") in codes}

        def grouped(column):
            counts: dict = {}
            for _rid, _rec, _rows, cols in rulings:
                key = cols[column]
                counts[key] = counts.get(key, 0) + 1
            return [{"key": k, "rulings": n} for k, n in
                    sorted(counts.items(), key=lambda kv: (-kv[1], _nulls_first(kv[0])))]

        cited: dict[str, set] = {}
        article_of: dict[str, str] = {}
        articles: dict[str, set] = {}
        for rid, _rec, rows, _cols in rulings:
            for _finding, provision, article, role, _kind in rows[0]:
                if role != "finding":
                    continue
                cited.setdefault(provision, set()).add(rid)
                if article is not None:
                    article_of[provision] = max(article_of.get(provision, article), article)
                    articles.setdefault(article, set()).add(rid)
        most_cited = sorted(cited.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:int(top)]
        most_articles = sorted(articles.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:int(top)]
        return {
            "rulings": len(rulings),
            "no_infraction": sum(1 for _r, rec, _rows, _c in rulings if rec.get("no_infraction")),
            "appeals": sum(1 for _r, _rec, _rows, cols in matching if cols["kind"] == "appeal"),
            "rulings_appealed": len(appealed),
            "per_referee": grouped("referee"),
            "per_table": grouped("table_no"),
            "per_date": grouped("date"),
            "most_cited_provisions": [{"provision": p, "article": article_of.get(p), "rulings": len(ids)}
                                      for p, ids in most_cited],
            "most_cited_articles": [{"article": a, "rulings": len(ids)} for a, ids in most_articles],
        }


#: the indexed columns of ``rulings``, each derived from the record alone (``index_columns``)
COLUMNS = ("code", "kind", "game", "edition", "rulebook_hash", "referee", "table_no", "deal", "date",
           "created", "no_infraction")


def index_columns(rec: Mapping) -> tuple:
    """The values of ``COLUMNS`` for a record: what a ruling's row must hold."""
    rb = rec.get("rulebook") or {}
    return (rec.get("code"), rec.get("kind", "ruling"), _text(rb.get("game")), _text(rb.get("edition")),
            _text(rb.get("hash")), _text(rec.get("referee")), _text(rec.get("table")),
            _text(rec.get("deal")), _text(rec.get("date")), _text(rec.get("created")),
            1 if rec.get("no_infraction") else 0)


def _nulls_first(value) -> tuple:
    return (value is not None, "" if value is None else str(value))


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


def conditional_summary(rec: Mapping) -> dict | None:
    """A conditional ruling's alternatives, for the list: how many find an infraction, and each
    alternative's condition and findings. Its standing findings may be none and its
    ``no_infraction`` false while an alternative finds a violation; "no finding" would misreport it."""
    alternatives = (rec.get("ruling_extra") or {}).get("alternatives") or rec.get("alternatives") or []
    if not alternatives:
        return None
    rows = []
    for alt in alternatives:
        findings = alt.get("findings") or []
        rows.append({"if": alt.get("if") or {},
                     "infraction": any(f.get("kind") in INFRACTION_KINDS for f in findings),
                     "findings": [finding_line(f) for f in findings]})
    return {"alternatives": len(rows), "with_infraction": sum(1 for r in rows if r["infraction"]),
            "each": rows}


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
    ``expert.record.build_record`` (answer_times, cards, referee, table, deal, date, header).

    The record file is written in full (beside its target) before the ruling is registered and
    put in place after: a path that cannot be written (a special file, a missing or read-only
    folder) stops the command before anything is registered."""
    from referee.expert.language.fileio import prepare
    from referee.expert.records.record import build_record, record_text
    rec = build_record(ruling, rulebook, **record_fields)
    pending = prepare(record_path, record_text(rec)) if record_path else None
    try:
        if isinstance(register, Register):
            rid = register.save(rec)
        else:
            with Register(register) as reg:
                rid = reg.save(rec)
    except BaseException:
        if pending is not None:
            pending.discard()
        raise
    if pending is not None:
        try:
            pending.commit()
        except RefereeError as exc:
            raise RefereeError(f"the ruling is registered as #{rid} (code {format_code(rec['code'])}), "
                               f"but its record file could not be written: {exc.message}",
                               exc.file) from None
    return rec, rid
