"""The result of the deal after the ruling: the entries to write on the score sheet.

A rulebook's ``score:`` (rulebook.yaml) says what the sheet holds and how to fill it:

- ``items``: its columns (preferans bula, supe, refe; skat the game's score; bridge tricks and
  score per side; ulti units), each ``per: player`` (default) or ``per: side``;
- ``effects``: how each effect of a standing finding is written: on which item, with which sign
  or amount, and whether it ``settles`` the deal (the finding's entries are the whole result and
  the deal is not scored as played); ``per_unit`` writes the line's amount times a value (a
  parameter left null when the source text does not give it leaves the entry open). An effect
  may be written as several entries (a list of such specs: ulti's payment is a minus for the payer, a plus for the payee and the payment
  itself). A finding may also settle the deal by itself: ``settles_result: true`` (its entries,
  if any, are the whole result: a renonsz settled by the expected winnings) or ``settles_deal:
  true`` (a misdeal redealt: nothing of this deal is written). An effect written ``{scores_as:
  {QUESTION: VALUE}}`` writes no entry: the deal is scored as played with that answer replaced
  (bridge: a double cancelled by Law 35D leaves the contract scored undoubled);
- ``play``: the deal's own entries when no standing finding settles it, each rule with a ``when``
  over the answers (the contract, the tricks or points taken) and amounts that may read the
  entries made so far (``{item: ID, of: SEAT}``: trick transfers added to the tricks taken).

Several findings combine into one result: entries are summed per player, item and the player
written against. An amount that needs an answer nobody gave stays open, with the formula and the
question it needs, never silently left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.expert.language import conditions as cond
from referee.expert.language.expressions import Unresolved, amount_of, holds, params_in, seat_of
from referee.expert.language.model import Rulebook


@dataclass
class Entry:
    player: str                   # a seat (for a per-side item: any seat of the side)
    item: str
    amount: float | int | None
    against: str | None = None
    needs: list[str] = field(default_factory=list)   # questions an open amount waits for
    source: str = ""              # the production (or "play") it comes from
    # an open amount whose fact is known to be one of a few values ('unknown: 4, 5'): what it
    # comes to under each, [({question: value}, amount)]
    options: list = field(default_factory=list)
    # parameters the amount reads that the rulebook leaves unset (null: the source text does not
    # give the value, preferans supa_value): the entry is open until the tournament sets them
    unset: list[str] = field(default_factory=list)

    def to_dict(self, book: Rulebook, names: dict) -> dict:
        d: dict[str, Any] = {"player": self.player, "name": names.get(self.player) or None,
                             "item": self.item, "amount": self.amount}
        if _per_side(book, self.item):
            d["side"] = side_id(book, self.player)
        if self.against:
            d["against"] = self.against
            d["against_name"] = names.get(self.against) or None
        if self.needs:
            d["needs"] = list(self.needs)
        if self.unset:
            d["unset"] = list(self.unset)
        if self.options:
            d["options"] = [{"if": when, "amount": amount} for when, amount in self.options]
        return d


@dataclass
class Result:
    entries: list[Entry]
    settled_by: list[str] = field(default_factory=list)   # findings whose entries are the whole result
    open: list[str] = field(default_factory=list)          # questions the result still needs
    params: list[str] = field(default_factory=list)        # the rulebook parameters the entries read
    # standing findings the rules leave undecided: what they change in the result is not known,
    # so the entries are the deal as played until it is (blind walk 7, B2: an undecided trick
    # transfer printed the table score as if it stood)
    undecided: list[str] = field(default_factory=list)
    # the deal's points were already on the score sheet when every claim was raised (score:
    # booked): its entries are not new, they stand as booked (ulti walk 7: a claim after the
    # booking reprinted the deal's entries as if they were to be written)
    booked: bool = False

    def to_dict(self, book: Rulebook, header: dict) -> dict:
        names = dict((header or {}).get("players") or {})
        d = {"entries": [e.to_dict(book, names) for e in self.entries],
             "settled_by": self.settled_by, "needs": self.open,
             "text": result_text(book, self, names)}
        if self.booked:
            d["booked"] = True
        return d


def _per_side(book: Rulebook, item: str) -> bool:
    return any(i.get("id") == item and i.get("per") == "side" for i in book.score.get("items") or [])


def side_id(book: Rulebook, seat: str) -> str:
    for pair in book.partnerships:
        if seat in pair:
            return "".join(pair)
    return seat


def compute(book: Rulebook, findings: list, answers_of, shared: dict, events: int = 1) -> Result | None:
    """The result from the standing ``findings`` (``answers_of(event)`` gives the answers each was
    ruled on; ``shared`` the deal's answers; ``events`` how many events the dispute has). None
    when the rulebook has no score sheet."""
    score = book.score
    if not score:
        return None
    effects = score.get("effects") or {}
    entries: list[Entry] = []
    settled: list[str] = []
    params: list[str] = []
    scored_as: dict = {}
    for f in findings:
        answers = answers_of(f.event)
        if settles_by_itself(book.production(f.production).finding) and f.production not in settled:
            settled.append(f.production)
        for line in f.penalty:
            for spec in specs_of(effects.get(line.effect)):
                if "scores_as" in spec:
                    # the finding changes what the deal is scored on (bridge 35D cancels a
                    # double: the contract is scored undoubled), not an entry of its own
                    scored_as.update(spec["scores_as"])
                    continue
                if spec.get("settles") and f.production not in settled:
                    settled.append(f.production)
                entries.append(sheet_entry(book, spec, line, answers, f.production))
                params_in(spec.get("amount"), params)
                params_in(spec.get("per_unit"), params)
    if not settled:
        entries += _play(book, score.get("play") or [], {**shared, **scored_as}, _totals(book, entries), params)
    combined = _combine(book, entries)
    open_ = sorted({q for e in combined for q in e.needs})
    undecided = [f.production for f in findings if getattr(f, "kind", None) == "undecided"]
    return Result(combined, settled, open_, params, undecided,
                  booked=_booked(score.get("booked"), [answers_of(k) for k in range(max(events, 1))]))


def _booked(test, per_event: list[dict]) -> bool:
    """Whether the deal's points were on the sheet when each claim was raised (``score: booked``,
    a condition on answers, holds in every event); an unknown answer does not say so."""
    if test is None:
        return False
    parsed = cond.parse(test, "rulebook.yaml")
    try:
        return all(holds(parsed, answers) for answers in per_event)
    except Unresolved:
        return False


def specs_of(spec) -> list[dict]:
    """How one effect is written: no entry (None), one entry (a mapping) or several (a list)."""
    if not spec:
        return []
    return [s for s in spec if isinstance(s, dict)] if isinstance(spec, list) else [spec]


def settles_by_itself(finding: dict | None) -> bool:
    """A finding whose own entries (perhaps none) are the deal's whole result, whatever its effects:
    ``settles_result`` (a renonsz settled by the expected winnings) or ``settles_deal`` (a misdeal)."""
    return bool(finding and (finding.get("settles_result") or finding.get("settles_deal")))


def sheet_entry(book, spec: dict, line, answers: dict, source: str) -> Entry:
    """The entry one penalty line writes on the score sheet under one of its effect's specs
    (also read by ``requests``: an effect asked for is given by what the sheet writes)."""
    needs: list[str] = []
    unset: list[str] = []
    player = line.player
    if spec.get("player") == "against":
        player = line.against or line.player
    elif spec.get("player") not in (None, "line"):
        player = _seat(book, spec["player"], answers, needs) or player
    against = line.against
    if spec.get("against") == "player":          # the payee's entry names who owes it: the payer
        against = line.player
    elif spec.get("against") not in (None, "against"):
        against = None if spec["against"] == "none" else _seat(book, spec["against"], answers, needs)
    options: list = []
    if "per_unit" in spec:
        # the line counts units the sheet writes at a value each (preferans 'dve supe': two supe,
        # each worth what one supa is in the supe column); a value the rulebook leaves unset
        # (null: the source text does not give it) leaves the entry open, never a guess
        unit = _amount(book, spec["per_unit"], answers, {}, needs)
        amount = None if unit is None or line.amount is None else line.amount * unit
        if line.amount is None:
            # the count itself is open (preferans: the tricks the caller would have had)
            if line.needs:
                needs.append(line.needs)
            if unit is not None:
                options = [(dict(when), None if a is None else a * unit) for when, a in (line.options or [])]
        if unit is None and not needs:
            unset = [n for n in params_in(spec["per_unit"]) if (book.parameters.get(n) or {}).get("value") is None]
    elif "amount" in spec:
        amount = _amount(book, spec["amount"], answers, {}, needs)
        if amount is None:
            options = _options(book, spec["amount"], answers, {}, line.options)
    else:
        amount = line.amount
        if line.needs:
            needs.append(line.needs)
        if amount is None:
            options = [(dict(when), a) for when, a in (line.options or [])]
    if amount is not None:
        amount = amount * spec.get("sign", 1)
    options = [(when, None if a is None else a * spec.get("sign", 1)) for when, a in options]
    return Entry(player, spec["item"], amount, against, needs, source,
                 options if options and all(a is not None for _, a in options) else [], unset)


def _play(book, rules: list, answers: dict, totals: dict, params: list[str] | None = None) -> list[Entry]:
    """The deal's own entries; ``params`` collects the parameters of the rules that apply."""
    entries = []
    for rule in rules:
        needs: list[str] = []
        if rule.get("when") is not None:
            test = cond.parse(rule["when"])
            try:
                if not holds(test, _with_closed(book, test, answers)):
                    continue
            except Unresolved as exc:
                # which rule applies is not known: say what it waits for, once, and what its
                # entries wait for that is never asked with these answers (skat: the card points
                # of a game not yet played to its end, when the game was not asked either)
                needs = [exc.question] + [q for q in _never_asked(book, rule, answers) if q != exc.question]
                if not any(not e.item and e.needs == needs for e in entries):
                    entries.append(Entry("", "", None, None, needs, "play"))
                continue
        if params is not None:
            params_in(rule.get("entries") or [], params)
        for spec in rule.get("entries") or []:
            needs = []
            player = _seat(book, spec["player"], answers, needs) or "?"
            against = _seat(book, spec["against"], answers, needs) if spec.get("against") is not None else None
            amount = _amount(book, spec["amount"], answers, totals, needs)
            entries.append(Entry(player, spec["item"], amount, against, needs, "play"))
    return entries


def _never_asked(book, rule: dict, answers: dict) -> list[str]:
    """The questions a play rule's entries wait on first that are never asked with these answers
    (their gate, on answers only, does not hold)."""
    out: list[str] = []
    for spec in rule.get("entries") or []:
        try:
            amount_of(spec.get("amount"), book, answers)
        except Unresolved as exc:
            q = book.questions.get(exc.question)
            if exc.question in answers or q is None or q.when is None or exc.question in out:
                continue
            try:
                if not holds(q.when, answers):
                    out.append(exc.question)
            except Unresolved:
                pass
    return out


class _Closed:
    """A question the interview never asks with these answers (its ``when`` does not hold): as
    when ruling, every literal on it is false; it waits for nothing."""

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


CLOSED = _Closed()


def _with_closed(book, test, answers: dict) -> dict:
    """``answers`` with the unanswered questions ``test`` reads whose gate is closed marked so."""
    marked = dict(answers)
    for qid in cond.questions_read(test):
        q = book.questions.get(qid)
        if qid in answers or q is None or q.when is None:
            continue
        if not all(isinstance(lit, cond.AnswerTest) for lit in cond.literals(q.when)):
            continue            # a gate on derived facts: only the ruling knows; not marked
        try:
            if not holds(q.when, answers):
                marked[qid] = CLOSED
        except Unresolved:
            pass                # the gate itself waits for an answer: the question may be asked
    return marked


def _seat(book, ref, answers, needs) -> str | None:
    try:
        return seat_of(ref, book, answers)
    except Unresolved as exc:
        needs.append(exc.question)
        return None


def _amount(book, expr, answers, totals, needs):
    try:
        return amount_of(expr, book, answers, totals)
    except Unresolved as exc:
        needs.append(exc.question)
        return None


def _options(book, expr, answers: dict, totals: dict, given=None) -> list:
    """What an open amount comes to under each value a fact is known to lie among: the fact's
    own answer 'unknown: 4, 5', or the penalty line's options (``given``: the same fact ruled on
    each value). Empty where any value still leaves it open or nothing narrows the fact."""
    from referee.expert.language.answers import unknown_among
    whens = [dict(when) for when, _ in (given or [])]
    if not whens:
        try:
            amount_of(expr, book, answers, totals)
            return []
        except Unresolved as exc:
            among = unknown_among(answers.get(exc.question))
            whens = [{exc.question: v} for v in among or []]
    out = []
    for when in whens:
        try:
            out.append((when, amount_of(expr, book, {**answers, **when}, totals)))
        except Unresolved:
            return []
    return out


def _totals(book, entries: list[Entry]) -> dict:
    """(item, seat) -> total, with a per-side item's total under every seat of the side."""
    totals: dict[tuple, float] = {}
    for e in entries:
        if e.amount is None or not e.item:
            continue
        seats = [e.player]
        if _per_side(book, e.item):
            seats = next((list(p) for p in book.partnerships if e.player in p), [e.player])
        for s in seats:
            totals[(e.item, s)] = totals.get((e.item, s), 0) + e.amount
    return totals


def _combine(book, entries: list[Entry]) -> list[Entry]:
    """Entries summed per (player or side, item, against); open ones kept apart."""
    order = [i.get("id") for i in book.score.get("items") or []]
    seats = book.seat_ids
    summed: dict[tuple, Entry] = {}
    cancelled: dict[tuple, bool] = {}
    kept: list[Entry] = []
    for e in entries:
        if not e.item:
            kept.append(e)
            continue
        who = side_id(book, e.player) if _per_side(book, e.item) else e.player
        key = (who, e.item, e.against)
        if e.amount is None:
            kept.append(e)
            continue
        if key in summed:
            summed[key].amount += e.amount
            cancelled[key] = summed[key].amount == 0
        else:
            summed[key] = Entry(e.player, e.item, e.amount, e.against, [], e.source)
    # entries that cancel out (a fall written by the play and struck off by the ruling) leave
    # nothing to write; a single entry of 0 stays (bridge: the contract made exactly)
    result = [e for key, e in summed.items() if not cancelled.get(key)] + kept

    def rank(e: Entry):
        return (seats.index(e.player) if e.player in seats else len(seats),
                order.index(e.item) if e.item in order else len(order))
    return sorted(result, key=rank)


def every_seat_item(book: Rulebook) -> str | None:
    """The first item of the score sheet on which the deal as played (``score.play``) writes a
    line for every player at the table (for a per-side item, for every side): the line on which
    a player the ruling leaves untouched is written 0 (ulti: "A védőtárs nullán marad", the
    innocent defender stays at zero). Only a player's own signed item (a change: bula, units),
    never a count (bridge's tricks taken) nor a side's score, where 0 would state a result. None
    where no item has a line for everyone (skat writes only the soloist's game; the opponents
    have no line of their own)."""
    score = book.score or {}
    seats = list(book.seat_ids)
    for item in [i.get("id") for i in score.get("items") or []]:
        if _per_side(book, item) or not signed(book, item):
            continue
        written: set[str] = set()
        for rule in score.get("play") or []:
            for spec in rule.get("entries") or []:
                if spec.get("item") != item:
                    continue
                ref = spec.get("player")
                # a seat read from the answers (bridge: the declarer, his left-hand opponent)
                # may be any seat
                written |= {ref} if isinstance(ref, str) and ref in seats else set(seats)
        if written >= set(seats):
            return item
    return None


def result_text(book: Rulebook, result: Result, names: dict) -> str:
    """One line in English for the JSON contract: "Marko: bula −8; Jovan: supe 2 against Marko"."""
    parts = []
    for e in result.entries:
        if not e.item:
            parts.append(f"to fill in once known: {', '.join(e.needs)}")
            continue
        who = names.get(e.player) or e.player
        if _per_side(book, e.item):
            side = next((p for p in book.partnerships if e.player in p), [e.player])
            who = "–".join(side)
        amount = "?" if e.amount is None else _num(e.amount, signed(book, e.item))
        against = f" against {names.get(e.against) or e.against}" if e.against else ""
        needs = f" (to fill in: {', '.join(e.needs)})" if e.needs and e.amount is None else ""
        if e.unset and e.amount is None and not e.needs:
            needs = f" (not given by the source text: {', '.join(e.unset)})"
        parts.append(f"{who}: {e.item} {amount}{against}{needs}")
    return "; ".join(parts)


def signed(book: Rulebook, item: str) -> bool:
    """Whether the item's amounts are written with their sign (+8, −2): a change, a payment, a
    score. ``signed: false`` for a count written as it is (bridge: the tricks taken, 9)."""
    return next((i.get("signed", True) is not False for i in book.score.get("items") or []
                 if i.get("id") == item), True)


def _num(value, with_sign: bool = True) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, (int, float)):
        return str(value)
    return f"{value:+g}" if with_sign else f"{value:g}"
