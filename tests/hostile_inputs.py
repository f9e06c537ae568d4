"""Hostile and careless inputs, generated: YAML bombs, odd scalars, markup, control characters.

Shared by tests/test_hostile_*.py (a few of each kind) and bench/hostile.py (all of them, many
times over, with the figures per class). Every generator is deterministic for a given seed.
"""
from __future__ import annotations

import os
import random
import stat

# ---------------------------------------------------------------- YAML bombs (issue 17.1)


def laughs_seq(depth: int = 9, width: int = 9, indent: str = "  ") -> str:
    """The classic: each level a list of ``width`` aliases to the level before (width**depth)."""
    lines = [f"{indent}l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, depth):
        lines.append(f"{indent}l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def laughs_map(depth: int = 9, width: int = 9, indent: str = "  ") -> str:
    """The same through mappings: each level a mapping of ``width`` keys aliasing the level before."""
    lines = [f"{indent}m0: &m0 {{a: lol, b: lol, c: lol}}"]
    for i in range(1, depth):
        lines.append(f"{indent}m{i}: &m{i} {{" + ", ".join(f"k{j}: *m{i - 1}" for j in range(width)) + "}")
    return "\n".join(lines) + "\n"


def laughs_mixed(depth: int = 12, indent: str = "  ") -> str:
    """Alternating lists and mappings, two aliases a level: 2**depth, deep rather than wide."""
    lines = [f"{indent}x0: &x0 lol"]
    for i in range(1, depth):
        body = f"[*x{i - 1}, *x{i - 1}]" if i % 2 else f"{{a: *x{i - 1}, b: *x{i - 1}}}"
        lines.append(f"{indent}x{i}: &x{i} {body}")
    return "\n".join(lines) + "\n"


def laughs_merge(depth: int = 9, indent: str = "  ") -> str:
    """Merge keys (``<<``) over mappings that alias wide lists."""
    return laughs_seq(depth, 9, indent) + f"{indent}merged: {{<<: {{big: *l{depth - 1}}}, more: *l{depth - 1}}}\n"


def recursive(indent: str = "  ") -> list[str]:
    """Structures that contain themselves."""
    return [f"{indent}r: &r [*r]\n", f"{indent}r: &r {{self: *r}}\n",
            f"{indent}r: &r [a, [b, *r]]\n"]


def deep_flow(n: int) -> str:
    return "[" * n + "]" * n


def deep_block(n: int, indent: str = "  ") -> str:
    return "".join(f"{indent}{'  ' * i}k{i}:\n" for i in range(n)) + f"{indent}{'  ' * n}v\n"


def many_aliases(n: int = 20_000, indent: str = "  ") -> str:
    return f"{indent}a: &a x\n{indent}b: [" + ", ".join(["*a"] * n) + "]\n"


def bombs() -> dict[str, str]:
    """Named YAML fragments (mapping entries, two-space indented) that must be refused."""
    out = {"laughs-seq-9x9": laughs_seq(), "laughs-seq-7x20": laughs_seq(7, 20),
           "laughs-map-9x9": laughs_map(), "laughs-mixed-30": laughs_mixed(30),
           "laughs-merge": laughs_merge(), "many-aliases": many_aliases(),
           "deep-block-200": deep_block(200)}
    for i, text in enumerate(recursive()):
        out[f"recursive-{i}"] = text
    return out


# ---------------------------------------------------------------- scalars (issue 17.5)

SCALARS = {
    "date": "2026-11-29", "timestamp": "2026-11-29 10:15:00", "timestamp-z": "2026-11-29T10:15:00Z",
    "impossible-date": "2026-02-30", "month-13": "2026-13-01", "nan": ".nan", "inf": ".inf",
    "minus-inf": "-.inf", "huge-int": "9" * 5000, "long-int": "1" * 40, "hex-huge": "0x" + "f" * 500,
    "float-huge": "1e999", "float-long": "1." + "3" * 400, "sexagesimal": "190:20:30", "octal": "0o17",
    "bool-ish": "yes", "null": "~", "empty-list": "[]", "empty-map": "{}",
    "binary-tag": "!!binary aGVsbG8=", "set-tag": "!!set {a, b}", "omap-tag": "!!omap [a: 1]",
    "python-tag": "!!python/object/apply:os.system [echo pwned]", "custom-tag": "!foo bar",
    "complex-list": "{? [a, b] : 1}", "complex-map": "{? {a: 1} : 1}", "null-key": "{~: 1}",
    "nested": "[[[[[[[[[[x]]]]]]]]]]", "long-text": "'" + "x" * 200_000 + "'",
}


def scalar_places(game: str = "mini") -> dict[str, str]:
    """Where a case file can hold a value: each place a template with ``{v}``."""
    base = {"claim": "[early]", "early_turn": "false", "game": "pik", "early_who": "d2"}

    def case(header="", answers=None, extra=""):
        a = dict(base, **(answers or {}))
        body = "".join(f"  {k}: {v}\n" for k, v in a.items())
        return f"game: {game}\n{header}answers:\n{body}{extra}"

    places = {f"header.{k}": case(header=f"header: {{{k}: {{v}}}}\n".replace("{{v}}", "{v}"))
              for k in ("tournament", "table", "deal", "date", "referee")}
    places["header.players"] = case(header="header: {players: {d2: {v}}}\n")
    for q in ("claim", "early_turn", "game", "early_who", "order"):
        places[f"answers.{q}"] = case(answers={q: "{v}"})
    places["game"] = "game: {v}\nanswers: {claim: [early]}\n"
    places["top-key"] = case(extra="{v}: 1\n")
    return places


# ---------------------------------------------------------------- bytes (issue 17.5)

def junk(seed: int = 0, n: int = 12) -> list[bytes]:
    rng = random.Random(seed)
    out = [b"\x00" * 64, b"\xff\xfe" + "game: mini".encode("utf-16-le"), b"\xef\xbb\xbfgame: mini\n",
           b"game: mini\n\x00answers: {}\n", b"game: \xc3\x28\n", b"\x1b[2J\x1b[H", b"", b"---\n---\n",
           b"game: mini\n" + b"\t" * 50 + b"answers: x\n", b"%YAML 9.9\n---\ngame: mini\n"]
    for _ in range(n):
        out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))))
    return out


# ---------------------------------------------------------------- markup and control characters (17.7)

MARKUP = {
    "html": "<script>alert(1)</script>", "img": "<img src=x onerror=alert(1)>",
    "md-heading": "# Forged heading", "md-link": "[click](http://evil.example)",
    "md-image": "![x](http://evil.example/x.png)", "md-emphasis": "**bold** _it_ `code`",
    "md-table": "| a | b |", "md-quote": "> quoted", "md-list": "- item", "md-numbered": "1. item",
    "autolink": "see http://evil.example and www.evil.example",
    "entity": "&lt;b&gt; &#x3C;script&#x3E;", "backslash": "C:\\path\\*",
}
CONTROLS = {
    "newline-forge": "Marko\nPENALTY: none\n# Forged", "crlf": "Ana\r\nReferee: Bob",
    "ansi-red": "\x1b[31mred\x1b[0m", "ansi-clear": "\x1b[2J\x1b[H", "osc-title": "\x1b]0;pwned\x07",
    "csi-c1": "\x9b31mred", "bell": "ding\x07", "backspace": "Ana\x08\x08\x08Bob", "nul": "a\x00b",
    "rlo": "Marko\u202eokraM", "zero-width": "Ma\u200brko", "line-sep": "a\u2028b\u2029c",
    "del": "a\x7fb", "vt-ff": "a\x0bb\x0cc",
}

#: what must never appear in a text or Markdown ruling (characters a terminal or a viewer obeys)
RAW_CONTROLS = [chr(c) for c in (*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f, *range(0x80, 0xa0))] + \
    ["\u202e", "\u200b", "\u2028", "\u2029"]


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (control characters as escapes YAML reads back)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in "\\\"":
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7f or 0x80 <= code < 0xa0:
            out.append(f"\\x{code:02x}")
        elif code in (0x2028, 0x2029, 0x202e, 0x200b):
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def private_null(folder) -> str | None:
    """A character device like /dev/null (1, 3), made in ``folder`` (root only), to write at in
    place of the real /dev/null: a version of referee that replaces special files then breaks a
    scratch node, never the machine. None where it cannot be made."""
    path = os.path.join(str(folder), "null-device")
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (OSError, AttributeError):
        return None
    return path
