"""Mutation testing of the casebooks: does `referee test` (or `referee check`) notice a rule
author's single mistake?

Each mutant is a copy of one rulebook, in memory, with one fault in one production: an amount, a
seat, an effect, a condition literal's value, a comparison, an override dropped or reversed, a
finding's kind, a citation removed or changed, a keep_first among/except entry dropped. Each is
run through the casebook (as `referee test` does: the loader's validation, then every case) and,
when the casebook lets it through, through everything `referee check` does; it is **caught**
when the casebook fails (resp. check reports an error the unchanged rulebook does not have).
Citations and kinds are mutated on findings only: a derive production's show only in the trail.

A mutant neither notices is searched for answers that tell it apart from the original: the
reachable answers to the questions its production reads (gates applied, as in `referee check`)
are enumerated, and wherever either copy's production fires both rulings are compared. Found:
the mutant is **missed**, and the answers are printed (a case to add). The whole space searched
without a difference: **equivalent** (no reachable answers distinguish it; listed with the size
of the space). The search bounded before covering the space: **undecided** (counted as missed).
Before sampling, ``prove`` tries to show equivalence with `referee check`'s unreachable analysis
(which proves rather than samples): the original's and the mutant's conditions differ on no
reachable answers; an override between two productions that never fire together; a penalty
never shown because an overriding production always fires with it. Proved: **equivalent**,
with the proof's reason.

    python bench/mutate.py                   # seeded sample: 8 mutants per class, casebook + check
    python bench/mutate.py --per-class 30 --seed 1 --jobs 2
    python bench/mutate.py --full            # every mutant (thousands; hours with check)
    python bench/mutate.py --no-check        # the casebook only (seconds per mutant)
    python bench/mutate.py --json out.json   # every mutant's outcome, for comparing runs
    python bench/mutate.py --classes keep_first --per-class 12 --no-search   # triage: which are caught

Rates leave the equivalent mutants out: caught / (mutants - equivalent).
"""
from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.expert.authoring.analysis.space import Evaluator  # noqa: E402
from referee.expert.language import conditions as cond  # noqa: E402
from referee.expert.language.errors import RefereeError  # noqa: E402
from referee.expert.language.finding_kinds import NOT_RULED_KINDS  # noqa: E402
from referee.expert.language.model import FINDING_KINDS  # noqa: E402
from referee.expert.language.problems import Problems  # noqa: E402
from referee.expert.language.rulebook import list_games, load_rulebook  # noqa: E402
from referee.expert.language.validate import validate  # noqa: E402

CLASSES = ("amount", "seat", "effect", "literal", "comparison", "override", "kind", "citation",
           "keep_first")

# the kind an author might write by mistake instead of each kind
KIND_SWAP = {"violation": ["rectification", "no-violation"], "violation-no-penalty": ["no-violation"],
             "rectification": ["violation"], "no-violation": ["violation-no-penalty"],
             "forfeited": ["no-violation"], "undecided": ["no-violation"], "settlement": ["no-violation"]}
OP_SWAP = {"ge": "gt", "gt": "ge", "le": "lt", "lt": "le"}

SEARCH_RULINGS = 300       # rulings compared per mutant before the search gives up (undecided)


@dataclass
class Mutant:
    cls: str
    game: str
    production: str
    what: str
    index: int = 0                 # position in the game's mutant list (rebuilt in workers)
    outcome: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.game}:{self.production}: {self.what}"


# --- the faults ------------------------------------------------------------------------------

def _answer_literals(c) -> list:
    return [lit for lit in cond.literals(c) if isinstance(lit, cond.AnswerTest)]


def _replace_literal(c, n: int, new):
    """The condition with its n-th answer literal (in ``literals`` order) replaced by ``new``."""
    counter = [0]

    def walk(node):
        if isinstance(node, (cond.All, cond.Any_)):
            parts = tuple(walk(p) for p in node.parts)
            return type(node)(parts)
        if isinstance(node, cond.Not):
            return cond.Not(walk(node.part))
        if isinstance(node, cond.AnswerTest):
            i = counter[0]
            counter[0] += 1
            return new if i == n else node
        return node
    return walk(c)


def _other_value(book, lit):
    """Another value the question allows, in place of the literal's (None: no other)."""
    q = book.questions.get(lit.question)
    if q is None:
        return None
    if q.type == "yesno":
        return not lit.value
    if q.type == "seat":
        allowed = list(q.seats or book.seat_ids)
    elif q.type == "order" and q.values_from in book.questions:
        allowed = book.questions[q.values_from].allowed()
    else:
        allowed = q.allowed()
    if lit.value not in allowed or len(allowed) < 2:
        return None
    return allowed[(allowed.index(lit.value) + 1) % len(allowed)]


# mutants that are equivalent by construction, with the argument: (game, production, what) -> why
static: dict[tuple, str] = {}


def mutants_of(book) -> list[tuple[Mutant, callable]]:
    """Every single fault of the rulebook, with the function that makes it on a copy."""
    out: list[tuple[Mutant, callable]] = []

    def add(cls, p, what, fn):
        out.append((Mutant(cls, book.game, p.id, what), fn))

    seats = book.seat_ids
    effects = list(book.effects)
    finding_ids = {p.id for p in book.productions if p.action == "finding"}
    by_id = {p.id: p for p in book.productions}
    for p in book.productions:
        pid = p.id
        if p.action == "finding":
            # what a finding says (a derive production's citations and kind show only in the trail)
            pen = p.finding.get("penalty") or []
            for i, e in enumerate(pen):
                amount = e.get("amount")
                if isinstance(amount, (int, float)) and not isinstance(amount, bool):
                    new = amount + 1
                elif amount is not None:
                    new = {"add": [amount, 1]}
                else:
                    new = None
                if new is not None:
                    add("amount", p, f"penalty[{i}].amount {json.dumps(amount)} -> {json.dumps(new)}",
                        lambda b, pid=pid, i=i, new=new: _set_penalty(b, pid, i, "amount", new))
                player = e.get("player")
                if isinstance(player, str) and player in seats:
                    newp = seats[(seats.index(player) + 1) % len(seats)]
                elif isinstance(player, dict) and "other_than" in player:
                    newp = dict(player, other_than=list(player["other_than"])[1:])
                    dropped = list(player["other_than"])[:1]
                    if dropped and isinstance(dropped[0], str) and dropped[0] not in player.get("among", []):
                        static[(book.game, pid, f"penalty[{i}].player {json.dumps(player)} -> {json.dumps(newp)}")] = (
                            f"the seat dropped from other_than, {dropped[0]}, is not among "
                            f"{player.get('among')}: the same seat remains whatever the answers")
                else:
                    newp = {"lho_of": player}
                add("seat", p, f"penalty[{i}].player {json.dumps(player)} -> {json.dumps(newp)}",
                    lambda b, pid=pid, i=i, newp=newp: _set_penalty(b, pid, i, "player", newp))
                eff = e.get("effect")
                if eff in effects and len(effects) > 1:
                    newe = effects[(effects.index(eff) + 1) % len(effects)]
                    add("effect", p, f"penalty[{i}].effect {eff} -> {newe}",
                        lambda b, pid=pid, i=i, newe=newe: _set_penalty(b, pid, i, "effect", newe))
            kind = p.finding.get("kind")
            for new_kind in KIND_SWAP.get(kind, []):
                add("kind", p, f"kind {kind} -> {new_kind}",
                    lambda b, pid=pid, k=new_kind: b.production(pid).finding.__setitem__("kind", k))
        for n, lit in enumerate(_answer_literals(p.when)):
            q = book.questions.get(lit.question)
            if q is None:
                continue
            if lit.op in ("is", "has"):
                v = _other_value(book, lit)
                if v is not None:
                    new = cond.AnswerTest(lit.question, lit.op, v)
                    add("literal", p, f"{{q: {lit.question}, {lit.op}: {lit.value}}} -> {v}",
                        lambda b, pid=pid, n=n, new=new: _set_when(b, pid, n, new))
            elif lit.op == "in" and len(lit.value) > 1:
                for drop in lit.value:
                    new = cond.AnswerTest(lit.question, "in", tuple(x for x in lit.value if x != drop))
                    add("literal", p, f"{{q: {lit.question}, in: {list(lit.value)}}} without {drop}",
                        lambda b, pid=pid, n=n, new=new: _set_when(b, pid, n, new))
            elif lit.op in OP_SWAP:
                new = cond.AnswerTest(lit.question, OP_SWAP[lit.op], lit.value)
                add("comparison", p, f"{{q: {lit.question}, {lit.op}: {lit.value}}} -> {new.op}",
                    lambda b, pid=pid, n=n, new=new: _set_when(b, pid, n, new))
                step = -1 if lit.op in ("ge", "gt") else 1     # widen by one: the value beyond
                new = cond.AnswerTest(lit.question, lit.op, lit.value + step)
                add("comparison", p, f"{{q: {lit.question}, {lit.op}: {lit.value}}} -> {lit.value + step}",
                    lambda b, pid=pid, n=n, new=new: _set_when(b, pid, n, new))
            elif lit.op == "count_ge":
                new = cond.AnswerTest(lit.question, "count_ge", lit.value + 1)
                add("comparison", p, f"{{q: {lit.question}, count_ge: {lit.value}}} -> {lit.value + 1}",
                    lambda b, pid=pid, n=n, new=new: _set_when(b, pid, n, new))
        for loser in p.overrides:
            add("override", p, f"overrides {loser} dropped",
                lambda b, pid=pid, loser=loser: b.production(pid).overrides.remove(loser))
            add("override", p, f"overrides {loser} reversed",
                lambda b, pid=pid, loser=loser: _reverse(b, pid, loser))
        for i, c in enumerate(p.cites if p.action == "finding" else []):
            if len(p.cites) > 1:
                add("citation", p, f"cites {c} removed",
                    lambda b, pid=pid, c=c: b.production(pid).cites.remove(c))
            sibling = _sibling(book, c, p.cites)
            if sibling:
                add("citation", p, f"cites {c} -> {sibling}",
                    lambda b, pid=pid, i=i, s=sibling: b.production(pid).cites.__setitem__(i, s))
        if p.action == "keep_first":
            for key in ("among", "except"):
                for other in getattr(p, f"keep_first_{key}") or []:
                    kind = (by_id[other].finding or {}).get("kind") if other in by_id else None
                    if kind in NOT_RULED_KINDS:
                        static[(book.game, pid, f"keep_first {key} without {other}")] = (
                            f"{other}'s finding is {kind}, a kind that never competes under keep_first: "
                            f"listing it or not changes no ruling")
                    add("keep_first", p, f"keep_first {key} without {other}",
                        lambda b, pid=pid, key=key, o=other:
                        getattr(b.production(pid), f"keep_first_{key}").remove(o))
            if p.keep_first_except is not None or p.keep_first_among is not None:
                key = "except" if p.keep_first_except is not None else "among"
                present = set(getattr(p, f"keep_first_{key}"))
                extra = next((q.id for q in book.productions if q.id in finding_ids
                              and q.id not in present and q.finding.get("kind") in
                              ("violation", "violation-no-penalty", "rectification")), None)
                if extra:
                    add("keep_first", p, f"keep_first {key} with {extra} added",
                        lambda b, pid=pid, key=key, o=extra:
                        getattr(b.production(pid), f"keep_first_{key}").append(o))
    for i, (m, _) in enumerate(out):
        m.index = i
    assert {m.cls for m, _ in out} <= set(CLASSES)
    return out


def _set_penalty(book, pid, i, key, value):
    entry = dict(book.production(pid).finding["penalty"][i])
    entry[key] = value
    book.production(pid).finding["penalty"][i] = entry


def _set_when(book, pid, n, new):
    p = book.production(pid)
    p.when = _replace_literal(p.when, n, new)


def _reverse(book, winner, loser):
    book.production(winner).overrides.remove(loser)
    book.production(loser).overrides.append(winner)


def _sibling(book, pid, cites):
    """Another provision of the same article (else of the rulebook) the production does not cite."""
    prov = book.provisions.get(pid)
    same = [x for x, pr in book.provisions.items()
            if prov and pr.file == prov.file and x not in cites]
    others = same or [x for x in book.provisions if x not in cites]
    return others[0] if others else None


# --- running one mutant ------------------------------------------------------------------------

_BOOKS: dict = {}


def _book(game):
    if game not in _BOOKS:
        book = load_rulebook(game)
        _BOOKS[game] = (book, mutants_of(book))
    return _BOOKS[game]


def signature(ruling) -> tuple:
    """What a ruling says, for comparing two of them (not the trail)."""
    findings = sorted((f.production, f.kind, tuple(f.provisions), f.offender or "",
                       tuple(sorted((p.player, p.effect, str(p.amount), p.against or "")
                                    for p in f.penalty))) for f in ruling.findings)
    aside = sorted((n.production, n.by, n.cause) for n in ruling.not_ruled)
    return (tuple(findings), tuple(aside), ruling.no_infraction)


def mutate(game: str, index: int):
    original, mutants = _book(game)
    mutant, fn = mutants[index]
    book = copy.deepcopy(original)
    fn(book)
    return original, book, mutant


def run_mutant(args) -> dict:
    game, index, with_check, baseline_errors, search = args
    from referee.expert.engine.ruler import Ruler
    original, book, mutant = mutate(game, index)
    started = time.monotonic()
    out: dict = {"class": mutant.cls, "game": game, "production": mutant.production,
                 "what": mutant.what}
    problems = Problems()
    validate(book, problems)
    loader = [p.message for p in problems.errors]
    ruler = None
    if loader:
        out["test"] = f"refused by the loader: {loader[0]}"
    else:
        try:
            ruler = Ruler(book)
        except RefereeError as exc:
            out["test"] = f"does not compile: {exc.message}"
    if ruler is not None:
        try:
            failed, ran = first_failure(book, ruler, mutant)
            out["cases_run"] = ran
            out["test"] = (f"case {failed.case.name!r} fails ({ran} of {len(book.cases)} run): "
                           f"{failed.differences[0]}" if failed else None)
        except Exception as exc:          # a crash is noticed too
            out["test"] = f"crashed: {type(exc).__name__}: {exc}"
    if with_check and not out["test"]:          # check only what the casebook lets through
        from referee.expert.authoring.checks import check_book
        problems = Problems()
        validate(book, problems)
        check_book(book, problems)
        new = sorted({p.message for p in problems.errors} - set(baseline_errors.get(game, [])))
        out["check"] = new[0] if new else None
    if not out["test"] and not out.get("check"):
        reason = static.get((game, mutant.production, mutant.what))
        reason = reason or prove(original, book, mutant)      # cheap: also with --no-search
        out.update({"verdict": "equivalent", "searched": reason} if reason
                   else distinguish(original, book, mutant) if search
                   else {"verdict": "missed", "note": "not searched (--no-search)"})
    out["seconds"] = round(time.monotonic() - started, 2)
    return out


def first_failure(book, ruler, mutant: Mutant):
    """The first failing case of the mutated rulebook's casebook, and how many cases ran.

    A casebook that catches a mutant usually does so in a case about the mutated production, so
    those run first (the cases answering its questions, or naming its provisions or the
    productions it competes with), and the run stops at the first failure: a caught mutant costs
    a few cases instead of the whole casebook. A mutant no case catches still runs every case."""
    from referee.expert.authoring.casebook import run_case
    from referee.expert.language.expressions import questions_in_finding
    p = book.production(mutant.production)
    related = set(p.overrides) | {q.id for q in book.productions if p.id in q.overrides}
    related |= set(p.keep_first_among or []) | set(p.keep_first_except or [])
    questions = {lit.question for lit in _answer_literals(p.when)}
    if p.finding:
        questions |= questions_in_finding(p.finding)
    if p.action == "keep_first":
        questions.add(p.keep_first)
    provisions = set(p.cites)
    for r in related:
        if r in {q.id for q in book.productions}:
            provisions |= set(book.production(r).cites)

    def score(case) -> int:
        named = json.dumps(case.expect, default=str)
        answered = set(case.answers) | {k for e in (case.events or []) if isinstance(e, dict) for k in e}
        return (4 * sum(pr in named for pr in provisions)
                + sum(q in answered for q in questions))
    order = sorted(book.cases, key=score, reverse=True)      # stable: casebook order among equals
    for ran, case in enumerate(order, 1):
        r = run_case(ruler, case)
        if not r.passed:
            return r, ran
    return None, len(order)


def distinguish(original, book, mutant: Mutant) -> dict:
    """Search reachable answers on which the original and the mutant rule differently."""
    from referee.expert.authoring.analysis.space import Evaluator, Space, fill_example
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language import exclusions
    from referee.expert.language.expressions import questions_in_finding
    pid = mutant.production
    p_o, p_m = original.production(pid), book.production(pid)
    watch = {pid}
    conditions = [p_o.when, p_m.when]
    related = set(p_o.overrides) | set(p_m.overrides)
    related |= {q.id for q in original.productions if pid in q.overrides}
    if p_o.action == "keep_first":
        related |= set(p_o.keep_first_among or []) | set(p_o.keep_first_except or [])
        related |= set(p_m.keep_first_among or []) | set(p_m.keep_first_except or [])
        conditions.append(cond.AnswerTest(p_o.keep_first, "answered", True))
    for r in related:
        watch.add(r)
        conditions.append(original.production(r).when)
    ev_o, ev_m = Evaluator(original), Evaluator(book)
    try:
        ruler_o, ruler_m = Ruler(original), Ruler(book)
    except RefereeError as exc:
        return {"verdict": "missed", "example": None, "note": str(exc)}
    reads = set()
    for q in (p_o, p_m):
        if q.finding:
            reads |= questions_in_finding(q.finding)
    space = Space.build(original, ev_o, conditions + [cond.AnswerTest(q, "answered", True)
                                                       for q in sorted(reads) if q in original.questions])
    compared = 0
    for answers in space:
        fo, fm = ev_o.fired(answers), ev_m.fired(answers)
        # a keep_first production changes a ruling only where two findings compete
        if fo == fm and not (fo & watch) and not (p_o.action == "keep_first" and len(fo) > 1):
            continue
        if exclusions.conflicts(original, answers):
            continue          # the interview refuses these answers (a question's impossible:)
        compared += 1
        full = fill_example(original, ev_o, answers, [x for x in (p_o, p_m) if x.finding])
        for a in (answers, full):
            if a is full and exclusions.conflicts(original, full):
                continue
            if signature(ruler_o.rule(a)) != signature(ruler_m.rule(a)):
                return {"verdict": "missed", "example": a}
        if compared >= SEARCH_RULINGS:
            return {"verdict": "undecided", "searched": f"{compared} rulings compared, stopped"}
    if space.sampled:
        return {"verdict": "undecided", "searched": space.describe()}
    return {"verdict": "equivalent", "searched": space.describe()}


def never_holds(book, condition) -> str | None:
    """How ``condition`` is proved never to hold on answers the interview can reach, or None
    (it holds somewhere, or the search could not cover the space). The proof is `referee
    check`'s unreachable analysis on a probe production with that condition: the contradiction
    in every alternative (gates included), else the walk over its unfolded alternatives, which
    ends only when it has covered them."""
    from referee.expert.authoring.analysis import Analysis
    from referee.expert.authoring.analysis import unreachable
    from referee.expert.language.model import Production
    probe_id = "__mutate_probe__"
    copy_ = copy.copy(book)                  # the productions list is replaced, nothing else
    copy_.__dict__.pop("_logic", None)
    probe = Production(id=probe_id, article="", cites=[], when=condition, action="derive",
                       derive=probe_id)
    copy_.productions = list(book.productions) + [probe]
    ctx = Analysis(copy_)
    ev = ctx.ev
    if ev.alts.get(probe_id) is None:
        return None
    dead = unreachable.static_dead(copy_, ev)
    if probe_id in dead:
        return "; ".join(sorted(set(dead[probe_id])))[:300]
    problems = Problems()
    if unreachable._search(copy_, ev, problems, probe, ctx.unfolder, {}, answered=True):
        return "no reachable answers satisfy it (every unfolded alternative walked)"
    return None


AGREE_LIMIT = 200_000      # combinations tried by ``agree`` before it gives up


def agree(book, first, second) -> str | None:
    """How two conditions are shown to be the same function of what they read, or None.

    Every combination of the answers they read is tried (each question's representative values,
    qtypes: a number's thresholds and the values beside them, so every integer answer falls in
    a tried class; unanswered too), with every fact and ``{findings: none}`` free: the same
    truth value everywhere proves that no answers, reachable or not, tell them apart. This
    settles what the DNF of their difference cannot (a negated disjunction of many branches)."""
    from referee.expert.authoring.analysis.space import base_domain
    by_q: dict[str, list] = {}
    facts: set[str] = set()
    flags = []
    for c in (first, second):
        for lit in cond.literals(c):
            if isinstance(lit, cond.AnswerTest):
                by_q.setdefault(lit.question, []).append(lit)
            elif isinstance(lit, cond.FactTest):
                facts.add(lit.name)
            else:
                flags = [False, True]
    domains = []
    for qid, lits in sorted(by_q.items()):
        if qid not in book.questions:
            return None
        values = base_domain(book, qid, lits)
        if values is None:
            return None
        domains.append([None] + list(values))
    facts_ = sorted(facts)
    size = 1
    for d in domains + [[0, 1]] * (len(facts_) + (1 if flags else 0)):
        size *= len(d)
    if size > AGREE_LIMIT:
        return None
    qids = sorted(by_q)
    for values in itertools.product(*domains):
        answers = dict(zip(qids, values))
        for truth in itertools.product((False, True), repeat=len(facts_) + (1 if flags else 0)):
            on = {f for f, t in zip(facts_, truth) if t}
            nf = bool(truth[-1]) if flags else True

            def lit(l, answers=answers, on=on, nf=nf):
                return Evaluator.literal(l, answers, on, nf)      # the check's own two-valued reading
            if cond.evaluate(first, lit) != cond.evaluate(second, lit):
                return None
    return (f"the two conditions agree on every answer to {', '.join(qids)} "
            f"({size} combinations, facts free)")


def prove(original, book, mutant: Mutant) -> str | None:
    """Why the mutant is equivalent, proved rather than sampled, or None.

    - a condition changed (literal, comparison): the two conditions are the same function of
      what they read (``agree``), or differ on no reachable answers (``never_holds``);
    - an override dropped or reversed: the two productions never fire on the same answers, and
      neither settles the deal (which sets aside across events);
    - what a finding's penalty says (amount, seat, effect): the production never fires without
      one of the productions that override it (which set its finding aside, penalty unseen)."""
    pid = mutant.production
    p_o, p_m = original.production(pid), book.production(pid)
    if mutant.cls in ("literal", "comparison"):
        o, m = p_o.when, p_m.when
        why = agree(original, o, m)
        if why:
            return f"proved: {why}"
        why = never_holds(original, cond.Any_((cond.All((o, cond.Not(m))), cond.All((m, cond.Not(o))))))
        if why:
            return f"proved: the two conditions differ only where {why}"
    if mutant.cls == "override":
        # an override acts where both findings stand in one event, or (a finding that settles
        # the deal: events.py) across events: never together and neither settles the deal,
        # dropping or reversing it changes no ruling
        loser = original.production(mutant.what.split()[1])
        settles = [x.id for x in (p_o, loser) if (x.finding or {}).get("settles_deal")]
        if not settles:
            why = never_holds(original, cond.All((p_o.when, loser.when)))
            if why:
                return f"proved: {pid} and {loser.id} never fire on the same answers ({why})"
    if mutant.cls in ("amount", "seat", "effect") and p_o.finding:
        winners = [q for q in original.productions if pid in q.overrides]
        if winners:
            c = cond.All((p_o.when,) + tuple(cond.Not(w.when) for w in winners))
            why = never_holds(original, c)
            if why:
                return (f"proved: it never fires without one of {', '.join(w.id for w in winners)}, "
                        f"which set its finding aside ({why})")
    return None


# --- the report ---------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-class", type=int, default=8, help="mutants sampled per fault class")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--full", action="store_true", help="every mutant, not a sample")
    ap.add_argument("--no-check", action="store_true", help="run the casebook only")
    ap.add_argument("--games", nargs="*", default=None)
    ap.add_argument("--classes", nargs="*", default=None, choices=CLASSES, metavar="CLASS",
                    help=f"sample only these fault classes ({', '.join(CLASSES)})")
    ap.add_argument("--no-search", action="store_true",
                    help="do not search answers telling an uncaught mutant apart (it counts as missed unless "
                         "proved equivalent)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", dest="json_out", default=None, help="write every outcome here")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--report", default=None, metavar="FILE.json",
                    help="print the table of an earlier run's --json (equivalences by construction applied)")
    args = ap.parse_args(argv)
    if args.report:
        results = json.loads(Path(args.report).read_text(encoding="utf-8"))
        for g in {r["game"] for r in results}:
            _book(g)
        for r in results:
            reason = static.get((r["game"], r["production"], r["what"]))
            if reason and not r.get("test") and not r.get("check"):
                r.update(verdict="equivalent", searched=reason, example=None)
        print(report(results, any("check" in r for r in results), sum(r.get("seconds", 0) for r in results)))
        return 0

    games = args.games or list_games()
    by_class: dict[str, list[Mutant]] = defaultdict(list)
    for g in games:
        for m, _ in _book(g)[1]:
            by_class[m.cls].append(m)
    rng = random.Random(args.seed)
    chosen: list[Mutant] = []
    for cls in args.classes or CLASSES:
        pool = by_class.get(cls, [])
        chosen += pool if args.full else rng.sample(pool, min(args.per_class, len(pool)))
    print(f"{sum(map(len, by_class.values()))} single-fault mutants of {', '.join(games)}; "
          f"running {len(chosen)}" + ("" if args.full else f" (seed {args.seed}, {args.per_class} per class)"),
          file=sys.stderr)
    if args.list:
        for m in chosen:
            print(f"{m.cls:11} {m.key}")
        return 0
    baseline: dict[str, list[str]] = {}
    if not args.no_check:
        from referee.expert.authoring.checks import check_game
        baseline = {g: [p.message for p in check_game(g).errors] for g in games}
    jobs = [(m.game, m.index, not args.no_check, baseline, not args.no_search) for m in chosen]
    started = time.monotonic()
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(args.jobs) as pool:
            results = []
            for i, r in enumerate(pool.imap(run_mutant, jobs), 1):
                results.append(r)
                _progress(i, len(jobs), r)
    else:
        results = []
        for i, j in enumerate(jobs, 1):
            results.append(run_mutant(j))
            _progress(i, len(jobs), results[-1])
    print(report(results, not args.no_check, time.monotonic() - started))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1, default=str, ensure_ascii=False),
                                       encoding="utf-8")
    return 0


def _progress(i, n, r):
    if sys.stderr.isatty():
        print(f"\r{i}/{n} {r['class']:11}", end="" if i < n else "\n", file=sys.stderr, flush=True)
    elif i % 10 == 0 or i == n:
        print(f"{i}/{n} mutants run", file=sys.stderr, flush=True)


def verdict(r: dict) -> str:
    if r.get("test"):
        return "test"
    if r.get("check"):
        return "check"
    return r.get("verdict", "missed")


def report(results: list[dict], with_check: bool, seconds: float) -> str:
    rows = []
    head = (f"| class | mutants | equivalent | caught by test | "
            + ("caught by test or check | " if with_check else "") + "missed |")
    rows += [head, "|" + "---|" * (head.count("|") - 1)]
    for cls in CLASSES + ("all",):
        rs = results if cls == "all" else [r for r in results if r["class"] == cls]
        if not rs:
            continue
        v = Counter(verdict(r) for r in rs)
        n, eq = len(rs), v["equivalent"]
        live = n - eq
        by_test = v["test"]
        either = by_test + v["check"]
        missed = v["missed"] + v["undecided"]

        def pct(k):
            return f"{k} ({100 * k / live:.0f} %)" if live else f"{k}"
        rows.append(f"| {cls} | {n} | {eq} | {pct(by_test)} | " + (f"{pct(either)} | " if with_check else "")
                    + f"{missed} |")
    out = ["\n".join(rows), ""]
    missed = [r for r in results if verdict(r) in ("missed", "undecided")]
    if missed:
        out.append("Missed (a case that tells the mutant apart, where the search found one):")
        for r in missed:
            ex = r.get("example")
            out.append(f"- {r['class']}: {r['game']}:{r['production']}: {r['what']}"
                       + (f"\n    answers: {json.dumps(ex, ensure_ascii=False, default=str)}" if ex
                          else f" ({r.get('verdict')}: {r.get('searched') or r.get('note')})"))
    equivalent = [r for r in results if verdict(r) == "equivalent"]
    if equivalent:
        out.append("Equivalent (no reachable answers tell them apart):")
        for r in equivalent:
            out.append(f"- {r['class']}: {r['game']}:{r['production']}: {r['what']} ({r['searched']})")
    out.append(f"{len(results)} mutants in {seconds:.0f} s")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
