"""Rendering a ruling as text, Markdown, printable HTML or JSON, in one language or two."""
from __future__ import annotations

import json
from pathlib import Path

from functools import lru_cache

from referee.expert.engine.verdict import Ruling

from referee.reports.i18n import LANGS

FORMATS = ("text", "md", "html", "json")
TEMPLATES = Path(__file__).resolve().parent / "templates"



@lru_cache(maxsize=3)
def _env(fmt: str):
    """One environment per format, each escaping EVERY inserted value (``finalize`` runs on each
    ``{{ }}``, so no template line can forget it): HTML is autoescaped; Markdown escapes markup
    (``expert.language.safe_text.md``); all three show control characters instead of obeying them
    and keep a value on its line. ``|code`` makes a Markdown code span (literal inside)."""
    # Jinja2 is imported only when a template is rendered: JSON rulings start faster without it.
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    from markupsafe import Markup
    from referee.expert.language import safe_text

    escape = {"md": safe_text.md, "text": safe_text.clean, "html": safe_text.clean}[fmt]

    def finalize(value):
        if isinstance(value, Markup):       # made safe by a filter (|code) or by autoescape
            return value
        return escape("" if value is None else value)

    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)), autoescape=fmt == "html", finalize=finalize,
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["code"] = lambda value: Markup(safe_text.md_code(value))
    return env


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
    return _env(fmt).get_template(name).render(views=views, r=views[0])
