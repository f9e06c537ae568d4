"""Results of `referee check` kept between runs, per unit of work, keyed by what the unit read.

A unit is one piece of an analysis: a pair of productions compared, a claim searched for
silence, a production searched for a witness, a casebook case ruled. Its key is a hash of the
analysis, the unit, the code of ``expert/`` and the content of everything the unit read
(``logic.reads``: its productions, the facts and overrides they depend on, the questions and
gates they read, transitively, the provisions they cite, the case) and of ``rulebook.yaml``.
Editing an article file therefore recomputes exactly the units that read something it changed;
every other result is taken from the cache. The files are read and hashed on every run, so an
entry is never trusted over the files.

What a unit reads of a production, question or provision is its logic, not its prose
(``logic_view``): no analysis reads a finding's summary, a question's text or help, a quote or
its English rendering, nor where in its file a thing stands. So rewording a finding, or adding
a line above it, recomputes nothing (preferans is one claim group: a reworded summary used to
recompute every case, pair and search of the rulebook, 6 s of a 7 s re-check). A cached
problem names the productions, questions, provisions and cases it points at by id
(``Analysis.unit``), and is placed at their lines in the files as they are now.

Beside the units' results the file keeps the refutation walks' verdicts per derived fact
(``analysis.kept_walks``, keyed the same way on what the walks read) and one digest of the
whole rulebook's logic (``CheckCache.logic``): a check that finds it unchanged knows every unit
is cached, and does not fork a helper (``check_split``).

Stored under the user's cache directory (the base ``yamlcache`` uses), in a ``check`` folder of
its own: one JSON file per knowledge folder, rewritten after each check with only the entries
that check used (so it never grows past one check's results), at most ``MAX_BOOKS`` files.
``REFEREE_NO_CACHE`` or ``REFEREE_NO_CHECK_CACHE`` turns it off.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

FORMAT = 2
MAX_BOOKS = 32          # knowledge folders whose results are kept


def cache_dir() -> Path | None:
    if os.environ.get("REFEREE_NO_CACHE") or os.environ.get("REFEREE_NO_CHECK_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee" / "check"


_CODE: str | None = None


def code_version() -> str:
    """A hash of the sources of ``expert/``: results made by other code are not reused."""
    global _CODE
    if _CODE is None:
        digest = hashlib.sha256(str(FORMAT).encode())
        base = Path(__file__).resolve().parents[1]
        for path in sorted(base.rglob("*.py")):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
        _CODE = digest.hexdigest()
    return _CODE


def cache_file(folder: Path, book_root: str | Path) -> Path:
    """The file holding the results for one knowledge folder (a rulebook's own folder)."""
    root = Path(book_root).resolve()
    return folder / (hashlib.sha256(str(root).encode()).hexdigest()[:32] + ".json")


def is_warm(book_root: str | Path) -> bool:
    """Whether results of an earlier check of this rulebook, by this code, are kept (most of a
    check after an edit is then read from them)."""
    folder = cache_dir()
    if folder is None:
        return False
    try:
        with open(cache_file(folder, book_root), encoding="utf-8") as f:
            head = f.read(200)          # {"format": N, "code": "<hash>", ... written first
    except OSError:
        return False
    return f'"code": "{code_version()}"' in head


class CheckCache:
    def __init__(self, book, folder: Path | None = None):
        self.folder = folder if folder is not None else cache_dir()
        self.file = cache_file(self.folder, book.root) if self.folder is not None else None
        self.hashes: dict[str, str] = {}
        for path in book.files:
            try:
                self.hashes[str(path)] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self.hashes[str(path)] = "unreadable"
        # read by every unit: the effects, parameters and seats every finding is stated with
        self.always = {str(p) for p in book.files if Path(p).name == "rulebook.yaml"}
        self._parts: dict[int, tuple] = {}
        self.book = book
        self._logic: str | None = None
        self.logic_was: str | None = None       # ``logic()`` when the results were written
        self.old: dict = self._read()
        self.new: dict = {}
        self.hits = 0
        self.misses = 0

    def _read(self) -> dict:
        if self.file is None:
            return {}
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("code") != code_version():
            return {}
        entries = data.get("entries")
        if isinstance(data.get("logic"), str):
            self.logic_was = data["logic"]
        return entries if isinstance(entries, dict) else {}

    def logic(self) -> str:
        """One digest of what the analyses read of the whole rulebook (every production,
        question, provision and case, and ``rulebook.yaml``): the same as when the results were
        written (``logic_was``) means every unit will be found in the cache."""
        if self._logic is None:
            book = self.book
            things = [*book.productions, *book.questions.values(), *book.provisions.values(),
                      *book.cases, *sorted(self.always)]
            self._logic = self.digest(things)
        return self._logic

    def unchanged(self) -> bool:
        return self.logic_was is not None and self.logic_was == self.logic()

    def part(self, obj, firing: bool = False) -> str:
        """The content hash of one thing a unit read: a production, question, provision or case
        as loaded (``logic_view``: what the analyses read of it; ``firing``: only what decides
        whether and how a finding fires), or a whole file by its path."""
        if isinstance(obj, (str, Path)):
            # named within the rulebook's folder: the same files elsewhere are the same content
            try:
                name = Path(obj).relative_to(self.book.root).as_posix()
            except ValueError:
                name = str(obj)
            return f"{name}:{self.hashes.get(str(obj), 'absent')}"
        hit = self._parts.get((id(obj), firing))
        if hit is None or hit[0] is not obj:
            body = f"{type(obj).__name__}:{logic_view(obj, firing)!r}"
            hit = self._parts[(id(obj), firing)] = (obj, hashlib.sha256(body.encode()).hexdigest()[:24])
        return hit[1]

    def key(self, kind: str, unit, read) -> str:
        """The key of a unit: what it is, and the content of everything it read (``part``)."""
        parts = {self.part(x) for x in read} | {self.part(f) for f in self.always}
        body = json.dumps([kind, unit, sorted(parts)], ensure_ascii=False, default=str)
        return hashlib.sha256(body.encode()).hexdigest()

    def digest(self, read, firing: bool = False) -> str:
        """One digest of the content of everything in ``read`` (``part``)."""
        body = json.dumps(sorted({self.part(x, firing) for x in read}))
        return hashlib.sha256(body.encode()).hexdigest()

    def key_of(self, kind: str, unit, digests: list[str], read=()) -> str:
        """``key``, with most of what the unit read given as ``digest``s."""
        parts = {self.part(x) for x in read} | {self.part(f) for f in self.always}
        body = json.dumps([kind, unit, list(digests), sorted(parts)], ensure_ascii=False, default=str)
        return hashlib.sha256(body.encode()).hexdigest()

    def get(self, key: str):
        hit = self.old.get(key)
        if hit is not None:
            self.new[key] = hit
            self.hits += 1
        else:
            self.misses += 1
        return hit

    def put(self, key: str, value) -> None:
        self.new[key] = value

    def save(self) -> None:
        """Write this check's entries (atomically; a cache that cannot be written is skipped)."""
        if self.file is not None:
            write_entries(self.folder, self.file, self.new, self.logic())


# the languages the rulebooks' texts are written in: {en: ..., sr: ...}. Only these, never any
# two letters: an amount's {if: ..., then: ...} and a condition's {q: ..., is: ...} are logic.
# (A rulebook in another language keeps its prose in the keys: more recomputed, never stale.)
PROSE_LANGS = frozenset({"en", "sr", "pl", "ru", "hu"})


def _no_prose(value):
    """``value`` without its texts: a mapping whose keys are all languages (and ``when``, as an
    order's {en: ..., when: ...}) loses its languages; anything else is kept whole."""
    if isinstance(value, dict):
        prose = set(value) - {"when"} and set(value) - {"when"} <= PROSE_LANGS
        return {k: _no_prose(v) for k, v in value.items() if not (prose and k in PROSE_LANGS)}
    if isinstance(value, (list, tuple)):
        return [_no_prose(v) for v in value]
    return value


# what of a finding decides which findings fire and stand, and which provisions they apply or
# clear: the analyses that ask only that (is a claim silent? can a production fire? which
# provisions does a case apply?) do not read who pays what
FIRING = ("kind", "claim", "carries", "settles_result", "settles_deal")


def logic_view(obj, firing: bool = False):
    """What the analyses read of a loaded production, question, provision or case: everything
    but its prose and its place in its file. A finding keeps its kind, claim, offender, penalty,
    carried facts and the conditions of its orders, not its summary or the orders' wording
    (``firing``: only its ``FIRING`` keys); a question its type, values and their labels (a
    silent claim is named by its label), gate, scope, bounds, unknown default and impossible
    combinations, not its text, help or how it reads as a fact; a provision its id, article,
    label and kind, not its quote or rendering; a case everything but its note. Anything else:
    as it is."""
    name = type(obj).__name__
    if name == "Production":
        finding = None
        if obj.finding is not None:
            finding = {k: _no_prose(v) for k, v in obj.finding.items()
                       if k != "summary" and (not firing or k in FIRING)}
        return ("Production", obj.id, obj.article, list(obj.cites), repr(obj.when), obj.action,
                obj.derive, finding, obj.keep_first, obj.keep_first_among, obj.keep_first_except,
                list(obj.overrides))
    if name == "Question":
        return ("Question", obj.id, obj.type, [(v, dict(lab or {})) for v, lab in obj.values],
                repr(obj.when), obj.seats, obj.values_from, obj.min, obj.max, obj.scope,
                obj.judgement, _no_prose({k: v for k, v in (obj.unknown or {}).items() if k != "why"}),
                [_no_prose({k: v for k, v in x.items() if k not in ("why", "file", "line")})
                 if isinstance(x, dict) else repr(x) for x in obj.impossible], obj.from_earlier)
    if name == "Provision":
        return ("Provision", obj.id, obj.article, obj.label, obj.kind, obj.penalty_bearing, obj.truncated)
    if name == "Case":
        return ("Case", obj.name, obj.article, obj.answers, obj.expect, obj.header, obj.cards,
                obj.events, obj.requests)
    return obj


def write_entries(folder: Path, file: Path, entries: dict, logic: str | None = None) -> None:
    """Write one knowledge folder's results (atomically; a cache that cannot be written is
    skipped), with ``CheckCache.logic`` of the rulebook they are of. A check run in parts
    (``check_jobs``) writes the entries of its parts together."""
    folder, file = Path(folder), Path(file)
    try:
        body = json.dumps({"format": FORMAT, "code": code_version(), "logic": logic, "entries": entries},
                          ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if file.exists() and not file.is_file():
            return                              # never replace what is not a regular file
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(body)
            os.replace(tmp, file)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)                  # not replaced: no half-written file left
        _bound(folder)
    except OSError:
        pass


def _bound(folder: Path) -> None:
    """Keep the ``MAX_BOOKS`` most recently written result files."""
    files = sorted((p for p in folder.glob("*.json") if p.is_file()),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[MAX_BOOKS:]:
        try:
            old.unlink()
        except OSError:
            pass
