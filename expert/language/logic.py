"""The one reading of the condition language that everything reasoning over a rulebook shares.

The compiler (saliences), the interview (three-valued facts), the analyses (strata, cycles,
unfolding, the search) and the Ruler (which rules a ruling can need) all ask the same questions
of a rulebook: who derives each fact (producers), in which order derivations must run (strata),
where they loop (cycles), what a production's alternatives are (disjunctive normal form), and
what a condition is worth while some questions are still open (three values: true, false,
unknown). They are answered here once, so a new operator or literal is taught to one module.

``Logic.of(book)`` builds the tables once per rulebook and rebuilds them when the rulebook's
productions or questions have been replaced (tests edit rulebooks in place).
"""
from __future__ import annotations

from typing import Callable, Iterable

from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.errors import RefereeError

Value = "bool | None"


# --- producers, strata, cycles -----------------------------------------------------------------

def producers(productions: Iterable) -> dict[str, list]:
    """Fact name -> the derive productions that derive it, in rulebook order."""
    result: dict[str, list] = {}
    for p in productions:
        if p.action == "derive":
            result.setdefault(p.derive, []).append(p)
    return result


def strata(productions: list, makers: dict | None = None) -> dict[str, int]:
    """Stratum of each production: 0, or one more than the producers of the facts it reads.
    Raises RefereeError on the first production that depends on itself."""
    makers = producers(productions) if makers is None else makers
    result: dict[str, int] = {}
    visiting: set[str] = set()

    def level(p) -> int:
        if p.id in result:
            return result[p.id]
        if p.id in visiting:
            raise RefereeError(f"production {p.id!r} depends on itself through derived facts "
                               "(circular)", p.file, p.line)
        visiting.add(p.id)
        below = [level(q) + 1 for name in cond.facts_read(p.when) for q in makers.get(name, [])]
        visiting.discard(p.id)
        result[p.id] = max(below, default=0)
        return result[p.id]

    for p in productions:
        level(p)
    return result


def cycles(productions: list, makers: dict | None = None) -> list[list]:
    """Each cycle once, as the list of derive productions on it (fact read -> producer)."""
    makers = producers(productions) if makers is None else makers
    found: list[list] = []
    keys: set = set()
    state: dict[str, int] = {}
    stack: list = []

    def visit(p):
        state[p.id] = 1
        stack.append(p)
        for name in sorted(cond.facts_read(p.when)):
            for q in makers.get(name, []):
                if state.get(q.id) == 1:
                    loop = stack[stack.index(q):]
                    key = frozenset(x.id for x in loop)
                    if key not in keys:
                        keys.add(key)
                        found.append(list(loop))
                elif not state.get(q.id):
                    visit(q)
        stack.pop()
        state[p.id] = 2

    for p in productions:
        if p.action == "derive" and not state.get(p.id):
            visit(p)
    return found


class Strata(list):
    """Derive productions in an order where every producer of a fact comes before its readers;
    ``cyclic`` when no such order exists (then passes are repeated until nothing changes)."""
    cyclic = False


def stratified(derivers: list, makers: dict) -> Strata:
    order = Strata()
    state: dict[str, int] = {}

    def visit(p):
        if state.get(p.id) == 2:
            return
        if state.get(p.id) == 1:
            order.cyclic = True
            return
        state[p.id] = 1
        for name in cond.facts_read(p.when):
            for q in makers.get(name, []):
                visit(q)
        state[p.id] = 2
        order.append(p)

    for p in derivers:
        visit(p)
    return order


def alternatives(when) -> list | None:
    """The disjunctive normal form of a condition, or None when it is too large to expand."""
    try:
        return cond.dnf(when)
    except RefereeError:
        return None


# --- three values ------------------------------------------------------------------------------

def alts3(alts: list, lit: Callable) -> bool | None:
    """Kleene value of a condition in normal form: True when one alternative holds, unknown when
    none holds but one may, False when every alternative has a false literal."""
    result: bool | None = False
    for alt in alts:
        a: bool | None = True
        for pos, l in alt:
            v = lit(l)
            if v is None:
                a = None
            elif v != pos:
                a = False
                break
        if a is True:
            return True
        if a is None:
            result = None
    return result


def either3(old: bool | None, new: bool | None) -> bool | None:
    """A fact with several producers: true if one is, unknown if one may be, else false."""
    if old is True or new is True:
        return True
    return None if (old is None or new is None) else False


def derive3(derivers: Strata | list, value_of: Callable, facts: dict) -> dict:
    """Three-valued derived facts: ``value_of(production)`` evaluates a production's condition
    reading ``facts`` (filled here in stratum order); names with no producer among ``derivers``
    are left out (the literal reader decides those)."""
    passes = len(derivers) + 1 if getattr(derivers, "cyclic", False) else 1
    for _ in range(passes):
        before = dict(facts)
        fresh: dict = {}
        for p in derivers:
            v = value_of(p)
            fresh[p.derive] = either3(fresh.get(p.derive, False), v)
            facts[p.derive] = fresh[p.derive]
        if facts == before:
            break
    return facts


def answer3(lit, answers: dict, settled: Callable[[str], bool], defaults: dict | None = None) -> bool | None:
    """An answer literal: decided by the answer when there is one; false when the question is
    settled without one (closed, or not asked); otherwise unknown. An answer 'unknown' is
    answered but open, unless ``defaults`` holds the value the text prescribes for it."""
    if lit.question in answers:
        value = answers[lit.question]
        if is_unknown(value):
            if defaults and lit.question in defaults:
                return lit.holds(defaults[lit.question])
            return True if lit.op == "answered" else None
        return lit.holds(value)
    return False if settled(lit.question) else None


def fact3(name: str, facts: dict, makers: dict) -> bool | None:
    """A fact literal: its computed value; a fact nothing derives is false; otherwise unknown."""
    return facts.get(name, None if name in makers else False)


# --- the tables of one rulebook -----------------------------------------------------------------

class Logic:
    """Producers, strata, alternatives and claim scopes of one rulebook, computed once."""

    def __init__(self, book):
        self.book = book
        self.key = _fingerprint(book)
        prods = book.productions
        self.producers = producers(prods)
        self.by_id = {p.id: p for p in prods}
        self.alts = {p.id: alternatives(p.when) for p in prods}
        self.derivers = stratified([p for p in prods if p.action == "derive"], self.producers)
        # finding productions a {findings: none} literal waits for (those that do not read it)
        self.findings = [p for p in prods if p.action == "finding"]
        self.plain_findings = [p for p in self.findings if not cond.reads_findings(p.when)]
        self._levels: dict | None = None
        self._scopes: dict | None = None
        self._derivers_for: dict = {}
        self._overriders: dict | None = None
        self._closures: dict = {}
        self._literal_lists: dict = {}     # id(condition) -> (condition, its literals)

    @classmethod
    def of(cls, book) -> "Logic":
        cached = book.__dict__.get("_logic")
        if cached is not None and cached.key == _fingerprint(book):
            return cached
        made = cls(book)
        book.__dict__["_logic"] = made
        return made

    def strata(self) -> dict[str, int]:
        if self._levels is None:
            self._levels = strata(self.book.productions, self.producers)
        return self._levels

    def cycles(self) -> list[list]:
        return cycles(self.book.productions, self.producers)

    def derivers_for(self, conditions: Iterable) -> Strata:
        """The derive productions whose facts the conditions read (transitively), in stratum
        order."""
        names: set[str] = set()
        todo = [c for c in conditions if c is not None]
        while todo:
            for name in cond.facts_read(todo.pop()):
                if name not in names:
                    names.add(name)
                    todo.extend(q.when for q in self.producers.get(name, []))
        result = Strata(p for p in self.derivers if p.derive in names)
        result.cyclic = self.derivers.cyclic
        return result

    def gate_derivers(self, qid: str) -> Strata:
        """The derivations a question's ``when`` reads (cached per question)."""
        hit = self._derivers_for.get(qid)
        if hit is None:
            q = self.book.questions.get(qid)
            hit = self._derivers_for[qid] = self.derivers_for([q.when] if q is not None else [])
        return hit

    # --- which claimed events a production can concern ----------------------------------------
    def scope(self, pid: str) -> frozenset | None:
        """The claimed events a production can concern: the values v of the ``claim`` question
        such that it may fire on answers the interview can reach (a question is answered only
        when its ``when`` holds) with v the only value claimed; None when it may fire whatever
        is claimed. Read from the literals alone (through derived facts and the questions'
        gates), so it may hold a value too many, never one too few."""
        if self._scopes is None:
            self._scopes = _Scopes(self).compute()
        return self._scopes.get(pid)

    def may_share_claim(self, a: str, b: str) -> bool:
        """Whether two productions may concern the same claimed event (an empty scope, a
        production that needs several values claimed at once, is taken to concern any)."""
        sa, sb = self.scope(a), self.scope(b)
        return not sa or not sb or bool(sa & sb)

    def reads(self, pids: Iterable[str] = (), qids: Iterable[str] = (),
              within: Iterable[str] | None = None) -> tuple[set, set]:
        """Everything a judgement about these productions and questions can depend on: the
        productions (with the producers of every fact they read, transitively; every finding
        when one reads ``{findings: none}``; those that override one of them; the keep_first
        productions) and the questions (read by their conditions, findings and keep_first, and
        by the ``when`` of each, transitively). Returns (production ids, question ids).

        ``within``: the productions that can fire at all in the judgement (a search with one
        value claimed: those whose ``scope`` holds it; no other can fire there). Only those
        are read for a fact they derive, a finding they override or a ``{findings: none}``."""
        prods: set[str] = set()
        questions: set[str] = set()
        within = frozenset(within) if within is not None else None
        pids = list(pids) + [p.id for p in self.book.productions if p.action == "keep_first"]
        starts = [("p", pid) for pid in pids if pid in self.by_id]
        starts += [("q", qid) for qid in qids if qid in self.book.questions]
        if within is not None:
            # one walk from every start: the closures of one ``within`` are shared by few units
            # (a claim's), so memoising each start's would cost more than it saves
            ps, qs = self._closure(tuple(sorted(set(starts))), within)
            return set(ps), set(qs)
        for start in starts:
            ps, qs = self._closure((start,))
            prods.update(ps)
            questions.update(qs)
        return prods, questions

    def _closure(self, starts: tuple, within: frozenset | None = None) -> tuple[frozenset, frozenset]:
        """What these productions and questions read, transitively (memoized); ``within``: as in
        ``reads`` (None: every production can fire)."""
        key = starts if within is None else (starts, within)
        hit = self._closures.get(key)
        if hit is not None:
            return hit
        from referee.expert.language.expressions import questions_in_finding
        book = self.book
        if self._overriders is None:
            self._overriders = {}
            for p in book.productions:
                for loser in p.overrides:
                    self._overriders.setdefault(loser, []).append(p)
        prods: set[str] = set()
        questions: set[str] = set()
        todo_p = [x for kind, x in starts if kind == "p"]
        todo_q = [x for kind, x in starts if kind == "q"]
        literals = self._literal_lists

        def can_fire(pid) -> bool:
            return within is None or pid in within

        def read(c):
            lits = literals.get(id(c))
            if lits is None or lits[0] is not c:
                lits = literals[id(c)] = (c, list(cond.literals(c)))
            for lit in lits[1]:
                if isinstance(lit, cond.AnswerTest):
                    todo_q.append(lit.question)
                elif isinstance(lit, cond.FactTest):
                    todo_p.extend(x.id for x in self.producers.get(lit.name, ()) if can_fire(x.id))
                else:
                    todo_p.extend(x.id for x in self.findings if can_fire(x.id))

        while todo_p or todo_q:
            while todo_p:
                pid = todo_p.pop()
                if pid in prods:
                    continue
                prods.add(pid)
                p = self.by_id[pid]
                todo_p.extend(x.id for x in self._overriders.get(pid, ()) if can_fire(x.id))
                read(p.when)
                if p.finding:
                    todo_q.extend(questions_in_finding(p.finding))
                if p.keep_first:
                    todo_q.append(p.keep_first)
            while todo_q:
                qid = todo_q.pop()
                if qid in questions or qid not in book.questions:
                    continue
                questions.add(qid)
                q = book.questions[qid]
                if q.values_from:
                    todo_q.append(q.values_from)
                if q.when is not None:
                    read(q.when)
        hit = self._closures[key] = (frozenset(prods), frozenset(questions))
        return hit

    def view(self, qids: Iterable[str]):
        """The rulebook cut down to what decides whether these questions are asked: their
        gates, the questions and derivations those read (transitively), nothing else. The
        interview's reading of a gate is the same in the view as in the whole rulebook; a gate
        that reads ``{findings: none}`` needs every finding, and gets the whole rulebook."""
        from dataclasses import replace
        book = self.book
        wanted: set[str] = set()
        facts: set[str] = set()
        todo = list(qids)
        conditions: list = []
        while todo or conditions:
            while todo:
                qid = todo.pop()
                if qid in wanted or qid not in book.questions:
                    continue
                wanted.add(qid)
                if book.questions[qid].when is not None:
                    conditions.append(book.questions[qid].when)
            while conditions:
                for lit in cond.literals(conditions.pop()):
                    if isinstance(lit, cond.AnswerTest):
                        todo.append(lit.question)
                    elif isinstance(lit, cond.FactTest):
                        if lit.name not in facts:
                            facts.add(lit.name)
                            conditions.extend(p.when for p in self.producers.get(lit.name, []))
                    else:
                        return book
        return replace(book, questions={q: v for q, v in book.questions.items() if q in wanted},
                       productions=[p for p in book.productions
                                    if p.action == "derive" and p.derive in facts])


CLAIM = "claim"


class _Scopes:
    def __init__(self, logic: Logic):
        self.logic = logic
        self.book = logic.book
        self.questions: dict[str, frozenset | None] = {}
        self.facts: dict[str, frozenset | None] = {}
        self.busy: set = set()

    def compute(self) -> dict:
        return {p.id: self.condition(p.when) for p in self.book.productions}

    def condition(self, when) -> frozenset | None:
        alts = alternatives(when)
        if alts is None:
            return None
        result: set = set()
        for alt in alts:
            r = self.alternative(alt)
            if r is None:
                return None
            result |= r
        return frozenset(result)

    def alternative(self, alt) -> frozenset | None:
        need: frozenset | None = None
        for pos, lit in alt:
            if not pos:
                continue
            r = None
            if isinstance(lit, cond.AnswerTest):
                if lit.question == CLAIM:
                    if lit.op in ("is", "has"):
                        r = frozenset([lit.value])
                    elif lit.op == "in":
                        r = frozenset(lit.value)
                else:
                    r = self.question(lit.question)
            elif isinstance(lit, cond.FactTest):
                r = self.fact(lit.name)
            if r is not None:
                need = r if need is None else need & r
        return need

    def question(self, qid: str) -> frozenset | None:
        if qid in self.questions:
            return self.questions[qid]
        q = self.book.questions.get(qid)
        if q is None or q.when is None or ("q", qid) in self.busy:
            return None
        self.busy.add(("q", qid))
        r = self.condition(q.when)
        self.busy.discard(("q", qid))
        self.questions[qid] = r
        return r

    def fact(self, name: str) -> frozenset | None:
        if name in self.facts:
            return self.facts[name]
        makers = self.logic.producers.get(name)
        if not makers or ("f", name) in self.busy:
            return None if makers else frozenset()
        self.busy.add(("f", name))
        result: set | None = set()
        for p in makers:
            r = self.condition(p.when)
            if r is None:
                result = None
                break
            result |= r
        self.busy.discard(("f", name))
        self.facts[name] = None if result is None else frozenset(result)
        return self.facts[name]


def _fingerprint(book) -> tuple:
    """What the tables are computed from: the production and question objects and their
    conditions (an edit in place replaces one of these)."""
    return (tuple(map(id, book.productions)), tuple(id(p.when) for p in book.productions),
            tuple(map(id, book.questions.values())))
