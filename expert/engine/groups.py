"""Which productions a ruling can need: the rulebook split into groups, one engine per set.

Experta pays for every rule on every ruling (each batch of facts polls every conflict-set node,
each reset wipes every node), so a rulebook twice as large rules each case twice as slowly,
even when the case concerns one claim. The productions are therefore split into groups that
cannot influence each other, and a ruling runs on an engine made of the groups it can reach.

A group is closed under everything a rule reads that another rule makes: a production is
grouped with the producers of the facts it reads, a production that ``overrides`` another with
it, and a production that reads findings (``{findings: none}``, ``keep_first``) with every
finding production. Productions that concern the same claimed event (``logic.scope``) are put
together too, only so that the groups stay few.

A group is needed by a ruling when one of its rules can match: an alternative whose positive
answer literals all hold on the answers (its positive facts come from its own group), or one
with no positive literal at all. A group no rule of which can match contributes no activation,
no fact and no finding, so leaving it out changes nothing: the same rules fire in the same
order on the same facts (saliences are those of the whole rulebook; ties break on fact ids and
rule names), and the ruling and its trail are identical.
"""
from __future__ import annotations

from referee.expert.language import conditions as cond
from referee.expert.language.logic import Logic


class Groups:
    def __init__(self, book):
        logic = Logic.of(book)
        prods = book.productions
        parent = {p.id: p.id for p in prods}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a, b):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)

        findings = [p.id for p in prods if p.action == "finding"]
        by_claim: dict = {}
        for p in prods:
            for name in cond.facts_read(p.when):
                for q in logic.producers.get(name, []):
                    union(p.id, q.id)
            for loser in p.overrides:
                if loser in parent:
                    union(p.id, loser)
            if p.action == "keep_first" or cond.reads_findings(p.when):
                for f in findings:
                    union(p.id, f)
            for value in sorted(map(str, logic.scope(p.id) or ())):
                union(p.id, by_claim.setdefault(value, p.id))
        self.group_of = {p.id: find(p.id) for p in prods}
        self.members: dict[str, frozenset] = {}
        for pid, g in self.group_of.items():
            self.members[g] = self.members.get(g, frozenset()) | {pid}
        # triggers: the positive answer literals of each alternative, indexed by one of them
        self.always: set[str] = set()
        self.by_value: dict[tuple, list] = {}
        self.by_question: dict[str, list] = {}
        for p in prods:
            g = self.group_of[p.id]
            alts = logic.alts[p.id]
            if alts is None:
                alts = cond.dnf(p.when)        # raises the compiler's error for a condition too large
            for alt in alts:
                # the literals that become positive patterns ({findings: none} is a negated one)
                positive = [lit for pos, lit in alt if pos != isinstance(lit, cond.NoFindings)]
                answers = [lit for lit in positive if isinstance(lit, cond.AnswerTest)]
                if p.action == "keep_first":
                    answers.append(cond.AnswerTest(p.keep_first, "answered", True))
                if not positive and p.action != "keep_first":
                    self.always.add(g)
                elif answers:
                    anchor = next((l for l in answers if l.op in ("is", "has")), answers[0])
                    trigger = (g, p.id, tuple(answers))
                    if anchor.op in ("is", "has"):
                        self.by_value.setdefault((anchor.question, _key(anchor.value)), []).append(trigger)
                    else:
                        self.by_question.setdefault(anchor.question, []).append(trigger)

    def needed(self, answers: dict) -> frozenset:
        """The groups whose rules can match on these answers (question id -> value)."""
        found = set(self.always)
        for g, pid, lits in self._candidates(answers):
            if g not in found and _hold(lits, answers):
                found.add(g)
        return frozenset(found)

    def _candidates(self, answers: dict) -> list:
        candidates: list = []
        for qid, value in answers.items():
            candidates += self.by_question.get(qid, ())
            values = value if isinstance(value, (list, tuple)) else (value,)
            for v in values:
                try:
                    candidates += self.by_value.get((qid, _key(v)), ())
                except TypeError:                  # an unhashable answer: nothing indexed on it
                    pass
        return candidates

    def productions(self, groups: frozenset) -> frozenset:
        result: frozenset = frozenset()
        for g in groups:
            result |= self.members[g]
        return result


def _hold(lits, answers: dict) -> bool:
    return all(lit.question in answers and lit.holds(answers[lit.question]) for lit in lits)


def _key(value):
    """Index key of a literal's value and of an answer. Values equal in Python meet (``True``
    and ``1``): a candidate too many is checked by ``holds``, one too few would be missed."""
    return value
