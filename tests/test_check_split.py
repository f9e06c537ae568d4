"""A re-check after an edit shares its work with a second process (``check_split``) and reports
exactly what one process reports; the refutation walks' verdicts kept between checks
(``kept_walks``) are read where what the walks read is unchanged, and walked again where an edit
changed it."""
import os
import re
import shutil

import pytest

from conftest import ROOT
from referee.expert.authoring import check_split as split_module
from referee.expert.authoring import checks
from referee.expert.authoring.analysis import expand
from referee.expert.authoring.analysis.kept_walks import merged
from referee.expert.authoring.check_jobs import check_games
from referee.expert.authoring.checks import check_game, problem_dict

GAME = "preferans"     # the rulebook whose conflict search an edit sends back to work most
DOLAZ = "08-dolaz.yaml"


def shown(problems) -> tuple:
    return [problem_dict(p) for p in problems.items], list(problems.notes)


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """preferans and the cache of one cold check of it (made once; each test copies both)."""
    base = tmp_path_factory.mktemp("split")
    shutil.copytree(ROOT / "knowledge" / GAME, base / "k" / GAME)
    patch = pytest.MonkeyPatch()
    patch.delenv("REFEREE_NO_CHECK_CACHE", raising=False)
    patch.delenv("REFEREE_NO_CACHE", raising=False)
    patch.setenv("XDG_CACHE_HOME", str(base / "cache"))
    try:
        check_games([GAME], base / "k", jobs=2)
    finally:
        patch.undo()
    return base


@pytest.fixture
def knowledge(checked, tmp_path, monkeypatch):
    shutil.copytree(checked / "k", tmp_path / "k")
    shutil.copytree(checked / "cache", tmp_path / "cache")
    # the cache is per knowledge folder: the copy's results are the original's, renamed
    folder = tmp_path / "cache" / "referee" / "check"
    monkeypatch.delenv("REFEREE_NO_CHECK_CACHE", raising=False)
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from referee.expert.authoring.checkcache import cache_file
    [kept] = [p for p in folder.glob("*.json")]
    kept.rename(cache_file(folder, tmp_path / "k" / GAME))
    return tmp_path / "k"


def _edit(path, pattern: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    changed, n = re.subn(pattern, new, text, count=1)
    assert n == 1, pattern
    path.write_text(changed, encoding="utf-8")


def _dolaz_condition(knowledge) -> None:
    """The edit ``bench/recheck.py`` measures: dolaz's first ``is: true`` among its productions
    made ``is: false`` (48 conflict pairs and 85 cases read it)."""
    path = knowledge / GAME / "articles" / DOLAZ
    text = path.read_text(encoding="utf-8")
    start = text.index("\nproductions:")
    m = re.compile(r"\{q: [\w-]+, is: (true)\}").search(text, start)
    path.write_text(text[:m.start(1)] + "false" + text[m.end(1):], encoding="utf-8")


def test_a_re_check_after_an_edit_is_shared_and_reports_what_one_process_reports(knowledge):
    _dolaz_condition(knowledge)
    shared = check_games([GAME], knowledge, jobs=2)[GAME]
    stats = shared.split["conflicts"]
    # every conflict pair not cached was worked out once, by one of the two processes
    assert stats["shared"] >= 40 and stats["lead"] + stats["helper"] == stats["shared"]
    assert shown(shared) == shown(check_game(GAME, knowledge, cache=False))
    assert any(p.category == "unreachable" for p in shared.errors)      # what the edit did
    # the results of both processes were kept: the next check computes nothing
    again = check_game(GAME, knowledge)
    assert again.cache[1] == 0 and shown(again) == shown(shared)


def test_a_rulebook_whose_logic_is_unchanged_is_checked_in_one_process(knowledge, monkeypatch):
    monkeypatch.setattr(split_module, "check_split", lambda *a: pytest.fail("split an unchanged check"))
    assert check_games([GAME], knowledge, jobs=2)[GAME].cache[1] == 0
    # a reworded finding: nothing an analysis reads changed
    _edit(knowledge / GAME / "articles" / DOLAZ, r"(summary:\s*\{?\s*en: ['\"]?)", r"\1Reworded: ")
    assert check_games([GAME], knowledge, jobs=2)[GAME].cache[1] == 0


def test_a_helper_that_fails_costs_only_time(knowledge, monkeypatch):
    _dolaz_condition(knowledge)
    lead = os.getpid()
    real = checks.casebook_part

    def failing(*args):
        if os.getpid() != lead:
            raise RuntimeError("the helper fails")
        return real(*args)
    monkeypatch.setattr(checks, "casebook_part", failing)
    shared = check_games([GAME], knowledge, jobs=2)[GAME]
    # (a batch the lead reached after the helper was gone is not shared at all)
    assert all(stats["helper"] == 0 for stats in shared.split.values())
    assert shown(shared) == shown(check_game(GAME, knowledge, cache=False))


def _walked(monkeypatch) -> list:
    names: list = []
    real = expand.Unfolder._always_derived

    def counted(self, name, part):
        names.append(name)
        return real(self, name, part)
    monkeypatch.setattr(expand.Unfolder, "_always_derived", counted)
    return names


def test_walks_are_kept_where_what_they_read_is_unchanged(knowledge, monkeypatch):
    walked = _walked(monkeypatch)
    cold = check_game(GAME, knowledge, cache=False)
    assert {"frame-tells", "hand-unplayed"} <= set(walked)        # what the check walks
    # dolaz's edit does not touch how frame-tells or hand-unplayed are derived
    _dolaz_condition(knowledge)
    walked.clear()
    edited = check_game(GAME, knowledge)
    assert walked == [] and edited.cache[1] > 0
    assert shown(edited) == shown(check_game(GAME, knowledge, cache=False))
    assert shown(cold) != shown(edited)


def test_walks_are_done_again_where_an_edit_changed_what_they_read(knowledge, monkeypatch):
    walked = _walked(monkeypatch)
    # hand-unplayed is derived for a pik bought with the talon: made a karo, its walks and those
    # of frame-tells (derived through it) read something else
    _edit(knowledge / GAME / "articles" / DOLAZ,
          r"(- id: hand-unplayed\n(?:.*\n){5}\s*- \{q: game, is: )pik", r"\1karo")
    edited = check_game(GAME, knowledge)
    assert {"frame-tells", "hand-unplayed"} <= set(walked)
    assert shown(edited) == shown(check_game(GAME, knowledge, cache=False))


def test_two_processes_walk_verdicts_are_kept_together():
    mine = {"k1": {"walks": "f", "proved": [["a"]], "disproved": []}, "u": {"value": 1}}
    theirs = {"k1": {"walks": "f", "proved": [["a"], ["b"]], "disproved": [["c"]]},
              "k2": {"walks": "g", "proved": [], "disproved": []}, "v": {"value": 2}}
    both = merged(mine, theirs)
    assert both["k1"] == {"walks": "f", "proved": [["a"], ["b"]], "disproved": [["c"]]}
    assert both["k2"] == theirs["k2"] and both["u"] == {"value": 1} and both["v"] == {"value": 2}
