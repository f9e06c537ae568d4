"""The JSON Schemas of the knowledge files, shipped in ``schemas/`` beside this module.

One schema per kind of file: ``rulebook`` (rulebook.yaml), ``questions`` (questions.yaml),
``article`` (articles/*.yaml), ``cards`` (cards.yaml) and ``case`` (a case file, as `referee
rule` reads and the interview saves). They describe the structure only (keys, types, which keys
are required); whether an id resolves is `referee check`'s business. Editors use them to flag a
misspelt key or a wrong type as it is typed (knowledge/README.md, "Editor support"); the test
suite checks every shipped file against its schema. Nothing here validates at run time, so the
core needs no JSON Schema library.
"""
from __future__ import annotations

import json
from pathlib import Path, PurePath

from referee.expert.language.errors import RefereeError

FOLDER = Path(__file__).resolve().parent / "schemas"
KINDS = ("rulebook", "questions", "article", "cards", "case")


def schema_path(kind: str) -> Path:
    if kind not in KINDS:
        from referee.expert.language.answers import hint
        raise RefereeError(f"unknown kind of knowledge file {kind!r}{hint(kind, KINDS)}, expected one of "
                           f"{', '.join(KINDS)}")
    return FOLDER / f"{kind}.schema.json"


def schema(kind: str) -> dict:
    return json.loads(schema_path(kind).read_text(encoding="utf-8"))


def kind_of(path: str | PurePath) -> str | None:
    """The kind of a knowledge file by its place in a rulebook folder, or None."""
    path = PurePath(path)
    if path.suffix != ".yaml":
        return None
    if path.parent.name == "articles":
        return "article"
    if path.parent.name == "examples":
        return "case"
    return {"rulebook.yaml": "rulebook", "questions.yaml": "questions", "cards.yaml": "cards"}.get(path.name)
