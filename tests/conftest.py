import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "knowledge"

# A suite started as a background job of a non-interactive shell (`nohup pytest &`) inherits
# SIGINT ignored, and so would every process the tests start: the Ctrl-C tests (an interview,
# `referee serve`, a register save interrupted) would then wait for an exit that never comes.
# A handler in this process is reset to the default in its children, so they see Ctrl-C again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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


_SHIPPED_CHECKS: dict = {}


def shipped_check(game: str):
    """`referee check` of a shipped rulebook, run once per test session (it is the slowest thing
    the suite does; test_analysis and test_knowledge both read it)."""
    if game not in _SHIPPED_CHECKS:
        import os
        from referee.expert.authoring.checks import check_game
        # computed in full, as conftest's autouse fixture has every check do
        os.environ["REFEREE_NO_CHECK_CACHE"] = "1"
        try:
            _SHIPPED_CHECKS[game] = check_game(game)
        finally:
            os.environ.pop("REFEREE_NO_CHECK_CACHE", None)
    return _SHIPPED_CHECKS[game]
