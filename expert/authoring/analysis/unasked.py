"""Unasked: a finding whose offender or penalty reads an answer the interview does not ask.

A finding's amounts and seats may read answers (``{answer: bid}``). When the production can
fire on answers under which that question's ``when`` is false, the interview never asks it and
the ruling states the finding with its amount "not computed" or its seat unknown: a penalty
the referee cannot apply. Searched over the reachable answers of the production's conditions
and the question's gate; each example is confirmed on the rulebook's Ruler (the finding must
stand there, not be set aside). Errors.
"""
from __future__ import annotations

from referee.expert.language import conditions as cond
from referee.expert.language.errors import RefereeError
from referee.expert.language.expressions import questions_in_finding
from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.space import Space, show_answers

BUDGET = 4000       # combinations searched per (production, question)
CONFIRMS = 20       # examples ruled on the Ruler before giving up on one pair


def check(book, ctx, problems) -> int:
    ev = ctx.ev
    count = 0
    for p in book.productions:
        if p.action != "finding":
            continue
        for qid in sorted(questions_in_finding(p.finding)):
            q = book.questions.get(qid)
            if q is None or q.when is None or _implies(p.when, q.when) or _asked(book, ev, p, q):
                continue
            count += ctx.unit(problems, "unasked", [p.id, qid], [p.id], [qid],
                              lambda found, p=p, qid=qid: _pair(book, ctx, found, p, qid))
    return count


def _pair(book, ctx, problems, p, qid) -> int:
    example = next((a for a in _candidates(book, ctx.ev, p, qid) if _stands(ctx, p.id, a)), None)
    if example is None:
        return 0
    report(problems, "error", "unasked",
           f"production {p.id!r} reads the answer to {qid!r} for its offender or penalty, but "
           f"the interview does not ask {qid!r} when {p.id!r} fires on {show_answers(example, book)} "
           f"(its when does not hold): the ruling could not state that penalty. Widen the "
           f"question's when, or narrow the production's", p,
           productions=[p.id], provisions=p.cites, example=example)
    return 1


def _implies(a, b) -> bool:
    """Whether condition ``a`` entails ``b`` literal by literal (a quick sufficient test, so
    most pairs need no search): every alternative of ``a`` contains one of ``b``'s."""
    try:
        alts_a, alts_b = cond.dnf(a), cond.dnf(b)
    except RefereeError:
        return False
    def entails(alt, alt_b):
        have = set(alt)
        given: dict = {}
        for pos, lit in alt:
            if pos and isinstance(lit, cond.AnswerTest):
                given.setdefault(lit.question, []).append(lit)
        return all(_entailed(lit, have, given) for lit in alt_b)
    return all(any(entails(alt, alt_b) for alt_b in alts_b) for alt in alts_a)


def _asked(book, ev, p, q) -> bool:
    """Whether ``q``'s ``when`` holds whenever ``p`` fires on answers the interview can reach:
    each alternative of ``p``, with what its facts need (some producer's alternative) and what
    its questions need to be asked (their own ``when``), entails one alternative of the gate
    literal by literal. A sufficient test: most pairs need no search."""
    gate = ev.gate_alts.get(q.id)
    alts = ev.alts.get(p.id)
    if not gate or alts is None:
        return False
    memo = ev.__dict__.setdefault("_unasked_entails", {})
    return all(_entails(book, ev, list(alt), gate, frozenset(), 0, memo) for alt in alts)


def _entails(book, ev, alt, gate, expanded, depth, memo) -> bool:
    # the same extended alternative is reached by expanding its literals in either order
    key = (id(gate), frozenset(alt), expanded)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _entails_now(book, ev, alt, gate, expanded, depth, memo)
    return hit


def _entails_now(book, ev, alt, gate, expanded, depth, memo) -> bool:
    # the alternative as a set, and its positive answer literals by question, made once per
    # call rather than once per gate literal tested (this recursion was most of the analysis)
    have = set(alt)
    given: dict = {}
    for pos, lit in alt:
        if pos and isinstance(lit, cond.AnswerTest):
            given.setdefault(lit.question, []).append(lit)
    if any(all(_entailed(need, have, given) for need in g) for g in gate):
        return True
    if depth >= 4:
        return False
    for pos, lit in alt:
        if not pos:
            continue
        if isinstance(lit, cond.AnswerTest):
            key = ("q", lit.question)
            ways = ev.gate_alts.get(lit.question)
        elif isinstance(lit, cond.FactTest):
            key = ("f", lit.name)
            ways = [a for x in ev.producers.get(lit.name, []) for a in (ev.alts.get(x.id) or [None])]
            if None in ways:
                continue
        else:
            continue
        if key in expanded or not ways or len(ways) > 16:
            continue
        # the literal holds only if one of these does: the gate must follow from each
        if all(_entails(book, ev, alt + list(w), gate, expanded | {key}, depth + 1, memo) for w in ways):
            return True
    return False


def _entailed(need, have: set, by_question: dict) -> bool:
    """Does the alternative (``have``; its positive answer literals ``by_question``) entail
    the literal ``need``?"""
    if need in have:
        return True
    positive, lit = need
    if not positive or not isinstance(lit, cond.AnswerTest):
        return False
    given = by_question.get(lit.question, ())
    if lit.op == "answered":
        return bool(given)
    if lit.op == "in":
        return any(g.op == "is" and g.value in lit.value for g in given)
    return False


def _candidates(book, ev, p, qid: str):
    """Reachable answers on which ``p`` fires and ``qid`` is not asked (a few, to confirm)."""
    space = Space.build(book, ev, [p.when, book.questions[qid].when]).bounded(BUDGET)
    found = 0
    for answers in space:
        if p.id in ev.fired(answers, [p]) and not ev.gate_open(qid, answers):
            yield dict(answers)
            found += 1
            if found == CONFIRMS:
                return


def _stands(ctx, pid: str, answers: dict) -> bool:
    """Only a finding that stands states its penalty; one set aside states none."""
    ruling = ctx.rule(answers)
    return ruling is None or any(f.production == pid for f in ruling.findings)
