"""Rendering a ruling as text, Markdown, printable HTML or JSON, in one language or two."""
from __future__ import annotations

import json
from pathlib import Path

from functools import lru_cache

from referee.expert.engine.verdict import Ruling

from referee.reports.i18n import LANGS

FORMATS = ("text", "md", "html", "json")
TEMPLATES = Path(__file__).resolve().parent / "templates"



@lru_cache(maxsize=1)
def _env():
    # Jinja2 is imported only when a template is rendered: JSON rulings start faster without it.
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )


def languages(ruling: Ruling, lang: str) -> list[str]:
    """'both' means English and the rulebook's own language, side by side."""
    if lang == "both":
        native = ruling.book.language
        return ["en", native] if native != "en" and native in LANGS else ["en"]
    return [lang if lang in LANGS else "en"]


def render(ruling: Ruling, fmt: str = "text", lang: str = "en", code: str | None = None) -> str:
    if fmt == "json":
        data = ruling.to_dict()
        if code:
            data["verification"] = code
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    from referee.reports.view import build
    views = [build(ruling, lg, code) for lg in languages(ruling, lang)]
    name = {"text": "ruling.txt.j2", "md": "ruling.md.j2", "html": "ruling.html.j2"}[fmt]
    return _env().get_template(name).render(views=views, r=views[0])
