"""Rendering a ruling as text, Markdown, printable HTML or JSON."""
from __future__ import annotations

import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from expert.verdict import Ruling

from .view import build

FORMATS = ("text", "md", "html", "json")
TEMPLATES = Path(__file__).resolve().parent / "templates"

_env = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
    undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
)


def render(ruling: Ruling, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(ruling.to_dict(), ensure_ascii=False, indent=2) + "\n"
    name = {"text": "ruling.txt.j2", "md": "ruling.md.j2", "html": "ruling.html.j2"}[fmt]
    return _env.get_template(name).render(r=build(ruling))
