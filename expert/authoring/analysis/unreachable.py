"""Unreachable productions: conditions that can never all hold.

First by reasoning over the disjunctive normal form, which names the reason for each
alternative: contradictory literals on one question (``is: a`` and ``is: b``; ``ge: 5`` and
``lt: 3``), a value the question does not allow, a fact nothing (reachable) derives, a question
whose ``when`` excludes the answer the production needs. Then, for what survives, by searching
the reachable answers (gates applied) for one combination that fires it: when the whole space
was searched and none does, the production is unreachable for a reason the literals alone do
not show (for instance a chain of gates).
"""
from __future__ import annotations

from referee.expert.language import conditions as cond
from referee.expert.authoring.analysis import report
from referee.expert.language.problems import Problems
from referee.expert.authoring.analysis.space import Space, alt_condition, base_domain, show_lit, tested_first


def _on_question(book, qid, pairs):
    """None when the (positive, literal) pairs on one question can hold together, else why."""
    q = book.questions.get(qid)
    if q is None:
        return f"question {qid!r} does not exist"
    if all(not pos for pos, _ in pairs):
        return None                                  # satisfied by leaving it unanswered
    if q.type in ("multi", "order"):
        return _on_list(book, q, pairs)
    domain = base_domain(book, qid, [l for _, l in pairs])
    if domain is None:                               # order over another answer: any order
        return None
    if any(all(l.holds(v) == pos for pos, l in pairs) for v in domain):
        return None
    for pos, l in pairs:
        if pos and not any(l.holds(v) for v in domain):
            if l.op in ("ge", "gt", "le", "lt", "is", "in") and q.type == "number":
                return f"{show_lit(pos, l)} is outside the bounds of {qid!r} ({q.min}..{q.max})"
            return f"{show_lit(pos, l)} asks for a value {qid!r} does not allow"
    shown = " and ".join(show_lit(p, l) for p, l in pairs)
    return f"{shown} cannot hold together"


def _on_list(book, q, pairs):
    """Exact reasoning for a multi/order answer: values required, forbidden, counted."""
    from referee.expert.language.answers import allowed_values
    allowed = allowed_values(q, book) or []
    need = {l.value for pos, l in pairs if pos and l.op == "has"}
    banned = {l.value for pos, l in pairs if not pos and l.op == "has"}
    for pos, l in pairs:
        if pos and l.op == "has" and l.value not in allowed:
            return f"{show_lit(pos, l)} asks for a value {q.id!r} does not allow"
        if pos and l.op in ("is", "in"):
            return f"{show_lit(pos, l)} never holds on a {q.type} answer (a list): use 'has'"
    both = need & banned
    if both:
        v = sorted(map(str, both))[0]
        return f"{{q: {q.id}, has: {v}}} and {{not: {{q: {q.id}, has: {v}}}}} cannot hold together"
    most = len([v for v in allowed if v not in banned])
    for pos, l in pairs:
        if l.op != "count_ge":
            continue
        if pos and l.value > most:
            return f"{show_lit(pos, l)} needs more values than {q.id!r} can have here ({most})"
        if not pos and l.value <= max(len(need), 1):
            return f"{show_lit(pos, l)} cannot hold with {len(need)} value(s) required"
    return None


def alt_reason(book, alt, dead_facts, ev, depth=0) -> str | None:
    """Why this conjunction of literals can never hold, or None."""
    by_q: dict[str, list] = {}
    for pos, lit in alt:
        if isinstance(lit, cond.AnswerTest):
            by_q.setdefault(lit.question, []).append((pos, lit))
        elif isinstance(lit, cond.FactTest) and pos:
            if lit.name not in ev.producers:
                return f"it needs fact {lit.name!r}, which no production derives"
            if lit.name in dead_facts:
                return (f"it needs fact {lit.name!r}, whose producers "
                        f"({', '.join(p.id for p in ev.producers[lit.name])}) can never fire")
    memo = ev.__dict__.setdefault("_on_question", {})
    for qid, pairs in by_q.items():
        key = (qid, tuple(pairs))
        if key not in memo:
            memo[key] = _on_question(book, qid, pairs)
        if memo[key]:
            return memo[key]
    if depth > 2:
        return None
    for qid, pairs in by_q.items():
        q = book.questions.get(qid)
        if q is None or q.when is None or all(not pos for pos, _ in pairs):
            continue
        gate = ev.gate_alts.get(qid)
        if gate is None:
            continue
        if all(alt_reason(book, list(alt) + g, dead_facts, ev, depth + 1) for g in gate):
            return (f"it needs an answer to {qid!r}, but {qid!r} is asked only when "
                    f"{cond_text(q.when)}, which its other conditions exclude")
    return None


def cond_text(c) -> str:
    try:
        alts = cond.dnf(c)
    except Exception:
        return "its condition holds"
    return " or ".join(" and ".join(show_lit(p, l) for p, l in a) or "always" for a in alts)


def static_dead(book, ev, among=None) -> dict[str, list[str]]:
    """Productions every alternative of which is contradictory: id -> reasons per alternative.
    ``among``: only these productions (closed under the facts they read: ``logic.reads``), whose
    verdicts are then those of the whole rulebook."""
    dead: dict[str, list[str]] = {}
    dead_facts: set[str] = set()
    prods = book.productions if among is None else [p for p in book.productions if p.id in among]
    for _ in range(len(prods) + 1):
        for p in prods:
            if p.id in dead or ev.alts.get(p.id) is None:
                continue
            reasons = [alt_reason(book, a, dead_facts, ev) for a in ev.alts[p.id]]
            if all(reasons):
                dead[p.id] = reasons
        grown = {name for name, makers in ev.producers.items()
                 if name not in dead_facts and all(p.id in dead for p in makers)}
        if not grown:
            break           # the next pass would read the same dead facts: it finds nothing new
        dead_facts |= grown
    return dead


def check(book, ctx, problems) -> set[str]:
    ev = ctx.ev
    # the two passes over the whole rulebook read only which productions can fire (and the
    # casebook): kept across checks, so rewording a finding or changing who pays what does not
    # pay for them again (a third of a warm preferans check)
    every = [p.id for p in book.productions]
    dead = _static_dead(book, ctx)
    for p in book.productions:
        if p.id not in dead:
            continue
        alts = ev.alts[p.id]
        if len(alts) == 1:
            why = dead[p.id][0]
        else:
            why = "; ".join(f"alternative {i + 1}: {r}" for i, r in enumerate(dead[p.id][:4]))
            if len(alts) > 4:
                why += f"; … ({len(alts)} alternatives, none possible)"
        report(problems, "error", "unreachable",
               f"production {p.id!r} ({', '.join(p.cites)}) can never fire: {why}",
               p, productions=[p.id], provisions=p.cites)
    ctx.unreachable = set(dead)
    witnessed = ctx.unit(Problems(), "witnesses", "all", every, list(book.questions),
                         lambda found: sorted(casebook_witnesses(book, ev, ctx.ruler)),
                         also=list(book.cases), firing=True)
    # the searches read nothing of each other: a re-check shares them with a second process
    state = {"dead": sorted(dead), "witnessed": witnessed}
    specs = search_specs(book, ctx, state)
    for (_, pid, *_), proved in zip(specs, ctx.units(problems, specs, "unreachable", state)):
        if proved:
            ctx.unreachable.add(pid)
    return ctx.unreachable


def search_specs(book, ctx, state: dict) -> list:
    """The searches for a witness (``Analysis.units``): each production neither found dead by
    its literals (``state["dead"]``) nor fired by a casebook case the interview can reach
    (``state["witnessed"]``)."""
    ev = ctx.ev
    dead, witnessed = set(state["dead"]), set(state["witnessed"])
    # productions stating one condition twice (a finding, the fact it gates, the clearing) walk
    # the same unfolded alternatives: the first walk's leaves are kept for the others
    walked: dict = {}
    return [("unreachable", p.id, [p.id], [],
             lambda found, p=p: _search(book, ev, found, p, ctx.unfolder, walked), {"firing": True})
            for p in book.productions
            if p.id not in dead and ev.alts.get(p.id) is not None and p.action != "keep_first"
            and p.id not in witnessed]


SEPARATE = 3        # at most this many productions to work out: each over its own closure


def _static_dead(book, ctx) -> dict[str, list[str]]:
    """``static_dead`` one production at a time through the cache, each keyed on what it reads
    (the facts it needs and their derivations): an edit recomputes only the productions that
    read what changed, over their own closure (skat: 0.85 s for the whole rulebook on every
    edit of a condition)."""
    ev, known = ctx.ev, {}
    # many to work out (a cold check, an edit most productions read): once for the whole rulebook,
    # cheaper than each one's closure apart (preferans' dolaz: 33 closures, 0.8 s against 0.2 s)
    missing = [p for p in book.productions if not ctx.cached("static-dead", p.id, [p.id], [], firing=True)]
    if len(missing) > SEPARATE:
        whole = static_dead(book, ev)
        known = {p.id: whole.get(p.id) for p in book.productions}

    def verdict(pid):
        if pid not in known:
            closure = ev.logic.reads([pid])[0]
            found = static_dead(book, ev, closure)
            for q in closure:
                known.setdefault(q, found.get(q))
        return known.get(pid)
    dead = {}
    for p in book.productions:
        reasons = ctx.unit(Problems(), "static-dead", p.id, [p.id], [],
                           lambda found, p=p: verdict(p.id), firing=True)
        if reasons:
            dead[p.id] = reasons
    return dead


def casebook_witnesses(book, ev, ruler=None) -> set[str]:
    """The productions some casebook case fires on answers the interview can reach: each
    answer given where its question is asked (its gate open on the others), none 'unknown', one
    event. Such a case is the example a search would look for (every penalty-bearing provision
    has one, so most productions need no search: about a third of preferans' analysis)."""
    from referee.expert.language.answers import is_unknown
    from referee.expert.language.errors import RefereeError
    from referee.expert.language.answers import check_all
    fired: set[str] = set()
    # (a production reading {findings: none} is left to the search: whether it holds depends on
    # the other findings, which this pass does not work out)
    every = [p for p in book.productions if p.action in ("derive", "finding")
             and ev.alts.get(p.id) is not None and not cond.reads_findings(p.when)]
    for case in book.cases:
        if case.events or case.cards:
            continue
        try:
            answers = check_all(case.answers, book, case.file, case.line)
        except RefereeError:
            continue
        if any(is_unknown(v) for v in answers.values()) or any(q not in book.questions for q in answers):
            continue
        if not all(ev.gate_open(q, answers) for q in answers):
            continue
        # only what the Ruler compiles for these answers (``Ruler.compiled_for``): a case costs
        # what its claim group's rules do, not the whole rulebook's
        among = ruler.compiled_for(answers) if ruler is not None else None
        pool = every if among is None else [p for p in every if p.id in among]
        todo = [p for p in pool if p.id not in fired]
        if not todo:
            continue
        facts = ev.facts(answers, ev.derivers_for(pool))      # (memoised by the pool: per claim group)
        fired |= {p.id for p in todo if ev.holds(p.id, answers, facts, True)}
    return fired


def _search(book, ev, problems, p, unfold=None, walked=None, answered=False) -> bool:
    """Search for answers that fire ``p``; report it when there are none. True: proved
    unreachable (the whole space was searched). ``answered``: on answers where every question
    asked is answered (a fact needed absent that is derived on all of them is then a proof, not
    a warning: bench/mutate.py's equivalence proofs reason so)."""
    absent: set = set()
    found, spaces = (_witness_unfolded(book, ev, p, unfold, {} if walked is None else walked, absent)
                     if unfold is not None else (None, None))
    if spaces is None:
        found, spaces = _witness(book, ev, p)
    if found is not None:
        return False
    sampled = any(s.sampled for s in spaces)
    searched = sum(s.seen for s in spaces)
    if absent and not answered:
        # The walks answer every question asked; an answer 'unknown' (or a question the
        # interview leaves unasked, the deal's frame on the score sheet) derives nothing, so a
        # fact needed absent can be absent at the table: not an error, but worth a look.
        report(problems, "warning", "unreachable",
               f"production {p.id!r} ({', '.join(p.cites)}) fires only where an answer is "
               f"unknown or left unasked: wherever every question asked is answered, "
               f"{_names(absent)}, which it needs absent, is derived: check that this is meant",
               p, productions=[p.id], provisions=p.cites)
        return False
    if sampled:
        report(problems, "warning", "unreachable",
               f"production {p.id!r} ({', '.join(p.cites)}) did not fire on any of {searched} "
               f"sampled answer combinations (the full space is too large to search): check "
               "that its conditions can hold together and with the questions' 'when'",
               p, productions=[p.id], provisions=p.cites)
        return False
    report(problems, "error", "unreachable",
           f"production {p.id!r} ({', '.join(p.cites)}) fires on none of the {searched} "
           "answer combinations the interview can reach (all searched): its conditions "
           "hold only on answers the questions' 'when' never lets the referee give",
           p, productions=[p.id], provisions=p.cites)
    return True


WALK_BUDGET = 3_000     # nodes of the walk over one unfolded alternative


def _names(facts: set) -> str:
    shown = [f"fact {n!r}" for n in sorted(facts)]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _witness_unfolded(book, ev, p, unfold, walked: dict, absent: set | None = None):
    """As ``_witness``, over the production's unfolded alternatives (``expand``), each walked
    in order with the alternative's own literals pruning (``Evaluator.alt_viable``): the walk
    reaches an example within a few nodes, or ends and proves there is none. (None, None) when
    the production does not unfold. ``absent`` collects the facts that refuted alternatives
    need absent (``Unfolder.refuted``)."""
    alts = unfold.production(p.id)
    findings = any(isinstance(l, cond.NoFindings) for alt in ev.alts[p.id] for _, l in alt)
    if alts is None or findings:
        return None, None        # ({findings: none} is decided only at a leaf: the usual search)
    spaces = []
    for alt in alts:
        if unfold.refuted(alt):
            # a fact it needs absent is derived wherever it holds (every question answered)
            if absent is not None:
                absent |= {l.name for pos, l in alt if not pos and isinstance(l, cond.FactTest)}
            continue
        leaves = walked.get(alt)
        if leaves is None:
            key = alt
            alt = sorted(alt, key=str)
            space = (Space.build(book, ev, [alt_condition(alt)], prefer=tested_first(book, alt))
                     .restrict(alt).pruned(ev.alt_viable(alt), walk_first=True).bounded(WALK_BUDGET))
            leaves = walked[key] = (space, [dict(a) for a in _first(space, 1)])
        space, found = leaves
        spaces.append(space)
        for answers in found:
            # the alternative holds on the walk's leaves, so the production does: confirmed
            if ev.holds(p.id, answers, ev.facts(answers, ev.derivers_for([p])), True):
                return answers, spaces
    return None, spaces


def _first(space, n: int) -> list:
    """The first ``n`` answer combinations of a walk (the walk stops there)."""
    out = []
    for answers in space:
        out.append(answers)
        if len(out) >= n:
            break
    return out


def _witness(book, ev, p):
    spaces = []
    for alt in ev.alts[p.id]:
        space = Space.build(book, ev, [alt_condition(alt)]).restrict(alt).pruned(
            lambda answers, decided: ev.possible([p.id], answers, decided)[0] is not False)
        spaces.append(space)
        for answers in space:
            if any(isinstance(l, cond.NoFindings) for _, l in alt):
                facts = ev.facts(answers)
                no_findings = not any(ev.holds(x.id, answers, facts, True) for x in ev.infractions
                                      if x.id != p.id)
            else:
                facts, no_findings = ev.facts(answers, ev.derivers_for([p])), True
            if ev.alt_holds(alt, answers, facts, no_findings):
                return answers, spaces
    return None, spaces
