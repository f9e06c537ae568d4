"""Seat references and amount expressions in findings: static checks and evaluation.

Both are small data languages (see knowledge/README.md); nothing is evaluated as Python.
"""
from __future__ import annotations

from typing import Any, Callable

from referee.expert.language.model import UNKNOWN, Rulebook

ARITH = ("mul", "add", "sub", "min", "max")


def _unknown(value: Any) -> bool:
    return (isinstance(value, str) and value == UNKNOWN) or (isinstance(value, dict) and set(value) == {UNKNOWN})


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
        if set(expr) == {"if", "then", "else"}:
            from referee.expert.language import conditions as cond
            try:
                test = _condition(expr)
            except Exception as exc:  # a malformed condition: say so where the amount is
                return [f"amount 'if': {getattr(exc, 'message', exc)}"]
            msgs = []
            for lit in cond.literals(test):
                if not isinstance(lit, cond.AnswerTest):
                    msgs.append("amount 'if' may test answers only (no fact, no findings)")
                elif lit.question not in book.questions:
                    msgs.append(f"amount 'if' reads unknown question {lit.question!r}")
                else:
                    reads.add(lit.question)
            return msgs + check_amount(expr["then"], book, reads) + check_amount(expr["else"], book, reads)
        if set(expr) <= {"item", "of"} and "item" in expr:
            score = getattr(book, "score", None) or {}
            items = [i.get("id") for i in score.get("items") or [] if isinstance(i, dict)]
            msgs = [] if expr["item"] in items else [f"amount reads score item {expr['item']!r}, "
                                                     f"expected one of {', '.join(map(str, items)) or 'none'}"]
            if "of" in expr:
                msgs += check_seat_ref(expr["of"], book, reads)
            return msgs
    return [f"amount {expr!r} not understood, expected a number, null, {{param: P, key: K}}, "
            "{answer: Q}, {mul|add|sub|min|max: [...]}, {if: CONDITION, then: A, else: B} or "
            "{item: SCORE_ITEM, of: SEAT}"]


_CONDITIONS: dict[int, tuple] = {}


def _condition(expr: dict):
    """The parsed condition of an ``if`` amount (parsed once; the rulebook keeps the mapping)."""
    from referee.expert.language import conditions as cond
    cached = _CONDITIONS.get(id(expr))
    if cached is None or cached[0] is not expr:
        cached = (expr, cond.parse(expr["if"]))
        _CONDITIONS[id(expr)] = cached
    return cached[1]


def holds(test, answers: dict) -> bool:
    """A condition on answers only, two-valued; an answer it needs that is missing or unknown
    raises Unresolved."""
    from referee.expert.language import conditions as cond

    def literal(lit):
        value = answers.get(lit.question)
        if value is None or _unknown(value):
            raise Unresolved(lit.question)
        return lit.holds(value)
    return bool(cond.evaluate(test, literal))


# --- evaluation ------------------------------------------------------------------------

def seat_of(ref: Any, book: Rulebook, answers: dict) -> str:
    if isinstance(ref, str):
        return ref
    if "answer" in ref:
        value = answers.get(ref["answer"])
        if value is None or _unknown(value):
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


def amount_of(expr: Any, book: Rulebook, answers: dict, items: dict | None = None) -> float | int | None:
    """``items``: in a score, the totals of the entries made so far, by (item, seat)."""
    if expr is None or isinstance(expr, (int, float)):
        return expr
    if "if" in expr:
        branch = expr["then"] if holds(_condition(expr), answers) else expr["else"]
        return amount_of(branch, book, answers, items)
    if "item" in expr:
        seat = seat_of(expr["of"], book, answers) if "of" in expr else None
        totals = items or {}
        return sum(v for (item, who), v in totals.items() if item == expr["item"] and (seat is None or who == seat))
    if "param" in expr:
        value = book.parameters[expr["param"]].get("value")
        keys = expr.get("key")
        for k in (keys if isinstance(keys, list) else [keys] if keys is not None else []):
            if isinstance(k, dict):
                question = k["answer"]
                k = answers.get(question)
                if k is None or _unknown(k):
                    raise Unresolved(question)
            if not isinstance(value, dict) or k not in value:
                return None
            value = value[k]
        return value
    if "answer" in expr:
        value = answers.get(expr["answer"])
        if value is None or _unknown(value):
            raise Unresolved(expr["answer"])
        return value
    op, parts = next(iter(expr.items()))
    values = [amount_of(p, book, answers, items) for p in parts]
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
    if isinstance(expr, dict) and "if" in expr:
        return _working(expr["then"] if holds(_condition(expr), answers) else expr["else"], book, answers)
    if not isinstance(expr, dict) or "param" in expr or "answer" in expr or "item" in expr:
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


def questions_in_amounts(node: Any) -> set[str]:
    """Questions any amounts or seat references under ``node`` read."""
    return questions_in_finding({"penalty": node})


def questions_in_finding(finding: dict) -> set[str]:
    """Questions a finding's seat references and amounts read (for interview relevance)."""
    reads: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"answer"}:
                reads.add(str(node["answer"]))
            if set(node) == {"if", "then", "else"}:
                from referee.expert.language import conditions as cond
                reads.update(cond.questions_read(_condition(node)))
                walk(node["then"])
                walk(node["else"])
                return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk({k: v for k, v in finding.items() if k in ("offender", "penalty")})
    return reads
