"""The signed ruling as plain data for the templates, in one language.

Page 1, the front sheet, is what people sign: who, where and when; the decision in plain words;
the entries to write on the score sheet per player by name; the articles applied with short
quotes; the players' requests answered; signature lines; the appeal notice. The annex holds what
a committee checks: the full quotes with their English renderings, the facts found written as
statements (the referee's judgements and the facts not established apart), the events, the
alternatives of a conditional ruling, what was found but not ruled on, the reasoning, the
readings, the values used and the encoding's edition and hash. Production and provision ids
appear only in the annex.
"""
from __future__ import annotations

from datetime import datetime

from referee.expert.engine.result import every_seat_item
from referee.expert.engine.verdict import Ruling
from referee.expert.language.answers import is_unknown, show_value
from referee.expert.language.dispute import on_role
from referee.expert.language.finding_kinds import kind as kind_of
from referee.expert.language.model import scope_label, text
from referee.reports import view
from referee.reports.i18n import kind_words, unit_for, words

QUOTE_SHORT = 180      # characters of a quote on the front sheet


def build(ruling: Ruling, lang: str = "en", code: str | None = None, tournament=None) -> dict:
    """Everything the templates print, in ``lang``."""
    book, w = ruling.book, words(lang)
    base = view.build(ruling, lang, code)           # findings, not ruled, trail, values used ...
    players = ruling.header.get("players") or {}
    cond = _conditional(ruling, lang) if ruling.alternatives else None
    if cond is not None:
        # what holds in every alternative is said once, before them; the alternatives say only
        # what differs (a finding common to all of them is also listed once in the annex)
        top = decision(ruling, lang)
        base["findings"] = base["findings"] + [f for f in cond.pop("common_findings")
                                               if f not in base["findings"]]
    # the annex's "found but not ruled on": an article applied jointly is not "set aside by" itself
    for row, n in zip(base["not_ruled"], ruling.not_ruled):
        joint = _joint(ruling, n.production, n.by, lang)
        if joint is not None:
            row["reason"] = w["joint"].format(others=joint) + (f". {text(n.why, lang)}" if text(n.why, lang) else "")
    if cond is not None:
        # a provision quoted in full once: under a later alternative it is named, "quoted above"
        quoted = {p["id"] for f in base["findings"] for p in f["provisions"]}
        for b in cond["branches"]:
            for f in b["findings"]:
                f["provisions"] = [{**p, "seen": p["id"] in quoted} for p in f["provisions"]]
                quoted |= {p["id"] for p in f["provisions"]}
    return {
        **base,
        "title_own": text(book.title, book.language),
        "title": text(book.title, lang),
        # the source text's own edition beside its title (``source.edition``); the encoding's
        # edition and hash are the annex's. A rulebook whose source names no edition shows none.
        "edition_line": w["edition_of"].format(edition=_source_edition(book)) if _source_edition(book) else "",
        "header": _header(ruling, w),
        "decision": (top + [x for x in cond.pop("common") if x not in top]) if cond else decision(ruling, lang),
        "conditional": cond,
        "entries": entries(ruling, ruling.result, lang),
        # "settled by these entries" only when none of them is still open; entries of a deal whose
        # points were booked before the claim are not new: they stand as booked (blind walk 7)
        "booked": _booked_words(ruling, lang),
        "settled": bool(ruling.result and ruling.result.settled_by and not ruling.result.open
                        and not getattr(ruling.result, "booked", False)),
        "result_values": _result_values(ruling, lang),
        "applied": applied(ruling, lang),
        "requests": requests(ruling, lang),
        "signatures": [(w["sig_referee"], str(ruling.header.get("referee") or "")),
                       (w["sig_chief"], str((tournament.get("chief_referee") if tournament else "") or ""))],
        "appeal": appeal_notice(book, lang, tournament),
        "facts": facts(ruling, lang),
        "judgements": facts(ruling, lang, judgements=True),
        "unknown": unknown(ruling, lang),
        "events": events(ruling, lang) if ruling.events else [],
        "incomplete": ([lower_first(_question_words(ruling, q, lang), ruling) for q in ruling.open_questions]
                       if ruling.open_questions else []),
        "reasons": reasons(ruling, lang),
        "considered": considered(ruling, lang),
        "technical": technical(ruling, lang),
        "encoding": w["encoding_text"].format(game=book.game, edition=book.edition, hash=_hash(book)),
        "players_named": [(view.unnested(view.seat_label(ruling, s, lang)), players[s]) for s in book.seat_ids
                          if players.get(s)],
    }


def _booked_words(ruling: Ruling, lang: str) -> str:
    """What the result section says of a deal whose points were on the score sheet when the claim
    was raised (rulebook ``score: booked``): the entries it lists, if any, are those already made."""
    result = ruling.result
    if result is None or not getattr(result, "booked", False):
        return ""
    w = words(lang)
    return w["result_booked"] if result.entries else w["result_booked_none"]


def _header(ruling: Ruling, w: dict) -> list[tuple[str, str]]:
    h = ruling.header
    rows = [(w[k], str(h[k])) for k in ("tournament", "table", "deal") if h.get(k) not in (None, "")]
    when = str(h.get("date") or "") or datetime.now().date().isoformat()
    at = getattr(ruling, "ruled_at", "") or ""
    if at:
        when = f"{when} {at[11:16]}" if at[:10] == when else at[:16].replace("T", " ")
    rows.append((w["ruled_at"], when))
    # no name given: a line to write it on, never a placeholder printed as a name
    rows.append((w["referee"], str(h.get("referee") or "").strip() or w["to_write"]))
    return rows


def _source_edition(book) -> str:
    source = book.source if isinstance(book.source, dict) else {}
    return str(source.get("edition") or "")


def decision(ruling: Ruling, lang: str) -> list[str]:
    """The decision in plain words: one sentence per standing finding, in the order of events,
    and what was set aside and why."""
    w = words(lang)
    lines = []
    # by the ruling's events, not by its findings: the alternatives' lines and the ruling's own
    # must read alike, or the one shared by every alternative would be printed twice
    events = ruling.event_count > 1
    for f in sorted(ruling.findings, key=lambda f: f.event):
        # only a kind whose player is an offender names one (a forfeited claim, an undecided
        # measure or a settlement names nobody "offender"), as the findings' view does
        who = view.player_name(ruling, f.offender, lang) if kind_of(f.kind).names_offender else None
        summary = text(f.summary, lang)
        # several events: each line says which one it rules on (two alike would read the same)
        # (in brackets after the article: a numbered line "1. 1. esemény" would read twice numbered)
        where = f" ({lower_first(w['event'].format(n=f.event + 1))})" if events and f.event is not None else ""
        # no offender: the summary follows the label's colon, lower-cased where the language wants
        # a finding resting on a fact nobody established says so first, so that its summary
        # reads as what follows from the rule for that case, not as a fact found (blind walk 6)
        assumed = _assumed(ruling, f, lang).strip()
        if assumed:
            summary = f"{assumed} {summary}"
            if view.finding_words_kind(ruling, f) == "no-violation-not-proven":
                # not "no violation": the violation is not established, by the rule for that case
                summary = f"{kind_words(lang, 'no-violation-not-proven')}. {summary}"
        lines.append(view.head_label(f.article, lang) + where + (f"{w['dash']}{lower_first(w['offender'])}: {who}. {summary}"
                                                                 if who else f": {after_colon(summary, lang, ruling)}"))
    whys: set[str] = set()
    for n in ruling.not_ruled:
        joint = _joint(ruling, n.production, n.by, lang)
        why = text(n.why, lang) if n.cause == "override" else ""
        head = view.head_label(n.article, lang)
        if joint is not None:
            line = f"{head}: " + w["joint"].format(others=joint)
            lines.append(line + (f". {why}" if why and why not in whys else "."))
        elif why and why in whys:       # the same reason, already given above: not again
            lines.append(f"{head}: " + w["override"].format(
                winner=view.in_sentence(n.winner_article, lang), why="").strip())
        else:
            lines.append(f"{head}: {view._reason(n, lang)}")
        whys.add(why)
    if not lines and not ruling.alternatives:
        # an incomplete ruling with nothing found yet has not found that nothing happened: the
        # facts still open may bring a finding (blind walk 7: ulti's early speech, the renonsz
        # established and waiting for the declarer's game, read "no irregularity is established")
        lines.append(w["decision_open"] if ruling.open_questions else w["decision_none"])
    return lines


def _assumed(ruling: Ruling, finding, lang: str) -> str:
    """A finding resting on a fact nobody established, settled by the answer the text prescribes
    for that case (a burden, a presumption): said in the decision itself, with the article, so
    the summary is not read as the fact established (blind walk 5, U3). A yes/no fact with
    statements in the language reads as what was not established and what the rules take
    instead (blind walk 8, U3: "The fact was not established: did the remark ...; the rules
    prescribe in that case (...): no" read clumsily)."""
    w, book = words(lang), ruling.book
    said = []
    for u in view.defaults_behind(ruling, finding):
        q = book.questions[u.question]
        labels = "; ".join(view.in_sentence(book.provisions[c].label, lang) for c in u.cites if c in book.provisions)
        own = (q.fact or {}).get(lang)
        if q.type == "yesno" and isinstance(own, dict) and own.get("yes") and own.get("no"):
            line = w["assumed_that"].format(fact=lower_first(view._stated(q, not u.default, lang).rstrip("."), ruling),
                                            value=lower_first(view._stated(q, u.default, lang).rstrip("."), ruling),
                                            articles=labels)
        else:
            line = w["assumed"].format(fact=lower_first(_question_words(ruling, u.question, lang), ruling),
                                       value=show_value(q, u.default, book, lang), articles=labels)
        why = text(u.why, lang)
        said.append(line + (f" ({why.rstrip('.')})" if why else ""))
    return "".join(f" {s}." for s in said)


def _questions_behind(ruling: Ruling, production: str) -> set[str]:
    return view.questions_behind(ruling, production)


def _joint(ruling: Ruling, loser_id: str, winner_id: str, lang: str) -> str | None:
    """Where the production that prevails cites every provision the one it sets aside cites (a
    finding under 70C and 70D set beside the one under 70C alone), the set-aside article is not
    overruled but applied jointly: the other articles it is applied with, for "70C: not applied
    on its own, but together with 70D" (never "70C prevails over 70C"). None otherwise."""
    book = ruling.book
    try:
        loser, winner = book.production(loser_id), book.production(winner_id)
    except (KeyError, StopIteration, ValueError):
        return None
    mine = [p for p in loser.cites if p in book.provisions]
    theirs = [p for p in winner.cites if p in book.provisions]
    if not mine or not set(mine) <= set(theirs):
        return None
    own = {book.provisions[p].label for p in mine}
    others: list[str] = []
    for p in theirs:
        label = book.provisions[p].label
        # 70C1, 70C2 … under a 70C already named (or the loser's own) add nothing
        if label in own or any(label.startswith(o) for o in [*own, *others]):
            continue
        others.append(label)
    if not others:
        return None
    return view.in_sentence(", ".join(others), lang)


def _conditional(ruling: Ruling, lang: str) -> dict:
    w = words(lang)
    matters = [u for u in ruling.unknown if u.matters]
    facts_named = "; ".join([lower_first(_question_words(ruling, u.question, lang), ruling) for u in matters]
                            + ([w["order_unknown"]] if not ruling.order_known else []))
    branches = []
    for n, alt in enumerate(ruling.alternatives, start=1):
        # a numbered heading and the full statement of what must be established: no label
        # pasted after "if", the statement lower-cased after the colon
        when = f" {w['or']} ".join(_when_words(ruling, cond, lang) for cond in _merged(alt.when))
        from dataclasses import replace
        branch = replace(ruling, findings=list(alt.findings), not_ruled=list(alt.not_ruled), alternatives=[])
        branches.append({"when": w["alternative"].format(n=n, when=when), "decision": decision(branch, lang),
                         # the same entries under every alternative are printed once, after them
                         "entries": entries(branch, alt.result, lang) if ruling.result is None else [],
                         "findings": view.build(branch, lang)["findings"]})
    # what every alternative decides alike (the same finding, the same article set aside) is
    # stated once, before them, and the alternatives keep only what differs
    top = decision(ruling, lang)
    top_findings = view.build(ruling, lang)["findings"]
    common = [x for x in branches[0]["decision"] if all(x in b["decision"] for b in branches[1:])] \
        if len(branches) > 1 else []
    common_findings = [f for f in branches[0]["findings"] if all(f in b["findings"] for b in branches[1:])] \
        if len(branches) > 1 else []
    for b in branches:
        b["decision"] = [x for x in b["decision"] if x not in common and x not in top]
        b["findings"] = [f for f in b["findings"] if f not in common_findings and f not in top_findings]
    # the score sheet takes one set of entries only when every alternative writes the same
    # (adjudicate: the ruling's result is then theirs; otherwise it has none)
    note = w["entries_same"] if ruling.result is not None else w["entries_per_branch"]
    # every alternative writes the same entries and the same penalties: the facts not established
    # change the articles that answer the claim, not what anyone gets (blind walk 9, P2: three
    # alternatives that all refused the claim read as if the outcome were open)
    pens = {tuple(sorted(repr((f.event, p.player, p.effect, p.amount, p.against)) for f in a.findings for p in f.penalty))
            for a in ruling.alternatives}
    same = ruling.result is not None and len(pens) == 1 and len(ruling.alternatives) > 1
    # a conditional ruling is signed as it stands; it says how it becomes final (walk 9, B1)
    intro = w["conditional_same"] if same else w["conditional"] + " " + w["conditional_next"]
    return {"intro": intro.format(facts=facts_named), "branches": branches,
            "per_branch": ruling.result is None,
            "entries_note": note, "common": common, "common_findings": common_findings}


def _merged(conds: list[dict]) -> list[dict]:
    """Alternative conditions that differ in one answer only, as one condition listing that
    answer's values (points 54 with totals 0, 29 or 30: one line, not three)."""
    if len(conds) < 2 or len({tuple(c) for c in conds}) != 1:
        return conds
    keys = list(conds[0])
    varying = [k for k in keys if len({repr(c[k]) for c in conds}) > 1]
    if len(varying) != 1 or any(isinstance(c[varying[0]], (dict, list)) for c in conds):
        return conds
    k = varying[0]
    return [{**conds[0], k: _AnyOf([c[k] for c in conds])}]


class _AnyOf(list):
    """The values one answer may have under an alternative (see _merged)."""


def _when_words(ruling: Ruling, cond: dict, lang: str) -> str:
    w = words(lang)
    parts = []
    for qid, value in cond.items():
        if isinstance(value, _AnyOf) and qid in ruling.book.questions:
            q = ruling.book.questions[qid]
            domain = [True, False] if q.type == "yesno" else q.allowed()
            if domain and {repr(v) for v in domain} <= {repr(v) for v in value}:
                continue        # every answer it may have: it does not matter here (walk 9, P2: "yes or no")
            shown = [show_value(q, v, ruling.book, lang) for v in value]
            listed = f"{', '.join(shown[:-1])} {w['or']} {shown[-1]}"
            parts.append(lower_first(f"{_question_words(ruling, qid, lang)}{w['dash']}{listed}"
                                     if _has_fact(q, lang) else
                                     w["answer_to"].format(q=text(q.text, lang).rstrip("?"), value=listed), ruling))
            continue
        if qid == "events_order":
            parts.append(w["in_order"].format(order=", ".join(w["event"].format(n=n) for n in value)))
            continue
        q = ruling.book.questions[qid]
        if isinstance(value, dict) and ("from" in value or "to" in value):
            shown = _range_words(value, w)
        else:
            shown = show_value(q, value, ruling.book, lang)
        stated = view._stated(q, value, lang) if q.type == "yesno" else ""
        if stated:
            parts.append(lower_first(stated.rstrip("."), ruling))
        elif _has_fact(q, lang):
            # label and value joined by a dash: the heading's own colon is the only one
            parts.append(lower_first(f"{_question_words(ruling, qid, lang)}{w['dash']}{shown}", ruling))
        else:       # no statement written for it: the question quoted, and its answer
            parts.append(w["answer_to"].format(q=text(q.text, lang).rstrip("?"), value=shown))
    return "; ".join(parts)


def _range_of(ruling: Ruling, qid: str, value) -> dict | None:
    """The range an alternative's heading gives a number answer ``value`` (see _range_words), or
    None: the reasons then say "less than 61 (e.g. 54)" as the heading does, not the 54 tried."""
    for alt in ruling.alternatives or []:
        for cond in alt.when:
            span = cond.get(qid)
            if isinstance(span, dict) and ("from" in span or "to" in span) and isinstance(value, (int, float)) \
                    and span.get("from", value) <= value <= span.get("to", value):
                return span
    return None


def _range_words(value: dict, w: dict) -> str:
    """A number answer's range (adjudicate._merge_numbers): "from 0 to 30", "at least 61", "less
    than 61", with the value tried as the example when it stands for the others."""
    low, high = value.get("from"), value.get("to")
    if low is not None and high is not None:
        shown = w["between"].format(a=view._num(low), b=view._num(high))
    elif low is not None:
        shown = w["at_least"].format(a=view._num(low))
    else:
        shown = w["less_than"].format(b=view._num(high + 1 if isinstance(high, int) else high))
    if "e.g." in value:
        shown = w["for_example"].format(range=shown, value=view._num(value["e.g."]))
    return shown


def _has_fact(q, lang: str) -> bool:
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    return isinstance(fact, str) and bool(fact)


def lower_first(said: str, ruling: Ruling | None = None) -> str:
    """A statement or label as it reads after a colon in running text: its first letter lower-cased,
    unless it begins with a name, a seat or an abbreviation ("Marko …", "Север–Юг …", "NS")."""
    if not said:
        return said
    first = said.split()[0] if said.split() else said
    if not said[0].isupper() or (len(first) > 1 and not first[1].islower()):
        return said
    # in a ruling's text a reference keeps its capital ("Law 11", "Továbbiak 5"), save the words
    # running text writes in lower case before a number ("правило 52B", "član 13", "pkt. 4.2.6")
    parts = said.split(maxsplit=2)
    if (ruling is not None and len(parts) > 1 and len(first) > 1 and parts[1][:1].isdigit()
            and first not in _LOWER_BEFORE_NUMBER):
        return said
    if ruling is not None:
        book = ruling.book
        keep = [str(n) for n in (ruling.header.get("players") or {}).values() if n]
        keep += [text(lab, lg) for _, lab in book.seats for lg in (book.language, "en")]
        word = first.strip(",.:;()")
        if any(k and (said.startswith(k) or word == k.split()[0]) for k in keep):
            return said
        if word in _label_words(book):
            return said
    return said[0].lower() + said[1:]


_LOWER_BEFORE_NUMBER = {"Правило", "Правила", "Правилу", "Правилом", "Član", "Člana", "Članu", "Članom",
                        "Pkt.", "Punkt", "Punktu"}


def _label_words(book) -> set[str]:
    """The words an article's label begins with that keep their capital in running text (the
    Hungarian section titles "Renonszok", "Továbbiak"; English "Law"), not the Russian "Правило"
    or the Serbian "Član", which running text writes in lower case (view.in_sentence)."""
    out = set()
    for p in book.provisions.values():
        head = (p.label or "").split()
        if head and head[0][:1].isupper() and head[0] not in ("Правило", "Član"):
            out.add(head[0].strip(",.:;()"))
    return out


def after_colon(said: str, lang: str, ruling: Ruling | None = None) -> str:
    """A sentence that follows a label and a colon ("Правило 52B1(a): в этот момент …"): lower-cased
    in the languages that write so (Serbian, Polish, Russian, Hungarian); English keeps the capital
    a full sentence has after a colon."""
    return said if lang == "en" else lower_first(said, ruling)


def _question_words(ruling: Ruling, qid: str, lang: str) -> str:
    """A question as a fact's label: its ``fact:`` label, else its text."""
    q = ruling.book.questions.get(qid)
    if q is None:
        return qid
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    if isinstance(fact, str):
        return fact
    return text(q.text, lang).rstrip("?")


def entries(ruling: Ruling, result, lang: str) -> list[dict]:
    """The result's entries by player name (a side's for per-side items)."""
    if result is None:
        return []
    w = words(lang)
    book = ruling.book
    items = {i.get("id"): i for i in book.score.get("items") or []}
    rows = []
    # what the open entries wait for is said once, after them: each open entry says only that it
    # is to be written (a sheet of five lines waiting for the same tricks repeated it five times)
    waiting: list[str] = []
    for e in result.entries:
        waiting += [q for q in e.needs if q not in waiting]
        if not e.item:
            continue
        side = items.get(e.item, {}).get("per") == "side"
        who = view.side_name(ruling, e.player, lang) if side else view.player_name(ruling, e.player, lang)
        show = _signed if items.get(e.item, {}).get("signed", True) is not False else _plain
        unset = [n for n in getattr(e, "unset", []) if n in book.parameters]
        amount = show(e.amount) if e.amount is not None else (
            w["to_write_later"] if e.needs else
            # a value the source text does not give (preferans: what one supa is worth): said
            # with the parameter's description, its source printed under "Values used"
            w["not_given"].format(what="; ".join(
                lower_first(text(book.parameters[n].get("description"), lang) or n, ruling) for n in unset))
            if unset else w["to_fill"].format(what="?"))
        if e.amount is None and getattr(e, "options", None):
            # the fact lies among a few values: what is written under each, not a blank
            amount = f" {w['or']} ".join(dict.fromkeys(
                f"{show(a)} ({_when_words(ruling, when, lang)})" for when, a in e.options))
        rows.append({"who": who, "item": text(items.get(e.item, {}).get("label"), lang) or e.item,
                     "amount": amount, "open": e.amount is None,
                     "against": view.player_name(ruling, e.against, lang) if e.against else ""})
    undecided = list(getattr(result, "undecided", []))
    rows = _zero_lines(ruling, result, rows, lang) if not (undecided or waiting) else rows
    if undecided and rows:
        from referee.expert.engine.verdict import article_of
        said = w["entries_undecided"].format(articles=", ".join(dict.fromkeys(
            view.in_sentence(article_of(ruling.book, ruling.book.production(p)), lang) for p in undecided)))
        rows.insert(0, {"who": "", "item": "", "amount": said, "open": True, "against": ""})
    if waiting:
        said = w["to_fill"].format(what="; ".join(lower_first(_question_words(ruling, q, lang), ruling)
                                                  for q in waiting))
        # no name before it: the line begins with it, so with a capital
        rows.append({"who": "", "item": "", "amount": said[:1].upper() + said[1:], "open": True, "against": ""})
    return rows


def _zero_lines(ruling: Ruling, result, rows: list[dict], lang: str) -> list[dict]:
    """Every player at the table on the sheet: one the ruling leaves untouched is written 0 on the
    line the deal writes for everyone (ulti: "A védőtárs nullán marad", the innocent defender
    stays at zero; blind walk 8, U1: he was missing). Only where something is written for
    someone (else "no entry changes" says it for all) and nothing is still open."""
    book = ruling.book
    item = every_seat_item(book)
    if item is None or not rows or any(e.amount is None for e in result.entries):
        return rows
    seats = list(book.seat_ids)
    on_sheet = {e.player for e in result.entries if e.item}
    label = text(next((i.get("label") for i in book.score.get("items") or [] if i.get("id") == item), None),
                 lang) or item
    keyed = [(seats.index(e.player) if e.player in seats else len(seats), row)
             for e, row in zip([e for e in result.entries if e.item], rows)]
    keyed += [(seats.index(s), {"who": view.player_name(ruling, s, lang), "item": label, "amount": "0",
                                "open": False, "against": ""})
              for s in seats if s not in on_sheet]
    return [row for _, row in sorted(keyed, key=lambda k: k[0])]


def _plain(value) -> str:
    """A count written as it is (an item with ``signed: false``): 9, not +9."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:g}".replace("-", "−") if isinstance(value, (int, float)) else str(value)


def _result_values(ruling: Ruling, lang: str) -> list[str]:
    """The rulebook parameters the score sheet's entries read (also under each alternative), each
    with where its values come from: what the source text gives, or the game's standard scoring."""
    names: list[str] = []
    for result in [ruling.result] + [getattr(a, "result", None) for a in ruling.alternatives]:
        for n in getattr(result, "params", None) or []:
            if n not in names:
                names.append(n)
    return view.values_of(ruling, names, lang)


def _signed(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (int, float)):
        return f"{value:+g}".replace("-", "−")
    return str(value)


def applied(ruling: Ruling, lang: str) -> list[dict]:
    """The articles applied, each once, with a short quote: each finding's, and the provisions
    that prescribe the answer to a fact nobody established where a finding rests on it (blind
    walk 8, U3: the paragraph that decided the case was missing here)."""
    seen, rows = set(), []
    findings = list(ruling.findings) + [f for alt in ruling.alternatives for f in alt.findings]
    for f in findings:
        for pid in [*f.provisions, *view.default_provisions(ruling, f)]:
            prov = ruling.book.provisions.get(pid)
            if prov is None or pid in seen:
                continue
            seen.add(pid)
            quote = prov.quote if len(prov.quote) <= QUOTE_SHORT else prov.quote[:QUOTE_SHORT].rsplit(" ", 1)[0] + " …"
            label = view.head_label(prov.label, lang)       # each row begins a line
            same = next((r for r in rows if r["label"] == label), None)
            if same is not None:
                # two provisions under one label (two sentences of Član 8, stav 2): the label once,
                # its quotes one after the other
                same["quote"] += f"{words(lang)['q_close']} … {words(lang)['q_open']}{quote}"
                continue
            rows.append({"label": label, "quote": quote, "id": pid})
    # in the rulebook's order (70C before 70C1), as a list of references reads, whatever order
    # the findings cite them in (blind walk 9, B1)
    order = {pid: n for n, pid in enumerate(ruling.book.provisions)}
    return sorted(rows, key=lambda r: order.get(r["id"], len(order)))


def requests(ruling: Ruling, lang: str) -> list[dict]:
    w = words(lang)
    book = ruling.book
    rows = []
    for r in ruling.requests:
        kind, _, name = r.request.partition(":")
        if kind == "effect":
            asked = text((book.effects.get(name) or {}).get("label"), lang) or name
        elif kind == "provision":
            prov = book.provisions.get(name)
            asked = w["ask_provision"].format(label=prov.label if prov else name)
        else:
            asked = w.get(f"ask_{r.request.replace('-', '_')}", r.request)
        # what was asked is a noun phrase after the party's name and a colon; whom it concerns
        # and how much follow as labels, so no inserted name or label is declined
        if getattr(r, "scope", None):
            asked += ", " + scope_label(book, name, r.scope, lang)
        if r.on:
            # whom the request names, said as the question put it: the player it is taken from,
            # who pays, or in whose favour (blind walk 9, B1: "concerning" did not say which)
            role = on_role(book, name) if kind == "effect" else "bears"
            asked += f", {w.get(f'on_{role}', w['on_player'])}: {view.player_name(ruling, r.on, lang)}"
        if r.amount is not None:
            asked += f", {w['amount_asked']}: {_plain_num(r.amount)}"
        if r.text:
            asked += f", {w['in_words']}: {w['q_open']}{r.text}{w['q_close']}"
        if getattr(r, "event", None) is not None:
            asked += ", " + w["about_event"].format(n=r.event)
        answer, reason = _answer_words(ruling, r, lang)
        for other in getattr(r, "elsewhere", None) or []:
            # the request concerns one event; another event's findings speak to it too
            if getattr(other, "falls_on", None) is not None:
                # a finding there on another player (the asker's partner, someone not asked
                # about): what that event gives and on whom, not a refusal of the asker (blind
                # walk 9, B2)
                reason += "; " + w["on_event_on"].format(
                    n=other.event, who=_whom(ruling, r.party, other.falls_on, lang),
                    articles="; ".join(view.in_sentence(a, lang) for a in other.articles))
                continue
            o_answer, o_reason = _answer_words(ruling, other, lang)
            reason += "; " + w["on_event"].format(n=other.event, answer=o_answer,
                                                  reason=o_reason)
        # an undecided request is not "answered: undecided": it remains open
        rows.append({"who": view.player_name(ruling, r.party, lang), "asks": asked,
                     "answer": answer, "reason": reason, "open": r.answer == "undecided"})
    return rows


def _whom(ruling: Ruling, party: str, seats: list, lang: str) -> str:
    """Players named, each said as the asker himself or his partner where he is."""
    from referee.expert.engine.requests import side_of
    w = words(lang)
    side = side_of(ruling.book, party)
    out = []
    for s in seats:
        name = view.player_name(ruling, s, lang)
        if s == party:
            name += f", {w['the_asker']}"
        elif s in side:
            name += f", {w['asker_partner']}"
        out.append(name)
    return "; ".join(out) or "—"


def _answer_words(ruling: Ruling, r, lang: str) -> tuple[str, str]:
    """A request's answer and its reason, in words."""
    w = words(lang)
    book = ruling.book
    name = r.request.partition(":")[2]
        # labels have commas of their own ("Član 7, stav 7"): a list of them takes semicolons
    articles = "; ".join(view.in_sentence(a, lang) for a in r.articles)
    if r.cause == "not-given" and r.articles and not getattr(r, "governed", False):
        # refused as no article gives it: every article the deciding findings apply answers it, not
        # only the first each cites (ulti walk 7: a renonsz payment asked for after the booking;
        # the booking deadline, cited second, is what refuses it)
        labels = [book.provisions[p].label for p in r.provisions or () if p in book.provisions]
        articles = "; ".join(view.in_sentence(a, lang) for a in dict.fromkeys(list(r.articles) + labels))
    if not articles and r.cause == "not-met" and r.provision in book.provisions:
        # the article invoked, whose conditions fail
        articles = view.in_sentence(book.provisions[r.provision].label, lang)
    reason = {
        "granted": w["reason_granted"], "own-infraction": w["reason_own"], "settled": w["reason_settled"],
        "set-aside": w["reason_set_aside"],
        # the violation ruled on first named by its article, and the rule that rules only on it
        "later": (w["reason_later_first"] if getattr(r, "first", "") and r.first not in r.articles
                  else w["reason_later"]),
        "not-given": (w["reason_no_violation"] if getattr(r, "no_violation", False) and articles
                      else w["reason_not_given_by"] if articles else w["reason_not_given"]),
        "not-met": w["reason_not_met"], "undecided": w["reason_undecided"],
        "no-article": w["reason_no_article_by"] if articles else w["reason_no_article"],
        "depends": w["reason_depends"], "less": w["reason_less"], "changed": w["reason_changed"],
        "other-event": w["reason_other_event"], "other-player": w["reason_other_player"],
    }.get(r.cause, "").format(articles=articles, given=_with_unit(ruling, r, r.given, lang),
                               asked=_with_unit(ruling, r, r.amount, lang),
                               by=getattr(r, "by_event", None), event=getattr(r, "event", None),
                               first=view.in_sentence(getattr(r, "first", "") or "", lang))
    if r.cause == "scope":
        # how long the effect lasts: the rules' scope against the one asked
        reason = w["reason_scope"].format(articles=articles, given=scope_label(book, name, r.given, lang),
                                          asked=scope_label(book, name, r.scope, lang))
    if r.cause == "depends" and getattr(r, "branches", None):
        # a conditional ruling: on which alternative the request is met
        reason += ": " + "; ".join(w["alt_answer"].format(n=n, answer=w[a])
                                   for n, a in enumerate(r.branches, 1))
    if r.cause == "not-met" and articles:       # the article whose conditions decide it
        reason += " " + w["cited"].format(articles=articles)
    answer = w[r.answer]
    if r.cause == "less" and r.answer == "granted":
        # less than asked is given: what is granted, and what is not (blind walk 8, s1)
        answer = w["granted_part"]
        reason = w["reason_less_part"].format(articles=articles, given=_with_unit(ruling, r, r.given, lang),
                                              asked=_with_unit(ruling, r, r.amount, lang))
    if r.cause == "part" and r.contrary:
        # met in part: which part is given, and what the ruling writes the other way
        answer = w["granted_part"]
        reason = w["reason_part"].format(articles=articles, contrary="; ".join(
            f"{view.in_sentence(a, lang)} ({view.penalty_words(ruling, line, lang)})" for a, line in r.contrary))
    return answer, reason


def _with_unit(ruling: Ruling, r, value, lang: str) -> str:
    """An amount a request asked for or the rules give, with the unit of the effect asked for
    ("1 trick, not 2 tricks"), so the bare numbers are not left to guess."""
    if isinstance(value, list):
        # an amount that depends on a fact not established: each value it may come to
        w = words(lang)
        return f" {w['or']} ".join([_plain_num(v) for v in value[:-1]] + [_with_unit(ruling, r, value[-1], lang)])
    shown = _plain_num(value)
    kind, _, name = r.request.partition(":")
    if not shown or kind != "effect":
        return shown
    forms, in_lang = view._in_lang((ruling.book.effects.get(name) or {}).get("unit"), lang)
    number = int(value) if isinstance(value, float) and value.is_integer() else value
    unit = unit_for(forms, in_lang, number)
    return f"{shown} {unit}" if unit else shown


def _plain_num(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value).replace("-", "−")


def appeal_notice(book, lang: str, tournament=None) -> str:
    """How and by when to appeal: the rulebook's own words where its text says, else the
    tournament's configuration, else a general line."""
    own = book.source.get("appeal") if isinstance(book.source, dict) else None
    if own:
        return text(own, lang)
    if tournament is not None and tournament.get("appeal"):
        return str(tournament.get("appeal"))
    return words(lang)["appeal_default"]


def facts(ruling: Ruling, lang: str, judgements: bool = False) -> list[dict]:
    """The facts found as statements, the shared ones first, then each event's; ``judgements``:
    only the referee's judgements (else only established facts)."""
    book = ruling.book
    groups = [(None, ruling.answers)] if not ruling.events else [(None, ruling.answers)] + [
        (k, {q: v for q, v in e.items() if q not in ruling.answers or ruling.answers[q] != v})
        for k, e in enumerate(ruling.events)]
    w = words(lang)
    rows = []
    # an answer nobody could establish that the rules settle by default (Član 21) is ruled on as
    # that default, but it is no fact found: it is listed once, under the facts not established
    defaulted = {(u.event, u.question) for u in ruling.unknown if u.has_default}
    for k, answers in groups:
        for qid, q in book.questions.items():
            if qid not in answers or q.judgement != judgements:
                continue
            value = answers[qid]
            if is_unknown(value) and q.type != "text":
                continue                     # listed under the facts not established
            if _of_event(ruling, defaulted, k, qid):
                continue
            rows.append({"event": None if k is None else w["event"].format(n=k + 1),
                         "text": _statement(ruling, q, value, lang)})
    return rows


def _of_event(ruling: Ruling, keys, event, qid: str) -> bool:
    """Whether (event, question) is among ``keys`` (pairs of an event, None for the deal, and a
    question id): the deal's answer counts for every event, and a dispute of one event (even one
    a case file gives under ``events:``) has no other to tell apart."""
    if (event, qid) in keys or (None, qid) in keys:
        return True
    return not ruling.events and any(q == qid for _, q in keys)


def _statement(ruling: Ruling, q, value, lang: str, joined: str = ": ") -> str:
    """A fact as a statement: a yes/no answer's own sentence, else its label and value, ``joined``
    by a colon (a dash where the statement itself follows a colon)."""
    said = view._stated(q, value, lang)
    if q.type == "yesno":
        return said or f"{text(q.text, lang)} — {words(lang)['yes' if value else 'no']}"
    if q.type == "seat":
        shown = view.player_name(ruling, value, lang)
    else:
        shown = show_value(q, value, ruling.book, lang)
    if q.id in ruling.from_cards:
        shown += f" [{words(lang)['from_cards']}: {'; '.join(ruling.from_cards[q.id])}]"
    if ": " in shown.split(" [", 1)[0]:
        joined = words(lang)["dash"]        # a value with a colon of its own: no chain of colons
    return f"{said}{joined}{shown}" if said else f"{text(q.text, lang)} — {shown}"


def unknown(ruling: Ruling, lang: str) -> list[dict]:
    w = words(lang)
    rows = []
    for u in ruling.unknown:
        if u.has_default:
            # labels have commas of their own ("Član 21, stav 1"): several take semicolons
            labels = "; ".join(view.in_sentence(ruling.book.provisions[c].label, lang)
                               for c in u.cites if c in ruling.book.provisions)
            q = ruling.book.questions[u.question]
            said = w["unknown_default"].format(articles=labels, value=show_value(q, u.default, ruling.book, lang))
        else:
            said = w["unknown_matters"] if u.matters else w["unknown_no_effect"]
        rows.append({"fact": _question_words(ruling, u.question, lang),
                     "event": None if u.event is None or not ruling.events else w["event"].format(n=u.event + 1),
                     "said": said})
    return rows


def events(ruling: Ruling, lang: str) -> list[dict]:
    w = words(lang)
    q = ruling.book.questions.get("claim")
    rows = []
    for k in range(ruling.event_count):
        answers = ruling.answers_of(k)
        claim = answers.get("claim") or []
        claim = claim if isinstance(claim, list) else [claim]
        what = []
        for c in claim:
            # a general claim ("an irregularity in the play") named by the specific one answered
            # under it (the play_claim), so two events are not labelled alike
            specific = _specific_claim(ruling, c, answers, lang)
            what += specific or [q.label(c, lang) if q else str(c)]
        said = "; ".join(dict.fromkeys(what))
        if lang in ("ru", "pl") and said:       # an item of a numbered list starts with a capital
            said = said[:1].upper() + said[1:]   # there (the native reviews); sr and hu keep it
        rows.append({"label": w["event"].format(n=k + 1), "what": said})
    return rows


def _specific_claim(ruling: Ruling, claim, answers: dict, lang: str) -> list[str]:
    """The labels of the answers to the question asked only under ``claim`` (bridge's play_claim
    under "play"), when the event has them; [] otherwise."""
    from referee.expert.language.conditions import AnswerTest
    for qid, sub in ruling.book.questions.items():
        when = sub.when
        if (not qid.endswith("_claim") or not isinstance(when, AnswerTest) or when.question != "claim"
                or when.op not in ("has", "is") or when.value != claim or qid not in answers
                or is_unknown(answers[qid]) or sub.type not in ("choice", "multi")):
            continue
        value = answers[qid]
        return [sub.label(v, lang) for v in (value if isinstance(value, list) else [value])]
    return []


def reasons(ruling: Ruling, lang: str) -> list[dict]:
    """The statement of reasons in words: each finding made, named by its article and what was
    concluded, with the facts it rests on written as in the facts found (a derived fact by the
    facts it was derived from); each set-aside as "<article> sets aside <article>". Production
    ids, conditions and derived names stay in the technical record."""
    from referee.expert.engine.verdict import article_of, winner_article
    book, w = ruling.book, words(lang)
    # per event: an answer not established in one event may be established in another
    not_established = {(u.event, u.question) for u in ruling.unknown or []}
    # an open fact the text settles (burden of proof, benefit of the doubt): taken so, by its article
    by_default = {(u.event, u.question): "; ".join(view.in_sentence(book.provisions[c].label, lang)
                                                   for c in u.cites if c in book.provisions)
                  for u in ruling.unknown or [] if u.has_default}

    def default_of(event, qid):
        for key in ((event, qid), (None, qid)):
            if key in by_default:
                return by_default[key]
        if not ruling.events:
            return next((v for (_, q), v in by_default.items() if q == qid), None)
        return None

    def production(pid):
        try:
            return book.production(pid)
        except (KeyError, StopIteration, ValueError):
            return None
    derived: dict = {}
    for t in ruling.trail:
        p = production(t["production"])
        if p is not None and p.action == "derive":
            derived.setdefault((t.get("event"), p.derive), t.get("facts") or [])
            derived.setdefault((None, p.derive), t.get("facts") or [])

    def statements(facts, event, depth=0) -> list[str]:
        out: list[str] = []
        for x in facts:
            if not isinstance(x, dict):
                continue
            if "answer" in x and x["answer"] in book.questions:
                said = _statement(ruling, book.questions[x["answer"]], x.get("value"), lang)
                # the trail counts events from 1, the facts not established from 0
                at = event - 1 if isinstance(event, int) and not isinstance(event, bool) and event > 0 else None
                taken = default_of(at, x["answer"])
                if said and taken is not None:
                    said = w["taken_by_default"].format(fact=lower_first(said, ruling),
                                                        articles=view.in_sentence(taken, lang))
                elif said and _of_event(ruling, not_established, at, x["answer"]):
                    # a fact nobody could establish: it holds only in the alternative that assumes it;
                    # its label and value joined by a dash, the phrase's colon the only one
                    q = book.questions[x["answer"]]
                    said = _statement(ruling, q, x.get("value"), lang, joined=w["dash"])
                    span = _range_of(ruling, q.id, x.get("value"))
                    if span is not None and _has_fact(q, lang):      # the range the value stands for
                        said = f"{_question_words(ruling, q.id, lang)}{w['dash']}{_range_words(span, w)}"
                    said = w["if_established"].format(fact=lower_first(said, ruling))
                out.append(said)
            elif "fact" in x and depth < 12:
                out += statements(derived.get((event, x["fact"])) or derived.get((None, x["fact"])) or [],
                                  event, depth + 1)
            elif "finding" in x and production(x["finding"]) is not None:
                out.append(w["step_finding"].format(article=article_of(book, production(x["finding"]))))
        return list(dict.fromkeys(s for s in out if s))

    # a finding that some other one sets aside, and that stands in no alternative, is not a reason:
    # the set-aside step names it (Továbbiak 5 set aside by Renonszok 1 was listed as if it stood)
    alts = ruling.alternatives or []
    standing = {(f.production, f.event) for f in [*ruling.findings, *(f for a in alts for f in a.findings)]}
    set_aside = {(n.production, n.event) for n in [*ruling.not_ruled, *(n for a in alts for n in a.not_ruled)]
                 if n.cause in ("override", "pending")}
    # and one a finding applying all its provisions with others stands in place of (70C and 70D
    # jointly for 70C alone): the step that says so names it
    set_aside |= {(n.production, n.event) for n in [*ruling.refined, *(n for a in alts for n in a.refined)]}

    # found, but not ruled on (Član 22: only the violation committed first is ruled on): the step
    # says so, never "violation established"
    later = {(n.production, n.event) for n in [*ruling.not_ruled, *(n for a in alts for n in a.not_ruled)]
             if n.cause == "later"}
    by_key = {(f.production, f.event): f for f in [*ruling.findings, *(f for a in alts for f in a.findings)]}
    unexamined = {e for c, e in zip(ruling.not_established, ruling.not_established_events or
                                    [0] * len(ruling.not_established))
                  if view.why_not_examined(ruling, c, e) is not None}
    steps, seen, whys = [], set(), set()
    for t in ruling.trail:
        p = production(t["production"])
        rule = t.get("rule") or t["production"]
        key = (rule if ">" in rule else t["production"], t.get("event"))
        if p is None or p.action == "derive" or key in seen:
            continue
        seen.add(key)
        event = t.get("event")
        where = lower_first(w["event"].format(n=event)) if event and ruling.events else ""
        if ">" in rule:
            loser = production(rule.split(">", 1)[1])
            if loser is None:
                continue
            if p.action == "keep_first":
                firsts = [production(x["finding"]) for x in t.get("facts") or []
                          if isinstance(x, dict) and x.get("finding") and x["finding"] != loser.id]
                first = next((f for f in firsts if f is not None), None)
                head = w["step_first"].format(rule=article_of(book, p), later=article_of(book, loser),
                                              first=article_of(book, first) if first else "")
            else:
                joint = _joint(ruling, loser.id, p.id, lang)
                # applied jointly: the step of the finding that applies it is named (blind walk 9:
                # "4.3.4: not applied on its own, but together with 4.1.4" read as if neither applied)
                head = (f"{view.head_label(article_of(book, loser), lang)}: " + w["joint"].format(others=joint)
                        + _SEE + f"{p.id}\x00{event}\x00"
                        if joint is not None else
                        w["step_override"].format(winner=_at_head(winner_article(book, p, loser), lang),
                                                  loser=view.in_sentence(article_of(book, loser), lang)))
                why = text(p.why, lang)
                if why and why not in whys:         # one reason, given once, lower-cased after the dash
                    head += f"{w['dash']}{lower_first(why, ruling)}"
                whys.add(why)
            steps.append({"event": where, "head": head, "facts": []})
            continue
        ev0 = event - 1 if isinstance(event, int) and event > 0 else 0
        if (p.id, ev0) in set_aside and (p.id, ev0) not in standing:
            continue
        if (p.id, ev0) not in standing and ev0 in unexamined:
            # an event whose claims were not examined (Član 22: only the violation committed
            # first is ruled on): its general "no violation" is no reason; the claim is listed
            # as not examined, never also as "no violation"
            continue
        if (p.id, ev0) in later and (p.id, ev0) not in standing:
            kind = w["not_ruled"]
        elif (p.id, ev0) in by_key:
            kind = kind_words(lang, view.finding_words_kind(ruling, by_key[(p.id, ev0)]))
        else:
            kind = kind_words(lang, p.kind) if p.kind else ""
        head = view.head_label(article_of(book, p), lang) + (f"{w['dash']}{lower_first(kind)}" if kind else "")
        steps.append({"event": where, "head": head, "facts": statements(t.get("facts") or [], event),
                      "_finding": (p.id, event)})
    return _see_steps(steps, w)


_SEE = "\x00see\x00"


def _see_steps(steps: list[dict], w: dict) -> list[dict]:
    """Each jointly applied article's step names the step of the finding that applies it ("see
    point 1"); none where that finding has no step of its own."""
    number = {s["_finding"]: n for n, s in enumerate(steps, start=1) if "_finding" in s}
    for s in steps:
        s.pop("_finding", None)
        while _SEE in s["head"]:
            before, _, rest = s["head"].partition(_SEE)
            production, event, after = rest.split("\x00", 2)
            n = number.get((production, None if event == "None" else int(event)))
            s["head"] = before + (f" ({w['joint_see'].format(n=n)})" if n else "") + after
    return steps


def considered(ruling: Ruling, lang: str) -> list[dict]:
    """The articles encoded for what was claimed that were not applied, each with what it
    requires and what was found instead (``engine.not_applied``)."""
    from referee.expert.engine.not_applied import not_applied
    w = words(lang)
    out = []
    for item in not_applied(ruling):
        # each requirement a plain statement, with what was found (blind walk 9: "it requires: not
        # dolaz of the claimant …: regular … (found: regular …)" glued a "not" onto a label)
        needs = "; ".join(_requirement(ruling, u, lang) for u in item.unmet)
        out.append({"article": view.head_label(item.article, lang),
                    "event": lower_first(w["event"].format(n=item.event + 1)) if ruling.events else "",
                    # no single answer rules it out: say so, never one alternative's condition
                    "why": (w["considered_why"].format(dash=w["dash"], needs=needs) if item.unmet
                            else w["considered_none"].format(dash=w["dash"]))})
    return out


def _requirement(ruling: Ruling, u, lang: str) -> str:
    """One condition an article needed, and the answer found instead, as a statement: "it requires:
    the contra was given without trumps; found: …"; a value the article needs NOT to be found says
    so of the fact by name ("it requires that “dolaz of …” not be “regular …”; it was “regular …”"),
    never "not" before the fact's label."""
    w = words(lang)
    q = ruling.book.questions[u.question]
    found = _found(ruling, u, lang)
    if not u.positive and q.type != "yesno" and u.op in ("is", "in", "has"):
        values = u.value if u.op == "in" else [u.value]
        shown = f" {w['or']} ".join(view.player_name(ruling, v, lang) if q.type == "seat"
                                    else show_value(q, v, ruling.book, lang) for v in values)
        return w["considered_req_not"].format(fact=lower_first(_question_words(ruling, q.id, lang), ruling),
                                              value=shown, found=found)
    return w["considered_req"].format(req=_needs(ruling, u, lang), found=found)


def _found(ruling: Ruling, u, lang: str) -> str:
    """The answer found instead: a yes/no answer's sentence, else the value alone (the label was
    just said with what the article requires)."""
    q = ruling.book.questions[u.question]
    if q.type == "yesno":
        return lower_first(_statement(ruling, q, u.found, lang), ruling).rstrip(".")
    if q.type == "seat":
        return view.player_name(ruling, u.found, lang)
    return show_value(q, u.found, ruling.book, lang)


def _needs(ruling: Ruling, u, lang: str) -> str:
    """What an article's condition requires of one answer, as a statement."""
    book, w = ruling.book, words(lang)
    q = book.questions[u.question]
    positive, value = u.positive, u.value
    if q.type == "yesno" and u.op == "is":
        positive, value = True, value if u.positive else not value
    if u.op in ("is", "has"):
        said = _statement(ruling, q, [value] if u.op == "has" else value, lang)
    elif u.op == "in":
        shown = f" {w['or']} ".join(view.player_name(ruling, v, lang) if q.type == "seat"
                                    else show_value(q, v, book, lang) for v in value)
        said = f"{_question_words(ruling, q.id, lang)}: {shown}"
    elif u.op in ("ge", "gt", "le", "lt", "count_ge"):
        signs = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<", "count_ge": "≥"}
        flipped = {"ge": "<", "gt": "≤", "le": ">", "lt": "≥", "count_ge": "<"}
        # a comparison it needs not to hold is the opposite one ("not ≥ 3" is "< 3")
        sign = signs[u.op] if positive else flipped[u.op]
        positive = True
        said = f"{_question_words(ruling, q.id, lang)} {sign} {value}"
    else:
        said = _question_words(ruling, q.id, lang)
    said = lower_first(said, ruling).rstrip(".")
    return said if positive else f"{w['considered_not']}{said}"


def _at_head(labels: str, lang: str) -> str:
    """Several labels starting a line ("Правило 70C, правило 70D: …"): the first keeps its capital,
    the others are written as in running text."""
    said = view.in_sentence(labels, lang)
    return said[:1].upper() + said[1:]


def technical(ruling: Ruling, lang: str) -> dict:
    """The one block that keeps what rule authors check: the encoding's edition and hash, the
    provision ids behind each article quoted, the productions that fired with the conditions
    they read, and what was set aside, by id."""
    book, w = ruling.book, words(lang)
    quoted: dict[str, list[str]] = {}
    findings = list(ruling.findings) + [f for alt in ruling.alternatives for f in alt.findings]
    for f in findings:
        for pid in [*f.provisions, *view.default_provisions(ruling, f)]:
            if pid in book.provisions:
                label = book.provisions[pid].label
                quoted.setdefault(label, [])
                if pid not in quoted[label]:
                    quoted[label].append(pid)
    not_ruled = list(ruling.not_ruled) + [n for alt in ruling.alternatives for n in alt.not_ruled]
    return {
        "encoding": w["encoding_text"].format(game=book.game, edition=book.edition, hash=_hash(book)),
        "source": book.source.get("document", "") if isinstance(book.source, dict) else "",
        "quoted": [f"{label}: {', '.join(ids)}" for label, ids in quoted.items()],
        "trail": [f"{t['production']} ({', '.join(t['cites'])}){': ' + t['facts'] if t['facts'] else ''}"
                  for t in view._trail(ruling)],
        "set_aside": list(dict.fromkeys(f"{n.production} ({', '.join(n.provisions)}) < {n.by}" for n in not_ruled)),
    }


def _hash(book) -> str:
    try:
        from referee.expert.records.record import rulebook_identity
        return rulebook_identity(book)["hash"].removeprefix("sha256:")[:16]
    except Exception:        # a rulebook without files (a test double): no hash to show
        return "—"


def stored_views(ruling: Ruling, tournament=None) -> dict:
    """The document in every language the rulebook has, as plain JSON for the ruling's record:
    a reprint renders these, exactly as decided, without ruling again. The ruling's words (``w``)
    are the template's and are not stored."""
    from referee.reports.render import rulebook_languages
    views = {}
    for lang in rulebook_languages(ruling.book):
        view = build(ruling, lang, None, tournament)
        view.pop("w", None)
        views[lang] = _json_safe(view)
    return views


def from_stored(stored: dict, lang: str, code: str | None) -> dict:
    """A stored view made whole again for the templates."""
    view = dict(stored)
    view["w"] = words(lang)
    view["code"] = code
    # a record stored before the statement of reasons was written in words: its trail goes to
    # the technical record, as it was
    view.setdefault("reasons", [])
    # a record stored before the edition stood beside the title, or before an undecided request
    # was printed as open
    view.setdefault("edition_line", view["w"]["edition_of"].format(edition=view["edition"]) if view.get("edition") else "")
    view["requests"] = [{**q, "open": q.get("open", q.get("answer") == view["w"]["undecided"])}
                        for q in view.get("requests") or [] if isinstance(q, dict)]
    view.setdefault("technical", {
        "encoding": view.get("encoding", ""), "source": view.get("source", ""), "quoted": [], "set_aside": [],
        "trail": [f"{t.get('production')} ({', '.join(t.get('cites') or [])})" + (f": {t['facts']}" if t.get("facts") else "")
                  for t in view.get("trail") or [] if isinstance(t, dict)]})
    return view


def _json_safe(value):
    """A view as plain JSON data (the register stores it)."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
