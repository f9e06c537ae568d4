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

# experta calls logging.basicConfig() on import; keep our own output clean.
logging.basicConfig(level=logging.WARNING, force=True)

__all__ = ["AS", "MATCH", "NOT", "TEST", "P", "Fact", "KnowledgeEngine", "Rule", "DepthStrategy"]
