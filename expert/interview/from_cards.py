"""Answers the cards give: the deal record of a case turned into answers to the questions.

Each rulebook maps the facts the card library derives (revoke, lead out of turn, holdings …)
to its own questions in ``knowledge/<game>/cards.yaml``. The referee's own answers stand over
the cards' where both are given; the ruling says which facts came from the cards.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.expert.language.answers import check
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook


@dataclass
class CardAnswers:
    answers: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)      # question id -> [how the cards show it]


def answers_from_cards(book: Rulebook, data, file: str | None = None, line: int | None = None) -> CardAnswers:
    if data is None:
        return CardAnswers()
    if not isinstance(data, dict):
        raise RefereeError("cards: must be a mapping (hands, contract, play …; see expert/cards/README.md)",
                           file, line)
    if not book.cards_map:
        raise RefereeError(f"the {book.game} rulebook does not yet read facts from the cards "
                           "(no cards.yaml); give the answers instead", file, line)
    from referee.expert.cards import answers_from_facts, case_facts   # only when a case has cards
    _deal, facts = case_facts(dict(data), book.game, file=file, line=line)
    got = answers_from_facts(facts, book.cards_map)
    result = CardAnswers()
    for qid, value in got.answers.items():
        q = book.questions.get(qid)
        if q is None:
            continue
        try:
            result.answers[qid] = check(q, value, book, got.answers)
        except RefereeError:
            continue            # the cards do not settle it in this question's terms: ask
        result.sources[qid] = list(got.sources.get(qid, []))
    return result


def merge(given: dict, from_cards: CardAnswers) -> tuple[dict, dict]:
    """The referee's answers over the cards'; the sources of those that came from the cards."""
    answers = dict(from_cards.answers)
    answers.update(given)
    sources = {q: s for q, s in from_cards.sources.items() if q not in given}
    return answers, sources
