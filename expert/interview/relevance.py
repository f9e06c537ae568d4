"""Which question to ask next: only those whose answers can still change the ruling.

Conditions are evaluated with three values (true, false, unknown) over the answers so far. A
question is worth asking when an unknown literal on it sits in an alternative of a production
that can still fire, or in the amount or seat of a finding that can still stand, or in the
``when`` of such a question. Questions whose own ``when`` is false are closed: never asked, and
read as unanswered. Free-text questions change no ruling; they are asked last, for the record,
when their ``when`` holds, and Enter skips them.
"""
from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

from referee.expert.engine.result import settles_by_itself, specs_of
from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.expressions import questions_in_amounts, questions_in_finding
from referee.expert.language.logic import Logic, answer3, derive3, fact3
from referee.expert.language.model import NOT_RULED_KINDS, Production, Question, Rulebook


class Interview:
    def __init__(self, book: Rulebook, answers: dict | None = None):
        self.book = book
        self.answers: dict = {}
        self.history: list[str] = []
        self.skipped: set[str] = set()      # free-text questions the referee left empty
        self.times: dict[str, str] = {}     # when each answer was given (for the ruling record)
        self.aside: set[str] = set()        # productions an earlier event's finding sets aside
        for qid, value in (answers or {}).items():
            self.give(qid, value)
        self._producers = _producers(book)

    # --- answers -------------------------------------------------------------------
    def give(self, qid: str, value) -> None:
        if qid in self.history:
            self.history.remove(qid)
        self.skipped.discard(qid)
        self.answers[qid] = value
        self.history.append(qid)
        self.times[qid] = datetime.now(timezone.utc).isoformat(timespec="seconds")

    def back(self) -> str | None:
        """Undo the last answer; return its question id."""
        if not self.history:
            return None
        qid = self.history.pop()
        self.answers.pop(qid, None)
        return qid

    # --- relevance -----------------------------------------------------------------
    def next_question(self) -> Question | None:
        """Questions that decide whether a production fires come before those that only
        fill in an amount or a seat, so a claim that fails early costs no further questions."""
        deciding, filling = self.needed()
        for group in (deciding, filling):
            for qid in self.book.questions:
                if qid in group:
                    return self.book.questions[qid]
        return self._for_the_record()

    def skip(self, qid: str) -> None:
        """Leave a free-text question unanswered (it is not asked again)."""
        self.skipped.add(qid)

    def _for_the_record(self) -> Question | None:
        state = _state(self.book, self.answers, self._producers)
        for qid, q in self.book.questions.items():
            if (q.type == "text" and qid not in self.answers and qid not in self.skipped
                    and qid not in state.closed and (q.when is None or state.value(q.when) is True)):
                return q
        return None

    def needed(self) -> tuple[set[str], set[str]]:
        state = _state(self.book, self.answers, self._producers)
        deciding: set[str] = set()
        filling: set[str] = set()
        goals = [p for p in self.book.productions if p.action != "derive"]
        live = [p for p in goals if state.value(p.when) is not False]
        winners = {o for p in live if state.value(p.when) is True for o in p.overrides}
        winners |= self._after_the_first(state, live, winners) | self.aside
        live_ids = {p.id for p in live}
        for p in live:
            # a production surely set aside needs no question, unless it sets aside another
            # that may stand: its firing still decides that one (a set-aside finding keeps its
            # precedence; ulti: a renonsz a misdeal voids still excludes the warning)
            if p.id in winners and not any(o in live_ids and o not in winners for o in p.overrides):
                continue
            state.collect(p.when, deciding)
            if p.id in winners:
                continue                    # its own effects are never applied
            if p.action == "keep_first":
                filling.add(p.keep_first)
            elif p.finding:
                filling |= questions_in_finding(p.finding)
        self._score_needs(state, [p for p in live if p.id not in winners], filling)
        deciding = self._askable(state, deciding)
        return deciding, self._askable(state, filling) - deciding

    def _score_needs(self, state: "_State", live: list[Production], filling: set[str]) -> None:
        """What the result on the score sheet reads (rulebook.yaml ``score:``): the amounts of
        the effects live findings may give, and, unless a finding that surely stands settles the
        deal, the deal's own entries (the state of play)."""
        score = self.book.score
        if not score or not any(p.finding for p in live):
            return
        effects = score.get("effects") or {}
        settled = False
        for p in live:
            surely = state.value(p.when) is True
            settled |= settles_by_itself(p.finding) and surely
            for entry in (p.finding or {}).get("penalty") or []:
                for spec in specs_of(effects.get(entry.get("effect")) if isinstance(entry, dict) else None):
                    if "amount" in spec:
                        filling |= questions_in_amounts(spec["amount"])
                    settled |= bool(spec.get("settles")) and surely
        if settled:
            return
        for rule in score.get("play") or []:
            test = _play_condition(rule)
            if test is not None:
                value = state.value(test)
                if value is False:
                    continue
                if value is None:
                    state.collect(test, filling)
            filling |= questions_in_amounts(rule.get("entries") or [])

    def _after_the_first(self, state: "_State", live: list[Production], aside: set[str]) -> set[str]:
        """Findings a ``keep_first`` production will set aside whatever else is answered: a
        finding surely stands on a claim earlier in the order, so their questions can wait."""
        later: set[str] = set()
        contested = {o for p in live for o in p.overrides}
        for kp in live:
            order = self.answers.get(kp.keep_first) if kp.action == "keep_first" else None
            if not isinstance(order, list) or state.value(kp.when) is not True:
                continue
            competing = [p for p in self.book.productions
                         if p.action == "finding" and p.kind not in NOT_RULED_KINDS
                         and kp.competes(p.id)]
            claim = {p.id: p.claim for p in competing}
            standing = [order.index(claim[p.id]) for p in competing if claim[p.id] in order
                        and p.id not in aside and p.id not in contested and state.value(p.when) is True]
            if standing:
                first = min(standing)
                # a later claim is not examined (Član 22): what competes on it waits, and so does
                # what would only clear it
                later |= {p.id for p in _waiting(self.book, kp) if p.claim in order
                          and order.index(p.claim) > first}
        return later

    def _askable(self, state: "_State", wanted: set[str]) -> set[str]:
        """The wanted questions that can be asked now, or the gate questions before them."""
        result: set[str] = set()
        seen: set[str] = set()
        todo = list(wanted)
        while todo:
            qid = todo.pop()
            if qid in seen or qid in self.answers or qid not in self.book.questions:
                continue
            seen.add(qid)
            if qid in state.closed:
                continue
            q = self.book.questions[qid]
            gate = True if q.when is None else state.value(q.when)
            if gate is True:
                result.add(qid)
            elif gate is None:
                more: set[str] = set()
                state.collect(q.when, more)
                if more and all(is_unknown(self.answers.get(m)) for m in more):
                    # open only because a fact is unknown: asked, for the alternative where it holds
                    result.add(qid)
                todo.extend(more)
        return result


def _producers(book: Rulebook) -> dict[str, list[Production]]:
    return Logic.of(book).producers


_RECENT = threading.local()


def _state(book: Rulebook, answers: dict, producers: dict) -> "_State":
    """The state of these answers. Pruning the answers and choosing the next question read the
    same answers one after the other: the last state worked out (in this thread) is used again
    when the answers are the same. It holds a copy of them, so no caller's later change reaches it."""
    key = json.dumps(answers, sort_keys=True, default=repr)
    last = getattr(_RECENT, "state", None)
    if last is not None and last[0] is book and last[1] == key:
        return last[2]
    state = _State(book, dict(answers), producers)
    _RECENT.state = (book, key, state)
    return state


class _State:
    """Three-valued facts for one set of answers."""

    def __init__(self, book: Rulebook, answers: dict, producers: dict[str, list[Production]]):
        self.book, self.answers, self.producers = book, answers, producers
        self.closed: set[str] = set()
        self.facts: dict[str, bool | None] = {}
        self.no_findings: bool | None = None
        self._collected: dict[int, set[str]] = {}     # collect()'s result per condition
        self._cut = False
        for _ in range(len(book.questions) + 1):
            self._facts()
            newly = {qid for qid, q in book.questions.items()
                     if qid not in answers and qid not in self.closed
                     and q.when is not None and self.value(q.when) is False}
            if not newly:
                break
            self.closed |= newly

    def _facts(self) -> None:
        logic = Logic.of(self.book)
        self.facts = {}
        derive3(logic.derivers, lambda p: self.value(p.when), self.facts)   # filled in place: read as made
        vals = [self.value(p.when) for p in logic.plain_findings]
        self.no_findings = False if True in vals else (None if None in vals else True)

    def _settled(self, qid: str) -> bool:
        return qid in self.closed or qid not in self.book.questions

    def literal(self, lit) -> bool | None:
        if isinstance(lit, cond.FactTest):
            return fact3(lit.name, self.facts, self.producers)
        if isinstance(lit, cond.NoFindings):
            return self.no_findings
        return answer3(lit, self.answers, self._settled, _defaults(self.book))

    def value(self, c) -> bool | None:
        return cond.evaluate(c, self.literal)

    def collect(self, c, wanted: set[str], depth: int = 0) -> None:
        """Add the questions that could still decide ``c``. What a condition adds depends only
        on the answers, so it is worked out once per state (a derived fact read by many
        productions is not unfolded again each time)."""
        if depth > 50:
            self._cut = True
            return
        known = self._collected.get(id(c))
        if known is not None:
            wanted |= known
            return
        cut_before, self._cut = self._cut, False
        found: set[str] = set()
        live = []
        for conj in _alternatives(c):
            vals = [(pos, lit, self.literal(lit)) for pos, lit in conj]
            if not any(v is not None and v != pos for pos, _, v in vals):
                live.append((vals, frozenset((pos, lit) for pos, lit, v in vals if v is None)))
        for vals, unknown in live:
            # an alternative that needs everything another one needs, and more, decides nothing
            # the other does not: whenever it holds, so does the other
            if len(live) > 1 and any(other < unknown for _, other in live):
                continue
            for pos, lit, v in vals:
                if v is not None:
                    continue
                if isinstance(lit, cond.AnswerTest):
                    found.add(lit.question)
                elif isinstance(lit, cond.FactTest):
                    for p in self.producers.get(lit.name, []):
                        self.collect(p.when, found, depth + 1)
                elif isinstance(lit, cond.NoFindings):
                    for p in _infractions(self.book):
                        self.collect(p.when, found, depth + 1)
        wanted |= found
        if not self._cut:                # a result cut short by the depth limit is not kept
            self._collected[id(c)] = found
        self._cut = self._cut or cut_before


# A condition's alternatives (its DNF), computed once: conditions are immutable, and the
# interview reads the same ones after every answer. Keyed by identity, holding the condition so
# that its id is not reused; bounded, for processes that load many rulebooks (the tests).
_DNF: dict[int, tuple[object, list]] = {}


def _alternatives(c) -> list:
    hit = _DNF.get(id(c))
    if hit is None or hit[0] is not c:
        if len(_DNF) > 100_000:
            _DNF.clear()
        hit = _DNF[id(c)] = (c, cond.dnf(c))
    return hit[1]


def _defaults(book: Rulebook) -> dict:
    """What the text prescribes for each question answered 'unknown', where it does."""
    cached = book.__dict__.get("_unknown_defaults")
    if cached is None:
        cached = {q.id: q.unknown["value"] for q in book.questions.values() if q.unknown}
        book.__dict__["_unknown_defaults"] = cached
    return cached


def prune(book: Rulebook, answers: dict) -> dict:
    """Drop answers to questions whose ``when`` no longer holds (after an answer was changed)."""
    kept = dict(answers)
    producers = _producers(book)
    for _ in range(len(kept) + 1):
        state = _state(book, kept, producers)
        stale = [qid for qid in kept if qid in book.questions
                 and book.questions[qid].when is not None
                 and cond.evaluate(book.questions[qid].when, state.literal) is False]
        if not stale:
            break
        for qid in stale:
            kept.pop(qid)
    return kept


def not_asked(book: Rulebook, answers: dict) -> list[str]:
    """The answered questions the interview would not ask with the other answers (their ``when``
    does not hold): a ruling that read them could never be reached at the table."""
    kept = prune(book, answers)
    return [qid for qid in answers if qid not in kept]


def articles_fed(book: Rulebook, qid: str) -> list[str]:
    """Provision ids cited by productions that read the question."""
    return list(_per_book(book, "fed", _articles_fed).get(qid, []))


def _articles_fed(book: Rulebook) -> dict[str, list[str]]:
    fed: dict[str, list[str]] = {}
    for p in book.productions:
        reads = cond.questions_read(p.when) | (questions_in_finding(p.finding) if p.finding else set())
        for qid in reads | ({p.keep_first} if p.keep_first else set()):
            ids = fed.setdefault(qid, [])
            ids += [c for c in p.cites if c not in ids]
    return fed


def _infractions(book: Rulebook) -> list[Production]:
    """The findings that do not read other findings (what 'no findings' is made of)."""
    return Logic.of(book).plain_findings


# What depends on the rulebook alone, worked out once per rulebook (keyed by identity, holding
# the rulebook so that its id is not reused).
_BOOKS: dict[tuple[int, str], tuple[Rulebook, object]] = {}


def _per_book(book: Rulebook, what: str, make):
    hit = _BOOKS.get((id(book), what))
    if hit is None or hit[0] is not book:
        if len(_BOOKS) > 1_000:
            _BOOKS.clear()
        hit = _BOOKS[(id(book), what)] = (book, make(book))
    return hit[1]


_PLAY: dict[int, tuple] = {}


def _play_condition(rule: dict):
    """A score play rule's parsed ``when`` (parsed once; the rulebook keeps the mapping)."""
    if rule.get("when") is None:
        return None
    cached = _PLAY.get(id(rule))
    if cached is None or cached[0] is not rule:
        cached = (rule, cond.parse(rule["when"]))
        _PLAY[id(rule)] = cached
    return cached[1]


def set_aside_by_earlier(book: Rulebook, earlier: list[dict], shared: dict, claims=None) -> set[str]:
    """The productions whose questions a later event need not ask, because one of the ``earlier``
    events (their answers) surely has a competing finding that a ``keep_first`` production rules on
    first: the findings that compete, and those that only clear a claim, on the later event's
    ``claims`` (and on no claim)."""
    aside: set[str] = set()
    producers = _producers(book)
    for kp in book.productions:
        if kp.action != "keep_first":
            continue
        if _State(book, shared, producers).value(kp.when) is False:
            continue
        competing = [p for p in book.productions if p.action == "finding"
                     and p.kind not in NOT_RULED_KINDS and kp.competes(p.id)]
        for answers in earlier:
            state = _State(book, answers, producers)
            if any(state.value(p.when) is True for p in competing):
                wanted = {str(c) for c in claims or []} | {""}
                aside |= {p.id for p in _waiting(book, kp) if p.claim in wanted}
                break
    return aside


def _waiting(book: Rulebook, kp: Production) -> list[Production]:
    """What waits behind the finding a keep_first production rules on first: the findings that
    compete with it, and those that only clear a claim (no violation)."""
    return [p for p in book.productions if p.action == "finding"
            and (p.kind == "no-violation"
                 or (p.kind not in NOT_RULED_KINDS and kp.competes(p.id)))]
