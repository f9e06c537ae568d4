"""Answers that name cards (question type ``cards``: a penalty card, ♣K) read in the game's card
notation (expert/cards/notation.py) and kept canonical. The knowledge language takes them as
text (it does not know the cards); here, where the interview and the case files meet the card
library, they are read: a card that does not exist, a card given twice, a count other than the
one the question's ``values_from`` answered, or (the cards entered) a card not in the offender's
hand is refused with a one-line message."""
from __future__ import annotations

from referee.expert.cards.deal import parse_deal
from referee.expert.cards.notation import format_cards, parse_cards
from referee.expert.language.answers import is_unknown
from referee.expert.language.dispute import Dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Question, Rulebook


def read_named(q: Question, value, book: Rulebook, answers: dict | None = None,
               cards: dict | None = None) -> str:
    """The cards named in ``value``, canonical (``S:A h:q`` -> ``♠A ♥Q``)."""
    if not isinstance(value, str) or not value.strip():
        raise RefereeError(f"empty answer to {q.id!r}, expected a card, e.g. ♣K")
    named = parse_cards(value, book.game, where="cards")
    count = (answers or {}).get(q.values_from) if q.values_from else None
    if isinstance(count, int) and not isinstance(count, bool) and count != len(named):
        raise RefereeError(f"{len(named)} card(s) given ({format_cards(named, book.game)}), but {count} "
                           f"counted before: give {count}, or correct the count")
    seat = (answers or {}).get("offender")
    if cards and isinstance(seat, str):
        try:
            hand = parse_deal(cards, book.game).hands.get(seat)
        except RefereeError:
            hand = None
        missing = [c for c in named if hand and c not in hand]
        if missing:
            raise RefereeError(f"{format_cards(missing, book.game)} is not in the hand of "
                               f"{book.seat_label(seat)} as the cards were entered "
                               f"({format_cards(hand, book.game)})")
    return format_cards(named, book.game)


def named_in(answers: dict, book: Rulebook, shared: dict | None = None) -> dict:
    """``answers`` with every cards answer read (``shared``: the answers of the whole dispute,
    which the count may be among)."""
    out = dict(answers)
    for qid, value in answers.items():
        q = book.questions.get(qid)
        if q is not None and q.type == "cards" and not is_unknown(value):
            try:
                out[qid] = read_named(q, value, book, {**(shared or {}), **answers})
            except RefereeError as exc:
                raise RefereeError(f"answer to {qid!r}: {exc.message}") from None
    return out


def named_cards(dispute: Dispute, book: Rulebook, file: str | None = None) -> Dispute:
    """The dispute with its cards answers read; a bad one is refused with the file named."""
    try:
        dispute.answers = named_in(dispute.answers, book)
        dispute.events = [named_in(e, book, dispute.answers) for e in dispute.events]
    except RefereeError as exc:
        raise RefereeError(exc.message, file, exc.line) from None
    return dispute
