"""The printed ruling as a native referee would sign it: no id, condition or derived name above the
technical record that closes the annex; the statement of reasons in words; alternatives headed by a
number and a full statement (never a capitalised label pasted after "if"); requests phrased so that
no inserted name is declined; no "!!" marker."""
import re

import pytest

from referee.expert.language.rulebook import list_games, load_rulebook
from referee.reports.i18n import words
from referee.reports.render import render

from case_helpers import rule_case as _rule

IF_WORDS = {"en": "If", "sr": "Ako je", "pl": "Jeżeli", "ru": "Если", "hu": "Ha"}
# a provision or production id ("preferans:7.out-of-turn"), the trail's own words, the old marker
LEAKS = [re.compile(r"\b(?:preferans|bridge|skat|ulti):[\w.]"), re.compile(r"\bderived: |\bfinding: "),
         re.compile(r"!!")]


def _casebook_disputes(tmp_path, game: str, count: int = 3):
    """A rulebook's casebook cases with several events or with requests, ruled as case files."""
    book = load_rulebook(game)
    for n, case in enumerate([c for c in book.cases if c.events or c.requests][:count]):
        data = {"header": {"table": "1", "referee": "Ana", **(case.header or {})}, "answers": case.answers}
        if case.events:
            data["events"] = case.events
        if case.requests:
            data["requests"] = case.requests
        sub = tmp_path / str(n)
        sub.mkdir()
        yield case.name, _rule(sub, game, data)


def _body(text: str, lang: str) -> str:
    """Everything above the technical record; the record itself must close the document."""
    heading = words(lang)["technical"]
    for form in (heading.upper(), f"### {heading}", f"<h3>{heading}</h3>"):
        if form in text:
            return text[:text.index(form)]
    raise AssertionError(f"no technical record ({heading!r}) in the document")


def _leaks(body: str, book) -> list[str]:
    """Ids, trail words and conditions as the productions read them ("oot_before_turn = true")."""
    condition = re.compile(r"\b(?:" + "|".join(map(re.escape, book.questions)) + r") = ")
    return [m.group(0) for rx in LEAKS + [condition] for m in rx.finditer(body)]


@pytest.mark.parametrize("game", list_games())
def test_no_id_condition_or_marker_above_the_technical_record(tmp_path, game):
    native = load_rulebook(game).language
    for name, ruling in _casebook_disputes(tmp_path, game):
        for lang in ("en", native):
            for fmt in ("text", "md", "html"):
                text = render(ruling, fmt, lang)
                body = _body(text, lang)
                assert not _leaks(body, ruling.book), (name, lang, fmt, _leaks(body, ruling.book)[:5])
                # the technical record keeps the ids and the conditions the productions read
                assert re.search(rf"\b{game}:[\w.]", text[len(body):]), (name, lang, fmt)
                assert " = " in text[len(body):], (name, lang, fmt)
            # the statement of reasons names each finding by its article, in words
            reasons = text[text.index(words(lang)["reasoning"]):len(body)]
            assert any(f.article in reasons for f in ruling.findings), (name, lang)


def _conditional(tmp_path):
    """Član 7 then Član 9, who declared out of turn not established: three
    alternatives, one per seat. (Whether the declaration came before his turn, unknown, is no violation
    established: Član 21.)"""
    return _rule(tmp_path, "preferans", {
        "header": {"table": "3", "referee": "Ana", "players": {"declarer": "Marko", "defender_1": "Jovan",
                                                                "defender_2": "Petar"}},
        "answers": {"game": "herc", "game_mode": "talon"},
        "events": [{"claim": ["out-of-turn"], "contra_level": "none", "oot_before_turn": True,
                    "oot_offender": "unknown"},
                   {"claim": ["bad-lead"], "contra_level": "none", "lead_followed": False, "lead_kind": "ordinary",
                    "lead_offender": "defender_1", "lead_rule": "lead-1"}],
        "requests": [{"party": "declarer", "asks": "upheld"}, {"party": "defender_1", "asks": "rejected"}]})


@pytest.mark.parametrize("lang", ["en", "sr"])
def test_an_alternative_is_a_numbered_heading_with_a_full_statement(tmp_path, lang):
    ruling = _conditional(tmp_path)
    assert len(ruling.alternatives) == 3
    text = render(ruling, "text", lang)
    w = words(lang)
    # never "If <Capitalised label>" / "Ako je Izjava …"
    assert not re.search(rf"\b{IF_WORDS[lang]} [A-ZČĆŠŽĐ]", text)
    first = w["alternative"].format(n=1, when="")
    assert first in text and w["alternative"].format(n=2, when="") in text
    statement = text[text.index(first) + len(first):].split("\n", 1)[0]
    assert statement[0].islower()          # lower-case after the colon: a statement, not a label
    if lang == "sr":
        assert statement.startswith("igrač koji je dao spornu izjavu o pratnji ili kontri")
    # the entries of an alternative are indented inside it, not flush left
    block = text[text.index(first):text.index(w["entries"].upper())]
    entry_lines = [ln for ln in block.splitlines() if "Marko" in ln and ("−" in ln or "+" in ln)]
    assert entry_lines and all(ln.startswith("      ") for ln in entry_lines)


def test_requests_name_the_party_after_a_label_and_no_marker_or_id_reaches_the_front_sheet(tmp_path):
    ruling = _conditional(tmp_path)
    text = render(ruling, "text", "sr")
    front = text[:text.index("PRILOG")]
    assert "!!" not in front and "Napomena: odluka je nepotpuna; nije utvrđeno: " in front
    assert "Zahtev – Marko (odigravač" in front
    # an undecided request remains open; it is not "answered: undecided"
    assert "Zahtev ostaje otvoren – " in front and "Odgovor na zahtev: nije odlučeno" not in front
    assert " traži " not in front and "Na teret:" not in front
    # the referee's and the chief referee's lines: a name line (empty to fill in) and a signature line
    assert "  Sudija\n    Ime i prezime: Ana\n    Potpis: ____" in front
    assert "  Glavni sudija meča\n    Ime i prezime: ____" in front


def test_a_request_refused_on_the_players_own_infraction_says_so_and_cites_the_article(tmp_path):
    ruling = _rule(tmp_path, "preferans", {
        "header": {"table": "1", "players": {"declarer": "Marko", "defender_1": "Jovan", "defender_2": "Petar"}},
        "answers": {"claim": ["out-of-turn"], "oot_offender": "defender_2", "oot_before_turn": True, "game": "karo",
                    "game_mode": "talon", "contra_level": "none"},
        "requests": [{"party": "defender_2", "asks": "rejected"}]})
    text = render(ruling, "text", "sr")
    assert "odbijeno – utvrđena je upravo povreda tog igrača (član 7, stav 7)." in text   # lower case inside a sentence
    assert "nalaz tereti" not in text
    ru = words("ru")
    assert "в порядке, предусмотренном правилами турнира" in ru["appeal_default"]


def test_the_reasons_name_findings_by_article_and_facts_by_their_statements(tmp_path):
    ruling = _conditional(tmp_path)
    text = render(ruling, "text", "sr")
    reasons = _body(text, "sr")[text.index("OBRAZLOŽENJE"):]
    # a finding by its article and what was concluded; its facts as the facts found state them
    # (the lead, committed after the kontra in every alternative, is found but not ruled on)
    assert "Član 9, stav 2, tačka 1 – utvrđeno, ali se po tome ne sudi (događaj 2)" in reasons
    assert "Član 7, stav 6 – utvrđena povreda; kazna nije propisana (događaj 1)" in reasons
    assert "· Polaz nije bio u skladu sa tim pravilom." in reasons
    # the keep-first rule in words: which violation is ruled on, which is not
    assert "Član 22, stav 1: sudi se samo po prvoj učinjenoj povredi (Član 7, stav 6); ne sudi se po: " in reasons
    tech = text[len(_body(text, "sr")):]
    assert "first-violation-only > " in tech and "claim = bad-lead" in tech


def test_min_and_max_in_a_working_print_as_the_value_chosen():
    from referee.reports.view import plain_working
    assert plain_working("-1 × 2 × 10 × max(1 + 1, 2)") == "−1 × 2 × 10 × 2"
    assert plain_working("min(1, 3) × 4") == "1 × 4"
    assert plain_working("2 × (1 + 4)") == "2 × (1 + 4)"
    assert plain_working(None) is None
