"""`referee check` works out which provisions each casebook case applies with the analyses'
Evaluator (``checks.standing_provisions``), not the Rete engine: it must say exactly what the
Ruler's ruling says, on every shipped casebook case it does not hand to the Ruler."""
import pytest

from referee.expert.authoring.analysis import Analysis
from referee.expert.authoring.checks import _applied, standing_provisions
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.from_cards import answers_from_cards, merge
from referee.expert.language.answers import check_all
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import load_rulebook


@pytest.mark.parametrize("game", ["preferans", "bridge", "skat", "ulti"])
def test_the_evaluator_applies_what_the_ruler_applies(game):
    book = load_rulebook(game)
    ruler = Ruler(book)
    ev = Analysis(book, ruler).ev
    compared = handed = 0
    for case in book.cases:
        try:
            answers = check_all(case.answers, book, case.file, case.line)
            derived = answers_from_cards(book, case.cards, case.file, case.line)
        except RefereeError:
            continue
        answers, sources = merge(answers, derived)
        fast = standing_provisions(ev, answers, ruler.compiled_for(answers))
        if fast is None:
            handed += 1
            continue
        assert fast == _applied(ruler.rule(answers, case.header, sources)), case.name
        compared += 1
    assert compared > 0.85 * len(book.cases)


def test_a_keep_first_production_is_left_to_the_ruler():
    book = load_rulebook("skat")
    ev = Analysis(book).ev
    case = next(c for c in book.cases if isinstance(c.answers.get("claim"), list)
                and len(c.answers["claim"]) >= 2 and "order" in c.answers)
    assert standing_provisions(ev, check_all(case.answers, book)) is None


@pytest.mark.parametrize("game", ["skat", "bridge"])
def test_a_case_unit_reads_every_production_its_ruling_fires(game):
    """The check's cache keys a case by the productions it reads (``Ruler.compiled_for``); every
    production the ruling fires must be among them, or an edit to it leaves the case's cached
    coverage stale (``Ruler.reads`` left out those that only read a fact another derives: 153
    skat cases fired such a production)."""
    book = load_rulebook(game)
    ruler = Ruler(book)
    for case in book.cases:
        if case.cards:
            continue
        ruling = ruler.rule(case.answers)
        fired = {s["production"] for s in ruling.trail}
        assert fired <= set(ruler.compiled_for(case.answers)), case.name
