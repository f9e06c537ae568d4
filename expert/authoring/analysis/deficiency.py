"""Deficiency: answers the interview can reach on which the rulebook says nothing.

For each value of the ``claim`` question, the reachable combinations of the answers that the
productions answering that claim read (their gates applied, the claim fixed to that one value)
are searched; a combination on which no finding at all is produced — not even a no-violation
or undecided one, nor a general one without a claim — is a place where "the rulebook is
silent": the ruling would only say the claim was not established. Reported as a warning per
claim, with a count and an example.
(Penalty-bearing provisions no production cites are reported by ``expert.checks``.)
"""
from __future__ import annotations

from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.space import Space, show_answers

BUDGET = 4000       # nodes searched per claim value


def check(book, ctx, problems) -> int:
    q = book.questions.get("claim")
    if q is None or q.type not in ("multi", "choice") or not q.values:
        return 0
    ev = ctx.ev
    every = [p for p in book.productions if p.action == "finding"]
    count = 0
    for value in q.allowed():
        # with this one value claimed, only findings that can concern it may fire (logic.scope):
        # the search reads those, not every finding of the rulebook
        findings = [p for p in every if _concerns(ev.logic.scope(p.id), value)]
        # what can fire at all with this value claimed: the unit's result reads nothing else
        # (a derivation or finding out of scope, edited, leaves it standing)
        live = [p.id for p in book.productions if _concerns(ev.logic.scope(p.id), value)]
        all_ids = [p.id for p in findings]
        answering = [p for p in findings if p.claim == str(value)]
        count += ctx.unit(problems, "silent", value, all_ids, ["claim"],
                          lambda found, value=value, findings=findings, all_ids=all_ids,
                          answering=answering: _claim(book, ctx, found, q, value, findings, all_ids,
                                                      answering), firing=True, within=live)
    return count


def _claim(book, ctx, problems, q, value, findings, all_ids, answering) -> int:
    """Search the answers reachable with ``value`` claimed for silence; report it (1) or not (0)."""
    ev = ctx.ev
    label = q.label(value)
    fixed = {"claim": [value] if q.type == "multi" else value}
    space = Space.build(book, ev, [p.when for p in answering], fixed=fixed).pruned(
        lambda answers, decided: True not in ev.possible(all_ids, answers, decided)).bounded(BUDGET)
    silent, first = 0, None
    for answers in space:
        if not ev.fired(answers, findings):
            silent += 1
            if first is None:
                first = dict(answers)
    if space.sampled:
        ctx.notes.append(f"silent: the search of claim {value!r} stopped at its bound "
                         f"({BUDGET} steps) before covering every combination")
    if not silent:
        return 0
    ruling = ctx.rule(first)
    if ruling is not None and (ruling.findings or ruling.not_ruled):
        return 0                                  # the engine does say something: no report
    bound = " (search bounded: there may be more)" if space.sampled else ""
    answered_by = (f"productions that answer this claim: {', '.join(p.id for p in answering)}"
                   if answering else "no production answers this claim")
    report(problems, "warning", "silent",
           f"the rulebook is silent on claim {value!r} ({label}): on {silent} reachable "
           f"combination(s) of the answers it reads{bound} no finding at all is produced, "
           f"e.g. {show_answers(first, book)}; {answered_by} — add a no-violation or undecided "
           "finding for these answers if that is what the articles mean",
           q, productions=[p.id for p in answering],
           provisions=sorted({c for p in answering for c in p.cites}), example=first)
    return 1


def _concerns(scope, value) -> bool:
    return scope is None or value in scope
