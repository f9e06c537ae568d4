"""The ruling as plain data for the templates: words, not engine objects."""
from __future__ import annotations

from datetime import date

from expert.model import text
from expert.verdict import PenaltyLine, Ruling

KIND_WORDS = {
    "violation": "Violation established; penalty prescribed",
    "violation-no-penalty": "Violation established; no penalty prescribed",
    "rectification": "Irregularity established; rectification ordered",
    "no-violation": "No violation",
    "forfeited": "Claim forfeited",
    "undecided": "Not decided by these rules",
}


def player_name(ruling: Ruling, seat: str | None) -> str:
    if not seat:
        return ""
    label = ruling.book.seat_label(seat)
    name = (ruling.header.get("players") or {}).get(seat)
    return f"{name} ({label})" if name else label


def penalty_words(ruling: Ruling, line: PenaltyLine) -> str:
    effect = ruling.book.effects.get(line.effect) or {}
    label = text(effect.get("label")) or line.effect
    unit = text(effect.get("unit"))
    amount = "" if line.amount is None else f" {line.amount:g}" if isinstance(line.amount, float) else f" {line.amount}"
    words = f"{player_name(ruling, line.player)} — {label}"
    if amount:
        words += f":{amount}{(' ' + unit) if unit else ''}"
    if line.against:
        words += f", against {player_name(ruling, line.against)}"
    if line.needs:
        words += f" (not computed: the answer to '{line.needs}' is missing)"
    return words


def build(ruling: Ruling) -> dict:
    book = ruling.book
    findings = []
    for f in ruling.findings:
        findings.append({
            "article": f.article, "kind": f.kind, "kind_words": KIND_WORDS.get(f.kind, f.kind),
            "summary": text(f.summary),
            "summary_native": (f.summary or {}).get(book.language, "") if book.language != "en"
            and isinstance(f.summary, dict) else "",
            "offender": player_name(ruling, f.offender),
            "provisions": [{"id": pid, "label": book.provisions[pid].label,
                            "quote": book.provisions[pid].quote,
                            "english": book.provisions[pid].english}
                           for pid in f.provisions if pid in book.provisions],
            "penalty": [penalty_words(ruling, p) for p in f.penalty],
            "orders": [text(o) for o in f.orders],
            "readings": [text(r) for r in f.readings],
        })
    header = dict(ruling.header)
    header.setdefault("date", date.today().isoformat())
    players = [(book.seat_label(s), n) for s, n in (header.get("players") or {}).items()]
    return {
        "title": text(book.title), "title_native": text(book.title, book.language),
        "game": book.game, "edition": book.edition, "language": book.language,
        "source": book.source.get("document", ""),
        "header": header, "players": players,
        "facts": ruling.facts_in_words(),
        "findings": findings,
        "no_infraction": ruling.no_infraction,
        "not_ruled": [{"article": n.article, "provisions": n.provisions, "reason": n.reason}
                      for n in ruling.not_ruled],
        "not_established": [_claim_label(ruling, c) for c in ruling.not_established],
        "trail": [{"production": t["rule"].replace(">", " prevails over ") if ">" in t["rule"]
                    else t["production"], "cites": t["cites"],
                   "facts": ", ".join(_fact_words(x) for x in t["facts"])} for t in ruling.trail],
    }


def _claim_label(ruling: Ruling, value) -> str:
    q = ruling.book.questions.get("claim")
    return q.label(value) if q else str(value)


def _fact_words(fact: dict) -> str:
    if "answer" in fact:
        value = fact["value"]
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value).lower() \
            if isinstance(value, bool) else str(value)
        return f"{fact['answer']} = {shown}"
    if "fact" in fact:
        return f"derived: {fact['fact']}"
    return f"finding: {fact.get('finding')}"
