"""What users of a real command-line tool expect: -h, help on every option and an example in every
command, JSON on stdout whatever happens, '-' for standard input, documented environment
variables, shell completion, and did-you-mean for misspelt values, ids and games."""
import json
import re

import click
import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from referee.cli import main
from referee.expert.language.answers import did_you_mean, parse_typed
from referee.expert.language.errors import RefereeError
from conftest import FIXTURES, ROOT

K = ["--knowledge", str(FIXTURES)]
CASE = FIXTURES / "mini" / "examples" / "case.yaml"


def run(*args, input=None, env=None):
    return CliRunner().invoke(main, list(args), input=input, env=env)


def commands(group=main, path=()):
    """Every command and group, with the words that invoke it."""
    yield path, group
    for name, cmd in getattr(group, "commands", {}).items():
        yield from commands(cmd, path + (name,))


ALL = list(commands())
IDS = [" ".join(p) or "referee" for p, _ in ALL]


@pytest.mark.parametrize("path, cmd", ALL, ids=IDS)
def test_h_and_help_both_show_help(path, cmd):
    for flag in ("-h", "--help"):
        result = run(*path, flag)
        assert result.exit_code == 0 and "Usage:" in result.output, (path, flag)


@pytest.mark.parametrize("path, cmd", ALL, ids=IDS)
def test_every_option_has_help_and_every_command_an_example(path, cmd):
    for param in cmd.params:
        if isinstance(param, click.Option) and param.name not in ("version",):
            assert param.help, f"{' '.join(path)} {param.opts[0]} has no help text"
    text = run(*path, "-h").output
    assert "Examples:" in text, f"{' '.join(path) or 'referee'} has no example"
    examples = text.split("Examples:")[1].strip().splitlines()
    assert examples and all(re.match(r"\s*(referee |cat )", line) for line in examples), examples


def test_interview_header_options_say_what_they_are():
    text = run("interview", "-h").output
    for option in ("--tournament", "--table", "--deal", "--referee"):
        line = next(line for line in text.splitlines() if line.strip().startswith(option))
        assert len(line.split(None, 2)) == 3, line


def test_json_outputs_parse():
    code = None
    ruled = run("rule", str(CASE), "--format", "json", *K)
    code = json.loads(ruled.stdout)["verification"]
    outputs = {
        "games": run("games", "--format", "json"),
        "questions": run("questions", "mini", "--format", "json", *K),
        "test": run("test", "mini", "--format", "json", *K),
        "verify": run("verify", code, "--format", "json", *K),
        "check": run("check", "mini", "--format", "json", *K),
        "whatif": run("whatif", str(CASE), "--set", "early_turn=yes", "--format", "json", *K),
        "articles": run("articles", "mini", "--format", "json", *K),
        "register": run("register", "list", "--format", "json"),
        "demo": run("demo", "--format", "json"),
    }
    data = {name: json.loads(result.stdout) for name, result in outputs.items()}
    assert [g["game"] for g in data["games"]] == ["bridge", "preferans", "skat", "ulti"]
    assert data["games"][1]["provisions"] > 100 and data["games"][1]["language"] == "sr"
    claim = next(q for q in data["questions"] if q["id"] == "claim")
    assert claim["type"] == "multi" and [v["value"] for v in claim["values"]] == ["early", "bad-game"]
    assert data["test"]["passed"] == 1
    assert data["verify"]["ok"] is True and data["verify"]["status"] == "matches"
    assert data["demo"]["game"] == "preferans" and data["demo"]["findings"]
    # the replayed interview of demo went to stderr, not into the JSON
    assert "Answers saved" not in outputs["demo"].stdout


def test_with_format_json_an_error_is_json_on_stdout_too():
    for args in (["questions", "chess", "--format", "json"],
                 ["rule", "missing.yaml", "--format", "json"],
                 ["whatif", str(CASE), "--set", "nope=1", "--format", "json", *K],
                 ["test", "chess", "--format", "json"]):
        result = run(*args)
        assert result.exit_code == 2, args
        error = json.loads(result.stdout)
        assert error["error"] and result.stderr.startswith("error: "), args
    # check reports an unloadable rulebook as one of its problems (exit 1), in its JSON
    checked = run("check", "chess", "--format", "json")
    assert checked.exit_code == 1 and "unknown game" in json.loads(checked.stdout)["chess"][0]["message"]
    located = json.loads(run("rule", "-", "--format", "json", *K, input="game: mini\nanswers: {clam: 1}\n").stdout)
    assert located == {"error": located["error"], "file": "<stdin>", "line": 2}
    # text output keeps errors off stdout
    assert run("questions", "chess").stdout == ""


def test_dash_reads_the_case_from_standard_input():
    text = CASE.read_text()
    from_file = json.loads(run("rule", str(CASE), "--format", "json", "--no-register", *K).stdout)
    from_stdin = json.loads(run("rule", "-", "--format", "json", "--no-register", *K, input=text).stdout)
    assert from_stdin["findings"] == from_file["findings"]
    diff = run("whatif", "-", "--set", "early_turn=yes", *K, input=text)
    assert diff.exit_code == 0 and "Was it his turn: no -> yes" in diff.output
    bad = run("rule", "-", *K, input="game: mini\nanswers: {claim: [erly]}\n")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: <stdin>:2: invalid answer")


def test_every_environment_variable_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    used = set()
    for path in [ROOT / "cli.py", *(ROOT / "expert").rglob("*.py")]:
        used |= set(re.findall(r"\b(REFEREE_[A-Z_]+|XDG_[A-Z_]+)\b", path.read_text(encoding="utf-8")))
    assert {"REFEREE_REGISTER", "REFEREE_KNOWLEDGE", "REFEREE_NO_CACHE"} <= used
    missing = sorted(v for v in used | {"_REFEREE_COMPLETE"} if v not in readme)
    assert not missing, f"not in README.md: {missing}"


def complete(args, incomplete):
    return [c.value for c in ShellComplete(main, {}, "referee", "_REFEREE_COMPLETE").get_completions(args, incomplete)]


def test_completion_of_games_articles_and_set():
    assert complete(["questions"], "pre") == ["preferans"]
    assert complete(["test"], "") == ["bridge", "preferans", "skat", "ulti"]
    assert complete(["questions", *K], "m") == ["mini"]
    assert "Renonszok 2. pont, 1. mondat" in complete(["articles", "ulti"], "renonszok 2")
    assert complete(["whatif", str(CASE), *K, "--set"], "early_") == ["early_who=", "early_turn="]
    assert complete(["whatif", str(CASE), *K, "--set"], "early_who=") == ["early_who=d1", "early_who=d2"]
    assert complete(["whatif", str(CASE), *K, "--set"], "game=k") == ["game=karo"]
    assert complete(["whatif", str(CASE), *K, "--set"], "early_turn=") == ["early_turn=yes", "early_turn=no"]
    assert complete(["whatif", "no-such.yaml", "--set"], "ga") == []            # quietly nothing


def test_completion_scripts_are_generated_as_the_readme_says():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for shell in ("bash", "zsh", "fish"):
        assert f"_REFEREE_COMPLETE={shell}_source referee" in readme
        script = CliRunner().invoke(main, [], prog_name="referee", env={"_REFEREE_COMPLETE": f"{shell}_source"})
        assert script.exit_code == 0 and "_REFEREE_COMPLETE" in script.output


def test_questions_refuses_an_unknown_language():
    result = run("questions", "mini", "--lang", "xx", *K)
    assert result.exit_code == 2 and "'xx' is not one of" in result.output
    # a language the rulebook has no texts for: refused like every --lang (the mini rulebook is English)
    refused = run("questions", "mini", "--lang", "hu", *K)
    assert refused.exit_code == 2 and "no texts in 'hu', expected one of en" in refused.output
    assert run("questions", "mini", "--lang", "en", *K).exit_code == 0


def test_did_you_mean_for_values_ids_games_and_seats(mini):
    assert did_you_mean("Kontra", ["kontra", "rekontra", "none"]) == ["kontra", "rekontra"]
    assert did_you_mean("zzz", ["kontra"]) == []
    # at the interview's prompt (parse_typed is what every front end reads answers with)
    with pytest.raises(RefereeError) as err:
        parse_typed(mini.questions["claim"], "erly", mini)
    assert "did you mean 'early'?" in err.value.message
    with pytest.raises(RefereeError) as err:
        parse_typed(mini.questions["game"], "kraro", mini)
    assert "did you mean 'karo'?" in err.value.message
    # rule: a case file
    bad_id = run("rule", "-", *K, input="game: mini\nanswers: {claim: [early], erly_who: d1}\n")
    assert "unknown question id 'erly_who' (did you mean 'early_who'?)" in bad_id.stderr
    bad_game = run("rule", "-", *K, input="game: mini\nanswers: {game: pk}\n")
    assert "did you mean 'pik'?" in bad_game.stderr
    # whatif: --set
    bad_set = run("whatif", str(CASE), "--set", "erly_turn=yes", *K)
    assert bad_set.exit_code == 2 and "did you mean 'early_turn'?" in bad_set.stderr
    bad_value = run("whatif", str(CASE), "--set", "game=kraro", *K)
    assert bad_value.exit_code == 2 and "did you mean 'karo'?" in bad_value.stderr
    # games and seats
    assert "did you mean 'preferans'?" in run("questions", "prefernas").stderr
    seat = run("interview", "mini", "--player", "declarr=Ana", *K)
    assert seat.exit_code == 2 and "did you mean 'declarer'?" in seat.stderr


def test_bash_completion_after_the_equals_sign():
    """bash splits 'early_who=d' into 'early_who', '=', 'd': the value is still completed, and only
    the part after '=' is offered (what bash replaces)."""
    def bash(*words):
        env = {"_REFEREE_COMPLETE": "bash_complete", "COMP_WORDS": " ".join(words), "COMP_CWORD": str(len(words) - 1)}
        out = CliRunner().invoke(main, [], prog_name="referee", env=env).output
        return [line.split(",", 1)[1] for line in out.splitlines()]
    base = ("referee", "whatif", str(CASE), *K, "--set")
    assert bash(*base, "early_") == ["early_who=", "early_turn="]
    assert bash(*base, "early_who", "=") == ["d1", "d2"]
    assert bash(*base, "early_who", "=", "d") == ["d1", "d2"]
    assert bash("referee", "questions", "pre") == ["preferans"]
    assert "'Renonszok 2. pont, 1. mondat'" in bash("referee", "articles", "ulti", "Renonszok")   # one word
    script = CliRunner().invoke(main, [], prog_name="referee", env={"_REFEREE_COMPLETE": "bash_source"}).output
    assert "compopt -o nospace" in script          # no space after 'QUESTION='


def test_appeal_set_completes_from_the_rulebook_of_the_registered_ruling():
    assert run("rule", str(CASE), *K).exit_code == 0            # ruling #1 in the test's register
    assert complete(["appeal", "1", *K, "--set"], "early_t") == ["early_turn="]
    assert complete(["appeal", "1", *K, "--set"], "game=") == ["game=pik", "game=karo"]
    assert complete(["appeal", "99", *K, "--set"], "ga") == []          # no such ruling: nothing


def test_demo_writes_the_ruling_to_out_and_the_interview_to_stderr(tmp_path):
    out = tmp_path / "demo.html"
    result = run("demo", "--format", "html", "--out", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert "<!DOCTYPE html>" in out.read_text() and "ruling written to" in result.stderr
    assert "What does the claimant say was violated?" in result.stderr and "> bad-dolaz" in result.stderr


def test_set_completion_does_not_read_standard_input():
    assert complete(["whatif", "-", *K, "--set"], "ga") == []
