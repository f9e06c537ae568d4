"""What a rule author reads, as plain data for the templates: `referee test` (each case run, the
total, `--coverage`) and `referee check` (each problem found in the knowledge files).

``expert.authoring`` runs the casebooks and the checks and returns data (the JSON and JUnit
reports use the same); these views pick out what the text shows, and the ``casebook_*``,
``coverage`` and ``check*`` templates word and lay it out. Case names, differences and messages
quote the knowledge files: the environment's ``finalize`` keeps each on its line.
"""
from __future__ import annotations

from referee.reports.render import render_template


def case_view(game: str, result) -> dict:
    """One case run (an ``expert.authoring.casebook.CaseResult``): passed, or what differed."""
    case = result.case
    return {"game": game, "name": case.name, "file": case.file, "line": case.line,
            "passed": result.passed, "differences": list(result.differences)}


def coverage_view(game: str, rows: list[dict]) -> dict:
    """`referee test --coverage`: the rows of ``expert.authoring.analysis.coverage.coverage_rows``,
    and how many penalty-bearing provisions are covered both ways."""
    return {"game": game, "rows": rows, "uncovered": [r["provision"] for r in rows if r["uncovered"]],
            "penalty_bearing": sum(1 for r in rows if r["penalty_bearing"])}


def problem_view(item) -> dict:
    """One problem `referee check` found (an ``expert.language.problems.Problem``)."""
    return {"severity": item.severity, "category": item.category, "message": item.message,
            "file": item.file, "line": item.line}


def case_text(game: str, result) -> str:
    return render_template("casebook_case.txt.j2", **case_view(game, result))


def total_text(passed: int, failed: int, updated: int | None = None) -> str:
    """The last line of `referee test`; ``updated`` only with --update."""
    return render_template("casebook_total.txt.j2", passed=passed, failed=failed, updated=updated)


def coverage_text(game: str, rows: list[dict]) -> str:
    return render_template("coverage.txt.j2", **coverage_view(game, rows))


def problem_text(item) -> str:
    """``file:line: severity [category]: message`` (one line, without its end)."""
    return render_template("check_problem.txt.j2", p=problem_view(item))


def check_text(game: str, problems) -> str:
    """One rulebook's problems (an ``expert.language.problems.Problems``) and their count."""
    return render_template("check.txt.j2", game=game, problems=[problem_view(i) for i in problems.items],
                           errors=len(problems.errors), warnings=len(problems.warnings))
