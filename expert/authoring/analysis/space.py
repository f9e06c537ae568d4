"""The answer space of a rulebook, and a fast two-valued evaluator over it.

The analyses search combinations of answers. Ruling each one through Experta would cost a few
milliseconds; this module evaluates the same conditions in plain Python (the semantics of a
ruling: an unanswered question makes every literal on it false; derived facts stratified;
``{findings: none}`` true when no infraction finding fires) so thousands of combinations cost
little. Every problem an analysis reports is then confirmed on the rulebook's one ``Ruler``.

Only the questions a search needs are enumerated: those the productions under study read
(through derived facts too) and the gate questions whose ``when`` decides whether those are
asked. A question whose gate is false is left unanswered, as the interview would leave it, so
only reachable combinations are produced. Finite answer sets come from the questions; numbers
are represented by the values around each threshold the conditions compare them with; ``multi``
answers by the subsets of the values the conditions test (plus a value they do not test).
"""
from __future__ import annotations

import heapq
import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

import yaml

from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.logic import (Logic, alternatives as logic_alternatives, alts3, answer3,
                                            derive3, fact3)
from referee.expert.language.model import INFRACTION_KINDS, Production, Rulebook
from referee.expert.language.qtypes import qtype

LIMIT = 20_000          # enumerate exhaustively up to this many combinations
SAMPLES = 3_000         # beyond it, this many random (seeded) combinations
UNANSWERED = None


class Evaluator:
    """Which productions fire on a set of answers, without an engine."""

    def __init__(self, book: Rulebook):
        self.book = book
        self.logic = logic = Logic.of(book)
        self.alts: dict[str, list | None] = logic.alts
        self.by_id = logic.by_id
        self.producers: dict[str, list[Production]] = logic.producers
        self.derivers = logic.derivers
        self.infractions = [p for p in logic.plain_findings
                            if p.kind in INFRACTION_KINDS]
        self.findings = logic.findings
        self._derivers_cache: dict = {}
        self.gate_alts: dict[str, list] = {}
        self.gate_facts = {q.id for q in book.questions.values()
                           if q.when is not None and (cond.facts_read(q.when) or cond.reads_findings(q.when))}
        for q in book.questions.values():
            if q.when is not None:
                alts = logic_alternatives(q.when)
                self.gate_alts[q.id] = [[]] if alts is None else alts
        # memos of gate_open and possible, keyed by the answers they read (see _projection)
        self._gate_reads: dict[str, tuple] = {}
        self._gate_memo: dict = {}
        self._possible_reads: dict = {}
        self._possible_memo: dict = {}
        self._facts_memo: dict = {}
        self._plans: dict = {}          # derivers (by identity) -> what each reads (``_plan``)
        self._last: dict = {}           # derivers -> the last state facts3 was asked, and its values

    # --- literals and alternatives ------------------------------------------------
    @staticmethod
    def literal(lit, answers: dict, facts: set, no_findings: bool) -> bool:
        if isinstance(lit, cond.AnswerTest):
            value = answers.get(lit.question)
            return False if value is None else lit.holds(value)
        if isinstance(lit, cond.FactTest):
            return lit.name in facts
        return no_findings

    def alt_holds(self, alt, answers, facts, no_findings) -> bool:
        lit = self.literal
        return all(lit(l, answers, facts, no_findings) == pos for pos, l in alt)

    def holds(self, pid: str, answers: dict, facts: set, no_findings: bool = True) -> bool:
        alts = self.alts.get(pid)
        if alts is None:
            return cond.evaluate(self.by_id[pid].when,
                                 lambda l: self.literal(l, answers, facts, no_findings)) is True
        return any(self.alt_holds(a, answers, facts, no_findings) for a in alts)

    def gate_open(self, qid: str, answers: dict, facts: set | None = None) -> bool:
        alts = self.gate_alts.get(qid)
        if alts is None:
            return True
        if facts is not None:
            return any(self.alt_holds(a, answers, facts, True) for a in alts)
        # A search asks this of every question at every node, and the answer depends only on
        # the answers the gate and its derivations read: memoised by those.
        reads = self._gate_reads.get(qid)
        if reads is None:
            derivers = self.logic.gate_derivers(qid) if qid in self.gate_facts else []
            reads = self._gate_reads[qid] = _questions_of(
                [self.book.questions[qid].when] + [p.when for p in derivers])
        key = (qid, _projection(reads, answers, None))
        hit = self._gate_memo.get(key)
        if hit is None:
            # only the derivations the gate reads, not every fact of the rulebook
            facts = self.facts(answers, self.logic.gate_derivers(qid)) if qid in self.gate_facts else set()
            hit = any(self.alt_holds(a, answers, facts, True) for a in alts)
            _remember(self._gate_memo, key, hit)
        return hit

    # --- three values: questions not yet decided are unknown ---------------------------
    def _literal(self, answers: dict, decided, facts: dict):
        """Three-valued literal reader (``logic``): unknown while a question is undecided;
        ``facts`` may be filled after this is made (it is read at call time)."""
        producers = self.producers
        settled = decided.__contains__

        def lit(l):
            if isinstance(l, cond.AnswerTest):
                return answer3(l, answers, settled)
            if isinstance(l, cond.FactTest):
                return fact3(l.name, facts, producers)
            return None
        return lit

    def facts3(self, answers: dict, decided: set, derivers: list) -> dict:
        """Three-valued derived facts of these derivers (in stratum order) on a state.

        A search asks this at every node, of states that differ from the one asked before
        by a question or two (the next question of a walk, a sibling's value): the derivers
        that read none of what changed, and no fact that changed, keep their values from the
        last call on the same derivers; only the others are evaluated again. (Evaluating every
        deriver at every node was most of the check's searches: preferans' silent-claim
        samples made 9,718 passes over some 150 derivers.)"""
        if getattr(derivers, "cyclic", False):
            facts: dict = {}
            lit = self._literal(answers, decided, facts)
            return derive3(derivers, lambda p: self._value3(p.id, lit), facts)
        plan = self._plans.get(id(derivers))
        if plan is None or plan[0] is not derivers:
            steps = _plan(derivers, self.alts, self.producers)
            by_question: dict = {}
            by_fact: dict = {}
            for i, step in enumerate(steps):
                for q in step[1]:
                    by_question.setdefault(q, []).append(i)
                for name in step[2]:
                    by_fact.setdefault(name, []).append(i)
            plan = self._plans[id(derivers)] = (derivers, steps, by_question, by_fact)
        steps = plan[1]
        unknowns = {q for q, v in answers.items() if is_unknown(v)}
        last = self._last.get(id(derivers))
        if last is None or last[0] is not derivers:
            values, facts = [], {}
            for step in steps:
                v = self._deriver3(step, answers, decided, unknowns, facts)
                values.append(v)
                name = step[0].derive
                old = facts.get(name, False)
                facts[name] = True if (old is True or v is True) else (
                    None if (old is None or v is None) else False)
        else:
            _, old_answers, old_decided, values, facts = last
            changed = {q for q in answers.keys() | old_answers.keys()
                       if answers.get(q, _MISSING) != old_answers.get(q, _MISSING)}
            changed |= decided ^ old_decided
            values, facts = list(values), dict(facts)
            by_question, by_fact = plan[2], plan[3]
            # the derivers to evaluate again, in order: those reading a changed answer, and
            # (added as the facts they read change) those reading a changed fact
            todo = [i for q in changed for i in by_question.get(q, ())]
            heapq.heapify(todo)
            done = -1
            while todo:
                i = heapq.heappop(todo)
                if i <= done:
                    continue                    # (listed twice)
                done = i
                step = steps[i]
                p, makers = step[0], step[3]
                v = self._deriver3(step, answers, decided, unknowns, facts)
                if v is not values[i]:
                    values[i] = v
                    name = p.derive
                    # the fact is the either-or of its producers' values, taken again
                    new = False
                    for j in makers:
                        x = values[j]
                        if x is True:
                            new = True
                            break
                        if x is None:
                            new = None
                    if new is not facts.get(name, False):
                        facts[name] = new
                        for j in by_fact.get(name, ()):
                            heapq.heappush(todo, j)
        self._last[id(derivers)] = (derivers, dict(answers), set(decided), values, facts)
        return dict(facts)

    def _deriver3(self, step, answers, decided, unknowns, facts) -> bool | None:
        """One deriver's three-valued value (the literals of each alternative read inline)."""
        p, _, _, _, alts = step
        if alts is None:
            return cond.evaluate(p.when, self._literal(answers, decided, facts))
        producers = self.producers
        v = False
        for alt in alts:
            a = True
            for pos, l in alt:
                kind = l.__class__
                if kind is cond.AnswerTest:
                    q = l.question
                    if q in answers:
                        if q in unknowns:
                            x = True if l.op == "answered" else None
                        else:
                            x = l.holds(answers[q])
                    else:
                        x = False if q in decided else None
                elif kind is cond.FactTest:
                    x = facts.get(l.name, None if l.name in producers else False)
                else:
                    x = None
                if x is None:
                    a = None
                elif x != pos:
                    a = False
                    break
            if a is True:
                return True
            if a is None:
                v = None
        return v

    def _value3(self, pid: str, lit) -> bool | None:
        alts = self.alts.get(pid)
        if alts is None:
            return cond.evaluate(self.by_id[pid].when, lit)
        return alts3(alts, lit)

    def possible(self, pids: list[str], answers: dict, decided: set) -> list[bool | None]:
        """Three-valued: can each production still fire once the undecided questions are?"""
        # Called at every node of a search (to cut branches); its value depends only on the
        # answers (and which questions are decided) that the productions and the derivations
        # they read look at, so it is memoised by those: a node whose new answer none of them
        # reads, and every walk of a sampled search through the same first answers, costs a
        # lookup instead of a pass over every derived fact.
        names = tuple(pids)
        reads = self._possible_reads.get(names)
        if reads is None:
            prods = [self.by_id[p] for p in pids]
            reads = self._possible_reads[names] = _questions_of(
                [p.when for p in prods] + [p.when for p in self.derivers_for(prods)])
        key = (names, _projection(reads, answers, decided))
        hit = self._possible_memo.get(key)
        if hit is None:
            prods = [self.by_id[p] for p in pids]
            derivers = self.derivers_for(prods)
            facts = self.facts3(answers, decided, derivers) if derivers else {}
            unknowns = {q for q, v in answers.items() if is_unknown(v)}
            by_id, alts = self.by_id, self.alts
            hit = tuple(self._deriver3((by_id[p], None, None, None, alts.get(p)), answers, decided,
                                       unknowns, facts) for p in pids)
            _remember(self._possible_memo, key, hit)
        return list(hit)

    def alt_viable(self, alt):
        """A pruning test for a search for answers on which one unfolded alternative holds:
        (answers, decided) -> False once some literal of it is false for good. Its positive
        facts are left out: the alternative carries a way of deriving each, which holds when the
        rest does; its negative facts are derived three-valued, through their derivations only.
        Far stronger than asking whether the whole production can still fire (any of its many
        alternatives), so a walk over the alternative's answers ends, and proves, where a
        sample could only give up."""
        kept = [(pos, l) for pos, l in alt if not (pos and isinstance(l, cond.FactTest))]
        names = frozenset(l.name for pos, l in kept if isinstance(l, cond.FactTest))
        derivers = self.logic.derivers_for([cond.FactTest(n) for n in names]) if names else []
        reads = _questions_of([alt_condition(kept)] + [p.when for p in derivers])
        dreads = _questions_of([p.when for p in derivers])
        memo: dict = {}
        shared = self._facts_memo        # the derivations, shared by every alternative that
                                         # needs the same facts absent (``refuted`` walks many)

        def viable(answers, decided):
            key = _projection(reads, answers, decided)
            hit = memo.get(key)
            if hit is None:
                facts = {}
                if derivers:
                    fkey = (names, _projection(dreads, answers, decided))
                    facts = shared.get(fkey)
                    if facts is None:
                        facts = self.facts3(answers, decided, derivers)
                        _remember(shared, fkey, facts)
                hit = alts3([kept], self._literal(answers, decided, facts)) is not False
                _remember(memo, key, hit)
            return hit
        return viable

    # --- whole state --------------------------------------------------------------------
    def derivers_for(self, prods) -> list[Production]:
        """The derive productions whose facts ``prods`` read (transitively), in stratum order."""
        key = frozenset(p.id for p in prods)
        hit = self._derivers_cache.get(key)
        if hit is None:
            hit = self._derivers_cache[key] = self.logic.derivers_for(p.when for p in prods)
        return hit

    def facts(self, answers: dict, derivers: list | None = None) -> set:
        facts: set = set()
        for _ in range(3 if self.derivers.cyclic else 1):
            for p in (self.derivers if derivers is None else derivers):
                if p.derive not in facts and self.holds(p.id, answers, facts, True):
                    facts.add(p.derive)
        return facts

    def state(self, answers: dict) -> tuple[set, bool]:
        facts = self.facts(answers)
        no_findings = not any(self.holds(p.id, answers, facts, True) for p in self.infractions)
        return facts, no_findings

    def fired(self, answers: dict, among: Iterable[Production] | None = None) -> set[str]:
        """Finding productions whose conditions hold (set aside or not)."""
        among = list(among) if among is not None else self.findings
        if any(cond.reads_findings(p.when) for p in among):
            facts, no_findings = self.state(answers)
        else:
            facts, no_findings = self.facts(answers, self.derivers_for(among)), True
        return {p.id for p in among
                if p.action == "finding" and self.holds(p.id, answers, facts, no_findings)}

    def standing(self, fired: set[str]) -> set[str]:
        """Fired findings minus those an ``overrides`` of another fired one sets aside."""
        aside = {o for pid in fired for o in self.by_id[pid].overrides}
        return fired - aside


_MISSING = object()


def _plan(derivers, alts: dict, producers: dict) -> list[tuple]:
    """For each deriver, in order: (production, questions it reads, facts it reads, the
    positions of the producers of its fact among the derivers, its alternatives)."""
    position: dict[str, list[int]] = {}
    for i, p in enumerate(derivers):
        position.setdefault(p.derive, []).append(i)
    steps = []
    for p in derivers:
        steps.append((p, frozenset(cond.questions_read(p.when)), frozenset(cond.facts_read(p.when)),
                      tuple(position[p.derive]), alts.get(p.id)))
    return steps


# --- memo keys ------------------------------------------------------------------------------

MEMO = 200_000          # entries a memo holds before it starts again (memory stays bounded)


def _questions_of(conditions) -> tuple[str, ...]:
    """The questions the conditions' answer literals read, sorted."""
    found: set[str] = set()
    for c in conditions:
        if c is not None:
            found |= cond.questions_read(c)
    return tuple(sorted(found))


def _projection(qids: tuple, answers: dict, decided) -> tuple:
    """What a condition over these questions can see of a state: each one's answer (with its
    type, so 1 and True stay apart; lists as tuples), else whether it is decided (None: two
    values, where unanswered is all there is to know)."""
    key = []
    for q in qids:
        if q in answers:
            key.append(_frozen(answers[q]))
        else:
            key.append(decided is not None and q in decided)
    return tuple(key)


_SCALARS: dict = {}


def _frozen(value):
    cls = value.__class__
    if cls is str:
        return value                # never equal to the bools that stand for an open question
    if isinstance(value, (list, tuple)):
        return (cls, tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted((str(k), _frozen(v)) for k, v in value.items())))
    key = (cls, value)              # shared, so a memo's keys stay small
    return _SCALARS.setdefault(key, key)


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= MEMO:
        memo.clear()
    memo[key] = value


# --- which questions a search needs -------------------------------------------------------

def alt_condition(alt) -> cond.Condition:
    """One alternative of a DNF as a condition again."""
    return cond.All(tuple(lit if pos else cond.Not(lit) for pos, lit in alt))


def tested_first(book: Rulebook, alt) -> list[str]:
    """The questions an alternative's answer literals test, those allowing fewest answers
    first (the literals narrow them; see ``Space.restrict``)."""
    by_q: dict[str, list] = {}
    for pos, lit in alt:
        if isinstance(lit, cond.AnswerTest) and lit.question in book.questions:
            by_q.setdefault(lit.question, []).append((pos, lit))

    def allowed(qid):
        q = book.questions[qid]
        values = q.allowed() if q.type in ("choice", "yesno") else None
        if not values:
            return 1_000
        return sum(1 for v in values if all(l.holds(v) == pos for pos, l in by_q[qid]))
    return sorted(by_q, key=lambda qid: (allowed(qid), qid))


def relevant_questions(book: Rulebook, conditions: Iterable, ev: Evaluator) -> set[str]:
    """Questions the conditions read, through derived facts, plus the gates of those.
    (Memoised by the questions and facts the conditions name: every search builds its space
    so, a few hundred per re-check, from a handful of distinct starts.)"""
    asked: set[str] = set()
    facts: set[str] = set()
    for c in conditions:
        if c is None:
            continue
        for lit in cond.literals(c):
            if isinstance(lit, cond.AnswerTest):
                asked.add(lit.question)
            elif isinstance(lit, cond.FactTest):
                facts.add(lit.name)
    memo = ev.__dict__.setdefault("_relevant_questions", {})
    key = (frozenset(asked), frozenset(facts))
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = frozenset(_relevant(book, asked, facts, ev))
    return set(hit)


def _relevant(book: Rulebook, asked: set, facts: set, ev: Evaluator) -> set[str]:
    wanted: set[str] = set()
    seen_facts: set[str] = set()
    todo = [cond.AnswerTest(q, "answered", True) for q in sorted(asked)]
    todo += [cond.FactTest(f) for f in sorted(facts)]
    while todo:
        c = todo.pop()
        for lit in cond.literals(c):
            if isinstance(lit, cond.AnswerTest):
                if lit.question in book.questions and lit.question not in wanted:
                    wanted.add(lit.question)
                    q = book.questions[lit.question]
                    if q.when is not None:
                        todo.append(q.when)
                    if q.values_from and q.values_from in book.questions:
                        todo.append(cond.AnswerTest(q.values_from, "answered", True))
            elif isinstance(lit, cond.FactTest) and lit.name not in seen_facts:
                seen_facts.add(lit.name)
                todo.extend(p.when for p in ev.producers.get(lit.name, []))
    return {q for q in wanted if not book.questions[q].for_the_record}


def ordered(book: Rulebook, qids: set[str], ev: Evaluator, prefer=()) -> list[str]:
    """The questions so that every gate's questions come before the question it gates; the
    ``prefer``red ones (and their gates) as early as that allows, in the order given."""
    result: list[str] = []
    state: dict[str, int] = {}
    # each question's gate questions in rulebook order, worked out once per rulebook
    gates = ev.__dict__.setdefault("_gate_questions", {})

    def deps(qid):
        need = gates.get(qid)
        if need is None:
            q = book.questions[qid]
            wanted = set()
            if q.when is not None:
                wanted |= relevant_questions(book, [q.when], ev)
            if q.values_from:
                wanted.add(q.values_from)
            need = gates[qid] = [d for d in book.questions if d in wanted and d != qid]
        return [d for d in need if d in qids]

    def visit(qid):
        if state.get(qid):
            return
        state[qid] = 1
        for d in deps(qid):
            visit(d)
        state[qid] = 2
        result.append(qid)

    for qid in [q for q in prefer if q in qids] + list(book.questions):
        if qid in qids:
            visit(qid)
    return result


# --- domains -------------------------------------------------------------------------------

def base_domain(book: Rulebook, qid: str, lits: list[cond.AnswerTest]) -> list[Any] | None:
    """Representative answers for a question, given the literals read on it (None: dynamic).
    Each question type says which answers stand for all others (``qtypes``)."""
    q = book.questions[qid]
    if q.type == "order" and q.values_from:
        return None                      # the order of another answer: dynamic_domain
    return qtype(q).domain(q, book, lits)


def dynamic_domain(q, answers: dict) -> list[Any]:
    source = answers.get(q.values_from)
    if not isinstance(source, list) or not source:
        return []
    if len(source) <= 3:
        return [list(p) for p in itertools.permutations(source)]
    return [list(source), list(reversed(source))]


def literals_on(conditions: Iterable) -> dict[str, list[cond.AnswerTest]]:
    result: dict[str, list] = {}
    for c in conditions:
        if c is None:
            continue
        for lit in cond.literals(c):
            if isinstance(lit, cond.AnswerTest):
                result.setdefault(lit.question, []).append(lit)
    return result


# --- the search ----------------------------------------------------------------------------

@dataclass
class Space:
    """A search over combinations of answers to ``questions`` (in gate order)."""

    book: Rulebook
    ev: Evaluator
    questions: list[str]
    domains: dict[str, list | None]
    fixed: dict = field(default_factory=dict)
    constraints: dict = field(default_factory=dict)     # qid -> [(positive, literal)]
    seen: int = 0
    sampled: bool = False
    viable: Any = None          # (answers, decided) -> False to cut the branch
    nodes: int = 0
    budget: int = 4 * LIMIT     # nodes a search may visit before it stops (and says so)
    walk_first: bool = False    # walk even a large space in order (its pruning is sharp)

    @classmethod
    def build(cls, book, ev, conditions, fixed=None, extra_lits=None, prefer=()) -> "Space":
        conditions = list(conditions)
        qids = relevant_questions(book, conditions, ev) | set(fixed or {})
        lits = literals_on(conditions + [book.questions[q].when for q in qids])
        for q, more in (extra_lits or {}).items():
            lits.setdefault(q, []).extend(more)
        for q in qids:                       # an order over another answer: that answer needs
            source = book.questions[q].values_from     # the values and counts tested on it
            if source and source in qids:
                lits.setdefault(source, []).extend(l for l in lits.get(q, [])
                                                   if l.op in ("has", "count_ge"))
        domains = {q: base_domain(book, q, lits.get(q, [])) for q in qids}
        return cls(book, ev, ordered(book, qids, ev, prefer), domains, dict(fixed or {}))

    def restrict(self, alt: list[tuple[bool, Any]]) -> "Space":
        """The same space with answers limited to those an alternative's literals allow."""
        cons: dict[str, list] = {}
        for pos, lit in alt:
            if isinstance(lit, cond.AnswerTest):
                cons.setdefault(lit.question, []).append((pos, lit))
        domains = dict(self.domains)
        for qid, pairs in cons.items():
            q = self.book.questions.get(qid)
            d = domains.get(qid)
            if q is None or d is None:
                continue
            if q.type in ("multi", "order"):
                want = [l.value for pos, l in pairs if pos and l.op == "has"]
                if want and want not in d:           # the very set the alternative asks for
                    d = [[v for v in q.allowed() if v in want]] + list(d)
            # only the answers the alternative allows (what ``options`` would keep), so the
            # space's size is the size of what is searched: a space narrowed to a few values
            # per question is walked whole, and a walk that ends proves there is no example
            domains[qid] = [v for v in d if all(lit.holds(v) == pos for pos, lit in pairs)]
        return Space(self.book, self.ev, self.questions, domains, self.fixed, cons,
                     viable=self.viable, budget=self.budget, walk_first=self.walk_first)

    def pruned(self, viable, walk_first: bool = False) -> "Space":
        """The same space, cutting every branch on which ``viable(answers, decided)`` is False
        (``walk_first``: the test is sharp enough to walk the space in order, see ``__iter__``)."""
        return Space(self.book, self.ev, self.questions, self.domains, self.fixed, self.constraints,
                     viable=viable, budget=self.budget, walk_first=walk_first)

    def bounded(self, budget: int) -> "Space":
        self.budget = budget
        return self

    def size(self) -> int:
        n = 1
        for q in self.questions:
            if q in self.fixed:
                continue
            d = self.domains.get(q)
            n *= max(1, len(d) if d is not None else 6)
            if n > 10 * LIMIT:
                break
        return n

    def options(self, qid: str, answers: dict) -> list[Any]:
        q = self.book.questions[qid]
        cons = self.constraints.get(qid, [])
        if not self.ev.gate_open(qid, answers):
            ok = all(not pos for pos, _ in cons)        # unanswered: every literal false
            return [UNANSWERED] if ok else []
        if qid in self.fixed:
            values = [self.fixed[qid]]
        else:
            d = self.domains.get(qid)
            values = dynamic_domain(q, answers) if d is None else d
        if any(not pos and lit.op == "answered" for pos, lit in cons):
            return [UNANSWERED]
        return [v for v in values if all(lit.holds(v) == pos for pos, lit in cons)]

    def __iter__(self) -> Iterator[dict]:
        """Every reachable combination, or a seeded sample when there are too many."""
        self.seen = 0
        self.nodes = 0
        if self.size() <= LIMIT:
            self.sampled = False
            yield from self._walk(0, {}, set())
        elif self.walk_first:
            # a search whose pruning is sharp (``alt_viable``): walked in order; a walk that ends
            # proves; one that reaches the budget is bounded, as a sample would be
            self.sampled = False
            yield from self._walk(0, {}, set())
        else:
            self.sampled = True
            rng = random.Random(7)
            seen = set()
            for _ in range(SAMPLES * 3):
                if self.nodes > self.budget:
                    break
                combo = self._random(rng)
                if combo is None:
                    continue
                key = json.dumps(combo, sort_keys=True, default=str)
                if key in seen:
                    continue
                seen.add(key)
                self.seen += 1
                yield combo
                if len(seen) >= SAMPLES:
                    break

    def _walk(self, i: int, answers: dict, decided: set) -> Iterator[dict]:
        if i == len(self.questions):
            self.seen += 1
            yield {k: v for k, v in answers.items() if v is not UNANSWERED}
            return
        qid = self.questions[i]
        decided.add(qid)
        for v in self.options(qid, answers):
            if v is UNANSWERED:
                answers.pop(qid, None)
            else:
                answers[qid] = v
            self.nodes += 1
            if self.viable is None or self.viable(answers, decided) is not False:
                yield from self._walk(i + 1, answers, decided)
            answers.pop(qid, None)
            if self.seen > LIMIT or self.nodes > self.budget:
                self.sampled = True          # bounded: say so
                break
        decided.discard(qid)

    def _random(self, rng: random.Random) -> dict | None:
        answers: dict = {}
        decided: set = set()
        for qid in self.questions:
            opts = self.options(qid, answers)
            rng.shuffle(opts)
            decided.add(qid)
            for v in opts:
                self.nodes += 1
                if v is UNANSWERED:
                    answers.pop(qid, None)
                else:
                    answers[qid] = v
                if self.viable is None or self.viable(answers, decided) is not False:
                    break
            else:
                return None
        return answers

    def describe(self) -> str:
        if self.sampled:
            return f"{self.seen} sampled combinations (the full space exceeds {LIMIT:,})"
        return f"all {self.seen} reachable combinations"


# --- showing ------------------------------------------------------------------------------

def show_answers(answers: dict, book: Rulebook | None = None) -> str:
    """Answers as a one-line YAML mapping, in the interview's question order."""
    if book is not None:
        keys = [q for q in book.questions if q in answers] + [q for q in answers if q not in book.questions]
        answers = {k: answers[k] for k in keys}
    return yaml.safe_dump(answers, default_flow_style=True, sort_keys=False, width=10_000,
                          allow_unicode=True).strip()


def where(p) -> str:
    return f"{p.file}:{p.line}" if p.file else "?"


def finding_signature(p: Production) -> str:
    f = p.finding or {}
    return json.dumps({"kind": f.get("kind"), "penalty": f.get("penalty") or [],
                       "offender": f.get("offender")}, sort_keys=True, default=str)


def describe_finding(p: Production) -> str:
    f = p.finding or {}
    pen = f.get("penalty") or []
    parts = []
    for e in pen:
        if isinstance(e, dict):
            parts.append(f"{_ref(e.get('player'))} {e.get('effect')} {_ref(e.get('amount'))}")
    return f"{f.get('kind')}" + (f" ({'; '.join(parts)})" if parts else " (no penalty)")


def _ref(x) -> str:
    if isinstance(x, dict):
        return json.dumps(x, default=str).replace('"', "")
    return str(x)


def show_lit(positive: bool, lit) -> str:
    if isinstance(lit, cond.AnswerTest):
        value = list(lit.value) if isinstance(lit.value, tuple) else lit.value
        text = "{q: %s, %s: %s}" % (lit.question, lit.op, json.dumps(value, default=str))
    elif isinstance(lit, cond.FactTest):
        text = "{fact: %s}" % lit.name
    else:
        text = "{findings: none}"
    return text if positive else "{not: %s}" % text


def fill_example(book: Rulebook, ev: Evaluator, answers: dict, prods) -> dict:
    """The example completed with an answer to each question the findings' seats and amounts
    read (the first allowed value), so the ruling shows concrete penalties."""
    from referee.expert.language.expressions import questions_in_finding
    filled = dict(answers)
    wanted = [q for q in book.questions if any(p.finding and q in questions_in_finding(p.finding)
                                               for p in prods)]
    for qid in wanted:
        if qid in filled or book.questions[qid].for_the_record or not ev.gate_open(qid, filled):
            continue
        domain = base_domain(book, qid, [])
        if domain is None:
            domain = dynamic_domain(book.questions[qid], filled)
        if domain:
            filled[qid] = domain[0]
    return filled
