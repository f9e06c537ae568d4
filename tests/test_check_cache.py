"""`referee check` reuses results per unit of work, keyed by the content of what each unit read:
a cached check reports exactly what an uncached one does, and an edited file recomputes the
units that read what changed, and only those."""
import json
import re
import shutil
from pathlib import Path

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
    """Record every unit a check runs: (kind, name) -> (computed?, ids of what it read, whether
    it reads only what decides which findings fire)."""
    seen = {}
    real = Analysis.unit

    def unit(self, problems, kind, name, pids, qids, compute, also=(), firing=False, within=None):
        read = {getattr(x, "id", None) or getattr(x, "name", None) or str(x)
                for x in self.read(pids, qids, within) + list(also)}
        key = (kind, json.dumps(name, sort_keys=True, default=str))
        computed = []

        def run(found):
            computed.append(True)
            return compute(found)
        value = real(self, problems, kind, name, pids, qids, run, also, firing=firing, within=within)
        seen[key] = (bool(computed), read, firing)
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


def _contents(root, firing=False) -> dict:
    """What the analyses read of each thing in the rulebook (``checkcache.logic_view``)."""
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook(GAME, root)
    found = {}
    for kind, things in (("p", book.productions), ("q", book.questions.values()),
                         ("v", book.provisions.values()), ("c", book.cases)):
        for x in things:
            found[getattr(x, "id", None) or x.name] = repr(checkcache.logic_view(x, firing))
    return found


def _first_summary(knowledge_copy):
    """An article file with a finding, and where its first summary's English words start."""
    article = next(p for p in sorted((knowledge_copy / GAME / "articles").glob("*.yaml"))
                   if "productions:" in p.read_text() and "summary:" in p.read_text())
    text = article.read_text()
    at = text.index("summary:", text.index("productions:"))
    start = text.index("en:", at) + len("en: ")
    start += text[start] in "\"'"                        # inside the quotes, if any
    return article, text, start


def test_reworded_prose_recomputes_nothing(knowledge_copy, monkeypatch):
    # no analysis reads a finding's summary: a re-check after rewording one is all cache hits
    check_game(GAME, knowledge_copy)
    before = _contents(knowledge_copy)
    article, text, start = _first_summary(knowledge_copy)
    article.write_text(text[:start] + "Edited: " + text[start:])        # same lines, new words
    assert _contents(knowledge_copy) == before
    edited = check_game(GAME, knowledge_copy, cache=False)
    seen = units(monkeypatch)
    cached = check_game(GAME, knowledge_copy)
    assert outcome(cached) == outcome(edited)
    assert seen and not any(computed for computed, _, _ in seen.values())
    assert cached.cache[1] == 0


def test_problems_move_with_the_lines_they_point_at(knowledge_copy, monkeypatch):
    # lines added above everything: every cached problem is placed where its production,
    # question or provision now stands, in its location and in the "file:line" of its message
    # a conflict (the precedence of test_a_stale_entry_is_never_used dropped): a problem a
    # cached unit reports, at a production, naming the other production's file and line
    live = "overrides: [lower-bid-warning-after-bidding"
    path = next(p for p in sorted((knowledge_copy / GAME / "articles").glob("*.yaml")) if live in p.read_text())
    path.write_text(path.read_text().replace(live, "overrides: [] # [", 1))
    first = check_game(GAME, knowledge_copy)
    located = [p for p in first.items if p.file and p.line]
    conflict = [p for p in located if p.category == "conflict"]
    assert conflict and f"{path}:" in conflict[0].message
    for path in {p.file for p in located}:
        f = Path(path)
        f.write_text("# one\n# two\n# three\n" + f.read_text())
    seen = units(monkeypatch)
    cached = check_game(GAME, knowledge_copy)
    assert not any(computed for computed, _, _ in seen.values())
    fresh = check_game(GAME, knowledge_copy, cache=False)
    assert outcome(cached) == outcome(fresh)
    moved = {(p.file, p.line) for p in cached.items if p.file and p.line}
    assert {(p.file, p.line + 3) for p in located} <= moved
    again = next(p for p in cached.items if p.category == "conflict")
    assert again.message != conflict[0].message and again.line == conflict[0].line + 3


def test_lines_added_above_a_questions_impossible_answers_recompute_nothing(knowledge_copy, monkeypatch):
    # an ``impossible:`` entry is loaded with its file and line: the analyses read its answers,
    # not where it stands (every unit reading the question ran again when lines were added)
    questions = knowledge_copy / GAME / "questions.yaml"
    assert "impossible:" in questions.read_text()
    check_game(GAME, knowledge_copy)
    questions.write_text("# one\n# two\n" + questions.read_text())
    seen = units(monkeypatch)
    cached = check_game(GAME, knowledge_copy)
    assert seen and not any(computed for computed, _, _ in seen.values())
    assert outcome(cached) == outcome(check_game(GAME, knowledge_copy, cache=False))


def _recomputed_exactly(knowledge_copy, monkeypatch, edit) -> dict:
    """Check, ``edit`` the rulebook, check again: the units that read what the edit changed
    (as each unit reads it: all of a finding, or what decides whether it fires) run again,
    and only those; the cached check reports what an uncached one does."""
    seen = units(monkeypatch)
    check_game(GAME, knowledge_copy)
    earlier = dict(seen)
    before = {v: _contents(knowledge_copy, v) for v in (False, True)}
    edit()
    after = {v: _contents(knowledge_copy, v) for v in (False, True)}
    changed = {v: {k for k in after[v] if after[v][k] != before[v].get(k)} for v in (False, True)}
    assert changed[False]                              # the edit changed something units read
    edited = check_game(GAME, knowledge_copy, cache=False)
    seen.clear()
    cached = check_game(GAME, knowledge_copy)
    assert outcome(cached) == outcome(edited)
    for (kind, name), (computed, read, firing) in seen.items():
        # a unit whose reads changed (a case the edited condition no longer lets a production
        # match reads that production no more) is a new unit
        new = (kind, name) not in earlier or earlier[(kind, name)][1] != read
        assert computed == (new or bool(read & changed[firing])), (kind, name, read & changed[firing])
    assert any(computed for computed, _, _ in seen.values())
    assert not all(computed for computed, _, _ in seen.values())
    return {kind for (kind, _), (computed, _, _) in seen.items() if computed}


def test_an_edited_amount_recomputes_what_reads_amounts(knowledge_copy, monkeypatch):
    # a penalty's amount changed: the units that compare outcomes (conflicts, redundancy, ...)
    # of that production run again; the searches for silence and the casebook's coverage,
    # which read only which findings fire, do not
    # (Sajátosságok: a pass's amount, the tournament's parameter, made a fixed 3)
    art = knowledge_copy / GAME / "articles"
    path = next(p for p in sorted(art.glob("*.yaml")) if "amount: {param: simple_pass_units}" in p.read_text())
    ran = _recomputed_exactly(knowledge_copy, monkeypatch, lambda: path.write_text(
        path.read_text().replace("amount: {param: simple_pass_units}", "amount: 3", 1)))
    assert not ran & {"case", "silent", "unreachable"}


def test_an_edited_condition_recomputes_exactly_what_read_it(knowledge_copy, monkeypatch):
    # a finding's condition changed (Renonsz: a literal of its when): whatever reads that
    # production runs again, the casebook's cases among them
    art = knowledge_copy / GAME / "articles"
    path = next(p for p in sorted(art.glob("*.yaml")) if re.search(r"\{q: \w+, is: true\}", p.read_text()))
    ran = _recomputed_exactly(knowledge_copy, monkeypatch, lambda: path.write_text(
        re.sub(r"\{q: (\w+), is: true\}", r"{q: \1, is: false}", path.read_text(), count=1)))
    assert "case" in ran


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


def test_the_logic_view_keeps_every_condition_and_drops_only_texts():
    # an amount's {if: {q: .., is: ..}} and a condition's two-letter keys are logic, not prose
    from dataclasses import replace
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("bridge")
    p = next(x for x in book.productions if x.finding and x.finding.get("penalty"))
    amount = {"if": {"q": "contract_level", "is": 6}, "then": 2, "else": 1}
    with_if = replace(p, finding={**p.finding, "penalty": [{**p.finding["penalty"][0], "amount": amount}]})
    other_if = replace(p, finding={**p.finding, "penalty": [{**p.finding["penalty"][0],
                                                             "amount": {**amount, "if": {"q": "contract_level", "is": 7}}}]})
    assert checkcache.logic_view(with_if) != checkcache.logic_view(other_if)
    # the summary, an order's wording and the place in the file are not
    reworded = replace(with_if, finding={**with_if.finding, "summary": {"en": "Other words."}}, line=9999)
    assert checkcache.logic_view(reworded) == checkcache.logic_view(with_if)
    ordered = replace(p, finding={**p.finding, "orders": [{"en": "Play on.", "when": {"q": "claim", "has": "play"}}]})
    reworded_order = replace(p, finding={**p.finding, "orders": [{"en": "Go on.", "when": {"q": "claim", "has": "play"}}]})
    other_when = replace(p, finding={**p.finding, "orders": [{"en": "Play on.", "when": {"q": "claim", "has": "auction"}}]})
    assert checkcache.logic_view(ordered) == checkcache.logic_view(reworded_order) != checkcache.logic_view(other_when)
    # who pays is not read by the analyses that ask only which findings fire
    seat = replace(p, finding={**p.finding, "penalty": [{**p.finding["penalty"][0], "player": "W"}]})
    assert checkcache.logic_view(seat, firing=True) == checkcache.logic_view(p, firing=True)
    assert checkcache.logic_view(seat) != checkcache.logic_view(p)
