"""`referee check`: knowledge files, their references, and casebook coverage of penalties."""
from __future__ import annotations

from pathlib import Path

from .casebook import coverage, run_casebook
from .compiler import compile_engine
from .conditions import questions_read
from .expressions import questions_in_finding
from .errors import RefereeError
from .problems import Problems
from .rulebook import list_games, load_rulebook
from .ruler import Ruler


def check_game(game: str, root: str | Path | None = None) -> Problems:
    problems = Problems()
    try:
        book = load_rulebook(game, root, problems)
    except RefereeError as exc:
        problems.error(exc.message, exc.file, exc.line)
        return problems
    if problems.errors:
        return problems
    try:
        compile_engine(book)
    except RefereeError as exc:
        problems.error(exc.message, exc.file, exc.line, "circularity")
        return problems
    cited = {c for p in book.productions for c in p.cites}
    for prov in book.provisions.values():
        if prov.penalty_bearing and prov.id not in cited:
            problems.error(f"penalty-bearing provision {prov.id} is cited by no production",
                           prov.file, prov.line, "deficiency")
        elif prov.id not in cited:
            problems.warning(f"provision {prov.id} is cited by no production", prov.file, prov.line,
                             "unused")
    results = run_casebook(book, Ruler(book))
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
    used = set()
    for p in book.productions:
        used |= questions_read(p.when)
        if p.finding:
            used |= questions_in_finding(p.finding)
        if p.keep_first:
            used.add(p.keep_first)
    for q in book.questions.values():
        if q.when is not None:
            used |= questions_read(q.when)
    for q in book.questions.values():
        if q.id not in used and q.type != "text" and not any(
                o.values_from == q.id for o in book.questions.values()):
            problems.warning(f"question {q.id!r} is read by no production", q.file, q.line, "unused")
    return problems


def check_games(games: list[str] | None, root: str | Path | None = None) -> dict[str, Problems]:
    return {g: check_game(g, root) for g in (games or list_games(root))}
