"""The register and verification for people, as plain data for the ``register_*.txt.j2`` and
``verify*.txt.j2`` templates: ``register list``, ``search``, ``show``, ``stats``, the precedents of
a provision, ``referee verify`` and ``referee register verify``.

``expert.records`` stores, searches and checks; these views only pick out what each listing shows,
and the templates word and lay it out. The register holds what players and referees typed: each
view first makes every string one line with its control characters shown (``deep_clean``), so a
column is as wide as what is printed in it, and the environment's ``finalize`` escapes every
value again where it is inserted.
"""
from __future__ import annotations

import json
from typing import Any

from referee.expert.language.safe_text import deep_clean
from referee.expert.records.record import format_code
from referee.expert.records.register import conditional_summary, finding_line
from referee.reports.render import render_template

LIST_COLUMNS = ("id", "code", "date", "table", "deal", "referee")
MEETING = ("date", "table", "deal", "referee")     # where and when a ruling was made, by whom


def _cell(v: Any) -> str:
    return "" if v is None else str(v)


def _penalty(p: dict) -> dict:
    return {"player": p.get("player"), "effect": p.get("effect"), "amount": p.get("amount"),
            "against": p.get("against")}


def list_view(rows: list[dict]) -> dict:
    """``register list`` / ``search``: one row per ruling, the cells as printed, and each column's
    width (the widest of its heading and its cells)."""
    rows = deep_clean(rows)
    out = [{"id": str(r["id"]), "code": format_code(r["code"]), "date": _cell(r["date"]),
            "table": _cell(r["table"]), "deal": _cell(r["deal"]), "referee": _cell(r["referee"]),
            "findings": r["findings"], "no_infraction": r["no_infraction"], "kind": r["kind"],
            "appeal_of": r.get("appeal_of"), "appeals": r.get("appeals"),
            "conditional": r.get("conditional")} for r in rows]
    heads = {"id": "#", "code": "code", "date": "date", "table": "table", "deal": "deal", "referee": "referee"}
    widths = {c: max(len(heads[c]), *(len(r[c]) for r in out)) for c in LIST_COLUMNS} if out else {}
    return {"columns": LIST_COLUMNS, "rows": out, "heads": heads, "widths": widths}


def show_view(shown: dict) -> dict:
    """``register show``: one ruling in full, with its appeals or the ruling it appeals."""
    shown = deep_clean(shown)
    rec = shown["record"]
    rb = rec.get("rulebook") or {}
    hdr = rec.get("header") or {}
    meta = [(k, rec.get(k)) for k in MEETING if rec.get(k) is not None]
    if hdr.get("tournament"):
        meta.insert(0, ("tournament", hdr["tournament"]))
    original = shown.get("original")
    appeal = rec.get("appeal") or {}
    times = rec.get("answer_times") or {}
    return {
        "appeal": rec.get("kind") == "appeal", "id": shown["id"], "code": format_code(rec["code"]),
        "game": rb.get("game"), "edition": rb.get("edition"), "hash": rb.get("hash"), "meta": meta,
        "players": list(hdr["players"].items()) if isinstance(hdr.get("players"), dict) else [],
        "original": {"id": original["id"], "code": format_code(original["code"]),
                     "note": appeal.get("note"),
                     "amended": [{"question": a["question"], "before": a.get("before"), "after": a.get("after")}
                                 for a in appeal.get("amended") or []]} if original else None,
        "answers": [{"question": q, "value": v, "at": times.get(q)} for q, v in (rec.get("answers") or {}).items()],
        "cards": None if rec.get("cards") is None else json.dumps(rec["cards"], ensure_ascii=False),
        "findings": [{"line": finding_line(f), "penalty": [_penalty(p) for p in f.get("penalty") or []]}
                     for f in rec.get("findings") or []],
        "no_infraction": bool(rec.get("no_infraction")),
        "conditional": conditional_summary(rec),
        "set_aside": [{"provisions": n.get("provisions") or [], "reason": n.get("reason")}
                      for n in rec.get("not_ruled") or []],
        "trail": [t.get("production") for t in rec.get("trail") or []],
        "appeals": [_appeal_line(a) for a in shown.get("appeals") or []],
    }


def _appeal_line(a: dict) -> dict:
    d = a.get("differences") or {}
    return {"id": a["id"], "code": format_code(a["code"]), "date": a.get("date"), "note": a.get("note"),
            "unchanged": bool(d.get("unchanged")), "added": len(d.get("findings_added") or []),
            "removed": len(d.get("findings_removed") or []), "changed": len(d.get("findings_changed") or [])}


def stats_view(stats: dict) -> dict:
    """``register stats``: rulings and appeals counted, per referee, table and date, and the
    most-cited provisions and articles."""
    return deep_clean(stats)


def precedents_view(provision: str, rows: list[dict]) -> dict:
    """``register search --provision``: how the provision was ruled before."""
    provision, rows = deep_clean(provision), deep_clean(rows)
    return {"provision": provision, "rulings": [
        {"id": r["id"], "code": format_code(r["code"]), "appeal": r["kind"] == "appeal",
         "meta": [(k, r[k]) for k in MEETING if r.get(k)],
         "findings": [{"line": finding_line(f), "penalty": [_penalty(p) for p in f.get("penalty") or []]}
                      for f in r["findings"]],
         "set_aside": [n.get("reason") for n in r["not_ruled"]]} for r in rows]}


def verification_view(v) -> dict:
    """``referee verify``: what ``expert.records.record.verify`` found (a ``Verification``)."""
    return deep_clean(v.to_dict())


def register_check_view(check, path) -> dict:
    """``referee register verify``: what ``expert.records.register_check`` found."""
    return deep_clean({**check.to_dict(), "path": str(path)})


def list_text(rows: list[dict]) -> str:
    return render_template("register_list.txt.j2", **list_view(rows))


def show_text(shown: dict) -> str:
    return render_template("register_show.txt.j2", **show_view(shown))


def stats_text(stats: dict) -> str:
    return render_template("register_stats.txt.j2", **stats_view(stats))


def precedents_text(provision: str, rows: list[dict]) -> str:
    return render_template("register_precedents.txt.j2", **precedents_view(provision, rows))


def verification_text(v) -> str:
    return render_template("verify.txt.j2", **verification_view(v))


def register_check_text(check, path) -> str:
    return render_template("register_verify.txt.j2", **register_check_view(check, path))
