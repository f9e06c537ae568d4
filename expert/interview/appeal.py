"""Appeals: the committee re-rules a registered ruling on amended facts.

The ruling appealed is the register's sealed copy (by number or verification code, or a record
file whose ruling is in the register unchanged). Its dispute (answers, events, requests) is
rebuilt from the record, checked like a case file, the committee's settings are applied
(``amend``: ``QUESTION=VALUE``, ``N:QUESTION=VALUE`` for event N, ``QUESTION=`` unanswered), and
the dispute is ruled again with the rulebook and the tournament values the original was ruled
with. The decision is a record of its own (kind ``appeal``, ``appeal_of`` = the original's
code), with the differences (``engine.diff``) and its printed document, saved linked to the
original, which is never altered.
"""
from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Mapping

from referee.expert.engine.diff import ruling_diff
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.amend import Amendment, amend
from referee.expert.language.dispute import Dispute, read_dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook
from referee.expert.records.record import (build_record, compute_code, format_code, load_record,
                                           rulebook_identity, seal)


def load_original(ref: Any, register: Any = None) -> tuple[dict, int | None]:
    """The ruling to appeal, as the register holds it: by number or verification code, or as a
    record (dict or file) whose ruling is in the register, unchanged. Returns ``(record, id)``.

    A record file alone proves nothing: its code is a hash anyone can compute, so a fabricated
    "original" would hash to its own code. The register's sealed copy is what is appealed."""
    from referee.expert.records.record import diff_fields
    given = None
    if isinstance(ref, Mapping):
        given = dict(ref)
    elif isinstance(ref, os.PathLike) or (isinstance(ref, str) and os.path.isfile(ref)):
        given = load_record(ref)
    elif not isinstance(ref, (str, int)):
        raise RefereeError(f"cannot appeal {type(ref).__name__}: give a ruling number, a verification "
                           "code or a record file of a registered ruling")
    if given is not None:
        computed = compute_code(given)
        if str(given.get("code") or "") != computed:
            raise RefereeError(f"the record's content hashes to {format_code(computed)}, not to its "
                               f"code {str(given.get('code'))[:20]}: it was altered; run 'referee verify' on it")
    if register is None:
        raise RefereeError("an appeal needs the register that holds the original ruling "
                           "(--register or $REFEREE_REGISTER)")
    found = register.get(given["code"] if given is not None else ref)
    if found is None:
        if given is not None:
            raise RefereeError(f"the record's ruling {format_code(given['code'])} is not in the register "
                               f"{register.path}: an appeal starts from a registered ruling")
        raise RefereeError(f"no ruling {str(ref)[:40]} in the register {register.path} "
                           "(and no such record file)")
    rid, rec = found
    if given is not None:
        differ = diff_fields({k: v for k, v in rec.items() if k != "code"},
                             {k: v for k, v in given.items() if k != "code"})
        if differ:
            raise RefereeError(f"the record differs from ruling #{rid} in the register "
                               f"({', '.join(differ[:5])}): appeal the registered ruling ({rid})")
    if compute_code(rec) != rec.get("code"):
        raise RefereeError(f"ruling #{rid} in the register does not hash to its code: the register "
                           "was altered (run `referee register verify`)")
    return rec, rid


def original_dispute(original: Mapping, book: Rulebook) -> tuple[Dispute, dict, dict]:
    """The dispute a recorded ruling was made on (answers, events, requests, the order of the
    events), checked like a case file's; its header and the answers the cards gave."""
    answers = original.get("answers")
    if not isinstance(answers, Mapping):
        raise RefereeError("the record's answers are not a mapping of question to value")
    extra = original.get("ruling_extra") or {}
    shared = dict(answers)
    events = [dict(e.get("answers") or {}) for e in extra.get("events") or [] if isinstance(e, Mapping)
              and e.get("answers")]
    events = [{q: v for q, v in e.items() if q not in shared or shared[q] != v} for e in events]
    requests = [{"party": r.get("party"), "asks": r.get("request"),
                 **({"text": r["text"]} if r.get("text") else {}),
                 **({"provision": r["provision"]} if r.get("provision") else {}),
                 **({"on": r["on"]} if r.get("on") else {}),
                 **({"amount": r["amount"]} if r.get("amount") is not None else {})}
                for r in extra.get("requests") or [] if isinstance(r, Mapping)]
    data = {"answers": shared, "events": events or None, "requests": requests,
            "events_order": extra.get("events_order", "known")}
    try:
        dispute = read_dispute(data, book, "the record")
    except RefereeError as exc:
        raise RefereeError(f"the record's answers do not fit the {book.game} rulebook: {exc.message}") from None
    from_cards = {q: v for q, v in (original.get("from_cards") or {}).items() if q in shared}
    return dispute, dict(original.get("header") or {}), from_cards


def rulebook_of(original: Mapping, book: Rulebook) -> Rulebook:
    """The rulebook with the tournament values the original was ruled with (its record says)."""
    values = (original.get("rulebook") or {}).get("values")
    if not values:
        return book
    from referee.expert.language.tournament import Tournament, apply
    return apply(book, Tournament(None, {}, {book.game: values}))


def decide_appeal(original: Mapping, settings: list[str], book: Rulebook, *, ruler: Ruler | None = None,
                  note: str | None = None, referee: str | None = None, date: str | None = None,
                  now: str | None = None, document=None):
    """The appeal decision record (sealed, not yet saved), the new Ruling and the Amendment.
    ``document(ruling)``: the printed document to keep in the record (the front end's)."""
    game = (original.get("rulebook") or {}).get("game")
    if game != book.game:
        raise RefereeError(f"the ruling appealed is a {game} ruling, not {book.game}")
    book = rulebook_of(original, book)
    dispute, header, from_cards = original_dispute(original, book)
    amendment = amend(book, dispute, list(settings))
    ruling = rule_dispute(ruler if ruler is not None and ruler.book is book else Ruler(book),
                          amendment.dispute, header, from_cards)
    when = now or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    ruling.ruled_at = when
    times = dict(original.get("answer_times") or {})
    for c in amendment.changed:
        times[c.question if c.event is None else f"{c.event + 1}:{c.question}"] = when
    ident = rulebook_identity(book)
    orig_rb = original.get("rulebook") or {}
    new = build_record(ruling, book, answer_times=times, cards=original.get("cards"),
                       referee=referee if referee is not None else original.get("referee"),
                       table=original.get("table"), deal=original.get("deal"),
                       date=date or when[:10], header=header, created=when)
    new["kind"] = "appeal"
    new["appeal_of"] = original["code"]
    new["appeal"] = {
        "note": note,
        "decided_by": referee,
        "decided_at": when,
        "amended": [c.to_dict() for c in amendment.changed] + [dict(c.to_dict(), dropped=True)
                                                               for c in amendment.dropped],
        "opened": amendment.opened,
        "original": {
            "code": original["code"], "date": original.get("date"), "referee": original.get("referee"),
            "rulebook": orig_rb, "answers": dict(original.get("answers") or {}),
            "findings": original.get("findings") or [], "not_ruled": original.get("not_ruled") or [],
            "no_infraction": bool(original.get("no_infraction")),
        },
        "differences": ruling_diff(_as_ruling(original), ruling.to_dict()),
        "rulebook_changed": (orig_rb.get("hash") != ident["hash"]
                             or str(orig_rb.get("edition")) != str(ident["edition"])),
    }
    if document is not None:
        new["document"] = document(ruling, amendment, original)
    return seal(new), ruling, amendment


def _as_ruling(record: Mapping) -> dict:
    """A record's ruling in the shape of the JSON contract (what the diff reads)."""
    extra = record.get("ruling_extra") or {}
    return {"findings": record.get("findings") or [], "not_ruled": record.get("not_ruled") or [],
            "no_infraction": record.get("no_infraction"), "result": extra.get("result")}


def file_appeal(ref: Any, settings: list[str], register: Any, book_for, **kw):
    """Load the original (a registered ruling), decide the appeal, save the decision linked to it.
    ``book_for(game)`` loads the installed rulebook. Returns ``(decision, appeal id, original id,
    ruling, amendment, original)``."""
    original, oid = load_original(ref, register)
    decision, ruling, amendment = decide_appeal(original, settings, book_for(_game(original)), **kw)
    aid = register.save_appeal(decision, original)
    return decision, aid, oid, ruling, amendment, original


def _game(original: Mapping) -> str:
    game = (original.get("rulebook") or {}).get("game")
    if not isinstance(game, str) or not game:
        raise RefereeError("the record names no rulebook")
    return game
