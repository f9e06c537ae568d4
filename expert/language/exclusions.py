"""Answers that exclude each other: the combinations a question's ``impossible:`` list declares.

The source texts rule some combinations out: a revoke happens only in the play, so it cannot be
the event of a board whose auction has not ended; a board played to its end has no revoke left
unestablished. Nothing of the ruling could reach such answers, so wherever answers are taken
(the interview, a case file) the combination is refused with the declaration's reason.

A declaration holds only on answers actually given: an unanswered question or one answered
'unknown' never completes a combination (Kleene's logic: only a definite true refuses).
"""
from __future__ import annotations

from typing import Any

from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown, question_text, show_value
from referee.expert.language.model import Rulebook, text


def _literal(answers: dict):
    def value(lit) -> bool | None:
        if isinstance(lit, cond.AnswerTest):
            if lit.question not in answers or is_unknown(answers[lit.question]):
                return None
            return lit.holds(answers[lit.question])
        return None                     # facts and findings: not a combination of answers
    return value


def stated(book: Rulebook, q, values: list, lang: str) -> str:
    """One of several values of a question as the ruling would state it: 'label: a / b'."""
    if len(values) == 1:
        return _stated(book, q, values[0], lang)
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    label = fact if isinstance(fact, str) else question_text(q, lang)
    return f"{label}: {' / '.join(show_value(q, v, book, lang) for v in values)}"


def _stated(book: Rulebook, q, value, lang: str) -> str:
    """An answer as the ruling states it: the yes/no statement, or 'label: value'."""
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    if isinstance(fact, dict) and isinstance(value, bool):
        return fact.get("yes" if value else "no") or f"{question_text(q, lang)}: {show_value(q, value, book, lang)}"
    label = fact if isinstance(fact, str) else question_text(q, lang)
    return f"{label}: {show_value(q, value, book, lang)}"


def declarations(book: Rulebook) -> list[dict]:
    """Every declared impossible combination of the rulebook, in question order."""
    return [rule for q in book.questions.values() for rule in q.impossible]


def conflicts(book: Rulebook, answers: dict, touching: str | None = None) -> list[dict]:
    """The declared combinations these answers complete (``touching``: only those that read that
    question, the one just answered)."""
    found = []
    for rule in declarations(book):
        if touching is not None and touching not in cond.questions_read(rule["when"]):
            continue
        if cond.evaluate(rule["when"], _literal(answers)) is True:
            found.append(rule)
    return found


def describe(book: Rulebook, rule: dict, answers: dict, lang: str = "en") -> str:
    """One line: the answers that exclude each other, and why (the declaration's reason)."""
    parts = []
    for qid in sorted(cond.questions_read(rule["when"]), key=list(book.questions).index):
        q = book.questions.get(qid)
        if q is not None and qid in answers:
            parts.append(_stated(book, q, answers[qid], lang))
    why = text(rule["why"], lang) or text(rule["why"], "en")
    return f"{'; '.join(parts)} -- these answers exclude each other: {why}"


def first_conflict(book: Rulebook, answers: dict, touching: str | None = None,
                   lang: str = "en") -> str | None:
    """The reason the first completed combination gives, or None when there is none."""
    found = conflicts(book, answers, touching)
    return describe(book, found[0], answers, lang) if found else None


def check_dispute(book: Rulebook, shared: dict, events: list[dict]) -> tuple[int | None, str] | None:
    """The first impossible combination in a dispute: (the event it is in, or None for the
    shared answers, and the reason); None when the answers are consistent."""
    for k, event in enumerate(events or [{}]):
        answers: dict[str, Any] = {**shared, **event}
        found = conflicts(book, answers)
        if found:
            read = {q for rule in found for q in cond.questions_read(rule["when"])}
            return (k if events and any(q in event for q in read) else None), describe(book, found[0], answers)
    return None


def excluded(book: Rulebook, shared: dict, events: list[dict]) -> bool:
    """Whether a dispute's answers complete a declared impossible combination in some event: a
    ruling that tries every answer to an unknown fact skips such a combination, since no table
    could have reached it (the answers given already rule it out)."""
    if not any(q.impossible for q in book.questions.values()):
        return False
    return check_dispute(book, shared, events) is not None
