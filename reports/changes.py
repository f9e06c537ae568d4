"""Two rulings on one dispute, before and after amended facts, as plain data for the templates:
`whatif` and the appeals committee's decision. Facts are named by their labels, players by name,
findings by their articles: no ids outside the annex."""
from __future__ import annotations

from referee.expert.engine.diff import ruling_diff
from referee.expert.language.answers import is_unknown, show_value
from referee.expert.language.model import Rulebook, text
from referee.reports import document, view
from referee.reports.i18n import kind_words, words


def facts_changed(book: Rulebook, changes, lang: str, names: dict | None = None) -> list[dict]:
    """Each amended (or dropped) answer: the fact's label, the event, before and after in words
    (a seat with the player's name)."""
    w = words(lang)
    names = names or {}
    rows = []
    for c in changes:
        q = book.questions.get(c.question)
        if q is None:
            continue
        label = _label(book, c.question, lang)

        def shown(v, q=q):
            if v is None:
                return "—"
            if is_unknown(v):
                return w["open_fact"]
            said = show_value(q, v, book, lang)
            if q.type == "seat" and names.get(v):
                return f"{names[v]} ({view.unnested(said)})"
            return said
        stated = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
        if q.type == "yesno" and isinstance(stated, dict):
            # a yes/no fact reads as its two statements, not as a question answered yes or no
            said = (lambda v: w["open_fact"] if is_unknown(v) else
                    "—" if v is None or not isinstance(v, bool) else stated["yes" if v else "no"])
            # its label still heads the row (the question's words): never an empty ": a -> b"
            rows.append({"fact": label, "event": None if c.event is None else w["event"].format(n=c.event + 1),
                         "before": said(c.before), "after": said(c.after)})
            continue
        rows.append({"fact": label, "event": None if c.event is None else w["event"].format(n=c.event + 1),
                     "before": shown(c.before), "after": shown(c.after)})
    return rows


def _label(book: Rulebook, qid: str, lang: str) -> str:
    q = book.questions[qid]
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    return (fact if isinstance(fact, str) else text(q.text, lang).rstrip("?")) or qid


def findings_changed(before, after, lang: str) -> dict:
    """Findings gone, new and changed between two Rulings, in words."""
    d = ruling_diff(before.to_dict(), after.to_dict())
    by_key_b = {(f.event + 1, f.production): f for f in before.findings}
    by_key_a = {(f.event + 1, f.production): f for f in after.findings}

    def words_of(ruling, f):
        # what the finding rests on beyond the facts, as the ruling says it: the rulebook's
        # reading of a text that does not decide, and the value it prescribes for a fact nobody
        # established (blind walk 5, U3: a what-if must not settle such a point silently)
        waiting = any(n.cause == "pending" and n.by == f.production and n.event == f.event for n in ruling.not_ruled)
        shown = "pending-finding" if waiting and f.kind == "undecided" else view.finding_words_kind(ruling, f)
        return {"article": f.article, "kind": kind_words(lang, shown), "summary": text(f.summary, lang),
                "penalty": [view.penalty_words(ruling, p, lang) for p in f.penalty if p.amount != 0],
                "readings": [text(r, lang) for r in f.readings if text(r, lang)],
                "assumed": document._assumed(ruling, f, lang).strip()}
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
    """The score sheet per player by name: before and after (where the rulebook keeps no score
    sheet, the effects of the findings per player)."""
    items = {i.get("id"): i for i in ruling.book.score.get("items") or []}
    rows = []
    if not ruling.book.score:
        for e in d["penalties"]:
            effect = ruling.book.effects.get(e["effect"]) or {}
            rows.append({"who": view.player_name(ruling, e["player"], lang),
                         "item": text(effect.get("label"), lang) or e["effect"],
                         "against": view.player_name(ruling, e["against"], lang) if e.get("against") else "",
                         "before": _signed(e["before"]), "after": _signed(e["after"])})
        return rows
    for e in d["entries"]:
        item = items.get(e["item"], {})
        # as the ruling writes them: a side's entry by the side (North–South), a count unsigned
        who = view.side_name if item.get("per") == "side" else view.player_name
        shown = _signed if item.get("signed", True) is not False else _plain
        rows.append({"who": who(ruling, e["player"], lang),
                     "item": text(item.get("label"), lang) or e["item"],
                     "against": view.player_name(ruling, e["against"], lang) if e.get("against") else "",
                     "before": shown(e["before"]), "after": shown(e["after"])})
    return rows


def _plain(value) -> str:
    return "—" if value is None else document._plain(value)


def _signed(value) -> str:
    return "—" if value is None else document._signed(value)


def whatif_view(book, amendment, before, after, lang: str = "en") -> dict:
    fc = findings_changed(before, after, lang)
    return {"w": words(lang), "lang": lang,
            "changed": facts_changed(book, amendment.changed, lang, before.header.get("players")),
            "dropped": facts_changed(book, amendment.dropped, lang, before.header.get("players")),
            "opened": [_label(book, q, lang) for q in amendment.opened],
            "findings": fc, "entries": entries_changed(after, fc["diff"], lang),
            # nothing found yet with facts still open: not "no irregularity" (document.decision)
            "open_now": (words(lang)["decision_open"] if not after.findings and not after.alternatives
                         and after.open_questions else "")}


def appeal_view(book, original: dict, ruling, amendment, lang: str = "en", code: str | None = None,
                tournament=None, note: str | None = None, committee: str | None = None) -> dict:
    """The appeals committee's decision: the ruling appealed (as its record printed it), the
    facts amended, the new decision, the change per player by name, who decided and when, and
    the committee's signature lines; the new ruling's annex follows."""
    w = words(lang)
    new = document.build(ruling, lang, code, tournament)
    stored = (original.get("document") or {}).get(lang) or {}
    before = {"decision": stored.get("decision") or [f"{f.get('article')}: {f.get('summary')}"
                                                     for f in original.get("findings") or []],
              "entries": stored.get("entries") or [], "code": _code(original.get("code")),
              # a conditional ruling appealed: its alternatives, as it printed them
              "conditional": stored.get("conditional")}
    from referee.expert.engine.diff import ruling_diff
    extra = original.get("ruling_extra") or {}
    d = ruling_diff({"findings": original.get("findings") or [], "not_ruled": original.get("not_ruled") or [],
                     "result": extra.get("result")}, ruling.to_dict())
    when = (getattr(ruling, "ruled_at", "") or "")[:16].replace("T", " ")
    header = [row for row in new["header"] if row[0] != w["ruled_at"]] + [(w["ruled_at"], when)]
    return {**new, "w": w, "template": "appeal", "header": header,
            "original": before, "amended": facts_changed(book, amendment.changed + amendment.dropped, lang,
                                      ruling.header.get("players")),
            "opened": [_label(book, q, lang) for q in amendment.opened],
            "changes": entries_changed(ruling, d, lang), "unchanged": d["unchanged_ruling"],
            "note": note or "", "decided_by": committee or "",
            "signatures": [(w["sig_committee"], committee or ""), (w["sig_committee"], ""), (w["sig_chief"], "")]}


def _code(code) -> str:
    from referee.expert.records.record import format_code
    return format_code(code) if code else ""
