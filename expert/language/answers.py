"""Checking answers against their questions: typed values from case files, strings from a prompt."""
from __future__ import annotations

import difflib
import unicodedata
from typing import Any, Iterable

from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import UNKNOWN, Question, Rulebook, text

from referee.expert.language.qtypes import NO, YES, qtype  # noqa: E402,F401 (YES/NO kept for importers)


def fold(word: str) -> str:
    """``word`` compared loosely: case and diacritics dropped (Član ~ clan, Сводка ~ сводка)."""
    decomposed = unicodedata.normalize("NFKD", str(word).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def did_you_mean(word: Any, candidates: Iterable[Any], n: int = 3) -> list:
    """The candidates closest to a misspelt ``word`` (at most ``n``, best first): close in
    spelling, or beginning with what was typed. Case and diacritics do not count."""
    folded: dict[str, Any] = {}
    for c in candidates:
        folded.setdefault(fold(c), c)
    typed = fold(word)
    if not typed:
        return []
    close = difflib.get_close_matches(typed, list(folded), n=n, cutoff=0.6)
    starts = [k for k in folded if len(typed) >= 3 and k.startswith(typed) and k not in close]
    return [folded[k] for k in (close + starts)[:n]]


def hint(word: Any, candidates: Iterable[Any]) -> str:
    """' (did you mean 'x'?)' for a misspelt word, or '' when nothing is close."""
    close = did_you_mean(word, candidates)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


def value_hint(q: Question, typed: Any, book: Rulebook, answers: dict | None = None,
               lang: str = "en") -> str:
    """' (did you mean ...?)' for a value or label of ``q`` close to what was typed; for a list
    answer, for the first item that is not a value. '' when nothing is close."""
    if _unsplit_sets(q, typed):
        # 'unknown: a, b' on a question taking several answers reads as one set, not a choice
        return " (this question takes several answers: separate the sets it may be with '|', e.g. 'unknown: a | a, b')"
    allowed = allowed_values(q, book, answers)
    if not allowed or isinstance(typed, bool) or q.type == "yesno":
        return ""                      # yes/no: the refusal already says "yes or no"
    items = typed if isinstance(typed, list) else (
        [t for t in str(typed).replace(";", ",").split(",") if t.strip()]
        if qtype(q).several and isinstance(typed, str) else [typed])
    bad = next((t for t in items if t not in allowed and str(t).strip() not in map(str, allowed)), None)
    if bad is None or isinstance(bad, (list, dict)):
        return ""
    labels = {}
    for v in allowed:
        labels[str(v)] = v
        labels.setdefault(qtype(q).label(q, v, book, lang), v)
    close = did_you_mean(str(bad).strip(), list(labels))
    values = list(dict.fromkeys(labels[c] for c in close))
    if not values:
        return ""
    return " (did you mean " + " or ".join(repr(v) for v in values) + "?)"


def _unsplit_sets(q: Question, typed: Any) -> bool:
    """'unknown: a, b' typed for a question that takes several answers, without the '|' that
    separates the sets it may be."""
    if not isinstance(typed, str) or not qtype(q).several:
        return False
    head, colon, rest = typed.partition(":")
    return bool(colon) and head.strip().lower() in prompt_words.UNKNOWN_WORDS and "|" not in rest


def _shown(value: Any) -> str:
    """A typed value for a message: its repr, cut short (a file can hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def allowed_values(q: Question, book: Rulebook, answers: dict | None = None) -> list[Any] | None:
    """The values a question accepts, or None when any value of its type will do."""
    return qtype(q).allowed(q, book, answers)


def describe_allowed(q: Question, book: Rulebook, answers: dict | None = None, lang: str = "en") -> str:
    return qtype(q).describe(q, book, answers, lang)


def is_unknown(value: Any) -> bool:
    """'unknown', or 'unknown, but one of these' ({unknown: [values]})."""
    return (isinstance(value, str) and value == UNKNOWN) or (
        isinstance(value, dict) and set(value) == {UNKNOWN})


def unknown_among(value: Any) -> list | None:
    """The values an answer 'unknown, but one of these' still allows (None: any)."""
    return list(value[UNKNOWN]) if isinstance(value, dict) and set(value) == {UNKNOWN} else None


def check(q: Question, value: Any, book: Rulebook, answers: dict | None = None) -> Any:
    """Return the value normalised for its question, or raise RefereeError (no file).
    Every question but a free text accepts ``unknown``: a fact nobody can establish."""
    if is_unknown(value) and qtype(q).accepts_unknown:
        among = unknown_among(value)
        if among is None:
            return UNKNOWN
        if not isinstance(among, list) or len(among) < 2:
            raise RefereeError(f"invalid answer {value!r} to {q.id!r}, expected unknown, or "
                               "{unknown: [two or more of its answers]}")
        return {UNKNOWN: [check(q, v, book, answers) for v in among]}

    def bad():
        raise RefereeError(f"invalid answer {_shown(value)} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}{value_hint(q, value, book, answers)}")
    return qtype(q).check(q, value, book, answers, bad)


def parse_typed(q: Question, raw: str, book: Rulebook, answers: dict | None = None, lang: str = "en") -> Any:
    """Turn what was typed at a prompt (or given as --set Q=V) into a checked value.

    Values may be given by name or by the number shown in the list of choices.
    """
    raw = raw.strip()
    if raw.lower() in prompt_words.UNKNOWN_WORDS and qtype(q).accepts_unknown:
        return UNKNOWN
    head, colon, rest = raw.partition(":")
    if colon and head.strip().lower() in prompt_words.UNKNOWN_WORDS and qtype(q).accepts_unknown:
        # "unknown: pik, karo" — nobody can establish which, but it is one of these
        parts = [t for t in rest.replace(";", ",").split(",") if t.strip()]
        if qtype(q).several:
            among = [parse_typed(q, t, book, answers, lang) for t in rest.split("|") if t.strip()]
            if len(among) < 2:          # one set: the sets it may be are split by '|'
                raise RefereeError(f"invalid answer {_shown(raw)} to {q.id!r}"
                                   f"{value_hint(q, raw, book, answers, lang)}")
        else:
            among = [parse_typed(q, t, book, answers, lang) for t in parts]
        return check(q, {UNKNOWN: among}, book, answers)

    def refuse(token: str):
        raise RefereeError(f"invalid answer {_shown(token)} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}{value_hint(q, token, book, answers, lang)}")
    value = qtype(q).parse(q, raw, book, answers, lang, refuse)
    return check(q, value, book, answers) if qtype(q).recheck else value


def check_all(answers: dict, book: Rulebook, file: str | None = None, line: int | None = None) -> dict:
    """Check a whole answers mapping (from a case file); raise with file:line on the first problem."""
    if not isinstance(answers, dict):
        raise RefereeError("answers must be a mapping of question id to value", file, line)
    result = {}
    for qid, value in answers.items():
        q = book.questions.get(str(qid))
        if q is None:
            raise RefereeError(f"unknown question id {qid!r}{hint(qid, book.questions)}, expected one of "
                               f"the questions of {book.game} (see `referee questions {book.game}`)",
                               file, line)
        try:
            result[q.id] = check(q, value, book, answers)
        except RefereeError as exc:
            raise RefereeError(exc.message, file, line) from None
    return result


def show_value(q: Question, value: Any, book: Rulebook, lang: str = "en") -> str:
    """An answer in words, for summaries and rulings."""
    if value is None:
        return "—"
    if is_unknown(value) and qtype(q).accepts_unknown:
        said = prompt_words.words(prompt_words.ALLOWED, lang)["unknown"]
        among = unknown_among(value)
        if among:
            said += " (" + " / ".join(qtype(q).show(q, v, book, lang) for v in among) + ")"
        return said
    return qtype(q).show(q, value, book, lang)


def question_text(q: Question, lang: str) -> str:
    return text(q.text, lang) or q.id
