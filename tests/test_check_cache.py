"""`referee check` reuses results per unit of work, keyed by the content of what each unit read:
a cached check reports exactly what an uncached one does, and an edited file recomputes the
units that read what changed, and only those."""
import json
import shutil

import pytest

from conftest import ROOT
from referee.expert.authoring import checkcache
from referee.expert.authoring.analysis import Analysis
from referee.expert.authoring.checks import check_game, problem_dict


# ulti: the rulebook whose full check is quickest (each test checks it in full several times)
GAME = "ulti"


@pytest.fixture
def knowledge_copy(tmp_path, monkeypatch):
    """A copy of a shipped rulebook (GAME) and a cache folder of its own."""
    shutil.copytree(ROOT / "knowledge" / GAME, tmp_path / "knowledge" / GAME)
    monkeypatch.delenv("REFEREE_NO_CHECK_CACHE", raising=False)
    monkeypatch.delenv("REFEREE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "knowledge"


def outcome(problems) -> list[str]:
    return sorted(json.dumps(problem_dict(p), sort_keys=True, default=str) for p in problems.items) \
        + sorted(problems.notes)


def units(monkeypatch) -> dict:
    """Record every unit a check runs: (kind, name) -> (computed?, ids of what it read)."""
    seen = {}
    real = Analysis.unit

    def unit(self, problems, kind, name, pids, qids, compute, also=()):
        read = {getattr(x, "id", None) or getattr(x, "name", None) or str(x)
                for x in self.read(pids, qids) + list(also)}
        key = (kind, json.dumps(name, sort_keys=True, default=str))
        computed = []

        def run(found):
            computed.append(True)
            return compute(found)
        value = real(self, problems, kind, name, pids, qids, run, also)
        seen[key] = (bool(computed), read)
        return value

    monkeypatch.setattr(Analysis, "unit", unit)
    return seen


def test_a_cached_check_reports_what_an_uncached_one_does(knowledge_copy):
    fresh = check_game(GAME, knowledge_copy, cache=False)
    first = check_game(GAME, knowledge_copy)
    again = check_game(GAME, knowledge_copy)
    assert outcome(first) == outcome(fresh) == outcome(again)
    hits, misses = again.cache
    assert misses == 0 and hits == first.cache[1] > 0
    assert list((knowledge_copy.parent / "cache" / "referee" / "check").glob("*.json"))


def _contents(root) -> dict:
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook(GAME, root)
    found = {}
    for kind, things in (("p", book.productions), ("q", book.questions.values()),
                         ("v", book.provisions.values()), ("c", book.cases)):
        for x in things:
            found[getattr(x, "id", None) or x.name] = repr(x)
    return found


def test_an_edited_file_recomputes_exactly_what_read_it(knowledge_copy, monkeypatch):
    check_game(GAME, knowledge_copy)
    before = _contents(knowledge_copy)
    article = next(p for p in sorted((knowledge_copy / GAME / "articles").glob("*.yaml"))
                   if "productions:" in p.read_text() and "summary:" in p.read_text())
    text = article.read_text()
    at = text.index("summary:", text.index("productions:"))
    start = text.index("en:", at) + len("en: ")
    start += text[start] in "\"'"                        # inside the quotes, if any
    article.write_text(text[:start] + "Edited: " + text[start:])        # same lines, new words
    after = _contents(knowledge_copy)
    changed = {k for k in after if after[k] != before.get(k)}
    assert changed                                     # the edit changed something units read
    edited = check_game(GAME, knowledge_copy, cache=False)
    seen = units(monkeypatch)
    cached = check_game(GAME, knowledge_copy)
    assert outcome(cached) == outcome(edited)
    for (kind, name), (computed, read) in seen.items():
        assert computed == bool(read & changed), (kind, name, read & changed)
    assert any(computed for computed, _ in seen.values())
    assert not all(computed for computed, _ in seen.values())


def test_a_stale_entry_is_never_used(knowledge_copy):
    check_game(GAME, knowledge_copy)
    art = knowledge_copy / GAME / "articles"
    # a precedence between two findings on one claim (Továbbiak 2, a lower bid noticed in time):
    # dropping it changes what the conflict analysis must say
    live = "overrides: [lower-bid-warning-after-bidding"
    path = next(p for p in sorted(art.glob("*.yaml")) if live in p.read_text())
    text = path.read_text()
    before = outcome(check_game(GAME, knowledge_copy))
    path.write_text(text.replace(live, "overrides: [] # [", 1))
    after = check_game(GAME, knowledge_copy)
    assert outcome(after) == outcome(check_game(GAME, knowledge_copy, cache=False))
    assert outcome(after) != before


def test_the_cache_folder_stays_bounded(knowledge_copy, monkeypatch, tmp_path):
    monkeypatch.setattr(checkcache, "MAX_BOOKS", 2)
    for n in range(4):
        copy = tmp_path / f"k{n}"
        shutil.copytree(knowledge_copy, copy)
        check_game(GAME, copy)
    assert len(list((tmp_path / "cache" / "referee" / "check").glob("*.json"))) == 2


def test_no_cache_when_turned_off(knowledge_copy, monkeypatch):
    monkeypatch.setenv("REFEREE_NO_CHECK_CACHE", "1")
    problems = check_game(GAME, knowledge_copy)
    assert not (knowledge_copy.parent / "cache" / "referee" / "check").exists()
    assert getattr(problems, "cache", None) is None
