"""Ruling on a dispute as the referee found it: events, facts nobody could establish, requests.

An answer 'unknown' is read in three ways, in this order:
1. the question declares what the text prescribes when the fact cannot be established (burden of
   proof, benefit of the doubt): that answer is used, and the ruling cites the provision;
2. otherwise every answer the question allows is tried (numbers: the values around each
   threshold the rulebook compares them with), with the questions its answer closes dropped,
   as the interview would drop them. When all give the same ruling, that is the ruling and the
   fact is listed as not established, without consequence;
3. when they differ, the ruling is conditional: one alternative per distinct ruling, each
   complete, under the answers that lead to it. The findings common to all alternatives are
   the ruling's own findings.
"""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from referee.expert.engine.carried import carries_anything, forward, with_carried
from referee.expert.engine.events import rule_events
from referee.expert.engine.requests import answer_all
from referee.expert.engine.result import compute as compute_result
from referee.expert.engine.ruler import Ruler
from referee.expert.engine.verdict import Alternative, Ruling, UnknownFact
from referee.expert.interview.relevance import (Interview, asked_across_events, from_other_events, prune,
                                                set_aside_by_earlier)
from referee.expert.language import conditions as cond
from referee.expert.language.answers import allowed_values, is_unknown, unknown_among
from referee.expert.language.dispute import Dispute
from referee.expert.language.exclusions import excluded
from referee.expert.language.expressions import questions_in_finding
from referee.expert.language.model import Rulebook
from referee.expert.language.qtypes import qtype

MAX_BRANCHES = 256      # combinations of unknown answers tried; beyond, the last unknowns stay open


def rule_dispute(ruler: Ruler, dispute: Dispute, header: dict | None = None,
                 from_cards: dict | None = None, ask: bool = True) -> Ruling:
    """``ask``: also list the questions the interview would still ask (``open_questions``)."""
    ruling = _rule_dispute(ruler, dispute, header, from_cards, ask)
    unread = _unread_readings(ruler.book, dispute, ruling)
    if unread:
        # a rule on acts of different events (ulti: only the first renonsz is settled) applied
        # on a reading of the deal nobody gave: ruled as unknown, so both readings are shown
        # rather than one taken in silence (the interview asks readings per event and never saw
        # the two acts together)
        from dataclasses import replace

        from referee.expert.language.model import UNKNOWN
        answers = {**dispute.answers, **{q: UNKNOWN for q in unread}}
        ruling = _rule_dispute(ruler, replace(dispute, answers=answers), header, from_cards, ask)
    return ruling


def _unread_readings(book: Rulebook, dispute: Dispute, ruling: Ruling) -> list[str]:
    """The deal's questions (scope: deal) that a rule setting aside a later event's finding
    reads and nobody answered."""
    answered = set(dispute.answers) | {q for e in dispute.events for q in e}
    later = [n for n in ruling.not_ruled + [x for a in ruling.alternatives for x in a.not_ruled]
             if n.cause == "later"]
    found: list[str] = []
    for n in later:
        p = book.production(n.by)
        if p is None or p.when is None:
            continue
        for q in sorted(cond.questions_read(p.when)):
            if q not in answered and q not in found and q in book.questions \
                    and book.questions[q].scope == "deal":
                found.append(q)
    return found


def _rule_dispute(ruler: Ruler, dispute: Dispute, header: dict | None = None,
                  from_cards: dict | None = None, ask: bool = True) -> Ruling:
    if not dispute.order_known and len(dispute.events) > 1:
        return _in_every_order(ruler, dispute, header, from_cards, ask)
    book = ruler.book
    shared, events = dict(dispute.answers), [dict(e) for e in dispute.events]
    facts: list[UnknownFact] = []
    # 1. the defaults the text prescribes
    for where, answers in _places(shared, events):
        for qid, value in list(answers.items()):
            q = book.questions.get(qid)
            if q is not None and is_unknown(value) and q.unknown:
                answers[qid] = q.unknown["value"]
                facts.append(UnknownFact(qid, where, matters=False, default=q.unknown["value"],
                                         cites=list(q.unknown.get("cites") or []), why=q.unknown.get("why")))
    # 2. the unknowns a ruling can branch on
    open_ = [(where, qid) for where, answers in _places(shared, events)
             for qid, value in answers.items() if is_unknown(value)
             # a number left between given values, read only by an amount: each value is tried,
             # so the amount shows what it comes to under each ("4 -> 56 or 5 -> 70")
             and (_read_by_conditions(book, qid) or unknown_among(value))]
    domains = [unknown_among(_value(shared, events, where, qid))
               or candidates(book, qid) or _orders(book, qid, shared if where is None else {**shared, **events[where]})
               for where, qid in open_]
    while open_ and _count(domains) > MAX_BRANCHES:
        open_.pop()
        domains.pop()
    if not open_:
        ruling = _rule(ruler, book, shared, events, header, from_cards)
        waiting = {p.needs for f in ruling.findings for p in f.penalty if p.needs}
        facts += [UnknownFact(qid, where, matters=qid in waiting) for where, answers in _places(shared, events)
                  for qid, value in answers.items() if is_unknown(value) and not any(
                      f.question == qid and f.event == where for f in facts)]
    else:
        outcomes, trials = [], []
        for combo in itertools.product(*domains):
            s, es = dict(shared), [dict(e) for e in events]
            for (where, qid), value in zip(open_, combo):
                (s if where is None else es[where])[qid] = value
            trials.append((combo, s, es))
        # an answer the answers given rule out (a declared impossible combination) is no alternative
        possible = [t for t in trials if not excluded(book, t[1], t[2])] or trials
        for combo, s, es in possible:
            outcomes.append((combo, _rule(ruler, book, s, es, header, from_cards)))
        ruling = _combine(book, open_, outcomes, shared, events, header, from_cards)
        facts += [UnknownFact(qid, where, matters=_matters(i, outcomes)) for i, (where, qid) in enumerate(open_)]
        facts += [UnknownFact(qid, where, matters=False) for where, answers in _places(shared, events)
                  for qid, value in answers.items() if is_unknown(value)
                  and (where, qid) not in open_ and not any(f.question == qid and f.event == where for f in facts)]
    ruling.unknown = facts
    ruling.result = _result(book, ruling, ruling.findings)
    for alt in ruling.alternatives:
        alt.book, alt.header = book, ruling.header
        alt.result = _result(book, ruling, alt.findings, alt.answers)
    if ruling.alternatives:
        ruling.result = _conditional_result(ruling)
    ruling.open_questions = open_questions(book, dispute, ruler) if ask else []
    if ruling.open_questions:
        _hold_back(book, dispute, ruling)
    ruling.requests = answer_all(ruling, dispute.requests)
    _requests_on_open_questions(ruler, dispute, ruling, header, from_cards)
    return ruling


# What an incomplete ruling says of a finding that a rule still in reach of the open questions
# would set aside, by language: {article} is the rule that may prevail, {facts} what it waits for.
PENDING = {
    "en": "The facts answered so far bring the claim under {article}; what it gives waits for facts not yet "
          "established ({facts}). Until they are, {aside} is not applied: {article} sets it aside where it applies.",
    "sr": "Dosad utvrđene činjenice podvode reklamaciju pod {article}; ono što taj član daje čeka činjenice "
          "koje još nisu utvrđene ({facts}). Dok se ne utvrde, {aside} se ne primenjuje: {article} ga isključuje "
          "kada se primenjuje.",
    "pl": "Ustalone dotąd fakty podpadają pod {article}; to, co przepis daje, czeka na fakty jeszcze "
          "nieustalone ({facts}). Do tego czasu {aside} nie ma zastosowania: {article} go wyłącza, gdy ma zastosowanie.",
    "ru": "Установленные пока факты подпадают под {article}; то, что оно даёт, ждёт ещё не установленных "
          "фактов ({facts}). До тех пор {aside} не применяется: {article} его исключает, когда применяется.",
    "hu": "Az eddig megválaszolt tények alapján a kifogás a(z) {article} alá esik; amit ez ad, még meg nem "
          "állapított tényekre vár ({facts}). Addig a(z) {aside} nem alkalmazandó: a(z) {article} kizárja, ha alkalmazandó.",
}


def _fact_label(book: Rulebook, qid: str, lang: str) -> str:
    """A question as the fact it establishes (its ``fact:`` label, else its text)."""
    q = book.questions.get(qid)
    if q is None:
        return qid
    fact = (q.fact or {}).get(lang) or (q.fact or {}).get("en")
    if isinstance(fact, str):
        return fact[:1].lower() + fact[1:] if not fact[1:2].isupper() else fact
    from referee.expert.language.model import text
    return text(q.text, lang).rstrip("?")


def _refines(p, f) -> bool:
    """Whether production ``p``'s finding keeps what finding ``f`` decides: an infraction as
    ``f`` is one or not, and every effect ``f`` writes."""
    from referee.expert.language.finding_kinds import kind as kind_of
    effects = {e.get("effect") for e in (p.finding.get("penalty") or []) if isinstance(e, dict)}
    return (kind_of(p.kind or "").infraction == kind_of(f.kind).infraction
            and {line.effect for line in f.penalty} <= effects)


def _hold_back(book: Rulebook, dispute: Dispute, ruling: Ruling) -> None:
    """An incomplete ruling (questions still open) does not promote a finding that a rule still
    within reach of the open questions would set aside: the ulti warning of Továbbiak 5 for an
    early speech while Renonszok 1, whose facts are answered, waits only for the declarer's game
    to say what is paid (blind walk 8). Such a finding is held back (not ruled, cause
    ``pending``), and the decision says instead what the answers establish and what it waits for:
    an undecided finding of the rule that may prevail."""
    from referee.expert.engine.verdict import FindingOut, NotRuled
    from referee.expert.interview.relevance import _producers, _state
    per_event = dispute.event_answers()
    facts = ", ".join(ruling.open_questions)
    kept, added = [], []
    for f in ruling.findings:
        answers = per_event[min(f.event, len(per_event) - 1)]
        state = _state(book, answers, _producers(book))
        # a rival that only refines the finding (the same kind of finding, its effects and more:
        # bridge 35D naming the double it cancels; ulti's lower bid warned, the game also void)
        # leaves it standing whatever the open answers: only one that would contradict it counts
        rivals = [p for p in book.productions if p.action == "finding" and f.production in p.overrides
                  and state.value(p.when) is None and not _refines(p, f)]
        if not rivals:
            kept.append(f)
            continue
        rival = rivals[0]
        cites = list(dict.fromkeys(c for p in rivals if p.article == rival.article for c in p.cites))
        first = book.provisions.get(cites[0]) if cites else None
        label = first.label if first is not None else rival.article
        ruling.not_ruled.append(NotRuled(production=f.production, provisions=list(f.provisions), article=f.article,
                                         reason=f"held back: {label} sets it aside where it applies, "
                                                f"and that waits for facts not yet established ({facts})",
                                         by=rival.id, cause="pending", winner_article=label, event=f.event))
        if any(a.production == rival.id and a.event == f.event for a in added):
            continue
        summary = {lang: words.format(article=label, aside=f.article,
                                      facts=", ".join(_fact_label(book, q, lang) for q in ruling.open_questions))
                   for lang, words in PENDING.items() if lang in ("en", book.language)}
        added.append(FindingOut(production=rival.id, provisions=cites, article=rival.article, kind="undecided",
                                claim=rival.claim or f.claim, summary=summary, offender=None, penalty=[],
                                orders=[], readings=[], event=f.event))
    if added:
        ruling.findings = kept + added


def _requests_on_open_questions(ruler: Ruler, dispute: Dispute, ruling: Ruling, header, from_cards) -> None:
    """An incomplete ruling (`rule --allow-incomplete`: questions still open) answers a request
    only where the open questions cannot change the answer: each is ruled as unknown, and a
    request answered otherwise under some answer to them is left undecided, saying on which
    facts it depends (bridge 35D: whether a double was among the calls cancelled decides whether
    the board is scored redoubled), never granted as if the fact were known."""
    if not ruling.open_questions or not dispute.requests:
        return
    from dataclasses import replace

    from referee.expert.engine.verdict import RequestAnswer
    from referee.expert.language.model import UNKNOWN
    book = ruler.book
    shared, events = dict(dispute.answers), [dict(e) for e in dispute.events]
    for qid in ruling.open_questions:
        if book.questions[qid].scope == "deal" or not events:
            shared.setdefault(qid, UNKNOWN)
        else:
            for e in events:
                if qid not in shared:
                    e.setdefault(qid, UNKNOWN)
    trial = rule_dispute(ruler, replace(dispute, answers=shared, events=events), header, from_cards, ask=False)
    if not trial.alternatives:
        return
    facts = ", ".join(ruling.open_questions)
    for k, (mine, theirs) in enumerate(zip(ruling.requests, trial.requests)):
        if mine.answer == "undecided" or theirs.answer == mine.answer:
            continue
        ruling.requests[k] = replace(mine, answer="undecided", cause="depends", given=None,
                                     provisions=sorted(set(mine.provisions) | set(theirs.provisions)),
                                     reason={"en": f"undecided: it depends on facts not yet established ({facts}); "
                                                   f"as the answers stand: {mine.answer}"})


def _conditional_result(ruling: Ruling):
    """The score sheet of a conditional ruling: the alternatives' result when every alternative
    writes the same entries; otherwise none (each alternative's entries stand under it, and no
    figure is written before the fact is known). The findings common to all alternatives alone
    would give the deal as played, which no alternative rules."""
    shown = [a.result.to_dict(ruling.book, ruling.header) if a.result is not None else None
             for a in ruling.alternatives]
    if all(s == shown[0] for s in shown[1:]):
        return ruling.alternatives[0].result
    return None


def _result(book: Rulebook, ruling: Ruling, findings: list, answers: list[dict] | None = None):
    """The score sheet's entries for ``findings`` (an alternative's: with the answers it was ruled on)."""
    if answers:
        shared = answers[0] if len(answers) == 1 else ruling.answers
        return compute_result(book, findings, lambda k: answers[min(k, len(answers) - 1)], shared,
                              events=len(answers))
    return compute_result(book, findings, ruling.answers_of, ruling.answers, events=len(ruling.events) or 1)


EVENTS_ORDER = "events_order"     # the alternatives' key when the order of the events is unknown


def _in_every_order(ruler: Ruler, dispute: Dispute, header, from_cards, ask: bool) -> Ruling:
    """Nobody can establish the order the events happened in: the ruling in each order (up to
    four events; beyond, the order given and its reverse), one alternative per distinct ruling.
    Findings keep the number of the event as entered."""
    n = len(dispute.events)
    orders = list(itertools.permutations(range(n))) if n <= 4 else [tuple(range(n)), tuple(reversed(range(n)))]
    outcomes = []
    for order in orders:
        trial = replace(dispute, events=[dispute.events[i] for i in order], order_known=True, requests=[])
        r = rule_dispute(ruler, trial, header, from_cards, ask=False)
        remapped = set()           # a finding may stand in the ruling and in its alternatives
        for f in r.findings + [f for a in r.alternatives for f in a.findings] \
                + r.not_ruled + r.refined + [x for a in r.alternatives for x in a.not_ruled + a.refined]:
            if id(f) not in remapped:
                remapped.add(id(f))
                f.event = order[f.event]
        r.events = [dispute.event_answers()[i] for i in range(n)]
        outcomes.append(({EVENTS_ORDER: [i + 1 for i in order]}, r))
    groups: dict[tuple, list] = {}
    for when, r in outcomes:
        groups.setdefault(_ruling_key(r), []).append((when, r))
    first = outcomes[0][1]
    if len(groups) == 1:
        ruling = first
    else:
        alternatives = []
        for members in groups.values():
            r = members[0][1]
            alt = Alternative(when=[w for w, _ in members], findings=r.findings, not_ruled=r.not_ruled,
                              refined=r.refined)
            alt.answers = list(r.events)
            alt.book, alt.header = ruler.book, r.header
            alt.result = _result(ruler.book, r, r.findings)
            alternatives.append(alt)
        common = set.intersection(*[{_signature(r, f) for f in r.findings} for _, r in outcomes])
        ruling = replace(first, findings=[f for f in first.findings if _signature(first, f) in common],
                         not_ruled=[], refined=[], alternatives=alternatives)
        ruling.result = _conditional_result(ruling)
    ruling.order_known = False
    ruling.requests = answer_all(ruling, dispute.requests)
    ruling.open_questions = open_questions(ruler.book, dispute, ruler) if ask else []
    return ruling


def _value(shared: dict, events: list[dict], where, qid: str):
    return (shared if where is None else events[where]).get(qid)


def _places(shared: dict, events: list[dict]):
    yield None, shared
    for k, e in enumerate(events):
        yield k, e


def _count(domains) -> int:
    n = 1
    for d in domains:
        n *= max(len(d), 1)
    return n


def _rule(ruler, book, shared: dict, events: list[dict], header, from_cards) -> Ruling:
    """The ruling on answers with nothing unknown left that a condition reads: each event's
    answers pruned of what they close, as the interview would."""
    per_event = [{**shared, **e} for e in events] or [dict(shared)]
    rulings = None
    if len(per_event) > 1 and carries_anything(book):
        # what an earlier event's finding establishes is in the later events' answers before
        # they are pruned and ruled (a question it opens is kept, one it closes dropped)
        per_event, rulings = forward(ruler, per_event, header, from_cards, prepare=lambda a: prune(book, a))
    else:
        per_event = [prune(book, a) for a in per_event]
    kept_shared = {q: v for q, v in shared.items() if all(q in a for a in per_event)}
    ruling = rule_events(ruler, per_event, kept_shared, header, from_cards, rulings)
    if not events:
        ruling.answers = per_event[0]
    return ruling


def _signature(ruling: Ruling, finding) -> tuple:
    return (finding.event, finding.production,
            tuple((p.player, p.effect, p.amount, p.against) for p in finding.penalty))


def _ruling_key(ruling: Ruling, amounts: bool = True) -> tuple:
    sig = (lambda f: _signature(ruling, f)) if amounts else (
        lambda f: (f.event, f.production, tuple((p.player, p.effect, p.against) for p in f.penalty)))
    return (tuple(sorted(map(repr, (sig(f) for f in ruling.findings)))),
            tuple(sorted((n.event, n.production, n.by) for n in ruling.not_ruled)))


def _open_amounts(first: Ruling, outcomes: list, open_: list) -> Ruling:
    """``first`` with every amount that differs between the ``outcomes`` left open: no amount,
    the unknown facts it depends on, and what it comes to under each of their answers."""
    ruling = replace(first, findings=[replace(f, penalty=[replace(p) for p in f.penalty]) for f in first.findings])
    unknown = ", ".join(qid for _, qid in open_)
    for i, f in enumerate(ruling.findings):
        for j, line in enumerate(f.penalty):
            by = [({qid: v for (_, qid), v in zip(open_, combo)}, r.findings[i].penalty[j].amount)
                  for combo, r in outcomes]
            if len({repr(amount) for _, amount in by}) > 1:
                line.amount, line.needs, line.options = None, unknown, by
    return ruling


def _combine(book, open_, outcomes, shared, events, header, from_cards) -> Ruling:
    groups: dict[tuple, list] = {}
    for combo, r in outcomes:
        groups.setdefault(_ruling_key(r), []).append((combo, r))
    first = outcomes[0][1]
    if len(groups) > 1 and len({_ruling_key(r, amounts=False) for _, r in outcomes}) == 1:
        # the same findings on the same players whatever the facts; only amounts differ: one
        # ruling whose differing amounts are left to fill in once the fact is known
        ruling = _open_amounts(first, outcomes, open_)
        groups = {None: outcomes[:1]}
        first = ruling
    if len(groups) == 1:
        # the outcome does not depend on the unknowns: the ruling as on any of them, with the
        # unknown answers themselves shown among the facts
        ruling = replace(first)
        ruling.answers = dict(shared) if events else {**first.answers, **{q: v for q, v in shared.items()}}
        if events:
            ruling.events = [{**shared, **e} for e in events]
        return ruling
    alternatives = []
    tried = {qid: sorted({combo[i] for combo, _ in outcomes if isinstance(combo[i], (int, float))
                          and not isinstance(combo[i], bool)})
             for i, (_, qid) in enumerate(open_)}
    for members in groups.values():
        r = members[0][1]
        when = [{qid: value for (where, qid), value in zip(open_, combo)} for combo, _ in members]
        alt = Alternative(when=_merge_numbers(book, when, tried), findings=r.findings, not_ruled=r.not_ruled,
                              refined=r.refined)
        alt.answers = [r.answers_of(k) for k in range(r.event_count)]
        alternatives.append(alt)
    common = set.intersection(*[{_signature(r, f) for f in r.findings} for _, r in outcomes])
    ruling = replace(first, findings=[f for f in first.findings if _signature(first, f) in common],
                     not_ruled=[], refined=[], alternatives=alternatives,
                     trail=_joined_trail([members[0][1] for members in groups.values()]))
    ruling.answers = dict(shared) if events else {**first.answers, **shared}
    if events:
        ruling.events = [{**shared, **e} for e in events]
    return ruling


def _joined_trail(rulings: list) -> list:
    """The productions that fired in any alternative, in the order they first fired: the
    statement of reasons gives each alternative's findings their reasons (blind walk 9, B1:
    only the first alternative's were given)."""
    out, seen = [], set()
    for r in rulings:
        for step in getattr(r, "trail", None) or []:
            key = repr(sorted((k, repr(v)) for k, v in step.items()))
            if key not in seen:
                seen.add(key)
                out.append(step)
    return out


def _merge_numbers(book: Rulebook, when: list[dict], tried: dict | None = None) -> list[dict]:
    """Number answers leading to one ruling read as ranges: {q: {from: a, to: b}}. Answers that
    differ only in one number question are merged, a range per run of consecutive values tried
    (``tried``: every value tried per question; the values tried sit either side of every
    threshold the rulebook compares with, so a run covers every number between its ends), so a
    heading reads "card points 0–30" instead of listing each value tried, with the other
    unknowns' answers beside it."""
    tried = tried or {}
    for qid in _number_questions(book, when):
        domain = tried.get(qid) or sorted({w[qid] for w in when if isinstance(w.get(qid), (int, float))})
        groups: dict[tuple, list] = {}
        rest = []
        for w in when:
            value = w.get(qid)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                rest.append(w)
                continue
            others = tuple(sorted((k, repr(v)) for k, v in w.items() if k != qid))
            groups.setdefault(others, []).append(w)
        merged = []
        for members in groups.values():
            values = sorted({w[qid] for w in members})
            base = {k: v for k, v in members[0].items() if k != qid}
            for run in _runs(values, domain):
                if len(run) == len(domain) > 1 and base:
                    merged.append(base)        # every value tried: the branch does not turn on it
                    continue
                value = (_stands_for(book, qid, run[0], domain) if len(run) == 1
                         else {"from": run[0], "to": run[-1]})
                merged.append({**base, qid: value})
        when = rest + merged
    return when


def _stands_for(book: Rulebook, qid: str, value, domain: list):
    """One value tried, as the range of answers it stands for: between the thresholds the rulebook
    compares the question with (61 in "soloist_points >= 61") and short of the neighbouring values
    tried, with the value itself as the example: {"to": 60, "e.g.": 54} ("less than 61 (e.g.
    54)"), {"from": 61, "to": 89, "e.g.": 65}. A bound that is only the question's own minimum or
    maximum is left out. The value itself when it stands for nothing else."""
    if not isinstance(value, int) or isinstance(value, bool):
        return value
    q = book.questions[qid]
    cuts: set[int] = set()       # each the lowest value of a class the conditions tell apart
    for lit in _literals_on(book, qid):
        for v in (lit.value if lit.op == "in" else (lit.value,)):
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                continue
            v = int(v)
            cuts |= {v + 1} if lit.op in ("gt", "le") else {v} if lit.op in ("ge", "lt") else {v, v + 1}
    index = {v: i for i, v in enumerate(domain)}
    i = index.get(value)
    prev = domain[i - 1] if i is not None and i > 0 else None
    nxt = domain[i + 1] if i is not None and i + 1 < len(domain) else None
    lows = [c for c in cuts if c <= value] + ([prev + 1] if prev is not None else [])
    highs = [c - 1 for c in cuts if c > value] + ([nxt - 1] if nxt is not None else [])
    lo, hi = (max(lows) if lows else None), (min(highs) if highs else None)
    low_open = lo is None or (q.min is not None and lo <= q.min)
    high_open = hi is None or (q.max is not None and hi >= q.max)
    if (low_open and high_open) or ((q.min if low_open else lo) == (q.max if high_open else hi) == value):
        return value
    return {**({} if low_open else {"from": lo}), **({} if high_open else {"to": hi}), "e.g.": value}


def _number_questions(book: Rulebook, when: list[dict]) -> list[str]:
    seen: list[str] = []
    for w in when:
        for qid in w:
            q = book.questions.get(qid)
            if q is not None and q.type == "number" and qid not in seen:
                seen.append(qid)
    return seen


def _runs(values: list, domain: list) -> list[list]:
    """``values`` cut into runs of neighbours in ``domain`` (the values tried, in order)."""
    index = {v: i for i, v in enumerate(domain)}
    runs: list[list] = []
    for v in values:
        if runs and v in index and runs[-1][-1] in index and index[v] == index[runs[-1][-1]] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return runs


def _matters(i: int, outcomes) -> bool:
    """Whether changing the i-th unknown alone ever changes the ruling."""
    by_rest: dict[tuple, set] = {}
    for combo, r in outcomes:
        rest = combo[:i] + combo[i + 1:]
        by_rest.setdefault(tuple(map(repr, rest)), set()).add(_ruling_key(r))
    return any(len(keys) > 1 for keys in by_rest.values())


def _read_by_conditions(book: Rulebook, qid: str) -> bool:
    """A question some condition reads (a production's, or a gate of another question that one
    reads): only such unknowns can change which findings stand. An unknown read only by an
    amount leaves that amount open ("to be filled in")."""
    return qid in _condition_questions(book)


def _condition_questions(book: Rulebook) -> set[str]:
    cached = getattr(book, "_condition_questions", None)
    if cached is None:
        cached = set()
        for p in book.productions:
            cached |= cond.questions_read(p.when)
        for q in book.questions.values():
            if q.when is not None:
                cached |= cond.questions_read(q.when)
        book._condition_questions = cached
    return cached


def candidates(book: Rulebook, qid: str) -> list[Any]:
    """The answers worth trying for an unknown fact: what its type says stands for all others
    (every allowed value; for numbers the values around each threshold the rulebook compares
    them with), and for several-answer questions each value alone."""
    q = book.questions[qid]
    if q.type == "order" and q.values_from:
        return []            # the orders of the answer it orders: filled in per dispute (orders())
    if qtype(q).several:
        return [[v] for v in allowed_values(q, book) or []]
    return qtype(q).domain(q, book, _literals_on(book, qid)) or [0]


def _orders(book: Rulebook, qid: str, answers: dict) -> list:
    """An unknown order of the values another answer holds: every order of up to four of them,
    else the order given and its reverse."""
    source = answers.get(book.questions[qid].values_from)
    if not isinstance(source, list) or len(source) < 2:
        return [source] if isinstance(source, list) else []
    if len(source) <= 4:
        return [list(p) for p in itertools.permutations(source)]
    return [list(source), list(reversed(source))]


def _literals_on(book: Rulebook, qid: str) -> list[cond.AnswerTest]:
    conditions = [p.when for p in book.productions] + [q.when for q in book.questions.values() if q.when]
    return [lit for c in conditions for lit in cond.literals(c)
            if isinstance(lit, cond.AnswerTest) and lit.question == qid]


def open_questions(book: Rulebook, dispute: Dispute, ruler: Ruler | None = None) -> list[str]:
    """The questions the interview would still ask (free-text ones aside), event by event.
    ``ruler``: the one to rule earlier events with (what they carry), when the caller holds one."""
    found: list[str] = []
    per_event = _with_carried(book, dispute.event_answers(), ruler)
    for k, answers in enumerate(per_event):
        interview = Interview(book, answers)
        if k > 0:
            interview.aside = set_aside_by_earlier(book, per_event[:k], dispute.answers, answers.get("claim"))
        voided, interview.settled_elsewhere = from_other_events(book, per_event, k)
        interview.aside |= voided
        interview.across = asked_across_events(book, per_event, dispute.answers, k)
        found += [q for q in interview.open_now() if q not in found and not book.questions[q].for_the_record]
    return found


def _with_carried(book: Rulebook, per_event: list[dict], ruler: Ruler | None = None) -> list[dict]:
    """Each event's answers with what the events before it carry (engine/carried.py)."""
    if len(per_event) < 2 or not carries_anything(book):
        return per_event
    return with_carried(ruler if ruler is not None and ruler.book is book else Ruler.of(book), per_event,
                        prepare=lambda a: prune(book, a))


__all__ = ["rule_dispute", "open_questions", "candidates", "questions_in_finding"]


def drop_unaskable(book: Rulebook, dispute: Dispute, sources: dict | None = None) -> list[tuple]:
    """Drop the typed answers the interview would never ask with the others (their ``when`` does
    not hold in any event that reads them); return them as (event or None, question id). What the
    cards show (``sources``) stays: the cards say what they show."""
    from referee.expert.interview.relevance import not_asked
    dropped = []
    sources = sources or {}
    per_event = _with_carried(book, dispute.event_answers())
    for qid in list(dispute.answers):
        if qid not in sources and all(qid in not_asked(book, a) for a in per_event):
            dispute.answers.pop(qid)
            dropped.append((None, qid))
    for k, event in enumerate(dispute.events):
        # what earlier events carry to this one opens its questions as the interview's would
        for qid in not_asked(book, {**per_event[k], **dispute.answers, **event}):
            if qid in event:
                event.pop(qid)
                dropped.append((k, qid))
    return dropped
