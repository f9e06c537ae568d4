"""The ruling as plain data for the templates, in one language: words, not engine objects."""
from __future__ import annotations

import re
from datetime import date

from referee.expert.language.answers import show_value
from referee.expert.language.expressions import amount_working, params_in
from referee.expert.language.finding_kinds import kind as kind_of
from referee.expert.language.model import text
from referee.expert.language.places import placed_label
from referee.expert.engine.verdict import PenaltyLine, Ruling, why_not_examined

from referee.reports.i18n import kind_words, unit_for, words

HEADER_KEYS = ("tournament", "table", "deal", "date", "referee")


def player_name(ruling: Ruling, seat: str | None, lang: str) -> str:
    if not seat:
        return ""
    label = seat_label(ruling, seat, lang)
    name = (ruling.header.get("players") or {}).get(seat)
    return f"{name} ({unnested(label)})" if name else label


def seat_label(ruling: Ruling, seat: str, lang: str) -> str:
    """The seat's label, naming the place its player actually sat where the rulebook asks it.

    Seats that are roles (skat: the soloist and two opponents) sit in places that change from
    deal to deal, so their labels describe every case. A rulebook may ask where one role sat
    (``<seat>_place``, expert/language/places.py): "second opponent (Zadek/Hinterhand)". No
    answer, or one that names no place, leaves the label as it is."""
    return placed_label(ruling.book, seat, ruling.answers, lang)


def unnested(label: str) -> str:
    """A seat label to print inside parentheses: its own bracket becomes a comma, so the ruling
    never nests parentheses ('Vesna (drugi pratilac, drugi na izjašnjavanju)')."""
    head, sep, rest = label.partition(" (")
    if sep and rest.endswith(")") and "(" not in rest:
        return f"{head}, {rest[:-1]}"
    return label


def side_name(ruling: Ruling, seat: str | None, lang: str) -> str:
    """The partnership of ``seat`` (bridge: North–South), with the names given for its players."""
    if not seat:
        return ""
    side = next((list(p) for p in ruling.book.partnerships if seat in p), [seat])
    labels = "–".join(seat_label(ruling, s, lang) for s in side)
    players = ruling.header.get("players") or {}
    names = [str(players[s]) for s in side if players.get(s)]
    return f"{labels} ({', '.join(names)})" if names else labels


def _in_lang(value, lang: str):
    """A {lang: forms} mapping's forms in ``lang`` (else English, else any), and that language."""
    if not isinstance(value, dict):
        return value, lang
    for key in (lang, "en", *value):
        if value.get(key):
            return value[key], key
    return None, lang


def penalty_words(ruling: Ruling, line: PenaltyLine, lang: str, working: str | None = None) -> str:
    """One penalty line in words; ``working``: how its amount was computed, shown after it."""
    w = words(lang)
    effect = ruling.book.effects.get(line.effect) or {}
    label = text(effect.get("label"), lang) or line.effect
    who = side_name if effect.get("side") else player_name
    result = f"{who(ruling, line.player, lang)}{w['dash']}{label}"
    if line.amount is not None:
        value = int(line.amount) if isinstance(line.amount, float) and line.amount.is_integer() else line.amount
        # the minus typeset as in the score sheet's entries (−40, never -40)
        amount = (f"{value:g}" if isinstance(value, float) else str(value)).replace("-", "−")
        forms, in_lang = _in_lang(effect.get("unit"), lang)
        unit = unit_for(forms, in_lang, value)
        result += f": {amount}{(' ' + unit) if unit else ''}"
        if working:
            result += f" (= {working})"
        if line.cards:
            result += f" ({line.cards})"
    elif line.cards:
        result += f": {line.cards}"
    if line.against:
        against = _in_lang(effect.get("against"), lang)[0] or w["against"]
        result += ", " + str(against).format(who=who(ruling, line.against, lang))
    if line.options:
        # an amount that depends on a fact not established: what it comes to under each answer
        parts = []
        for when, amount in line.options:
            # a number beside its fact's label ("tricks ... after the lead — 4"), never bare
            shown = "; ".join(_labelled(ruling.book.questions[qid], v, ruling.book, lang)
                              for qid, v in when.items() if qid in ruling.book.questions)
            parts.append(f"{_num(amount)} ({shown})")
        result += ": " + f" {w['or']} ".join(dict.fromkeys(parts))
    elif line.needs:
        q = ruling.book.questions.get(line.needs)     # the question as asked, not its id
        # an answer given as 'unknown' is no missing answer: the fact is not established
        said = w["not_computed_unknown" if _answered_unknown(ruling, line.needs) else "missing"]
        result += f" ({said.format(q=text(q.text, lang) if q else line.needs)})"
    return result


def _labelled(q, value, book, lang: str) -> str:
    if q.type != "number":
        return show_value(q, value, book, lang)        # a choice's value names itself: "pik"
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    label = fact if isinstance(fact, str) else text(q.text, lang).rstrip("?")
    label = label[:1].lower() + label[1:] if label[1:2].islower() else label
    return f"{label}{words(lang)['dash']}{show_value(q, value, book, lang)}"


def _answered_unknown(ruling: Ruling, qid: str) -> bool:
    """Whether the question was answered 'unknown' (in the deal or in any event)."""
    from referee.expert.language.answers import is_unknown
    return any(is_unknown(ruling.answers_of(k).get(qid)) for k in range(ruling.event_count)) or \
        is_unknown(ruling.answers.get(qid))


def _num(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return (f"{value:g}" if isinstance(value, float) else str(value)).replace("-", "−")


def effects_heading(ruling: Ruling, f) -> str:
    """The word over a finding's effects: its kind's ("penalty" for a violation), unless none of
    the effects printed names the offender's side, as the one it is written for or the one it
    is written against and burdens: then they are the consequence the innocent side has (skat
    4.1.4/4.1.5: the soloist's game scored as won), no penalty."""
    heading = kind_of(f.kind).heading
    if heading != "penalty" or not f.offender:
        return heading
    from referee.expert.engine.requests import side_of
    book = ruling.book
    side = side_of(book, f.offender)
    lines = [p for p in f.penalty if p.amount != 0]
    for p in lines:
        gains = bool((book.effects.get(p.effect) or {}).get("against_gains"))
        if p.player in side or (p.against in side and not gains) or p.player in (None, "?"):
            return heading
    return "consequence" if lines else heading


def finding_words_kind(ruling: Ruling, f) -> str:
    """The key of what a finding establishes: its kind, or, for a violation whose effects are
    all the innocent side's (see ``effects_heading``), "violation-consequence"; for "no
    violation" resting on a fact nobody established, settled by the answer the text prescribes
    for that case, "no-violation-not-proven": the violation is not established, which is not
    the same as found not to have happened (blind walk 8, U3)."""
    if f.kind == "violation" and effects_heading(ruling, f) == "consequence":
        return "violation-consequence"
    if f.kind == "no-violation" and defaults_behind(ruling, f):
        return "no-violation-not-proven"
    return f.kind


def defaults_behind(ruling: Ruling, f) -> list:
    """The facts nobody established that the finding ``f`` rests on, each settled by the answer
    the text prescribes for that case (``UnknownFact`` with a default): those its productions
    read (the trail), in the finding's event or the deal's."""
    defaults = [u for u in ruling.unknown or [] if u.has_default and u.event in (None, f.event)
                and u.question in ruling.book.questions]
    if not defaults:
        return []
    read = questions_behind(ruling, f.production)
    return [u for u in defaults if u.question in read]


def default_provisions(ruling: Ruling, f) -> list[str]:
    """The provisions that prescribe the answers ``f`` rests on for facts nobody established:
    they decide the finding as much as its own articles do, so they are applied and quoted."""
    out: list[str] = []
    for u in defaults_behind(ruling, f):
        out += [c for c in u.cites if c in ruling.book.provisions and c not in out and c not in f.provisions]
    return out


def questions_behind(ruling: Ruling, production: str) -> set[str]:
    """The questions the productions that led to ``production``'s finding tested (the trail),
    through the facts they derived."""
    trail = getattr(ruling, "trail", None) or []
    book = ruling.book
    read: set[str] = set()
    todo, seen = [production], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for t in trail:
            if t.get("production") != name:
                continue
            for x in t.get("facts") or []:
                if "answer" in x:
                    read.add(x["answer"])
                elif "fact" in x:
                    todo += [p.id for p in book.productions if p.derive == x["fact"]]
    return read


def build(ruling: Ruling, lang: str = "en", code: str | None = None) -> dict:
    book, w = ruling.book, words(lang)
    findings = []
    # an incomplete ruling's finding that waits for facts (adjudicate: a finding held back for it)
    waiting = {(n.by, n.event) for n in ruling.not_ruled if n.cause == "pending"}
    for f in ruling.findings:
        shown_kind = ("pending-finding" if (f.production, f.event) in waiting and f.kind == "undecided"
                      else finding_words_kind(ruling, f))
        findings.append({
            "article": head_label(f.article, lang), "kind": f.kind, "kind_words": _after_dash(kind_words(lang, shown_kind), lang),
            "summary": text(f.summary, lang),
            # a lost right or a claim that fails names no offender (the finding kinds' table)
            "offender": player_name(ruling, f.offender, lang) if kind_of(f.kind).names_offender else None,
            # with the provisions that prescribe the answer to a fact nobody established, where
            # the finding rests on one: they decide it (blind walk 8, U3)
            "provisions": [{"id": pid, "label": head_label(book.provisions[pid].label, lang),
                            "quote": book.provisions[pid].quote,
                            "english": book.provisions[pid].english}
                           for pid in [*f.provisions, *default_provisions(ruling, f)] if pid in book.provisions],
            # a payment that comes to 0 is no penalty: the record keeps it, the ruling does not print it
            "penalty": [penalty_words(ruling, p, lang, w_) for p, w_ in zip(f.penalty, _workings(ruling, f))
                        if p.amount != 0],
            # only a violation's effects are a penalty; a rectification's are its consequence, and
            # so is what the innocent side gains (skat 4.1.5: the soloist wins, the opponents revoked)
            "penalty_heading": w[effects_heading(ruling, f)],
            "values_used": _values_used(ruling, f, lang),
            "orders": [text(o, lang) for o in f.orders],
            "readings": [text(r, lang) for r in f.readings],
        })
    header = {k: ruling.header[k] for k in HEADER_KEYS if ruling.header.get(k) not in (None, "")}
    header.setdefault("date", date.today().isoformat())
    return {
        "lang": lang, "w": w,
        "title": text(book.title, lang), "game": book.game, "edition": book.edition,
        "language": book.language, "source": book.source.get("document", ""),
        "header": [(w[k], v) for k, v in header.items()],
        "header_line": " · ".join(f"{w[k]} {v}" for k, v in header.items() if k != "date"),
        "players": [(unnested(seat_label(ruling, s, lang)), n) for s, n in (ruling.header.get("players") or {}).items()],
        "facts": _facts(ruling, lang),
        "findings": findings,
        "no_infraction": ruling.no_infraction,
        "not_ruled": [{"article": head_label(n.article, lang), "provisions": n.provisions, "reason": _reason(n, lang)}
                      for n in ruling.not_ruled],
        "not_established": [(_claim_label(ruling, c, lang), _not_examined(ruling, c, lang, k))
                            for c, k in zip(ruling.not_established,
                                            ruling.not_established_events or [0] * len(ruling.not_established))],
        "trail": _trail(ruling),
        "code": code,
    }


def _values_used(ruling: Ruling, f, lang: str) -> list[str]:
    """The rulebook parameters the finding's amounts read, each with where its values come from."""
    entries = (ruling.book.production(f.production).finding or {}).get("penalty") or []
    names = params_in([e.get("amount") for e in entries]) if f.penalty else []
    return values_of(ruling, names, lang)


def values_of(ruling: Ruling, names: list[str], lang: str) -> list[str]:
    """Each named parameter's description with where its values come from (the source, or the
    tournament's value)."""
    params, book = ruling.book.parameters, ruling.book
    w = words(lang)

    def source(n):
        if n in book.tournament_values:
            return w["tournament_value"].format(value=_value_words(book.tournament_values[n]))
        said = params[n].get("source")
        # a source written in English only prints so, marked as such under the local heading
        english = lang != "en" and not (isinstance(said, dict) and said.get(lang)) and bool(text(said, lang))
        return text(said, lang) + (f" {w['source_english']}" if english else "")
    return [f"{(text(params[n].get('description'), lang) or n).rstrip('.')}: {source(n)}"
            for n in names if n in params]


def _value_words(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_words(v)}" for k, v in value.items())
    return str(value)


def _workings(ruling: Ruling, f) -> list[str | None]:
    """For each penalty line of a finding, how its amount was computed (None: nothing to show)."""
    entries = (ruling.book.production(f.production).finding or {}).get("penalty") or []
    return [plain_working(amount_working(e.get("amount"), ruling.book, ruling.answers))
            for e in entries] + [None] * len(f.penalty)


def plain_working(working: str | None) -> str | None:
    """A working as a reader checks it: "min(…)"/"max(…)" replaced by the value chosen (a function
    call is the encoding's notation, not the ruling's), the minus sign typeset."""
    if not working:
        return working
    call = re.compile(r"\b(min|max)\(([^()]*)\)")
    while True:
        m = call.search(working)
        if m is None:
            break
        try:
            values = [_arith(a) for a in m.group(2).split(",")]
        except ValueError:
            return None                     # not plain arithmetic: show no working at all
        chosen = (min if m.group(1) == "min" else max)(values)
        working = working[:m.start()] + _num(chosen) + working[m.end():]
    return working.replace("-", "−")


def _arith(expr: str) -> float:
    """A working's plain arithmetic (numbers, + − ×, parentheses) evaluated without eval."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[-−+×()]", expr.replace(" ", ""))
    if "".join(tokens) != expr.replace(" ", ""):
        raise ValueError(expr)
    pos = 0

    def atom():
        nonlocal pos
        tok = tokens[pos] if pos < len(tokens) else ""
        pos += 1
        if tok in ("-", "−"):
            return -atom()
        if tok == "(":
            value = total()
            pos += 1
            return value
        return float(tok)

    def product():
        nonlocal pos
        value = atom()
        while pos < len(tokens) and tokens[pos] == "×":
            pos += 1
            value *= atom()
        return value

    def total():
        nonlocal pos
        value = product()
        while pos < len(tokens) and tokens[pos] in ("+", "-", "−"):
            op = tokens[pos]
            pos += 1
            value = value + product() if op == "+" else value - product()
        return value
    try:
        return total()
    except (IndexError, ValueError) as exc:
        raise ValueError(expr) from exc


def _trail(ruling: Ruling) -> list[dict]:
    """The productions that fired, in order; one that fired on two of its alternatives once. An
    answer nobody established (and the text gives no default for) was ruled on each value it
    may take; the trail shows the value tried as tried, never as the answer given (blind walk 9,
    P1: an unknown count of tricks read "tricks_first = 0")."""
    open_ = {u.question for u in ruling.unknown or [] if not getattr(u, "has_default", False)}
    steps, seen = [], set()
    for t in ruling.trail:
        name = t["rule"].replace(">", " > ") if ">" in t["rule"] else t["production"]
        if name in seen:
            continue
        seen.add(name)
        steps.append({"production": name, "cites": t["cites"],
                      "facts": ", ".join(_fact_words(x, open_) for x in t["facts"])})
    return steps


def _facts(ruling: Ruling, lang: str) -> list[tuple[str, str]]:
    book, w = ruling.book, words(lang)
    rows = []
    for qid, q in book.questions.items():
        if qid in ruling.answers:
            value = ruling.answers[qid]
            said = _stated(q, value, lang)
            shown = "" if said and q.type == "yesno" else (
                w["yes" if value else "no"] if q.type == "yesno" else show_value(q, value, book, lang))
            if qid in ruling.from_cards:
                shown += f" [{w['from_cards']}: {'; '.join(ruling.from_cards[qid])}]"
            if said and shown and q.type != "yesno":
                said += ":"                 # a label, then its value: no name is declined
            rows.append((said or text(q.text, lang), shown.strip()))
    return rows


def _stated(q, value, lang: str) -> str:
    """The question's ``fact:`` in ``lang`` (or English): the statement a yes/no answer makes, or
    the label the value is printed after; "" when the question has none."""
    fact = q.fact or {}
    said = fact.get(lang) or fact.get("en")
    if isinstance(said, dict):
        return said.get("yes" if value else "no", "")
    return said or ""


def in_sentence(labels: str, lang: str) -> str:
    """Citations inside a sentence: Russian and Serbian write "правило 53A", "član 7" in lower
    case there (the labels start with a capital, as headings); several are separated by commas."""
    if lang not in ("ru", "sr"):
        return labels
    return ", ".join(part[0].lower() + part[1:] if part.startswith(("Правило ", "Član ")) else part
                     for part in labels.split(", "))


def head_label(label: str, lang: str) -> str:
    """An article's label at the head of a line or a heading: Polish writes a bare paragraph number
    there as "Pkt. 4.1.7" (the label itself is only the number, which the running text's own
    "pkt. {label}" already prefixes); other languages' labels carry their own word."""
    if lang == "pl" and label[:1].isdigit():
        return f"Pkt. {label}"
    return label


def _reason(n, lang: str) -> str:
    w = words(lang)
    if n.cause == "override":
        return w["override"].format(winner=in_sentence(n.winner_article, lang), why=text(n.why, lang)).strip()
    if n.cause == "later":
        return w["later"].format(first=in_sentence(n.first_article, lang), rule=in_sentence(n.winner_article, lang))
    if n.cause == "pending":
        # an incomplete ruling: a rule that may yet prevail waits for facts still open
        return w["pending"].format(winner=in_sentence(n.winner_article, lang))
    return n.reason


def _not_examined(ruling: Ruling, claim, lang: str, event: int = 0) -> str:
    w = words(lang)
    why = why_not_examined(ruling, claim, event)
    if why is None:
        return w["not_established_text"]
    if why[0] == "override":
        return w["not_examined_override"].format(winner=in_sentence(why[1], lang))
    return w["not_examined_later"].format(first=in_sentence(why[1], lang), rule=in_sentence(why[2], lang))


def _claim_label(ruling: Ruling, value, lang: str) -> str:
    q = ruling.book.questions.get("claim")
    return q.label(value, lang) if q else str(value)


def _fact_words(fact: dict, open_: set = frozenset()) -> str:
    if "answer" in fact:
        value = fact["value"]
        if isinstance(value, list):
            shown = ", ".join(map(str, value))
        elif isinstance(value, bool):
            shown = str(value).lower()
        else:
            shown = str(value)
        if fact["answer"] in open_:
            return f"{fact['answer']} = unknown (tried as {shown})"
        return f"{fact['answer']} = {shown}"
    if "fact" in fact:
        return f"derived: {fact['fact']}"
    return f"finding: {fact.get('finding')}"


def _after_dash(words_: str, lang: str) -> str:
    """A finding's kind follows its article after a dash ("Član 7, stav 6 – nema povrede"): in
    lower case in the rulebooks' languages, as native reviewers corrected it (English headings
    keep the capital)."""
    return words_ if lang == "en" or not words_ else words_[:1].lower() + words_[1:]
