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
- an ``undecided`` finding (the source text does not decide the earlier irregularity: bridge 30C
  sends a conventional pass out of turn to Law 31, which is absent) answers Q "unknown" instead:
  what the earlier event would have established is undecided, so the later consequence is
  undecided too, and the later event reads it with ``{q: Q, answered: true}`` beside
  ``{not: {q: Q, is: true}}``. A "yes" carried by another event prevails over it.

Events are ruled in the order they happened; each event's carried answers are added to its own
before it is ruled (and before the interview chooses its questions), so the later event's
productions and questions read them as any answer. Nothing is carried backwards.

Each alternative of an earlier event carries its own: the ruling tries every answer to a fact
nobody could establish and rules the later events under each (interview/adjudicate.py). While
the interview chooses a later event's questions (``with_carried``), an earlier event with such an
unknown fact is ruled under each of its answers too: a question every alternative answers "yes"
is "yes", one every alternative answers (yes or undecided) is "unknown" (it is answered, the
questions it closes stay closed), and one some alternative leaves unanswered stays unanswered
(what it gates may be needed there).
"""
from __future__ import annotations

import itertools
import json
import threading
from typing import Any, Callable

from referee.expert.language.answers import is_unknown, unknown_among
from referee.expert.language.expressions import Unresolved, seat_of
from referee.expert.language.model import UNKNOWN, Rulebook
from referee.expert.language.qtypes import qtype

MAX_ALTERNATIVES = 64     # combinations of an earlier event's unknown facts tried while choosing questions


def from_earlier_questions(book: Rulebook) -> dict:
    """The questions answered from earlier events: id -> their ``from_earlier`` spec."""
    cached = book.__dict__.get("_from_earlier")
    if cached is None:
        cached = {q.id: q.from_earlier for q in book.questions.values() if q.from_earlier is not None}
        book.__dict__["_from_earlier"] = cached
    return cached


def carries_anything(book: Rulebook) -> bool:
    return bool(from_earlier_questions(book))


Carried = tuple   # what a finding carries: (question, seat or None, True or UNKNOWN)


def carried_by(book: Rulebook, production_ids, answers: dict) -> list[Carried]:
    """What the standing findings of these productions carry to the later events, as (question,
    seat or None, answer), their seats read on the answers of their own event: "yes" (True), or
    "unknown" from a finding whose kind leaves the earlier irregularity undecided."""
    out: list[Carried] = []
    for pid in production_ids:
        prod = book.production(pid)
        finding = (prod.finding or {}) if prod is not None else {}
        value = UNKNOWN if finding.get("kind") == "undecided" else True
        for spec in finding.get("carries") or []:
            seat = None
            if spec.get("seat") is not None:
                try:
                    seat = seat_of(spec["seat"], book, answers)
                except (Unresolved, KeyError, TypeError):
                    continue                    # no seat established: nothing to carry
            out.append((str(spec["question"]), seat, value))
    return out


def answers_from(book: Rulebook, carried: list[Carried], answers: dict) -> dict:
    """The answers an event takes from what earlier events carried: "yes" where a finding that
    stands carried it, else "unknown" where an undecided one did; a question nothing carried
    stays unanswered, read as no."""
    found: dict = {}
    for qid, spec in from_earlier_questions(book).items():
        mine = [entry for entry in carried if entry[0] == qid]
        if not mine:
            continue
        if spec.get("seat") is not None:
            try:
                seat = seat_of(spec["seat"], book, answers)
            except (Unresolved, KeyError, TypeError):
                continue                        # whom it is about is not known yet
            mine = [entry for entry in mine if entry[1] == seat]
        if mine:
            found[qid] = True if any(entry[2] is True for entry in mine) else UNKNOWN
    return found


def forward(ruler, per_event: list[dict], header: dict | None = None, from_cards: dict | None = None,
            prepare: Callable[[dict], dict] | None = None) -> tuple[list[dict], list]:
    """Each event's answers with what the events before it carry, and each event's own ruling
    on them, in the order the events happened (the answers of one alternative: adjudicate tries
    the unknown facts). ``prepare``: applied to each event's answers once its carried answers are
    in, before it is ruled (the interview's pruning)."""
    book = ruler.book
    carried: list[Carried] = []
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
    chains = [_chain(ruler, variant, prepare) for variant in _alternatives(ruler.book, per_event)]
    return [{**answers, **_merge([chain[k] for chain in chains])} for k, answers in enumerate(per_event)]


def _chain(ruler, per_event: list[dict], prepare) -> list[dict]:
    """What each event takes from the events before it, on answers with no unknown left."""
    book = ruler.book
    carried: list[Carried] = []
    out = []
    for k, answers in enumerate(per_event):
        got = answers_from(book, carried, answers)
        out.append(got)
        if k + 1 < len(per_event):
            answers = {**answers, **got}
            carried += _carries_of(ruler, prepare(answers) if prepare is not None else answers)
    return out


def _merge(found: list[dict]) -> dict:
    """One event's carried answers over the alternatives of the earlier events: "yes" where every
    alternative says yes, "unknown" where every alternative carries something, else nothing."""
    merged: dict = {}
    for qid in set().union(*found):
        values = [f.get(qid) for f in found]
        if any(v is None for v in values):
            continue
        merged[qid] = True if all(v is True for v in values) else UNKNOWN
    return merged


def _alternatives(book: Rulebook, per_event: list[dict]) -> list[list[dict]]:
    """The events with every unknown fact of the earlier events (not the last: nothing is carried
    from it) replaced by each of its answers, as the ruling will try them; the events as they are
    when there is none, or too many combinations."""
    open_: list[tuple[int, str, list]] = []
    for k, answers in enumerate(per_event[:-1]):
        for qid, value in answers.items():
            q = book.questions.get(qid)
            if q is None or q.from_earlier is not None or not is_unknown(value):
                continue
            domain = unknown_among(value) or _domain(q, book)
            if domain:
                open_.append((k, qid, domain))
    if not open_ or _product(len(d) for _, _, d in open_) > MAX_ALTERNATIVES:
        return [per_event]
    out = []
    for combo in itertools.product(*(d for _, _, d in open_)):
        variant = [dict(a) for a in per_event]
        for (k, qid, _), value in zip(open_, combo):
            variant[k][qid] = value
        out.append(variant)
    return out


def _domain(q, book: Rulebook) -> list[Any]:
    """The answers tried for an earlier event's unknown fact, as the ruling tries them
    (interview/adjudicate.candidates): every value; for a several-answer question each alone."""
    if q.type in ("number", "order") or q.for_the_record:
        return []                    # read by amounts or thresholds, not by what a finding carries
    if qtype(q).several:
        return [[v] for v in qtype(q).allowed(q, book) or []]
    return qtype(q).domain(q, book, [])


def _product(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


# What an event's own ruling carries, by its answers: the interview asks for it before every
# question of a later event, and the ruling's open questions right after the ruling made it.
_MEMO: dict = {}
_MEMO_LOCK = threading.Lock()
MEMO_SIZE = 512


def _carries_of(ruler, answers: dict, ruling=None) -> list[Carried]:
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
