"""The one door to Experta.

Experta 1.9.4 pins frozendict 1.2, which subclasses ``collections.Mapping``; Python 3.10
removed that alias, so a bare ``import experta`` fails there. We restore the alias before
importing, and every other module imports Experta names from here, never directly.
"""
import collections
import collections.abc
import logging

if not hasattr(collections, "Mapping"):
    collections.Mapping = collections.abc.Mapping  # type: ignore[attr-defined]

from experta import (  # noqa: E402
    AS, MATCH, NOT, TEST, P, Fact, KnowledgeEngine, Rule,
)
from experta.strategies import DepthStrategy  # noqa: E402
from experta.fact import InitialFact  # noqa: E402
from experta.matchers.rete import ReteMatcher  # noqa: E402
from experta.matchers.rete.nodes import BusNode, FeatureTesterNode  # noqa: E402
from experta.matchers.rete.abstract import OneInputNode, TwoInputNode  # noqa: E402
from experta.matchers.rete.token import Token  # noqa: E402
from experta.matchers.rete.utils import extract_facts, prepare_rule  # noqa: E402

from referee.expert.engine import experta_network  # noqa: E402
from referee.expert.engine.experta_network import with_action, with_conditions  # noqa: E402


def already_normal(rule: Rule) -> Rule:
    """Mark a rule whose conditions are a flat conjunction of patterns (no OR, no nesting).

    Experta rewrites every rule into disjunctive normal form while it builds the network, which
    is most of an engine's build time; a rule we compiled flat is already in that form.
    """
    rule.already_normal = True
    return rule


def _prepare_ruleset(engine):
    prepared = set()
    for rule in engine.get_rules():
        if not getattr(rule, "already_normal", False):
            prepared.add(prepare_rule(rule))
        elif not rule or isinstance(rule[0], NOT) or not extract_facts(rule):
            prepared.add(with_conditions(rule, InitialFact(), *rule))
        else:
            prepared.add(with_conditions(rule, *rule))   # unbound from the engine, as Experta does
    return prepared


def _copy_token(token):
    """A token's copy without re-checking what ``Token.__new__`` checked when it was made (every
    datum a Fact, the context a mapping): Experta copies the token at every node it passes, and
    those checks were a quarter of a ruling's time. The same tuple, data and context copied."""
    return _new_tuple(type(token), (token.tag, token.data.copy(), token.context.copy()))


def _activate(node, token):
    return node._activate(_copy_token(token))


def _activate_left(node, token):
    return node._activate_left(_copy_token(token))


def _activate_right(node, token):
    return node._activate_right(_copy_token(token))


_new_tuple = tuple.__new__
Token.copy = _copy_token
# a node's activation as Experta's, without asking its debug watcher first at every node (we
# never turn Experta's watchers on)
OneInputNode.activate = _activate
TwoInputNode.activate_left = _activate_left
TwoInputNode.activate_right = _activate_right
ReteMatcher.prepare_ruleset = staticmethod(_prepare_ruleset)
experta_network.install()

# experta calls logging.basicConfig() on import; keep our own output clean.
logging.basicConfig(level=logging.WARNING, force=True)

__all__ = ["AS", "MATCH", "NOT", "TEST", "P", "Fact", "KnowledgeEngine", "Rule", "DepthStrategy",
           "already_normal", "with_action", "BusNode", "FeatureTesterNode", "Token"]
