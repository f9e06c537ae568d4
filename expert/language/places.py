"""Where a role sat: seats that are roles (skat's soloist and two opponents) sit in places that
change from deal to deal (knowledge/README.md, "Where a role sat").

A rulebook names the place of one role with a ``choice`` question ``<seat>_place`` whose
``values`` are the places in playing order, one per seat (skat: soloist_place, Przodek / Środek
/ Zadek). The interview asks it first, with the players' names (interview/session.py), so that
every later prompt names each seat by its place; the ruling does the same (reports/view.py).
Case files written before hold a free-text ``<seat>_seat`` answer instead: it is read alike.
"""
from __future__ import annotations

from referee.expert.language.model import Question, Rulebook, text


def place_question(book: Rulebook) -> Question | None:
    """The ``<seat>_place`` choice naming one role's place, or None."""
    for seat in book.seat_ids:
        q = book.questions.get(f"{seat}_place")
        if q is not None and q.type == "choice" and len(q.values or []) == len(book.seat_ids):
            return q
    return None


def places(book: Rulebook, answers: dict | None) -> dict[str, tuple]:
    """Each seat's place (value, labels), from the first ``<seat>_place`` or ``<seat>_seat``
    answer naming one: that seat in its place, the other seats, in the rulebook's order, in the
    remaining places. No answer, or one that names no place, gives {}."""
    for anchor, suffix in ((a, s) for a in book.seat_ids for s in ("_place", "_seat")):
        q = book.questions.get(f"{anchor}{suffix}")
        said = (answers or {}).get(f"{anchor}{suffix}")
        if q is None or len(q.values or []) != len(book.seat_ids) or not isinstance(said, str):
            continue
        typed = said.strip().casefold()
        hit = next((p for p in q.values if typed in {str(p[0]).casefold(), *(
            str(t).strip().casefold() for t in (p[1] or {}).values())}), None)
        if hit is None:
            continue
        rest = [p for p in q.values if p is not hit]
        others = [s for s in book.seat_ids if s != anchor]
        return {anchor: hit, **dict(zip(others, rest))}
    return {}


def placed_label(book: Rulebook, seat: str, answers: dict | None, lang: str) -> str:
    """The seat's label naming the place its player sat where the answers say it: "second
    opponent (Zadek/Hinterhand)" instead of the label that describes every case."""
    label = book.seat_label(seat, lang)
    place = places(book, answers).get(seat)
    if place is None:
        return label
    value, labels = place
    return f"{label.partition(' (')[0]} ({text(labels, lang) or value})"
