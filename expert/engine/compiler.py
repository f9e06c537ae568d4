"""Compiling a rulebook's productions into one Experta KnowledgeEngine class.

Each production becomes one Experta rule per alternative of its condition (disjunctive normal
form). Saliences follow strata — a production fires only after every production that derives a
fact it reads — so negated facts and ``{findings: none}`` are read once they are final, and
precedence (``overrides``) and Član 22 (``keep_first``) run after all findings exist. Ties break
on the rule name, so the firing order is the same in every process.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.expert.language import conditions as cond
from referee.expert.language.logic import Logic
from referee.expert.engine.experta_compat import (AS, MATCH, NOT, TEST, BusNode, DepthStrategy, Fact,
                                                 FeatureTesterNode, KnowledgeEngine, P, Rule, Token,
                                                 already_normal, with_action)
from referee.expert.language.model import FINDING_KINDS, NOT_RULED_KINDS, Production, Rulebook


class Answer(Fact):
    """id: question id; value: the answer (lists become tuples)."""


class Derived(Fact):
    """name: a fact derived by a production."""


class Finding(Fact):
    """production: id; kind; claim: the claimed event it answers (or '')."""


class SetAside(Fact):
    """production: the finding set aside; by: the production that set it aside; reason."""


class StableOrder(DepthStrategy):
    """Experta's depth strategy with the rule name as the last tie-break."""

    def get_key(self, activation):
        facts = sorted((f["__factid__"] for f in activation.facts), reverse=True)
        return (activation.rule.salience, facts, activation.rule.__name__)


# Experta keeps every predicate function it sees; make each (operator, value) once.
@lru_cache(maxsize=None)
def _predicate(op: str, value: Any):
    test = cond.AnswerTest("", op, value)
    return P(test.holds)


_KIND_RULED = P(lambda k: k in FINDING_KINDS and k not in NOT_RULED_KINDS)
_KIND_ANY = P(lambda k: k in FINDING_KINDS)


def _freeze(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _pattern(lit: cond.Literal):
    if isinstance(lit, cond.FactTest):
        return Derived(name=lit.name)
    if isinstance(lit, cond.NoFindings):
        # read positively this is "some finding was made"; the caller negates it
        return Finding(kind=_KIND_ANY)
    if lit.op == "answered":
        return Answer(id=lit.question)
    if lit.op == "is":
        return Answer(id=lit.question, value=lit.value)
    return Answer(id=lit.question, value=_predicate(lit.op, _freeze(lit.value)))


def _patterns(conj: list[tuple[bool, cond.Literal]]) -> list:
    result = []
    for i, (positive, lit) in enumerate(conj):
        if isinstance(lit, cond.NoFindings):
            positive = not positive
        pattern = _pattern(lit)
        result.append(getattr(AS, f"f{i}") << pattern if positive else NOT(pattern))
    return result


def strata(book: Rulebook) -> dict[str, int]:
    """Stratum of each production: 0, or one more than the producers of the facts it reads."""
    return Logic.of(book).strata()


# The firing order, as phases. First the strata: a production of stratum k fires after every
# production that derives a fact it reads (its stratum is higher). Then, once every finding
# exists, in this order: precedence (``overrides`` sets the loser aside), Član 22 and the first
# renonsz (``keep_first`` rules only on the violation committed first), and last the productions
# that read what was found (``{findings: none}``, a finding of another production). Experta fires
# the higher salience first; ties break on the rule name (``RulebookEngine``).
LATE_PHASES = ("overrides", "keep_first", "reads_findings")


def salience(top: int, level: int = 0, phase: str | None = None) -> int:
    """The salience of a rule in stratum ``level``, or in one of the ``LATE_PHASES`` (which all
    come after the highest stratum, ``top``)."""
    if phase is None:
        return -10 * level
    return -10 * (top + 1 + LATE_PHASES.index(phase))


def compile_engine(book: Rulebook, only: set[str] | frozenset | None = None) -> type:
    """One KnowledgeEngine subclass for the rulebook; instantiate once, ``reset()`` per case.
    ``only``: compile just these productions (a group closed under the facts and findings its
    rules read, see ``ruler``), with the saliences they have in the whole rulebook."""
    levels = strata(book)
    top = max(levels.values(), default=0)
    attrs: dict[str, Any] = {}
    for p in sorted(book.productions, key=lambda p: p.id):
        if only is not None and p.id not in only:
            continue
        if p.action == "keep_first":
            rank = salience(top, phase="keep_first")
        elif cond.reads_findings(p.when):
            rank = salience(top, phase="reads_findings")
        else:
            rank = salience(top, levels[p.id])
        for n, conj in enumerate(cond.dnf(p.when)):
            name = f"{p.id}#{n}"
            patterns = _patterns(conj)
            if p.action == "keep_first":
                patterns += _keep_first_patterns(p)
            rule = already_normal(with_action(Rule(*patterns, salience=rank), _action(p, name)))
            attrs[f"rule_{len(attrs)}"] = rule
        for loser in p.overrides:
            name = f"{p.id}>{loser}"
            rule = already_normal(with_action(
                Rule(AS.f0 << Finding(production=p.id), AS.f1 << Finding(production=loser),
                     salience=salience(top, phase="overrides")),
                _override_action(p.id, loser, name)))
            attrs[f"rule_{len(attrs)}"] = rule
    attrs["__module__"] = __name__
    attrs["rule_names"] = tuple(name for name in attrs if name.startswith("rule_"))
    return type(f"{book.game.capitalize()}Engine", (RulebookEngine,), attrs)


def _later(order, ca, cb) -> bool:
    return ca in order and cb in order and order.index(ca) < order.index(cb)


def _keep_first_patterns(p: Production) -> list:
    # a production named under `among` competes whatever its kind (Production.ranks)
    kinds = _KIND_ANY if p.keep_first_among else _KIND_RULED
    patterns = [
        AS.order_fact << Answer(id=p.keep_first, value=MATCH.order),
        AS.first << Finding(production=MATCH.pa, claim=MATCH.ca, kind=MATCH.ka & kinds),
        # a finding another provision has set aside is not the violation ruled on first
        NOT(SetAside(production=MATCH.pa)),
        AS.later << Finding(production=MATCH.pb, claim=MATCH.cb, kind=MATCH.kb & kinds),
        TEST(_later),
    ]
    if p.keep_first_among or p.keep_first_except or p.keep_first_later:
        patterns.append(TEST(lambda pa, ka, pb, kb: p.ranks(pa, ka) and p.yields(pb, kb)))
    return patterns


class RulebookEngine(KnowledgeEngine):
    """Records which production fired on which facts: the reasoning trail of a ruling."""

    rule_names: tuple = ()

    def get_rules(self):
        # Experta finds rules by inspecting every attribute of the engine; ours are listed.
        return [getattr(self, name) for name in self.rule_names]

    def get_deffacts(self):
        # Experta inspects the engine on every reset() to find these; they never change.
        if not hasattr(self, "_deffacts"):
            self._deffacts = super().get_deffacts()
        return self._deffacts

    def __init__(self):
        super().__init__()
        self.strategy = StableOrder()
        self.trail: list[dict] = []
        # Experta resets the Rete network recursively, visiting a node once per path to it
        # (thousands of times per case on a large rulebook); reset each node once instead.
        nodes = _network_nodes(self.matcher.root_node)
        self.matcher.reset = lambda: [node._reset() for node in nodes]
        _poll_only_changed(self.matcher)
        for node in nodes:
            _dispatch_by_value(node)

    def reset(self, **kwargs):
        super().reset(**kwargs)
        self.trail = []

    def note(self, production: str, rule: str, bound: dict) -> None:
        facts = []
        for key in sorted(bound):
            fact = bound[key]
            if isinstance(fact, Answer):
                facts.append({"answer": fact["id"], "value": _thaw(fact["value"])})
            elif isinstance(fact, Derived):
                facts.append({"fact": fact["name"]})
            elif isinstance(fact, Finding):
                facts.append({"finding": fact["production"]})
        self.trail.append({"production": production, "rule": rule, "facts": facts})


def _poll_only_changed(matcher) -> None:
    """Experta asks every conflict-set node (one per rule) for new activations after each batch
    of facts and after each rule fired, so every ruling pays for every rule. A node records
    itself when a token reaches it; only those nodes are asked, in the network's order (the
    same activations, in the same order, as asking all)."""
    conflict_sets = matcher._get_conflict_set_nodes()
    rank = {id(node): i for i, node in enumerate(conflict_sets)}
    touched: dict[int, Any] = {}
    root = matcher.root_node

    for node in conflict_sets:
        def activate(token, node=node, own=node._activate):
            touched[rank[id(node)]] = node
            own(token)
        node._activate = activate

    def changes(adding=None, deleting=None):
        if deleting is not None:
            for fact in deleting:
                root.remove(fact)
        if adding is not None:
            for fact in adding:
                root.add(fact)
        added: list = []
        removed: list = []
        for i in sorted(touched):
            c_added, c_removed = touched[i].get_activations()
            added.extend(c_added)
            removed.extend(c_removed)
        touched.clear()
        return added, removed

    matcher.changes = changes


def _dispatch_by_value(node) -> None:
    """Experta hands each fact to every child of an alpha node, and each child tests one field
    against one constant: an Answer fact is tested against every question id the rulebook
    reads. Children that test ``field == constant`` are indexed here by their constant, so a
    fact reaches only those whose constant it carries (and every other child), in the order
    Experta would call them."""
    if not isinstance(node, (BusNode, FeatureTesterNode)) or len(node.children) < 8:
        return
    full = list(node.children)
    index: dict[str, dict] = {}
    plain: list[int] = []
    for i, child in enumerate(full):
        check = getattr(child.node, "matcher", None) if isinstance(child.node, FeatureTesterNode) else None
        what = getattr(check, "what", None)
        expected = getattr(check, "expected", None)
        try:
            indexable = (getattr(check, "check", None) is not None
                         and check.check.__name__ == "equal_literal"
                         and isinstance(what, str) and "__" not in what
                         and expected.__bind__ is None)
            if indexable:
                index.setdefault(what, {}).setdefault(expected.value, []).append(i)
                continue
        except (TypeError, AttributeError):
            pass
        plain.append(i)
    if not index:
        return

    def chosen(token):
        if len(token.data) != 1:
            return full
        fact = next(iter(token.data))
        picked = list(plain)
        try:
            for what, by_value in index.items():
                if what in fact:
                    picked += by_value.get(fact[what], ())
        except TypeError:                       # an unhashable value: test every child
            return full
        return [full[i] for i in sorted(picked)]

    if isinstance(node, BusNode):
        def add(fact, node=node):
            token = Token.valid(fact)
            for child in chosen(token):
                child.callback(token)

        def remove(fact, node=node):
            token = Token.invalid(fact)
            for child in chosen(token):
                child.callback(token)
        node.add, node.remove = add, remove
    else:
        own = node._activate

        def activate(token, node=node):
            node.children = chosen(token)
            try:
                own(token)
            finally:
                node.children = full
        node._activate = activate


def _network_nodes(root) -> list:
    seen: dict[int, Any] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(child.node for child in node.children)
    return list(seen.values())


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) or type(value).__name__ == "frozenlist" else value


def _action(p: Production, name: str):
    if p.action == "derive":
        def fire(engine, **bound):
            engine.note(p.id, name, bound)
            engine.declare(Derived(name=p.derive))
    elif p.action == "finding":
        kind, claim = p.kind, p.claim

        def fire(engine, **bound):
            engine.note(p.id, name, bound)
            engine.declare(Finding(production=p.id, kind=kind, claim=claim))
    else:
        def fire(engine, **bound):
            later, first = bound["later"], bound["first"]
            engine.note(p.id, name, {k: v for k, v in bound.items() if k in ("first", "later", "order_fact")})
            engine.declare(SetAside(production=later["production"], by=p.id, reason="later",
                                    after=first["production"]))
    fire.__name__ = name
    return fire


def _override_action(winner: str, loser: str, name: str):
    def fire(engine, **bound):
        engine.note(winner, name, bound)
        engine.declare(SetAside(production=loser, by=winner, reason="override", after=""))
    fire.__name__ = name
    return fire
