"""Every casebook case of every shipped rulebook, one test each: a case in, its ruling out."""
import pytest

from referee.expert.authoring.casebook import run_case
from referee.expert.language.rulebook import list_games, load_rulebook
from referee.expert.engine.ruler import Ruler

_RULERS = {}


def _ruler(game):
    if game not in _RULERS:
        _RULERS[game] = Ruler(load_rulebook(game))
    return _RULERS[game]


def _cases():
    for game in list_games():
        try:
            book = load_rulebook(game)
        except Exception as exc:  # reported by test_knowledge; keep collection going
            yield pytest.param(game, None, id=f"{game}-does-not-load", marks=pytest.mark.skip(str(exc)))
            continue
        for i, case in enumerate(book.cases):
            yield pytest.param(game, i, id=f"{game}:{case.name}")


@pytest.mark.parametrize("game, index", list(_cases()))
def test_case(game, index):
    ruler = _ruler(game)
    case = ruler.book.cases[index]
    result = run_case(ruler, case)
    assert result.passed, "\n".join(result.differences)


def test_a_case_answering_a_question_the_interview_would_not_ask_fails(mini_ruler):
    from dataclasses import replace
    case = mini_ruler.book.cases[0]                    # early by d1: claim [early]
    assert run_case(mini_ruler, case).passed
    padded = replace(case, answers=dict(case.answers, claim=["bad-game"], game="karo"))
    result = run_case(mini_ruler, padded)
    assert any("answers 'early_turn', which the interview does not ask" in d for d in result.differences)
    assert any("answers 'early_who'" in d for d in result.differences)
