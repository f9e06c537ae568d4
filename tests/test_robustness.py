"""Adversarial input: whatever is typed or written, a clear error and exit 2, never a traceback."""
import json
import random
import shutil
import signal
import subprocess
import sys
import time

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main
from conftest import FIXTURES, ROOT
from referee.expert.language.answers import parse_typed
from referee.expert.language.errors import RefereeError

K = ["--knowledge", str(FIXTURES)]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 99), st.text(max_size=12),
                    st.sampled_from(["early", "bad-game", "d1", "d2", "declarer", "pik", "karo"]))
values = st.one_of(scalars, st.lists(scalars, max_size=4), st.dictionaries(st.text(max_size=5), scalars, max_size=2))
questions = st.sampled_from(["claim", "order", "game", "early_who", "early_turn", "nope", ""])


def rule_text(tmp_path, text):
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["rule", str(path), "--format", "json", *K])


@SETTINGS
@given(text=st.text(max_size=200))
def test_any_case_file_text_ends_in_a_ruling_or_one_clear_error(tmp_path, text):
    result = rule_text(tmp_path, text)
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    # with --format json, stdout is JSON whatever happens: the ruling, or the same error as JSON
    data = json.loads(result.stdout)
    assert ("error" in data) == (result.exit_code == 2)


@SETTINGS
@given(answers=st.dictionaries(questions, values, max_size=6),
       header=st.one_of(st.none(), st.dictionaries(st.sampled_from(["table", "deal", "players", "x"]), values)))
def test_any_answers_end_in_a_ruling_or_one_clear_error(tmp_path, answers, header):
    data = {"game": "mini", "answers": answers}
    if header is not None:
        data["header"] = header
    result = rule_text(tmp_path, yaml.safe_dump(data, allow_unicode=True))
    # 3: the interview would still ask something (named on stderr), no ruling printed
    assert result.exit_code in (0, 2, 3), result.output


@SETTINGS
@given(typed=st.text(max_size=30), qid=st.sampled_from(["claim", "order", "game", "early_who", "early_turn"]))
def test_anything_typed_at_a_prompt_is_accepted_or_refused_cleanly(mini, typed, qid):
    q = mini.questions[qid]
    try:
        value = parse_typed(q, typed, mini, {"claim": ["early", "bad-game"]})
    except RefereeError as exc:
        assert "expected" in exc.message
    else:
        assert value is not None


def test_the_same_answers_in_any_order_give_the_same_ruling(mini_ruler):
    answers = {"claim": ["early", "bad-game"], "order": ["bad-game", "early"], "early_who": "d2",
               "early_turn": False, "game": "pik"}
    expected = mini_ruler.rule(answers).to_dict()
    expected.pop("answers")
    rng = random.Random(7)
    for _ in range(20):
        items = list(answers.items())
        rng.shuffle(items)
        got = mini_ruler.rule(dict(items)).to_dict()
        got.pop("answers")
        assert got == expected


MUTATIONS = ["", "- 1\n", "title: 5\n", "provisions: 3\n", "provisions: [{id: 1}]\n",
             "productions: [{id: x, cites: [], when: 1, then: 2}]\n", "questions: [{id: q, type: multi, values: 7}]\n",
             "cases: [{name: n, answers: [], expect: 1}]\n", "article: [1]\nproductions: {}\n", "!!python/name:os.system\n"]


def test_broken_knowledge_files_are_reported_not_crashed(tmp_path):
    rng = random.Random(11)
    source = (FIXTURES / "mini" / "articles" / "01-rules.yaml").read_text()
    lines = source.splitlines(keepends=True)
    for i in range(60):
        draft = tmp_path / f"k{i}"
        shutil.copytree(FIXTURES, draft)
        art = draft / "mini" / "articles" / "01-rules.yaml"
        if i < len(MUTATIONS):
            art.write_text(MUTATIONS[i])
        else:
            kept = [line for line in lines if rng.random() > 0.15]
            if kept:
                j = rng.randrange(len(kept))
                kept[j] = kept[j].replace(":", rng.choice([": [", ": 7 #", ":"]), 1)
            art.write_text("".join(kept))
        for command in (["check", "mini"], ["test", "mini"], ["rule", str(FIXTURES / "mini" / "examples" / "case.yaml")]):
            result = CliRunner().invoke(main, [*command, "--knowledge", str(draft)])
            assert result.exit_code in (0, 1, 2), (art.read_text(), result.output, result.exception)
            assert "Traceback" not in result.output


# the players' names given as flags, so the interview does not ask them first
NAMED = ["--player", "declarer=Marko", "--player", "d1=Jovan", "--player", "d2=Petar"]


def _interview(save):
    return subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "interview", "mini",
                             "--save", str(save), *K, *NAMED], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)


def _ruling(output: str) -> dict:
    """The JSON ruling printed after the interview, without the time it was made."""
    data = json.loads(output[output.index("{"):])
    data.pop("ruled_at", None)
    return data


def _saved(save):
    try:
        return yaml.safe_load(save.read_text())["answers"]
    except (OSError, TypeError, KeyError, yaml.YAMLError):
        return None


def test_killed_interview_keeps_every_answer_given_and_resumes_to_the_same_ruling(tmp_path):
    typed = ["early", "no", "karo", "d2"]
    keys = ["claim", "early_turn", "game", "early_who"]
    full = CliRunner().invoke(main, ["interview", "mini", "--save", str(tmp_path / "full.yaml"),
                                     "--format", "json", "--no-register", *K, *NAMED],
                              input="\n".join(typed) + "\nrule\n").output
    expected = _ruling(full)
    for sig in (signal.SIGINT, signal.SIGTERM):
        for k in range(1, len(typed) + 1):
            save = tmp_path / f"s-{sig}-{k}.yaml"
            proc = _interview(save)
            for line in typed[:k]:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
            deadline = time.time() + 120
            while time.time() < deadline and len(_saved(save) or {}) < k:
                time.sleep(0.05)
            proc.send_signal(sig)
            proc.wait(timeout=120)
            saved = _saved(save)
            assert sorted(saved) == sorted(keys[:k]), (sig, k, saved)
            resumed = CliRunner().invoke(main, ["interview", "mini", "--resume", str(save), "--format", "json",
                                                "--no-register", *K],
                                         input="\n".join(typed[k:]) + "\nrule\n").output
            assert _ruling(resumed) == expected


def test_unknown_among_sets_on_a_several_answer_question_says_how_to_split_them():
    """A blind tester typed 'unknown: a, b' on a question taking several answers (the README's
    single-answer form): refused with how to give the sets, and the '|' form is taken."""
    import pytest

    from referee.expert.language.answers import parse_typed
    from referee.expert.language.errors import RefereeError
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("preferans")
    q = book.questions["claim"]
    assert parse_typed(q, "unknown: bad-dolaz | bad-dolaz, bad-play", book) == \
        {"unknown": [["bad-dolaz"], ["bad-dolaz", "bad-play"]]}
    with pytest.raises(RefereeError, match=r"separate the sets it may be with '\|'"):
        parse_typed(q, "unknown: bad-dolaz, bad-play", book)
