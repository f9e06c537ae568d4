"""Redundancy (subsumption): a production that can never change the outcome.

Production P is redundant when another production Q gives the same finding (same provisions
cited, same kind, penalty, offender and claim) and fires whenever P fires: every reachable
combination of answers on which P fires is searched (per alternative of P's conditions) and Q
fires on each. When both subsume each other (the same rule written twice), the later one is
reported.
"""
from __future__ import annotations

from referee.expert.authoring.analysis import report
from referee.expert.language.problems import Problems
from referee.expert.authoring.analysis.space import Space, finding_signature, where


def signature(p) -> tuple:
    return (tuple(sorted(p.cites)), p.claim, finding_signature(p))


def subsumes(book, ev, p, q, unfold=None):
    """(True, how it was shown) when q fires on every reachable answers p fires on."""
    if unfold is not None and _implied(unfold, p, q):
        return True, "their conditions, with the derived facts unfolded", None
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


def _implied(unfold, p, q) -> bool:
    """Does each way p can fire (an unfolded alternative) imply a way q fires: each of its
    literals is one of p's, or on a question where p's literals allow only answers it holds on
    (``{q: volunteered, is: false}`` implies ``{not: {q: volunteered, is: true}}``)? Then q
    fires wherever p does, and no search is needed: a search can only sample a large space and
    give up, as it did over preferans' dolaz findings (2.3 s a pair)."""
    from referee.expert.language import conditions as cond
    ways_p, ways_q = unfold.production(p.id), unfold.production(q.id)
    if not ways_p or not ways_q:
        return False
    if any(isinstance(lit, cond.NoFindings) for way in (*ways_p, *ways_q) for _, lit in way):
        return False          # (whether {findings: none} holds depends on which production asks)
    memo: dict = {}

    def follows(by_q, pair) -> bool:
        pos, lit = pair
        if not isinstance(lit, cond.AnswerTest):
            return False
        have = by_q.get(lit.question, frozenset())
        key = (lit.question, have, pair)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = _follows(unfold.book, lit.question, have, pos, lit)
        return hit

    for way in ways_p:
        by_q = unfold._summary(way)[0]
        if not any(all(x in way or follows(by_q, x) for x in w) for w in ways_q):
            return False
    return True


def _follows(book, qid: str, have: frozenset, pos: bool, lit) -> bool:
    """Do the literals ``have`` on one question imply the literal (``pos``, ``lit``) on it?
    Over the question's representative answers (``base_domain``); an answer left unanswered
    (``have`` holds no positive literal) makes every literal false."""
    from referee.expert.authoring.analysis.space import base_domain
    q = book.questions.get(qid)
    if q is None or q.type in ("multi", "order"):
        return False
    if not any(p for p, _ in have) and pos:
        return False                  # p may leave it unanswered, where the literal is false
    domain = base_domain(book, qid, [l for _, l in have] + [lit])
    if domain is None:
        return False
    return all(lit.holds(v) == pos for v in domain if all(l.holds(v) == p for p, l in have))


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
                ok, how = ctx.unit(Problems(), "redundancy", [p.id, q.id], [p.id, q.id], [],
                                   lambda found, p=p, q=q: list(subsumes(book, ev, p, q, ctx.unfolder)[:2]),
                                   firing=True)
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
