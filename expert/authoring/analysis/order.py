"""Order dependence: a ruling must not change with the order the same answers were given in.

Every casebook case (and every example another analysis found) is ruled on the rulebook's one
Ruler with its answers declared in the usual order, reversed, and in a seeded shuffle (the
engine is reset before each); the rulings are compared as ``to_dict()`` without the trail.
"""
from __future__ import annotations

import json
import random

from referee.expert.authoring.analysis import AnalysisProblem, report
from referee.expert.authoring.analysis.space import show_answers


def rule_in_order(ruler, answers: dict, order: list[str]):
    """Rule with the answer facts declared in ``order`` (question ids)."""
    engine = ruler.engine
    real = engine.declare
    rank = {q: i for i, q in enumerate(order)}

    def declare(*facts):
        facts = sorted(facts, key=lambda f: rank.get(f["id"], len(rank)) if "id" in f else len(rank))
        for f in facts:                        # one at a time, in this order
            real(f)

    engine.declare = declare
    try:
        return ruler.rule(answers)
    finally:
        del engine.declare


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
    rng = random.Random(11)
    count = 0
    for answers, case in samples:
        answers = {k: v for k, v in answers.items() if k in book.questions}
        keys = sorted(answers)
        if len(keys) < 2:
            continue
        try:
            base = _key(rule_in_order(ruler, answers, keys))
        except Exception:
            continue                               # a case with invalid answers: casebook reports it
        shuffled = keys[:]
        rng.shuffle(shuffled)
        orders = [list(reversed(keys)), shuffled]
        for order in orders:
            other = rule_in_order(ruler, answers, order)
            if _key(other) != base:
                first = rule_in_order(ruler, answers, keys)
                shown = lambda r: ", ".join(f.production for f in r.findings) or "no finding"
                count += 1
                where = case if case is not None else None
                report(problems, "error", "order",
                       f"the ruling on {show_answers(answers, book)}"
                       + (f" (case {case.name!r})" if case else "")
                       + f" changes with the order the answers are declared in: in the order "
                       f"{', '.join(keys)} the findings are {shown(first)}; in the order "
                       f"{', '.join(order)} they are {shown(other)}. Some production reads a fact or finding before it is final (check strata, "
                       "negations and {findings: none})", where, example=answers)
                break
    return count
