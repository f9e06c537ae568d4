"""Rule-base analysis for rule authors: what `referee check` finds beyond broken references.

One module per anomaly class:

- ``circularity``   derived facts that depend on themselves (error)
- ``unreachable``   productions whose conditions can never all hold (error)
- ``conflicts``     two findings on the same answers, same claim, different outcome, no precedence (error)
- ``verdicts``      one act (event) found a violation on one ground and none on another (error)
- ``redundancy``    a production another with the same finding always accompanies (warning)
- ``deficiency``    claims the rulebook is silent on for some reachable answers (warning)
- ``unasked``       a penalty that reads an answer the interview does not ask when it fires (error)
- ``unused``        questions, parameters, effects nobody uses (warning)
- ``order``         a ruling that changes with the order answers are declared in (error)

Each takes the loaded rulebook, an ``Analysis`` context (one ``Ruler`` for the whole rulebook,
the fast ``Evaluator``) and the ``Problems`` collector. Problems carry the productions and
provisions involved and, where one exists, a concrete example (answers) that shows it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from referee.expert.language.problems import Problem, Problems
from referee.expert.engine.ruler import Ruler
from referee.expert.authoring.analysis.space import Evaluator


@dataclass
class AnalysisProblem(Problem):
    productions: list = field(default_factory=list)
    provisions: list = field(default_factory=list)
    example: dict | None = None


class Analysis:
    """What every analysis of one rulebook shares: the rulebook, one Ruler, one Evaluator, and
    the cache of results from earlier checks (``checkcache``; None: compute everything)."""

    def __init__(self, book, ruler: Ruler | None = None, cache=None):
        self.book = book
        self.ev = Evaluator(book)
        self._ruler = ruler
        self.cache = cache
        self.notes: list[str] = []          # how searches were bounded, for the summary
        self.bounded = 0
        from referee.expert.authoring.analysis.expand import Unfolder
        self.unfolder = Unfolder(book, self.ev)
        if cache is not None:
            from referee.expert.authoring.analysis.kept_walks import KeptWalks
            self.unfolder.kept = KeptWalks(self)

    def keep_walks(self) -> None:
        """Add the refutation walks' verdicts to the cache entries this check writes."""
        if self.cache is not None and self.unfolder.kept is not None:
            from referee.expert.authoring.analysis.kept_walks import merged
            self.cache.new = merged(self.cache.new, self.unfolder.kept.entries())

    @property
    def ruler(self) -> Ruler | None:
        if self._ruler is None:
            try:
                self._ruler = Ruler(self.book)
            except Exception:               # a rulebook that cannot compile: analyses skip rulings
                return None
        return self._ruler

    def rule(self, answers: dict):
        ruler = self.ruler
        return None if ruler is None else ruler.rule(answers)

    def read(self, pids=(), qids=(), within=None) -> list:
        """What a judgement on these productions and questions reads (``logic.reads``; ``within``:
        the findings that can fire in it): the productions, questions, and the provisions they
        cite."""
        book = self.book
        prods, questions = self.ev.logic.reads(pids, qids, within)
        found: list = []
        for pid in prods:
            p = self.ev.by_id[pid]
            found.append(p)
            found.extend(book.provisions[c] for c in p.cites if c in book.provisions)
        found.extend(book.questions[q] for q in questions)
        return found

    def _digests(self, pids, qids, firing: bool = False, within=None) -> list[str]:
        """The content of what a unit on these productions and questions reads, as digests:
        one of what the productions read (the same for most units of a kind: every casebook
        case of a claim group names the group's productions), one per question. The units
        of a cold check hashed some 800 objects each, about a fifth of a casebook's check."""
        memo = self.__dict__.setdefault("_digest_memo", {})
        out = []
        within = frozenset(within) if within is not None else None
        for key, reads in ((("p", frozenset(pids), firing, within), lambda: self.read(pids, (), within)),
                           *((("q", q, firing), lambda q=q: self.read((), [q])) for q in sorted(set(qids)))):
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = self.cache.digest(reads(), firing)
            out.append(hit)
        return out

    def cached(self, kind: str, name, pids, qids, also=(), firing: bool = False, within=None) -> bool:
        """Whether ``unit`` would find this unit's result in the cache (computes nothing)."""
        return self.cache is not None and self._key(kind, name, pids, qids, also, firing, within) in self.cache.old

    def _key(self, kind, name, pids, qids, also, firing, within) -> str:
        return self.cache.key_of(kind, name, self._digests(pids, qids, firing, within), list(also))

    def unit(self, problems: Problems, kind: str, name, pids, qids, compute, also=(),
             firing: bool = False, within=None):
        """One unit of an analysis, through the cache: ``compute(problems)`` reports into a
        fresh collector and returns a JSON value; a cached unit replays its problems, notes
        and bounded searches and returns the same value. ``also``: more it reads (a case, a
        file path). ``firing``: the unit reads of the findings only what decides whether they
        fire and stand (``checkcache.FIRING``), not who pays what: a changed amount or seat
        leaves its result standing. ``within``: the findings that can fire at all in the unit
        (``logic.reads``)."""
        key = None
        if self.cache is not None:
            key = self._key(kind, name, pids, qids, also, firing, within)
            hit = self.cache.get(key)
            if hit is not None:
                places = self.places
                problems.items.extend(AnalysisProblem(**places.placed(d)) for d in hit["problems"])
                self.notes.extend(places.fill(n) for n in hit["notes"])
                self.bounded += hit["bounded"]
                return hit["value"]
        local = Problems()
        notes, bounded = len(self.notes), self.bounded
        value = compute(local)
        problems.items.extend(local.items)
        if key is not None:
            places = self.places
            self.cache.put(key, {"problems": [places.unplaced(_as_dict(p)) for p in local.items],
                                 "notes": [places.hole(n) for n in self.notes[notes:]],
                                 "bounded": self.bounded - bounded, "value": value})
        return value

    def units(self, problems: Problems, specs: list, batch: str | None = None, state=None) -> list:
        """Several units that read nothing of each other's results, each ``(kind, name, pids,
        qids, compute, options)`` as ``unit`` takes them; their problems and notes are reported
        and their values returned in this order. Where a second process shares the check
        (``check_split``: ``self.partner``), the ones of a named ``batch`` not cached are
        divided between the two, each taking the next as it is free; the helper makes the same
        specs from ``state`` (``check_split.BATCHES``)."""
        partner = getattr(self, "partner", None)
        if partner is not None and batch is not None:
            return partner.units(self, problems, specs, batch, state)
        return [self.unit(problems, kind, name, pids, qids, compute, **options)
                for kind, name, pids, qids, compute, options in specs]

    def captured(self, kind: str, name, pids, qids, compute, **options) -> tuple:
        """``unit`` apart: (its problems, its notes, its bounded searches, its value), none of
        them left on this context (they are reported later, in the units' order)."""
        local = Problems()
        notes, bounded = len(self.notes), self.bounded
        value = self.unit(local, kind, name, pids, qids, compute, **options)
        out = (local.items, self.notes[notes:], self.bounded - bounded, value)
        del self.notes[notes:]
        self.bounded = bounded
        return out

    @property
    def places(self) -> "Places":
        if getattr(self, "_places", None) is None:
            self._places = Places(self.book)
        return self._places


class Places:
    """Where the rulebook's productions, questions, provisions, articles and cases stand in
    their files, both ways. A unit's key leaves out where the things it read stand
    (``checkcache.logic_view``), so a cached problem keeps, instead of a file and line, the id
    of what it is placed at and of each production it names "at file:line" in its message,
    and is placed again by the files as they are now: adding a line above a production moves
    its problems with it."""

    def __init__(self, book):
        self.at: dict[tuple, str] = {}          # (file, line) -> ref
        self.where: dict[str, tuple] = {}       # ref -> (file, line)
        things = [("p", x.id, x) for x in book.productions]
        things += [("q", q.id, q) for q in book.questions.values()]
        things += [("v", v.id, v) for v in book.provisions.values()]
        things += [("a", a.label, a) for a in book.articles]
        things += [("c", f"{c.file}\x1f{c.name}", c) for c in book.cases]
        for kind, ident, x in things:
            ref = f"{kind}:{ident}"
            spot = (getattr(x, "file", None), getattr(x, "line", None))
            if spot[0] is None or spot[1] is None or ref in self.where:
                continue
            self.where[ref] = spot
            self.at.setdefault(spot, ref)
        files = sorted({str(f) for f, _ in self.at}, key=len, reverse=True)
        self._mention = re.compile("(" + "|".join(map(re.escape, files)) + r"):(\d+)(?!\d)") if files else None

    def hole(self, text: str) -> str:
        """``text`` with each "file:line" of a thing in the rulebook marked with its ref
        (NUL ref SOH as-written NUL: no message holds those characters)."""
        if self._mention is None or not isinstance(text, str):
            return text

        def mark(m):
            ref = self.at.get((m.group(1), int(m.group(2))))
            return m.group(0) if ref is None else f"\x00{ref}\x01{m.group(0)}\x00"
        return self._mention.sub(mark, text)

    def fill(self, text: str) -> str:
        """``hole`` undone by where things stand now (as written where one is gone)."""
        if not isinstance(text, str) or "\x00" not in text:
            return text

        def place(m):
            spot = self.where.get(m.group(1))
            return m.group(2) if spot is None else f"{spot[0]}:{spot[1]}"
        return _HOLE.sub(place, text)

    def unplaced(self, d: dict) -> dict:
        d = dict(d, message=self.hole(d["message"]))
        ref = self.at.get((d.get("file"), d.get("line")))
        if ref is not None:
            d["at"] = ref
        return d

    def placed(self, d: dict) -> dict:
        d = dict(d, message=self.fill(d["message"]))
        spot = self.where.get(d.pop("at", None) or "")
        if spot is not None:
            d["file"], d["line"] = spot
        return d


_HOLE = re.compile("\x00([^\x00\x01]*)\x01([^\x00]*)\x00")


def _as_dict(problem) -> dict:
    d = {"severity": problem.severity, "message": problem.message, "file": problem.file,
         "line": problem.line, "category": problem.category}
    for key in ("productions", "provisions", "example"):
        d[key] = getattr(problem, key, None)
    d["productions"] = d["productions"] or []
    d["provisions"] = d["provisions"] or []
    return d


def report(problems: Problems, severity: str, category: str, message: str, at=None,
           productions=(), provisions=(), example: dict | None = None) -> None:
    """Add one problem located at ``at`` (a production, provision or question)."""
    file = getattr(at, "file", None)
    line = getattr(at, "line", None)
    problems.items.append(AnalysisProblem(severity, message, file, line, category,
                                          productions=list(productions),
                                          provisions=list(provisions), example=example))


def steps():
    """The analyses in the order they run, as (label, function)."""
    from referee.expert.authoring.analysis import (circularity, conflicts, deficiency, order, redundancy, unasked,
                                                   unreachable, unused, verdicts)
    return [
        ("circularity", circularity.check),
        ("unreachable", unreachable.check),
        ("conflicts", conflicts.check),
        ("verdicts", verdicts.check),
        ("redundancy", redundancy.check),
        ("deficiency", deficiency.check),
        ("unasked", unasked.check),
        ("unused", unused.check),
        ("order", order.check),
    ]


STEPS = 9
# the analyses in two halves that read nothing of each other's results (``check_jobs`` runs them
# apart): the unreachable productions are read by conflicts, verdicts and redundancy; the
# searches of the second half read only the rulebook. Circularity, which decides whether the
# others can run at all, is worked out by both and reported by the first.
HALVES = {"analysis": ("circularity", "unreachable", "conflicts", "verdicts", "redundancy"),
          "search": ("deficiency", "unasked", "unused", "order")}


def analyse(book, problems: Problems, ruler: Ruler | None = None,
            progress: Callable[[str], None] | None = None, cache=None,
            ctx: Analysis | None = None, only: tuple | None = None) -> Analysis:
    """Run every analysis (``only``: those labels); an analysis that fails is reported, never
    a crash. The analyses' notes are added to ``problems.notes``; the count of bounded searches
    is left in ``problems.bounded`` (``bounded_note`` says it)."""
    ctx = ctx if ctx is not None else Analysis(book, ruler, cache)
    circular = False
    for label, fn in steps():
        wanted = only is None or label in only
        if not wanted and label != "circularity":
            continue
        try:
            if label in ("unreachable", "conflicts", "verdicts", "redundancy", "deficiency", "unasked",
                         "order") and circular:
                pass                      # strata are undefined; the circularity error says why
            elif label == "circularity":
                found = fn(book, ctx, problems if wanted else Problems())
                circular = bool(found)
            else:
                fn(book, ctx, problems)
        except Exception as exc:          # pragma: no cover - a bug here must not hide the rest
            problems.warning(f"the {label} analysis could not run: {type(exc).__name__}: {exc}",
                             str(book.root), None, "analysis")
        if progress and wanted:
            progress(label)
    problems.notes = getattr(problems, "notes", []) + ctx.notes
    problems.bounded = getattr(problems, "bounded", 0) + ctx.bounded
    return ctx


def bounded_note(bounded: int) -> list[str]:
    if not bounded:
        return []
    return [f"{bounded} conflict search(es) stopped at their bound before covering every "
            "combination; a conflict hidden there would not be reported"]
