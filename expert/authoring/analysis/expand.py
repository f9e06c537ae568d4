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
        """``_contradicts(a | b)``, from what each alternative alone is worth (memoised): a
        question only one of them reads contradicts when it does in that one, so only the
        questions both read are compared anew (the conflict search asks this of every pair of
        alternatives of every pair of findings)."""
        qa, pos_a, neg_a, self_a = self._summary(a)
        qb, pos_b, neg_b, self_b = self._summary(b)
        if (pos_a | pos_b) & (neg_a | neg_b) or self_a or self_b:
            return True
        if len(qb) < len(qa):
            qa, qb = qb, qa
        pairs_of = self._pairs
        for qid, pairs in qa.items():
            other = qb.get(qid)
            if other is None:
                continue
            key = pairs | other
            hit = pairs_of.get(key)
            if hit is None:
                from referee.expert.authoring.analysis.unreachable import _on_question
                hit = pairs_of[key] = bool(_on_question(self.book, qid, list(key)))
            if hit:
                return True
        neg = neg_a | neg_b
        if neg:
            lits = a | b
            for name in neg:
                for way in self.fact(name) or []:
                    if way <= lits:
                        return True
        return False

    def _summary(self, alt: frozenset) -> tuple:
        """An alternative's literals by question (frozensets), its positive and negative facts."""
        memo = self.__dict__.setdefault("_summaries", {})
        hit = memo.get(alt)
        if hit is None:
            from referee.expert.authoring.analysis.unreachable import _on_question
            by_q: dict[str, set] = {}
            pos_facts, neg_facts = set(), set()
            for pos, lit in alt:
                if isinstance(lit, cond.AnswerTest):
                    by_q.setdefault(lit.question, set()).add((pos, lit))
                elif isinstance(lit, cond.FactTest):
                    (pos_facts if pos else neg_facts).add(lit.name)
            questions = {q: frozenset(v) for q, v in by_q.items()}
            contradicts = False             # on one of its questions, alone
            for qid, key in questions.items():
                found = self._pairs.get(key)
                if found is None:
                    found = self._pairs[key] = bool(_on_question(self.book, qid, list(key)))
                contradicts = contradicts or found
            hit = memo[alt] = (questions, frozenset(pos_facts), frozenset(neg_facts), contradicts)
        return hit

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
