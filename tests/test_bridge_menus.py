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
