"""Redundancy (subsumption): a production that can never change the outcome.

Production P is redundant when another production Q gives the same finding (same provisions
cited, same kind, penalty, offender and claim) and fires whenever P fires: every reachable
combination of answers on which P fires is searched (per alternative of P's conditions) and Q
fires on each. When both subsume each other (the same rule written twice), the later one is
reported.
"""
from __future__ import annotations

from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.space import Space, finding_signature, where


def signature(p) -> tuple:
    return (tuple(sorted(p.cites)), p.claim, finding_signature(p))


def subsumes(book, ev, p, q):
    """(True, space description) when q fires on every reachable answers p fires on."""
    base = Space.build(book, ev, [p.when, q.when])
    state = {"fired": False}
    seen, sampled = 0, False

    def viable(answers, decided):
        vp, vq = ev.possible([p.id, q.id], answers, decided)
        if vp is True:
            state["fired"] = True
        return vp is not False and vq is not True      # a counterexample may still lie below

    for alt in ev.alts[p.id]:
        space = base.restrict(alt).pruned(viable)
        for answers in space:
            fired = ev.fired(answers, [p, q])
            if p.id in fired:
                state["fired"] = True
                if q.id not in fired:
                    return False, None, answers
        seen += space.seen
        sampled = sampled or space.sampled
    fired_once = True          # unreachable productions were left out by check()
    if not fired_once:
        return False, None, None
    how = ("a bounded search of the answers they read" if sampled
           else "every reachable combination of the answers they read")
    return True, how, None


def check(book, ctx, problems) -> int:
    ev = ctx.ev
    dead = getattr(ctx, "unreachable", set())
    groups: dict[tuple, list] = {}
    for p in book.productions:
        if p.action == "finding" and p.id not in dead and ev.alts.get(p.id) is not None:
            groups.setdefault(signature(p), []).append(p)
    count = 0
    reported: set[str] = set()
    for prods in groups.values():
        if len(prods) < 2:
            continue
        for p in prods[::-1]:                          # later productions first
            for q in prods:
                if q is p or q.id in reported or p.id in reported:
                    continue
                ok, how, _ = subsumes(book, ev, p, q)
                if not ok:
                    continue
                reported.add(p.id)
                count += 1
                report(problems, "warning", "redundancy",
                       f"production {p.id!r} ({', '.join(p.cites)}) is redundant: {q.id!r} "
                       f"({where(q)}) gives the same finding and fires whenever it does (checked on "
                       f"{how}); remove {p.id!r} or merge its conditions into {q.id!r}",
                       p, productions=[p.id, q.id], provisions=p.cites)
                break
    return count
