"""Issue 17.4: the parse cache is never trusted over the files."""
import hashlib
import json
import os
import shutil

from click.testing import CliRunner

from conftest import FIXTURES
from referee.cli import main
from referee.expert.language import yamlcache
from referee.expert.language.rulebook import load_rulebook
from referee.expert.records.record import rulebook_identity

ART = FIXTURES / "mini" / "articles" / "01-rules.yaml"


def entry_of(cache, path):
    name = hashlib.sha256(path.read_bytes()).hexdigest()[:48] + f"-{yamlcache.FORMAT}.json"
    return cache / "referee" / "yaml" / name


def test_entries_are_keyed_by_content_so_copies_share_them(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for i in range(5):
        shutil.copytree(FIXTURES, tmp_path / f"k{i}")
        load_rulebook("mini", tmp_path / f"k{i}")
    files = list((tmp_path / "cache" / "referee" / "yaml").iterdir())
    assert len(files) == 3          # rulebook.yaml, questions.yaml, one article: once each


def test_an_edit_that_keeps_size_and_time_is_still_read(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copytree(FIXTURES, tmp_path / "k")
    art = tmp_path / "k" / "mini" / "articles" / "01-rules.yaml"
    assert load_rulebook("mini", tmp_path / "k").provisions["mini:1.early"].quote == "q1"
    st = art.stat()
    art.write_text(art.read_text().replace('quote: "q1"', 'quote: "q9"'))
    os.utime(art, ns=(st.st_atime_ns, st.st_mtime_ns))       # same size, same time
    assert art.stat().st_size == st.st_size
    assert load_rulebook("mini", tmp_path / "k").provisions["mini:1.early"].quote == "q9"


def test_an_altered_cache_entry_shows_as_a_changed_rulebook(tmp_path, monkeypatch):
    """The entry changes the ruling's data; the rulebook hash then differs from the files' own,
    and `referee verify` (which parses the files afresh) says the rulebook has changed."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("REFEREE_REGISTER", str(tmp_path / "reg.sqlite"))
    clean = load_rulebook("mini", FIXTURES)
    entry = entry_of(cache, ART)
    body = entry.read_text(encoding="utf-8")
    assert '["amount",6]' in body
    entry.write_text(body.replace('["amount",6]', '["amount",60]'), encoding="utf-8")
    poisoned = load_rulebook("mini", FIXTURES)
    assert rulebook_identity(poisoned)["hash"] != rulebook_identity(clean)["hash"]
    assert rulebook_identity(load_rulebook("mini", FIXTURES, cached=False))["hash"] == \
        rulebook_identity(clean)["hash"]
    ruled = CliRunner().invoke(main, ["rule", str(FIXTURES / "mini" / "examples" / "case.yaml"),
                                      "--format", "json", "--knowledge", str(FIXTURES)])
    assert ruled.exit_code == 0
    code = json.loads(ruled.stdout)["verification"]
    checked = CliRunner().invoke(main, ["verify", code, "--knowledge", str(FIXTURES)])
    assert "the rulebook has changed since this ruling" in checked.output, checked.output


def test_the_cache_folder_is_kept_under_its_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "referee" / "yaml"
    folder.mkdir(parents=True)
    for i in range(50):         # entries of an older format are removed at the next store
        (folder / f"{i:032x}.json").write_text("x" * 1000)
    monkeypatch.setattr(yamlcache, "MAX_BYTES", 20_000)
    for i in range(60):
        path = tmp_path / f"f{i}.yaml"
        path.write_text(f"n: {i}\ntext: {'y' * 1500}\n")
        from referee.expert.language.yamlio import load_file
        assert load_file(path, cached=True)["n"] == i
    total = sum(f.stat().st_size for f in folder.iterdir())
    assert total <= 20_000 + 2000 and not list(folder.glob("0*.json"))
