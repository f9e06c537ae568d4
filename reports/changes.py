"""Two rulings on one dispute, before and after amended facts, as plain data for the templates:
`whatif` and the appeals committee's decision. Facts are named by their labels, players by name,
findings by their articles: no ids outside the annex."""
from __future__ import annotations

from referee.expert.engine.diff import ruling_diff
from referee.expert.language.answers import show_value
from referee.expert.language.model import Rulebook, text
from referee.reports import document, view
from referee.reports.i18n import words


def facts_changed(book: Rulebook, changes, lang: str) -> list[dict]:
    """Each amended (or dropped) answer: the fact's label, the event, before and after in words."""
    w = words(lang)
    rows = []
    for c in changes:
        q = book.questions.get(c.question)
        if q is None:
            continue
        label = _label(book, c.question, lang)
        shown = (lambda v: "—" if v is None else show_value(q, v, book, lang))
        rows.append({"fact": label, "event": None if c.event is None else w["event"].format(n=c.event + 1),
                     "before": shown(c.before), "after": shown(c.after)})
    return rows


def _label(book: Rulebook, qid: str, lang: str) -> str:
    q = book.questions[qid]
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    return fact if isinstance(fact, str) else text(q.text, lang).rstrip("?")


def findings_changed(before, after, lang: str) -> dict:
    """Findings gone, new and changed between two Rulings, in words."""
    d = ruling_diff(before.to_dict(), after.to_dict())
    by_key_b = {(f.event + 1, f.production): f for f in before.findings}
    by_key_a = {(f.event + 1, f.production): f for f in after.findings}

    def words_of(ruling, f):
        return {"article": f.article, "kind": words(lang).get(f.kind, f.kind), "summary": text(f.summary, lang),
                "penalty": [view.penalty_words(ruling, p, lang) for p in f.penalty if p.amount != 0]}
    return {
        "removed": [words_of(before, by_key_b[(x["event"], x["production"])]) for x in d["removed"]],
        "added": [words_of(after, by_key_a[(x["event"], x["production"])]) for x in d["added"]],
        "changed": [{"before": words_of(before, by_key_b[(x["before"]["event"], x["before"]["production"])]),
                     "after": words_of(after, by_key_a[(x["after"]["event"], x["after"]["production"])])}
                    for x in d["changed"]],
        "unchanged": [words_of(after, by_key_a[(x["event"], x["production"])]) for x in d["unchanged"]
                      if (x["event"], x["production"]) in by_key_a],
        "set_aside_added": [x["article"] for x in d["set_aside_added"]],
        "set_aside_removed": [x["article"] for x in d["set_aside_removed"]],
        "unchanged_ruling": d["unchanged_ruling"],
        "diff": d,
    }


def entries_changed(ruling, d: dict, lang: str) -> list[dict]:
    """The score sheet per player by name: before and after."""
    items = {i.get("id"): i for i in ruling.book.score.get("items") or []}
    rows = []
    for e in d["entries"]:
        rows.append({"who": view.player_name(ruling, e["player"], lang),
                     "item": text(items.get(e["item"], {}).get("label"), lang) or e["item"],
                     "against": view.player_name(ruling, e["against"], lang) if e.get("against") else "",
                     "before": _signed(e["before"]), "after": _signed(e["after"])})
    return rows


def _signed(value) -> str:
    return "—" if value is None else document._signed(value)


def whatif_view(book, amendment, before, after, lang: str = "en") -> dict:
    fc = findings_changed(before, after, lang)
    return {"w": words(lang), "lang": lang,
            "changed": facts_changed(book, amendment.changed, lang),
            "dropped": facts_changed(book, amendment.dropped, lang),
            "opened": [_label(book, q, lang) for q in amendment.opened],
            "findings": fc, "entries": entries_changed(after, fc["diff"], lang)}
