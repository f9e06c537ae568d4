"""The bridge menus a referee answers by key: each item's [name] fits the line beside its label.

The console prints `  N. label [name]` and drops the [name] of a line that would wrap an
80-column terminal (expert/console/prompt.py), leaving a newcomer to guess the key: every item of
the claim menus, in English and Russian, must fit."""
from __future__ import annotations

import pytest

from referee.expert.language.rulebook import load_rulebook

MENUS = ("claim", "play_claim", "l70_issues")


@pytest.fixture(scope="module")
def book():
    return load_rulebook("bridge")


@pytest.mark.parametrize("qid", MENUS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_claim_menu_item_shows_its_name_on_an_80_column_line(book, qid, lang):
    too_long = [line for i, (value, label) in enumerate(book.questions[qid].values, 1)
                if len(line := f"  {i}. {label[lang]} [{value}]") > 80]
    assert too_long == []


def test_the_play_out_request_shows_its_name_in_the_request_menu(book):
    from referee.expert.interview.session import Session
    session = Session(book)
    options = session.request_options()
    k = [o.value for o in options].index("effect:play_continues") + 1
    label = next(o.label for o in options if o.value == "effect:play_continues")
    assert len(f"  {k}. * {label} [effect:play_continues]") <= 80


# --- an effect no penalty gives, answered by the articles it names (rulebook.yaml refused_by) ---

def test_an_effect_answered_by_articles_must_name_provisions_of_the_rulebook(tmp_path):
    from referee.expert.language.errors import RefereeError
    from test_cross_event import _mini
    root = _mini(tmp_path, "")
    rb = root / "mini" / "rulebook.yaml"
    rb.write_text(rb.read_text(encoding="utf-8")
                  + "  go_on: {label: {en: go on}, refused_by: [mini:9]}\n", encoding="utf-8")
    with pytest.raises(RefereeError) as exc:
        load_rulebook("mini", root)
    assert "refused_by" in str(exc.value) and "provision ids" in str(exc.value)
    rb.write_text(rb.read_text(encoding="utf-8").replace("[mini:9]", "[mini:1]"), encoding="utf-8")
    assert load_rulebook("mini", root).effects["go_on"]["refused_by"] == ["mini:1"]


def test_the_claim_laws_refuse_playing_a_claim_out_whatever_its_outcome(book):
    """Decided (70D: no failing alternative) or not (70E cut off, another ground): the claim is
    adjudicated on the claimer's statement, so the request to play on is refused, citing Law 70."""
    from referee.expert.engine.requests import answer_all
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.dispute import Request
    for issues in (["unstated-line"], ["other-ground"], ["new-line"]):
        answers = {"claim": ["claim-concession"], "l70_claimer": "S", "l70_issues": issues}
        if issues == ["new-line"]:
            answers["l70d_alternative_fails"] = False
        ruling = Ruler(book).rule(answers)
        (got,) = answer_all(ruling, [Request(party="S", asks="effect:play_continues")])
        assert got.answer == "refused", (issues, got.reason)
        assert any(p.startswith("bridge:70") for p in got.provisions)
