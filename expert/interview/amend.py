"""Amending the facts of a dispute: `whatif`, and the appeals committee.

A setting is ``QUESTION=VALUE`` (the deal's answer, or the only event's), ``N:QUESTION=VALUE``
(event N's, counted from 1), or ``QUESTION=`` (left unanswered). Values are read as at the
interview's prompt (``answers.parse_typed``), so ``unknown`` and ``unknown: a, b`` work too. An
amended fact can close other questions: their answers are dropped and listed, as the interview
would drop them. The questions an amendment opens are named, so that no ruling is made silently
on missing facts.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.expert.interview.adjudicate import open_questions
from referee.expert.interview.relevance import prune
from referee.expert.language.answers import hint, parse_typed
from referee.expert.language.dispute import Dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook


@dataclass
class Change:
    event: int | None             # None: the deal's (shared) answer
    question: str
    before: object
    after: object                 # None: left unanswered

    def to_dict(self) -> dict:
        d = {"question": self.question, "before": self.before, "after": self.after}
        if self.event is not None:
            d["event"] = self.event + 1
        return d


@dataclass
class Amendment:
    dispute: Dispute
    changed: list[Change]
    dropped: list[Change] = field(default_factory=list)   # answers the change closed
    opened: list[str] = field(default_factory=list)       # questions the interview now asks anew


def read_setting(book: Rulebook, dispute: Dispute, item: str) -> tuple[int | None, str, object]:
    """``(event or None, question id, value or None)`` of one QUESTION=VALUE setting."""
    target, sep, raw = item.partition("=")
    target = target.strip()
    if not sep or not target:
        raise RefereeError(f"--set {item[:60]!r}: expected QUESTION=VALUE (or N:QUESTION=VALUE for event N)")
    event = None
    number, colon, qid = target.partition(":")
    if colon:
        # a dispute of one event keeps its answers as the deal's (no events list): event 1 is
        # those answers, as the help promises N:QUESTION=VALUE for any event N
        count = len(dispute.events) or 1
        if not number.strip().isdecimal() or not 1 <= int(number) <= count:
            expected = ("1 (the dispute has one event; N: may also be left out)" if count == 1
                        else f"a number from 1 to {count} (the dispute has {count} events)")
            raise RefereeError(f"--set {item[:60]!r}: event {number.strip()!r} does not exist, expected {expected}")
        event = int(number) - 1 if dispute.events else None
        qid = qid.strip()
    else:
        qid = target
    q = book.questions.get(qid)
    if q is None:
        raise RefereeError(f"--set {item[:60]!r}: unknown question {qid!r}{hint(qid, book.questions)}, expected "
                           f"one of the questions of {book.game} (see `referee questions {book.game}`)")
    if event is None and dispute.events and q.scope != "deal" and not any(qid in e for e in [dispute.answers]):
        raise RefereeError(f"--set {item[:60]!r}: the dispute has {len(dispute.events)} events; name the one "
                           f"whose {qid!r} changes: N:{qid}=VALUE")
    if raw.strip() == "":
        return event, qid, None
    answers = dispute.answers if event is None else {**dispute.answers, **dispute.events[event]}
    try:
        return event, qid, parse_typed(q, raw, book, answers)
    except RefereeError as exc:
        raise RefereeError(f"--set {item[:60]!r}: {exc.message}") from None


def amend(book: Rulebook, dispute: Dispute, settings: list[str]) -> Amendment:
    """The dispute with the settings applied, what changed, what they closed and what they open."""
    if not settings:
        raise RefereeError("nothing to amend: give at least one --set QUESTION=VALUE")
    new = replace(dispute, answers=dict(dispute.answers), events=[dict(e) for e in dispute.events])
    changed: list[Change] = []
    seen = set()
    for item in settings:
        event, qid, value = read_setting(book, new, item)
        if (event, qid) in seen:
            raise RefereeError(f"--set {qid!r} is given twice; give each fact once")
        seen.add((event, qid))
        store = new.answers if event is None else new.events[event]
        before = store.get(qid)
        if value is None:
            store.pop(qid, None)
        else:
            store[qid] = value
        changed.append(Change(event, qid, before, value))
    dropped = _prune(book, new, seen)
    before_open = set(open_questions(book, dispute))
    opened = [q for q in open_questions(book, new) if q not in before_open]
    return Amendment(new, changed, dropped, opened)


def _prune(book: Rulebook, dispute: Dispute, amended: set) -> list[Change]:
    """Drop the answers the amended facts closed, event by event (a shared answer goes when no
    event asks it any more)."""
    dropped: list[Change] = []
    per_event = dispute.event_answers()
    kept = [prune(book, answers) for answers in per_event]
    for k, event in enumerate(dispute.events):
        for qid in [q for q in event if q not in kept[k] and (k, q) not in amended]:
            dropped.append(Change(k, qid, event.pop(qid), None))
    for qid in [q for q in dispute.answers if all(q not in answers for answers in kept)
                and (None, q) not in amended]:
        dropped.append(Change(None, qid, dispute.answers.pop(qid), None))
    return dropped
