"""Seat references and amount expressions in findings: static checks and evaluation.

Both are small data languages (see knowledge/README.md); nothing is evaluated as Python.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.expert.language.model import UNKNOWN, Rulebook

ARITH = ("mul", "add", "sub", "min", "max")


class Unresolved(Exception):
    """An expression needs an answer that was not given."""

    def __init__(self, question: str):
        super().__init__(question)
        self.question = question


# --- static checks: each returns a list of messages, and reports the questions read -----

def check_seat_ref(ref: Any, book: Rulebook, reads: set[str]) -> list[str]:
    seats = set(book.seat_ids)
    if isinstance(ref, str):
        return [] if ref in seats else [f"unknown seat {ref!r}, expected one of {', '.join(book.seat_ids)}"]
    if isinstance(ref, dict) and len(ref) >= 1:
        if set(ref) == {"answer"}:
            reads.add(str(ref["answer"]))
            q = book.questions.get(str(ref["answer"]))
            if q is None:
                return [f"seat reference reads unknown question {ref['answer']!r}"]
            return [] if q.type == "seat" else [f"seat reference reads {q.id!r}, which is not a seat question"]
        if set(ref) == {"other_than", "among"}:
            msgs = []
            for r in ref["other_than"] or []:
                msgs += check_seat_ref(r, book, reads)
            msgs += [f"unknown seat {s!r} in among" for s in ref["among"] or [] if s not in seats]
            return msgs
        key = next(iter(ref))
        if len(ref) == 1 and key in ("partner_of", "lho_of", "rho_of"):
            msgs = check_seat_ref(ref[key], book, reads)
            if key == "partner_of" and not book.partnerships:
                msgs.append("partner_of needs partnerships in rulebook.yaml")
            return msgs
    return [f"seat reference {ref!r} not understood, expected a seat, {{answer: Q}}, "
            "{other_than: [...], among: [...]}, {partner_of|lho_of|rho_of: REF}"]


def check_amount(expr: Any, book: Rulebook, reads: set[str]) -> list[str]:
    if expr is None or (isinstance(expr, (int, float)) and not isinstance(expr, bool)):
        return []
    if isinstance(expr, dict):
        if "param" in expr and set(expr) <= {"param", "key"}:
            name = expr["param"]
            if name not in book.parameters:
                return [f"unknown parameter {name!r}"]
            msgs = []
            keys = expr.get("key")
            for k in (keys if isinstance(keys, list) else [keys] if keys is not None else []):
                if isinstance(k, dict):
                    if set(k) != {"answer"}:
                        msgs.append(f"parameter key {k!r} must be a value or {{answer: Q}}")
                    else:
                        reads.add(str(k["answer"]))
                        if str(k["answer"]) not in book.questions:
                            msgs.append(f"parameter key reads unknown question {k['answer']!r}")
            return msgs
        if set(expr) == {"answer"}:
            reads.add(str(expr["answer"]))
            q = book.questions.get(str(expr["answer"]))
            if q is None:
                return [f"amount reads unknown question {expr['answer']!r}"]
            return [] if q.type == "number" else [f"amount reads {q.id!r}, which is not a number question"]
        if len(expr) == 1 and next(iter(expr)) in ARITH and isinstance(next(iter(expr.values())), list):
            msgs = []
            for part in next(iter(expr.values())):
                msgs += check_amount(part, book, reads)
            return msgs
    return [f"amount {expr!r} not understood, expected a number, null, {{param: P, key: K}}, "
            "{answer: Q} or {mul|add|sub|min|max: [...]}"]


# --- evaluation ------------------------------------------------------------------------

def seat_of(ref: Any, book: Rulebook, answers: dict) -> str:
    if isinstance(ref, str):
        return ref
    if "answer" in ref:
        value = answers.get(ref["answer"])
        if value is None or value == UNKNOWN:
            raise Unresolved(ref["answer"])
        return value
    if "other_than" in ref:
        excluded = {seat_of(r, book, answers) for r in ref["other_than"]}
        left = [s for s in ref["among"] if s not in excluded]
        return left[0] if len(left) == 1 else " / ".join(left)
    key = next(iter(ref))
    seat = seat_of(ref[key], book, answers)
    if key == "partner_of":
        for pair in book.partnerships:
            if seat in pair:
                return [s for s in pair if s != seat][0]
        return seat
    order = book.seat_ids
    step = 1 if key == "lho_of" else -1
    return order[(order.index(seat) + step) % len(order)]


def amount_of(expr: Any, book: Rulebook, answers: dict) -> float | int | None:
    if expr is None or isinstance(expr, (int, float)):
        return expr
    if "param" in expr:
        value = book.parameters[expr["param"]].get("value")
        keys = expr.get("key")
        for k in (keys if isinstance(keys, list) else [keys] if keys is not None else []):
            if isinstance(k, dict):
                question = k["answer"]
                k = answers.get(question)
                if k is None or k == UNKNOWN:
                    raise Unresolved(question)
            if not isinstance(value, dict) or k not in value:
                return None
            value = value[k]
        return value
    if "answer" in expr:
        value = answers.get(expr["answer"])
        if value is None or value == UNKNOWN:
            raise Unresolved(expr["answer"])
        return value
    op, parts = next(iter(expr.items()))
    values = [amount_of(p, book, answers) for p in parts]
    if any(v is None for v in values):
        return None
    fold: dict[str, Callable] = {
        "mul": lambda vs: _product(vs), "add": sum, "min": min, "max": max,
        "sub": lambda vs: vs[0] - sum(vs[1:]),
    }
    return fold[op](values)


def amount_working(expr: Any, book: Rulebook, answers: dict) -> str | None:
    """How a computed amount is reached, in numbers: "2 × (1 + 4)". Factors of 1 and terms of 0
    are left out. None when there is nothing to show (a plain number or parameter, or a single
    factor left) or when an answer it needs is missing."""
    if not isinstance(expr, dict) or "param" in expr or "answer" in expr:
        return None
    try:
        text, _value, parts = _working(expr, book, answers)
    except Unresolved:
        return None
    return text if parts > 1 else None


def _working(expr: Any, book: Rulebook, answers: dict) -> tuple[str, Any, int]:
    """(text, value, number of parts shown) of an amount expression."""
    if not isinstance(expr, dict) or "param" in expr or "answer" in expr:
        value = amount_of(expr, book, answers)
        return ("?" if value is None else f"{value:g}" if isinstance(value, float) else str(value)), value, 1
    op, parts = next(iter(expr.items()))
    shown = [_working(p, book, answers) for p in parts]
    value = amount_of(expr, book, answers)
    if op in ("min", "max"):
        return f"{op}({', '.join(t for t, _, _ in shown)})", value, 2
    neutral = {"mul": 1, "add": 0}.get(op)
    kept = [w for w in shown if neutral is None or w[1] != neutral] or shown[:1]
    if len(kept) == 1:
        return kept[0]
    text = {"mul": " × ", "add": " + ", "sub": " − "}[op].join(
        f"({t})" if n > 1 and not t.startswith(("min(", "max(")) else t for t, _, n in kept)
    return text, value, len(kept)


def _product(values):
    result = 1
    for v in values:
        result *= v
    return result


def params_in(expr: Any, out: list[str] | None = None) -> list[str]:
    """The rulebook parameters an amount expression (or a list of them) reads, in order."""
    out = [] if out is None else out
    if isinstance(expr, dict):
        if "param" in expr and str(expr["param"]) not in out:
            out.append(str(expr["param"]))
        for v in expr.values():
            params_in(v, out)
    elif isinstance(expr, list):
        for v in expr:
            params_in(v, out)
    return out


def questions_in_finding(finding: dict) -> set[str]:
    """Questions a finding's seat references and amounts read (for interview relevance)."""
    reads: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"answer"}:
                reads.add(str(node["answer"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk({k: v for k, v in finding.items() if k in ("offender", "penalty")})
    return reads
