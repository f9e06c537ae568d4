"""Ruling on a set of answers: one compiled engine per rulebook, reset for every case."""
from __future__ import annotations

from referee.expert.engine.compiler import Answer, Finding, SetAside, compile_engine
from referee.expert.language.model import Rulebook, text
from referee.expert.engine.verdict import NotRuled, Ruling, article_of, build_finding


class Ruler:
    def __init__(self, book: Rulebook):
        self.book = book
        self.engine = compile_engine(book)()
        self._order = {p.id: i for i, p in enumerate(book.productions)}
        self._parent_claims = _parent_claims(book)

    def rule(self, answers: dict, header: dict | None = None, from_cards: dict | None = None) -> Ruling:
        book, engine = self.book, self.engine
        engine.reset()
        facts = []
        for qid in sorted(answers):
            q = book.questions.get(qid)
            if q is None or q.type == "text":
                continue
            value = answers[qid]
            facts.append(Answer(id=qid, value=tuple(value) if isinstance(value, list) else value))
        if facts:
            engine.declare(*facts)
        engine.run()
        found = sorted({f["production"] for f in engine.facts.values() if isinstance(f, Finding)},
                       key=self._order.get)
        aside = {}
        for f in engine.facts.values():
            if isinstance(f, SetAside):
                aside.setdefault(f["production"], f)
        findings = [build_finding(book, book.production(pid), answers) for pid in found if pid not in aside]
        not_ruled = [self._not_ruled(book.production(pid), aside[pid], findings)
                     for pid in found if pid in aside]
        claimed = answers.get("claim") if isinstance(answers.get("claim"), list) else []
        answered = set()
        for pid in found:
            claim = str(book.production(pid).finding.get("claim") or "")
            answered |= {claim} | self._parent_claims.get(claim, set())
        not_established = [c for c in claimed if str(c) not in answered]
        trail = [dict(step, cites=book.production(step["production"]).cites) for step in engine.trail]
        return Ruling(book=book, answers=dict(answers), header=dict(header or {}),
                      findings=findings, not_ruled=not_ruled, not_established=not_established,
                      trail=trail, from_cards=dict(from_cards or {}))

    def _standing_twin(self, prod, standing):
        """The standing finding on the same claim as ``prod`` (which may itself be set aside)."""
        claim = str((prod.finding or {}).get("claim") or "")
        for f in standing:
            if f.claim == claim:
                return self.book.production(f.production)
        return prod

    def _not_ruled(self, prod, fact, standing) -> NotRuled:
        book = self.book
        winner = book.production(fact["by"])
        common = dict(production=prod.id, provisions=list(prod.cites), article=article_of(book, prod),
                      by=winner.id, winner_article=article_of(book, winner), by_provisions=list(winner.cites))
        if fact["reason"] == "override":
            why = winner.why or {"en": "it is the more specific provision"}
            reason = f"set aside: {article_of(book, winner)} ({winner.id}) prevails — {text(why)}"
            return NotRuled(reason=reason, cause="override", why=why, **common)
        first = self._standing_twin(book.production(fact["after"]), standing)
        reason = (f"not ruled on: committed after the violation under {article_of(book, first)} "
                  f"({first.id}); {article_of(book, winner)} rules only on the one committed first")
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
