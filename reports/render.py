"""Rendering a ruling as text, Markdown, printable HTML, PDF or JSON, in one language or two.

One renderer for every document: a ruling, an appeal decision, a reprint. Each format is a
``Renderer`` in ``RENDERERS``; the command line offers exactly these names.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from referee.expert.language.errors import RefereeError
from referee.reports.i18n import LANGS

if TYPE_CHECKING:   # the register's listings render templates without loading the engine
    from referee.expert.engine.verdict import Ruling

TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class Renderer:
    name: str
    suffix: str            # template suffix (txt, md, html) or "" for JSON
    binary: bool = False   # written to a file only (PDF)


RENDERERS = {r.name: r for r in (Renderer("text", "txt"), Renderer("md", "md"), Renderer("html", "html"),
                                 Renderer("json", ""), Renderer("pdf", "html", binary=True))}
FORMATS = tuple(RENDERERS)


def css_string(value) -> "Markup":
    """A value as a CSS string literal (for the page's running header and footer)."""
    from markupsafe import Markup
    text = str(value)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace(">", "\\3e ")
    return Markup(f'"{text}"')


@lru_cache(maxsize=4)
def _env(kind: str):
    """One environment per kind of template (its suffix: txt, md, html), each escaping EVERY
    inserted value (``finalize`` runs on each ``{{ }}``, so no template line can forget it): HTML is
    autoescaped; Markdown escapes markup (``expert.language.safe_text.md``); all three show control
    characters instead of obeying them and keep a value on its line. ``|code`` makes a Markdown
    code span (literal inside)."""
    # Jinja2 is imported only when a template is rendered: JSON rulings start faster without it.
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    from markupsafe import Markup
    from referee.expert.language import safe_text

    escape = {"md": safe_text.md, "txt": safe_text.clean, "html": safe_text.clean}[kind]

    def finalize(value):
        if isinstance(value, Markup):       # made safe by a filter (|code, |css_string) or autoescape
            return value
        return escape("" if value is None else value)

    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)), autoescape=kind == "html", finalize=finalize,
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.filters["css_string"] = css_string
    env.filters["code"] = lambda value: Markup(safe_text.md_code(value))
    env.filters["wrapped"] = wrapped
    return env


def wrapped(value, first: str = "", rest: str | None = None, width: int = 78) -> list[str]:
    """A text as lines of at most ``width`` columns for an 80-column terminal, the first
    indented by ``first``, the others by ``rest`` (a hanging indent); a word longer than the
    line stays whole. Each line is still escaped when the template prints it."""
    import textwrap
    from referee.expert.language import safe_text
    return textwrap.wrap(safe_text.clean(value), width, initial_indent=first,
                         subsequent_indent=first if rest is None else rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def _kind(name: str) -> str:
    """A template's kind from its name: ruling.md.j2 -> md."""
    suffix = name[:-3].rsplit(".", 1)[-1] if name.endswith(".j2") else "txt"
    return suffix if suffix in ("md", "html") else "txt"


def rulebook_languages(book) -> list[str]:
    """The languages a rulebook's texts exist in: English and its own."""
    return ["en"] if book.language == "en" else ["en", book.language]


def check_language(book, lang: str, both: bool = True) -> None:
    """A document is printed only in a language the rulebook has texts for (or both of them):
    every command that takes --lang refuses another the same way, in one line (exit 2)."""
    refuse_language(book.game, rulebook_languages(book), lang, both)


def refuse_language(game: str, have: list[str], lang: str, both: bool = True) -> None:
    """Raise the one refusal for a --lang outside ``have`` (``both``: 'both' is offered too)."""
    if lang in have or (both and lang == "both"):
        return
    listed = ", ".join(have) + (" or both" if both else "")
    raise RefereeError(f"the {game} rulebook has no texts in {lang!r}, expected one of {listed}")


def languages(ruling: Ruling, lang: str) -> list[str]:
    """'both' means English and the rulebook's own language, side by side."""
    if lang == "both":
        native = ruling.book.language
        return ["en", native] if native != "en" and native in LANGS else ["en"]
    return [lang if lang in LANGS else "en"]


def render(ruling: Ruling, fmt: str = "text", lang: str = "en", code: str | None = None,
           tournament=None) -> str:
    """The ruling as text (PDF: the HTML to print)."""
    if fmt == "json":
        data = ruling.to_dict()
        if code:
            data["verification"] = code
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    from referee.reports.document import build
    views = [build(ruling, lg, code, tournament) for lg in languages(ruling, lang)]
    name = f"ruling.{RENDERERS[fmt].suffix}.j2"
    return _env(_kind(name)).get_template(name).render(views=views, r=views[0])


def render_template(name: str, /, **data) -> str:
    """Any other document (an appeal decision, register listings) from its template."""
    return _env(_kind(name)).get_template(name).render(**data)


def render_stored(stored: dict, fmt: str, lang: str, code: str | None) -> str:
    """A registered ruling reprinted from the views its record holds (text, md, html; pdf: the
    html to print)."""
    from referee.reports.document import from_stored
    langs = list(stored) if lang == "both" else [lang]
    views = [from_stored(stored[lg], lg, code) for lg in langs]
    name = f"{views[0].get('template') or 'ruling'}.{RENDERERS[fmt].suffix}.j2"
    return _env(_kind(name)).get_template(name).render(views=views, r=views[0])


def render_appeal(book, original: dict, ruling, amendment, fmt: str, lang: str, code: str | None,
                  tournament=None, note=None, committee=None) -> str:
    """The appeals committee's decision (text, md, html; pdf: the html to print)."""
    from referee.reports.changes import appeal_view
    langs = rulebook_languages(book) if lang == "both" else [lang]
    views = [appeal_view(book, original, ruling, amendment, lg, code, tournament, note, committee) for lg in langs]
    name = f"appeal.{RENDERERS[fmt].suffix}.j2"
    return _env(_kind(name)).get_template(name).render(views=views, r=views[0])


def stored_appeal(book, original: dict, ruling, amendment, tournament=None, note=None, committee=None) -> dict:
    """The appeal decision's document in every language of the rulebook, for its record."""
    from referee.reports.changes import appeal_view
    from referee.reports.document import _json_safe
    stored = {}
    for lg in rulebook_languages(book):
        view = appeal_view(book, original, ruling, amendment, lg, None, tournament, note, committee)
        view.pop("w", None)
        stored[lg] = _json_safe(view)
    return stored
