"""Two verdicts on one act: an event for which one finding establishes an irregularity and
another, on another ground the referee named for the same act, finds none.

An event is one act (knowledge/README.md, Events); the grounds of it are the values of `claim`
picked together. When a finding of an infraction kind (violation, violation-no-penalty,
rectification) and a finding of no violation can stand together in one event, on different
grounds, the ruling would say both "violation" and "no violation" of the same act. The rulebook
must declare which prevails (`overrides` with a `why:`), or make their conditions exclusive.
(The same ground twice is the `conflict` analysis's.)

Which grounds belong to one act the encoding says: a pair is examined when one of the two
findings' own conditions names the other's ground (``{q: claim, has: <the other's claim>}``), as
a production written for "this act, claimed on both grounds" does. Claims that a `keep_first`
production orders (its `order` question answered) are separate acts ruled in order, not grounds
of one act: those examples are not reported.
"""
from __future__ import annotations

from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.conflicts import find_together
from referee.expert.authoring.analysis.space import show_answers, where
from referee.expert.language.model import INFRACTION_KINDS


def candidate_pairs(book, ctx):
    dead = getattr(ctx, "unreachable", set())
    findings = [p for p in book.productions if p.action == "finding" and p.id not in dead
                and ctx.ev.alts.get(p.id) is not None]
    guilty = [p for p in findings if p.finding.get("kind") in INFRACTION_KINDS]
    cleared = [p for p in findings if p.finding.get("kind") == "no-violation"]
    grounds = {str(v) for v in book.questions["claim"].allowed()} if "claim" in book.questions else set()
    for p in guilty:
        for q in cleared:
            cp, cq = str(p.finding.get("claim") or ""), str(q.finding.get("claim") or "")
            if cp not in grounds or cq not in grounds or cp == cq:
                continue            # a general "no violation", one ground (the conflict analysis's),
                                    # or a sub-claim that says something more of the same act
            if q.id in p.overrides or p.id in q.overrides:
                continue
            if cq in _grounds(p) or cp in _grounds(q):
                yield p, q


def _grounds(p) -> set[str]:
    """The claim values a production's own condition requires (positively)."""
    from referee.expert.language import conditions as cond
    found = set()
    for positive, lit in ((pos, lit) for alt in cond.dnf(p.when) for pos, lit in alt):
        if positive and isinstance(lit, cond.AnswerTest) and lit.question == "claim" and lit.op == "has":
            found.add(str(lit.value))
    return found


def check(book, ctx, problems) -> int:
    count = 0
    orders = {p.keep_first for p in book.productions if p.action == "keep_first"}
    for p, q in candidate_pairs(book, ctx):
        count += ctx.unit(problems, "verdicts", [p.id, q.id], [p.id, q.id], [],
                          lambda found, p=p, q=q: _pair(book, ctx, found, p, q, orders))
    return count


def _pair(book, ctx, problems, p, q, orders) -> int:
    example, _ruling = find_together(book, ctx, p, q)
    if example is None or any(o in example for o in orders):
        return 0
    report(problems, "error", "verdict",
           f"verdict: one act gets two verdicts: {p.id!r} ({', '.join(p.cites)}; {where(p)}) finds "
           f"{p.finding.get('kind')} on the ground {p.finding.get('claim')!r} and {q.id!r} "
           f"({', '.join(q.cites)}; {where(q)}) finds no violation on the ground {q.finding.get('claim')!r}, "
           f"both standing in one event. Example: {show_answers(example, book)}. Declare which prevails: "
           f"`overrides: [{q.id}]` on {p.id!r} (or the reverse) with a `why:` quoting the text, or make "
           "their conditions exclusive",
           p, productions=[p.id, q.id], provisions=list(dict.fromkeys(p.cites + q.cites)), example=example)
    return 1
