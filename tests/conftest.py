from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "knowledge"


@pytest.fixture(scope="session")
def mini():
    from expert.rulebook import load_rulebook
    return load_rulebook("mini", FIXTURES)


@pytest.fixture(scope="session")
def mini_ruler(mini):
    from expert.ruler import Ruler
    return Ruler(mini)
