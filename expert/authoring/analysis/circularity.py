"""Circularity: derived facts that depend on themselves.

``compiler.strata`` raises on the first cycle; here every cycle is found and reported as an
error naming each production on it (file:line), so the rule author sees the whole loop.
"""
from __future__ import annotations

from referee.expert.language.logic import Logic
from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.space import where


def cycles(book) -> list[list]:
    """Each cycle once, as the list of derive productions on it (fact read -> producer)."""
    return Logic.of(book).cycles()


def check(book, ctx, problems) -> int:
    loops = cycles(book)
    for loop in loops:
        steps = " -> ".join(f"{p.id} (derives {p.derive!r}, {where(p)})" for p in loop)
        first = loop[0]
        report(problems, "error", "circularity",
               f"circular derivation: {steps} -> back to {first.id}; a fact cannot be derived from "
               "itself, so the engine cannot order these productions (remove one of the fact "
               "conditions, or derive from answers instead)",
               first, productions=[p.id for p in loop],
               provisions=sorted({c for p in loop for c in p.cites}))
    return len(loops)
