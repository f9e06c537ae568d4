"""The register as plain text for people: lists, one ruling, precedents, counts.

``expert.register`` stores and searches; this module only words what it returns.
"""
from __future__ import annotations

import json
from typing import Any

from referee.expert.language.safe_text import deep_clean
from referee.expert.records.record import format_code
from referee.expert.records.register import finding_line


def _cell(v: Any) -> str:
    return "" if v is None else str(v)


def format_list(rows: list[dict]) -> str:
    """``register list`` / ``search`` as a plain table."""
    rows = deep_clean(rows)     # what was typed stays on its line, control characters shown
    if not rows:
        return "no rulings match\n"
    head = ["#", "code", "date", "table", "deal", "referee", "ruling"]
    lines = []
    for r in rows:
        what = "; ".join(r["findings"]) if r["findings"] else (
            "no infraction" if r["no_infraction"] else "no finding")
        if r["kind"] == "appeal":
            what = f"APPEAL of #{r['appeal_of']}: " + what
        elif r.get("appeals"):
            what += f"  [appealed ×{r['appeals']}]"
        lines.append([str(r["id"]), format_code(r["code"]), _cell(r["date"]), _cell(r["table"]),
                      _cell(r["deal"]), _cell(r["referee"]), what])
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head[:-1])]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  " + head[-1]]
    for l in lines:
        out.append("  ".join(c.ljust(w) for c, w in zip(l, widths)) + "  " + l[-1])
    return "\n".join(out) + "\n"


def _val(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return str(v)


def format_show(shown: dict) -> str:
    """``register show``: one ruling in full, with its appeals or the ruling it appeals."""
    shown = deep_clean(shown)
    rec = shown["record"]
    rb = rec.get("rulebook") or {}
    kind = "APPEAL DECISION" if rec.get("kind") == "appeal" else "RULING"
    out = [f"{kind} #{shown['id']}  code {format_code(rec['code'])}",
           f"game {rb.get('game')} edition {rb.get('edition')}  rulebook {rb.get('hash')}"]
    hdr = rec.get("header") or {}
    meta = [f"{k} {_cell(rec.get(k))}" for k in ("date", "table", "deal", "referee")
            if rec.get(k) is not None]
    if hdr.get("tournament"):
        meta.insert(0, f"tournament {hdr['tournament']}")
    out.append("  ".join(meta))
    if isinstance(hdr.get("players"), dict) and hdr["players"]:
        out.append("players: " + ", ".join(f"{s} {n}" for s, n in hdr["players"].items()))
    if shown.get("original"):
        o = shown["original"]
        out.append(f"appeal of ruling #{o['id']} ({format_code(o['code'])})")
        note = (rec.get("appeal") or {}).get("note")
        if note:
            out.append(f"note: {note}")
        for a in (rec.get("appeal") or {}).get("amended") or []:
            out.append(f"amended: {a['question']}: {_val(a.get('before'))} → {_val(a.get('after'))}")
    out.append("answers:")
    times = rec.get("answer_times") or {}
    for q, v in (rec.get("answers") or {}).items():
        t = times.get(q)
        out.append(f"  {q} = {_val(v)}" + (f"   (at {t})" if t else ""))
    if rec.get("cards") is not None:
        out.append(f"cards: {json.dumps(rec['cards'], ensure_ascii=False)}")
    out.append("findings:")
    for f in rec.get("findings") or []:
        out.append(f"  - {finding_line(f)}")
        for p in f.get("penalty") or []:
            amt = "" if p.get("amount") is None else f" {p['amount']}"
            against = f" against {p['against']}" if p.get("against") else ""
            out.append(f"      {p.get('player')}: {p.get('effect')}{amt}{against}")
    if rec.get("no_infraction"):
        out.append("  - no infraction")
    for n in rec.get("not_ruled") or []:
        out.append(f"  set aside [{', '.join(n.get('provisions') or [])}]: {_cell(n.get('reason'))}")
    if rec.get("trail"):
        out.append("trail: " + " → ".join(str(t.get("production")) for t in rec["trail"]))
    for a in shown.get("appeals") or []:
        d = a.get("differences") or {}
        what = "unchanged" if d.get("unchanged") else (
            f"+{len(d.get('findings_added') or [])} -{len(d.get('findings_removed') or [])} "
            f"~{len(d.get('findings_changed') or [])} findings")
        out.append(f"appealed: #{a['id']} ({format_code(a['code'])}) {a.get('date') or ''} {what}"
                   + (f" — {a['note']}" if a.get("note") else ""))
    return "\n".join(out) + "\n"


def format_stats(stats: dict) -> str:
    stats = deep_clean(stats)
    out = [f"rulings: {stats['rulings']} (no infraction: {stats['no_infraction']}), "
           f"appeals: {stats['appeals']} on {stats['rulings_appealed']} rulings"]
    for title, key, label in (("per referee", "per_referee", "key"),
                              ("per table", "per_table", "key"),
                              ("per date", "per_date", "key")):
        if stats[key]:
            out.append(f"{title}:")
            out += [f"  {_cell(r[label]) or '(none)'}: {r['rulings']}" for r in stats[key]]
    if stats["most_cited_provisions"]:
        out.append("most-cited provisions:")
        out += [f"  {r['provision']} ({_cell(r['article'])}): {r['rulings']}"
                for r in stats["most_cited_provisions"]]
    if stats["most_cited_articles"]:
        out.append("most-cited articles:")
        out += [f"  {r['article']}: {r['rulings']}" for r in stats["most_cited_articles"]]
    return "\n".join(out) + "\n"


def format_precedents(provision: str, rows: list[dict]) -> str:
    provision, rows = deep_clean(provision), deep_clean(rows)
    if not rows:
        return f"no earlier rulings on {provision}\n"
    out = [f"earlier rulings on {provision}:"]
    for r in rows:
        where = "  ".join(f"{k} {r[k]}" for k in ("date", "table", "deal", "referee") if r.get(k))
        out.append(f"#{r['id']} {format_code(r['code'])}  {where}"
                   + ("  (appeal)" if r["kind"] == "appeal" else ""))
        for f in r["findings"]:
            pen = "; ".join(f"{p.get('player')} {p.get('effect')}"
                            + ("" if p.get("amount") is None else f" {p['amount']}")
                            + (f" against {p['against']}" if p.get("against") else "")
                            for p in f.get("penalty") or [])
            out.append(f"    ruled: {finding_line(f)}" + (f" — {pen}" if pen else ""))
        for n in r["not_ruled"]:
            out.append(f"    set aside: {_cell(n.get('reason'))}")
    return "\n".join(out) + "\n"
