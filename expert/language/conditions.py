"""The condition language: parsing from YAML, two- and three-valued evaluation, normal form.

A condition is a tree of ``All``/``Any``/``Not`` over literals. Literals test one answer
(``AnswerTest``), a derived fact (``FactTest``) or the absence of findings (``NoFindings``).
The same tree is compiled to Experta patterns (``compiler``) and evaluated here with unknowns
for the interview, so both readings share one parser.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Union

from referee.expert.language.errors import RefereeError
from referee.expert.language.yamlio import where

ANSWER_OPS = ("is", "in", "has", "count_ge", "ge", "gt", "le", "lt", "answered")
MAX_DISJUNCTS = 256


@dataclass(frozen=True)
class AnswerTest:
    question: str
    op: str
    value: Any

    def __post_init__(self):
        # hashed once: literals are set members and dict keys throughout the analyses
        object.__setattr__(self, "_hash", hash((self.question, self.op, self.value)))

    def __hash__(self) -> int:
        return self._hash

    def holds(self, answer: Any) -> bool:
        """True/False for an answered question (``answer`` is not None)."""
        op, v = self.op, self.value
        if op == "answered":
            return True
        if op == "is":
            return answer == v
        if op == "in":
            return answer in v
        if op == "has":
            return isinstance(answer, (list, tuple)) and v in answer
        if op == "count_ge":
            return isinstance(answer, (list, tuple)) and len(answer) >= v
        if not isinstance(answer, (int, float)) or isinstance(answer, bool):
            return False
        return {"ge": answer >= v, "gt": answer > v, "le": answer <= v, "lt": answer < v}[op]


@dataclass(frozen=True)
class FactTest:
    name: str

    def __hash__(self) -> int:
        return hash(self.name)


# Each literal parsed once per distinct (class, question, op, value and its type): the same
# object wherever a rulebook writes it, so sets and dicts of literals (the check's normal forms)
# find it by identity instead of comparing field by field.
_LITERALS: dict = {}


def _interned(lit):
    if isinstance(lit, AnswerTest):
        key = (AnswerTest, lit.question, lit.op, type(lit.value), lit.value)
    else:
        key = (FactTest, lit.name)
    if len(_LITERALS) >= 200_000:        # a long-lived process loading many rulebooks: bounded
        _LITERALS.clear()
    return _LITERALS.setdefault(key, lit)


@dataclass(frozen=True)
class NoFindings:
    pass


@dataclass(frozen=True)
class All:
    parts: tuple


@dataclass(frozen=True)
class Any_:
    parts: tuple


@dataclass(frozen=True)
class Not:
    part: Any


Literal = Union[AnswerTest, FactTest, NoFindings]
Condition = Union[Literal, All, Any_, Not]
TRUE = All(())


def parse(node: Any, file: str | None = None) -> Condition:
    """Parse a YAML condition; raise RefereeError with file:line on a malformed one."""
    f, line = where(node)
    f = f or file

    def fail(msg: str):
        raise RefereeError(f"condition {msg}", f, line)

    if not isinstance(node, Mapping):
        fail(f"must be a mapping such as {{q: ID, is: VALUE}}, got {node!r}")
    keys = set(node)
    if keys == {"all"} or keys == {"any"}:
        key = next(iter(keys))
        parts = node[key]
        if not isinstance(parts, list) or not parts:
            fail(f"'{key}' needs a non-empty list of conditions")
        parsed = tuple(parse(p, f) for p in parts)
        return All(parsed) if key == "all" else Any_(parsed)
    if keys == {"not"}:
        return Not(parse(node["not"], f))
    if keys == {"fact"}:
        if not isinstance(node["fact"], str) or not node["fact"]:
            fail("'fact' needs the name of a derived fact")
        return _interned(FactTest(node["fact"]))
    if keys == {"findings"}:
        if node["findings"] != "none":
            fail("'findings' only takes the value none")
        return NoFindings()
    if "q" in keys:
        ops = keys - {"q"}
        if len(ops) != 1 or not ops <= set(ANSWER_OPS):
            fail(f"on q={node.get('q')!r} needs exactly one of {', '.join(ANSWER_OPS)}")
        op = ops.pop()
        value = node[op]
        if op == "in":
            if not isinstance(value, list) or not value:
                fail("'in' needs a non-empty list of values")
            value = tuple(value)
        elif op in ("count_ge", "ge", "gt", "le", "lt"):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                fail(f"'{op}' needs a number, got {value!r}")
        elif op == "answered":
            if not isinstance(value, bool):
                fail("'answered' needs true or false")
            test = _interned(AnswerTest(str(node["q"]), "answered", True))
            return test if value else Not(test)
        elif isinstance(value, (list, dict)):
            fail(f"'{op}' needs a single value, got {value!r}")
        return _interned(AnswerTest(str(node["q"]), op, value))
    fail(f"not understood: keys {sorted(map(str, keys))}; expected q/is|in|has|count_ge|ge|gt|le|lt|answered, "
         "fact, findings, all, any or not")


def literals(cond: Condition) -> Iterator[Literal]:
    if isinstance(cond, (All, Any_)):
        for p in cond.parts:
            yield from literals(p)
    elif isinstance(cond, Not):
        yield from literals(cond.part)
    else:
        yield cond


def questions_read(cond: Condition) -> set[str]:
    return {lit.question for lit in literals(cond) if isinstance(lit, AnswerTest)}


def facts_read(cond: Condition) -> set[str]:
    return {lit.name for lit in literals(cond) if isinstance(lit, FactTest)}


def reads_findings(cond: Condition) -> bool:
    return any(isinstance(lit, NoFindings) for lit in literals(cond))


# --- evaluation ------------------------------------------------------------------------

def evaluate(cond: Condition, value_of) -> bool | None:
    """Kleene three-valued evaluation; ``value_of(literal)`` gives True, False or None."""
    if isinstance(cond, All):
        result: bool | None = True
        for p in cond.parts:
            v = evaluate(p, value_of)
            if v is False:
                return False
            if v is None:
                result = None
        return result
    if isinstance(cond, Any_):
        result = False
        for p in cond.parts:
            v = evaluate(p, value_of)
            if v is True:
                return True
            if v is None:
                result = None
        return result
    if isinstance(cond, Not):
        v = evaluate(cond.part, value_of)
        return None if v is None else not v
    return value_of(cond)


# --- disjunctive normal form ------------------------------------------------------------

def dnf(cond: Condition) -> list[list[tuple[bool, Literal]]]:
    """Disjuncts of (positive, literal) pairs; each becomes one Experta rule."""
    result = _dnf(cond, True)
    if len(result) > MAX_DISJUNCTS:
        raise RefereeError(f"condition expands to {len(result)} alternatives, at most {MAX_DISJUNCTS}")
    return result


def _dnf(cond: Condition, positive: bool) -> list[list[tuple[bool, Literal]]]:
    if isinstance(cond, Not):
        return _dnf(cond.part, not positive)
    if isinstance(cond, (All, Any_)):
        conjunctive = isinstance(cond, All) == positive
        parts = [_dnf(p, positive) for p in cond.parts]
        if not conjunctive:
            return [d for part in parts for d in part]
        product: list[list[tuple[bool, Literal]]] = [[]]
        for part in parts:
            product = [a + b for a in product for b in part]
            if len(product) > MAX_DISJUNCTS:
                raise RefereeError(f"condition expands to more than {MAX_DISJUNCTS} alternatives")
        return product
    return [[(positive, cond)]]
