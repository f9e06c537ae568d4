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
from collections import deque
from datetime import datetime, timezone

from referee.expert.engine.result import settles_by_itself, specs_of
from referee.expert.language import conditions as cond
from referee.expert.language.answers import is_unknown
from referee.expert.language.expressions import questions_in_amounts, questions_in_finding
from referee.expert.language.logic import Logic, answer3, derive3, fact3
from referee.expert.language.model import Production, Question, Rulebook


class Interview:
    def __init__(self, book: Rulebook, answers: dict | None = None):
        self.book = book
        self.answers: dict = {}
        self.history: list[str] = []
        self.skipped: set[str] = set()      # free-text questions the referee left empty
        self.times: dict[str, str] = {}     # when each answer was given (for the ruling record)
        self.aside: set[str] = set()        # productions an earlier event's finding sets aside
        # an earlier event's finding surely settles the deal (its entries are the whole result):
        # this event's questions for the score sheet are not asked (blind walk 8, P2)
        self.settled_earlier = False
        self.waiting: set[str] = set()      # needed(): read only by findings not yet sure to stand
        self.settled_elsewhere = False      # another event's finding is surely the deal's whole result
        self.across: set[str] = set()       # the deal's questions other events make this one ask
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
        if self.settled_earlier:
            # an earlier event settled the deal: this event's own facts first, the deal's state of
            # play (asked "for the score sheet") only if they still decide something (walk 8, P2)
            own = {qid for qid in deciding if self.book.questions[qid].scope != "deal"}
            deciding, filling = own, (deciding - own) | filling
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
            if (q.for_the_record and qid not in self.answers and qid not in self.skipped
                    and qid not in state.closed and (q.when is None or state.value(q.when) is True)):
                return q
        return None

    def needed(self) -> tuple[set[str], set[str]]:
        state = _state(self.book, self.answers, self._producers)
        deciding: set[str] = set()
        filling: set[str] = set()
        maybe: set[str] = set()          # read by findings that may yet not stand
        sure: set[str] = set()           # ... and by findings that surely stand (or the sheet)
        goals = [p for p in self.book.productions if p.action != "derive"]
        live = self._possible(state, [p for p in goals if state.value(p.when) is not False])
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
            reads = {p.keep_first} if p.action == "keep_first" else (
                _read_by(p.finding, questions_in_finding) if p.finding else set())
            filling |= reads
            (sure if state.value(p.when) is True else maybe).update(reads)
        self._score_needs(state, [p for p in live if p.id not in winners], filling, maybe, sure)
        deciding = self._askable(state, deciding | self.across)
        # what a finding only prints (the cards it names) is asked for the record, last
        filling = {q for q in self._askable(state, filling) - deciding
                   if not self.book.questions[q].for_the_record}
        # what only a finding that may yet not stand reads (its amount, its seat: bridge's size of
        # a procedural penalty nobody has decided on) waits for the questions that decide it
        self.waiting = maybe - sure
        return deciding, filling

    def open_now(self) -> list[str]:
        """The questions the interview would still ask, in order: what decides a finding, and
        what fills in one that surely stands (or, once nothing is left to decide, one that may)."""
        deciding, filling = self.needed()
        if deciding:
            filling = {q for q in filling if q not in self.waiting}
        return [q for q in self.book.questions if q in deciding | filling]

    def _settled_in_every_world(self, live: list[Production], effects: dict) -> bool:
        """Whether, for every value the facts answered 'unknown' may take, a finding that settles
        the deal fires there and nothing that fires there sets it aside: the ruling is then
        conditional, but each alternative has its result, and the deal's own entries (the game as
        played) are never needed (skat: whether the soloist had announced before leading to the
        first trick is unknown; either way the game is lost, 4.1.1 or 4.1.4)."""
        settling = [p for p in live if p.finding and (settles_by_itself(p.finding) or any(
            spec.get("settles") for entry in p.finding.get("penalty") or [] if isinstance(entry, dict)
            for spec in specs_of(effects.get(entry.get("effect")))))]
        if not settling:
            return False
        unknown = [qid for qid, v in self.answers.items() if is_unknown(v) and qid in self.book.questions]
        worlds = _worlds(self.book, self.answers, unknown)
        if not worlds:
            return False
        setters: dict[str, list] = {}
        for q in live:
            for o in q.overrides:
                setters.setdefault(o, []).append(q)
        for world in worlds:
            s = _State(self.book, world, self._producers)
            if not any(s.value(p.when) is True and not any(s.value(q.when) is True for q in setters.get(p.id, ()))
                       for p in settling):
                return False
        return True

    def _possible(self, state: "_State", live: list[Production]) -> list[Production]:
        """The live productions that can still fire for some answer the unknown facts may have.

        Kleene's logic reads each unknown literal on its own: a production that needs a fact to be
        derived and another to be not derived, both read off one unknown answer, is "unknown"
        although no answer makes both hold (skat: a revoke found later, 4.2.4, leaves no demand to
        continue, 4.1.6, whether or not the cards were mixed, 4.2.5). Such a production decides
        nothing, so nothing it reads is asked. Each unknown answer is tried with every value it
        may have (as the ruling tries them, the questions still open staying open): a production
        false in every one of those worlds is dropped. Only a production is dropped, never one
        added, so the interview still asks whatever a ruling may need."""
        open_ = [p for p in live if state.value(p.when) is None]
        if not open_:
            return live
        unknown = [qid for qid, v in self.answers.items() if is_unknown(v) and qid in self.book.questions]
        read = set().union(*(state._reads.of(p.when) for p in open_)) if unknown else set()
        worlds = _worlds(self.book, self.answers, [q for q in unknown if q in read])
        if not worlds:
            return live
        states = [_State(self.book, w, self._producers) for w in worlds]
        # a production is dead in a world where it cannot fire, or where a production that surely
        # fires there sets it aside (skat: whether the soloist gave up tricks is unknown; where he
        # did not, the opponents' demand to play on sets aside the result by the state of play,
        # 4.1.6, so the card points before his claim are never needed)
        setters: dict[str, list] = {}
        for q in live:
            for o in q.overrides:
                setters.setdefault(o, []).append(q)

        def dead_in(s: "_State", p: Production) -> bool:
            return s.value(p.when) is False or any(s.value(q.when) is True for q in setters.get(p.id, ()))
        dead = {p.id for p in open_ if all(dead_in(s, p) for s in states)}
        return [p for p in live if p.id not in dead]

    def _score_needs(self, state: "_State", live: list[Production], filling: set[str],
                     maybe: set[str] | None = None, sure: set[str] | None = None) -> None:
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
                    for key in [k for k in ("amount", "per_unit") if k in spec]:
                        read = _read_by(spec[key], questions_in_amounts)
                        target = sure if surely else maybe
                        if target is not None:
                            target |= read
                        filling |= read
                    settled |= bool(spec.get("settles")) and surely
        if settled or self.settled_elsewhere or self.settled_earlier or self._settled_in_every_world(live, effects):
            return
        deal: set[str] = set()           # the deal's own entries: needed whichever finding stands
        for rule in score.get("play") or []:
            test = _play_condition(rule)
            value = None if test is None else state.value(test)
            if value is False:
                continue
            # what the rule's entries read is asked only once they can be written (skat: the game
            # as played, once it has been played to its end): until then only what decides that
            gate = _play_condition(rule, "ask_when")
            ready = True if gate is None else state.value(gate)
            if ready is False:
                continue
            if ready is None:
                state.collect(gate, deal)
                continue
            if test is not None and value is None:
                state.collect(test, deal)
            if rule.get("entries"):
                deal |= _read_by(rule["entries"], questions_in_amounts)
        filling |= deal
        if sure is not None:
            sure |= deal

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
                         if p.action == "finding" and kp.ranks(p.id, p.kind)]
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


# more worlds than this and the unknown facts are left to Kleene's logic alone (each world is a
# state worked out afresh)
_MAX_WORLDS = 24


def _worlds(book: Rulebook, answers: dict, unknown: list[str]) -> list[dict]:
    """The answers with each unknown one replaced by each value it may have, every combination
    ([] when there are none, or too many, or an unknown the ruling tries otherwise: an order, or
    several answers, whose combinations are not all tried)."""
    from referee.expert.interview.adjudicate import candidates
    from referee.expert.language.answers import unknown_among
    from referee.expert.language.qtypes import qtype
    if not unknown:
        return []
    domains = []
    for qid in unknown:
        q = book.questions[qid]
        if qtype(q).several:
            return []
        among = unknown_among(answers[qid])
        domain = among if among is not None else candidates(book, qid)
        if not domain:
            return []
        domains.append(domain)
    count = 1
    for d in domains:
        count *= len(d)
        if count > _MAX_WORLDS:
            return []
    import itertools
    return [{**answers, **dict(zip(unknown, combo))} for combo in itertools.product(*domains)]


def conditional_values(book: Rulebook, q: Question, answers: dict) -> dict[str, list]:
    """For a question about to be asked: each fact answered 'unknown' (with no value the text
    prescribes for it) on which ``q``'s condition turns, with the values for which ``q`` is still
    asked, in order. A question asked whatever the fact turns out to be is not conditional on it."""
    if q.when is None:
        return {}
    defaults = _defaults(book)
    producers = _producers(book)
    found: dict[str, list] = {}
    for qid, value in answers.items():
        if qid == q.id or qid not in book.questions or not is_unknown(value) or qid in defaults:
            continue
        worlds = _worlds(book, answers, [qid])
        if not worlds:
            continue
        holding = [w[qid] for w in worlds if _state(book, w, producers).value(q.when) is not False]
        if holding and len(holding) < len(worlds):
            found[qid] = holding
    return found


def _producers(book: Rulebook) -> dict[str, list[Production]]:
    return Logic.of(book).producers


_RECENT = threading.local()


def _state(book: Rulebook, answers: dict, producers: dict) -> "_State":
    """The state of these answers. Pruning the answers and choosing the next question read the
    same answers one after the other: the last state worked out (in this thread) is used again
    when the answers are the same. It holds a copy of them, so no caller's later change reaches it.
    A new state starts from a recent one whose answers these only add to (the next answer of the
    same interview, in any thread): see _State."""
    key = json.dumps(answers, sort_keys=True, default=repr)
    last = getattr(_RECENT, "state", None)
    if last is not None and last[0] is book and last[1] == key:
        return last[2]
    signs = {qid: json.dumps(value, sort_keys=True, default=repr) for qid, value in answers.items()}
    base = _BASES.find(book, signs)
    if base is None:
        # the same questions as a recent state, some answered otherwise (a ruling tries each
        # answer an unknown fact may have; a referee changes an answer): the state of the answers
        # both share is the base of both, and of the next such try
        stem = _BASES.stem(book, signs)
        if stem is not None:
            base = _State(book, {qid: answers[qid] for qid in stem}, producers)
            _BASES.add(base, {qid: signs[qid] for qid in stem})
    state = _State(book, dict(answers), producers, base=base)
    _RECENT.state = (book, key, state)
    _BASES.add(state, signs)
    return state


class _Bases:
    """The last states worked out, in any thread (a web server answers each request in its own):
    the base a state for more answers starts from. Each is kept with its answers' signatures (the
    JSON of each value: True and 1 are not the same answer)."""

    SIZE = 32

    def __init__(self):
        self._kept: deque = deque(maxlen=self.SIZE)
        self._lock = threading.Lock()

    def add(self, state: "_State", signs: dict) -> None:
        if state.incremental:
            with self._lock:
                self._kept.append((state, signs))

    def find(self, book: Rulebook, signs: dict) -> "_State | None":
        """The recent state with the most answers, all of them among ``signs`` with the same
        values, and none of the others closed in it."""
        with self._lock:
            kept = list(self._kept)
        best, most = None, -1
        for state, old in kept:
            if state.book is not book or len(old) > len(signs) or len(old) <= most:
                continue
            if all(signs.get(qid) == sign for qid, sign in old.items()) and \
                    not any(qid in state.closed for qid in signs if qid not in old):
                best, most = state, len(old)
        return best

    def stem(self, book: Rulebook, signs: dict) -> list[str] | None:
        """The questions answered alike in ``signs`` and in the latest state that answers the
        same questions otherwise (None: no such state)."""
        with self._lock:
            kept = list(self._kept)
        for state, old in reversed(kept):
            if state.book is book and old.keys() == signs.keys():
                same = [qid for qid, sign in signs.items() if old[qid] == sign]
                return same if 0 < len(same) < len(signs) else None
        return None


_BASES = _Bases()


class _State:
    """Three-valued facts for one set of answers.

    Closing questions refines values only (Kleene logic: an unknown becomes true or false, never
    a known value the other), and so does answering a question that is open. So the questions
    closed for some answers stay closed for those answers and more (the new ones answering open
    questions): a state for such answers starts from the ``base`` state's closed questions and
    keeps every value it worked out that reads none of the new answers, nor any question closed
    since; the passes below then work out only what changed. (With derived facts in a cycle, or
    derived facts that read 'no findings', the passes are not a plain fixpoint: such a rulebook
    starts from nothing.) The answers stay the state's own: nothing changes them after."""

    def __init__(self, book: Rulebook, answers: dict, producers: dict[str, list[Production]],
                 base: "_State | None" = None):
        self.book, self.answers, self.producers = book, answers, producers
        self.closed: set[str] = set()
        self.facts: dict[str, bool | None] = {}
        self.no_findings: bool | None = None
        self._collected: dict[int, tuple] = {}     # collect()'s result per condition
        self._cut = False
        self._logic = Logic.of(book)
        self._defaults = _defaults(book)
        self._reads = _reads_of(self._logic)
        # Memos, keyed by identity and holding the object (conditions live in the rulebook):
        # an answer literal's value (it depends on the answers and on what is closed); a
        # condition's value (on those, and on the facts it reads). Closing questions forgets
        # only what reads them, so the passes below after the first work out only what the
        # newly closed questions change, and needed() reads the same productions' conditions
        # many times over. With derived facts in a cycle (read before they are final) or
        # reading 'no findings' (the last pass's while facts are derived), conditions are
        # kept only once the facts are final.
        self.incremental = self._reads.plain_passes
        self._literals: dict[int, tuple] = {}
        self._values: dict[int, tuple] | None = {} if self.incremental else None
        if base is not None and (not self.incremental or base._logic is not self._logic):
            base = None
        new = set(answers) - set(base.answers) if base is not None else set()
        if base is not None:
            self.closed = set(base.closed)
            reads = self._reads.of
            # dict(): one copy, whatever another thread adds to the base meanwhile
            self._literals = {k: hit for k, hit in dict(base._literals).items() if hit[0].question not in new}
            self._values = {k: hit for k, hit in dict(base._values).items() if reads(hit[0]).isdisjoint(new)}
        # a question answered from earlier events is never asked: unanswered, it reads as no
        self.closed |= {qid for qid, q in book.questions.items() if q.from_earlier is not None and qid not in answers}
        gated = [(qid, q.when) for qid, q in book.questions.items() if q.when is not None and qid not in answers]
        for _ in range(len(book.questions) + 1):
            self._facts()
            newly = {qid for qid, when in gated if qid not in self.closed and self.value(when) is False}
            if not newly:
                break
            self.closed |= newly
            self._forget(newly)
        if base is not None:
            changed = new | (self.closed - base.closed)
            reads = self._reads.of
            self._collected = {k: hit for k, hit in dict(base._collected).items()
                               if reads(hit[0]).isdisjoint(changed)}
        self._values = {} if self._values is None else self._values

    def _forget(self, closed: set[str]) -> None:
        """Drop what questions just closed may change."""
        self._literals = {k: hit for k, hit in self._literals.items() if hit[0].question not in closed}
        if self._values is not None:
            reads = self._reads.of
            self._values = {k: hit for k, hit in self._values.items() if reads(hit[0]).isdisjoint(closed)}

    def _facts(self) -> None:
        logic = self._logic
        self.facts = {}
        derive3(logic.derivers, lambda p: self.value(p.when), self.facts)   # filled in place: read as made
        vals = [self.value(p.when) for p in logic.plain_findings]
        self.no_findings = False if True in vals else (None if None in vals else True)

    def _settled(self, qid: str) -> bool:
        return qid in self.closed or qid not in self.book.questions

    def literal(self, lit) -> bool | None:
        if isinstance(lit, cond.AnswerTest):
            hit = self._literals.get(id(lit))
            if hit is not None and hit[0] is lit:
                return hit[1]
            v = answer3(lit, self.answers, self._settled, self._defaults)
            self._literals[id(lit)] = (lit, v)
            return v
        if isinstance(lit, cond.FactTest):
            return fact3(lit.name, self.facts, self.producers)
        if isinstance(lit, cond.NoFindings):
            return self.no_findings
        return answer3(lit, self.answers, self._settled, self._defaults)

    def value(self, c) -> bool | None:
        values = self._values
        if values is None:
            return cond.evaluate(c, self.literal)
        hit = values.get(id(c))
        if hit is not None and hit[0] is c:
            return hit[1]
        v = values[id(c)] = (c, cond.evaluate(c, self.literal))
        return v[1]

    def collect(self, c, wanted: set[str], depth: int = 0) -> None:
        """Add the questions that could still decide ``c``. What a condition adds depends only
        on the answers, so it is worked out once per state (a derived fact read by many
        productions is not unfolded again each time)."""
        if depth > 50:
            self._cut = True
            return
        known = self._collected.get(id(c))
        if known is not None and known[0] is c:
            wanted |= known[1]
            return
        cut_before, self._cut = self._cut, False
        found: set[str] = set()
        literal = self.literal
        # each alternative still possible: the set of its literals yet unknown (and them in
        # their order, the order they are unfolded in)
        live: dict[frozenset, list] = {}
        for conj in _alternatives(c):
            unknown = []
            for pos, lit in conj:
                v = literal(lit)
                if v is None:
                    unknown.append((pos, lit))
                elif v != pos:
                    break
            else:
                live.setdefault(frozenset(unknown), unknown)
        # an alternative that needs everything another one needs, and more, decides nothing
        # the other does not: whenever it holds, so does the other. Only the minimal sets are
        # kept (each checked against the smaller minimal ones only: a set that holds a
        # dominated one holds what dominates it too).
        minimal: list[frozenset] = []
        for unknown in sorted(live, key=len):
            if not any(m <= unknown for m in minimal):
                minimal.append(unknown)
        kept = set(minimal)
        for key, unknown in live.items():
            if key not in kept:
                continue
            for pos, lit in unknown:
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
            self._collected[id(c)] = (c, found)
        self._cut = self._cut or cut_before


class _Reads:
    """What a condition reads: the questions whose answer (or closing) can change its value,
    through the derived facts it tests and through 'no findings' (the plain findings' questions).
    Per rulebook."""

    def __init__(self, logic: Logic):
        self.logic = logic
        self._facts: dict[str, tuple[frozenset, bool]] = {}
        self._conds: dict[int, tuple] = {}
        self._findings: frozenset | None = None
        # the passes of _State are a plain fixpoint: derived facts in strata, none reading
        # 'no findings' (that one is the last pass's while facts are derived)
        self.plain_passes = not getattr(logic.derivers, "cyclic", False) and \
            not any(self._read(p.when)[1] for p in logic.derivers)

    def of(self, c) -> frozenset:
        hit = self._conds.get(id(c))
        if hit is None or hit[0] is not c:
            questions, findings = self._read(c)
            if findings:
                questions |= self.findings()
            hit = self._conds[id(c)] = (c, frozenset(questions))
        return hit[1]

    def findings(self) -> frozenset:
        """What 'no findings' reads: the questions of the findings that do not read it."""
        if self._findings is None:
            questions: set[str] = set()
            for p in self.logic.plain_findings:
                questions |= self._read(p.when)[0]
            self._findings = frozenset(questions)
        return self._findings

    def _read(self, c) -> tuple[set, bool]:
        """The questions ``c`` reads through facts, and whether it reads 'no findings'."""
        questions: set[str] = set()
        findings = False
        for lit in cond.literals(c):
            if isinstance(lit, cond.AnswerTest):
                questions.add(lit.question)
            elif isinstance(lit, cond.FactTest):
                more, also = self._fact(lit.name)
                questions |= more
                findings |= also
            elif isinstance(lit, cond.NoFindings):
                findings = True
        return questions, findings

    def _fact(self, name: str) -> tuple[frozenset, bool]:
        hit = self._facts.get(name)
        if hit is None:
            questions: set[str] = set()
            findings = False
            seen, todo = {name}, [name]
            while todo:
                for p in self.logic.producers.get(todo.pop(), []):
                    for lit in cond.literals(p.when):
                        if isinstance(lit, cond.AnswerTest):
                            questions.add(lit.question)
                        elif isinstance(lit, cond.FactTest) and lit.name not in seen:
                            seen.add(lit.name)
                            todo.append(lit.name)
                        elif isinstance(lit, cond.NoFindings):
                            findings = True
            hit = self._facts[name] = (frozenset(questions), findings)
        return hit


_READS_OF: dict[int, tuple[Logic, _Reads]] = {}


def _reads_of(logic: Logic) -> _Reads:
    hit = _READS_OF.get(id(logic))
    if hit is None or hit[0] is not logic:
        if len(_READS_OF) > 1_000:
            _READS_OF.clear()
        hit = _READS_OF[id(logic)] = (logic, _Reads(logic))
    return hit[1]


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


_PLAY: dict[tuple, tuple] = {}

# The questions a finding's (or an amount's) expressions read, per object: the rulebook's data,
# read after every answer by needed(). Keyed by identity, holding the object; bounded.
_READS: dict[int, tuple] = {}


def _read_by(node, reads) -> frozenset:
    hit = _READS.get(id(node))
    if hit is None or hit[0] is not node:
        if len(_READS) > 100_000:
            _READS.clear()
        hit = _READS[id(node)] = (node, frozenset(reads(node)))
    return hit[1]


def _play_condition(rule: dict, key: str = "when"):
    """A score play rule's parsed ``when`` (or ``ask_when``), parsed once (the rulebook keeps the
    mapping)."""
    if rule.get(key) is None:
        return None
    cached = _PLAY.get((id(rule), key))
    if cached is None or cached[0] is not rule:
        cached = (rule, cond.parse(rule[key]))
        _PLAY[(id(rule), key)] = cached
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
        if any(qid not in shared or is_unknown(shared[qid]) for qid in _deal_questions(book, kp)):
            # a fact of the deal it turns on nobody has given (ulti: whether a later renonsz is
            # settled too, a reading asked once two stand): the later claim is examined, or that
            # question could never be asked (blind walk 7: a second renonsz left unexamined)
            continue
        competing = [p for p in book.productions if p.action == "finding" and kp.ranks(p.id, p.kind)]
        for answers in earlier:
            state = _State(book, answers, producers)
            # a finding another one surely sets aside there (skat: the infraction's end of the
            # game, when the innocent side demanded that play continue) ends nothing
            beaten = {o for q in book.productions if q.overrides and state.value(q.when) is True
                      for o in q.overrides}
            if any(p.id not in beaten and state.value(p.when) is True for p in competing):
                wanted = {str(c) for c in claims or []} | {""}
                aside |= {p.id for p in _waiting(book, kp) if p.claim in wanted}
                break
    return aside


def _deal_questions(book: Rulebook, kp: Production) -> set[str]:
    """The deal's questions (``scope: deal``) a keep_first production's ``when`` reads."""
    return {qid for qid in cond.questions_read(kp.when)
            if qid in book.questions and book.questions[qid].scope == "deal"}


def asked_across_events(book: Rulebook, per_event: list[dict], shared: dict, k: int) -> set[str]:
    """The deal's questions a ``keep_first`` production reads that event ``k`` must ask: an
    earlier event and this one each surely have a competing finding, so whether the earlier one
    sets this one aside turns on them (ulti: how several renonsz are settled). Within one event
    the interview finds them itself; across events no single event's productions read them."""
    wanted: set[str] = set()
    if k == 0 or len(per_event) < 2:
        return wanted
    producers = _producers(book)
    for kp in book.productions:
        if kp.action != "keep_first":
            continue
        open_ = {qid for qid in _deal_questions(book, kp) if qid not in shared}
        if not open_ or _State(book, shared, producers).value(kp.when) is False:
            continue
        competing = [p for p in book.productions if p.action == "finding" and kp.ranks(p.id, p.kind)]

        def stands(answers: dict) -> bool:
            state = _State(book, answers, producers)
            return any(state.value(p.when) is True for p in competing)
        if stands(per_event[k]) and any(stands(a) for a in per_event[:k]):
            wanted |= open_
    return wanted


def from_other_events(book: Rulebook, per_event: list[dict], k: int) -> tuple[set[str], bool]:
    """What the other events of the dispute (their answers, ``per_event``) surely decide for event
    ``k``: the productions a deal-settling finding of another event sets aside (a misdeal, in
    whichever event, voids every payment of the deal: knowledge/README.md, "Events"), and whether
    another event surely has a finding that is the deal's whole result (a renonsz settled by the
    expected winnings), so that the deal's own entries (the result as played) are not needed here.
    A finding counts only when nothing that could set it aside would leave the deal unsettled:
    whatever overrides it settles the deal too, and, where it competes under a ``keep_first``,
    every finding it competes with settles the deal as well."""
    aside: set[str] = set()
    settled = False
    if len(per_event) < 2:
        return aside, settled
    producers = _producers(book)
    effects = (book.score or {}).get("effects") or {}
    overriders: dict[str, list[Production]] = {}
    for p in book.productions:
        for o in p.overrides:
            overriders.setdefault(o, []).append(p)
    findings = [p for p in book.productions if p.action == "finding"]
    settling = {p.id for p in findings if _settles(p, effects)}
    keepers = [p for p in book.productions if p.action == "keep_first"]
    for j, answers in enumerate(per_event):
        if j == k:
            continue
        state = _State(book, answers, producers)
        for p in findings:
            if p.id not in settling or state.value(p.when) is not True:
                continue
            if any(q.id not in settling and state.value(q.when) is not False for q in overriders.get(p.id, ())):
                continue
            if (p.finding or {}).get("settles_deal"):
                aside |= set(p.overrides)
            if any(kp.competes(p.id) and not all(q.id in settling for q in findings if kp.competes(q.id))
                   for kp in keepers):
                continue
            settled = True
    return aside, settled


def _settles(p: Production, effects: dict) -> bool:
    """Whether a finding of this production is the deal's whole result (rulebook ``score:``)."""
    return settles_by_itself(p.finding) or any(
        spec.get("settles") for entry in (p.finding or {}).get("penalty") or [] if isinstance(entry, dict)
        for spec in specs_of(effects.get(entry.get("effect"))))


def settled_by_earlier(book: Rulebook, earlier: list[dict]) -> bool:
    """Whether one of the ``earlier`` events (their answers) surely has a finding whose entries
    settle the deal (preferans: the declarer's game written down), so that a later event's
    questions for the score sheet are not needed. Only an event of a single claim counts (with
    several, the order may set that finding aside), and only a finding nothing in it can
    override."""
    effects = (book.score or {}).get("effects") or {}
    producers = _producers(book)

    for answers in earlier:
        claims = answers.get("claim")
        if not isinstance(claims, list) or len(claims) != 1:
            continue
        state = _State(book, answers, producers)
        firing = [p for p in book.productions if p.action == "finding" and state.value(p.when) is not False]
        beaten = {o for p in firing for o in p.overrides}
        if any(p.id not in beaten and state.value(p.when) is True and _settles(p, effects) for p in firing):
            return True
    return False


def _waiting(book: Rulebook, kp: Production) -> list[Production]:
    """What waits behind the finding a keep_first production rules on first: the findings that
    compete with it, and those that only clear a claim (no violation)."""
    return [p for p in book.productions if p.action == "finding"
            and (p.kind == "no-violation"
                 or kp.yields(p.id, p.kind))]
