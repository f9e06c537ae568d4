"""`referee whatif`: the ruling on a case with some answers changed, as a diff.

The changed answers are read with ``expert.answers.parse_typed`` (as typed at the interview's
prompt); answers to questions whose ``when`` no longer holds are dropped (``interview.prune``)
and listed. The two rulings come from one Ruler and are compared finding by finding.
"""
from __future__ import annotations

from referee.expert.language.answers import hint, parse_typed, show_value
from referee.expert.language.errors import RefereeError
from referee.expert.interview.relevance import prune


def changed_answers(book, answers: dict, settings: list[str]) -> tuple[dict, list[str]]:
    """Apply QUESTION=VALUE settings; return the new answers and the ids dropped by pruning."""
    new = dict(answers)
    set_ids = []
    for item in settings:
        qid, sep, raw = item.partition("=")
        qid = qid.strip()
        if not sep or not qid:
            raise RefereeError(f"--set {item!r}: expected QUESTION=VALUE")
        q = book.questions.get(qid)
        if q is None:
            raise RefereeError(f"--set {item!r}: unknown question {qid!r}{hint(qid, book.questions)}, "
                               f"expected one of the "
                               f"questions of {book.game} (see `referee questions {book.game}`)")
        if raw.strip() == "":
            new.pop(qid, None)                 # --set Q= : the question left unanswered
        else:
            new[qid] = parse_typed(q, raw, book, new)
        set_ids.append(qid)
    kept = prune(book, new)
    dropped = [q for q in new if q not in kept and q not in set_ids]
    return kept, dropped


def _pen(f) -> list[str]:
    return sorted(f"{p.player} {p.effect} {p.amount}" + (f" on {p.against}" if p.against else "")
                  for p in f.penalty)


def diff(before, after) -> dict:
    """Findings added, removed and changed (kind or penalty), and set-aside changes."""
    b = {f.production: f for f in before.findings}
    a = {f.production: f for f in after.findings}
    out = {"added": [], "removed": [], "changed": [], "unchanged": [],
           "set_aside_added": [], "set_aside_removed": []}
    for pid, f in a.items():
        if pid not in b:
            out["added"].append({"production": pid, "provisions": f.provisions, "kind": f.kind,
                                 "penalty": _pen(f)})
    for pid, f in b.items():
        if pid not in a:
            out["removed"].append({"production": pid, "provisions": f.provisions, "kind": f.kind,
                                   "penalty": _pen(f)})
        elif (f.kind, _pen(f)) != (a[pid].kind, _pen(a[pid])):
            out["changed"].append({"production": pid, "provisions": f.provisions,
                                   "kind": [f.kind, a[pid].kind],
                                   "penalty": [_pen(f), _pen(a[pid])]})
        else:
            out["unchanged"].append(pid)
    nb = {n.production for n in before.not_ruled}
    na = {n.production for n in after.not_ruled}
    out["set_aside_added"] = sorted(na - nb)
    out["set_aside_removed"] = sorted(nb - na)
    return out


def render_text(book, before_answers, after_answers, dropped, d) -> str:
    lines = ["Answers changed:"]
    for qid in book.questions:
        old, new = before_answers.get(qid), after_answers.get(qid)
        if old != new:
            q = book.questions[qid]
            lines.append(f"  {qid}: {show_value(q, old, book)} -> {show_value(q, new, book)}")
    if len(lines) == 1:
        lines.append("  (none: the values given are the case's own)")
    if dropped:
        lines.append(f"  (dropped, no longer asked: {', '.join(dropped)})")
    lines.append("Findings:")
    for f in d["removed"]:
        lines.append(f"  - {'+'.join(f['provisions'])} [{f['kind']}] ({f['production']})"
                     + (f": {'; '.join(f['penalty'])}" if f["penalty"] else ""))
    for f in d["added"]:
        lines.append(f"  + {'+'.join(f['provisions'])} [{f['kind']}] ({f['production']})"
                     + (f": {'; '.join(f['penalty'])}" if f["penalty"] else ""))
    for f in d["changed"]:
        lines.append(f"  ~ {'+'.join(f['provisions'])} ({f['production']}): "
                     f"{f['kind'][0]} {'; '.join(f['penalty'][0]) or 'no penalty'} -> "
                     f"{f['kind'][1]} {'; '.join(f['penalty'][1]) or 'no penalty'}")
    for pid in d["unchanged"]:
        lines.append(f"    {pid} (unchanged)")
    for pid in d["set_aside_added"]:
        lines.append(f"  now set aside: {pid}")
    for pid in d["set_aside_removed"]:
        lines.append(f"  no longer set aside: {pid}")
    if not (d["added"] or d["removed"] or d["changed"] or d["set_aside_added"] or d["set_aside_removed"]):
        lines.append("  the ruling does not change")
    return "\n".join(lines) + "\n"
