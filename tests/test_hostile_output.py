"""Issue 17.7: what is typed as a name, a note or a tournament is shown, never obeyed: Markdown
is escaped, control characters are shown or stripped in every format, values stay on their line."""
import re

import pytest
from click.testing import CliRunner

import hostile_inputs as H
from conftest import FIXTURES
from referee.cli import main
from referee.expert.language.safe_text import clean, md, md_code

K = ["--knowledge", str(FIXTURES)]
ANSWERS = "answers: {claim: [early], early_turn: false, game: pik, early_who: d2}\n"
PAYLOADS = {**H.MARKUP, **H.CONTROLS}


def case(tmp_path, value):
    q = H.yaml_quoted(value)
    path = tmp_path / "case.yaml"
    path.write_text(f"game: mini\nheader: {{tournament: {q}, referee: {q}, table: {q}, deal: 7, "
                    f"players: {{d2: {q}, d1: {q}}}}}\n" + ANSWERS, encoding="utf-8")
    return path


def rendered(tmp_path, value, fmt):
    result = CliRunner().invoke(main, ["rule", str(case(tmp_path, value)), "--format", fmt, *K])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def no_raw_controls(text):
    found = [repr(c) for c in H.RAW_CONTROLS if c in text]
    assert not found, found


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_text_and_markdown_rulings_show_what_was_typed_without_obeying_it(tmp_path, name):
    value = PAYLOADS[name]
    for fmt in ("text", "md", "html"):
        out = rendered(tmp_path, value, fmt)
        no_raw_controls(out)
        # no line of the ruling starts with what was typed after a line break
        assert not re.search(r"(?m)^(PENALTY: none|# Forged|Referee: Bob)", out), (fmt, out)
    out = rendered(tmp_path, value, "md")
    assert not re.search(r"(?<!\\)<(script|img|/script)", out), out   # \< shows a <, it opens no tag
    assert not re.search(r"(?<!\\)\[click\]\(", out) and not re.search(r"(?<!\\)!\[x\]", out)
    assert not re.search(r"(?m)^\s*(# Forged|> quoted|- item|1\. item|\| a)", out), out
    assert not re.search(r"(?m)\*\*[^*]*: \*\*(# Forged|> quoted)", out)
    html = rendered(tmp_path, value, "html")
    assert "<script>" not in html and "<img src=x" not in html


def test_markdown_escaping_of_each_construct():
    assert md("# x") == "\\# x" and md("> q").startswith("\\>") and md("- i").startswith("\\-")
    assert md("1. i") == "1\\. i" and md("+ i").startswith("\\+")
    assert md("<b>") == "\\<b\\>" and md("[a](b)") == "\\[a\\](b)" and md("**b**") == "\\*\\*b\\*\\*"
    assert md("a\nb") == "a b" and "\\x1b" in md("\x1b[31m")
    assert "http\\:" in md("http://x") and "www\\." in md("www.x.y")
    assert md_code("a`b") == "``a`b``" and md_code("x\ny") == "`x y`"
    assert clean("\u202eabc") == "\\u202eabc" and clean("a\r\nb") == "a b"


def test_register_views_and_appeal_notes_show_typed_text_on_one_line(tmp_path):
    reg = tmp_path / "reg.sqlite"
    value = PAYLOADS["newline-forge"] + PAYLOADS["ansi-red"] + PAYLOADS["rlo"]
    assert CliRunner().invoke(main, ["rule", str(case(tmp_path, value)), "--register", str(reg), *K]).exit_code == 0
    appeal = CliRunner().invoke(main, ["appeal", "1", "--set", "game=karo", "--note", value,
                                       "--referee", value, "--register", str(reg), *K])
    assert appeal.exit_code == 0, appeal.output
    no_raw_controls(appeal.stdout)
    assert not re.search(r"(?m)^PENALTY: none", appeal.stdout)
    for command in (["list"], ["show", "1"], ["show", "2"], ["stats"], ["search", "--player", "Marko"],
                    ["search", "--provision", "mini:1.early"]):
        out = CliRunner().invoke(main, ["register", *command, "--register", str(reg)]).stdout
        no_raw_controls(out)
        assert not re.search(r"(?m)^(PENALTY: none|# Forged)", out), (command, out)
    verified = CliRunner().invoke(main, ["verify", "AAAAA-AAAAA", "--register", str(reg)]).stdout
    no_raw_controls(verified)


def test_error_messages_quote_typed_text_on_one_line(tmp_path):
    for value in ("\x1b]0;pwned\x07", "a\nerror: forged", "\u202eevil"):
        result = CliRunner().invoke(main, ["verify", value])
        assert result.exit_code == 2
        no_raw_controls(result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_casebook_reports_show_a_case_name_on_its_line(tmp_path):
    """`referee test` and its coverage quote case names from the knowledge files: a name that
    holds a line break or a terminal escape forges no line and moves no cursor."""
    import shutil
    shutil.copytree(FIXTURES / "mini", tmp_path / "mini")
    name = PAYLOADS["newline-forge"] + PAYLOADS["ansi-clear"] + PAYLOADS["rlo"]
    with open(tmp_path / "mini" / "articles" / "01-rules.yaml", "a", encoding="utf-8") as f:
        f.write(f"  - name: {H.yaml_quoted(name)}\n"
                "    answers: {claim: [early], early_who: d2, early_turn: false, game: karo}\n"
                "    expect: {no_infraction: true}\n")
    result = CliRunner().invoke(main, ["test", "mini", "-v", "--coverage", "--knowledge", str(tmp_path)])
    assert result.exit_code == 1, result.output
    no_raw_controls(result.stdout)
    assert not re.search(r"(?m)^(PENALTY: none|# Forged)", result.stdout), result.stdout
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and "Marko PENALTY: none # Forged\\x1b[2J\\x1b[H" in failed[0]
    assert any(line.startswith("      + Marko PENALTY: none") for line in result.stdout.splitlines())
