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
            result = self._closed(result)
        self._prods[pid] = result
        return result

    def _closed(self, alts: list) -> list:
        """Each alternative with what the gates of the questions it needs answered say: a
        positive literal on a question holds only where the question was asked, so ``{q:
        kontras, is: defender_1}`` brings the literals every alternative of the kontras
        question's ``when`` has in common (the contra it is asked under), and theirs in turn.
        Alternatives that then contradict themselves are dropped; none is multiplied."""
        out = []
        for alt in alts:
            extra: frozenset = frozenset()
            for pos, lit in alt:
                if pos and isinstance(lit, cond.AnswerTest):
                    extra |= self.gate_common(lit.question)
            if extra - alt:
                alt = alt | extra
                if self.dead(alt):
                    continue
            out.append(alt)
        return out

    def gate_common(self, qid: str) -> frozenset:
        """The literals that hold wherever the question is asked: those every alternative of
        its ``when`` has, with the same of the questions they need answered (gates do not loop:
        the questions are ordered by them)."""
        memo = self.__dict__.setdefault("_gate_common", {})
        hit = memo.get(qid)
        if hit is None:
            memo[qid] = frozenset()                  # while it is worked out
            alts = self.ev.gate_alts.get(qid)
            common: frozenset = frozenset()
            if alts and alts != [[]]:
                common = frozenset(alts[0])
                for alt in alts[1:]:
                    common &= frozenset(alt)
                common = frozenset(x for x in common
                                   if isinstance(x[1], (cond.AnswerTest, cond.FactTest)))
                more = frozenset()
                for pos, lit in common:
                    if pos and isinstance(lit, cond.AnswerTest):
                        more |= self.gate_common(lit.question)
                common |= more
            hit = memo[qid] = common
        return hit

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
                if self.derivable(name, lits):
                    return True
        return False

    def derivable(self, name: str, lits: frozenset) -> bool:
        """Does some way of deriving ``name`` hold wherever ``lits`` do (its literals a subset)?
        Each producer's ways are taken on their own, so a fact with more ways than LIMIT in all
        (preferans' ``dolaz-gated``: six gates of 126 each) is still decided by the producer
        whose ways the alternative contains; each way is filed under its rarest literal, so an
        alternative looks only at the ways filed under one of its own literals."""
        index = self._index(name)
        for lit in lits:
            for way in index.get(lit, ()):
                if way <= lits:
                    return True
        return self._entailed(name, lits)

    def _entailed(self, name: str, lits: frozenset) -> bool:
        """The same question asked of what the literals mean rather than how they are written:
        a way holds wherever ``lits`` do when each of its answer literals follows from the
        literals ``lits`` have on that question (``tricks_first le 0`` gives ``tricks_first lt
        2``), each negative fact it needs is among ``lits``, and its positive facts are implied
        by the rest of it (an unfolded way carries a way of deriving each of its facts)."""
        by_q: dict[str, list] = {}
        facts = set()
        for pos, lit in lits:
            if isinstance(lit, cond.AnswerTest):
                by_q.setdefault(lit.question, []).append((pos, lit))
            elif isinstance(lit, cond.FactTest) and not pos:
                facts.add(lit.name)
        memo = self.__dict__.setdefault("_follows", {})
        keys = {q: frozenset(v) for q, v in by_q.items()}
        for p in self.ev.producers.get(name, []):
            for way in self.production(p.id) or []:
                for pos, lit in way:
                    if isinstance(lit, cond.AnswerTest):
                        given = keys.get(lit.question)
                        if given is None:
                            break                  # the alternative leaves this question free
                        hit = memo.get((given, pos, lit))
                        if hit is None:
                            from referee.expert.authoring.analysis.unreachable import _on_question
                            hit = memo[(given, pos, lit)] = bool(
                                _on_question(self.book, lit.question, list(given) + [(not pos, lit)]))
                        if not hit:
                            break
                    elif isinstance(lit, cond.FactTest):
                        if not pos and lit.name not in facts:
                            break
                    else:
                        break                      # {findings: none}: not decided here
                else:
                    return True
        return False

    def _index(self, name: str) -> dict:
        memo = self.__dict__.setdefault("_indexes", {})
        hit = memo.get(name)
        if hit is None:
            ways = []
            for p in self.ev.producers.get(name, []):
                ways.extend(self.production(p.id) or [])
            count: dict = {}
            for way in ways:
                for lit in way:
                    count[lit] = count.get(lit, 0) + 1
            hit = memo[name] = {}
            for way in ways:
                if way:
                    hit.setdefault(min(way, key=lambda l: (count[l], str(l))), []).append(way)
        return hit

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
