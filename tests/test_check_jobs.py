"""`referee check` run as jobs in worker processes (``check_jobs``) reports exactly what one
process reports, in the same order, and leaves one cache file with both halves' results."""
import json
import shutil

import pytest
from click.testing import CliRunner

from conftest import ROOT
from referee.cli import main
from referee.expert.authoring.check_jobs import check_games
from referee.expert.authoring.checks import problem_dict

GAME = "ulti"      # the quickest full check


@pytest.fixture
def knowledge(tmp_path, monkeypatch):
    """ulti, and a copy of it with a question no production reads (a warning of the analysis
    half); a cache folder of their own."""
    shutil.copytree(ROOT / "knowledge" / GAME, tmp_path / "k" / GAME)
    shutil.copytree(ROOT / "knowledge" / GAME, tmp_path / "k" / "faulty")
    rulebook = tmp_path / "k" / "faulty" / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8").replace("game: ulti", "game: faulty", 1),
                        encoding="utf-8")
    questions = tmp_path / "k" / "faulty" / "questions.yaml"
    questions.write_text(questions.read_text(encoding="utf-8") + _UNREAD, encoding="utf-8")
    monkeypatch.delenv("REFEREE_NO_CHECK_CACHE", raising=False)
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "k"


_UNREAD = """
- id: planted_unread
  text: {en: "A question nothing reads?"}
  type: yesno
"""


def shown(results) -> dict:
    return {g: ([problem_dict(p) for p in problems.items], list(problems.notes))
            for g, problems in results.items()}


def test_jobs_report_what_one_process_reports_in_its_order(knowledge):
    games = [GAME, "faulty"]
    alone = check_games(games, knowledge, cache=False, jobs=1)
    apart = check_games(games, knowledge, cache=False, jobs=2)
    assert list(apart) == games
    assert shown(apart) == shown(alone)
    unread = [p for p in apart["faulty"].warnings if "planted_unread" in p.message]
    # loading's (no Hungarian text) and the analysis half's (nothing reads it), each once
    assert len(unread) == len({p.message for p in unread}) == 2
    assert not [p for p in apart[GAME].items if "planted_unread" in p.message]


def test_progress_reaches_the_caller_from_every_worker(knowledge):
    seen = []
    check_games([GAME], knowledge, progress=lambda g, label: seen.append((g, label)), cache=False, jobs=2)
    labels = [label for _, label in seen]
    assert labels.count("casebook") == 1 and labels.count("conflicts") == 1
    from referee.expert.authoring.checks import PROGRESS_STEPS
    assert len(seen) == PROGRESS_STEPS


def test_both_halves_results_are_cached_in_one_file(knowledge):
    first = check_games([GAME], knowledge, jobs=2)[GAME]
    assert first.cache[0] == 0 and first.cache[1] > 0
    again = check_games([GAME], knowledge, jobs=2)[GAME]
    assert again.cache == (first.cache[1], 0)     # every unit of both halves from the cache
    one = check_games([GAME], knowledge, jobs=1)[GAME]
    assert one.cache[1] == 0
    assert shown({GAME: again}) == shown({GAME: first}) == shown({GAME: one})


def test_a_rulebook_that_does_not_load_is_reported_once(knowledge):
    (knowledge / GAME / "questions.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    alone = check_games([GAME], knowledge, cache=False, jobs=1)
    apart = check_games([GAME], knowledge, cache=False, jobs=2)
    assert shown(apart) == shown(alone)
    assert apart[GAME].errors


def test_cli_jobs_option(knowledge):
    runner = CliRunner()
    one = runner.invoke(main, ["check", GAME, "--knowledge", str(knowledge), "--no-cache",
                               "--format", "json", "-j", "1"])
    two = runner.invoke(main, ["check", GAME, "--knowledge", str(knowledge), "--no-cache",
                               "--format", "json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)
    bad = runner.invoke(main, ["check", GAME, "--jobs", "0"])
    assert bad.exit_code == 2 and "--jobs" in bad.output


def test_a_check_with_every_result_kept_runs_in_one_process(knowledge, monkeypatch):
    from referee.expert.authoring import check_jobs
    first = check_games([GAME], knowledge)[GAME]          # cold: jobs in workers
    monkeypatch.setattr(check_jobs, "_context", lambda: pytest.fail("forked for a warm check"))
    again = check_games([GAME], knowledge)[GAME]
    assert again.cache[1] == 0 and shown({GAME: again}) == shown({GAME: first})
    # a reworded finding: nothing any analysis reads changed, every result is kept
    rulebook = knowledge / GAME / "articles" / "05-renonsz.yaml"
    body = rulebook.read_text(encoding="utf-8")
    assert "no claim of any kind is admissible any more" in body
    rulebook.write_text(body.replace("no claim of any kind is admissible any more",
                                     "no claim of any kind is admissible now", 1), encoding="utf-8")
    reworded = check_games([GAME], knowledge)[GAME]
    assert reworded.cache[1] == 0 and shown({GAME: reworded}) == shown({GAME: first})
    # an edited amount leaves the rest of the results kept: still one process, the units that
    # read it recomputed
    rulebook = knowledge / GAME / "articles" / "07-sajatossagok.yaml"
    body = rulebook.read_text(encoding="utf-8")
    assert "amount: {param: simple_pass_units}" in body
    rulebook.write_text(body.replace("amount: {param: simple_pass_units}", "amount: 3", 1), encoding="utf-8")
    edited = check_games([GAME], knowledge)[GAME]
    assert 0 < edited.cache[1] < first.cache[1] and shown({GAME: edited}) == shown({GAME: first})


def test_a_warm_check_of_several_rulebooks_runs_one_job_per_rulebook(knowledge):
    games = [GAME, "faulty"]
    cold = check_games(games, knowledge, jobs=2)
    warm = check_games(games, knowledge, jobs=2)
    assert all(warm[g].cache[1] == 0 for g in games)
    assert shown(warm) == shown(cold) == shown(check_games(games, knowledge, cache=False, jobs=1))


def test_each_job_is_timed_and_the_longest_last_time_starts_first(knowledge):
    """The CPU time of each job is kept (beside the results, not among them) and orders the
    next check: a job measured longest is started first, whatever the file sizes say."""
    from referee.expert.authoring import check_jobs
    games = [GAME, "faulty"]
    check_games(games, knowledge, cache=False, jobs=2)
    times = json.loads((knowledge.parent / "cache" / "referee" / "check" / check_jobs.TIMES).read_text())
    keys = {k.rsplit("::", 1)[1] for k in times}
    assert keys == {"casebook", "analysis", "search"} and len(times) == 6
    assert all(isinstance(v, float) and v >= 0 for v in times.values())
    history = {k: (100.0 if k.endswith("faulty::search") else 0.1) for k in times}
    order = sorted([(g, p) for g in games for p in ("casebook", "analysis", "search")],
                   key=lambda job: -check_jobs._expected(job[0], job[1], knowledge, history))
    assert order[0] == ("faulty", "search")
