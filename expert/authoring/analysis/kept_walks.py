"""The verdicts of refutation walks kept between checks, per derived fact.

``Unfolder.refuted`` proves an alternative impossible by walking the few questions a fact's
derivations read: is the fact derived on every answer some literals allow? The verdicts are
memoised per fact as two lists (the literals on which it is always derived, those on which it
is not) and read by inclusion. A walk is most of what a conflict pair costs the first time a
process meets its productions (preferans: 100 walks over ``frame-tells`` and ``hand-unplayed``,
0.55 of the 0.69 s of the first dolaz pair), and a re-check after an edit meets them again, in
both of its processes (``check_split``), though the edit seldom touches those facts.

So each fact's lists are kept in the check's cache under a key of what the walks read: the
fact's producers and, transitively, what they read (``Analysis._digests``: the productions,
the questions with their gates and values). A fact whose derivations an edit changed has a
new key and is walked afresh; the others start from the verdicts of the last check. The cache
keeps one entry per fact (the newest): an entry of a fact no unit of this check asked about
is carried over as it was, so a check that needed no walk loses none.
"""
from __future__ import annotations

from referee.expert.language import conditions as cond

KIND = "walks"


class KeptWalks:
    def __init__(self, ctx):
        self.ctx = ctx
        self.asked: dict[str, tuple[str, tuple[list, list]]] = {}    # fact -> (key, its lists)
        self._literals: dict | None = None

    def lists(self, name: str) -> tuple[list, list]:
        """The fact's (proved, disproved) lists, started from the last check's where what its
        walks read is unchanged; the Unfolder adds to them."""
        cache = self.ctx.cache
        producers = [p.id for p in self.ctx.ev.producers.get(name, [])]
        key = cache.key_of(KIND, name, self.ctx._digests(producers, ()), [])
        found = cache.old.get(key)
        lists: tuple[list, list] = ([], [])
        if isinstance(found, dict) and found.get(KIND) == name:
            lists = (self._parts(found.get("proved")), self._parts(found.get("disproved")))
        self.asked[name] = (key, lists)
        return lists

    def entries(self) -> dict:
        """The cache entries of this check's walks, with the last check's of facts it did not
        ask about."""
        out: dict = {}
        for name, (key, (proved, disproved)) in self.asked.items():
            out[key] = {KIND: name, "proved": [_shown(p) for p in proved],
                        "disproved": [_shown(p) for p in disproved]}
        for key, value in self.ctx.cache.old.items():
            if isinstance(value, dict) and value.get(KIND) and value[KIND] not in self.asked:
                out.setdefault(key, value)
        return out

    def _parts(self, shown) -> list:
        """Kept literal sets as the rulebook's literals (a set naming a literal the rulebook no
        longer has is dropped: it cannot be asked about again)."""
        if self._literals is None:
            found: dict = {}
            ev = self.ctx.ev
            for alts in (*ev.alts.values(), *ev.gate_alts.values()):
                for alt in alts or ():
                    for pos, lit in alt:
                        if isinstance(lit, cond.AnswerTest):
                            found.setdefault(repr((pos, lit)), (pos, lit))
            self._literals = found
        out = []
        for part in shown if isinstance(shown, list) else ():
            try:
                out.append(frozenset(self._literals[x] for x in part))
            except (KeyError, TypeError):
                continue
        return out


def _shown(part: frozenset) -> list[str]:
    return sorted(repr(x) for x in part)


def merged(entries: dict, more: dict) -> dict:
    """Two processes' cache entries as one (``check_split``, ``check_jobs``): a walks entry
    both wrote holds the verdicts of both."""
    out = dict(entries)
    for key, value in more.items():
        mine = out.get(key)
        if isinstance(value, dict) and value.get(KIND) and isinstance(mine, dict) and mine.get(KIND):
            value = {KIND: value[KIND],
                     "proved": _union(mine.get("proved"), value.get("proved")),
                     "disproved": _union(mine.get("disproved"), value.get("disproved"))}
        out[key] = value
    return out


def _union(a, b) -> list:
    seen = {}
    for part in list(a or []) + list(b or []):
        seen.setdefault(tuple(part), part)
    return list(seen.values())
