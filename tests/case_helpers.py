"""Ruling a case file written by a test: the data saved as a YAML case file, read and ruled as
`referee rule` would (the case file's own reader, not a shortcut past it)."""
from __future__ import annotations

import yaml

from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.casefile import case_dispute, read_case
from referee.expert.interview.relevance import Interview
from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook


def rule_case(tmp_path, game: str, data: dict):
    book = load_rulebook(game)
    path = tmp_path / f"{game}.yaml"
    path.write_text(yaml.safe_dump({"game": game, **data}, allow_unicode=True), encoding="utf-8")
    dispute, header, sources = case_dispute(read_case(path), book, path)
    return rule_dispute(Ruler(book), dispute, header, sources)


def walk_skat(typed: dict, shared: dict | None = None, limit: int = 40) -> tuple[Session, list[str]]:
    """Answer the skat interview from ``typed`` (question id -> what the referee types), the deal's
    ``shared`` answers already given (as an earlier event gives them); stop at the first question
    it does not answer. Returns the session and the questions asked, in order (that one last)."""
    s = Session(load_rulebook("skat"), enter_cards=False, ask_names=False)
    s.shared.update(shared or {})
    asked: list[str] = []
    # the soloist's place is asked before anything else (blind walk 9): answered from ``typed``,
    # else unknown, and not counted among the questions the dispute asks
    if s.next() is not None and s.next().id == "soloist_place":
        s.answer(str(typed.get("soloist_place", "unknown")))
    for _ in range(limit):
        p = s.next()
        if p is None or p.kind != "question":
            break
        asked.append(p.id)
        if p.id not in typed:
            break
        s.answer(str(typed[p.id]))
    return s, asked


def asked_unknown_else(book, answers: dict, given: dict) -> list[str]:
    """The questions the interview asks, in order, answering each from ``given`` (else unknown)."""
    interview = Interview(book, dict(answers))
    out = []
    while (q := interview.next_question()) is not None:
        out.append(q.id)
        interview.answers[q.id] = given.get(q.id, "unknown")
    return out
