"""Ruling records and their verification codes.

A ruling record is the JSON an appeals committee trusts: the answers the referee gave (and the
cards, where given) with the time each was given, the rulebook (name, edition, a hash of its
knowledge files), the findings, what was set aside, the trail of fired productions, the
referee, table, deal and date.

The verification code printed on a ruling is derived from the record alone: the first
``CODE_LENGTH`` base32 characters of the SHA-256 of the record's canonical JSON (sorted keys,
no whitespace, UTF-8), the ``code`` field itself left out. Anyone holding the record can
recompute it; ``verify`` compares a record or a printed code with the register's stored copy
and names the fields that differ.
"""
from __future__ import annotations

import base64
import copy
import datetime as _dt
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from referee.expert.language.errors import RefereeError

RECORD_FORMAT = "referee-ruling/1"
CODE_LENGTH = 10
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
# Characters a person may read or type for a base32 one (Crockford-style forgiveness).
_CONFUSABLE = str.maketrans({"0": "O", "1": "I", "8": "B", "9": "G"})

#: fields that are not part of the hashed content
UNHASHED = ("code",)


# ---------------------------------------------------------------- canonical form and code

def canonical_json(obj: Any) -> str:
    """Sorted keys, no whitespace, non-ASCII kept: the one form codes are computed over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _hashed_part(record: Mapping) -> dict:
    return {k: v for k, v in record.items() if k not in UNHASHED}


def compute_code(record: Mapping) -> str:
    """The verification code of a record (its ``code`` field is ignored)."""
    digest = hashlib.sha256(canonical_json(_hashed_part(record)).encode("utf-8")).digest()
    return base64.b32encode(digest).decode("ascii")[:CODE_LENGTH]


def format_code(code: str) -> str:
    """``ABCDEFGHIJ`` → ``ABCDE-FGHIJ``: how the code is printed on a ruling."""
    code = normalize_code(code)
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def normalize_code(text: str) -> str:
    """Read a code as typed from a printout: case, spaces and hyphens don't matter, and
    0/1/8/9 are read as O/I/B/G. Raises RefereeError when it cannot be a code."""
    if not isinstance(text, str):
        raise RefereeError(f"a verification code is text, not {type(text).__name__}")
    cleaned = "".join(ch for ch in text.strip().upper() if ch not in " -\t")
    cleaned = cleaned.translate(_CONFUSABLE)
    if len(cleaned) != CODE_LENGTH or any(ch not in _B32 for ch in cleaned):
        raise RefereeError(
            f"'{text}' is not a verification code: expected {CODE_LENGTH} characters "
            f"A-Z and 2-7, e.g. ABCDE-FGH23")
    return cleaned


def looks_like_code(text: str) -> bool:
    try:
        normalize_code(text)
        return True
    except RefereeError:
        return False


# ---------------------------------------------------------------- rulebook hash

def rulebook_hash(files: Iterable[str | os.PathLike], root: str | os.PathLike | None = None) -> str:
    """SHA-256 over the sorted knowledge files: for each, its path (relative to ``root``,
    by default the folder that holds them all, in POSIX form), a NUL, its byte length, a
    NUL and its bytes. Independent of where the tree is checked out."""
    paths = list({Path(f).resolve(): Path(f) for f in files}.values())  # each file once
    if not paths:
        raise RefereeError("the rulebook lists no knowledge files to hash")
    if root is None:
        rb = [p for p in paths if p.name == "rulebook.yaml"]
        if rb:
            root = rb[0].resolve().parent
        else:
            root = Path(os.path.commonpath([str(p.resolve().parent) for p in paths]))
    root = Path(root).resolve()
    entries = []
    for p in paths:
        full = p.resolve()
        try:
            rel = full.relative_to(root).as_posix()
        except ValueError:
            rel = full.as_posix()
        try:
            data = full.read_bytes()
        except OSError as exc:
            raise RefereeError(f"cannot read knowledge file: {exc.strerror}", file=str(p)) from None
        entries.append((rel, data))
    h = hashlib.sha256()
    for rel, data in sorted(entries):
        h.update(rel.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0")
        h.update(data)
    return "sha256:" + h.hexdigest()


def data_hash(digests: Mapping[str, str]) -> str:
    """The rulebook hash from the digests of the data read from each knowledge file (relative
    name -> digest, see ``expert.language.yamlcache``): what the ruling was made with, whether the
    data came from the files or from the parse cache."""
    if not digests:
        raise RefereeError("the rulebook lists no knowledge files to hash")
    h = hashlib.sha256(b"referee-rulebook-data/1\0")
    for name, digest in sorted(digests.items()):
        h.update(f"{name}\0{digest}\0".encode("utf-8"))
    return "sha256:" + h.hexdigest()


def rulebook_identity(rulebook: Any) -> dict:
    """``{game, edition, hash, files}`` of a Rulebook (or a dict with those keys). A loaded
    Rulebook's hash is made of the data it was built from (``data_hash``), not of the files as
    they are now: an edit after loading, or an altered parse cache, shows as a different hash."""
    if isinstance(rulebook, Mapping):
        game, edition = rulebook.get("game"), rulebook.get("edition")
        files = rulebook.get("files") or []
        given_hash = rulebook.get("hash")
    else:
        game, edition = getattr(rulebook, "game", None), getattr(rulebook, "edition", None)
        files = getattr(rulebook, "files", None) or []
        digests = getattr(rulebook, "digests", None)
        given_hash = data_hash(digests) if digests else None
    root = None
    rb = [Path(f) for f in files if Path(f).name == "rulebook.yaml"]
    if rb:
        root = rb[0].resolve().parent
    def rel(f):
        try:
            return Path(f).resolve().relative_to(root).as_posix() if root else Path(f).name
        except ValueError:
            return Path(f).resolve().as_posix()

    names = sorted({rel(f) for f in files})
    ident = {
        "game": game,
        "edition": None if edition is None else str(edition),
        "hash": given_hash or rulebook_hash(files, root),
        "files": names,
    }
    # the tournament's parameter values (referee.toml): the ruling was made with them, and an
    # appeal re-rules with them
    values = rulebook.get("values") if isinstance(rulebook, Mapping) else getattr(rulebook, "tournament_values", None)
    if values:
        ident["values"] = values
    return ident


# ---------------------------------------------------------------- building a record

def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def _as_dict(ruling: Any) -> dict:
    if hasattr(ruling, "to_dict"):
        ruling = ruling.to_dict()
    if not isinstance(ruling, Mapping):
        raise RefereeError(f"a ruling must be a Ruling or its dict, not {type(ruling).__name__}")
    return json.loads(json.dumps(ruling, ensure_ascii=False))  # deep copy, JSON-clean


def _jsonable(value: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(value, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise RefereeError(f"{what} cannot be stored in a ruling record: {exc}") from None


def _time(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        return value.isoformat()
    if isinstance(value, (int, float)):
        return _dt.datetime.fromtimestamp(value, _dt.timezone.utc).isoformat()
    return str(value)


def build_record(ruling: Any, rulebook: Any, *, answers: Mapping | None = None,
                 answer_times: Mapping | None = None, cards: Any = None,
                 referee: str | None = None, table: Any = None, deal: Any = None,
                 date: str | None = None, header: Mapping | None = None,
                 created: str | None = None, extra: Mapping | None = None) -> dict:
    """The record of one ruling, with its ``code`` filled in.

    ``ruling``: a Ruling or its ``to_dict()``. ``rulebook``: the Rulebook it was ruled with
    (or ``{game, edition, hash}``). ``answers`` default to the ruling's own. ``answer_times``
    maps a question id (or ``cards`` / ``cards.<key>``) to when it was answered (ISO text,
    datetime or epoch seconds). Referee, table, deal and date default to the ruling header's.
    """
    r = _as_dict(ruling)
    hdr = dict(r.get("header") or {})
    if header:
        hdr.update(_jsonable(dict(header), "the header"))
    ans = _jsonable(dict(answers if answers is not None else r.get("answers") or {}), "an answer")
    times_in = dict(answer_times or {})
    times = {q: _time(times_in.get(q)) for q in sorted(ans)}
    for k, v in times_in.items():  # cards and anything else timed
        if k not in times:
            times[str(k)] = _time(v)

    def pick(value, *keys):
        if value is not None:
            return value
        for k in keys:
            if hdr.get(k) is not None:
                return hdr[k]
        return None

    ident = rulebook_identity(rulebook)
    rec = {
        "format": RECORD_FORMAT,
        "kind": "ruling",
        "created": created or _now(),
        "date": str(pick(date, "date") or _dt.date.today().isoformat()),
        "referee": pick(referee, "referee"),
        "table": _scalar(pick(table, "table")),
        "deal": _scalar(pick(deal, "deal", "board")),
        "rulebook": {"game": ident["game"] or r.get("game"), "edition": ident["edition"],
                     "hash": ident["hash"], **({"values": ident["values"]} if ident.get("values") else {})},
        "answers": ans,
        "answer_times": times,
        "findings": r.get("findings") or [],
        "not_ruled": r.get("not_ruled") or [],
        "no_infraction": bool(r.get("no_infraction")),
        "trail": r.get("trail") or [],
        "header": hdr,
    }
    if r.get("game") and rec["rulebook"]["game"] and r["game"] != rec["rulebook"]["game"]:
        raise RefereeError(f"the ruling is for {r['game']} but the rulebook is {rec['rulebook']['game']}")
    if cards is not None:
        rec["cards"] = _jsonable(cards, "the cards")
    if "not_established" in r:
        rec["not_established"] = r["not_established"]
    if r.get("from_cards"):  # which answers the cards gave, and how the cards show them
        rec["from_cards"] = r["from_cards"]
    if r.get("edition") is not None and rec["rulebook"]["edition"] is not None \
            and str(r["edition"]) != rec["rulebook"]["edition"]:
        raise RefereeError(f"the ruling is for edition {r['edition']} but the rulebook is "
                           f"edition {rec['rulebook']['edition']}")
    for k, v in (r.items()):
        # anything else the engine puts in a ruling is kept, under its own name
        if k not in ("game", "edition", "findings", "not_ruled", "no_infraction", "answers",
                     "trail", "header", "not_established", "from_cards") and k not in rec:
            rec.setdefault("ruling_extra", {})[k] = v
    if extra:
        for k, v in _jsonable(dict(extra), "extra fields").items():
            if k in rec or k == "code":
                raise RefereeError(f"extra field '{k}' would overwrite a record field")
            rec[k] = v
    rec["code"] = compute_code(rec)
    return rec


def _scalar(v: Any) -> Any:
    if v is None or isinstance(v, (str, int)):
        return v
    return str(v)


def seal(record: dict) -> dict:
    """Set ``record['code']`` from its content; returns the record."""
    record["code"] = compute_code(record)
    return record


# ---------------------------------------------------------------- files

def record_text(record: Mapping) -> str:
    """A record as the pretty JSON of a record file."""
    return json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def save_record(record: Mapping, path: str | os.PathLike) -> Path:
    """Write a record as pretty JSON, atomically (temp file + rename); refuses to replace
    anything but a regular file."""
    from referee.expert.language.fileio import write_atomic
    return write_atomic(path, record_text(record))


def load_record(path: str | os.PathLike) -> dict:
    """Read a ruling record from a JSON file; RefereeError when it is not one."""
    p = Path(path)
    try:
        if not p.is_file():
            raise RefereeError("not a regular file, expected a ruling record (JSON)", file=str(p))
        with open(p, "rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
        if len(raw) > MAX_RECORD_BYTES:
            raise RefereeError(f"larger than {MAX_RECORD_BYTES} bytes, expected a ruling record",
                               file=str(p))
        text = raw.decode("utf-8")
    except OSError as exc:
        raise RefereeError(f"cannot read ruling record: {exc.strerror}", file=str(p)) from None
    except UnicodeDecodeError:
        raise RefereeError("not UTF-8 text, expected a ruling record (JSON)", file=str(p)) from None
    try:
        rec = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RefereeError(f"not JSON: {exc.msg}", file=str(p), line=exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise RefereeError(f"not a usable ruling record: {exc}", file=str(p)) from None
    check_record_shape(rec, str(p))
    return rec


MAX_RECORD_BYTES = 4 * 1024 * 1024


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a record can hold")


def check_record_shape(rec: Any, where: str | None = None) -> None:
    if not isinstance(rec, dict) or rec.get("format") != RECORD_FORMAT:
        raise RefereeError(f"not a ruling record (expected a JSON object with "
                           f"\"format\": \"{RECORD_FORMAT}\")", file=where)
    for key in ("rulebook", "answers", "findings"):
        if key not in rec:
            raise RefereeError(f"ruling record has no '{key}'", file=where)
    # the shape every reader relies on: a hand-made record is refused here, not by a traceback
    shapes = (("rulebook", dict), ("answers", dict), ("findings", list), ("not_ruled", list),
              ("header", dict), ("answer_times", dict), ("trail", list), ("appeal", dict),
              ("from_cards", dict))
    for key, kind in shapes:
        if key in rec and rec[key] is not None and not isinstance(rec[key], kind):
            raise RefereeError(f"ruling record's '{key}' is a {type(rec[key]).__name__}, expected a "
                               f"{'mapping' if kind is dict else 'list'}", file=where)
    for key in ("code", "date", "referee", "kind", "created", "appeal_of"):
        if rec.get(key) is not None and not isinstance(rec[key], str):
            raise RefereeError(f"ruling record's '{key}' is a {type(rec[key]).__name__}, expected text",
                               file=where)
    for key in ("findings", "not_ruled", "trail"):
        for item in rec.get(key) or []:
            if not isinstance(item, dict) or any(
                    item.get(k) is not None and not isinstance(item[k], list)
                    for k in ("provisions", "penalty", "cites")):
                raise RefereeError(f"ruling record's '{key}' holds something that is not a "
                                   "finding", file=where)
            if any(not isinstance(p, dict) for p in item.get("penalty") or []):
                raise RefereeError(f"ruling record's '{key}' holds a penalty that is not a mapping",
                                   file=where)


# ---------------------------------------------------------------- comparing records

def diff_fields(a: Any, b: Any, path: str = "", limit: int = 50) -> list[str]:
    """Dotted paths where two JSON values differ (``findings[0].penalty[1].amount``)."""
    out: list[str] = []

    def walk(x, y, p):
        if len(out) >= limit:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y), key=str):
                q = f"{p}.{k}" if p else str(k)
                if k not in x or k not in y:
                    out.append(q)
                else:
                    walk(x[k], y[k], q)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                out.append(f"{p} (length {len(x)} vs {len(y)})")
                return
            for i, (xi, yi) in enumerate(zip(x, y)):
                walk(xi, yi, f"{p}[{i}]")
        elif x != y or type(x) is not type(y):
            out.append(p or "(whole record)")

    walk(a, b, path)
    return out


@dataclass
class Verification:
    """What ``verify`` found. ``ok`` only when the thing checked is exactly a registered ruling."""
    ok: bool
    status: str          # matches | differs | altered | unregistered | unknown-code
    code: str | None     # the code claimed (printed / in the record)
    computed: str | None  # the code the given record's content hashes to
    message: str
    differences: list[str] = field(default_factory=list)
    ruling_id: int | None = None
    record: dict | None = None   # the register's stored record, when found
    #: whether the rulebook's knowledge files still hash as when the ruling was made
    #: (None: not checked)
    rulebook_current: bool | None = None

    def to_dict(self) -> dict:
        return {"ok": self.ok, "status": self.status, "code": self.code,
                "computed": self.computed, "message": self.message,
                "differences": self.differences, "ruling_id": self.ruling_id,
                "rulebook_current": self.rulebook_current}


def check_rulebook(v: Verification, rulebook: Any, given: Mapping | None = None) -> Verification:
    """Note on ``v`` whether ``rulebook`` (the current one) is the rulebook the ruling was
    made with: same edition and same knowledge-file hash."""
    rec = v.record or given
    if rec is None or rulebook is None:
        return v
    ident = rulebook_identity(rulebook)
    was = rec.get("rulebook") or {}
    v.rulebook_current = (was.get("hash") == ident["hash"]
                          and str(was.get("edition")) == str(ident["edition"]))
    return v


def verify(record_or_code: Any, register: Any = None, rulebook: Any = None) -> Verification:
    """Does a record or a printed code match the register?

    ``record_or_code``: a record dict, a path to a record file, or a code as printed.
    ``register``: a ``Register`` (or None: a record is then only checked against its own
    code). For a record, names the fields that differ from the stored copy.
    ``rulebook``: the current Rulebook; if given, ``rulebook_current`` says whether the
    ruling was made with these very knowledge files (edition and hash).
    """
    if isinstance(record_or_code, os.PathLike) or (
            isinstance(record_or_code, str)
            and (os.path.isfile(record_or_code)
                 or (not looks_like_code(record_or_code)
                     and (record_or_code.lower().endswith(".json") or os.sep in record_or_code)))):
        record_or_code = load_record(record_or_code)
    if rulebook is not None:
        v = verify(record_or_code, register)
        return check_rulebook(v, rulebook,
                              record_or_code if isinstance(record_or_code, Mapping) else None)

    if isinstance(record_or_code, str):
        code = normalize_code(record_or_code)
        if register is None:
            raise RefereeError("checking a printed code needs the register (none given)")
        try:
            found = register.get(code)
        except RefereeError as exc:
            if type(exc).__name__ != "SealError":
                raise
            return Verification(False, "altered", code, None,
                                f"the register's ruling with code {format_code(code)} fails its "
                                "seal: it or the register was altered after it was saved "
                                "(run `referee register verify`)", ["(stored record)"])
        if found is None:
            failing = getattr(register, "seal_failures", None)
            also = (f"; note: {len(failing)} ruling(s) in the register fail their seal "
                    f"({', '.join(failing[:5])}): run `referee register verify`") if failing else ""
            return Verification(False, "unknown-code", code, None,
                                f"no ruling with code {format_code(code)} in the register{also}")
        rid, stored = found
        again = compute_code(stored)
        if again != code:
            return Verification(False, "altered", code, again,
                                f"the register's ruling #{rid} no longer hashes to "
                                f"{format_code(code)} (it hashes to {format_code(again)}): "
                                "the stored record was altered", ["(stored record)"], rid, stored)
        return Verification(True, "matches", code, code,
                            f"{format_code(code)} matches ruling #{rid} "
                            f"({_describe(stored)})", [], rid, stored)

    if not isinstance(record_or_code, Mapping):
        raise RefereeError("verify takes a ruling record, a record file or a code, "
                           f"not {type(record_or_code).__name__}")
    rec = dict(record_or_code)
    check_record_shape(rec)
    computed = compute_code(rec)
    claimed = rec.get("code")
    if claimed is not None:
        try:
            claimed = normalize_code(str(claimed))
        except RefereeError:
            pass
    self_ok = claimed == computed

    if register is None:
        if self_ok:  # anyone can compute a record's code: this shows no more than that
            return Verification(False, "unregistered", claimed, computed,
                                f"the record is consistent with its code {format_code(computed)}, "
                                "but no register was consulted: anyone can compute that code, so "
                                "only the register shows the ruling was made")
        return Verification(False, "altered", claimed, computed,
                            f"the record's content hashes to {format_code(computed)}, not to "
                            f"its code {claimed}: it was altered after it was sealed "
                            "(no register to name the fields)")

    try:
        found = register.get(claimed) if claimed and looks_like_code(str(claimed)) else None
        if found is None and not self_ok:
            found = register.get(computed)
    except RefereeError as exc:
        if type(exc).__name__ != "SealError":
            raise
        return Verification(False, "altered", claimed, computed,
                            "the register's copy of this ruling fails its seal: it or the register "
                            "was altered after it was saved (run `referee register verify`)",
                            ["(stored record)"])
    if found is None:
        if self_ok:
            return Verification(False, "unregistered", claimed, computed,
                                f"the record is consistent with its code {format_code(computed)}"
                                ", but the register has no such ruling")
        return Verification(False, "altered", claimed, computed,
                            f"the record hashes to {format_code(computed)}, not to its code "
                            f"{claimed}, and the register has neither")
    rid, stored = found
    diffs = diff_fields(_hashed_part(stored), _hashed_part(rec))
    if not diffs and self_ok:
        return Verification(True, "matches", claimed, computed,
                            f"the record matches ruling #{rid} ({_describe(stored)}), "
                            f"code {format_code(computed)}", [], rid, stored)
    if not diffs:
        diffs = ["code"]
    return Verification(False, "differs", claimed, computed,
                        f"the record differs from ruling #{rid} in the register "
                        f"(code {format_code(stored.get('code') or compute_code(stored))}): "
                        + ", ".join(diffs), diffs, rid, stored)


def _describe(rec: Mapping) -> str:
    bits = [str(rec.get("rulebook", {}).get("game") or "?")]
    for key, label in (("table", "table"), ("deal", "deal")):
        if rec.get(key) is not None:
            bits.append(f"{label} {rec[key]}")
    if rec.get("date"):
        bits.append(str(rec["date"]))
    if rec.get("referee"):
        bits.append(f"referee {rec['referee']}")
    if rec.get("kind") == "appeal":
        bits.insert(0, "appeal")
    return ", ".join(bits)


def copy_record(rec: Mapping) -> dict:
    return copy.deepcopy(dict(rec))
