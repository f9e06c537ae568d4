"""Ruling on a set of answers: one compiled engine per rulebook, reset for every case."""
from __future__ import annotations

import threading

from referee.expert.engine.compiler import Answer, Finding, SetAside, compile_engine, strata
from referee.expert.engine.groups import Groups
from referee.expert.language.model import Rulebook, text
from referee.expert.engine.verdict import NotRuled, Ruling, article_of, build_finding, winner_article


_THREAD = threading.local()


class Ruler:
    """Rules on answers. The rulebook's productions are split into groups (``groups``); each
    ruling runs on an engine compiled from the groups its answers can reach (engines are kept,
    a few dozen at most), so a ruling pays for the rules that can concern it, not for the
    whole rulebook. ``engine`` is the whole rulebook's engine (built when first asked for)."""

    ENGINES = 64        # engines kept per Ruler (one per set of groups met)

    def __init__(self, book: Rulebook):
        self.book = book
        strata(book)                       # a circular rulebook cannot be ruled on: say so now
        self.groups = Groups(book)
        self._engines: dict[frozenset, object] = {}
        self._whole = None
        self._order = {p.id: i for i, p in enumerate(book.productions)}
        self._parent_claims = _parent_claims(book)

    @classmethod
    def of(cls, book: Rulebook) -> "Ruler":
        """A Ruler kept for the rulebook in this thread, for code that has a rulebook and needs a
        ruling on the side (what an earlier event carries, while choosing questions). One per
        thread: an engine is reset and run per ruling, so two threads must not share one."""
        rulers = _THREAD.__dict__.setdefault("rulers", {})
        held = rulers.get(id(book))
        if held is None or held[0] is not book:
            held = rulers[id(book)] = (book, cls(book))
        return held[1]

    @property
    def engine(self):
        """The engine of the whole rulebook (every production)."""
        if self._whole is None:
            self._whole = compile_engine(self.book)()
        return self._whole

    @engine.setter
    def engine(self, engine) -> None:
        """Rule every case on this one engine from now on."""
        self._whole = engine
        self._engines = None

    def engine_for(self, answers: dict):
        """The engine made of the groups these answers can reach."""
        if self._engines is None:
            return self.engine
        key = self.groups.needed(answers)
        engine = self._engines.pop(key, None)
        if engine is None:
            if len(self._engines) >= self.ENGINES:
                self._engines.pop(next(iter(self._engines)))      # the least recently used
            engine = compile_engine(self.book, self.groups.productions(key))()
        self._engines[key] = engine
        return engine

    def compiled_for(self, answers: dict) -> frozenset:
        """The productions of the engine a ruling on these answers runs (its groups'): every
        production that can fire on them is among these."""
        return self.groups.productions(self.groups.needed(self._values(answers)))

    def _values(self, answers: dict) -> dict:
        """The answers the engine is given: question id -> value (lists as tuples), free text
        and unknown questions left out."""
        values = {}
        for qid in sorted(answers):
            q = self.book.questions.get(qid)
            if q is None or q.for_the_record:
                continue
            value = answers[qid]
            values[qid] = tuple(value) if isinstance(value, list) else value
        return values

    def rule(self, answers: dict, header: dict | None = None, from_cards: dict | None = None,
             order: list[str] | None = None) -> Ruling:
        """``order``: declare the answers one at a time in this order of question ids (the order
        analysis); by default they are declared together, sorted by question id."""
        book = self.book
        values = self._values(answers)
        facts = [Answer(id=qid, value=value) for qid, value in values.items()]
        engine = self.engine_for(values)
        engine.reset()
        if order is not None:
            rank = {q: i for i, q in enumerate(order)}
            for f in sorted(facts, key=lambda f: rank.get(f["id"], len(rank))):
                engine.declare(f)
        elif facts:
            engine.declare(*facts)
        engine.run()
        found = sorted({f["production"] for f in engine.facts.values() if isinstance(f, Finding)},
                       key=self._order.get)
        # A finding several productions set aside is credited to the one first in the rulebook's
        # order, not to whichever fired first: the firing order follows the order the answers
        # were declared in, and a ruling must not change with it (check's order analysis).
        aside = {}
        for f in engine.facts.values():
            if isinstance(f, SetAside):
                held = aside.get(f["production"])
                if held is None or self._order.get(f["by"], 1 << 30) < self._order.get(held["by"], 1 << 30):
                    aside[f["production"]] = f
        findings = [build_finding(book, book.production(pid), answers) for pid in found if pid not in aside]
        not_ruled = [self._not_ruled(book.production(pid), aside[pid], findings)
                     for pid in found if pid in aside]
        # a finding set aside by a standing one that applies every provision it cites (a sibling
        # reading of the same articles) sets no article aside: printed among what was not
        # applied it would contradict the finding that applies it ("4.3.5 not applied, 4.3.5
        # prevails"). Kept apart for the casebook and its coverage of the override.
        standing = {f.production for f in findings}
        refined = [n for n in not_ruled if n.cause == "override" and n.by in standing
                   and set(n.provisions) <= set(n.by_provisions)]
        not_ruled = [n for n in not_ruled if n not in refined]
        claimed = answers.get("claim") if isinstance(answers.get("claim"), list) else []
        answered = set()
        for pid in found:
            claim = book.production(pid).claim
            answered |= {claim} | self._parent_claims.get(claim, set())
        not_established = [c for c in claimed if str(c) not in answered]
        trail = [dict(step, cites=book.production(step["production"]).cites) for step in engine.trail]
        return Ruling(book=book, answers=dict(answers), header=dict(header or {}),
                      findings=findings, not_ruled=not_ruled, not_established=not_established, refined=refined,
                      trail=trail, from_cards=dict(from_cards or {}))

    def _standing_twin(self, prod, standing):
        """The standing finding on the same claim as ``prod`` (which may itself be set aside)."""
        claim = prod.claim
        for f in standing:
            if f.claim == claim:
                return self.book.production(f.production)
        return prod

    def _not_ruled(self, prod, fact, standing) -> NotRuled:
        book = self.book
        winner = book.production(fact["by"])
        common = dict(production=prod.id, provisions=list(prod.cites), article=article_of(book, prod),
                      by=winner.id, winner_article=winner_article(book, winner, prod),
                      by_provisions=list(winner.cites))
        if fact["reason"] == "override":
            why = winner.why or {"en": "it is the more specific provision"}
            reason = f"set aside: {article_of(book, winner)} ({winner.id}) prevails — {text(why)}"
            return NotRuled(reason=reason, cause="override", why=why, **common)
        first = self._standing_twin(book.production(fact["after"]), standing)
        # the rule that ends the game is the one of the first violation's provisions that the
        # keep_first production cites (skat: a revoke first ends it under 4.2.3, not 4.1.3, the
        # first provision keep_first cites; blind walk 7, S1)
        shared = [c for c in winner.cites if c in first.cites and c in book.provisions]
        if shared:
            common["winner_article"] = book.provisions[shared[0]].label
        reason = (f"not ruled on: committed after the violation under {article_of(book, first)} "
                  f"({first.id}); {common['winner_article']} rules only on the one committed first")
        return NotRuled(reason=reason, cause="later", first_article=article_of(book, first), **common)


def _parent_claims(book: Rulebook) -> dict[str, set[str]]:
    """Sub-claims: the values of a question asked only under a claim (e.g. bridge's 'revoke'
    under 'play') answer that claim too."""
    from referee.expert.language.conditions import AnswerTest, literals
    parents: dict[str, set[str]] = {}
    for q in book.questions.values():
        if q.when is None or q.id == "claim":
            continue
        gates = {str(lit.value) for lit in literals(q.when)
                 if isinstance(lit, AnswerTest) and lit.question == "claim" and lit.op in ("has", "is")}
        for value, _label in q.values:
            if gates:
                parents.setdefault(str(value), set()).update(gates)
    return parents
