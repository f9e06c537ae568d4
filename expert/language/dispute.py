"""A dispute as the referee found it: the deal's answers, the events in the order they happened,
and what each party asks for.

A one-event dispute is what a case file has always held: one ``answers`` mapping. With
``events`` the top-level answers are shared by every event (the game, the contract, the
players) and each event adds its own (what happened: ``claim``; who did it; how). The engine
rules on each event with the shared answers and its own, then applies the rulebook's chronology
across events (engine/events.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.expert.language.answers import check_all, is_unknown
from referee.expert.language.errors import RefereeError
from referee.expert.language.exclusions import check_dispute
from referee.expert.language.model import UNKNOWN, Rulebook, scope_ids
from referee.expert.language.yamlio import where

# what a party may ask for, besides a rulebook's own effects ("effect:<name>") and articles
# ("provision:<id>"): that an infraction is established against the other side, or that none is
GENERIC_REQUESTS = ("upheld", "rejected", "no-penalty", "stands", "other")


@dataclass
class Request:
    party: str                    # a seat
    asks: str                     # upheld | rejected | no-penalty | stands | effect:<effect> |
                                  # provision:<id> | other
    text: str = ""                # what the party said, for the record
    provision: str | None = None  # the article the party invokes (free-text requests)
    on: str | None = None         # effect requests: the player the effect should fall on
    amount: float | int | None = None   # effect requests: how much is asked
    scope: str | None = None      # effect requests: how long it should last (the effect's scopes)
    event: int | None = None      # the event it concerns, counted from 1 (None: the whole deal)

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"party": self.party, "asks": self.asks}
        if self.event is not None:
            d["event"] = self.event
        if self.on:
            d["on"] = self.on
        if self.amount is not None:
            d["amount"] = self.amount
        if self.scope:
            d["scope"] = self.scope
        if self.text:
            d["text"] = self.text
        if self.provision:
            d["provision"] = self.provision
        return d


@dataclass
class Dispute:
    answers: dict                                      # shared by every event
    events: list[dict] = field(default_factory=list)   # each event's own answers; [] = one event
    requests: list[Request] = field(default_factory=list)
    order_known: bool = True      # False: nobody can establish in which order the events happened

    def event_answers(self) -> list[dict]:
        """The answers the engine rules on, one mapping per event."""
        if not self.events:
            return [dict(self.answers)]
        return [{**self.answers, **event} for event in self.events]

    @property
    def unknown(self) -> list[str]:
        """Question ids answered 'unknown' anywhere in the dispute, in order of first mention."""
        found: list[str] = []
        for answers in [self.answers, *self.events]:
            found += [q for q, v in answers.items() if is_unknown(v) and q not in found]
        return found

    def to_case(self) -> dict:
        """The ``answers`` / ``events`` / ``requests`` keys of a case file."""
        data: dict[str, Any] = {"answers": dict(self.answers)}
        if self.events:
            data["events"] = [dict(e) for e in self.events]
        if self.requests:
            data["requests"] = [r.to_dict() for r in self.requests]
        if not self.order_known:
            data["events_order"] = UNKNOWN
        return data


def read_dispute(data: dict, book: Rulebook, path: str) -> Dispute:
    """The checked dispute of a case-file mapping (``answers``, optional ``events`` and
    ``requests``); raises RefereeError with file:line on the first problem."""
    answers = data.get("answers") or {}
    line = where(answers)[1] if answers else where(data)[1]
    answers = check_all(answers, book, path, line)
    events, lines = [], []
    raw_events = data.get("events")
    if raw_events is not None:
        if not isinstance(raw_events, list):
            raise RefereeError("events must be a list of answer mappings, one per event in the order "
                               "they happened", path, where(data)[1])
        for node in raw_events:
            eline = where(node)[1] or line
            if not isinstance(node, dict) or not node:
                raise RefereeError("each event must be a mapping of question id to answer, with at least "
                                   "what happened (claim)", path, eline)
            events.append(check_all(node, book, path, eline))
            lines.append(eline)
    impossible = check_dispute(book, answers, events)
    if impossible is not None:
        k, reason = impossible
        raise RefereeError(f"{reason}; expected answers that can hold together", path,
                           lines[k] if k is not None else line)
    requests = [read_request(node, book, path) for node in _list(data.get("requests"), "requests", path, data)]
    for node, r in zip(data.get("requests") or [], requests):
        if r.event is not None and r.event > max(1, len(events)):
            raise RefereeError(f"request event {r.event}, expected a number from 1 to {max(1, len(events))} "
                               "(the event it concerns)", path, where(node)[1])
    order = data.get("events_order", "known")
    if order not in ("known", UNKNOWN):
        raise RefereeError(f"events_order {order!r}, expected known or unknown (nobody can establish "
                           "the order the events happened in)", path, where(data)[1])
    return Dispute(answers=answers, events=events, requests=requests, order_known=order != UNKNOWN)


def _list(value, key: str, path: str, data) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RefereeError(f"{key} must be a list", path, where(data)[1])
    return value


def read_request(node: Any, book: Rulebook, path: str | None = None) -> Request:
    line = where(node)[1]
    if (not isinstance(node, dict) or not {"party", "asks"} <= set(node)
            or set(node) - {"party", "asks", "text", "provision", "on", "amount", "scope", "event"}):
        raise RefereeError("a request needs party (a seat) and asks (upheld, rejected, no-penalty, stands, "
                           "effect:NAME, provision:ID or other), with optional text, provision, on (a seat) "
                           "amount, scope and event (the event it concerns, from 1)", path, line)
    party, asks = str(node["party"]), str(node["asks"])
    if party not in book.seat_ids:
        raise RefereeError(f"request party {party!r}, expected one of {', '.join(book.seat_ids)}", path, line)
    check_request(asks, book, path, line)
    provision = node.get("provision")
    if provision is not None and str(provision) not in book.provisions:
        raise RefereeError(f"request invokes {provision!r}, which is not a provision of {book.game} "
                           "(see `referee articles`)", path, line)
    on = node.get("on")
    if on is not None and str(on) not in book.seat_ids:
        raise RefereeError(f"request on {on!r}, expected one of {', '.join(book.seat_ids)}", path, line)
    own = on_own_side(book, party, asks, str(on) if on is not None else None)
    if own is not None:
        raise RefereeError(own, path, line)
    amount = node.get("amount")
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, (int, float))):
        raise RefereeError(f"request amount {amount!r}, expected a number", path, line)
    scope = node.get("scope")
    if scope is not None:
        scopes = scope_ids(book, asks.partition(":")[2]) if asks.startswith("effect:") else []
        if str(scope) not in scopes:
            raise RefereeError(f"request scope {scope!r}, expected "
                               + (f"one of {', '.join(scopes)} (how long {asks} lasts)" if scopes
                                  else f"none: {asks} declares no scopes"), path, line)
    event = node.get("event")
    if event is not None and (isinstance(event, bool) or not isinstance(event, int) or event < 1):
        raise RefereeError(f"request event {event!r}, expected the number of the event it concerns (1, 2, ...)",
                           path, line)
    return Request(party=party, asks=asks, text=str(node.get("text") or ""),
                   provision=str(provision) if provision is not None else None,
                   on=str(on) if on is not None else None, amount=amount,
                   scope=str(scope) if scope is not None else None, event=event)


def check_request(asks: str, book: Rulebook, path: str | None = None, line: int | None = None) -> None:
    kind, _, name = asks.partition(":")
    ok = (asks in GENERIC_REQUESTS or (kind == "effect" and name in book.effects)
          or (kind == "provision" and name in book.provisions))
    if not ok:
        raise RefereeError(f"request {asks!r}, expected upheld, rejected, no-penalty, stands, other, effect:NAME "
                           f"with NAME one of "
                           f"{', '.join(book.effects)}, or provision:ID", path, line)


def _written_against(book: Rulebook, effect: str) -> bool:
    """Whether the effect passes from one player (or side) to another: the rulebook says how its
    ``against`` reads, or a finding writes it against someone (tricks transferred FROM the
    offending side, supe written ON the declarer, a payment TO a defender)."""
    spec = book.effects.get(effect) or {}
    if "against" in spec or spec.get("against_gains"):
        return True
    return any(isinstance(e, dict) and e.get("effect") == effect and "against" in e
               for p in book.productions if p.finding for e in (p.finding.get("penalty") or []))


def favours_its_player(book: Rulebook, effect: str) -> bool:
    """Whether the effect is one the rules write FOR a player, in his favour, rather than on an
    offender: no finding writes it on its own offender (or his partner), and some finding on
    another player's infraction writes it (skat: the soloist's game scored as won, on the
    opponents' revoke; preferans: bula taken off the innocent defender). A party asks for such
    an effect on himself (blind walk 8: the soloist asking his own game be scored as won was
    offered "Enter: the other side"). An effect that passes from one player to another (a
    payment, supe, tricks transferred) is asked for on the other side, never so."""
    if _written_against(book, effect):
        return False
    lines = [(e.get("player"), p.finding.get("offender")) for p in book.productions
             if p.action == "finding" and p.finding for e in (p.finding.get("penalty") or [])
             if isinstance(e, dict) and e.get("effect") == effect and p.finding.get("offender") is not None]
    return bool(lines) and not any(player == offender or (isinstance(player, dict)
                                                        and player.get("partner_of") == offender)
                                   for player, offender in lines)


def on_role(book: Rulebook, effect: str) -> str:
    """Whom a request's 'on' names for the effect, as a request is decided (engine/requests.py
    ``_effect``): ``gains`` the player it is written for, in his favour (the soloist's game won);
    ``pays`` the player who pays, written for him and paid TO the one it is against (ulti:
    against_gains); ``gives`` the one it is taken from or written against (tricks transferred
    FROM a side, supe written ON the declarer); ``bears`` the player it is imposed on (a
    penalty card, bula, the soloist's game lost)."""
    if favours_its_player(book, effect):
        return "gains"
    if _written_against(book, effect):
        return "pays" if (book.effects.get(effect) or {}).get("against_gains") else "gives"
    return "bears"


def on_own_side(book: Rulebook, party: str, asks: str, on: str | None, lang: str = "en") -> str | None:
    """Why a request for an effect that passes from one side to the other cannot name the party's
    own side as the one it falls on (he would ask to give, not to receive); None when it may."""
    kind, _, effect = asks.partition(":")
    if kind != "effect" or on is None or not _written_against(book, effect):
        return None
    side = next((list(pair) for pair in book.partnerships if party in pair), [party])
    if on not in side:
        return None
    from referee.expert.language.model import text
    label = text((book.effects.get(effect) or {}).get("label"), lang) or effect
    whose = "himself" if on == party else f"his own side ({', '.join(side)})"
    return (f"request on {on!r}: {party} asks for \u201c{label}\u201d on {whose}; the player a request "
            f"names is the one the effect falls on, expected a player of the other side "
            f"({', '.join(s for s in book.seat_ids if s not in side)}), or no 'on' (the other side)")
