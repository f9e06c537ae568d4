"""How a penalty line reads: units agree with their amounts (1 trick / 2 tricks, 2 взятки / 5 взяток,
2 punkty / 5 punktów), tricks go from side to side, a payment names who is paid."""
import shutil

import pytest

from conftest import FIXTURES
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler
from referee.reports.i18n import unit_for
from referee.reports.view import penalty_words


@pytest.mark.parametrize("lang, forms, expected", [
    ("en", ["trick", "tricks"], {1: "trick", 2: "tricks", 11: "tricks", 21: "tricks"}),
    ("ru", ["взятка", "взятки", "взяток"], {1: "взятка", 2: "взятки", 5: "взяток", 11: "взяток",
                                           21: "взятка", 22: "взятки", 112: "взяток"}),
    ("sr", ["štih", "štiha", "štihova"], {1: "štih", 3: "štiha", 5: "štihova", 21: "štih"}),
    ("pl", ["punkt", "punkty", "punktów"], {1: "punkt", 2: "punkty", 5: "punktów", 21: "punktów",
                                            24: "punkty", 13: "punktów"}),
    ("hu", ["egység"], {1: "egység", 5: "egység"}),
])
def test_the_form_follows_the_number(lang, forms, expected):
    assert {n: unit_for(forms, lang, n) for n in expected} == expected


def test_a_single_word_is_used_as_it_is():
    assert unit_for("bula", "sr", 5) == "bula" and unit_for(None, "en", 2) == ""


def _mini(tmp_path, unit: str):
    shutil.copytree(FIXTURES, tmp_path / "k")
    meta = tmp_path / "k" / "mini" / "rulebook.yaml"
    meta.write_text(meta.read_text().replace("unit: {en: supe}", unit))
    return load_rulebook("mini", tmp_path / "k")


def test_a_ruling_states_the_amount_with_the_matching_form(tmp_path):
    book = _mini(tmp_path, "unit: {en: [sup, supe]}")
    ruling = Ruler(book).rule({"claim": ["early"], "early_who": "d1", "early_turn": False, "game": "karo"})
    lines = [penalty_words(ruling, line, "en") for f in ruling.findings for line in f.penalty]
    assert "first defender — supe: 6 bula" not in lines and any(line.endswith(": 2 supe, against declarer")
                                                                 for line in lines)
    ruling.findings[0].penalty[1].amount = 1
    assert penalty_words(ruling, ruling.findings[0].penalty[1], "en").endswith(": 1 sup, against declarer")


def test_a_malformed_unit_is_refused_naming_the_effect(tmp_path):
    with pytest.raises(RefereeError) as err:
        _mini(tmp_path, "unit: {en: [1, 2]}")
    assert "effect 'supe'" in str(err.value) and "forms [one, few, many]" in str(err.value)


def test_a_trick_transfer_names_both_sides_and_a_payment_who_is_paid():
    from referee.expert.language.answers import check_all
    bridge = load_rulebook("bridge")
    answers = {"claim": ["play"], "play_claim": ["revoke"], "offender": "E", "l63_events": ["played-next"],
               "l63_trick12": False, "l64_exception": ["none"], "l64_winner": "offender", "l64_later_tricks": 2}
    ruling = Ruler(bridge).rule(check_all(answers, bridge), {"players": {"E": "Ivanov"}})
    lines = {lang: [penalty_words(ruling, p, lang) for f in ruling.findings for p in f.penalty]
             for lang in ("en", "ru")}
    assert lines["en"] == ["North–South — tricks transferred to this side: 2 tricks, from East–West (Ivanov)"]
    assert lines["ru"] == ["Север–Юг — передача взяток стороне: 2 взятки, от стороны Восток–Запад (Ivanov)"]
    ulti = load_rulebook("ulti")
    case = next(c for c in ulti.cases if any(e.get("effect") == "pays" for f in c.expect.get("findings") or []
                                             for e in f.get("penalty") or []))
    paid = Ruler(ulti).rule(check_all(case.answers, ulti))
    line = next(p for f in paid.findings for p in f.penalty if p.effect == "pays")
    # the effect's own label, then who is paid
    label = paid.book.effects["pays"]["label"]["en"]
    assert f" — {label}: " in penalty_words(paid, line, "en") and ", to " in penalty_words(paid, line, "en")
    assert penalty_words(paid, line, "hu").endswith(" javára")


def test_an_against_phrase_without_who_is_refused(tmp_path):
    with pytest.raises(RefereeError) as err:
        _mini(tmp_path, "unit: {en: supe}, against: {en: 'to the declarer'}")
    assert "effect 'supe'" in str(err.value) and "{who}" in str(err.value)


def test_a_computed_amount_shows_its_working_without_ones_and_zeros():
    from referee.expert.language.expressions import amount_working
    book = load_rulebook("mini", FIXTURES)
    value = {"param": "game_value", "key": {"answer": "game"}}
    assert amount_working({"mul": [2, value]}, book, {"game": "karo"}) == "2 × 6"
    assert amount_working({"add": [{"mul": [1, 3]}, 0, {"mul": [2, 2]}]}, book, {}) == "3 + (2 × 2)"
    assert amount_working({"mul": [1, value]}, book, {"game": "pik"}) is None      # nothing to show
    assert amount_working(value, book, {"game": "pik"}) is None
    assert amount_working({"mul": [2, value]}, book, {}) is None                   # game not answered
    assert amount_working({"max": [{"add": [2, 1]}, 3]}, book, {}) == "max(2 + 1, 3)"


def test_a_payment_of_zero_is_kept_in_the_record_but_not_printed():
    from referee.expert.language.answers import check_all
    from referee.reports.view import build
    ulti = load_rulebook("ulti")
    case = next(c for c in ulti.cases if any(e.get("amount") == 0 for f in c.expect.get("findings") or []
                                             for e in f.get("penalty") or []))
    ruling = Ruler(ulti).rule(check_all(case.answers, ulti))
    assert any(p.amount == 0 for f in ruling.findings for p in f.penalty)
    assert not any(": 0 " in line for f in build(ruling)["findings"] for line in f["penalty"])


def test_a_ruling_says_where_the_values_in_its_amounts_come_from():
    from referee.expert.language.answers import check_all
    from referee.reports.view import build
    ulti = load_rulebook("ulti")
    case = next(c for c in ulti.cases if any(e.get("effect") == "pays" for f in c.expect.get("findings") or []
                                             for e in f.get("penalty") or []))
    view = build(Ruler(ulti).rule(check_all(case.answers, ulti)))
    used = [v for f in view["findings"] for v in f["values_used"]]
    assert used and all(": " in v for v in used)
    assert any("source text" in v.lower() for v in used)
