"""Question types: one object per type says everything the rest of the system needs to know
about answers of that type — which condition operators read it, which values it allows, how a
typed string becomes a value, how a value from a case file is checked, how a value reads in
words, which answers stand for all others when rules are analysed or a fact is unknown, and how
a form (the web page) offers it. A new type is one class here.
"""
from __future__ import annotations

import itertools
from typing import Any

from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Question, Rulebook

YES = {"y", "yes", "true", "da", "d", "igen", "i", "tak", "t", "да", "д"}
NO = {"n", "no", "false", "ne", "nem", "nie", "нет", "н"}

SET_OPS = ("has", "count_ge", "answered")
NUMBER_OPS = ("is", "in", "ge", "gt", "le", "lt", "answered")
VALUE_OPS = ("is", "in", "answered")


class QuestionType:
    name = ""
    operators: tuple = VALUE_OPS      # the condition operators that may test it
    several = False                   # the answer is a list
    widget = "choice"                 # how a form offers it: yesno | choice | checkboxes | number | text
    accepts_unknown = True            # "unknown": a fact nobody can establish
    recheck = False                   # a parsed value is checked again (bounds, repeats)

    # --- values -------------------------------------------------------------------------
    def allowed(self, q: Question, book: Rulebook, answers: dict | None = None) -> list[Any] | None:
        """The values it accepts, or None when any value of its kind will do."""
        return q.allowed()

    def label(self, q: Question, value: Any, book: Rulebook, lang: str) -> str:
        return q.label(value, lang)

    def describe(self, q: Question, book: Rulebook, answers: dict | None, lang: str) -> str:
        w = prompt_words.words(prompt_words.ALLOWED, lang)
        listed = ", ".join(str(v) for v in self.allowed(q, book, answers) or [])
        return w["some" if self.several else "one"].format(values=listed)

    def check(self, q: Question, value: Any, book: Rulebook, answers: dict | None, bad) -> Any:
        allowed = self.allowed(q, book, answers) or []
        if value not in allowed or isinstance(value, (list, dict)):
            bad()
        return value

    def parse(self, q: Question, raw: str, book: Rulebook, answers: dict | None, lang: str, refuse) -> Any:
        return self.token(q, raw, book, answers, lang, refuse)

    def token(self, q, token: str, book, answers, lang, refuse) -> Any:
        """One value by its number in the menu, its name or its label."""
        allowed = self.allowed(q, book, answers) or []
        token = token.strip()
        if token.isdecimal() and token.isascii() and len(token) < 10 and 1 <= int(token) <= len(allowed):
            return allowed[int(token) - 1]
        for v in allowed:
            if str(v).lower() == token.lower():
                return v
        for v in allowed:
            if self.label(q, v, book, lang).lower() == token.lower():
                return v
        # a label that names a value two ways ("Środek/Mittelhand"): either name, where it names
        # only one value (blind walk 9: the soloist's place typed as "Środek")
        named = [v for v in allowed if token.casefold() in {
            part.strip().casefold() for lg in (lang, "en")
            for part in self.label(q, v, book, lg).split("/") if "/" in self.label(q, v, book, lg)}]
        if len(named) == 1:
            return named[0]
        refuse(token)

    def show(self, q: Question, value: Any, book: Rulebook, lang: str) -> str:
        return self.label(q, value, book, lang)

    # --- reasoning ------------------------------------------------------------------------
    def domain(self, q: Question, book: Rulebook, literals: list) -> list[Any]:
        """Answers that stand for all others, given the literals the rules read on it."""
        return list(self.allowed(q, book) or [])

    # --- forms ----------------------------------------------------------------------------
    def form(self, q: Question, book: Rulebook, answers: dict | None, lang: str) -> dict:
        """How a form offers the question (JSON for the web page)."""
        return {"type": self.name, "widget": self.widget, "several": self.several,
                "options": [{"value": v, "label": self.label(q, v, book, lang)}
                            for v in self.allowed(q, book, answers) or []]}


class YesNo(QuestionType):
    name, widget = "yesno", "yesno"

    def allowed(self, q, book, answers=None):
        return [True, False]

    def label(self, q, value, book, lang):
        return prompt_words.words(prompt_words.ALLOWED, lang)["yes" if value else "no"]

    def describe(self, q, book, answers, lang):
        return prompt_words.words(prompt_words.ALLOWED, lang)["yesno"]

    def check(self, q, value, book, answers, bad):
        if not isinstance(value, bool):
            bad()
        return value

    def parse(self, q, raw, book, answers, lang, refuse):
        low = raw.lower()
        if low in YES:
            return True
        if low in NO:
            return False
        raise RefereeError(f"invalid answer {raw[:80]!r} to {q.id!r}, expected yes or no")


class Choice(QuestionType):
    name = "choice"


class Seat(QuestionType):
    name = "seat"

    def allowed(self, q, book, answers=None):
        return list(q.seats or book.seat_ids)

    def label(self, q, value, book, lang):
        return book.seat_label(value, lang)


class Multi(QuestionType):
    name, widget, several, operators, recheck = "multi", "checkboxes", True, SET_OPS, True

    def check(self, q, value, book, answers, bad):
        allowed = self.allowed(q, book, answers) or []
        if not isinstance(value, list) or not value:
            bad()
        if any(v not in allowed for v in value) or len(set(map(str, value))) != len(value):
            bad()
        return list(value)

    def parse(self, q, raw, book, answers, lang, refuse):
        tokens = [t for t in raw.replace(";", ",").split(",") if t.strip()]
        if not tokens:
            raise RefereeError(f"empty answer to {q.id!r}, expected {self.describe(q, book, answers, 'en')}")
        return [self.token(q, t, book, answers, lang, refuse) for t in tokens]

    def show(self, q, value, book, lang):
        return "; ".join(self.label(q, v, book, lang) for v in value)

    def domain(self, q, book, literals):
        allowed = q.allowed()
        tested = [v for v in allowed if any(l.op == "has" and l.value == v for l in literals)]
        need = max([int(l.value) for l in literals if l.op == "count_ge"] + [0])
        fillers = [v for v in allowed if v not in tested]
        items = tested + fillers[:max(1, need - len(tested))]
        items = [v for v in allowed if v in items]
        if len(items) <= 3:
            return [list(c) for n in range(1, len(items) + 1) for c in itertools.combinations(items, n)]
        result = [[v] for v in items]               # each value alone, each tested pair, all together
        if len(tested) <= 4:
            result += [list(c) for c in itertools.combinations(tested, 2)]
        if need > 2:
            result.append(items[:need])
        result.append(list(items))
        return result


class Order(Multi):
    name, widget = "order", "order"

    def allowed(self, q, book, answers=None):
        if q.values_from:
            source = (answers or {}).get(q.values_from)
            if isinstance(source, list) and source:
                return list(source)
            return book.questions[q.values_from].allowed() if q.values_from in book.questions else []
        return q.allowed()

    def label(self, q, value, book, lang):
        if q.values_from in book.questions:
            return book.questions[q.values_from].label(value, lang)
        return q.label(value, lang)

    def show(self, q, value, book, lang):
        return " → ".join(self.label(q, v, book, lang) for v in value)

    def domain(self, q, book, literals):
        if q.values_from:
            return []                      # read from the answer it orders (analysis: dynamic)
        result = super().domain(q, book, literals)
        return result + [list(reversed(r)) for r in result if len(r) > 1]


class Number(QuestionType):
    name, widget, operators, recheck = "number", "number", NUMBER_OPS, True

    def allowed(self, q, book, answers=None):
        return None

    def label(self, q, value, book, lang):
        return str(value)

    def describe(self, q, book, answers, lang):
        w = prompt_words.words(prompt_words.ALLOWED, lang)
        bounds = [w[k].format(n=n) for k, n in (("from", q.min), ("to", q.max)) if n is not None]
        return " ".join([w["number"], *bounds])

    def check(self, q, value, book, answers, bad):
        if isinstance(value, bool) or not isinstance(value, int):
            bad()
        if (q.min is not None and value < q.min) or (q.max is not None and value > q.max):
            bad()
        return value

    def parse(self, q, raw, book, answers, lang, refuse):
        try:
            if len(raw) > 30:       # int() refuses 4,300+ digits with its own ValueError; say it here
                raise ValueError
            value = int(raw)
        except ValueError:
            raise RefereeError(f"invalid answer {raw[:80]!r} to {q.id!r}, expected "
                               f"{self.describe(q, book, answers, 'en')}") from None
        return value

    def domain(self, q, book, literals):
        points: set[int] = set()
        for lit in literals:
            for v in (lit.value if lit.op == "in" else (lit.value,)):
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    points |= {int(v) - 1, int(v), int(v) + 1}
        lo = int(q.min) if q.min is not None else None
        hi = int(q.max) if q.max is not None else None
        points |= {x for x in (lo, hi) if x is not None}
        if not points:
            points = {lo if lo is not None else (hi if hi is not None else 1)}
        return sorted(x for x in points if (lo is None or x >= lo) and (hi is None or x <= hi))

    def form(self, q, book, answers, lang):
        return {"type": self.name, "widget": self.widget, "several": False, "min": q.min, "max": q.max,
                "options": []}


class Text(QuestionType):
    """A description for the record: never read by a condition, never 'unknown'."""
    name, widget, operators, accepts_unknown = "text", "text", (), False

    def allowed(self, q, book, answers=None):
        return None

    def label(self, q, value, book, lang):
        return str(value)

    def describe(self, q, book, answers, lang):
        return prompt_words.words(prompt_words.ALLOWED, lang)["text"]

    def check(self, q, value, book, answers, bad):
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        bad()

    def parse(self, q, raw, book, answers, lang, refuse):
        if not raw:
            raise RefereeError(f"empty answer to {q.id!r}, expected some text")
        return raw

    def domain(self, q, book, literals):
        return []

    def form(self, q, book, answers, lang):
        return {"type": self.name, "widget": self.widget, "several": False, "options": []}


class Cards(Text):
    """Cards named in the game's notation (``♣K``, ``♠AK ♥Q``): for the record and the ruling's
    words (the penalty card named), like a text never read by a condition. This layer takes the
    string; the interview and the case files read it with the card library and keep it canonical
    (expert/interview/named_cards.py)."""
    name = "cards"

    def describe(self, q, book, answers, lang):
        return prompt_words.words(prompt_words.ALLOWED, lang)["cards"]

    def check(self, q, value, book, answers, bad):
        if not isinstance(value, str) or not value.strip():
            bad()
        return value.strip()

    def parse(self, q, raw, book, answers, lang, refuse):
        if not raw.strip():
            raise RefereeError(f"empty answer to {q.id!r}, expected a card, e.g. ♣K")
        return raw.strip()


TYPES: dict[str, QuestionType] = {t.name: t for t in (YesNo(), Choice(), Multi(), Number(), Seat(), Order(), Text(),
                                                      Cards())}


def qtype(q: Question) -> QuestionType:
    return TYPES[q.type]
