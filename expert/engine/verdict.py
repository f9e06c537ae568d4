"""A ruling: what the engine concluded, in the shape the reports and the JSON contract use."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.expert.language.expressions import Unresolved, amount_of, seat_of
from referee.expert.language.model import INFRACTION_KINDS, NOT_RULED_KINDS, UNKNOWN, Production, Rulebook, text


@dataclass
class PenaltyLine:
    player: str
    effect: str
    amount: float | int | None
    against: str | None = None
    needs: str | None = None          # a question whose answer the amount or seat still needs
    options: list | None = None       # an open amount under each answer to what it needs: [(when, amount)]
    scope: str | None = None          # how long it lasts: one of the effect's scopes (bridge: next_turn)
    cards: str | None = None          # the cards it concerns, in the card notation (bridge: "♣K")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"player": self.player, "effect": self.effect, "amount": self.amount}
        if self.against:
            d["against"] = self.against
        if self.needs:
            d["needs"] = self.needs
        if self.options:
            d["options"] = [{"if": when, "amount": amount} for when, amount in self.options]
        if self.scope:
            d["scope"] = self.scope
        if self.cards:
            d["cards"] = self.cards
        return d


@dataclass
class FindingOut:
    production: str
    provisions: list[str]
    article: str
    kind: str
    claim: str
    summary: dict
    offender: str | None
    penalty: list[PenaltyLine]
    orders: list[dict]
    readings: list[dict]
    event: int = 0                    # which event of the dispute it rules on (0-based)

    def to_dict(self) -> dict:
        return {"production": self.production, "provisions": self.provisions,
                "article": self.article, "kind": self.kind, "claim": self.claim or None,
                "summary": text(self.summary), "offender": self.offender,
                "penalty": [p.to_dict() for p in self.penalty],
                "orders": [text(o) for o in self.orders],
                "readings": [text(r) for r in self.readings],
                "event": self.event + 1}


@dataclass
class NotRuled:
    production: str
    provisions: list[str]
    article: str
    reason: str                 # in English, for the JSON contract
    by: str
    cause: str = "override"     # override | later
    winner_article: str = ""
    why: dict | None = None     # the prevailing production's reason, by language
    first_article: str = ""
    event: int = 0              # the event it would have ruled on (0-based)
    by_provisions: list[str] = field(default_factory=list)   # what the prevailing production cites

    def to_dict(self) -> dict:
        return {"production": self.production, "provisions": self.provisions,
                "article": self.article, "reason": self.reason, "by": self.by,
                "by_provisions": self.by_provisions, "event": self.event + 1}


@dataclass
class Ruling:
    book: Rulebook
    answers: dict
    header: dict
    findings: list[FindingOut]
    not_ruled: list[NotRuled]
    not_established: list[str]
    trail: list[dict] = field(default_factory=list)
    from_cards: dict = field(default_factory=dict)   # question id -> how the cards show it
    # several events: each event's complete answers (shared and its own); [] for one event,
    # whose answers are ``answers``
    events: list[dict] = field(default_factory=list)
    open_questions: list[str] = field(default_factory=list)   # what the interview would still ask
    unknown: list["UnknownFact"] = field(default_factory=list)
    alternatives: list["Alternative"] = field(default_factory=list)
    requests: list["RequestAnswer"] = field(default_factory=list)
    not_established_events: list[int] = field(default_factory=list)   # beside not_established
    result: Any = None            # engine.result.Result: the score sheet's entries after the ruling
    ruled_at: str = ""            # when the ruling was made (ISO, local time), set by the front end
    order_known: bool = True      # False: the order of the events could not be established
    # set aside by a standing sibling that applies every provision they cite (no article is set
    # aside, so the documents do not list them); the casebook reads them as set aside
    refined: list[NotRuled] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.book.game

    def answers_of(self, event: int) -> dict:
        """The answers an event was ruled on."""
        return self.events[event] if self.events else self.answers

    @property
    def event_count(self) -> int:
        return max(len(self.events), 1)

    @property
    def judgements(self) -> list[str]:
        """Answers that are the referee's judgement rather than established facts."""
        return [q for q in _answered(self) if self.book.questions[q].judgement]

    @property
    def conditional(self) -> bool:
        return bool(self.alternatives)

    @property
    def no_infraction(self) -> bool:
        """No infraction stands: in the ruling, nor in any alternative of a conditional one (the
        register listed "no infraction" for a ruling whose every alternative found one)."""
        return all(f.kind in NOT_RULED_KINDS for f in self.findings) and \
            all(f.kind in NOT_RULED_KINDS for a in self.alternatives for f in a.findings)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "edition": self.book.edition,
            "header": self.header,
            "findings": [f.to_dict() for f in self.findings],
            "not_ruled": [n.to_dict() for n in self.not_ruled],
            "not_established": self.not_established,
            "no_infraction": self.no_infraction,
            "answers": self.answers,
            "from_cards": self.from_cards,
            "trail": self.trail,
            "events": [event_info(self, k) for k in range(self.event_count)],
            "open_questions": self.open_questions,
            "unknown": [u.question for u in self.unknown],
            "unknown_facts": [u.to_dict() for u in self.unknown],
            "judgements": self.judgements,
            "alternatives": [a.to_dict() for a in self.alternatives],
            "requests": [r.to_dict() for r in self.requests],
            "result": self.result.to_dict(self.book, self.header) if self.result is not None else None,
            **({"ruled_at": self.ruled_at} if self.ruled_at else {}),
            **({"events_order": "unknown"} if not self.order_known else {}),
        }


@dataclass
class UnknownFact:
    """A question answered 'unknown': whether the ruling depends on it, and the default the text
    prescribes, if any."""
    question: str
    event: int | None             # None: a shared answer
    matters: bool                 # some answer to it would change the ruling
    default: Any = None           # the value the text prescribes for an unknown fact, when it does
    cites: list[str] = field(default_factory=list)
    why: dict | None = None

    @property
    def has_default(self) -> bool:
        return bool(self.cites)

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"question": self.question, "matters": self.matters}
        if self.event is not None:
            d["event"] = self.event + 1
        if self.has_default:
            d.update(default=self.default, cites=self.cites)
        return d


@dataclass
class Alternative:
    """One branch of a conditional ruling: the answers to the unknown facts under which it holds
    (several sets when several lead to the same ruling), and the ruling then."""
    when: list[dict]              # each a {question: value} mapping
    findings: list[FindingOut]
    not_ruled: list[NotRuled]
    result: Any = None            # the score sheet's entries under this alternative
    book: Any = None
    header: dict = field(default_factory=dict)
    answers: list = field(default_factory=list)   # each event's answers under this alternative
    refined: list[NotRuled] = field(default_factory=list)   # as Ruling.refined

    def to_dict(self) -> dict:
        d = {"if": self.when[0] if len(self.when) == 1 else {"any": self.when},
             "findings": [f.to_dict() for f in self.findings],
             "not_ruled": [n.to_dict() for n in self.not_ruled]}
        if self.result is not None:
            d["result"] = self.result.to_dict(self.book, self.header)
        return d


@dataclass
class RequestAnswer:
    party: str
    request: str                  # what was asked: upheld | rejected | effect:X | provision:Y | other
    answer: str                   # granted | refused | undecided
    provisions: list[str]
    reason: dict                  # by language
    text: str = ""                # what the party said
    cause: str = ""               # granted | own-infraction | set-aside | not-given | not-met |
                                  # undecided | no-article | depends (requests.Basis)
    articles: list[str] = field(default_factory=list)   # the labels of what decides it
    provision: str | None = None  # the article the party invoked
    on: str | None = None         # the player the effect was asked on
    amount: Any = None            # how much was asked
    given: Any = None             # how much the rules give, when less than asked (cause "less":
                                  # granted in part when some of it is given, else refused)
    # granted in part (cause "part"): what the ruling gives the other way on the same matter,
    # each (article, PenaltyLine)
    contrary: list = field(default_factory=list)
    scope: str | None = None      # how long the effect was asked to last
    # on a conditional ruling: the answer under each alternative, in the ruling's order
    branches: list = field(default_factory=list)
    event: int | None = None      # the event it concerns, from 1 (None: the whole deal)
    by_event: int | None = None   # cause "other-event": the event whose findings give it, from 1
    # a request about one event: what other events' findings answer to it, where they speak to it
    elsewhere: list = field(default_factory=list)
    # refused because the findings that decide establish no violation (cause "not-given"): the
    # reason says so, not merely that no article gives it (walk 8: Law 48A, Član 12 stav 4)
    no_violation: bool = False
    # its articles are those the rulebook says govern the effect (rulebook.yaml governed_by), not
    # the deciding findings' (skat: a card taken back is refused under 4.1.2)
    governed: bool = False
    # cause "later": the article of the violation ruled on first, after which this one came
    first: str = ""
    # an answer in ``elsewhere`` from a finding on another player (his partner's infraction, the
    # effect given on someone else): the seats it falls on; None for any other answer
    falls_on: list | None = None

    def to_dict(self) -> dict:
        d = {"party": self.party, "request": self.request, "answer": self.answer,
             "provisions": self.provisions, "reason": text(self.reason), "text": self.text}
        if self.on:
            d["on"] = self.on
        if self.amount is not None:
            d["amount"] = self.amount
        if self.scope:
            d["scope"] = self.scope
        if self.contrary:
            d["in_part"] = True
            d["contrary"] = [{"article": a, **line.to_dict()} for a, line in self.contrary]
        if self.answer == "granted" and self.cause == "less":
            # granted in part: less than the amount asked is given
            d["in_part"] = True
            d["given"] = self.given
        if self.branches:
            d["alternatives"] = list(self.branches)
        if self.event is not None:
            d["event"] = self.event
        if self.by_event is not None:
            d["by_event"] = self.by_event
        if self.elsewhere:
            d["elsewhere"] = [{"event": o.event, "answer": o.answer, "reason": text(o.reason),
                               "provisions": o.provisions,
                               **({"falls_on": o.falls_on} if o.falls_on is not None else {})}
                              for o in self.elsewhere]
        return d


def _answered(ruling: "Ruling") -> list[str]:
    seen: list[str] = []
    for answers in (ruling.events or [ruling.answers]):
        seen += [q for q in answers if q in ruling.book.questions and q not in seen]
    return seen


def event_info(ruling: "Ruling", k: int) -> dict:
    """An event as the JSON contract gives it: what happened, who did it (the offender its
    findings name), when (its place in the order of events)."""
    claim = ruling.answers_of(k).get("claim")
    offenders = [f.offender for f in ruling.findings if f.event == k and f.offender]
    info = {"claim": claim if isinstance(claim, list) else ([claim] if claim else []),
            "player": offenders[0] if offenders else None, "when": {"order": k + 1}}
    if ruling.events:      # several events: each keeps the answers it was ruled on
        info["answers"] = ruling.events[k]
    return info


def why_not_examined(ruling: "Ruling", claim: str, event: int = 0) -> tuple | None:
    """Why a claim with no finding of its own was not examined, when a standing finding made its
    facts irrelevant (so the interview did not ask them):
    ``("override", article)``: that finding sets aside every production that could establish an
    infraction on the claim;
    ``("later", first_article, rule_article)``: the claim comes after a ruled violation in the
    order a ``keep_first`` production rules by. None when the facts simply meet no article."""
    book = ruling.book
    answering = [p.id for p in book.productions
                 if p.action == "finding" and p.claim == str(claim)
                 and p.kind in INFRACTION_KINDS]
    findings = [f for f in ruling.findings if f.event == event]
    for f in findings:
        if answering and set(answering) <= set(book.production(f.production).overrides):
            return ("override", f.article)
    for kp in book.productions:
        order = ruling.answers_of(event).get(kp.keep_first) if kp.action == "keep_first" else None
        if not isinstance(order, list) or claim not in order:
            continue
        for f in findings:
            if (kp.ranks(f.production, f.kind) and f.claim in order
                    and order.index(f.claim) < order.index(claim)):
                return ("later", f.article, article_of(book, kp))
    # across events: an earlier event's finding that a keep_first production rules on first
    for kp in book.productions:
        if kp.action != "keep_first" or event == 0:
            continue
        for f in sorted(ruling.findings, key=lambda f: f.event):
            if f.event < event and kp.ranks(f.production, f.kind):
                return ("later", f.article, article_of(book, kp))
    return None


def article_of(book: Rulebook, prod: Production) -> str:
    for pid in prod.cites:
        if pid in book.provisions:
            return book.provisions[pid].label
    return prod.article


def winner_article(book: Rulebook, winner: Production, loser: Production | None) -> str:
    """How a prevailing production is named beside the one it sets aside: its article, or, where
    both cite the same first article (a finding under 70C and 70D set beside the one under 70C
    alone), every provision it cites, so no article is said to prevail over itself."""
    first = article_of(book, winner)
    if loser is None or first != article_of(book, loser):
        return first
    theirs = {book.provisions[p].label for p in loser.cites if p in book.provisions}
    more = [book.provisions[p].label for p in winner.cites if p in book.provisions]
    more = [label for label in more if label not in theirs and not label.startswith(first)]
    return ", ".join(dict.fromkeys([first, *more])) if more else first


def build_finding(book: Rulebook, prod: Production, answers: dict) -> FindingOut:
    spec = prod.finding or {}
    penalty = []
    for entry in spec.get("penalty") or []:
        needs = None
        try:
            player = seat_of(entry["player"], book, answers)
        except Unresolved as exc:
            player, needs = "?", exc.question
        against = None
        if entry.get("against") is not None:
            try:
                against = seat_of(entry["against"], book, answers)
            except Unresolved as exc:
                against, needs = "?", exc.question
        try:
            amount = amount_of(entry.get("amount"), book, answers)
        except Unresolved as exc:
            amount, needs = None, exc.question
        penalty.append(PenaltyLine(player, entry["effect"], amount, against, needs,
                                   scope=str(entry["scope"]) if entry.get("scope") else None,
                                   cards=_named(entry.get("cards"), answers)))
    offender = None
    if spec.get("offender") is not None:
        try:
            offender = seat_of(spec["offender"], book, answers)
        except Unresolved:
            offender = None
    readings = [prod.reading] if prod.reading else []
    readings += [book.provisions[c].note for c in prod.cites
                 if c in book.provisions and book.provisions[c].note]
    fill = spec.get("fill") or {}
    return FindingOut(production=prod.id, provisions=list(prod.cites), article=article_of(book, prod),
                      kind=spec.get("kind", ""), claim=str(spec.get("claim") or ""),
                      summary=filled(spec.get("summary") or {}, fill, answers), offender=offender, penalty=penalty,
                      orders=[filled(o, fill, answers) for o in orders_for(spec.get("orders") or [], answers)],
                      readings=readings)


def _named(ref, answers: dict) -> str | None:
    """The cards a penalty line names ({answer: Q}, a cards question), when they were given."""
    value = answers.get(ref["answer"]) if isinstance(ref, dict) else None
    return value if isinstance(value, str) and value and value != UNKNOWN else None


def filled(texts, fill: dict, answers: dict):
    """A summary or an order with its placeholders {NAME} filled (finding ``fill:``): the
    ``then`` text, its {value} the answer, where the question was answered; else ``else``."""
    if not fill:
        return texts
    def one(value: str, lang: str) -> str:
        for name, spec in fill.items():
            if "{" + name + "}" not in value:
                continue
            given = _named(spec, answers)
            part = text(spec["then"] if given else spec["else"], lang)
            value = value.replace("{" + name + "}", part.replace("{value}", given or ""))
        return value
    if isinstance(texts, str):
        return one(texts, "en")
    return {k: (one(v, k) if isinstance(v, str) else v) for k, v in texts.items()}


def orders_for(orders: list, answers: dict) -> list[dict]:
    """The finding's instructions that concern this deal: an order with a ``when:`` (a condition on
    answers, e.g. bridge's "play continues" only while the board is still being played) is given
    only when it holds; where an answer it reads is missing or unknown it is given, as before."""
    from referee.expert.language import conditions as cond
    from referee.expert.language.expressions import holds
    out = []
    for order in orders:
        if isinstance(order, dict) and "when" in order:
            try:
                if not holds(cond.parse(order["when"]), answers):
                    continue
            except Unresolved:
                pass
            order = {k: v for k, v in order.items() if k != "when"}
        out.append(order)
    return out
