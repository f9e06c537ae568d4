"""What an earlier event's finding establishes for the events after it.

A dispute is a short history: a pass out of turn at partner's turn (bridge Law 30B2) bars the
offender's partner from doubling at that turn, so a double he makes next is inadmissible by reason
of the earlier event, whatever Law 19 says of doubles in general. The rulebook says so with data
(knowledge/README.md, "What an earlier event establishes"):

- a yes/no question marked ``from_earlier`` (optionally ``{seat: REF}``, the seat it is about,
  read in the later event: ``{answer: offender}``) is never asked: it is answered from the events
  before the one being ruled;
- a finding that ``carries: [{question: Q, seat: REF}]`` answers Q "yes" in every event after its
  own, for the seat REF names in its own event (``{partner_of: {answer: offender}}``), when the
  finding stands in its event (a finding set aside by an override carries nothing).

Events are ruled in the order they happened; each event's carried answers are added to its own
before it is ruled (and before the interview chooses its questions), so the later event's
productions and questions read them as any answer. Nothing is carried backwards.
"""
from __future__ import annotations

import json
import threading
from typing import Callable

from referee.expert.language.expressions import Unresolved, seat_of
from referee.expert.language.model import Rulebook


def from_earlier_questions(book: Rulebook) -> dict:
    """The questions answered from earlier events: id -> their ``from_earlier`` spec."""
    cached = book.__dict__.get("_from_earlier")
    if cached is None:
        cached = {q.id: q.from_earlier for q in book.questions.values() if q.from_earlier is not None}
        book.__dict__["_from_earlier"] = cached
    return cached


def carries_anything(book: Rulebook) -> bool:
    return bool(from_earlier_questions(book))


def carried_by(book: Rulebook, production_ids, answers: dict) -> list[tuple[str, str | None]]:
    """What the standing findings of these productions carry to the later events, as (question,
    seat or None), their seats read on the answers of their own event."""
    out: list[tuple[str, str | None]] = []
    for pid in production_ids:
        prod = book.production(pid)
        for spec in ((prod.finding or {}).get("carries") or []) if prod is not None else []:
            seat = None
            if spec.get("seat") is not None:
                try:
                    seat = seat_of(spec["seat"], book, answers)
                except (Unresolved, KeyError, TypeError):
                    continue                    # no seat established: nothing to carry
            out.append((str(spec["question"]), seat))
    return out


def answers_from(book: Rulebook, carried: list[tuple[str, str | None]], answers: dict) -> dict:
    """The answers an event takes from what earlier events carried (only "yes" answers: a
    question nothing carried stays unanswered, read as no)."""
    found: dict = {}
    for qid, spec in from_earlier_questions(book).items():
        seats = {seat for q, seat in carried if q == qid}
        if not seats:
            continue
        if spec.get("seat") is None:
            found[qid] = True
            continue
        try:
            seat = seat_of(spec["seat"], book, answers)
        except (Unresolved, KeyError, TypeError):
            continue                            # whom it is about is not known yet
        if seat in seats:
            found[qid] = True
    return found


def forward(ruler, per_event: list[dict], header: dict | None = None, from_cards: dict | None = None,
            prepare: Callable[[dict], dict] | None = None) -> tuple[list[dict], list]:
    """Each event's answers with what the events before it carry, and each event's own ruling
    on them, in the order the events happened. ``prepare``: applied to each event's answers once
    its carried answers are in, before it is ruled (the interview's pruning)."""
    book = ruler.book
    carried: list[tuple[str, str | None]] = []
    out, rulings = [], []
    for answers in per_event:
        answers = {**answers, **answers_from(book, carried, answers)}
        if prepare is not None:
            answers = prepare(answers)
        ruling = ruler.rule(answers, header, from_cards)
        out.append(answers)
        rulings.append(ruling)
        carried += _carries_of(ruler, answers, ruling)
    return out, rulings


def with_carried(ruler, per_event: list[dict], prepare: Callable[[dict], dict] | None = None) -> list[dict]:
    """The events' answers with what earlier events carry, for choosing questions (the
    interview): every event but the last ruled (``prepare`` first, as ``forward``) to learn
    what it carries; an event ruled before on the same answers is not ruled again."""
    if not carries_anything(ruler.book) or len(per_event) < 2:
        return [dict(a) for a in per_event]
    book = ruler.book
    carried: list[tuple[str, str | None]] = []
    out = []
    for k, answers in enumerate(per_event):
        answers = {**answers, **answers_from(book, carried, answers)}
        out.append(answers)
        if k + 1 < len(per_event):
            carried += _carries_of(ruler, prepare(answers) if prepare is not None else answers)
    return out


# What an event's own ruling carries, by its answers: the interview asks for it before every
# question of a later event, and the ruling's open questions right after the ruling made it.
_MEMO: dict = {}
_MEMO_LOCK = threading.Lock()
MEMO_SIZE = 512


def _carries_of(ruler, answers: dict, ruling=None) -> list[tuple[str, str | None]]:
    book = ruler.book
    key = (id(book), json.dumps(answers, sort_keys=True, default=repr))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is book:
        return hit[1]
    if ruling is None:
        ruling = ruler.rule(answers)
    value = carried_by(book, [f.production for f in ruling.findings], answers)
    with _MEMO_LOCK:                 # a web server's threads share it
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.pop(next(iter(_MEMO)), None)
        _MEMO[key] = (book, value)
    return value
