"""Issue 17.1 and 17.5: YAML bombs, odd scalars and junk in case and knowledge files end in one
line `error: FILE:LINE: ...` and exit 2 (or a ruling), quickly, never a traceback."""
import glob
import os
import shutil
import time

import pytest
from click.testing import CliRunner

import hostile_inputs as H
from conftest import FIXTURES, ROOT
from referee.cli import main
from referee.expert.language import yamlio
from referee.expert.language.errors import RefereeError

K = ["--knowledge", str(FIXTURES)]
CASE_HEAD = "game: mini\nanswers:\n  claim: [early]\n  early_turn: false\n  game: pik\n  early_who: d2\n"


def rule(tmp_path, text, *args):
    path = tmp_path / "case.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return CliRunner().invoke(main, ["rule", str(path), "--format", "json", *K, *args])


def one_line_error(result, codes=(2,)):
    """Exit 2 (bad input; 3: a case too incomplete to rule, where allowed) and one line."""
    assert result.exit_code in codes, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


@pytest.mark.parametrize("name", sorted(H.bombs()))
def test_a_yaml_bomb_in_a_case_file_is_refused_at_its_line(tmp_path, name):
    started = time.monotonic()
    text = CASE_HEAD.replace("answers:\n", "answers:\n") + "cards:\n" + H.bombs()[name]
    err = one_line_error(rule(tmp_path, text))
    assert "case.yaml:" in err and any(w in err for w in ("alias", "expands", "nested", "refers to"))
    assert time.monotonic() - started < 10          # refused, not expanded
    assert not (tmp_path / "test-register.sqlite").exists()


def test_bounds_refuse_what_they_name():
    with pytest.raises(RefereeError, match="expands to more than"):
        yamlio.load_text("a:\n" + H.laughs_seq(), "bomb.yaml")
    with pytest.raises(RefereeError, match="alias uses"):
        yamlio.load_text("x:\n" + H.many_aliases(), "aliases.yaml")
    with pytest.raises(RefereeError, match="refers to the node"):
        yamlio.load_text("a: &a [*a]", "loop.yaml")
    with pytest.raises(RefereeError, match="nested"):
        yamlio.load_text("x:\n" + H.deep_block(yamlio.MAX_DEPTH + 5), "deep.yaml")
    with pytest.raises(RefereeError, match="nested|malformed"):
        yamlio.load_text(H.deep_flow(5000), "flow.yaml")
    # a few aliases, as the rulebooks use them, stay fine
    assert yamlio.load_text("a: &a [1, 2]\nb: *a\nc: {<<: {x: 1}, y: 2}", "ok.yaml")["b"] == [1, 2]


def test_the_shipped_rulebooks_are_far_below_every_bound():
    """The bounds must never refuse a real rulebook: measure the largest one."""
    nodes = depth = 0
    for path in glob.glob(str(ROOT / "knowledge" / "**" / "*.yaml"), recursive=True):
        loader = yamlio._Loader(open(path, encoding="utf-8").read())
        node = loader.get_single_node()
        loader.dispose()

        def walk(n, d):
            kids = list(yamlio._children(n))
            sub = [walk(k, d + 1) for k in kids]
            return 1 + sum(s for s, _ in sub), max([d, *(x for _, x in sub)])
        if node is not None:
            n, d = walk(node, 1)
            nodes, depth = max(nodes, n), max(depth, d)
        assert os.path.getsize(path) * 10 < yamlio.MAX_BYTES
    assert nodes * 10 < yamlio.MAX_NODES and depth * 2 < yamlio.MAX_DEPTH, (nodes, depth)


def test_a_bomb_in_a_knowledge_folder_is_an_error_for_check_rule_and_test(tmp_path):
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "02-bomb.yaml"
    art.write_text("article: Rule 9\nnote:\n" + H.laughs_seq())
    started = time.monotonic()
    checked = CliRunner().invoke(main, ["check", "mini", "--knowledge", str(draft)])
    assert checked.exit_code == 1 and "02-bomb.yaml:" in checked.output and "expands" in checked.output
    ruled = CliRunner().invoke(main, ["rule", str(FIXTURES / "mini" / "examples" / "case.yaml"),
                                      "--knowledge", str(draft)])
    assert "02-bomb.yaml:" in one_line_error(ruled)
    assert CliRunner().invoke(main, ["test", "mini", "--knowledge", str(draft)]).exit_code == 2
    assert time.monotonic() - started < 20


def test_nothing_of_a_bomb_reaches_the_parse_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "bomb.yaml"
    path.write_text("a:\n" + H.laughs_seq(7, 9))      # 4.8 million values expanded, 250 bytes
    with pytest.raises(RefereeError):
        yamlio.load_file(path, cached=True)
    size = sum(f.stat().st_size for f in (tmp_path / "cache").rglob("*") if f.is_file()) \
        if (tmp_path / "cache").exists() else 0
    assert size == 0


PLACES = H.scalar_places()


@pytest.mark.parametrize("scalar", sorted(H.SCALARS))
def test_odd_scalars_anywhere_in_a_case_file_rule_or_fail_in_one_line(tmp_path, scalar):
    """Each scalar in the date field and three more places, rotating (bench/hostile.py tries every
    scalar in every place)."""
    names = sorted(PLACES)
    i = sorted(H.SCALARS).index(scalar)
    chosen = {"header.date"} | {names[(i * 3 + k) % len(names)] for k in range(3)}
    for place, template in ((p, PLACES[p]) for p in sorted(chosen)):
        result = rule(tmp_path, template.replace("{v}", H.SCALARS[scalar]))
        assert result.exit_code in (0, 2, 3), (place, result.output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            (place, repr(result.exception))
        if result.exit_code:
            one_line_error(result, (2, 3))


def test_an_unquoted_date_in_the_header_is_kept_as_the_date_typed(tmp_path):
    result = rule(tmp_path, CASE_HEAD.replace("answers:", "header: {date: 2026-11-29, table: 4}\nanswers:"))
    assert result.exit_code == 0, result.output
    assert '"date": "2026-11-29"' in result.stdout


@pytest.mark.parametrize("date", ["2026-02-30", "2026-13-01", "2026-11-29 10:15:00", "29.11.2026", "0"])
def test_a_header_date_that_is_no_date_is_refused(tmp_path, date):
    err = one_line_error(rule(tmp_path, CASE_HEAD.replace("answers:", f"header: {{date: {date}}}\nanswers:")))
    assert "case.yaml:" in err and "YYYY-MM-DD" in err


def test_junk_bytes_and_special_files_as_a_case_file(tmp_path):
    for i, data in enumerate(H.junk(seed=3)):
        result = rule(tmp_path, data)
        assert result.exit_code in (0, 2, 3), (data[:40], result.output, result.exception)
        if result.exit_code:                # a BOM before 'game: mini' is a valid (incomplete) case
            one_line_error(result, (2, 3))
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)                      # opening it would wait for a writer for ever
    err = one_line_error(CliRunner().invoke(main, ["rule", str(fifo), *K]))
    assert "not a regular file" in err
    err = one_line_error(CliRunner().invoke(main, ["rule", "/dev/zero", *K]))     # read, never written
    assert "not a regular file" in err


def test_resuming_from_a_file_with_an_unquoted_date_ends_in_a_ruling(tmp_path):
    saved = tmp_path / "resume.yaml"
    saved.write_text("game: mini\nheader: {date: 2026-11-29, table: 4}\nanswers: {claim: [early]}\n")
    result = CliRunner().invoke(main, ["interview", "mini", "--resume", str(saved), "--format", "json", *K],
                                input="\n\n\nno\npik\nd2\n\nrule\n")   # no names; the answers; rule
    assert result.exit_code == 0, (result.output, result.exception)
    assert '"verification"' in result.stdout and "2026-11-29" in saved.read_text()
