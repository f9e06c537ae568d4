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
from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.model import INFRACTION_KINDS


def _valid(book, answers: dict) -> dict:
    return {k: v for k, v in answers.items() if k in book.questions}


def _may_fire(ev, answers: dict, prods) -> bool:
    """Can one of ``prods`` fire on these answers? (An answer 'unknown' is ruled both ways:
    taken as yes.)"""
    if any(is_unknown(v) for v in answers.values()):
        return True
    facts, no_findings = ev.state(answers)
    return any(ev.holds(p.id, answers, facts, no_findings) for p in prods)


def rule_in_order(ruler, answers: dict, order: list[str]):
    """Rule with the answer facts declared one at a time in ``order`` (question ids)."""
    return ruler.rule(answers, order=order)


def _key(ruling) -> str:
    d = ruling.to_dict()
    d.pop("trail", None)
    return json.dumps(d, sort_keys=True, default=str)


def order_sensitive(book) -> list:
    """The productions a ruling could fire or not depending on the order facts arrive in.

    The compiled engine fires by strata (``circularity`` reports a rulebook that has none), so
    a derived fact or a negation is final before it is read; what is left is ``{findings:
    none}``: a production that reads it and itself makes a finding that counts for it (an
    infraction), or derives a fact, can block or be blocked by another such production,
    whichever fires first (tests/fixtures/broken/order). Productions that read findings and
    only state a finding that does not count (no violation) cannot change what the others see."""
    readers = {p.id for p in book.productions if p.when is not None and cond.reads_findings(p.when)}
    derived = {p.derive for p in book.productions if p.id in readers and p.action == "derive"}
    while True:                      # and the productions that read what those derive
        more = {p.id for p in book.productions if p.id not in readers and p.when is not None
                and cond.facts_read(p.when) & derived}
        if not more:
            break
        readers |= more
        derived |= {p.derive for p in book.productions if p.id in more and p.action == "derive"}
    return [p for p in book.productions if p.id in readers
            and (p.action != "finding" or p.kind in INFRACTION_KINDS)]


def check(book, ctx, problems) -> int:
    ruler = ctx.ruler
    if ruler is None:
        return 0
    sensitive = order_sensitive(book)
    # a case none of them can fire on rules alike in every order: it is not ruled three times
    # (two thirds of the whole check of ulti, bridge and skat went to that)
    samples = [(c.answers, c) for c in book.cases if isinstance(c.answers, dict)
               and sensitive and _may_fire(ctx.ev, _valid(book, c.answers), sensitive)]
    samples += [(i.example, None) for i in problems.items
                if isinstance(i, AnalysisProblem) and isinstance(i.example, dict)]
    count = 0
    for answers, case in samples:
        answers = {k: v for k, v in answers.items() if k in book.questions}
        if len(answers) < 2:
            continue
        try:
            reads = ruler.compiled_for(answers)     # every production the rulings may fire
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
