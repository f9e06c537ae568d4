from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "knowledge"


@pytest.fixture(scope="session")
def mini():
    from referee.expert.language.rulebook import load_rulebook
    return load_rulebook("mini", FIXTURES)


@pytest.fixture(scope="session")
def mini_ruler(mini):
    from referee.expert.engine.ruler import Ruler
    return Ruler(mini)


@pytest.fixture(autouse=True)
def _register_in_tmp(tmp_path, monkeypatch):
    """Rulings made by tests go to a register of their own, never into the working folder."""
    monkeypatch.setenv("REFEREE_REGISTER", str(tmp_path / "test-register.sqlite"))
    # checks compute everything unless a test turns the cache of check results on
    monkeypatch.setenv("REFEREE_NO_CHECK_CACHE", "1")
