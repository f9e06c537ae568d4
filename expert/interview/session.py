"""One interview at the table, from the first question to the ruling: the object every front end
(the terminal, the web page) drives.

A front end asks ``next()`` for a ``Prompt``, shows it, and hands what the referee typed or
tapped to ``answer()`` (which raises ``AnswerRefused`` with the reason and what is expected),
``back()`` or ``help()``. The session decides everything else: whether the cards are offered,
which card step comes next, which question can still change the ruling and to which event its
answer belongs, the review, a new event ('+'), a party's request ('r'), and when to rule.
``to_state()`` / ``from_state()`` save and restore it exactly, answer times included, so a
closed tab, a resume or a crash loses nothing.

Stages: ``names`` (the players' names, by seat; where a role's place is asked, that question
first, expert/language/places.py) -> ``offer`` (do you have the cards?) ->
``cards`` (card steps) -> ``questions`` -> ``review`` -> (``request`` -> ``review``) -> ``done``.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

from referee.expert.engine.ruler import Ruler
from referee.expert.engine.verdict import Ruling
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.card_steps import CardEntry
from referee.expert.interview.from_cards import answers_from_cards
from referee.expert.interview.named_cards import read_named
from referee.expert.engine.carried import carries_anything, with_carried
from referee.expert.interview import request_words
from referee.expert.interview.relevance import (Interview, articles_fed, asked_across_events,
                                                from_other_events, prune, set_aside_by_earlier,
                                                settled_by_earlier)
from referee.expert.language import prompt_words
from referee.expert.language.answers import (allowed_values, describe_allowed, is_unknown, parse_typed,
                                             question_text, show_value)
from referee.expert.language.dispute import Dispute, Request, favours_its_player, on_own_side, on_role
from referee.expert.language.errors import RefereeError
from referee.expert.language.exclusions import first_conflict, stated
from referee.expert.language.model import Question, Rulebook, scope_ids, scope_label, text
from referee.expert.language.places import place_question, placed_label
from referee.expert.language.qtypes import qtype

STATE_FORMAT = 1


class AnswerRefused(RefereeError):
    """What was typed is not an answer to the prompt: ``reason`` says why, ``allowed`` what is
    expected."""

    def __init__(self, raw: str, reason: str, allowed: str = "", conflict: bool = False):
        super().__init__(reason)
        self.raw, self.reason, self.allowed = raw, reason, allowed
        # an allowed value that cannot hold with other answers: the reason is the whole message
        self.conflict = conflict


@dataclass
class Option:
    value: Any
    label: str
    name: str = ""          # the player's name, for seats
    likely: bool = False    # request menu: an effect the claims made can give (marked, not moved)


@dataclass
class Prompt:
    """What to show the referee now."""
    kind: str               # offer | card | question | review | request_party | request_asks |
                            # request_event | request_on | request_scope | request_amount |
                            # request_text | request_provision
    id: str                 # the question id, the card step, or the stage
    text: str
    type: str = "text"      # yesno | choice | multi | number | seat | order | text | card | review
    options: list[Option] = field(default_factory=list)
    allowed: str = ""       # what is expected, in words
    help: str = ""
    event: int | None = None        # the event the answer belongs to (None: the whole deal)
    events: int = 1                 # how many events the dispute has so far
    can_skip: bool = False          # Enter leaves it out
    conditional_on: list[str] = field(default_factory=list)   # unknown facts it is asked under
    # the same, in words: each unknown fact with the value(s) the question is asked for
    conditional_note: str = ""
    heading: str = ""               # said before it (card entry's explanation of the play)
    card_kind: str = ""             # hand | trick | talon | discard | contract | ... (card steps)
    rows: list[dict] = field(default_factory=list)            # the review's answers
    seat: str = ""                  # card steps: the seat whose hand is entered
    trick: int | None = None        # card steps: the trick entered, counted from 0
    default: str = ""               # card steps: what skipping gives (the seat order, the first lead)

    def to_dict(self) -> dict:
        """The prompt as JSON-safe data, for front ends that are not Python (and for tests)."""
        data = asdict(self)
        data["options"] = [{"value": o.value, "label": o.label, "name": o.name, **({"likely": True} if o.likely else {})}
                           for o in self.options]
        return data


class Session:
    def __init__(self, book: Rulebook, *, lang: str = "en", header: dict | None = None,
                 cards: dict | None = None, enter_cards: bool | None = None, ruler: Ruler | None = None,
                 cards_source: str | None = None, ask_names: bool = True):
        self.book = book
        self.lang = book.language if lang == "both" else lang
        self.header: dict = dict(header or {})
        self.cards: dict | None = dict(cards) if cards else None
        self._cards_source = cards_source
        self.shared: dict = {}
        self.events: list[dict] = [{}]
        self.current = 0
        self.requests: list[Request] = []
        self.order_known = True          # False: nobody can establish the order of the events
        self.draft: dict = {}
        self.times: dict[str, str] = {}
        self.history: list[list] = []
        self.skipped: set[str] = set()
        self.pending: tuple[int | None, str] | None = None
        self.entry: CardEntry | None = None
        self._ruler = ruler
        self._known: dict = {}
        self._sources: dict = {}
        self._last: tuple[str, Prompt | None] | None = None     # next()'s answer and the state it was for
        if enter_cards is True and book.cards_map:
            self.stage = "cards"
            self.entry = self._card_entry()
        elif enter_cards is None and book.cards_map and not cards:
            self.stage = "offer"
        else:
            self.stage = "questions"
        self._after_names = self.stage
        self.names_left_out: list[str] = []     # seats whose name the referee left out
        if ask_names and self._unnamed():
            self.stage = "names"
        self._derive_from_cards()

    def _unnamed(self) -> list[str]:
        names = self.header.get("players") or {}
        return [s for s in self.book.seat_ids if not names.get(s) and s not in self.names_left_out]

    # --- the answers -----------------------------------------------------------------
    @property
    def known(self) -> dict:
        """What the cards answer: never asked, never saved as the referee's answer."""
        return self._known

    def answers_for(self, k: int) -> dict:
        return {**self._known, **self.shared, **self.events[k]}

    def _carried(self) -> list[dict]:
        """Each event's answers with what the events before it carry (engine/carried.py)."""
        per_event = [self.answers_for(k) for k in range(len(self.events))]
        if len(per_event) < 2 or not carries_anything(self.book):
            return per_event
        return with_carried(self.ruler(), per_event)

    def dispute(self) -> Dispute:
        if len(self.events) == 1:
            return Dispute({**self._known, **self.shared, **self.events[0]}, [], list(self.requests))
        return Dispute({**self._known, **self.shared}, [dict(e) for e in self.events], list(self.requests),
                       order_known=self.order_known)

    def given(self) -> tuple[dict, list[dict]]:
        """The referee's own answers (the cards' left out): shared, and per event."""
        return dict(self.shared), [dict(e) for e in self.events]

    @staticmethod
    def key(where: int | None, qid: str) -> str:
        """How an answer is named in times and history: the question id for the deal and the first
        event, 'N:id' for event N >= 2."""
        return qid if not where else f"{where + 1}:{qid}"

    def _store(self, where: int | None) -> dict:
        return self.shared if where is None else self.events[where]

    def _where(self, q: Question, k: int) -> int | None:
        return None if q.scope == "deal" else k

    # --- what to ask -------------------------------------------------------------------
    def next(self) -> Prompt | None:
        """The prompt to show now; None once the referee asked for the ruling. Asking again
        without any change in between gives the same prompt without working it out again
        (a page asks for it to show it, to check a form against it, and to answer it)."""
        key = self._state_key()
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        prompt = self._next()
        self._last = (self._state_key(), prompt)
        return prompt

    def _state_key(self) -> str:
        state = self.to_state()
        state.pop("times", None)
        return json.dumps(state, sort_keys=True, default=str, ensure_ascii=False)

    def _next(self) -> Prompt | None:
        place = self._place_first()
        if place is not None:
            return self._question_prompt(place, None, self.current)
        if self.stage == "names":
            unnamed = self._unnamed()
            if unnamed:
                seat = unnamed[0]
                return Prompt("name", seat, self._ws()["name"].format(seat=self.seat_label(seat)),
                              type="text", can_skip=True, help=self._ws()["name_help"])
            self.stage = self._after_names
        if self.stage == "offer":
            w = prompt_words.words(prompt_words.CARDS, self.lang)
            return Prompt("offer", "cards", w["offer"].strip(), type="yesno", help=w["offer_help"],
                          allowed=self._w_allowed()["yesno"], can_skip=True)
        if self.stage == "cards":
            step = self.entry.step() if self.entry else None
            if step is None:
                self._finish_cards()
            else:
                return Prompt("card", str(step.key), step.prompt.strip(), type="card", help=step.hint,
                              can_skip=True, heading=step.heading, card_kind=step.kind, seat=step.seat,
                              trick=step.trick, default=step.default)
        if self.stage == "questions":
            found = self._next_question()
            # a question whose answer the answers already given decide (every other value is
            # excluded by a declared impossible combination) is not asked again in other words:
            # its answer is taken, as following from them (blind walk 5: 'sans: the player was
            # called' and then 'which game?'; 'has the auction ended?' then 'where does the
            # board stand?')
            while found is not None and self.pending is None:
                implied = self._implied(found[0], found[1])
                if implied is None:
                    break
                self._give_implied(found[0].id, implied, found[1])
                found = self._next_question()
            if found is not None:
                q, where, k = found
                return self._question_prompt(q, where, k)
            self.stage = "review"
        if self.stage == "review":
            text_ = self._ws()["review_events" if len(self.events) > 1 else "review"]
            return Prompt("review", "review", text_, type="review", rows=self.review_rows(),
                          events=len(self.events))
        if self.stage == "request":
            return self._request_prompt()
        return None

    def _place_first(self) -> Question | None:
        """Where a role sat (skat: the soloist's place), asked before everything else: the names,
        the seats offered and every question name each player by his place from then on
        (blind walk 9: asked last, as free text, after prompts that already depended on it)."""
        q = place_question(self.book)
        if (q is None or self.stage not in ("names", "offer", "cards", "questions") or self.pending is not None
                or q.id in self.shared or q.id in self._known or self.key(None, q.id) in self.skipped):
            return None
        return q

    def seat_label(self, seat: str) -> str:
        """The seat's label, with the place its player sat once the referee said it."""
        return placed_label(self.book, seat, {**self._known, **self.shared}, self.lang)

    def _next_question(self) -> tuple[Question, int | None, int] | None:
        if self.pending is not None:
            where, qid = self.pending
            return self.book.questions[qid], where, (self.current if where is None else where)
        order = [self.current] + [k for k in range(len(self.events)) if k != self.current]
        # with what each earlier event's finding carries to the later ones (engine/carried.py)
        per_event = self._carried()
        for k in order:
            interview = Interview(self.book, per_event[k])
            if k > 0:        # what an earlier event's finding already sets aside is not asked
                interview.aside = set_aside_by_earlier(self.book, per_event[:k],
                                                       {**self._known, **self.shared},
                                                       per_event[k].get("claim"))
                # an earlier event (the order of the events known) whose violation is ruled
                # first settles the deal: this event asks its own facts first (walk 8, P2)
                interview.settled_earlier = self.order_known and settled_by_earlier(self.book, per_event[:k])
            # nor what another event's misdeal voids, nor the result as played once another
            # event's finding is surely the deal's whole result
            voided, interview.settled_elsewhere = from_other_events(self.book, per_event, k)
            interview.settled_elsewhere |= interview.settled_earlier
            interview.aside |= voided
            interview.across = asked_across_events(self.book, per_event, {**self._known, **self.shared}, k)
            interview.skipped = {qid for qid in self.book.questions
                                 if self.key(self._where(self.book.questions[qid], k), qid) in self.skipped}
            q = interview.next_question()
            if q is not None:
                self.current = k
                return q, self._where(q, k), k
        return None

    def _question_prompt(self, q: Question, where: int | None, k: int) -> Prompt:
        book, lang = self.book, self.lang
        answers = self.answers_for(k)
        values = allowed_values(q, book, answers)
        names = self.header.get("players") or {}
        options = []
        if values is not None and q.type != "yesno":
            for v in values:
                options.append(Option(v, self.seat_label(v) if q.type == "seat" else qtype(q).label(q, v, book, lang),
                                      str(names.get(v, "")) if q.type == "seat" else ""))
        body = question_text(q, lang)
        if len(self.events) > 1 and where is not None:
            body = f"{self._ws()['event'].format(n=k + 1)} — {body}"
        return Prompt("question", q.id, body, type=q.type, options=options,
                      allowed=describe_allowed(q, book, answers, lang), help=text(q.help, lang),
                      event=where, events=len(self.events), can_skip=not qtype(q).accepts_unknown,
                      **self._conditional_on(q, answers))

    def _conditional_on(self, q: Question, answers: dict) -> dict:
        """The unknown facts ``q`` is asked under, and in words the value each is taken to have:
        a question asked for one alternative only says which (blind walk 5, B1/B3: "asked for the
        case where the unknown fact is so" named no value). Each unknown answer is tried with every
        value it may have, through the facts ``q``'s condition derives from it."""
        from referee.expert.interview.relevance import conditional_values
        found = conditional_values(self.book, q, answers)
        note = "; ".join(stated(self.book, self.book.questions[qid], values, self.lang)
                         for qid, values in found.items())
        return {"conditional_on": list(found), "conditional_note": note}

    def help(self, prompt: Prompt | None = None) -> dict:
        """What '?' shows: the prompt's help, and the articles a question feeds (id, label,
        quote, English)."""
        prompt = prompt or self.next()
        if prompt is None:
            return {"help": "", "articles": []}
        articles = []
        if prompt.kind == "question":
            for pid in articles_fed(self.book, prompt.id):
                prov = self.book.provisions.get(pid)
                if prov:
                    articles.append({"id": pid, "label": prov.label, "quote": prov.quote,
                                     "english": prov.english})
        extra = self._ws()["unknown_hint"] if prompt.kind == "question" and prompt.type not in ("text", "cards") else ""
        return {"help": prompt.help, "unknown": extra, "articles": articles}

    # --- answering -----------------------------------------------------------------------
    def answer(self, raw: str) -> str | None:
        """Take what the referee typed for the current prompt. Returns a note to show (or
        None); raises AnswerRefused when it is not an answer."""
        prompt = self.next()
        if prompt is None:
            raise AnswerRefused(raw, "the interview is over")
        raw = raw if isinstance(raw, str) else str(raw)
        handler = getattr(self, f"_answer_{prompt.kind}")
        return handler(prompt, raw.strip())

    def _answer_name(self, prompt: Prompt, raw: str) -> None:
        if raw:
            self.header["players"] = {**(self.header.get("players") or {}), prompt.id: raw}
        else:   # left out: the seat's label stands for the player
            self.names_left_out.append(prompt.id)
        self.history.append(["name", prompt.id])
        return None

    def _answer_offer(self, prompt: Prompt, raw: str) -> None:
        low = raw.lower()
        if low in YES_OFFER:
            self.stage, self.entry = "cards", self._card_entry()
            self.history.append(["offer"])
        elif low in NO_OFFER:
            self.stage = "questions"
            self.history.append(["offer"])
        else:
            w = prompt_words.words(prompt_words.CARDS, self.lang)
            raise AnswerRefused(raw, w["yn"].format(raw=raw), prompt.allowed)

    def _answer_card(self, prompt: Prompt, raw: str) -> str | None:
        if not raw:
            note = self.entry.skip()
            self._cards_changed()
            return note or None
        try:
            note = self.entry.give(raw)
        except RefereeError as exc:
            raise AnswerRefused(raw, exc.message) from None
        self._cards_changed()
        return note

    def _answer_question(self, prompt: Prompt, raw: str) -> None:
        q = self.book.questions[prompt.id]
        where = prompt.event
        k = self.current if where is None else where
        if not raw and not qtype(q).accepts_unknown:      # a description for the record: Enter skips
            self.skipped.add(self.key(where, q.id))
            self.history.append(["skip", where, q.id])
            self.pending = None
            return None
        try:
            value = parse_typed(q, raw, self.book, self.answers_for(k), self.lang)
            if q.type == "cards":
                value = read_named(q, value, self.book, self.answers_for(k), self.cards)
        except RefereeError as exc:
            raise AnswerRefused(raw, exc.message, prompt.allowed) from None
        reason = self.impossible(q.id, value, where)
        if reason is not None:
            raise AnswerRefused(raw, reason, prompt.allowed, conflict=True)
        self.give(q.id, value, where)
        return None

    def impossible(self, qid: str, value: Any, where: int | None) -> str | None:
        """Why this answer cannot hold with the answers already given (the rulebook's declared
        impossible combinations: a revoke on a board whose auction has not ended), or None. A
        shared answer must hold with every event's."""
        for k in (range(len(self.events)) if where is None else [where]):
            answers = {**self.answers_for(k), qid: value}
            reason = first_conflict(self.book, answers, touching=qid, lang=self.lang)
            if reason is not None:
                event = f"{self._ws()['event'].format(n=k + 1)}: " if len(self.events) > 1 else ""
                return f"{event}{reason}; answer otherwise, or change the other answer at the review"
        return None

    def _implied(self, q: Question, where: int | None) -> Any:
        """The one value of ``q`` the answers given leave possible, where the rulebook's declared
        impossible combinations exclude every other; None when more than one value remains (or
        the question has no list of values)."""
        if q.type not in ("choice", "yesno"):
            return None
        k = self.current if where is None else where
        values = allowed_values(q, self.book, self.answers_for(k))
        if values is None and q.type == "yesno":
            values = [True, False]
        if not values or len(values) < 2:
            return None
        left = [v for v in values if self.impossible(q.id, v, where) is None]
        return left[0] if len(left) == 1 else None

    def _give_implied(self, qid: str, value: Any, where: int | None) -> None:
        self._store(where)[qid] = value
        self.times[self.key(where, qid)] = _now()
        self.history.append(["implied", where, qid])

    def _drop_implied(self) -> list[tuple[int | None, str]]:
        """Answers taken as following from others are worked out again after any change: dropped
        here, and kept by ``_rederive`` where they still follow. Returns what was dropped."""
        dropped = []
        for h in [h for h in self.history if h[0] == "implied"]:
            self._store(h[1]).pop(h[2], None)
            self.history.remove(h)
            dropped.append((h[1], h[2]))
        return dropped

    def _rederive(self, dropped: list[tuple[int | None, str]]) -> None:
        """Give again each answer dropped by ``_drop_implied`` that still follows from the answers
        (and whose question is still asked with them): a fact of the deal said once in other words
        stays said for the events after it (preferans: the contra in force at a lead is the
        contra the hand was played at), not only until the next answer."""
        for where, qid in dropped:
            q = self.book.questions.get(qid)
            if q is None or qid in self._store(where) or (where is not None and where >= len(self.events)):
                continue
            value = self._implied(q, where)
            if value is None:
                continue
            self._store(where)[qid] = value
            events = range(len(self.events)) if where is None else [where]
            per_event = self._carried()
            if any(qid in prune(self.book, per_event[k]) for k in events):
                self.history.append(["implied", where, qid])
            else:
                self._store(where).pop(qid, None)

    def give(self, qid: str, value: Any, where: int | None = None) -> None:
        """Record a checked answer (front ends that send values rather than text use this)."""
        dropped = self._drop_implied()
        store = self._store(where)
        store[qid] = value
        self.times[self.key(where, qid)] = _now()
        self.skipped.discard(self.key(where, qid))
        self.history = [h for h in self.history if not (h[0] == "answer" and h[1] == where and h[2] == qid)]
        self.history.append(["answer", where, qid])
        self.pending = None
        self._prune()
        self._rederive(dropped)
        if self.stage == "review":
            self.stage = "questions"

    def _answer_review(self, prompt: Prompt, raw: str) -> None:
        rows = prompt.rows
        if not raw:
            # a stray Enter rules nothing: ruling (and registering) needs the explicit word
            return request_words.words(self.lang)["review_empty"]
        if request_words.is_rule_word(raw):
            self.stage = "done"
            return None
        if raw == "+":
            self.events.append({})
            self.current = len(self.events) - 1
            self.history.append(["event", self.current])
            self.stage = "questions"
            return self._ws()["event_added"].format(n=self.current + 1)
        if raw.lower() == "r":
            self.stage, self.draft = "request", {}
            return None
        if raw.lower() == "o" and len(self.events) > 1:
            self.order_known = not self.order_known
            self.history.append(["order"])
            return self._ws()["order_unknown" if not self.order_known else "order_known"]
        if raw.isdecimal() and raw.isascii() and len(raw) < 10 and 1 <= int(raw) <= len(rows):
            row = rows[int(raw) - 1]
            self.pending = (row["event"], row["question"])
            self.current = row["event"] if row["event"] is not None else self.current
            self.stage = "questions"
            return None
        raise AnswerRefused(raw, self._ws()["review_pick"].format(n=len(rows)))

    # --- requests ------------------------------------------------------------------------
    def request_options(self) -> list[Option]:
        """What a party may ask for: the claim upheld or rejected, no penalty on himself, the
        result as played to stand, any effect the rulebook knows, something else. The menu is
        the same in every context -- the rulebook's order -- so a number remembered from another
        dispute, or piped, picks the same request; the effects the findings on the claims made
        can give are marked (``likely``), not moved to the top."""
        ws, book = self._ws(), self.book
        options = [Option("upheld", ws["ask_upheld"]), Option("rejected", ws["ask_rejected"]),
                   Option("no-penalty", ws["ask_no_penalty"]), Option("stands", ws["ask_stands"])]
        # a claim and its sub-grounds (any several-answer question) name the claims made
        claims = set()
        for answers in [self.shared, *self.events]:
            for qid, value in answers.items():
                q = book.questions.get(qid)
                if q is not None and q.type == "multi" and isinstance(value, list):
                    claims |= {str(v) for v in value}
        likely: set[str] = set()
        for p in book.productions:
            claim = p.claim
            if p.action != "finding" or (claims and claim and claim not in claims):
                continue
            likely |= {e["effect"] for e in (p.finding.get("penalty") or []) if isinstance(e, dict)}
        by_label: dict[str, Option] = {}
        for name in book.effects:
            label = text(book.effects[name].get("label"), self.lang) or name
            if label in by_label:
                # two effects worded alike are one choice, likely when either is
                by_label[label].likely = by_label[label].likely or name in likely
                continue
            by_label[label] = Option(f"effect:{name}", label, likely=name in likely)
            options.append(by_label[label])
        options.append(Option("other", ws["ask_other"]))
        return options

    def follow_ups(self) -> list[str]:
        """The questions a request of the kind chosen still needs, in order: which event (with
        several), whom and how much or how long (an effect: how much only where the rulebook gives
        it an amount, how long where it lasts), the player's words, the article (free text)."""
        asks, book = self.draft.get("asks", ""), self.book
        steps = ["event"] if len(self.events) > 1 else []
        if asks.startswith("effect:"):
            effect = asks[len("effect:"):]
            steps.append("on")
            if scope_ids(book, effect):
                steps.append("scope")
            elif takes_amount(book, effect):
                steps.append("amount")
        steps.append("text")
        if asks == "other":
            steps.append("provision")
        return steps

    def _announce(self, step: str) -> str:
        """Said before the first follow-up: how many more questions and which (blind walk 8: a
        referee typing ahead put an amount where a player was asked)."""
        steps = self.follow_ups()
        if not steps or step != steps[0]:
            return ""
        rw = request_words.words(self.lang)
        named = ", ".join(rw[f"step_{s}"] for s in steps)
        return (rw["follow_one"].format(steps=named) if len(steps) == 1
                else rw["follow_many"].format(n=len(steps), steps=named))

    def _request_prompt(self) -> Prompt:
        ws, book = self._ws(), self.book
        rw = request_words.words(self.lang)
        names = self.header.get("players") or {}
        seats = [Option(s, self.seat_label(s), str(names.get(s, ""))) for s in book.seat_ids]
        if "party" not in self.draft:
            return Prompt("request_party", "party", ws["request_party"], type="seat", options=seats,
                          allowed=describe_allowed_options(seats, self.lang))
        if "asks" not in self.draft:
            options = self.request_options()
            return Prompt("request_asks", "asks", ws["request_asks"], type="choice", options=options,
                          allowed=describe_allowed_options(options, self.lang))
        step = next((s for s in self.follow_ups() if s not in self.draft), "provision")
        heading = self._announce(step)
        if step == "event":
            n, k = len(self.events), self.current + 1
            return Prompt("request_event", "event", rw["request_event"].format(n=n, k=k), type="number",
                          can_skip=True, heading=heading, allowed=rw["event_expected"].format(n=n, k=k))
        effect = self.draft["asks"].partition(":")[2]
        if step == "on":
            # the effect's own label says whom it names ("tricks transferred to this side": the
            # side receiving them; "bula": the player who takes it), so the question quotes it;
            # a player is named, not numbered: a number here is an amount typed ahead
            label = text((book.effects.get(effect) or {}).get("label"), self.lang) or effect
            # the question says whom it means, as the request is decided: the player who pays,
            # the one it is taken from, the one who bears it, or the one it favours (blind walk
            # 9, B1: "tricks transferred to this side ... (Enter: the other side)" left the
            # referee guessing between the side that receives and the side that pays). Enter
            # names the party himself where the effect is one written in his favour (the
            # soloist's own game scored as won), else the other side
            party = self.draft["party"]
            said = rw[f"on_{on_role(book, effect)}"].format(
                effect=label, who=names.get(party) or self.seat_label(party))
            return Prompt("request_on", "on", said, type="seat", help=rw["on_help"],
                          options=seats, can_skip=True, heading=heading,
                          allowed=rw["player_expected"].format(seats=", ".join(
                              f"{o.value}" + (f" ({o.name})" if o.name else "") for o in seats)))
        if step == "scope":
            # an effect that lasts (bridge: a forced pass at the next turn, or to the end of the
            # auction): how long is asked, from the rulebook's own words; there is no amount
            options = [Option(s, scope_label(book, effect, s, self.lang)) for s in scope_ids(book, effect)]
            return Prompt("request_scope", "scope", ws["request_scope"], type="choice", options=options,
                          can_skip=True, heading=heading, allowed=describe_allowed_options(options, self.lang))
        if step == "amount":
            # in the effect's unit, with the sign the rules write it with, said by '?' and by the
            # refusal of a number of the other sign (blind walk 9, S1: '?' printed nothing, and
            # a tester guessed -72 for a game lost)
            unit = self._unit(effect)
            sign = amount_sign(book, effect)
            said = rw["amount_q"].format(unit=unit) if unit else rw["amount_q_plain"]
            helped = (rw["amount_help"] if unit else rw["amount_help_plain"]).format(
                unit=unit, sign={1: rw["sign_pos"], -1: rw["sign_neg"]}.get(sign, ""))
            if (book.effects.get(effect) or {}).get("against_gains"):
                helped += rw["own_share"]
            allowed = (rw["amount_pos" if sign > 0 else "amount_neg"].format(unit=unit or "—") if sign
                       else self._w_allowed()["number"])
            return Prompt("request_amount", "amount", said, type="number", can_skip=True,
                          heading=heading, allowed=allowed, help=helped)
        if step == "text":
            required = self.draft["asks"] == "other"
            return Prompt("request_text", "text", ws["request_text"], type="text", can_skip=not required,
                          heading=heading, allowed=rw["words_required" if required else "words_expected"])
        return Prompt("request_provision", "provision", ws["request_provision"], type="text", can_skip=True,
                      heading=heading)

    def _pick(self, prompt: Prompt, raw: str) -> Any:
        for i, o in enumerate(prompt.options, 1):
            if raw == str(i) or raw.lower() in (str(o.value).lower(), o.label.lower()) or (
                    o.name and raw.lower() == o.name.lower()):
                return o.value
        raise AnswerRefused(raw, self._w_interview()["refused"].format(raw=raw, allowed=prompt.allowed),
                            prompt.allowed)

    def _refuse(self, raw: str, prompt: Prompt) -> AnswerRefused:
        return AnswerRefused(raw, self._w_interview()["refused"].format(raw=raw, allowed=prompt.allowed),
                             prompt.allowed)

    def _answer_request_party(self, prompt: Prompt, raw: str) -> None:
        self.draft["party"] = self._pick(prompt, raw)

    def _answer_request_asks(self, prompt: Prompt, raw: str) -> None:
        self.draft["asks"] = self._pick(prompt, raw)

    def _answer_request_event(self, prompt: Prompt, raw: str) -> None:
        if not raw:
            self.draft["event"] = self.current + 1      # the event being recorded
            return None
        if not (raw.isdecimal() and raw.isascii() and len(raw) < 4 and 1 <= int(raw) <= len(self.events)):
            raise self._refuse(raw, prompt)
        self.draft["event"] = int(raw)
        return None

    def _answer_request_on(self, prompt: Prompt, raw: str) -> None:
        if raw and _numeric(raw):
            raise self._refuse(raw, prompt)           # a number is not a player
        on = None
        if raw:
            on = next((o.value for o in prompt.options
                       if raw.lower() in (str(o.value).lower(), o.label.lower())
                       or (o.name and raw.lower() == o.name.lower())), None)
            if on is None:
                raise self._refuse(raw, prompt)
        elif favours_its_player(self.book, self.draft["asks"].partition(":")[2]):
            on = self.draft["party"]          # Enter: the party himself (the prompt says so)
        own = on_own_side(self.book, self.draft["party"], self.draft["asks"], on, self.lang)
        if own is not None:
            raise AnswerRefused(raw, own, prompt.allowed, conflict=True)
        self.draft["on"] = on

    def _answer_request_scope(self, prompt: Prompt, raw: str) -> None:
        self.draft["scope"] = self._pick(prompt, raw) if raw else None

    def _answer_request_amount(self, prompt: Prompt, raw: str) -> None:
        if not raw:
            self.draft["amount"] = None
            return None
        try:
            value = float(raw.replace("\u2212", "-").replace(",", "."))
        except ValueError:
            raise self._refuse(raw, prompt) from None
        if not (abs(value) < 1e9):
            raise self._refuse(raw, prompt)
        # an amount of the other sign than the rules write the effect with (72 for a game lost,
        # written -72) asks for nothing they could give
        sign = amount_sign(self.book, self.draft["asks"].partition(":")[2])
        if sign and value * sign <= 0:
            raise self._refuse(raw, prompt)
        self.draft["amount"] = int(value) if value.is_integer() else value
        return None

    def _unit(self, effect: str) -> str:
        """The effect's unit as the rulebook writes it (in the session's language, else
        English), in the form that goes with a count ('tricks', 'points', 'взяток')."""
        unit = (self.book.effects.get(effect) or {}).get("unit")
        if isinstance(unit, dict):
            unit = unit.get(self.lang) or unit.get("en") or next(iter(unit.values()), None)
        if isinstance(unit, list):
            unit = unit[-1] if unit else None
        return str(unit) if unit else ""

    def _answer_request_text(self, prompt: Prompt, raw: str) -> str | None:
        if (not raw and not prompt.can_skip) or (raw and _numeric(raw)):
            # a number alone is an answer meant for another question (an amount typed ahead)
            raise self._refuse(raw, prompt)
        self.draft["text"] = raw
        if "provision" not in self.follow_ups():
            return self._finish_request(None)
        return None

    def _answer_request_provision(self, prompt: Prompt, raw: str) -> str | None:
        if not raw:
            return self._finish_request(None)
        found = find_provision(self.book, raw)
        if found is None:
            raise AnswerRefused(raw, self._ws()["no_article"].format(raw=raw))
        return self._finish_request(found)

    def _finish_request(self, provision: str | None) -> str:
        self.requests.append(Request(party=self.draft["party"], asks=self.draft["asks"],
                                     text=self.draft.get("text", ""), provision=provision,
                                     on=self.draft.get("on"), amount=self.draft.get("amount"),
                                     scope=self.draft.get("scope"),
                                     # with one event so far, the request is about it: an event
                                     # added later ('+') does not answer it (blind walk 8)
                                     event=self.draft.get("event") or self.current + 1))
        self.history.append(["request", len(self.requests) - 1])
        self.times[f"request:{len(self.requests)}"] = _now()
        self.draft, self.stage = {}, "review"
        return self._ws()["request_added"]

    # --- back ------------------------------------------------------------------------------
    def back(self) -> str | None:
        """Undo the last step; returns what was undone in words (None: nothing to undo)."""
        if self.stage == "cards" and self.entry is not None:
            if self.entry.back():
                self._cards_changed()
                return prompt_words.words(prompt_words.CARDS, self.lang)["undone"]
            if self.history and self.history[-1][0] == "offer":
                self.history.pop()
                self.stage, self.entry = "offer", None
                return prompt_words.words(prompt_words.CARDS, self.lang)["undone"]
            return None
        if self.stage == "request" and self.draft:
            self.draft, self.stage = {}, "review"
            return self._ws()["requests_heading"]
        if not self.history:
            return None
        step = self.history.pop()
        while step[0] == "implied":     # taken from the answer before it: undone with that answer
            self._store(step[1]).pop(step[2], None)
            if not self.history:
                return None
            step = self.history.pop()
        kind = step[0]
        self.pending = None
        if kind in ("answer", "skip"):
            where, qid = step[1], step[2]
            if kind == "answer":
                self._store(where).pop(qid, None)
            else:
                self.skipped.discard(self.key(where, qid))
            if where is not None:
                self.current = where
            if self.stage not in ("names", "offer", "cards"):   # (the place, asked before them)
                self.stage = "questions"
            q = self.book.questions.get(qid)
            return question_text(q, self.lang) if q else qid
        if kind == "event":
            k = step[1]
            for h in [h for h in self.history if h[0] in ("answer", "skip") and h[1] == k]:
                self.history.remove(h)
            del self.events[k]
            self.current = max(0, k - 1)
            self.stage = "review"
            return self._ws()["event"].format(n=k + 1)
        if kind == "order":
            self.order_known = not self.order_known
            self.stage = "review"
            return self._ws()["order_unknown" if not self.order_known else "order_known"]
        if kind == "request":
            self.requests.pop()
            self.stage = "review"
            return self._ws()["requests_heading"]
        if kind == "offer":
            self.stage = "offer"
            return prompt_words.words(prompt_words.CARDS, self.lang)["undone"]
        if kind == "name":
            seat = step[1]
            (self.header.get("players") or {}).pop(seat, None)
            if seat in self.names_left_out:
                self.names_left_out.remove(seat)
            if self.stage != "names":
                self._after_names, self.stage = self.stage if self.stage != "review" else "questions", "names"
            return self.seat_label(seat)
        return None

    # --- review and ruling -------------------------------------------------------------
    def review_rows(self) -> list[dict]:
        """Every answer given, in the order the questions were asked (blind walk 8: the deal's
        answers came first, so the last question asked, the soloist's seat, headed the list):
        with several events, the deal's answers, then each event's, each in the order asked.
        An answer changed keeps its place; answers with no record of when they were given (a
        case file resumed) follow, in the rulebook's order."""
        asked = {key: n for n, key in enumerate(self.times)}
        book_order = {qid: n for n, qid in enumerate(self.book.questions)}
        rows = []
        for where, answers in [(None, self.shared)] + list(enumerate(self.events)):
            for qid in self.book.questions:
                if qid in answers:
                    q = self.book.questions[qid]
                    rows.append({"event": where, "question": qid, "text": question_text(q, self.lang),
                                 "shown": show_value(q, answers[qid], self.book, self.lang),
                                 "unknown": is_unknown(answers[qid])})
        several = len(self.events) > 1
        groups = [None] + list(range(len(self.events)))

        def rank(row):
            key = self.key(row["event"], row["question"])
            # one event: the deal's answers and the event's are one list, as asked
            group = groups.index(row["event"]) if several else 0
            return (group, 0, asked[key], 0) if key in asked else (group, 1, 0, book_order[row["question"]])
        return sorted(rows, key=rank)

    @property
    def done(self) -> bool:
        return self.stage == "done"

    def finish(self) -> None:
        """Stop asking: the ruling is wanted now (only when nothing can change it any more)."""
        self.stage = "done"

    def ruler(self) -> Ruler:
        if self._ruler is None:
            self._ruler = Ruler(self.book)
        return self._ruler

    def rule(self, ruler: Ruler | None = None) -> Ruling:
        """The ruling on the answers given; ``ruler``: the engine to rule with (a server shares
        one per rulebook, held by one ruling at a time), else the session's own."""
        sources = {q: s for q, s in self._sources.items() if q not in self.shared
                   and all(q not in e for e in self.events)}
        return rule_dispute(ruler or self.ruler(), self.dispute(), self.header, sources)

    def answer_times(self) -> dict:
        return dict(self.times)

    # --- cards -------------------------------------------------------------------------
    def _card_entry(self) -> CardEntry:
        book, lang = self.book, self.lang

        def label(seat: str) -> str:
            name = book.seat_label(seat, lang) if seat in book.seat_ids else seat
            return f"{name} [{seat}]" if name and name != seat else seat
        return CardEntry(book.game, lang, label)

    def _cards_changed(self) -> None:
        self.cards = dict(self.entry.deal) if self.entry and self.entry.deal else None
        self.times["cards"] = _now()

    def _finish_cards(self) -> None:
        self.cards = dict(self.entry.deal) if self.entry and self.entry.deal else None
        self.stage = "questions"
        self._derive_from_cards()

    def _derive_from_cards(self) -> None:
        if not self.cards or self.stage in ("offer", "cards"):
            self._known, self._sources = {}, {}
            return
        derived = answers_from_cards(self.book, self.cards, self._cards_source, None)
        self._known, self._sources = dict(derived.answers), dict(derived.sources)

    def from_cards_rows(self) -> list[dict]:
        """What the cards answer, as the review lists answers (question, text, shown): never
        asked, so never changed at the review."""
        return [{"question": qid, "text": question_text(self.book.questions[qid], self.lang),
                 "shown": show_value(self.book.questions[qid], self._known[qid], self.book, self.lang)}
                for qid in self.book.questions if qid in self._known]

    def from_cards_note(self) -> str:
        """'From the cards: ...' naming the questions by their text, or '' when none."""
        if not self._known:
            return ""
        names = [question_text(self.book.questions[q], self.lang) for q in self.book.questions if q in self._known]
        return self._w_interview()["from_cards"].format(answers="; ".join(names))

    # --- pruning ---------------------------------------------------------------------------
    def _prune(self) -> None:
        """Drop answers an answer changed has closed, in the deal and in every event."""
        # an answer a question opened by what an earlier event carries stays (engine/carried.py)
        per_event = self._carried()
        for k, event in enumerate(self.events):
            kept = prune(self.book, per_event[k])
            for qid in [q for q in event if q not in kept]:
                event.pop(qid)
            if len(self.events) == 1:
                for qid in [q for q in self.shared if q not in kept]:
                    self.shared.pop(qid)
        if len(self.events) > 1:
            # a shared answer stays while some event still asks it
            per_event = self._carried()
            for qid in list(self.shared):
                if all(qid not in prune(self.book, per_event[k]) for k in range(len(self.events))):
                    self.shared.pop(qid)
        live = {(where, qid) for where, answers in [(None, self.shared)] + list(enumerate(self.events))
                for qid in answers}
        self.history = [h for h in self.history
                        if h[0] not in ("answer",) or (h[1], h[2]) in live]

    # --- saving and restoring --------------------------------------------------------------
    def to_state(self) -> dict:
        """Everything needed to continue exactly where the referee stopped (JSON-safe)."""
        return {
            "format": STATE_FORMAT, "game": self.book.game, "lang": self.lang, "stage": self.stage,
            "header": self.header, "cards": self.cards, "shared": self.shared, "events": self.events,
            "current": self.current, "requests": [r.to_dict() for r in self.requests],
            "order_known": self.order_known,
            "draft": self.draft, "times": self.times, "history": self.history,
            "skipped": sorted(self.skipped),
            "pending": list(self.pending) if self.pending else None,
            "entry": {"deal": self.entry.deal, "done": self.entry.done, "ended": self.entry.ended}
            if self.entry is not None and self.stage == "cards" else None,
            "after_names": self._after_names, "names_left_out": self.names_left_out,
        }

    @classmethod
    def from_state(cls, book: Rulebook, state: dict, ruler: Ruler | None = None) -> "Session":
        """The session ``to_state()`` saved, exactly."""
        if state.get("game") != book.game:
            raise RefereeError(f"the saved interview is for {state.get('game')!r}, not {book.game!r}")
        s = cls(book, lang=state.get("lang", "en"), header=state.get("header"), cards=state.get("cards"),
                enter_cards=False, ruler=ruler)
        s.shared = dict(state.get("shared") or {})
        s.events = [dict(e) for e in state.get("events") or [{}]] or [{}]
        s.requests = [Request(**r) for r in state.get("requests") or []]
        s.order_known = bool(state.get("order_known", True))
        s._restore(state)
        return s

    @classmethod
    def resume(cls, book: Rulebook, case: dict, lang: str | None = None, ruler: Ruler | None = None,
               source: str | None = None) -> "Session":
        """A session from a saved case file: its answers, events and requests, and, when the
        interview was interrupted, its ``session:`` block (stage, times, history). The cards
        are never offered again."""
        s = cls(book, lang=lang or "en", header=case.get("header"), cards=case.get("cards"),
                enter_cards=False, ruler=ruler, cards_source=source)
        answers = dict(case.get("answers") or {})
        events = [dict(e) for e in case.get("events") or []]
        if events:
            s.shared, s.events = answers, events
        else:
            for qid, value in answers.items():
                q = book.questions.get(qid)
                (s.shared if q is not None and q.scope == "deal" else s.events[0])[qid] = value
        s.requests = [Request(**r) if isinstance(r, dict) else r for r in case.get("requests") or []]
        s.order_known = case.get("events_order", "known") != "unknown"
        s.history = [["answer", where, q] for where, given in [(None, s.shared)] + list(enumerate(s.events))
                     for q in given if q in book.questions]
        state = case.get("session")
        if isinstance(state, dict) and state.get("format") == STATE_FORMAT:
            s._reopen_events(state.get("open_events"))
            s._restore(state)
            if lang:
                s.lang = book.language if lang == "both" else lang
        return s

    def _reopen_events(self, open_events) -> None:
        """Put back the events added ('+') whose questions were not answered when the interview
        stopped (a case file holds no empty event): the resume asks them where it stopped."""
        if not isinstance(open_events, list) or not all(type(k) is int for k in open_events):
            return
        if any(not e for e in self.events) and len(self.events) == 1:
            return                          # nothing was answered at all: one event, as it is
        for k in sorted(open_events):
            if 0 < k <= len(self.events):
                self.events.insert(k, {})

    def _restore(self, state: dict) -> None:
        """The interview's own state over the answers already in place."""
        self.lang = state.get("lang", self.lang)
        self.current = min(int(state.get("current") or 0), len(self.events) - 1)
        self.draft = dict(state.get("draft") or {})
        self.times = dict(state.get("times") or {})
        live = {(where, q) for where, given in [(None, self.shared)] + list(enumerate(self.events)) for q in given}
        history = [list(h) for h in state.get("history") or []]
        self.history = [h for h in history if h[0] not in ("answer",) or (h[1], h[2]) in live] or self.history
        self.skipped = set(state.get("skipped") or [])
        self.pending = tuple(state["pending"]) if state.get("pending") else None
        self.stage = state.get("stage") or "questions"
        self._after_names = state.get("after_names") or "questions"
        self.names_left_out = list(state.get("names_left_out") or [])
        if self.stage == "done":
            self.stage = "review"
        entry = state.get("entry")
        if self.stage in ("offer", "cards"):
            self.entry = self._card_entry() if self.stage == "cards" else None
            if entry and self.entry is not None:
                self.entry.deal, self.entry.done = dict(entry.get("deal") or {}), list(entry.get("done") or [])
                self.entry.ended = bool(entry.get("ended"))
        self._derive_from_cards()

    def to_case(self) -> dict:
        """The case file this session amounts to: header, cards, answers, events, requests."""
        shared, events = self.given()
        # an event just added ('+') holds nothing until what happened is answered: a case file
        # has no empty event (the loader refuses one), so a resume comes back to the review
        events = [e for e in events if e] or [{}]
        data: dict[str, Any] = {"game": self.book.game}
        if self.header:
            data["header"] = dict(self.header)
        if self.cards:
            data["cards"] = dict(self.cards)
        if len(events) == 1:
            data["answers"] = {**shared, **events[0]}
        else:
            data["answers"] = shared
            data["events"] = events
        if self.requests:
            data["requests"] = [r.to_dict() for r in self.requests]
        if not self.order_known and len(events) > 1:
            data["events_order"] = "unknown"
        return data

    # --- words ---------------------------------------------------------------------------
    def _ws(self) -> dict:
        return prompt_words.words(prompt_words.SESSION, self.lang)

    def _w_allowed(self) -> dict:
        return prompt_words.words(prompt_words.ALLOWED, self.lang)

    def _w_interview(self) -> dict:
        return prompt_words.words(prompt_words.INTERVIEW, self.lang)


YES_OFFER = ("y", "yes", "d", "da", "j", "ja", "t", "tak", "i", "igen", "д", "да")
NO_OFFER = ("", "n", "no", "ne", "nein", "nie", "nem", "н", "нет")


def describe_allowed_options(options: list[Option], lang: str) -> str:
    w = prompt_words.words(prompt_words.ALLOWED, lang)
    return w["one"].format(values=", ".join(str(o.value) for o in options))


def find_provision(book: Rulebook, raw: str) -> str | None:
    """A provision by its id, or by its label as the rulebook writes it ("Član 8, stav 2", "22",
    "64A1"): the lookup `referee articles GAME ARTICLE` uses; the first when a label names several."""
    from referee.expert.language.lookup import lookup
    raw = raw.strip()
    if raw in book.provisions:
        return raw
    found = lookup(book, raw)
    return found[0].id if found else None


def _numeric(raw: str) -> bool:
    """A number alone (an amount), as typed: '8', '-2', '−2', '1,5'."""
    try:
        float(raw.replace("\u2212", "-").replace(",", "."))
    except ValueError:
        return False
    return True


def takes_amount(book: Rulebook, effect: str) -> bool:
    """Whether a request for the effect has an amount to ask: the rulebook gives the effect an
    amount somewhere (bula 6, two supe, tricks transferred) and writes it on the score sheet. A
    request for one that has none (a deal voided, a call cancelled, the play continues) asks no
    amount, which would mean nothing; nor does one whose number is only a count the facts fix
    and no score reads (bridge: a penalty card is "1 card", the card exposed -- blind walk 9, B2:
    "How much is asked?" was meaningless for it)."""
    if book.score and effect not in ((book.score.get("effects") or {})):
        return False
    return any(line.get("amount") is not None for line in _lines_of(book, effect))


def _lines_of(book: Rulebook, effect: str) -> list[dict]:
    """The penalty lines of the rulebook's findings that write the effect."""
    return [line for p in book.productions if p.action == "finding"
            for line in ((p.finding or {}).get("penalty") or [])
            if isinstance(line, dict) and line.get("effect") == effect]


def amount_sign(book: Rulebook, effect: str) -> int:
    """The sign the rules write the effect's amount with: -1 where every amount the findings
    give is at or below zero (skat: the soloist's game lost, -2 x its value), 1 where every one
    is at or above, 0 where it cannot be told. Read from the amounts' expressions: a number's
    own sign, a parameter's values, a number answer with no minimum below zero, a product's
    signs multiplied (blind walk 9, S1: a tester guessed the sign of "How much is asked?")."""
    signs = {_sign(book, line.get("amount")) for line in _lines_of(book, effect) if line.get("amount") is not None}
    return signs.pop() if len(signs) == 1 else 0


def _same(signs) -> int:
    found = set(signs)
    return found.pop() if len(found) == 1 else 0


def _values(value) -> list:
    """A parameter's values, nested tables flattened."""
    if isinstance(value, dict):
        return [v for x in value.values() for v in _values(x)]
    if isinstance(value, list):
        return [v for x in value for v in _values(x)]
    return [value]


def _sign(book: Rulebook, expr) -> int:
    """1: never below zero; -1: never above; 0: not to be told (an operation not read here)."""
    if isinstance(expr, bool):
        return 0
    if isinstance(expr, (int, float)):
        return 1 if expr >= 0 else -1
    if not isinstance(expr, dict):
        return 0
    if "param" in expr:
        return _same(_sign(book, v) for v in _values((book.parameters.get(expr["param"]) or {}).get("value")))
    if "answer" in expr:
        q = book.questions.get(expr["answer"]) if isinstance(expr["answer"], str) else None
        return 1 if q is not None and q.type == "number" and q.min is not None and q.min >= 0 else 0
    if "mul" in expr:
        out = 1
        for e in expr["mul"]:
            out *= _sign(book, e)
        return out
    for op in ("add", "max", "min"):
        if op in expr:
            return _same(_sign(book, e) for e in expr[op])
    if "then" in expr:
        return _same([_sign(book, expr.get("then")), _sign(book, expr.get("else", expr.get("then")))])
    return 0


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
