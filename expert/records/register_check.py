"""``referee register verify``: re-check every seal and every index row of a register.

For each ruling, in order: its seal (with the chain link to the ruling before it), its record (JSON,
a ruling record, hashing to its code), each indexed column of its row and each of its rows in the
citations, penalties, players and appeals tables, all re-derived from the sealed record. Index
rows that belong to no ruling, numbers missing from the sequence, and SQLite's own integrity check
are reported too. Every difference is named; nothing is repaired.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from referee.expert.language.errors import RefereeError
from referee.expert.records.record import canonical_json, check_record_shape, compute_code
from referee.expert.records.register import (COLUMNS, TABLES, TRIGGERS, Register, _index_rows,
                                             index_columns)
from referee.expert.records.seal import seal_matches, short

_MAX_LISTED = 200       # problems listed in full; the count is always given


@dataclass
class RegisterCheck:
    rulings: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    head: str | None = None          # the last seal, for writing down
    head_id: int | None = None
    failed: int = 0                  # problems found, also those not listed

    @property
    def ok(self) -> bool:
        return not self.failed

    def add(self, problem: str) -> None:
        self.failed += 1
        if len(self.problems) < _MAX_LISTED:
            self.problems.append(problem)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "rulings": self.rulings, "problems": self.problems,
                "problem_count": self.failed, "notes": self.notes,
                "head": {"id": self.head_id, "seal": short(self.head)} if self.head else None}


def _cell(value):
    """An index cell as SQLite's NUMERIC/TEXT affinities leave it, for comparison."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _rows(values) -> list:
    return sorted((tuple(_cell(v) for v in row) for row in values), key=repr)


def check_register(reg: Register) -> RegisterCheck:
    out = RegisterCheck()
    conn = reg._conn
    try:
        integrity = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
    except sqlite3.DatabaseError as exc:
        integrity = str(exc)
    if integrity != "ok":
        out.add(f"SQLite integrity check: {integrity[:300]}")
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        out.add(f"the register cannot be read: {exc}")
        return out
    for name in (*TABLES, *TRIGGERS):
        if name not in names and (name != "meta" or reg.sealed):
            out.add(f"{'table' if name in TABLES else 'trigger'} {name} is missing")
    if reg.key_problem:
        out.add(reg.key_problem)
    try:
        _check_rulings(reg, out, names)
    except sqlite3.DatabaseError as exc:
        out.add(f"the register cannot be read further: {exc}")
    return out


def _check_rulings(reg: Register, out: RegisterCheck, names: set) -> None:
    conn = reg._conn
    seal_col = "seal" if reg.sealed else "NULL"
    rows = conn.execute(f"SELECT id, code, kind, game, edition, rulebook_hash, referee, table_no, deal, "
                        f"date, created, no_infraction, saved, appeal_of, record, {seal_col} "
                        "FROM rulings ORDER BY id").fetchall()
    out.rulings = len(rows)

    def index(table, columns):
        found: dict[int, list] = {}
        if table in names:
            for row in conn.execute(f"SELECT ruling_id, {columns} FROM {table}"):
                found.setdefault(row[0], []).append(row[1:])
        return found

    citations = index("citations", "finding, provision, article, role, finding_kind")
    penalties = index("penalties", "finding, player, effect, amount, against")
    players = index("players", "player, role")
    appeals = index("appeals", "original_id, note, amended, diff")
    ids = {r[0] for r in rows}
    code_ids: dict[str, int] = {}
    records: dict[int, dict] = {}
    previous, expected_id = None, 1
    for row in rows:
        rid, stored_cols, saved, appeal_of, text, seal = row[0], row[1:12], row[12], row[13], row[14], row[15]
        if rid != expected_id:
            missing = f"#{expected_id}" if rid == expected_id + 1 else f"#{expected_id}-#{rid - 1}"
            out.add(f"ruling number(s) {missing} missing: removed from the register")
        expected_id = rid + 1
        if reg.key is not None:
            if seal is None:
                out.add(f"#{rid}: not sealed")
            elif not seal_matches(reg.key, seal, previous, rid, saved, text):
                out.add(f"#{rid}: the seal does not match: the record, its number or its save time was "
                        "altered, or the ruling before it was removed, re-sealed or altered")
        previous = seal
        try:
            rec = json.loads(text)
            check_record_shape(rec)
        except (ValueError, TypeError, RefereeError):
            out.add(f"#{rid}: the record is not a JSON ruling record")
            continue
        records[rid] = rec
        if compute_code(rec) != rec.get("code"):
            out.add(f"#{rid}: the record does not hash to its own code {rec.get('code')}")
        if text != canonical_json(rec):
            out.add(f"#{rid}: the record is not stored in canonical form")
        code_ids.setdefault(rec.get("code"), rid)
        derived = index_columns(rec)
        for name, have, want in zip(COLUMNS, stored_cols, derived):
            if _cell(have) != _cell(want):
                out.add(f"#{rid}: column {name} is {have!r}, the sealed record says {want!r}")
        cits, pens, plays = _index_rows(rec)
        for table, have, want in (("citations", citations.get(rid, []), cits),
                                  ("penalties", penalties.get(rid, []), pens),
                                  ("players", players.get(rid, []), plays)):
            if _rows(have) != _rows(want):
                out.add(f"#{rid}: its {table} rows differ from the sealed record "
                        f"({len(have)} stored, {len(want)} in the record)")
    for rid, rec in records.items():
        want_of = code_ids.get(rec.get("appeal_of")) if rec.get("appeal_of") else None
        have_of = next(r[13] for r in rows if r[0] == rid)
        if rec.get("kind") == "appeal":
            if want_of is None:
                out.add(f"#{rid}: an appeal of {rec.get('appeal_of')}, which is not in the register")
            appeal = rec.get("appeal") or {}
            want = [(want_of, appeal.get("note"), canonical_json(appeal.get("amended") or []),
                     canonical_json(appeal.get("differences") or {}))]
            if _rows(appeals.get(rid, [])) != _rows(want):
                out.add(f"#{rid}: its appeals row differs from the sealed record")
        elif appeals.get(rid):
            out.add(f"#{rid}: an appeals row for a ruling that is not an appeal")
        if _cell(have_of) != _cell(want_of):
            out.add(f"#{rid}: column appeal_of is {have_of!r}, the sealed record says {want_of!r}")
    for table, found in (("citations", citations), ("penalties", penalties), ("players", players),
                         ("appeals", appeals)):
        stray = sorted(set(found) - ids)
        if stray:
            out.add(f"{table}: rows for ruling number(s) not in the register: "
                    + ", ".join(f"#{r}" for r in stray[:10]))
    if rows:
        out.head, out.head_id = rows[-1][15], rows[-1][0]
    if not reg.sealed:
        out.notes.append("the register was made by an older referee and is not sealed: only the "
                         "records' own codes and the index rows were checked")
