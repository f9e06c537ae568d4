"""Why other articles did not apply: for each event, the articles encoded for what was claimed
that no finding applied, each with the answers found that its conditions needed otherwise.

An appeals committee reads a ruling for the article applied and for why the neighbouring ones
were not (30B1 applied: why not 30B2?). For every finding production that answers a claim of
the event (its ``claim`` is a value the event's answers name) and cites an article the ruling
applies nowhere, its condition's alternatives are read on the event's answers: an alternative
whose only false literals test questions that were answered (not unknown, not left unasked)
says, in facts the referee gave, what was missing. The alternative missing fewest is kept, one
per article, the closest first. Articles whose alternatives fail on a derived fact or on a
question nobody answered are left out: no answer of the referee's says why, and a guess would
mislead. Findings that say no violation or leave the matter undecided are not listed.

Two rules keep the list from contradicting the ruling. An article is named by its label: one
that a finding of the ruling cites (standing, set aside, or in any alternative of a conditional
ruling), even through another provision of the same label (Član 7, stav 6 has two), is never
listed as not applied. And an article that several productions encode (Član 12, stav 2 for
items 1 to 4; the Član 13 waiver for each) is not said to "require" what one of them needs: an
answer is given as the reason only when that answer alone rules out every alternative of every
production of the article for this claim (the item claimed rules out none, the missing
agreement all); the values several alternatives accept are named together. When no single
answer says it, the article is listed without a reason (``unmet`` empty): its conditions do not
hold on these answers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.errors import RefereeError

LISTED = 6          # articles listed per event at most (the closest misses)
NOT_LISTED_KINDS = ("no-violation", "undecided")


@dataclass
class Unmet:
    question: str
    positive: bool          # the literal as the article needs it (False: it needs it not to hold)
    op: str
    value: Any              # what the article needs
    found: Any              # the answer found

    def to_dict(self) -> dict:
        return {"question": self.question, "needs": {"op": self.op, "value": self.value,
                                                     "positive": self.positive},
                "found": self.found}


@dataclass
class NotApplied:
    event: int                  # 0-based
    production: str
    provisions: list[str]
    article: str
    unmet: list[Unmet]

    def to_dict(self) -> dict:
        return {"event": self.event + 1, "production": self.production, "provisions": self.provisions,
                "article": self.article, "unmet": [u.to_dict() for u in self.unmet]}


def not_applied(ruling) -> list[NotApplied]:
    """The articles considered and not applied, per event (see the module's docstring)."""
    from referee.expert.engine.verdict import article_of
    book = ruling.book
    cited = _cited(ruling)
    applied = {p for group in cited for p in group}
    # an article applied under another of its readings (Član 9, stav 3, tačka 5 on a called lead,
    # not on a contra'd one), or through another provision of its label, is not "another article"
    labels = {book.provisions[p].label for p in applied if p in book.provisions}
    labels |= {f.article for f in ruling.findings} | {n.article for n in ruling.not_ruled}
    order = {p.id: i for i, p in enumerate(book.productions)}
    out: list[NotApplied] = []
    for k in range(ruling.event_count):
        answers = ruling.answers_of(k)
        named = _named(answers)
        facts = _derived(ruling, k, book)
        # every production that could have applied the article to this claim, by article
        encoding: dict[str, list] = {}
        for p in book.productions:
            if (p.action != "finding" or not p.claim or str(p.claim) not in named
                    or p.kind in NOT_LISTED_KINDS or not p.cites):
                continue
            encoding.setdefault(article_of(book, p), []).append(p)
        best: dict[str, tuple] = {}
        for article, productions in encoding.items():
            if _among(article, labels):
                continue
            for p in productions:
                if set(p.cites) <= applied:
                    continue
                unmet = _closest(p, answers, facts)
                if not unmet:
                    continue
                rank = (len(unmet), order[p.id])
                if article not in best or rank < best[article][0]:
                    best[article] = (rank, p, unmet)
        for article, (rank, p, unmet) in sorted(best.items(), key=lambda x: x[1][0])[:LISTED]:
            reasons = _deciding(unmet, encoding[article], answers, facts)
            out.append(NotApplied(k, p.id, list(p.cites), article, reasons))
    out.sort(key=lambda n: (n.event, order[n.production]))
    return out


def _cited(ruling) -> list[list[str]]:
    """The provisions each finding of the ruling cites: standing, set aside, refined, and in
    every alternative of a conditional ruling."""
    groups = [f.provisions for f in ruling.findings]
    groups += [n.provisions for n in ruling.not_ruled]
    groups += [n.provisions for n in getattr(ruling, "refined", [])]
    for alt in ruling.alternatives or []:
        groups += [f.provisions for f in alt.findings] + [n.provisions for n in alt.not_ruled]
    return groups


def _among(article: str, labels: set[str]) -> bool:
    """The article is one applied, or holds one ("Renonszok 1. pont" holds "Renonszok 1. pont,
    2. mondat"): listing it as not applied would contradict the ruling."""
    return article in labels or any(label.startswith(article + ",") for label in labels)


def _relevant(p) -> list:
    try:
        return cond.dnf(p.when)
    except RefereeError:
        return []


def _deciding(unmet: list[Unmet], productions: list, answers: dict, facts: set[str]) -> list[Unmet]:
    """The unmet literals whose answer alone rules out the article: every alternative of every
    production encoding it for this claim fails on that question. What the alternatives accept
    there is named together (item 1 or item 2), never one alternative's value as the article's.
    An alternative for another claim says nothing of this one; nor, when every answer is known,
    does one that fails on a fact the answers settled (the partner stood, when he fell)."""
    settled = not any(is_unknown(v) for v in answers.values())
    alternatives = []
    for p in productions:
        for alt in _relevant(p):
            if any(isinstance(lit, cond.AnswerTest) and lit.question == "claim"
                   and answers.get("claim") is not None and lit.holds(answers["claim"]) != positive
                   for positive, lit in alt):
                continue
            if settled and any(isinstance(lit, cond.FactTest) and (lit.name in facts) != positive
                               for positive, lit in alt):
                continue
            alternatives.append(alt)
    out: list[Unmet] = []
    for u in unmet:
        failing = []
        for alt in alternatives:
            lits = [(positive, lit) for positive, lit in alt
                    if isinstance(lit, cond.AnswerTest) and lit.question == u.question
                    and lit.holds(u.found) != positive]
            if not lits:
                break               # this alternative accepts the answer: it is not the reason
            failing.append(lits)
        else:
            merged = _merged(u, failing)
            if merged is not None:
                out.append(merged)
    return out


def _merged(u: Unmet, failing: list[list]) -> Unmet | None:
    """One statement of what the alternatives need of one answer: the literal itself when they
    all need the same, the values together when each needs one of some values; else None."""
    literals = {(positive, lit.op, _frozen(lit.value)) for lits in failing for positive, lit in lits}
    if literals == {(u.positive, u.op, _frozen(u.value))}:
        return u
    values: list = []
    for positive, op, value in literals:
        if not positive or op not in ("is", "in"):
            return None
        values += list(value) if op == "in" else [value]
    ordered = []
    for lits in failing:        # the rulebook's order, not a set's
        for _, lit in lits:
            for v in (lit.value if lit.op == "in" else [lit.value]):
                if v not in ordered:
                    ordered.append(v)
    return Unmet(u.question, True, "in", ordered, u.found)


def _frozen(value):
    return tuple(value) if isinstance(value, list) else value


def _named(answers: dict) -> set[str]:
    """Every value the event's answers name: the claims, and the more specific claims asked
    under them (bridge's play_claim)."""
    named: set[str] = set()
    for value in answers.values():
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(v, (str, int)) and not isinstance(v, bool):
                named.add(str(v))
    return named


def _derived(ruling, k: int, book) -> set[str]:
    """The facts derived in event k (the trail counts events from 1; a one-event ruling's steps
    carry no event)."""
    facts = set()
    for step in ruling.trail:
        at = step.get("event")
        if at not in (None, k + 1) or (at is None and ruling.events and len(ruling.events) > 1):
            continue
        try:
            p = book.production(step["production"])
        except (KeyError, StopIteration, ValueError):
            continue
        if p.action == "derive":
            facts.add(p.derive)
    return facts


def _closest(p, answers: dict, facts: set[str]) -> list[Unmet] | None:
    """The unmet literals of the alternative missing fewest, when all are answered questions."""
    try:
        alternatives = cond.dnf(p.when)
    except RefereeError:
        return None
    best: list[Unmet] | None = None
    for alt in alternatives:
        unmet: list[Unmet] = []
        usable = True
        for positive, lit in alt:
            if isinstance(lit, cond.AnswerTest):
                value = answers.get(lit.question)
                if value is None or is_unknown(value):
                    usable = False          # not asked, or nobody knows: no fact says why
                    break
                if lit.holds(value) != positive:
                    if lit.question == "claim":
                        usable = False      # an alternative for another claim: not this event's
                        break
                    unmet.append(Unmet(lit.question, positive, lit.op, lit.value, value))
            elif isinstance(lit, cond.FactTest):
                if (lit.name in facts) != positive:
                    usable = False          # a derived fact: the answers behind it say more
                    break
            else:
                usable = False
                break
        if usable and unmet and (best is None or len(unmet) < len(best)):
            best = unmet
    return best
