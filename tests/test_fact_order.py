"""Every shipped casebook case gives the same findings whatever order its answers reach the engine.

The Ruler declares answers sorted by question id; here the facts go into the engine in a random
order, so a rulebook whose outcome hangs on which equal-salience rule fires first would show.
"""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.expert.language.answers import check_all
from referee.expert.engine.compiler import Answer, Finding, SetAside
from referee.expert.language.rulebook import list_games, load_rulebook
from referee.expert.engine.ruler import Ruler

RULERS = {game: Ruler(load_rulebook(game)) for game in list_games()}
CASES = [(game, n) for game, ruler in sorted(RULERS.items()) for n in range(len(ruler.book.cases))]


def outcome(ruler, answers, seed):
    book, engine = ruler.book, ruler.engine
    facts = [Answer(id=q, value=tuple(v) if isinstance(v, list) else v)
             for q, v in answers.items() if q in book.questions and book.questions[q].type != "text"]
    if seed is not None:
        random.Random(seed).shuffle(facts)
    engine.reset()
    if facts:
        engine.declare(*facts)
    engine.run()
    kept = [f for f in engine.facts.values() if isinstance(f, (Finding, SetAside))]
    return sorted(repr(sorted(f.as_dict().items(), key=str)) for f in kept)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2 ** 32 - 1))
def test_findings_do_not_depend_on_the_order_answers_are_declared(case, seed):
    game, n = case
    ruler = RULERS[game]
    answers = check_all(ruler.book.cases[n].answers, ruler.book)
    assert outcome(ruler, answers, seed) == outcome(ruler, answers, None), ruler.book.cases[n].name
