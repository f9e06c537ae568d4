"""Checking answers against their questions: typed values from case files, strings from a prompt."""
from __future__ import annotations

import difflib
import unicodedata
from typing import Any, Iterable

from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import UNKNOWN, Question, Rulebook, text

YES = {"y", "yes", "true", "da", "d", "igen", "i", "tak", "t", "да", "д"}
NO = {"n", "no", "false", "ne", "nem", "nie", "нет", "н"}


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
    allowed = allowed_values(q, book, answers)
    if not allowed or isinstance(typed, bool):
        return ""
    items = typed if isinstance(typed, list) else (
        [t for t in str(typed).replace(";", ",").split(",") if t.strip()]
        if q.type in ("multi", "order") and isinstance(typed, str) else [typed])
    bad = next((t for t in items if t not in allowed and str(t).strip() not in map(str, allowed)), None)
    if bad is None or isinstance(bad, (list, dict)):
        return ""
    labels = {}
    for v in allowed:
        labels[str(v)] = v
        label = book.seat_label(v, lang) if q.type == "seat" else q.label(v, lang)
        labels.setdefault(label, v)
    close = did_you_mean(str(bad).strip(), list(labels))
    values = list(dict.fromkeys(labels[c] for c in close))
    if not values:
        return ""
    return " (did you mean " + " or ".join(repr(v) for v in values) + "?)"


def allowed_values(q: Question, book: Rulebook, answers: dict | None = None) -> list[Any] | None:
    """The values a question accepts, or None when any value of its type will do."""
    if q.type == "seat":
        return list(q.seats or book.seat_ids)
    if q.type == "yesno":
        return [True, False]
    if q.type == "order" and q.values_from:
        source = (answers or {}).get(q.values_from)
        if isinstance(source, list) and source:
            return list(source)
        return book.questions[q.values_from].allowed() if q.values_from in book.questions else []
    if q.type in ("choice", "multi", "order"):
        return q.allowed()
    return None


def describe_allowed(q: Question, book: Rulebook, answers: dict | None = None, lang: str = "en") -> str:
    w = prompt_words.words(prompt_words.ALLOWED, lang)
    if q.type == "yesno":
        return w["yesno"]
    if q.type == "number":
        bounds = [w[k].format(n=n) for k, n in (("from", q.min), ("to", q.max)) if n is not None]
        return " ".join([w["number"], *bounds])
    if q.type == "text":
        return w["text"]
    values = allowed_values(q, book, answers) or []
    listed = ", ".join(str(v) for v in values)
    return w["some" if q.type in ("multi", "order") else "one"].format(values=listed)


def is_unknown(value: Any) -> bool:
    return isinstance(value, str) and value == UNKNOWN


def check(q: Question, value: Any, book: Rulebook, answers: dict | None = None) -> Any:
    """Return the value normalised for its question, or raise RefereeError (no file).
    Every question but a free text accepts ``unknown``: a fact nobody can establish."""
    if is_unknown(value) and q.type != "text":
        return UNKNOWN
    def bad():
        raise RefereeError(f"invalid answer {value!r} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}{value_hint(q, value, book, answers)}")
    if q.type == "yesno":
        if isinstance(value, bool):
            return value
        bad()
    if q.type == "number":
        if isinstance(value, bool) or not isinstance(value, int):
            bad()
        if (q.min is not None and value < q.min) or (q.max is not None and value > q.max):
            bad()
        return value
    if q.type == "text":
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        bad()
    allowed = allowed_values(q, book, answers) or []
    if q.type in ("multi", "order"):
        if not isinstance(value, list) or not value:
            bad()
        if any(v not in allowed for v in value) or len(set(map(str, value))) != len(value):
            bad()
        return list(value)
    if value not in allowed or isinstance(value, (list, dict)):
        bad()
    return value


def parse_typed(q: Question, raw: str, book: Rulebook, answers: dict | None = None, lang: str = "en") -> Any:
    """Turn what was typed at a prompt (or given as --set Q=V) into a checked value.

    Values may be given by name or by the number shown in the list of choices.
    """
    raw = raw.strip()
    if raw.lower() in prompt_words.UNKNOWN_WORDS and q.type != "text":
        return UNKNOWN
    if q.type == "yesno":
        low = raw.lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise RefereeError(f"invalid answer {raw!r} to {q.id!r}, expected yes or no")
    if q.type == "number":
        try:
            value = int(raw)
        except ValueError:
            raise RefereeError(f"invalid answer {raw!r} to {q.id!r}, expected "
                               f"{describe_allowed(q, book, answers)}") from None
        return check(q, value, book, answers)
    if q.type == "text":
        if not raw:
            raise RefereeError(f"empty answer to {q.id!r}, expected some text")
        return raw
    allowed = allowed_values(q, book, answers) or []

    def one(token: str) -> Any:
        token = token.strip()
        if token.isdecimal() and token.isascii() and 1 <= int(token) <= len(allowed):
            return allowed[int(token) - 1]
        for v in allowed:
            if str(v).lower() == token.lower():
                return v
        for v in allowed:
            label = book.seat_label(v, lang) if q.type == "seat" else q.label(v, lang)
            if label.lower() == token.lower():
                return v
        raise RefereeError(f"invalid answer {token!r} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}{value_hint(q, token, book, answers, lang)}")
    if q.type in ("multi", "order"):
        tokens = [t for t in raw.replace(";", ",").split(",") if t.strip()]
        if not tokens:
            raise RefereeError(f"empty answer to {q.id!r}, expected {describe_allowed(q, book, answers)}")
        return check(q, [one(t) for t in tokens], book, answers)
    return one(raw)


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
    if is_unknown(value) and q.type != "text":
        return prompt_words.words(prompt_words.ALLOWED, lang)["unknown"]
    if q.type == "yesno":
        return prompt_words.words(prompt_words.ALLOWED, lang)["yes" if value else "no"]
    if q.type == "seat":
        return book.seat_label(value, lang)
    if q.type in ("multi", "order"):
        joiner = " → " if q.type == "order" else "; "
        labels = [book.seat_label(v, lang) if q.values_from is None and q.type == "seat" else
                  (book.questions[q.values_from].label(v, lang) if q.values_from in book.questions
                   else q.label(v, lang)) for v in value]
        return joiner.join(labels)
    if q.type == "choice":
        return q.label(value, lang)
    return str(value)


def question_text(q: Question, lang: str) -> str:
    return text(q.text, lang) or q.id
