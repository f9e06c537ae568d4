"""Circularity: derived facts that depend on themselves.

``compiler.strata`` raises on the first cycle; here every cycle is found and reported as an
error naming each production on it (file:line), so the rule author sees the whole loop.
"""
from __future__ import annotations

from referee.expert.language import conditions as cond
from referee.expert.authoring.analysis import report
from referee.expert.authoring.analysis.space import where


def cycles(book) -> list[list]:
    """Each cycle once, as the list of derive productions on it (fact read -> producer)."""
    producers: dict[str, list] = {}
    for p in book.productions:
        if p.action == "derive":
            producers.setdefault(p.derive, []).append(p)
    found: list[list] = []
    keys: set = set()
    state: dict[str, int] = {}
    stack: list = []

    def visit(p):
        state[p.id] = 1
        stack.append(p)
        for name in sorted(cond.facts_read(p.when)):
            for q in producers.get(name, []):
                if state.get(q.id) == 1:
                    loop = stack[stack.index(q):]
                    key = frozenset(x.id for x in loop)
                    if key not in keys:
                        keys.add(key)
                        found.append(list(loop))
                elif not state.get(q.id):
                    visit(q)
        stack.pop()
        state[p.id] = 2

    for p in book.productions:
        if p.action == "derive" and not state.get(p.id):
            visit(p)
    return found


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
