"""Order dependence: a ruling must not change with the order the same answers were given in.

Every casebook case (and every example another analysis found) is ruled on the rulebook's one
Ruler as a ruling is made (all answers declared together, sorted), then with its answers
declared one at a time reversed and in a seeded shuffle (the engine is reset before each); the
rulings are compared as ``to_dict()`` without the trail.
"""
from __future__ import annotations

import json
import random

from referee.expert.authoring.analysis import AnalysisProblem, report
from referee.expert.authoring.analysis.space import show_answers


def rule_in_order(ruler, answers: dict, order: list[str]):
    """Rule with the answer facts declared one at a time in ``order`` (question ids)."""
    return ruler.rule(answers, order=order)


def _key(ruling) -> str:
    d = ruling.to_dict()
    d.pop("trail", None)
    return json.dumps(d, sort_keys=True, default=str)


def check(book, ctx, problems) -> int:
    ruler = ctx.ruler
    if ruler is None:
        return 0
    samples = [(c.answers, c) for c in book.cases if isinstance(c.answers, dict)]
    samples += [(i.example, None) for i in problems.items
                if isinstance(i, AnalysisProblem) and isinstance(i.example, dict)]
    count = 0
    for answers, case in samples:
        answers = {k: v for k, v in answers.items() if k in book.questions}
        if len(answers) < 2:
            continue
        try:
            reads = ruler.reads(answers)
        except Exception:
            continue                               # a case with invalid answers: casebook reports it
        name = [answers, case.name if case else None]
        count += ctx.unit(problems, "order", json.loads(json.dumps(name, default=str)), reads,
                          list(answers), lambda found, answers=answers, case=case:
                          _orders(book, ruler, found, answers, case),
                          also=[case] if case is not None else [])
    return count


def _orders(book, ruler, problems, answers: dict, case) -> int:
    """Rule in the usual order, reversed and shuffled; report the first that differs (1)."""
    keys = sorted(answers)
    try:
        # the usual order: all answers declared together, sorted by question id, as a ruling is made
        base = _key(ruler.rule(answers))
    except Exception:
        return 0                                   # a case with invalid answers: casebook reports it
    shuffled = keys[:]
    # seeded by the answers, so the same case is shuffled alike in every run (and cached)
    random.Random(json.dumps(answers, sort_keys=True, default=str)).shuffle(shuffled)
    for order in (list(reversed(keys)), shuffled):
        other = rule_in_order(ruler, answers, order)
        if _key(other) != base:
            first = ruler.rule(answers)
            shown = lambda r: ", ".join(f.production for f in r.findings) or "no finding"
            report(problems, "error", "order",
                   f"the ruling on {show_answers(answers, book)}"
                   + (f" (case {case.name!r})" if case else "")
                   + f" changes with the order the answers are declared in: in the order "
                   f"{', '.join(keys)} the findings are {shown(first)}; in the order "
                   f"{', '.join(order)} they are {shown(other)}. Some production reads a fact or finding before it is final (check strata, "
                   "negations and {findings: none})", case, example=answers)
            return 1
    return 0
