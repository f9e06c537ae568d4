"""The JSON copy of parsed knowledge files: same data and lines, refreshed when a file changes."""
import os
import shutil

from conftest import FIXTURES
from referee.expert.language import yamlcache
from referee.expert.language.rulebook import load_rulebook
from referee.expert.language.yamlio import load_file


def test_cached_load_gives_the_same_data_and_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = FIXTURES / "mini" / "articles" / "01-rules.yaml"
    first = load_file(path, cached=True)            # parsed, then stored
    again = load_file(path, cached=True)            # from the cache
    assert again == first == load_file(path)
    assert again["productions"][1].line == first["productions"][1].line
    assert again["productions"][1].file == str(path)
    assert len(list((tmp_path / "cache" / "referee" / "yaml").iterdir())) == 1


def test_an_edited_file_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    assert load_rulebook("mini", draft).provisions["mini:1.early"].quote == "q1"
    art.write_text(art.read_text().replace('quote: "q1"', 'quote: "q1 edited"'))
    os.utime(art, ns=(art.stat().st_atime_ns, art.stat().st_mtime_ns + 10**9))
    assert load_rulebook("mini", draft).provisions["mini:1.early"].quote == "q1 edited"


def test_a_damaged_cache_entry_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = FIXTURES / "mini" / "rulebook.yaml"
    expected = load_file(path, cached=True)
    for entry in (tmp_path / "cache" / "referee" / "yaml").iterdir():
        entry.write_text("{not json")
    assert load_file(path, cached=True) == expected


def test_no_cache_folder_means_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_NO_CACHE", "1")
    assert yamlcache.cache_dir() is None
    assert load_file(FIXTURES / "mini" / "rulebook.yaml", cached=True)["game"] == "mini"
