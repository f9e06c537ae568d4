"""The rulebook as Python objects: what the YAML in knowledge/<game>/ means once loaded."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conditions import Condition

QUESTION_TYPES = ("yesno", "choice", "multi", "number", "seat", "order", "text", "cards")
QUESTION_SCOPES = ("deal", "event")
# the answer "unknown": a fact nobody can establish. Every question accepts it; no question may
# offer a value spelt so (validate.py), so the string never collides with a real answer.
UNKNOWN = "unknown"
# what each finding kind means (infraction, competes under keep_first, ...): one table
from .finding_kinds import FINDING_KINDS, INFRACTION_KINDS, NOT_RULED_KINDS  # noqa: F401,E402


def text(value: Any, lang: str = "en") -> str:
    """A {lang: text} mapping read in ``lang``, falling back to English, then any language."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return value.get(lang) or value.get("en") or next(iter(value.values()), "")


def scope_ids(book: Any, effect: str) -> list[str]:
    """How long an effect may last, narrowest first (rulebook.yaml ``effects.NAME.scopes``:
    bridge's forced pass at the next turn only, or at every remaining turn of the auction)."""
    spec = (getattr(book, "effects", None) or {}).get(effect) or {}
    return [str(s.get("id")) for s in spec.get("scopes") or [] if isinstance(s, dict)]


def scope_label(book: Any, effect: str, scope: str | None, lang: str = "en") -> str:
    spec = (getattr(book, "effects", None) or {}).get(effect) or {}
    for s in spec.get("scopes") or []:
        if isinstance(s, dict) and s.get("id") == scope:
            return text(s.get("label"), lang) or str(scope)
    return str(scope or "")


@dataclass
class Located:
    file: str | None = field(default=None, kw_only=True)
    line: int | None = field(default=None, kw_only=True)


@dataclass
class Question(Located):
    id: str
    type: str
    text: dict
    help: dict
    values: list[tuple[Any, dict]]
    when: Condition | None
    seats: list[str] | None = None
    values_from: str | None = None
    min: float | None = None
    max: float | None = None
    # deal: one answer for the whole dispute (the game, the contract, the players); event: one
    # answer per event (who did it, how); see knowledge/README.md, "Events"
    scope: str = "event"
    # the referee's judgement ("at all likely", "gross error"), printed apart from established facts
    judgement: bool = False
    # what "unknown" means when the text gives a default (burden of proof, benefit of the doubt):
    # {value: V, cites: [provision ids], why: {lang: text}}; None: no default, the ruling branches
    unknown: dict | None = None
    # how the answer reads as a statement in the ruling's facts, per language: for yesno
    # {lang: {yes: "The partner fell.", no: "The partner did not fall."}}, for the other types
    # {lang: "Lead out of turn by"} (a label the value is printed after, so no name is declined)
    fact: dict | None = None
    # combinations of answers the source text rules out, refused wherever answers are taken
    # (the interview, case files): [{when: Condition, why: {lang: text}, cites: [ids]}]
    # (expert/language/exclusions.py; knowledge/README.md, "Answers that exclude each other")
    impossible: list = field(default_factory=list)
    # answered from the events before this one, never asked: {} or {seat: REF} (the seat it is
    # about, read in this event); a finding that ``carries`` it answers it yes (engine/carried.py)
    from_earlier: dict | None = None

    @property
    def for_the_record(self) -> bool:
        """Recorded and printed, never read by a condition (a description, the cards named)."""
        return self.type in ("text", "cards")

    def allowed(self) -> list[Any]:
        return [v for v, _ in self.values]

    def label(self, value: Any, lang: str = "en") -> str:
        for v, lab in self.values:
            if v == value:
                return text(lab, lang) or str(value)
        return str(value)


@dataclass
class Provision(Located):
    id: str
    article: str
    label: str
    kind: str
    penalty_bearing: bool
    quote: str
    english: str
    note: dict | None = None
    truncated: bool = False


@dataclass
class Production(Located):
    id: str
    article: str
    cites: list[str]
    when: Condition
    action: str                      # derive | finding | keep_first
    derive: str | None = None
    finding: dict | None = None
    keep_first: str | None = None    # the order question
    keep_first_among: list[str] | None = None   # only these productions' findings compete (None: all)
    keep_first_except: list[str] | None = None  # these productions' findings never compete
    keep_first_later: list[str] | None = None   # never the first, but set aside when after it
    # examine_later: false -- a later event's claim is not examined at all: a finding that it was
    # no violation is set aside too (preferans Član 22 acts only on the violation committed first)
    keep_first_examine_later: bool = True
    overrides: list[str] = field(default_factory=list)
    why: dict | None = None
    reading: dict | None = None

    @property
    def claim(self) -> str:
        """The claim value a finding answers ('' for a derivation or a finding with none): the
        value of the rulebook's ``claim`` question it rules on (knowledge/README.md, "The claim")."""
        return str((self.finding or {}).get("claim") or "")

    @property
    def kind(self) -> str | None:
        """The finding's kind (finding_kinds.KINDS); None for a production without a finding."""
        return (self.finding or {}).get("kind")

    def competes(self, production_id: str) -> bool:
        """For a keep_first production: whether that production's findings compete to be the
        violation committed first (and can be set aside as a later one)."""
        return ((self.keep_first_among is None or production_id in self.keep_first_among)
                and production_id not in (self.keep_first_except or ()))

    def ranks(self, production_id: str, kind: str | None) -> bool:
        """For a keep_first production: whether a finding of that production and kind competes.
        A kind that establishes no irregularity and ends nothing (no violation, a settlement)
        competes only where ``among`` names its production: skat's concession that stands is a
        settlement (no irregularity), yet it ends the game, so an act after it is not ruled."""
        if not self.competes(production_id):
            return False
        return kind not in NOT_RULED_KINDS or production_id in (self.keep_first_among or ())

    def yields(self, production_id: str, kind: str | None) -> bool:
        """For a keep_first production: whether a finding of that production and kind is set
        aside when it comes after the one ruled first: a competing one, or one named under
        ``later``, which is never the first itself (skat: play continued on the innocent side's
        demand ends nothing, yet after the infraction that ended the game there is no play left
        to continue)."""
        return self.ranks(production_id, kind) or production_id in (self.keep_first_later or ())


@dataclass
class Case(Located):
    name: str
    article: str
    answers: dict
    expect: dict
    header: dict = field(default_factory=dict)
    note: str | None = None
    cards: dict | None = None
    events: list | None = None        # several events: each one's answers (answers: the shared ones)
    requests: list | None = None      # what the parties ask for


@dataclass
class Article(Located):
    label: str
    title: dict
    provisions: list[Provision]
    productions: list[Production]
    cases: list[Case]


@dataclass
class Rulebook:
    game: str
    root: Path
    title: dict
    language: str
    source: dict
    edition: str
    seats: list[tuple[str, dict]]
    partnerships: list[list[str]]
    effects: dict[str, dict]
    parameters: dict[str, dict]
    questions: dict[str, Question]
    provisions: dict[str, Provision]
    productions: list[Production]
    articles: list[Article]
    files: list[Path]
    cards_map: dict = field(default_factory=dict)   # derived card fact -> question specs
    #: each knowledge file (relative to ``root``) -> the digest of the data read from it (yamlcache):
    #: what the rulebook's hash in a ruling record is made of
    digests: dict = field(default_factory=dict)
    score: dict = field(default_factory=dict)       # the score sheet: items, effects, play (rulebook.yaml)
    tournament_values: dict = field(default_factory=dict)   # parameters the tournament set (referee.toml)

    @property
    def cases(self) -> list[Case]:
        return [c for a in self.articles for c in a.cases]

    @property
    def seat_ids(self) -> list[str]:
        return [s for s, _ in self.seats]

    def seat_label(self, seat: str, lang: str = "en") -> str:
        for s, lab in self.seats:
            if s == seat:
                return text(lab, lang) or seat
        return seat

    def production(self, pid: str) -> Production:
        """The production with this id (an index by id, checked against the list so that a
        production replaced or removed in place is never returned stale)."""
        index = self.__dict__.get("_production_index")
        hit = index.get(pid) if index is not None else None
        if hit is not None:
            i, p = hit
            if i < len(self.productions) and self.productions[i] is p:
                return p
        index = {q.id: (i, q) for i, q in reversed(list(enumerate(self.productions)))}
        self.__dict__["_production_index"] = index
        if pid not in index:
            raise KeyError(pid)
        return index[pid][1]
