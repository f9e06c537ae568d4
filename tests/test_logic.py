"""expert/language/logic.py: one reading of the condition language for the compiler, the
interview and the analyses. The evaluators it replaced are kept here, verbatim in substance, as
the reference: on every casebook case of every shipped rulebook the new reading gives the same
values. The Ruler's engines per group of productions give the same rulings as one engine."""
import random

import pytest

from referee.expert.language import conditions as cond
from referee.expert.language.answers import check_all, is_unknown
from referee.expert.language.logic import Logic, cycles, producers, strata
from referee.expert.language.rulebook import list_games, load_rulebook
from referee.expert.interview.relevance import _State, not_asked
from referee.expert.authoring.analysis.space import Evaluator
from referee.expert.engine.ruler import Ruler

BOOKS = {game: load_rulebook(game) for game in list_games()}
CASES = [(game, n) for game, book in sorted(BOOKS.items()) for n in range(len(book.cases))]


def _answers(game, n):
    book = BOOKS[game]
    return check_all(book.cases[n].answers, book)


# --- the evaluators as they were before logic.py ------------------------------------------------

def old_interview_facts(state):
    """relevance._State._facts before: a fixpoint over every fact."""
    facts = {}
    pending = dict(state.producers)
    old_facts, state.facts = state.facts, facts
    try:
        for _ in range(len(pending) + 1):
            changed = False
            for name, prods in pending.items():
                vals = [cond.evaluate(p.when, state.literal) for p in prods]
                new = True if True in vals else (None if None in vals else False)
                if facts.get(name, "unset") != new:
                    facts[name] = new
                    changed = True
            if not changed:
                break
    finally:
        state.facts = old_facts
    return facts


def old_evaluator_facts3(ev, answers, decided, derivers):
    """space.Evaluator.facts3 before."""
    facts = {}

    def lit(l):
        if isinstance(l, cond.AnswerTest):
            if l.question not in decided:
                return None
            v = answers.get(l.question)
            if is_unknown(v):
                # added with answers 'unknown' (issue 13), which the old evaluator predates: an
                # answered but open question, as knowledge/README.md defines it
                return True if l.op == "answered" else None
            return False if v is None else l.holds(v)
        if isinstance(l, cond.FactTest):
            return facts.get(l.name, False if l.name not in ev.producers else None)
        return None

    for p in derivers:
        v = cond.evaluate(p.when, lit)
        old = facts.get(p.derive, False)
        facts[p.derive] = True if (v is True or old is True) else (None if None in (v, old) else False)
    return facts


def old_strata(book):
    makers = {}
    for p in book.productions:
        if p.action == "derive":
            makers.setdefault(p.derive, []).append(p)
    result = {}

    def level(p):
        if p.id not in result:
            result[p.id] = max([level(q) + 1 for name in cond.facts_read(p.when)
                                for q in makers.get(name, [])], default=0)
        return result[p.id]

    for p in book.productions:
        level(p)
    return result


# --- tests ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(BOOKS))
def test_producers_and_strata_are_those_the_compiler_used(game):
    book = BOOKS[game]
    assert strata(book.productions) == old_strata(book)
    assert Logic.of(book).strata() == old_strata(book)
    assert {k: [p.id for p in v] for k, v in producers(book.productions).items()} == {
        name: [p.id for p in book.productions if p.action == "derive" and p.derive == name]
        for name in {p.derive for p in book.productions if p.action == "derive"}}
    assert cycles(book.productions) == []


@pytest.mark.parametrize("case", CASES)
def test_three_valued_reading_matches_the_old_evaluators(case):
    game, n = case
    book = BOOKS[game]
    answers = _answers(game, n)
    # the interview: every fact of the state, on the case's answers and on half of them
    rng = random.Random(n)
    half = {q: v for q, v in answers.items() if rng.random() < 0.5}
    for given in (answers, half):
        state = _State(book, given, Logic.of(book).producers)
        # both read the {findings: none} of the state as it stands before the facts are made
        expected = old_interview_facts(state)
        state._facts()
        assert state.facts == expected, (book.cases[n].name, given)
    # the analyses' evaluator: every production's three-valued value, some questions undecided
    ev = Evaluator(book)
    decided = set(book.questions) - {q for q in book.questions if rng.random() < 0.3}
    given = {q: v for q, v in answers.items() if q in decided}
    facts = ev.facts3(given, decided, ev.derivers)
    assert facts == old_evaluator_facts3(ev, given, decided, ev.derivers)
    lit = ev._literal(given, decided, facts)
    for p in book.productions:
        assert ev._value3(p.id, lit) == cond.evaluate(p.when, lit), p.id


@pytest.mark.parametrize("case", CASES)
def test_the_cut_down_rulebook_asks_what_the_whole_one_asks(case):
    game, n = case
    book = BOOKS[game]
    answers = _answers(game, n)
    assert not_asked(Logic.of(book).view(answers), answers) == not_asked(book, answers)


@pytest.mark.parametrize("game", sorted(BOOKS))
def test_engines_per_group_rule_as_the_whole_rulebook_does(game):
    book = BOOKS[game]
    grouped, whole = Ruler(book), Ruler(book)
    whole.engine = whole.engine                      # every case on the one engine of everything
    for case in book.cases:
        answers = check_all(case.answers, book)
        ruling = grouped.rule(answers)
        assert ruling.to_dict() == whole.rule(answers).to_dict(), case.name
        # what a ruling fires is among what its groups hold
        assert {s["production"] for s in ruling.trail} <= grouped.compiled_for(answers)


def test_a_production_edited_in_place_is_seen(mini):
    from dataclasses import replace
    book = load_rulebook("mini", mini.root.parent)
    first = Logic.of(book)
    p = book.productions[0]
    book.productions[0] = replace(p, when=cond.AnswerTest("game", "is", "pik"))
    assert Logic.of(book) is not first
    assert book.production(p.id).when == cond.AnswerTest("game", "is", "pik")
    with pytest.raises(KeyError):
        book.production("no-such-production")
