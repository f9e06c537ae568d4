"""`referee check`: knowledge files, their references, casebook coverage of penalties, and the
rule-base analysis of ``expert.analysis`` (conflicts, redundancy, unreachable productions,
circularity, silent claims, unused knowledge, order dependence).

Severity: conflicts, unreachable productions, circularity, dangling references, uncited
penalty-bearing provisions and order dependence are errors; redundancy, unused knowledge,
silent answer combinations and casebook coverage gaps are warnings.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from referee.expert.authoring.analysis import HALVES, STEPS, Analysis, analyse, bounded_note
from referee.expert.authoring.casebook import raised
from referee.expert.authoring.checkcache import CheckCache, cache_dir
from referee.expert.interview.from_cards import answers_from_cards, merge
from referee.expert.language.answers import check_all
from referee.expert.language.errors import RefereeError
from referee.expert.language.finding_kinds import NOT_APPLYING_KINDS
from referee.expert.language.problems import Problems
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler

# steps reported to a progress callback per game: loading, the casebook, then each analysis
PROGRESS_STEPS = 2 + STEPS
# a check's parts, which read nothing of each other (``check_jobs`` runs them apart): the
# knowledge's references and the casebook's coverage, then the two halves of the rule-base
# analysis (``analysis.HALVES``)
PARTS = ("casebook", "analysis", "search")


def check_game(game: str, root: str | Path | None = None,
               progress: Callable[[str], None] | None = None, cache: bool = True,
               parts: tuple = PARTS, save: bool = True, split: bool = False) -> Problems:
    """Load, validate and analyse one rulebook. ``cache``: reuse the results of earlier checks
    for every unit of work whose knowledge files are unchanged (``checkcache``). ``parts``:
    only some of the check (``PARTS``); the analysis part alone reports none of what loading
    found. ``save``: write the cache (a part run apart hands its entries back instead:
    ``problems.cache_entries``). ``split``: share the work with a second process
    (``check_split``: a re-check after an edit, on a machine with two CPUs or more)."""
    def step(label: str) -> None:
        if progress:
            progress(label)

    problems = Problems()
    try:
        book = load_rulebook(game, root, problems)
    except RefereeError as exc:
        if "casebook" in parts:
            problems.error(exc.message, exc.file, exc.line)
        for _ in range(_steps(parts)):
            step("skipped")
        return problems if "casebook" in parts else Problems()
    if "casebook" in parts:
        step("load")
    check_book(book, problems, step, cache, parts, save, split)
    return problems


def _steps(parts) -> int:
    return (2 if "casebook" in parts else 0) + sum(len(HALVES[p]) for p in parts if p in HALVES)


def check_book(book, problems: Problems, step: Callable[[str], None] = lambda label: None,
               cache: bool = True, parts: tuple = PARTS, save: bool = True,
               split: bool = False) -> Problems:
    """Everything `referee check` does once a rulebook is loaded and validated (``problems``
    holds what loading found); ``step`` is called once per progress step after loading."""
    # references that do not resolve were reported by validate with category "dangling";
    # the analyses below still run on them (each reads only what resolves). Other load errors
    # (malformed YAML, a condition that does not parse) leave a rulebook the analyses would
    # misread, so they wait until those are fixed.
    if any(p.category != "dangling" for p in problems.errors):
        if "casebook" in parts:
            problems.notes = ["the rule-base analysis was skipped: fix the errors above first"]
        else:
            problems.items = []
        for _ in range(_steps(parts) - (1 if "casebook" in parts else 0)):
            step("skipped")
        return problems
    if "casebook" not in parts:
        problems.items = []          # what loading found is the casebook part's to report
    cited = {c for p in book.productions for c in p.cites}
    if "casebook" in parts:
        for prov in book.provisions.values():
            if prov.penalty_bearing and prov.id not in cited:
                problems.error(f"penalty-bearing provision {prov.id} ({prov.label}) is cited by no "
                               "production: the rulebook never applies its penalty",
                               prov.file, prov.line, "deficiency")
    from referee.expert.authoring.analysis.circularity import cycles
    ruler = None
    if not cycles(book):
        try:
            ruler = Ruler(book)
        except RefereeError as exc:
            if "casebook" in parts:
                problems.error(exc.message, exc.file, exc.line)
    ctx = Analysis(book, ruler, CheckCache(book) if cache and cache_dir() is not None else None)
    # (a rulebook whose logic is as the kept results were made: every unit is read from them)
    if split and tuple(parts) == PARTS and ctx.cache is not None and not ctx.cache.unchanged():
        from referee.expert.authoring.check_split import check_split
        if check_split(book, problems, step, ctx, ruler, cited):
            _save(ctx, problems, save)
            return problems
    if "casebook" in parts:
        casebook_part(book, ctx, ruler, cited, problems)
        step("casebook")
    only = tuple(label for part in parts if part in HALVES for label in HALVES[part])
    if only:
        analyse(book, problems, ruler, step, ctx=ctx, only=only)
    if "search" in parts:
        problems.undecided = undecided_notes(book)
    if tuple(parts) == PARTS:
        finish_notes(problems)
    _save(ctx, problems, save)
    return problems


def casebook_part(book, ctx, ruler, cited, problems: Problems) -> None:
    """The casebook's share of a check once the rulebook is loaded: which penalty-bearing
    provisions its cases apply and show not applying."""
    if ruler is not None:
        _coverage(book, ctx, cited, problems)


def _save(ctx, problems: Problems, save: bool) -> None:
    if ctx.cache is not None:
        ctx.keep_walks()
        if save:
            ctx.cache.save()
        else:
            problems.cache_entries = (str(ctx.cache.folder), str(ctx.cache.file), ctx.cache.new,
                                      ctx.cache.logic())
        problems.cache = (ctx.cache.hits, ctx.cache.misses)


def finish_notes(problems: Problems) -> None:
    """The notes of a whole check: its parts' notes, how many searches were bounded, and the
    places the rules as given do not decide (each part leaves its share on ``problems``)."""
    problems.notes = (list(getattr(problems, "notes", [])) + bounded_note(getattr(problems, "bounded", 0))
                      + list(getattr(problems, "undecided", [])))


def undecided_notes(book) -> list[str]:
    """The places where the rules as given do not decide (cut-off text, absent articles): a
    rule author sees what the rulebook still lacks."""
    from referee.expert.language.model import text
    notes = []
    for p in book.productions:
        if p.action == "finding" and p.kind == "undecided":
            summary = " ".join(text(p.finding.get("summary")).split())
            notes.append(f"undecided: {p.file}:{p.line}: {p.id} ({', '.join(p.cites)}): "
                         f"{summary[:150]}{'…' if len(summary) > 150 else ''}")
    return notes


def _coverage(book, ctx, cited, problems) -> None:
    """Which penalty-bearing provisions the casebook applies, and where it shows them not
    applying (as ``casebook.coverage``; each case's ruling through the cache)."""
    table = {pid: {"applied": 0, "not_applied": 0} for pid in book.provisions}
    cards = [str(f) for f in book.files if Path(f).name == "cards.yaml"]
    dead: dict = {}
    for case in book.cases:
        try:
            answers = check_all(case.answers, book, case.file, case.line)
            derived = answers_from_cards(book, case.cards, case.file, case.line)
        except RefereeError:
            continue                     # `referee test` reports the case; it shows no coverage
        answers, sources = merge(answers, derived)
        name = json.loads(json.dumps([case.name, answers, case.header], default=str))
        # what the case reads: every production the Ruler compiles for it (Ruler.reads, the
        # productions its answers can match, leaves out those that only read a fact another
        # derives: an edit to such a production left the case's cached coverage stale)
        among = ctx.ruler.compiled_for(answers)
        live = among - _dead_by_claim(book, answers, dead)
        # (the productions its claim rules out cannot fire: not evaluated either)
        ruled = ctx.unit(problems, "case", name, live, list(answers),
                         lambda found, case=case, answers=answers, sources=sources, live=live:
                         standing_provisions(ctx.ev, answers, live)
                         or _applied(ctx.ruler.rule(answers, case.header, sources)),
                         also=[case] + (cards if case.cards else []), firing=True, within=live)
        applied, cleared = set(ruled["applied"]), set(ruled["cleared"])
        for pid in applied:
            if pid in table:
                table[pid]["applied"] += 1
        negative = set(case.expect.get("not_applied") or []) | set(case.expect.get("not_ruled") or [])
        negative |= raised(book, case) | cleared
        for pid in negative - applied:
            if pid in table:
                table[pid]["not_applied"] += 1
    for prov in book.provisions.values():
        if not prov.penalty_bearing or prov.id not in cited:
            continue
        if not table[prov.id]["applied"]:
            problems.warning(f"penalty-bearing provision {prov.id} has no casebook case where it "
                             "applies", prov.file, prov.line, "coverage")
        if not table[prov.id]["not_applied"]:
            problems.warning(f"penalty-bearing provision {prov.id} has no casebook case where it "
                             "must not apply", prov.file, prov.line, "coverage")


def _dead_by_claim(book, answers: dict, memo: dict) -> frozenset:
    """The productions whose conditions are false on this case's claim alone, whatever else
    is answered or derived (Kleene, every other literal unknown): they cannot fire in its
    ruling, so its result reads nothing of them (preferans is one claim group: every case
    compiles all 284 productions, and an edit to any one recomputed all 365 cases)."""
    from referee.expert.language import conditions as cond
    from referee.expert.language.logic import answer3
    claim = answers.get("claim")
    key = json.dumps(claim, sort_keys=True, default=str)
    hit = memo.get(key)
    if hit is None:
        given = {} if claim is None else {"claim": claim}

        def lit(l):
            if isinstance(l, cond.AnswerTest) and l.question == "claim":
                return answer3(l, given, lambda q: q == "claim")
            return None
        hit = memo[key] = frozenset(p.id for p in book.productions if cond.evaluate(p.when, lit) is False)
    return hit


def standing_provisions(ev, answers: dict, among: set | None = None) -> dict | None:
    """What ``_applied`` makes of the Ruler's ruling on one event's answers, worked out by the
    analyses' Evaluator (two-valued, in plain Python; a third of the rulings' time): the findings
    that fire, those reading ``{findings: none}`` after the others as the engine fires them, less
    those an override of a fired one sets aside. None where a ``keep_first`` production fires
    (Član 22, the first renonsz): the Ruler rules on those. The two agree on every shipped
    casebook case (tests/test_check_coverage_fast.py). ``among``: the productions the Ruler
    compiles for these answers (``Ruler.compiled_for``), so a case costs what its claim group's
    rules do, not the whole rulebook's."""
    from referee.expert.language import conditions as cond
    from referee.expert.language.model import FINDING_KINDS
    findings = [p for p in ev.findings if among is None or p.id in among]
    facts = ev.facts(answers, ev.derivers_for(findings))
    # (what of the rulebook every case asks the same: worked out once per Evaluator)
    memo = ev.__dict__.get("_standing_memo")
    if memo is None:
        memo = ev._standing_memo = (
            [p for p in ev.logic.book.productions if p.action == "keep_first"],
            {p.id for p in ev.findings if cond.reads_findings(p.when)})
    keep_first, reads_findings = memo
    for p in keep_first:
        if (among is None or p.id in among) \
                and ev.holds(p.id, answers, ev.facts(answers, ev.derivers_for([p])), True):
            return None
    reading = [p for p in findings if p.id in reads_findings]
    fired = {p.id for p in findings if p not in reading and ev.holds(p.id, answers, facts, True)}
    # {findings: none}: no finding at all was made (set aside or not), as the engine reads it
    none = not any((ev.by_id[pid].finding or {}).get("kind") in FINDING_KINDS for pid in fired)
    fired |= {p.id for p in reading if ev.holds(p.id, answers, facts, none)}
    standing = [ev.by_id[pid] for pid in ev.standing(fired)]
    kinds = [(p, (p.finding or {}).get("kind")) for p in standing]
    return {"applied": sorted({c for p, k in kinds if k not in NOT_APPLYING_KINDS for c in p.cites}),
            "cleared": sorted({c for p, k in kinds if k in NOT_APPLYING_KINDS for c in p.cites})}


def _applied(ruling) -> dict:
    # a finding that no violation stands, or that the claim is lost, is no case of a penalty applying
    return {"applied": sorted({pid for f in ruling.findings if f.kind not in NOT_APPLYING_KINDS
                               for pid in f.provisions}),
            "cleared": sorted({pid for f in ruling.findings if f.kind in NOT_APPLYING_KINDS
                               for pid in f.provisions})}


def problem_dict(item) -> dict:
    d = {"severity": item.severity, "category": item.category, "message": item.message,
         "file": item.file, "line": item.line}
    for key in ("productions", "provisions", "example"):
        if getattr(item, key, None):
            d[key] = getattr(item, key)
    return d
