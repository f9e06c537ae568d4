"""Blind walk 9 (ps): questions asked in the order a referee expects them, and the annex's
"other articles considered" read as plain statements.

1. Preferans: Član 18 ("Sudije ne mogu suditi u partijama u kojima učestvuju") is the referee's
   own bar, read by no other article: whether the referee plays at the table is asked only when a
   player objects to it (claim referee-plays), not after every claim.
2. Skat: the soloist's place (Przodek/Środek/Zadek) is asked first, before the players' names, as
   a choice: the name prompts and the seats offered then name each role by its place.
3. The annex's "other articles considered" say what an article requires as a statement, and an
   article applied jointly reads as applied.
"""
from __future__ import annotations

import pytest

from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook

PREF_NAMES = {"declarer": "South", "defender_1": "West", "defender_2": "East"}


@pytest.fixture(scope="module")
def preferans():
    return load_rulebook("preferans")


def _walk(session, answers: dict, limit: int = 60) -> list[str]:
    """Answer each question asked from ``answers`` ('unknown' for the rest) until the review."""
    asked = []
    for _ in range(limit):
        prompt = session.next()
        if prompt is None or prompt.kind == "review":
            break
        asked.append(prompt.id)
        session.answer(str(answers.get(prompt.id, "unknown")))
    return asked


def test_a_preferans_dispute_does_not_ask_whether_the_referee_plays(preferans):
    s = Session(preferans, header={"players": PREF_NAMES}, enter_cards=False)
    asked = _walk(s, {"claim": "bad-dolaz", "deal_play": "both", "game": "tref", "game_mode": "talon",
                      "contra_level": "kontra", "kontras": "defender_1", "tricks_first": 2, "tricks_second": 1})
    assert asked[0] == "claim"
    assert "referee_plays" not in asked


def test_the_objection_that_the_referee_plays_asks_it_at_once(preferans):
    s = Session(preferans, header={"players": PREF_NAMES}, enter_cards=False)
    asked = _walk(s, {"claim": "referee-plays", "referee_plays": "yes"})
    assert asked[:2] == ["claim", "referee_plays"]


# --- 2. skat: the soloist's place first ------------------------------------------------------
@pytest.fixture(scope="module")
def skat():
    return load_rulebook("skat")


def test_the_soloists_place_is_asked_first_and_the_names_follow_it(skat):
    s = Session(skat, enter_cards=False)
    first = s.next()
    assert (first.kind, first.id, first.type) == ("question", "soloist_place", "choice")
    assert [o.value for o in first.options] == ["przodek", "srodek", "zadek"]
    s.answer("Środek")                              # a place typed by either of its names
    prompts = []
    for name in ("Anna", "Bartek", "Cezary"):
        p = s.next()
        assert p.kind == "name"
        prompts.append(p.text)
        s.answer(name)
    assert "first opponent (Przodek/Vorhand)" in prompts[1], prompts
    assert "second opponent (Zadek/Hinterhand)" in prompts[2], prompts
    assert not any("when the soloist is" in t for t in prompts), prompts
    # 'back' at the next prompt undoes the last name, and again down to the place, still first
    for _ in range(3):
        s.back()
    assert s.next().kind == "name"
    s.back()
    assert s.next().id == "soloist_place"


def test_with_the_names_given_the_place_still_comes_first_and_is_never_asked_again(skat):
    names = {"soloist": "Anna", "opponent_1": "Bartek", "opponent_2": "Cezary"}
    s = Session(skat, header={"players": names}, enter_cards=False)
    assert s.next().id == "soloist_place"
    s.answer("Mittelhand")
    assert s.shared["soloist_place"] == "srodek"
    asked = _walk(s, {"claim": "soloist-shows-cards", "innocent_choice": "end", "game_type": "clubs",
                      "tricks_given_up": "no", "claim_holds": "no", "matadors_with": "with", "matadors": 1,
                      "hand": "not_hand", "announced": "none", "points_counted": "yes", "soloist_points": 52,
                      "opponents_points": 15, "bid": 18})
    assert asked[0] == "claim" and not {"soloist_place", "soloist_seat"} & set(asked), asked
    # the seats offered for a request name each player by his place
    s.answer("r")
    party = s.next()
    assert [o.label for o in party.options][1:] == ["first opponent (Przodek/Vorhand)",
                                                   "second opponent (Zadek/Hinterhand)"]


def test_a_case_file_with_the_older_free_text_seat_still_names_the_places(tmp_path):
    from case_helpers import rule_case
    from referee.reports.render import render
    ruling = rule_case(tmp_path, "skat", {"header": {"players": {"opponent_2": "Cezary"}}, "answers": {
        "claim": ["soloist-concedes"], "soloist_seat": "Środek"}})
    assert "Cezary (second opponent, Zadek/Hinterhand)" in render(ruling, "md", "en")


# --- 3. the annex's "other articles considered": plain statements -----------------------------
P2 = {"header": {"players": PREF_NAMES},
      "answers": {"deal_play": "both", "game": "tref", "game_mode": "talon", "kontras": "defender_1",
                  "tricks_first": 2, "tricks_second": 1, "kontras_three": False, "kontras_no_trump": False,
                  "deal_contra": "kontra", "claim": ["bad-dolaz"], "contra_level": "kontra",
                  "dolaz_offender": "defender_2", "dolaz_situation": "lider-only", "holding_lider": ["none"],
                  "no_trump": False, "partner_play_error": False, "borderline": True,
                  "contra_hopeless": "unknown", "claimant_dolaz": "regular", "dolaz_caused_fall": "unknown",
                  "partner_kontras": True}}


@pytest.mark.parametrize("lang, said", [
    ("en", "Član 8, stav 8: not applied — it requires that “dolaz of the claimant, who declared first” not be "
           "“regular and above the minimum”; it was “regular and above the minimum”"),
    ("sr", "Član 8, stav 8: ne primenjuje se – uslov je da „dolaz reklamanta, prvog na izjašnjavanju“ ne bude "
           "„regularan i nije minimalan“; bilo je „regularan i nije minimalan“")])
def test_a_condition_an_article_needs_not_to_hold_is_said_of_the_fact_by_name(tmp_path, lang, said):
    """Walk 9, P2: "it requires: not dolaz of the claimant, who declared first: regular and above the
    minimum (found: regular and above the minimum)" glued "not" onto the fact's label."""
    from case_helpers import rule_case
    from referee.reports.render import render
    text = render(rule_case(tmp_path, "preferans", P2), "md", lang)
    assert said in text
    assert "requires: not " not in text and "uslov: ne " not in text


@pytest.mark.parametrize("lang", ["en", "sr", "pl", "ru", "hu"])
def test_every_language_says_a_requirement_and_a_joint_application_plainly(lang):
    from referee.reports.i18n import words
    w = words(lang)
    assert all(p in w["considered_req"] for p in ("{req}", "{found}"))
    assert all(p in w["considered_req_not"] for p in ("{fact}", "{value}", "{found}"))
    assert "{n}" in w["joint_see"] and "{others}" in w["joint"]
    # "applied together with …", never "not applied on its own, but …" first
    assert not w["joint"].startswith(("not ", "ne ", "nie ", "отдельно не", "nem "))


def test_an_article_applied_jointly_names_the_finding_that_applies_it(tmp_path):
    """Walk 9, S1: "4.3.4: not applied on its own, but together with 4.1.4" read as if neither
    applied; it is applied together with 4.1.4, in the finding of point 1."""
    from case_helpers import rule_case
    from referee.reports.render import render
    s1 = {"answers": {"claim": ["soloist-shows-cards"], "innocent_choice": "end", "game_type": "clubs",
                      "tricks_given_up": False, "claim_holds": False, "matadors_with": "with", "matadors": 1,
                      "hand": "not_hand", "announced": "none", "points_counted": True,
                      "soloist_points": 52, "opponents_points": 15, "bid": 18}}
    text = render(rule_case(tmp_path, "skat", s1), "md", "en")
    assert "4\\.3.4: applied together with 4.1.4 in one finding, not on its own (see point 1)" in text
    assert "not applied on its own" not in text
