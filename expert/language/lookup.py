"""Finding provisions by the rulebook's own labels, and by the words of their text.

``lookup(book, "8")`` gives the provisions of Član 8; "Član 8, stav 2" those of that paragraph;
"64A1" bridge's Правило 64 A1; "4.1.3" skat's 4.1.3; "Renonszok 2" ulti's Renonszok 2. A label
is read as a sequence of tokens (words and numbers; "64A1" is 64, a, 1), compared without case
or diacritics; a reference matches a label when its tokens are a run of the label's tokens that
begins at the start or right after the leading words ("Član", "Правило", "Renonszok"), so "8"
finds Član 8 but not Član 18 or stav 8, and "4.1" finds 4.1.1 to 4.1.11 but "4.1.1" not 4.1.10.
An article's name given whole ("Član 17-21", "Mondások") and an inventory id (with or without
the game) match too.

``search(book, words)`` finds provisions whose quote, English rendering, label or note contain
every word (a word matches the beginning of a word of the text, so "renons" finds "renonsa").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.expert.language.answers import did_you_mean, fold
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Provision, Rulebook, text

_TOKEN = re.compile(r"\d+|[^\W\d_]+")


def tokens(label: str) -> list[str]:
    """A label's words and numbers, folded: 'Član 8, stav 2' -> ['clan', '8', 'stav', '2']."""
    return _TOKEN.findall(fold(label))


def _starts(label_tokens: list[str]) -> list[int]:
    """Where a reference may begin in a label: at 0, and after each leading word."""
    starts = [0]
    for i, tok in enumerate(label_tokens):
        if tok.isdigit():
            break
        starts.append(i + 1)
    return starts


def _matches(ref: list[str], label: str) -> bool:
    have = tokens(label)
    return bool(ref) and any(have[i:i + len(ref)] == ref for i in _starts(have))


def lookup(book: Rulebook, ref: str) -> list[Provision]:
    """The provisions ``ref`` names (label, article or inventory id), in rulebook order;
    an empty list when it names none."""
    ref = str(ref).strip()
    if ref in book.provisions:                       # a full inventory id names one provision
        return [book.provisions[ref]]
    want = tokens(ref)
    # an article name matches only whole: "Član 17-21" is a range, and "17" must not find Član 21
    found = [p for p in book.provisions.values() if want and (_matches(want, p.label) or tokens(p.article) == want)]
    if found:
        return found
    # an id without its game ("8.ruled-fall"); after the labels, since skat's "4.1.1" is both
    # the label of two provisions and the id of one of them
    short = book.provisions.get(f"{book.game}:{ref}")
    return [short] if short else []


def labels(book: Rulebook) -> list[str]:
    """Every label and article name, in rulebook order (for completion and suggestions)."""
    seen: dict[str, None] = {}
    for p in book.provisions.values():
        seen.setdefault(p.article)
        seen.setdefault(p.label)
    return list(seen)


def lookup_or_fail(book: Rulebook, ref: str) -> list[Provision]:
    """As ``lookup``, but a reference that names nothing is an error that says what is close."""
    found = lookup(book, ref)
    if found:
        return found
    close = did_you_mean(ref, labels(book))
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    examples = ", ".join(repr(a.label) for a in book.articles[:3] if a.provisions)
    raise RefereeError(f"no article or provision {ref!r} in {book.game}{hint}, expected a label of "
                       f"the rulebook such as {examples} (all: `referee articles {book.game}`)")


@dataclass
class Hit:
    provision: Provision
    score: int                       # how many times the words occur (more first)
    fields: list[str] = field(default_factory=list)   # where they occur: label, quote, english, note


def _words(s: str) -> list[str]:
    return _TOKEN.findall(fold(s))


def search(book: Rulebook, query: str) -> list[Hit]:
    """Provisions whose text holds every word of ``query`` (each word the start of a word of
    the text, in the quote's language or in English), most occurrences first."""
    wanted = _words(query)
    if not wanted:
        raise RefereeError(f"nothing to search for in {query!r}, expected one or more words")
    hits = []
    for prov in book.provisions.values():
        texts = {"label": prov.label, "quote": prov.quote, "english": prov.english,
                 "note": " ".join(text(prov.note, lang) for lang in (prov.note or {})) if isinstance(prov.note, dict)
                 else text(prov.note)}
        words = {name: _words(t) for name, t in texts.items()}
        score, where = 0, []
        for w in wanted:
            n = 0
            for name, ws in words.items():
                k = sum(1 for x in ws if x.startswith(w))
                if k and name not in where:
                    where.append(name)
                n += k
            if not n:
                break
            score += n
        else:
            hits.append(Hit(prov, score, [f for f in texts if f in where]))
    order = {pid: i for i, pid in enumerate(book.provisions)}
    return sorted(hits, key=lambda h: (-h.score, order[h.provision.id]))


def applied_by(book: Rulebook) -> dict[str, list[str]]:
    """Provision id -> the productions that cite it."""
    cited: dict[str, list[str]] = {}
    for prod in book.productions:
        for pid in prod.cites:
            cited.setdefault(pid, []).append(prod.id)
    return cited


def article_lines(book: Rulebook, provisions: list[Provision], in_english: str = "In English",
                  lang: str = "en") -> list[str]:
    """The provisions as a front end shows them: label, id and kind; the quote; the English
    rendering; the note; the productions that apply it. A blank line between provisions.
    ``in_english``: the words before the rendering, in the interview's language."""
    cited = applied_by(book)
    lines: list[str] = []
    for i, p in enumerate(provisions):
        if i:
            lines.append("")
        penalty = ", penalty-bearing" if p.penalty_bearing else ""
        lines.append(f"{p.label}  [{p.id}]  ({p.kind}{penalty})")
        lines.append(f"  \"{p.quote}\"")
        lines.append(f"  {in_english}: {p.english}")
        if p.note:
            lines.append(f"  Note: {text(p.note, lang)}")
        lines.append(f"  Applied by: {', '.join(cited[p.id]) if p.id in cited else 'no production'}")
    return lines


def provision_dict(p: Provision) -> dict:
    """A provision as plain data (for --format json)."""
    return {"id": p.id, "article": p.article, "label": p.label, "kind": p.kind,
            "penalty_bearing": p.penalty_bearing, "quote": p.quote, "english": p.english,
            "note": p.note, "file": p.file, "line": p.line}
