"""Conditions with derived facts unfolded, for reasoning over answers without a search.

A positive ``{fact: F}`` is replaced by F together with one alternative of one producer of F
(so a production's alternatives multiply by the ways F can be derived); negative facts stay.
Two unfolded alternatives exclude each other when their literals on some question cannot hold
together, when one needs F and the other not-F, or when one needs not-F while the two together
already satisfy a way of deriving F.
"""
from __future__ import annotations


from referee.expert.language import conditions as cond

LIMIT = 512


class Unfolder:
    def __init__(self, book, ev):
        self.book, self.ev = book, ev
        self._facts: dict[str, list | None] = {}
        self._prods: dict[str, list | None] = {}
        self._visiting: set[str] = set()
        self._pairs: dict = {}

    def production(self, pid: str) -> list | None:
        """The unfolded alternatives of a production (each a frozenset of (positive, literal)),
        or None when there would be more than LIMIT."""
        if pid in self._prods:
            return self._prods[pid]
        alts = self.ev.alts.get(pid)
        result: list | None = None
        if alts is not None and pid not in self._visiting:
            self._visiting.add(pid)
            result = []
            for alt in alts:
                partial = [frozenset(alt)]
                for pos, lit in alt:
                    if pos and isinstance(lit, cond.FactTest):
                        ways = self.fact(lit.name)
                        if ways is None:
                            result = None
                            break
                        partial = [p | w for p in partial for w in ways]
                        if len(partial) > LIMIT:
                            result = None
                            break
                if result is None:
                    break
                result.extend(partial)
                if len(result) > LIMIT:
                    result = None
                    break
            self._visiting.discard(pid)
        if result is not None:
            result = [a for a in result if not self.dead(a)]
        self._prods[pid] = result
        return result

    def fact(self, name: str) -> list | None:
        if name in self._facts:
            return self._facts[name]
        ways: list | None = []
        for p in self.ev.producers.get(name, []):
            alts = self.production(p.id)
            if alts is None:
                ways = None
                break
            ways.extend(alts)
            if len(ways) > LIMIT:
                ways = None
                break
        self._facts[name] = ways
        return ways

    def dead(self, alt: frozenset) -> bool:
        return self._contradicts(alt)

    def exclusive(self, a: frozenset, b: frozenset) -> bool:
        return self._contradicts(a | b)

    def _contradicts(self, lits: frozenset) -> bool:
        from referee.expert.authoring.analysis.unreachable import _on_question
        by_q: dict[str, list] = {}
        pos_facts, neg_facts = set(), set()
        for pos, lit in lits:
            if isinstance(lit, cond.AnswerTest):
                by_q.setdefault(lit.question, []).append((pos, lit))
            elif isinstance(lit, cond.FactTest):
                (pos_facts if pos else neg_facts).add(lit.name)
        if pos_facts & neg_facts:
            return True
        for qid, pairs in by_q.items():
            key = frozenset(pairs)
            hit = self._pairs.get(key)
            if hit is None:
                hit = self._pairs[key] = bool(_on_question(self.book, qid, pairs))
            if hit:
                return True
        for name in neg_facts:
            for way in self.fact(name) or []:
                if way <= lits:
                    return True
        return False
