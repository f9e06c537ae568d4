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
    applied = {p for f in ruling.findings for p in f.provisions}
    applied |= {p for n in ruling.not_ruled for p in n.provisions}
    applied |= {p for n in getattr(ruling, "refined", []) for p in n.provisions}
    for alt in ruling.alternatives or []:
        applied |= {p for f in alt.findings for p in f.provisions}
        applied |= {p for n in alt.not_ruled for p in n.provisions}
    # an article applied under another of its readings (Član 9, stav 3, tačka 5 on a called lead,
    # not on a contra'd one) is not "another article": not listed
    labels = {f.article for f in ruling.findings} | {n.article for n in ruling.not_ruled}
    order = {p.id: i for i, p in enumerate(book.productions)}
    out: list[NotApplied] = []
    for k in range(ruling.event_count):
        answers = ruling.answers_of(k)
        named = _named(answers)
        facts = _derived(ruling, k, book)
        best: dict[str, tuple] = {}
        for p in book.productions:
            if (p.action != "finding" or not p.claim or str(p.claim) not in named
                    or p.kind in NOT_LISTED_KINDS or not p.cites or set(p.cites) <= applied):
                continue
            unmet = _closest(p, answers, facts)
            if not unmet:
                continue
            article = article_of(book, p)
            if article in labels:
                continue
            rank = (len(unmet), order[p.id])
            if article not in best or rank < best[article][0]:
                best[article] = (rank, NotApplied(k, p.id, list(p.cites), article, unmet))
        for _, item in sorted(best.values(), key=lambda x: x[0])[:LISTED]:
            out.append(item)
    out.sort(key=lambda n: (n.event, order[n.production]))
    return out


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
