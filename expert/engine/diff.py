"""What changed between two rulings on the same dispute (`whatif`, an appeal): findings added,
removed or changed (kind or penalty), set-asides, and the entries on the score sheet per player.

It works on rulings as their JSON contract gives them (``Ruling.to_dict()``, or a record's
copy), so an appeal can compare the sealed original with the new decision.
"""
from __future__ import annotations

from typing import Any


def _key(f: dict) -> tuple:
    return (f.get("event", 1), f.get("production"))


def _penalty(f: dict) -> list[tuple]:
    return sorted((str(p.get("player")), str(p.get("effect")), repr(p.get("amount")), str(p.get("against") or ""))
                  for p in f.get("penalty") or [])


def _entries(ruling: dict) -> dict[tuple, Any]:
    result = ruling.get("result") or {}
    return {(e.get("player"), e.get("item"), e.get("against")): e.get("amount")
            for e in result.get("entries") or [] if e.get("item")}


def _penalties(ruling: dict) -> dict[tuple, Any]:
    """The standing findings' effects summed per (player, effect, against): what changes per
    player where the rulebook has no score sheet."""
    totals: dict[tuple, Any] = {}
    for f in ruling.get("findings") or []:
        for p in f.get("penalty") or []:
            key = (p.get("player"), p.get("effect"), p.get("against"))
            amount = p.get("amount")
            if isinstance(amount, (int, float)) and isinstance(totals.get(key, 0), (int, float)):
                totals[key] = totals.get(key, 0) + amount
            else:
                totals[key] = amount if key not in totals else totals[key]
    return totals


def ruling_diff(before: dict, after: dict) -> dict:
    b = {_key(f): f for f in before.get("findings") or []}
    a = {_key(f): f for f in after.get("findings") or []}
    out: dict[str, Any] = {"added": [], "removed": [], "changed": [], "unchanged": [],
                           "set_aside_added": [], "set_aside_removed": [], "entries": [],
                           "penalties": []}
    for k, f in a.items():
        if k not in b:
            out["added"].append(_brief(f))
    for k, f in b.items():
        if k not in a:
            out["removed"].append(_brief(f))
        elif (f.get("kind"), _penalty(f)) != (a[k].get("kind"), _penalty(a[k])):
            out["changed"].append({"before": _brief(f), "after": _brief(a[k])})
        else:
            out["unchanged"].append(_brief(f))
    nb = {_key(n) for n in before.get("not_ruled") or []}
    na = {_key(n) for n in after.get("not_ruled") or []}
    out["set_aside_added"] = [_brief(n) for n in after.get("not_ruled") or [] if _key(n) not in nb]
    out["set_aside_removed"] = [_brief(n) for n in before.get("not_ruled") or [] if _key(n) not in na]
    eb, ea = _entries(before), _entries(after)
    for key in sorted(set(eb) | set(ea), key=repr):
        if eb.get(key) != ea.get(key):
            player, item, against = key
            out["entries"].append({"player": player, "item": item, "against": against,
                                   "before": eb.get(key), "after": ea.get(key)})
    pb, pa = _penalties(before), _penalties(after)
    for key in sorted(set(pb) | set(pa), key=repr):
        if pb.get(key) != pa.get(key):
            player, effect, against = key
            out["penalties"].append({"player": player, "effect": effect, "against": against,
                                     "before": pb.get(key), "after": pa.get(key)})
    out["no_infraction"] = {"before": bool(before.get("no_infraction")), "after": bool(after.get("no_infraction"))}
    out["unchanged_ruling"] = not any(out[k] for k in ("added", "removed", "changed", "set_aside_added",
                                                        "set_aside_removed", "entries"))
    return out


def _brief(f: dict) -> dict:
    return {"event": f.get("event", 1), "production": f.get("production"), "provisions": f.get("provisions") or [],
            "article": f.get("article"), "kind": f.get("kind"), "summary": f.get("summary"),
            "penalty": f.get("penalty") or []}
