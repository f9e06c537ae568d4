"""Checking answers against their questions: typed values from case files, strings from a prompt."""
from __future__ import annotations

from typing import Any

from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Question, Rulebook, text

YES = {"y", "yes", "true", "da", "d", "igen", "i", "tak", "t", "да", "д"}
NO = {"n", "no", "false", "ne", "nem", "nie", "нет", "н"}


def _shown(value: Any) -> str:
    """A typed value for a message: its repr, cut short (a file can hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


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


def check(q: Question, value: Any, book: Rulebook, answers: dict | None = None) -> Any:
    """Return the value normalised for its question, or raise RefereeError (no file)."""
    def bad():
        raise RefereeError(f"invalid answer {_shown(value)} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}")
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
    if q.type == "yesno":
        low = raw.lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise RefereeError(f"invalid answer {_shown(raw)} to {q.id!r}, expected yes or no")
    if q.type == "number":
        try:
            if len(raw) > 30:       # int() refuses 4,300+ digits with its own ValueError; say it here
                raise ValueError
            value = int(raw)
        except ValueError:
            raise RefereeError(f"invalid answer {_shown(raw)} to {q.id!r}, expected "
                               f"{describe_allowed(q, book, answers)}") from None
        return check(q, value, book, answers)
    if q.type == "text":
        if not raw:
            raise RefereeError(f"empty answer to {q.id!r}, expected some text")
        return raw
    allowed = allowed_values(q, book, answers) or []

    def one(token: str) -> Any:
        token = token.strip()
        if token.isdecimal() and token.isascii() and len(token) < 10 and 1 <= int(token) <= len(allowed):
            return allowed[int(token) - 1]
        for v in allowed:
            if str(v).lower() == token.lower():
                return v
        for v in allowed:
            label = book.seat_label(v, lang) if q.type == "seat" else q.label(v, lang)
            if label.lower() == token.lower():
                return v
        raise RefereeError(f"invalid answer {_shown(token)} to {q.id!r}, expected "
                           f"{describe_allowed(q, book, answers)}")
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
            raise RefereeError(f"unknown question id {qid!r}, expected one of the questions of "
                               f"{book.game} (see `referee questions {book.game}`)", file, line)
        try:
            result[q.id] = check(q, value, book, answers)
        except RefereeError as exc:
            raise RefereeError(exc.message, file, line) from None
    return result


def show_value(q: Question, value: Any, book: Rulebook, lang: str = "en") -> str:
    """An answer in words, for summaries and rulings."""
    if value is None:
        return "—"
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
