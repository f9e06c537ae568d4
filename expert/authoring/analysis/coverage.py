"""`referee test --coverage`: per provision, the cases that apply it and those where it must not."""
from __future__ import annotations

from referee.expert.authoring.casebook import coverage, raised


def coverage_rows(book, results) -> list[dict]:
    """One row per provision: counts from ``expert.casebook.coverage`` and the case names."""
    table = coverage(book, results)
    cited = {c for p in book.productions for c in p.cites}
    rows = []
    for pid, prov in book.provisions.items():
        applying, not_applying = [], []
        for r in results:
            if r.ruling is None:
                continue
            applied = {x for f in r.ruling.findings for x in f.provisions}
            negative = (set(r.case.expect.get("not_applied") or [])
                        | set(r.case.expect.get("not_ruled") or []) | raised(book, r.case))
            if pid in applied:
                applying.append(r.case.name)
            elif pid in negative:
                not_applying.append(r.case.name)
        rows.append({"provision": pid, "label": prov.label, "penalty_bearing": prov.penalty_bearing,
                     "cited": pid in cited, "applied": table[pid]["applied"],
                     "not_applied": table[pid]["not_applied"], "cases_applying": applying,
                     "cases_not_applying": not_applying,
                     "uncovered": prov.penalty_bearing and not (table[pid]["applied"]
                                                                and table[pid]["not_applied"])})
    return rows


# --- per production ---------------------------------------------------------------------------

def production_rows(book, results) -> list[dict]:
    """One row per production: the cases in which it fired (made its finding, standing or set
    aside; derived its fact; set a later finding aside). A production no case reaches can be
    wrong in any way without a case failing, even when a sibling citing the same provision is
    covered."""
    reached: dict[str, list[str]] = {p.id: [] for p in book.productions}
    for r in results:
        if r.ruling is None:
            continue
        for pid in dict.fromkeys(step["production"] for step in r.ruling.trail):
            if pid in reached:
                reached[pid].append(r.case.name)
    return [{"production": p.id, "action": p.action, "file": p.file, "line": p.line,
             "cases": reached[p.id]} for p in book.productions]


def override_rows(book, results) -> list[dict]:
    """One row per ``overrides:`` entry: the cases where both productions fire and the loser is
    expected under ``not_ruled`` (set aside by that winner). Without one, dropping or reversing
    the override fails no case."""
    rows = []
    unfold = None
    for p in book.productions:
        for loser in p.overrides:
            try:
                cites = set(book.production(loser).cites)
            except KeyError:
                continue
            cases = [r.case.name for r in results if r.ruling is not None
                     and any(n.production == loser and n.by == p.id
                             for n in r.ruling.not_ruled + r.ruling.refined)
                     and cites & set(r.case.expect.get("not_ruled") or [])]
            never = False
            if not cases:
                if unfold is None:
                    from referee.expert.authoring.analysis.expand import Unfolder
                    from referee.expert.authoring.analysis.space import Evaluator
                    unfold = Unfolder(book, Evaluator(book))
                never = _never_together(unfold, p.id, loser)
            rows.append({"winner": p.id, "loser": loser, "file": p.file, "line": p.line, "cases": cases,
                         "never": never})
    return rows


def _never_together(unfold, a: str, b: str) -> bool:
    """Whether the two productions' conditions exclude each other (derived facts unfolded): the
    override can never apply, and no case can exercise it."""
    ways_a, ways_b = unfold.production(a), unfold.production(b)
    if ways_a is None or ways_b is None or len(ways_a) * len(ways_b) > 20_000:
        return False
    return all(unfold.exclusive(x, y) for x in ways_a for y in ways_b)


EXAMPLES = 10        # productions and overrides per rulebook given example answers


def add_examples(book, ruler, prows: list[dict], orows: list[dict], limit: int = EXAMPLES) -> None:
    """Give the first ``limit`` productions no case reaches, and overrides no case exercises,
    the answers of a case that would (``example``), found as the interview would gather them."""
    from referee.expert.authoring.analysis.examples import Finder
    finder = Finder(book, ruler)
    todo = [(r, [r["production"]], None) for r in prows if not r["cases"]]
    todo += [(r, [r["winner"], r["loser"]], (r["winner"], r["loser"])) for r in orows
             if not r["cases"] and not r["never"]]
    for row, pids, aside in todo[:limit]:
        found = finder.reaching(pids, aside)
        row["example"] = found[0] if found else None



# --- per boundary ------------------------------------------------------------------------------

def _boundaries(lit) -> list[tuple]:
    """The answers at which a literal's truth turns, each with the truth it must have there:
    a threshold and the value just beyond it; each value an `in:` list names."""
    op, v = lit.op, lit.value
    if op == "ge":
        return [(v, True), (v - 1, False)]
    if op == "gt":
        return [(v + 1, True), (v, False)]
    if op == "le":
        return [(v, True), (v + 1, False)]
    if op == "lt":
        return [(v - 1, True), (v, False)]
    if op == "count_ge":
        return [(v, True), (v - 1, False)]
    if op == "in":
        return [(x, True) for x in v]
    return []


def _at(lit, answer, point) -> bool:
    if lit.op == "count_ge":
        return isinstance(answer, (list, tuple)) and len(answer) == point
    return answer == point and not isinstance(answer, bool)


def boundary_rows(book, results) -> list[dict]:
    """For each threshold (``ge``, ``gt``, ``le``, ``lt``, ``count_ge``) and each value of an
    ``in:`` list in a production's condition: the cases that answer exactly that value while the
    literal decides whether the production fires (the rest of its condition would hold either
    way). A threshold off by one, or a value dropped from the list, fails no case without one."""
    from referee.expert.language import conditions as cond
    from referee.expert.authoring.analysis.space import Evaluator
    ev = Evaluator(book)
    states = {}
    rows = []
    for p in book.productions:
        seen = set()
        for lit in cond.literals(p.when):
            if not isinstance(lit, cond.AnswerTest) or lit in seen:
                continue
            seen.add(lit)
            q = book.questions.get(lit.question)
            for point, truth in _boundaries(lit):
                if q is not None and q.type == "number" and not (
                        (q.min is None or point >= q.min) and (q.max is None or point <= q.max)):
                    continue                  # a value the question does not allow
                if lit.op == "count_ge" and point < 0:
                    continue
                cases = []
                for r in results:
                    if r.ruling is None or not _at(lit, r.ruling.answers.get(lit.question), point):
                        continue
                    key = id(r)
                    if key not in states:
                        states[key] = ev.state(r.ruling.answers)
                    facts, no_findings = states[key]
                    answers = r.ruling.answers

                    def value(forced, lit=lit, answers=answers, facts=facts, no_findings=no_findings):
                        return cond.evaluate(p.when, lambda l: forced if l == lit else
                                             ev.literal(l, answers, facts, no_findings))
                    if value(True) != value(False):
                        cases.append(r.case.name)
                rows.append({"production": p.id, "file": p.file, "line": p.line,
                             "literal": {"q": lit.question, lit.op: list(lit.value) if lit.op == "in" else lit.value},
                             "at": point, "holds": truth, "cases": cases})
    return rows
