"""Ruling a case file written by a test: the data saved as a YAML case file, read and ruled as
`referee rule` would (the case file's own reader, not a shortcut past it)."""
from __future__ import annotations

import yaml

from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.casefile import case_dispute, read_case
from referee.expert.language.rulebook import load_rulebook


def rule_case(tmp_path, game: str, data: dict):
    book = load_rulebook(game)
    path = tmp_path / f"{game}.yaml"
    path.write_text(yaml.safe_dump({"game": game, **data}, allow_unicode=True), encoding="utf-8")
    dispute, header, sources = case_dispute(read_case(path), book, path)
    return rule_dispute(Ruler(book), dispute, header, sources)
