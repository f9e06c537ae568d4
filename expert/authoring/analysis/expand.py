"""Conditions with derived facts unfolded, for reasoning over answers without a search.

A positive ``{fact: F}`` is replaced by F together with one alternative of one producer of F
(so a production's alternatives multiply by the ways F can be derived); negative facts stay.
Each alternative also carries what the gates of the questions it needs answered have in common
(a question is answered only where it was asked). Two unfolded alternatives exclude each other
when their literals on some question cannot hold together, when one needs F and the other
not-F, or when one needs not-F while the two together already satisfy a way of deriving F.
Where that is not visible in how the literals are written (F is derived on every value of a
number the alternative leaves open, but by different ways), ``refuted`` walks the few questions
F's derivations read and proves it: the conflict and unreachable searches then need no search
over the whole rulebook's questions, which could only ever give up on a large one.
"""
from __future__ import annotations


from referee.expert.language import conditions as cond

LIMIT = 1024
# the ways of deriving one fact kept: more than a production's alternatives, because a
# production that needs the fact with literals of its own keeps only the ways that agree with
# them (skat's continuation-demanded has 622 ways; each infraction's "-continued" finding, which
# needs it with that infraction, keeps one)
FACT_LIMIT = 2048
REFUTE_BUDGET = 3_000      # nodes of one walk of ``refuted``


class Unfolder:
    def __init__(self, book, ev):
        self.book, self.ev = book, ev
        self._facts: dict[str, list | None] = {}
        self._prods: dict[str, list | None] = {}
        self._visiting: set[str] = set()
        self._pairs: dict = {}          # literals on one question -> do they contradict
        self._summaries: dict = {}      # alternative -> (literals by question, facts, contradicts)
        self._gate_common: dict = {}    # question -> literals every alternative of its gate has
        self._indexes: dict = {}        # fact -> its ways, filed under their rarest literal
        self._refuted: dict = {}        # fact -> (literals it is always derived on, literals it is not)
        self._derived_seen: dict = {}   # (fact, literals) -> what ``_derived_on`` answered
        self.kept = None                # the last check's verdicts (``kept_walks``), if kept
        self._fact_qs: dict = {}        # fact -> the questions its derivations read
        self._fact_indexes: dict = {}   # fact -> its ways (``fact``) filed by one literal each
        self._deciding_memo: dict = {}  # fact -> the questions its ways test, most tested first

    def production(self, pid: str) -> list | None:
        """The unfolded alternatives of a production (each a frozenset of (positive, literal)),
        or None when there would be more than LIMIT."""
        if pid in self._prods:
            return self._prods[pid]
        alts = self.ev.alts.get(pid)
        result: list | None = None
        # a derive production's alternatives are its fact's ways (see FACT_LIMIT)
        limit = FACT_LIMIT if self.ev.by_id[pid].action == "derive" else LIMIT
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
                        # an alternative that contradicts itself stays so whatever is added:
                        # dropped here, before it multiplies against the next fact's ways
                        partial = [p | w for p in partial for w in ways if not self.dead(p | w)]
                        if len(partial) > limit:
                            result = None
                            break
                if result is None:
                    break
                result.extend(partial)
                if len(result) > limit:
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
        memo = self._gate_common
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
            if len(ways) > FACT_LIMIT:
                ways = None
                break
        self._facts[name] = ways
        return ways

    def dead(self, alt: frozenset) -> bool:
        return self._contradicts(alt)

    def _clash(self, qid: str, key: frozenset) -> bool:
        """Can these (positive, literal) pairs on one question not hold together? (memoised)"""
        hit = self._pairs.get(key)
        if hit is None:
            from referee.expert.authoring.analysis.unreachable import _on_question
            hit = self._pairs[key] = bool(_on_question(self.book, qid, list(key)))
        return hit

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
        for qid, pairs in qa.items():
            other = qb.get(qid)
            if other is not None and self._clash(qid, pairs | other):
                return True
        neg = neg_a | neg_b
        if neg:
            lits = a | b
            for name in neg:
                if self.derivable(name, lits):
                    return True
        return False

    def joint(self, ua: list, ub: list) -> list:
        """``[a | b for a in ua for b in ub if not self.exclusive(a, b)]``, worked out by groups:
        the alternatives of each side are grouped by their literals on the questions both sides
        read, and a pair of groups that contradicts on one of them is dropped whole (preferans'
        dolaz findings have 366 x 124 alternatives; a few dozen groups a side)."""
        sa = [self._summary(a) for a in ua]
        sb = [self._summary(b) for b in ub]
        qa = set().union(*(s[0].keys() for s in sa)) if sa else set()
        qb = set().union(*(s[0].keys() for s in sb)) if sb else set()
        shared = sorted(qa & qb)

        def groups(summaries):
            out: dict = {}
            for i, s in enumerate(summaries):
                out.setdefault(tuple(s[0].get(q) for q in shared), []).append(i)
            return out
        result = []
        items_a, items_b = list(groups(sa).items()), list(groups(sb).items())
        for ga, gb in self._group_pairs(shared, items_a, items_b):
            for i in items_a[ga][1]:
                _, pos_a, neg_a, self_a = sa[i]
                for j in items_b[gb][1]:
                    _, pos_b, neg_b, self_b = sb[j]
                    if self_a or self_b or (pos_a | pos_b) & (neg_a | neg_b):
                        continue
                    lits = ua[i] | ub[j]
                    if any(self.derivable(name, lits) for name in neg_a | neg_b):
                        continue
                    result.append(lits)
        return result

    def _group_pairs(self, shared: list, items_a: list, items_b: list) -> list:
        """The pairs (index in items_a, index in items_b) of groups that contradict on none of
        the shared questions, in the order of items_a then items_b. Nearly every pair of
        preferans' findings contradicts on some question (7,439 of 955,433 pairs of
        alternatives remain), so the pairs are never enumerated: for each shared question and
        each of side b's few distinct literal sets on it, the side-a groups it agrees with are
        one bit mask (worked out once), and a b group agrees with the a groups in the AND of
        its questions' masks. (A walk partitioning both sides question by question tested
        pairs of groups some 270,000 times a re-check of preferans' dolaz article.)"""
        every = (1 << len(items_a)) - 1
        # the questions that leave fewest a groups first: a b group's mask empties soonest
        tables = []
        for k, qid in enumerate(shared):
            bits: dict = {}
            for x, (key, _) in enumerate(items_a):
                bits[key[k]] = bits.get(key[k], 0) | (1 << x)
            free = bits.pop(None, 0)               # a groups that say nothing of it
            tables.append((len(bits), k, qid, bits, free, {}))
        tables.sort(key=lambda t: (-t[0], t[1]))
        agreeing: list[list[int]] = [[] for _ in items_a]
        for y, (key_b, _) in enumerate(items_b):
            mask = every
            for _, k, qid, bits, free, memo in tables:
                vb = key_b[k]
                if vb is None:
                    continue
                m = memo.get(vb)
                if m is None:
                    m = free
                    for va, group in bits.items():
                        if not self._clash(qid, va | vb):
                            m |= group
                    memo[vb] = m
                mask &= m
                if not mask:
                    break
            while mask:
                low = mask & -mask
                agreeing[low.bit_length() - 1].append(y)
                mask ^= low
        return [(x, y) for x, ys in enumerate(agreeing) for y in ys]

    def derivable(self, name: str, lits: frozenset) -> bool:
        """Does some way of deriving ``name`` hold wherever ``lits`` do (its literals a subset)?
        Each producer's ways are taken on their own, so a fact with more ways than LIMIT in all
        (preferans' ``dolaz-gated``: six gates of 126 each) is still decided by the producer
        whose ways the alternative contains; each way is filed under its rarest literal, so an
        alternative looks only at the ways filed under one of its own literals."""
        index, filed = self._index(name)
        for lit in filed & lits:               # (the set operation runs in C, over the smaller)
            for way in index[lit]:
                if way <= lits:
                    return True
        return False

    def _index(self, name: str) -> tuple:
        memo = self._indexes
        hit = memo.get(name)
        if hit is None:
            ways = []
            for p in self.ev.producers.get(name, []):
                ways.extend(self.production(p.id) or [])
            count: dict = {}
            for way in ways:
                for lit in way:
                    count[lit] = count.get(lit, 0) + 1
            index: dict = {}
            for way in ways:
                if way:
                    index.setdefault(min(way, key=lambda l: (count[l], str(l))), []).append(way)
            hit = memo[name] = (index, frozenset(index))
        return hit

    def _summary(self, alt: frozenset) -> tuple:
        """An alternative's literals by question (frozensets), its positive and negative facts,
        and whether it contradicts itself on one of its questions (memoised)."""
        hit = self._summaries.get(alt)
        if hit is None:
            by_q: dict[str, set] = {}
            pos_facts, neg_facts = set(), set()
            for pos, lit in alt:
                if isinstance(lit, cond.AnswerTest):
                    by_q.setdefault(lit.question, set()).add((pos, lit))
                elif isinstance(lit, cond.FactTest):
                    (pos_facts if pos else neg_facts).add(lit.name)
            questions = {q: frozenset(v) for q, v in by_q.items()}
            contradicts = any(self._clash(qid, key) for qid, key in questions.items())
            hit = self._summaries[alt] = (questions, frozenset(pos_facts), frozenset(neg_facts), contradicts)
        return hit

    def _contradicts(self, lits: frozenset) -> bool:
        _, pos_facts, neg_facts, contradicts = self._summary(lits)
        if contradicts or pos_facts & neg_facts:
            return True
        # (by the ways ``fact`` keeps, not ``derivable``: this runs while productions unfold)
        for name in neg_facts:
            index = self._ways_index(name)
            if None in index[0]:
                return True                    # derived whatever the answers: never absent
            for lit in index[1] & lits:
                if any(way <= lits for way in index[0][lit]):
                    return True
        return False

    def _ways_index(self, name: str) -> tuple:
        """The ways ``fact`` keeps for ``name``, each filed under its first literal in a fixed
        order (an alternative can contain a way only if it contains that literal), and the set
        of those literals; a way without literals (always derived) is filed under None."""
        memo = self._fact_indexes
        hit = memo.get(name)
        if hit is None:
            index: dict = {}
            for way in self.fact(name) or []:
                key = min(way, key=str) if way else None
                index.setdefault(key, []).append(way)
            hit = memo[name] = (index, frozenset(index))
        return hit

    def refuted(self, alt) -> bool:
        """Can the alternative never hold, because one of the facts it needs absent is derived
        wherever its other literals allow? Asked of each negative fact on its own, over only the
        questions that fact's derivations read (and their gates), with the alternative's
        literals on those questions: a small walk, which ends (``REFUTE_BUDGET``) where the
        search over the whole alternative would have to give up, and which proves, because a
        part of the alternative that cannot hold makes the whole of it impossible. Memoised by
        the fact and those literals, which many pairs of findings share."""
        # the facts whose derivations read fewest questions first: their walks are the shortest
        negative = sorted((lit.name for pos, lit in alt if not pos and isinstance(lit, cond.FactTest)),
                          key=lambda name: (len(self._fact_questions(name)), name))
        for name in negative:
            lit = cond.FactTest(name)
            reads = self._fact_questions(lit.name)
            part = frozenset((p, l) for p, l in alt
                             if isinstance(l, cond.AnswerTest) and l.question in reads)
            if self._derived_on(lit.name, part):
                return True
        return False

    def _derived_on(self, name: str, part: frozenset) -> bool:
        """``_always_derived``, memoised by what it proves about more or fewer literals: a fact
        derived on every answer some literals allow is derived on every answer more literals
        allow, and answers found where it is not derived are answers of fewer literals too.
        (Preferans' check asked 459 walks, 313 of them decided so by an earlier one.)"""
        seen = self._derived_seen.get((name, part))
        if seen is not None:
            return seen                        # (the same literals again: most asks are)
        lists = self._refuted.get(name)
        if lists is None:
            lists = self._refuted[name] = self.kept.lists(name) if self.kept is not None else ([], [])
        proved, disproved = lists
        if any(known <= part for known in proved):
            seen = True
        elif any(part <= known for known in disproved):
            seen = False
        else:
            found = self._always_derived(name, part)
            if found:
                proved.append(part)
            elif found is False:
                disproved.append(part)
            seen = bool(found)
        self._derived_seen[(name, part)] = seen
        return seen

    def _fact_questions(self, name: str) -> set:
        memo = self._fact_qs
        hit = memo.get(name)
        if hit is None:
            from referee.expert.authoring.analysis.space import relevant_questions
            hit = memo[name] = relevant_questions(self.book, [cond.FactTest(name)], self.ev)
        return hit

    def _deciding(self, name: str) -> list[str]:
        """The questions a fact's ways test, those most of its ways test first: a walk that
        proves the fact derived cuts a branch only once the fact is decided, so it decides
        first what decides the fact and leaves last what only a gate or a rare way reads
        (preferans' ``frame-tells``: 2,300-2,900 nodes a walk in the rulebook's order, 250-350
        so; 71 walks of them in a check)."""
        memo = self._deciding_memo
        hit = memo.get(name)
        if hit is None:
            count: dict = {}
            for way in self.fact(name) or []:
                for q in {l.question for _, l in way if isinstance(l, cond.AnswerTest)}:
                    count[q] = count.get(q, 0) + 1
            hit = memo[name] = sorted(count, key=lambda q: (-count[q], q))
        return hit

    def _always_derived(self, name: str, part: frozenset) -> bool | None:
        from referee.expert.authoring.analysis.space import Space, alt_condition
        alt = sorted(part, key=str) + [(False, cond.FactTest(name))]
        space = (Space.build(self.book, self.ev, [alt_condition(alt)], prefer=self._deciding(name))
                 .restrict(alt).pruned(self.ev.alt_viable(alt), walk_first=True)
                 .bounded(REFUTE_BUDGET))
        for _ in space:
            return False                 # answers on which the fact is not derived
        # the walk ended: derived on every answer allowed; stopped at its bound: not known (None)
        return None if space.sampled else True
