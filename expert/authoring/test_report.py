"""`referee test` beyond the text: choosing cases by name (-k) and the results as JSON or JUnit XML
(for CI systems and editors that read test reports)."""
from __future__ import annotations

import fnmatch
import time
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from referee.expert.authoring.casebook import CaseResult, run_case
from referee.expert.engine.ruler import Ruler
from referee.expert.language.answers import did_you_mean
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Case, Rulebook


def name_matches(name: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """A case is chosen when any pattern matches its name: a glob when the pattern has * ? or [,
    else a part of the name; case does not count."""
    low = name.casefold()
    for pattern in patterns:
        p = pattern.casefold()
        if any(c in p for c in "*?[") and fnmatch.fnmatchcase(low, p):
            return True
        if p in low:
            return True
    return False


def select(book: Rulebook, patterns) -> list[Case]:
    return [c for c in book.cases if not patterns or name_matches(c.name, patterns)]


def no_case_matches(patterns, names: list[str]) -> RefereeError:
    """The error for -k patterns no case name matches, suggesting the words of case names
    closest to each pattern (a case name is long; a misspelt pattern is close to one word)."""
    words = {w for n in names for w in n.split()}
    close = [w for p in patterns for w in did_you_mean(p.strip("*?[]"), words)]
    hint = f" (did you mean -k {' or -k '.join(repr(n) for n in dict.fromkeys(close))}?)" if close else ""
    shown = " or ".join(repr(p) for p in patterns)
    return RefereeError(f"no case name matches {shown}{hint}, expected a part of a case name or a glob "
                        "such as 'revoke*' (`referee test -v` lists every case)")


@dataclass
class GameRun:
    game: str
    results: list[CaseResult] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def run_selected(book: Rulebook, cases: list[Case], ruler: Ruler | None = None) -> GameRun:
    """Run these cases on one Ruler, timing each (JUnit reports the time)."""
    run = GameRun(book.game)
    if not cases:
        return run
    ruler = ruler or Ruler(book)
    for case in cases:
        started = time.perf_counter()
        run.results.append(run_case(ruler, case))
        run.seconds.append(time.perf_counter() - started)
    return run


def to_json(runs: list[GameRun]) -> dict:
    cases = [{"game": run.game, "name": r.case.name, "article": r.case.article, "file": r.case.file,
              "line": r.case.line, "passed": r.passed, "differences": list(r.differences),
              "ruled": r.ruling is not None}
             for run in runs for r in run.results]
    passed = sum(1 for c in cases if c["passed"])
    return {"passed": passed, "failed": len(cases) - passed,
            "games": {run.game: {"passed": sum(r.passed for r in run.results),
                                 "failed": sum(not r.passed for r in run.results)} for run in runs},
            "cases": cases}


def to_junit(runs: list[GameRun]) -> str:
    """JUnit XML: one testsuite per rulebook, one testcase per case; a case whose answers could
    not be read at all is an <error>, a ruling other than expected a <failure>."""
    suites = ET.Element("testsuites", name="referee casebooks")
    total = failures = errors = 0
    for run in runs:
        fails = sum(1 for r in run.results if not r.passed and r.ruling is not None)
        errs = sum(1 for r in run.results if not r.passed and r.ruling is None)
        suite = ET.SubElement(suites, "testsuite", name=run.game, tests=str(len(run.results)),
                              failures=str(fails), errors=str(errs), skipped="0",
                              time=f"{sum(run.seconds):.3f}")
        for r, secs in zip(run.results, run.seconds):
            case = ET.SubElement(suite, "testcase", name=r.case.name,
                                 classname=f"{run.game}.{r.case.article}", file=str(r.case.file or ""),
                                 line=str(r.case.line or ""), time=f"{secs:.3f}")
            if not r.passed:
                tag = "failure" if r.ruling is not None else "error"
                problem = ET.SubElement(case, tag, message=r.differences[0][:500],
                                        type="ruling differs" if tag == "failure" else "case unreadable")
                problem.text = "\n".join(r.differences)
        total += len(run.results)
        failures += fails
        errors += errs
    suites.set("tests", str(total))
    suites.set("failures", str(failures))
    suites.set("errors", str(errors))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
