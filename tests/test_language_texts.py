"""What a ruling prints exists in the language asked: every question states its answer as a fact
in English and in its rulebook's language, every parameter says where its values come from in
both, and no internal word (ids, parameter names, file names) reaches a printed text."""
import re
import shutil

import pytest

from conftest import FIXTURES
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import list_games, load_rulebook

GAMES = list_games()


@pytest.mark.parametrize("game", GAMES)
def test_every_question_states_its_answer_as_a_fact_in_english_and_the_rulebook_language(game):
    book = load_rulebook(game)
    missing = []
    for q in book.questions.values():
        for lang in ("en", book.language):
            said = (q.fact or {}).get(lang)
            ok = (isinstance(said, dict) and set(said) == {"yes", "no"}) if q.type == "yesno" \
                else isinstance(said, str) and said.strip()
            if not ok:
                missing.append(f"{q.id} ({lang})")
    assert not missing, "questions without a fact: " + ", ".join(missing)


def test_a_yes_no_fact_reads_as_a_statement_and_a_label_precedes_its_value():
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.answers import check_all
    from referee.reports.view import build
    book = load_rulebook("preferans")
    case = next(c for c in book.cases if c.answers.get("partner_fell") is True
                and "dolaz_offender" in c.answers)
    facts = dict(build(Ruler(book).rule(check_all(case.answers, book)), "sr")["facts"])
    assert facts["Saigrač igrača čija se licitacija, dolaz ili odigravanje osporava je pao."] == ""
    assert facts["Igrač čiji se dolaz osporava:"].startswith(("prvi pratilac", "drugi pratilac"))


def _mini(tmp_path, old: str, new: str):
    shutil.copytree(FIXTURES, tmp_path / "k")
    path = tmp_path / "k" / "mini" / "questions.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return load_rulebook("mini", tmp_path / "k")


def test_a_yes_no_fact_needs_both_statements(tmp_path):
    with pytest.raises(RefereeError) as err:
        _mini(tmp_path, '  text: {en: "Game?"}',
              '  text: {en: "Game?"}\n  fact: {en: {yes: "A game was named."}}')
    assert "fact" in str(err.value) and "a label string" in str(err.value)   # game is a choice
    book = _mini(tmp_path / "2", '  text: {en: "Game?"}', '  text: {en: "Game?"}\n  fact: {en: "Game"}')
    assert book.questions["game"].fact == {"en": "Game"}


@pytest.mark.parametrize("game", GAMES)
def test_every_parameter_says_where_its_values_come_from_in_both_languages(game):
    book = load_rulebook(game)
    for name, param in book.parameters.items():
        for key in ("description", "source"):
            value = param.get(key)
            assert isinstance(value, dict) and value.get("en") and value.get(book.language), \
                f"{game}: parameter {name}: {key} needs en and {book.language}"


INTERNAL = re.compile(r"inventory|инвентар|inwentar|leltár|\bproductions?\b|продукци|produkcij|produkcj|produkció"
                      r"|rulebook\.yaml|\.yaml\b|\bseeds?\b|Change (them|the values) here|Kodirano|parametr|параметр"
                      r"|paraméter", re.I)


def _printed(book):
    """Every text a ruling or the interview prints from the rulebook, with where it comes from."""
    def texts(value):
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [t for v in value.values() for t in texts(v)]
        if isinstance(value, list):
            return [t for v in value for t in texts(v)]
        return []
    for p in book.provisions.values():
        yield from ((f"note {p.id}", t) for t in texts(p.note))
    for p in book.productions:
        f = p.finding or {}
        for kind, value in (("reading", p.reading), ("why", p.why), ("summary", f.get("summary")),
                            # an order's when: is a condition, not printed
                            ("orders", [{k: v for k, v in o.items() if k != "when"} if isinstance(o, dict) else o
                                        for o in f.get("orders") or []])):
            yield from ((f"{kind} {p.id}", t) for t in texts(value))
    for q in book.questions.values():
        for kind, value in (("text", q.text), ("help", q.help), ("fact", q.fact),
                            ("values", [lab for _, lab in q.values])):
            yield from ((f"{kind} {q.id}", t) for t in texts(value))
    for name, e in book.effects.items():
        yield from ((f"effect {name}", t) for t in texts(e.get("label")) + texts(e.get("against")))
    for name, param in book.parameters.items():
        yield from ((f"parameter {name}", t) for t in texts(param.get("description")) + texts(param.get("source")))


@pytest.mark.parametrize("game", GAMES)
def test_no_internal_word_reaches_a_printed_text(game):
    book = load_rulebook(game)
    names = [n for n in list(book.parameters) + list(book.questions) + book.seat_ids if "_" in n]
    ident = re.compile(rf"\b{game}:[\w.-]+|(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    leaks = [f"{where}: {m.group(0)!r} in {t[:80]!r}" for where, t in _printed(book)
             for m in [INTERNAL.search(t) or ident.search(t)] if m]
    assert not leaks, "\n".join(leaks)
