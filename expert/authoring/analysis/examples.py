"""Answers for a case a casebook lacks: reachable answers on which given productions fire.

For a production no case reaches, or an override no case exercises, ``referee test --coverage``
shows answers a rule author can turn into a case. The answers the productions read are searched
as `referee check` searches them (gates applied, three-valued pruning); a combination found is
then completed the way the interview would complete it: every question the interview goes on to
ask gets an answer, the one that keeps the productions firing and adds the fewest other
findings. Finally the answers are ruled on the Ruler, which must show the productions fired (and,
for an override, the loser set aside by the winner).
"""
from __future__ import annotations

from referee.expert.authoring.analysis.space import Evaluator, Space, base_domain, dynamic_domain, literals_on
from referee.expert.interview.relevance import Interview, prune
from referee.expert.language import conditions as cond

BUDGET = 3000       # combinations searched for one target
TRIES = 12          # combinations completed and ruled before giving up
MAX_ALTERNATIVES = 60   # combinations of the productions' alternatives tried


class Finder:
    def __init__(self, book, ruler, ev: Evaluator | None = None):
        self.book, self.ruler = book, ruler
        self.ev = ev or Evaluator(book)
        self.lits = literals_on([p.when for p in book.productions]
                                + [q.when for q in book.questions.values()])

    # --- what must hold ------------------------------------------------------------------
    def _fires(self, answers: dict, pids: list[str]) -> bool:
        findings = [self.ev.by_id[p] for p in pids if self.ev.by_id[p].action == "finding"]
        fired = self.ev.fired(answers, findings) if findings else set()
        derived = [p for p in pids if self.ev.by_id[p].action == "derive"]
        if derived:
            facts = self.ev.facts(answers)
            if not all(self.ev.holds(p, answers, facts) for p in derived):
                return False
        return all(p in fired for p in pids if self.ev.by_id[p].action == "finding") and \
            all(self.ev.holds(p, answers, self.ev.facts(answers)) for p in pids
                if self.ev.by_id[p].action == "keep_first")

    def _ruled(self, answers: dict, pids: list[str], aside: tuple[str, str] | None):
        ruling = self.ruler.rule(answers)
        fired = {step["production"] for step in ruling.trail}
        if not set(pids) <= fired:
            return None
        if aside and not any(n.production == aside[1] and n.by == aside[0] for n in ruling.not_ruled):
            return None
        return ruling

    # --- search ------------------------------------------------------------------------------
    def reaching(self, pids: list[str], aside: tuple[str, str] | None = None, fixed: dict | None = None):
        """(answers, ruling) on which every production in ``pids`` fires (and ``aside``, a
        (winner, loser) pair, shows the loser set aside; ``fixed`` answers are given), as the
        interview would gather them;
        None when the search finds none. The alternatives of the productions' conditions (derived
        facts unfolded) are tried one combination at a time, each with its multi answers first
        limited to the values it names, so the answers say no more than the case needs."""
        from itertools import product

        from referee.expert.authoring.analysis.expand import Unfolder
        from referee.expert.authoring.analysis.space import alt_condition
        unfold = Unfolder(self.book, self.ev)
        # a production with too many unfolded alternatives: its own alternatives, facts folded
        ways = [unfold.production(p) or [frozenset(a) for a in self.ev.alts.get(p) or []] or None
                for p in pids]
        spaces = []
        if all(w is not None for w in ways):
            combos = []
            for combo in product(*ways):
                if any(unfold.exclusive(a, b) for i, a in enumerate(combo) for b in combo[i + 1:]):
                    continue
                combos.append(frozenset().union(*combo))
                if len(combos) >= 50 * MAX_ALTERNATIVES:
                    break
            # the combinations that name the fewest values of multi answers (claims) first
            combos.sort(key=lambda joint: sum(1 for pos, lit in joint if pos and isinstance(
                lit, cond.AnswerTest) and lit.op == "has"))
            for joint in combos:
                both = sorted(joint, key=str)
                spaces.append(_only_named(Space.build(self.book, self.ev,
                                                      self._extra(pids, [alt_condition(both)]), fixed)
                                          .restrict(both), both))
                if len(spaces) >= MAX_ALTERNATIVES:
                    break
        else:
            whole = Space.build(self.book, self.ev, self._extra(pids, [self.ev.by_id[p].when for p in pids]),
                                fixed)
            spaces.append((whole, whole))
        viable = lambda a, d: False not in self.ev.possible(pids, a, d)    # noqa: E731
        # first each alternative with its multi answers (the claims) just the values it names,
        # then with more values too
        for per_space, strict in ((1, True), (TRIES, False)):
            tries = 0
            for space in spaces:
                space = space[0] if strict else space[1]
                taken = 0
                for answers in space.pruned(viable).bounded(BUDGET):
                    if not self._fires(answers, pids) or any(answers.get(q) != v for q, v in (fixed or {}).items()):
                        continue
                    taken += 1
                    full = self.complete(dict(answers), pids)
                    ruling = self._ruled(full, pids, aside) if full is not None else None
                    if ruling is not None:
                        return full, ruling
                    tries += 1
                    if taken >= per_space or tries >= 4 * TRIES:
                        break
        return None

    def _extra(self, pids, conditions):
        for pid in pids:
            p = self.ev.by_id[pid]
            if p.action == "keep_first":
                conditions = conditions + [cond.AnswerTest(p.keep_first, "answered", True)]
        return conditions

    def complete(self, answers: dict, pids: list[str]) -> dict | None:
        """The answers in the order the interview asks them, with an answer to every question
        it asks beyond them (chosen to keep ``pids`` firing with the fewest other findings)."""
        book = self.book
        interview = Interview(book)
        for _ in range(2 * len(book.questions) + 2):
            q = interview.next_question()
            if q is None:
                break
            if q.for_the_record:
                interview.skip(q.id)
                continue
            if q.id in answers:
                value = answers[q.id]
            else:
                value = self._choose(q, interview.answers, answers, pids)
                if value is None:
                    return None
            interview.give(q.id, value)
            interview.answers = prune(book, interview.answers)
        # an override's loser: once the winner surely stands the interview asks nothing about
        # it, but a case may still answer what it reads (its gates hold), to show it set aside
        gathered = prune(book, dict(answers, **interview.answers))
        from referee.expert.language.expressions import questions_in_finding
        for pid in pids:
            p = self.ev.by_id[pid]
            for qid in sorted(questions_in_finding(p.finding) if p.finding else ()):
                q = book.questions.get(qid)
                if q is not None and qid not in gathered and self.ev.gate_open(qid, gathered):
                    value = self._choose(q, gathered, gathered, pids)
                    if value is not None:
                        gathered[qid] = value
        return {q: gathered[q] for q in book.questions if q in gathered}

    def _choose(self, q, asked: dict, target: dict, pids: list[str]):
        domain = base_domain(self.book, q.id, self.lits.get(q.id, []))
        if domain is None:
            domain = dynamic_domain(q, dict(target, **asked))
        best, best_cost = None, None
        for value in domain or []:
            trial = dict(target, **asked)
            trial[q.id] = value
            if not self._fires(trial, pids):
                continue
            cost = len(self.ev.fired(trial))
            if best_cost is None or cost < best_cost:
                best, best_cost = value, cost
        return best


def _only_named(space, alt) -> tuple:
    """(the space with each multi answer the alternative tests exactly the values it names,
    the space as it is)."""
    strict = dict(space.domains)
    for qid, pairs in space.constraints.items():
        q = space.book.questions.get(qid)
        want = [lit.value for pos, lit in pairs if pos and lit.op == "has"]
        if q is not None and q.type in ("multi", "order") and want and strict.get(qid) is not None:
            strict[qid] = [[v for v in q.allowed() if v in want]]
    narrow = Space(space.book, space.ev, space.questions, strict, space.fixed, space.constraints,
                   viable=space.viable, budget=space.budget)
    return narrow, space
