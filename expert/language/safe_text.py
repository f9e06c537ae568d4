"""Text a player or a referee typed, made safe to print: on a terminal, in a text file, in Markdown.

A name, a note or a tournament field can hold anything: a newline that forges a line of the
ruling ("Penalty: none"), a terminal escape sequence (ESC [ ... that recolours, moves the cursor or
sets the window title), a bidirectional override that shows text reversed, Markdown that becomes a
heading, a link or raw HTML. What is typed is shown, never obeyed:

- ``clean``: line breaks become a space; every other control character (C0, DEL, C1) and every
  invisible format character that reorders or hides text is shown as ``\\xNN`` / ``\\uNNNN``;
- ``md``: ``clean``, then every character Markdown (CommonMark and GFM) would read as markup is
  backslash-escaped, and a value that starts a line cannot start a block (heading, quote, list);
- ``visible``: for whole outputs we composed ourselves: our own newlines stay, the rest as ``clean``.
"""
from __future__ import annotations

import re

# C0 controls but for tab and newline, DEL, C1; zero-width and bidirectional format characters.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064"
                     "\u2066-\u2069\ufeff\ufff9-\ufffb]")
_BREAKS = re.compile("\r\n|[\r\n\u0085\u2028\u2029\x0b\x0c]")


def _shown(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """Our own line breaks stay; any other control or hiding character is shown, not obeyed."""
    text = str(text).replace("\r\n", "\n").replace("\t", " ")
    return _HIDDEN.sub(_shown, text.replace("\r", "\\r"))


def clean(value) -> str:
    """One value on one line: line breaks become spaces, hidden characters are shown."""
    text = _BREAKS.sub(" ", str(value)).replace("\t", " ")
    return _HIDDEN.sub(_shown, text)


def one_line(text: str) -> str:
    """A message for stderr: one line whatever it quotes."""
    return clean(text)


# Inline markup: emphasis, code, links and images, raw HTML and entities, GFM tables and strikes.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&|~!{}])")
# What makes a line a block when it starts it: heading, quote, list item, setext underline, fence.
_MD_BLOCK = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))")
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|www)(:|\.)")


def md(value) -> str:
    """A value to insert in Markdown: shown as typed, never read as markup."""
    text = _MD_INLINE.sub(r"\\\1", clean(value).strip())   # leading spaces could start a code block
    text = _AUTOLINK.sub(lambda m: m.group(1) + "\\" + m.group(2), text)  # no bare-URL autolinks
    text = _MD_BLOCK.sub(lambda m: m.group(1) + ("\\" + m.group(2) if not m.group(2)[0].isdigit()
                                                 else m.group(2) + "\\"), text)
    return text


def md_code(value) -> str:
    """A value as a Markdown code span: literal inside (no escapes are read there), fenced by more
    backticks than it holds."""
    text = clean(value)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def deep_clean(data):
    """Every string in nested lists and mappings through ``clean`` (keys too): the data a
    plain-text formatter lays out line by line."""
    if isinstance(data, str):
        return clean(data)
    if isinstance(data, dict):
        return {deep_clean(k) if isinstance(k, str) else k: deep_clean(v) for k, v in data.items()}
    if isinstance(data, list):
        return [deep_clean(v) for v in data]
    if isinstance(data, tuple):
        return tuple(deep_clean(v) for v in data)
    return data
