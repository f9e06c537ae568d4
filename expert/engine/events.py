"""Ruling on a dispute of several events: each event on its own, then the rulebook's chronology
across them.

Each event is ruled by the one engine with the shared answers and its own (``Ruler.rule``):
within an event the productions' ``overrides`` decide which of two provisions on the same act
prevails, as they always have. Across events three things apply, all declared in the rulebook:

- a ``keep_first`` production (preferans Član 22, ulti's first renonsz) rules only on the
  competing findings of the earliest event that has one; those of later events are set aside as
  committed later, citing it. Its ``when`` is read on the shared answers: it applies unless they
  rule it out (answers of single events, and derived facts, are read as unknown there);
- a finding that ``settles_deal`` (a misdeal) sets aside the findings its production overrides
  in every event, not only its own;
- a finding that ``carries`` answers questions of the events after its own (``carried``): those
  are in the later events' answers before they are ruled.

Findings, set-asides and the trail keep the event they belong to.
"""
from __future__ import annotations

from referee.expert.engine.ruler import Ruler
from referee.expert.engine.verdict import NotRuled, Ruling, article_of, winner_article
from referee.expert.language import conditions as cond
from referee.expert.language.model import NOT_RULED_KINDS, Production


def rule_events(ruler: Ruler, answers: list[dict], shared: dict, header: dict | None = None,
                from_cards: dict | None = None, rulings: list[Ruling] | None = None) -> Ruling:
    """``answers``: each event's complete answers, in the order the events happened (with what
    earlier events carry to it: ``carried.forward``); ``shared``: the answers common to all of
    them (the deal's); ``rulings``: each event's own ruling on them, when already made."""
    if len(answers) == 1:
        return rulings[0] if rulings else ruler.rule(answers[0], header, from_cards)
    book = ruler.book
    rulings = rulings or [ruler.rule(a, header, from_cards) for a in answers]
    findings, not_ruled, trail, not_established, not_established_events = [], [], [], [], []
    refined = []
    for k, r in enumerate(rulings):
        for f in r.findings:
            f.event = k
        for n in r.not_ruled + r.refined:
            n.event = k
        refined += r.refined
        findings += r.findings
        not_ruled += r.not_ruled
        trail += [dict(step, event=k + 1) for step in r.trail]
        not_established += r.not_established
        not_established_events += [k] * len(r.not_established)
    _once_per_deal(book, findings)
    _settles_deal(book, findings, not_ruled)
    for kp in book.productions:
        if kp.action == "keep_first" and _applies(kp, shared):
            _keep_first(book, kp, findings, not_ruled, not_established, not_established_events, answers, trail)
    return Ruling(book=book, answers=dict(shared), header=dict(header or {}), findings=findings,
                  not_ruled=not_ruled, not_established=not_established, trail=trail,
                  from_cards=dict(from_cards or {}), events=[dict(a) for a in answers],
                  not_established_events=not_established_events, refined=refined)


def _applies(kp: Production, shared: dict) -> bool:
    def literal(lit):
        if isinstance(lit, cond.AnswerTest) and lit.question in shared:
            return lit.holds(shared[lit.question])
        return None
    return cond.evaluate(kp.when, literal) is not False


def _set_aside(book, loser, winner: Production, cause: str, first=None) -> NotRuled:
    prod = book.production(loser.production)
    if cause == "override":
        why = winner.why or {"en": "it is the more specific provision"}
        reason = (f"set aside: {article_of(book, winner)} ({winner.id}) settles the deal — "
                  f"{why.get('en', '') if isinstance(why, dict) else why}")
        return NotRuled(production=prod.id, provisions=list(prod.cites), article=loser.article,
                        reason=reason, by=winner.id, cause="override",
                        winner_article=winner_article(book, winner, prod), why=why, event=loser.event,
                        by_provisions=list(winner.cites))
    reason = (f"not ruled on: committed after the violation under {first.article} (event "
              f"{first.event + 1}); {article_of(book, winner)} rules only on the one committed first")
    return NotRuled(production=prod.id, provisions=list(prod.cites), article=loser.article,
                    reason=reason, by=winner.id, cause="later", winner_article=article_of(book, winner),
                    first_article=first.article, event=loser.event, by_provisions=list(winner.cites))


def _settles_deal(book, findings: list, not_ruled: list) -> None:
    for w in [f for f in findings if (book.production(f.production).finding or {}).get("settles_deal")]:
        winner = book.production(w.production)
        for f in [f for f in findings if f.event != w.event and f.production in winner.overrides]:
            findings.remove(f)
            not_ruled.append(_set_aside(book, f, winner, "override"))


def _keep_first(book, kp: Production, findings: list, not_ruled: list, not_established: list,
                not_established_events: list, answers: list[dict], trail: list) -> None:
    competing = [f for f in findings if kp.ranks(f.production, f.kind)]
    if not competing:
        return
    first_event = min(f.event for f in competing)
    first = next(f for f in competing if f.event == first_event)
    # ... and what is never the first but cannot follow it either (keep_first `later`)
    following = [f for f in findings if f.event > first_event and f not in competing
                 and f.production in (kp.keep_first_later or ())]
    for f in competing + following:
        if f.event != first_event:
            findings.remove(f)
            not_ruled.append(_set_aside(book, f, kp, "later", first))
            trail.append({"production": kp.id, "rule": f"{kp.id}>{f.production}", "cites": list(kp.cites),
                          "facts": [{"finding": first.production}, {"finding": f.production}],
                          "event": f.event + 1})
    # examine_later: false -- a later claim is not examined at all (preferans Član 22: the referee
    # acts only on the violation committed first): a finding that it was no violation, reached on
    # facts the first ruling may have replaced (the hand as played, blind walk 8, P2), is set
    # aside as well
    if not kp.keep_first_examine_later:
        for f in [f for f in findings if f.event > first_event and f.kind == "no-violation"
                  and kp.competes(f.production) and not cond.reads_findings(book.production(f.production).when)]:
            findings.remove(f)
            not_ruled.append(_set_aside(book, f, kp, "later", first))
            trail.append({"production": kp.id, "rule": f"{kp.id}>{f.production}", "cites": list(kp.cites),
                          "facts": [{"finding": first.production}, {"finding": f.production}],
                          "event": f.event + 1})
    # a later event whose own facts were not examined (the interview does not ask what will be
    # set aside) is not cleared by the general "no violation" either: its claims were not examined
    for f in [f for f in findings if f.event > first_event and f.kind in NOT_RULED_KINDS
              and cond.reads_findings(book.production(f.production).when)]:
        findings.remove(f)
        claims = answers[f.event].get("claim") or []
        for c in claims if isinstance(claims, list) else [claims]:
            if (c, f.event) not in zip(not_established, not_established_events):
                not_established.append(c)
                not_established_events.append(f.event)


def _once_per_deal(book, findings: list) -> None:
    """A finding that rests only on the deal's shared answers (who referees, the game) stands
    once, on the first event, not once per event."""
    seen = set()
    for f in list(findings):
        if not _deal_only(book, f.production):
            continue
        key = (f.production, f.offender, tuple((p.player, p.effect, p.amount, p.against) for p in f.penalty))
        if key in seen:
            findings.remove(f)
        seen.add(key)


def _deal_only(book, pid: str) -> bool:
    """Whether a production reads no event's own answers (through derived facts too); reading
    only that a claim was made counts as the deal's."""
    cache = book.__dict__.setdefault("_deal_only", {})
    if pid in cache:
        return cache[pid]
    cache[pid] = False                       # a cycle reads as not deal-only
    producers: dict[str, list] = {}
    for p in book.productions:
        if p.action == "derive":
            producers.setdefault(p.derive, []).append(p)
    result = True
    for lit in cond.literals(book.production(pid).when):
        if isinstance(lit, cond.AnswerTest):
            q = book.questions.get(lit.question)
            if q is not None and q.scope != "deal" and not (lit.question == "claim" and lit.op == "answered"):
                result = False
        elif isinstance(lit, cond.FactTest):
            result = result and all(_deal_only(book, p.id) for p in producers.get(lit.name, []))
        elif isinstance(lit, cond.NoFindings):
            result = False
    cache[pid] = result
    return result
