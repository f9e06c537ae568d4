"""`referee check`: knowledge files, their references, casebook coverage of penalties, and the
rule-base analysis of ``expert.analysis`` (conflicts, redundancy, unreachable productions,
circularity, silent claims, unused knowledge, order dependence).

Severity: conflicts, unreachable productions, circularity, dangling references, uncited
penalty-bearing provisions and order dependence are errors; redundancy, unused knowledge,
silent answer combinations and casebook coverage gaps are warnings.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from referee.expert.authoring.analysis import STEPS, analyse
from referee.expert.authoring.casebook import coverage, run_casebook
from referee.expert.language.errors import RefereeError
from referee.expert.language.problems import Problems
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler

# steps reported to a progress callback per game: loading, the casebook, then each analysis
PROGRESS_STEPS = 2 + STEPS


def check_game(game: str, root: str | Path | None = None,
               progress: Callable[[str], None] | None = None) -> Problems:
    def step(label: str) -> None:
        if progress:
            progress(label)

    problems = Problems()
    try:
        book = load_rulebook(game, root, problems)
    except RefereeError as exc:
        problems.error(exc.message, exc.file, exc.line)
        for _ in range(PROGRESS_STEPS):
            step("skipped")
        return problems
    step("load")
    # references that do not resolve were reported by validate with category "dangling";
    # the analyses below still run on them (each reads only what resolves). Other load errors
    # (malformed YAML, a condition that does not parse) leave a rulebook the analyses would
    # misread, so they wait until those are fixed.
    if any(p.category != "dangling" for p in problems.errors):
        problems.notes = ["the rule-base analysis was skipped: fix the errors above first"]
        for _ in range(PROGRESS_STEPS - 1):
            step("skipped")
        return problems
    cited = {c for p in book.productions for c in p.cites}
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
            problems.error(exc.message, exc.file, exc.line)
    if ruler is not None:
        _coverage(book, ruler, cited, problems)
    step("casebook")
    analyse(book, problems, ruler, progress)
    _undecided(book, problems)
    return problems


def _undecided(book, problems) -> None:
    """List the places where the rules as given do not decide (cut-off text, absent articles):
    a rule author sees what the rulebook still lacks."""
    from referee.expert.language.model import text
    notes = list(getattr(problems, "notes", []))
    for p in book.productions:
        if p.action == "finding" and p.finding.get("kind") == "undecided":
            summary = " ".join(text(p.finding.get("summary")).split())
            notes.append(f"undecided: {p.file}:{p.line}: {p.id} ({', '.join(p.cites)}): "
                         f"{summary[:150]}{'…' if len(summary) > 150 else ''}")
    problems.notes = notes


def _coverage(book, ruler, cited, problems) -> None:
    results = run_casebook(book, ruler)
    table = coverage(book, results)
    for prov in book.provisions.values():
        if not prov.penalty_bearing or prov.id not in cited:
            continue
        if not table[prov.id]["applied"]:
            problems.warning(f"penalty-bearing provision {prov.id} has no casebook case where it "
                             "applies", prov.file, prov.line, "coverage")
        if not table[prov.id]["not_applied"]:
            problems.warning(f"penalty-bearing provision {prov.id} has no casebook case where it "
                             "must not apply", prov.file, prov.line, "coverage")


def problem_dict(item) -> dict:
    d = {"severity": item.severity, "category": item.category, "message": item.message,
         "file": item.file, "line": item.line}
    for key in ("productions", "provisions", "example"):
        if getattr(item, key, None):
            d[key] = getattr(item, key)
    return d
