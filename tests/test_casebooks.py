"""Every casebook case of every shipped rulebook, one test each: a case in, its ruling out."""
import pytest

from expert.casebook import run_case
from expert.rulebook import list_games, load_rulebook
from expert.ruler import Ruler

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
