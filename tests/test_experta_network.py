"""The faster network build (expert/experta_network.py) builds the network Experta would build."""
import abc
import functools
from collections import Counter

import pytest

from referee.expert.engine import experta_compat  # noqa: F401  (installs the faster build
from referee.expert.language.answers import check_all
from referee.expert.engine.compiler import compile_engine
from referee.expert.engine.experta_network import MroDispatch
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler

import experta.matchers.rete as rete
import experta.matchers.rete.utils as rete_utils


class Base: ...
class Middle(Base): ...
class Leaf(Middle): ...


def test_dispatch_takes_the_nearest_registered_class_on_the_mro():
    pick = MroDispatch(lambda x: "default")
    pick.register(Base)(lambda x: "base")
    pick.register(Middle, lambda x: "middle")
    assert (pick(Leaf()), pick(Middle()), pick(Base()), pick(3)) == ("middle", "middle", "base", "default")
    pick.register(Leaf, lambda x: "leaf")        # a later registration is seen by a warm cache
    assert pick(Leaf()) == "leaf"


def test_dispatch_refuses_abstract_classes():
    class Abstract(abc.ABC): ...
    with pytest.raises(TypeError):
        MroDispatch(lambda x: None).register(Abstract)


def _shape(root):
    """Node kinds and edge count of a network: equal shapes for equal builds."""
    seen, stack, kinds, edges = set(), [root], Counter(), 0
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kinds[type(node).__name__] += 1
        edges += len(node.children)
        stack.extend(child.node for child in node.children)
    return kinds, edges


def _stock_engine(book, monkeypatch):
    """The same rulebook's engine built entirely by Experta's own code."""
    monkeypatch.setattr(rete_utils, "singledispatch", functools.singledispatch)
    monkeypatch.setattr(rete.ReteMatcher, "prepare_ruleset",
                        staticmethod(lambda engine: {rete_utils.prepare_rule(r) for r in engine.get_rules()}))
    return compile_engine(book)()


@pytest.mark.parametrize("game", ["skat", "ulti"])
def test_same_network_and_rulings_as_experta_builds(game, monkeypatch):
    book = load_rulebook(game)
    fast = Ruler(book)
    with monkeypatch.context() as patch:
        stock = Ruler.__new__(Ruler)
        stock.__dict__.update(fast.__dict__)
        stock.engine = _stock_engine(book, patch)
    assert rete_utils.singledispatch is MroDispatch
    assert _shape(fast.engine.matcher.root_node) == _shape(stock.engine.matcher.root_node)
    for case in book.cases:
        answers = check_all(case.answers, book)
        assert fast.rule(answers).to_dict() == stock.rule(answers).to_dict(), case.name
