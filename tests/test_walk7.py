"""Faults found by blind walk 7 (preferans and skat), through the interview a referee sees and
the ruling it gives: a case in, the questions and the ruling out.

- preferans: the contra in force at any act but a statement in the declaring is the contra the
  hand was played at, one fact of the deal: asked once in a dispute of two events, and an
  answer against it refused; who gave the kontra answers "was the partner the kontraš";
- skat: a concession that stands is no irregularity (a settlement), and still ends the game;
- skat: a request to take a card back that no finding gives is refused under 4.1.2, the article
  that governs it, not under whichever article ruled (4.1.3);
- skat: the soloist's lead from Środek or Zadek is ruled beside another ground of the same act;
- skat: after the infraction that ended the game, a later act's "play continues" is neither
  asked nor ruled; the bid is asked before the level it forces, and "no higher level" is refused
  for an overbid (4.1.5).
"""
from __future__ import annotations

import pytest

from case_helpers import rule_case
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render


def walk(game: str, events: list[dict], shared: dict, limit: int = 80) -> tuple[Session, list[tuple]]:
    """Answer the interview event by event (question id -> what the referee types; ``shared``
    for the deal's questions), adding an event at the review while ``events`` has more; stop at
    the first question nobody answered. Returns the session and the questions asked, as
    (event number or None for the deal, question id)."""
    s = Session(load_rulebook(game), enter_cards=False, ask_names=False)
    asked: list[tuple] = []
    ev = 0
    for _ in range(limit):
        p = s.next()
        if p is None:
            break
        if p.kind == "review":
            if ev + 1 < len(events):
                ev += 1
                s.answer("+")
                continue
            break
        if p.kind != "question":
            break
        asked.append((None if p.event is None else p.event + 1, p.id))
        typed = shared if p.event is None else events[p.event]
        if p.id not in typed:
            break
        s.answer(str(typed[p.id]))
    return s, asked


# a defender's dolaz disputed under a kontra, then the 7/8-tricks conduct of the play
DOLAZ = {"claim": "bad-dolaz", "contra_level": "kontra", "dolaz_offender": "defender_2",
         "dolaz_situation": "partner-bid", "holding_partner": "d16", "no_trump": "no"}
SEVEN = {"claim": "seven-eight", "countable": "eight", "se_offender_correct": "no", "se_both_correct": "yes",
         "se_conduct": "demand"}
DEAL = {"deal_play": "both", "game": "herc", "game_mode": "talon",
        "deal_contra": "kontra", "kontras": "defender_2", "tricks_first": "3", "tricks_second": "0"}


def test_the_contra_of_the_hand_is_asked_once_in_a_dispute_of_two_events():
    s, asked = walk("preferans", [DOLAZ, SEVEN], DEAL)
    assert asked[-1] == (2, "se_conduct") and s.next().kind == "review", asked
    contra = [a for a in asked if a[1] in ("contra_level", "deal_contra")]
    assert contra == [(1, "contra_level")], asked
    # the second event's act is weighed at the same contra, taken from what was said
    assert s.events[1].get("contra_level") == "kontra" and s.shared.get("deal_contra") == "kontra"


def test_a_contra_against_the_contra_of_the_hand_is_refused_but_not_for_a_statement_out_of_turn():
    book = load_rulebook("preferans")
    bad = Session(book, enter_cards=False, ask_names=False)
    bad.shared.update({"deal_play": "both", "deal_contra": "kontra", "game": "herc"})
    bad.events[0].update({"claim": ["seven-eight"]})
    assert bad.impossible("contra_level", "none", 0) is not None
    assert bad.impossible("contra_level", "kontra", 0) is None
    # a statement out of turn in the declaring meets the level then in force: a later kontra
    # does not make its level the hand's
    oot = Session(book, enter_cards=False, ask_names=False)
    oot.shared.update({"deal_play": "both", "deal_contra": "kontra", "game": "herc"})
    oot.events[0].update({"claim": ["out-of-turn"]})
    assert oot.impossible("contra_level", "none", 0) is None


def test_who_gave_the_kontra_answers_whether_the_partner_who_fell_was_the_kontras():
    book = load_rulebook("preferans")
    s = Session(book, enter_cards=False, ask_names=False)
    s.shared.update({"kontras": "defender_2"})
    s.events[0].update({"claim": ["bad-dolaz"], "dolaz_offender": "defender_1", "contra_level": "kontra"})
    assert s.impossible("partner_kontras", False, 0) is not None
    assert s.impossible("partner_kontras", True, 0) is None
    s.shared["kontras"] = "defender_1"
    assert s.impossible("partner_kontras", True, 0) is not None


# --- skat ---------------------------------------------------------------------------------
GAME = {"game_type": "clubs", "matadors_with": "with", "matadors": 1, "hand": "not_hand", "announced": "none"}


def decision(ruling, lang: str = "en") -> str:
    return render(ruling, "text", lang).split("ANNEX", 1)[0]


def test_a_concession_that_stands_is_no_irregularity_and_still_ends_the_game(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": {"claim": ["soloist-concedes"], "cards_in_hand": 10, **GAME,
                                                       "bid": 24},
                                          "requests": [{"party": "soloist", "asks": "rejected"}]})
    assert [(f.provisions, f.kind) for f in ruling.findings] == [(["skat:4.3.1"], "settlement")]
    text = render(ruling, "text", "en")
    assert "Irregularity established" not in text and "the concession stands" in text
    assert "Offender" not in text
    assert "no irregularity, but the rules settle the deal against" in text
    assert "−48" in text
    # a concession without consent at 8 cards merely has no effect: no settlement
    none = rule_case(tmp_path, "skat", {"answers": {"claim": ["soloist-concedes"], "cards_in_hand": 8,
                                                     "opponent_consent": False}})
    assert [f.kind for f in none.findings] == ["no-violation"]
    # it ends the game: an act after it is not ruled (the concession competes as the first)
    later = rule_case(tmp_path, "skat", {"answers": {**GAME, "bid": 24}, "events": [
        {"claim": ["soloist-concedes"], "cards_in_hand": 9},
        {"claim": ["gestures-comments"], "offender": "opponent_1", "claimed_at_once": True,
         "revealing_or_influencing": True}]})
    assert [(f.provisions, f.kind) for f in later.findings] == [(["skat:4.3.1"], "settlement")]
    assert [n.article for n in later.not_ruled] == ["4.2.9"]


def test_a_card_taken_back_is_refused_under_the_article_that_governs_it(tmp_path):
    lead = {"claim": ["lead-before-announcement"], "announced_before_lead": True, "soloist_place": "zadek",
            "lead_card_on_table": True, "lead_noticed": "before_trick_complete", "innocent_choice": "end",
            **GAME, "bid": 30}
    ask = [{"party": "soloist", "asks": "effect:card_taken_back"}]
    for answers in (lead, {"claim": ["soloist-concedes"], "cards_in_hand": 10, **GAME, "bid": 24}):
        ruling = rule_case(tmp_path, "skat", {"answers": answers, "requests": ask})
        assert [(r.answer, r.articles) for r in ruling.requests] == [("refused", ["4.1.2"])]
        assert "(see 4.1.2)" in decision(ruling)
        assert "zob. pkt. 4.1.2" in decision(ruling, "pl")
    # where play continues on the opponents' demand the card goes back: granted, by the finding
    ruling = rule_case(tmp_path, "skat", {"answers": {**lead, "innocent_choice": "continue", "choice_by": "opponent_1"},
                                          "requests": [{"party": "soloist", "asks": "effect:card_taken_back",
                                                        "on": "soloist"}]})
    assert [r.answer for r in ruling.requests] == ["granted"]


def test_the_lead_from_zadek_is_ruled_beside_another_ground_of_the_same_act(tmp_path):
    answers = {"claim": ["lead-before-announcement", "wrong-lead"], "offender": "soloist", "claims_one_act": True,
               "announced_before_lead": True, "soloist_place": "zadek", "lead_entitled": False,
               "lead_card_on_table": True, "last_trick": False, "lead_noticed": "before_trick_complete",
               "innocent_choice": "end", **GAME, "bid": 24}
    ruling = rule_case(tmp_path, "skat", {"answers": answers})
    assert ("lead-before-announcement", "violation") in [(f.claim, f.kind) for f in ruling.findings]
    assert [f.penalty[0].amount for f in ruling.findings if f.provisions == ["skat:4.1.4"]] == [-48]
    # the interview asks the first trick's state of play neither way: no trick is complete
    _, asked = walk("skat", [{"claim": "lead-before-announcement,wrong-lead", "offender": "soloist",
                              "claims_one_act": "yes", "announced_before_lead": "yes",
                              "lead_entitled": "no", "lead_card_on_table": "yes", "last_trick": "no",
                              "lead_noticed": "before_trick_complete", "innocent_choice": "end"}],
                    {"soloist_place": "zadek", "game_type": "clubs", "matadors_with": "with", "matadors": "1",
                     "hand": "not_hand", "announced": "none", "bid": "24"})
    assert "points_counted" not in [q for _, q in asked] and "decided" not in [q for _, q in asked], asked


def test_after_the_game_ended_a_later_act_asks_no_choice_and_play_does_not_continue(tmp_path):
    first = {"claim": "wrong-lead", "offender": "opponent_1", "lead_entitled": "no", "lead_card_on_table": "yes",
             "last_trick": "no", "lead_noticed": "before_trick_complete", "innocent_choice": "end",
             "points_counted": "no", "decided": "open"}
    second = {"claim": "play-before-turn", "offender": "opponent_2", "claimed_at_once": "yes", "early_act": "played",
              "could_affect": "yes", "innocent_choice": "continue", "choice_by": "soloist"}
    deal = {"game_type": "clubs", "matadors_with": "with", "matadors": "1", "hand": "not_hand", "announced": "none",
            "bid": "24", "required_level": "none", "soloist_place": "unknown"}
    s, asked = walk("skat", [first, second], deal)
    assert s.next().kind == "review", asked
    assert (2, "innocent_choice") not in asked and (1, "innocent_choice") in asked, asked
    # the first act let play go on: the second is ruled, its choice asked
    s, asked = walk("skat", [{**first, "innocent_choice": "continue", "choice_by": "soloist"},
                             {**second, "innocent_choice": "end", "points_counted": "no", "decided": "open"}],
                    {**deal, "played_out": "no"})
    assert (2, "innocent_choice") in asked, asked


def test_the_bid_is_asked_before_the_level_it_forces():
    event = {"claim": "gestures-comments", "offender": "opponent_1", "claimed_at_once": "yes",
             "revealing_or_influencing": "yes", "innocent_choice": "end", "points_counted": "no", "decided": "open",
             "level_still_open": "yes"}
    deal = {"game_type": "clubs", "matadors_with": "with", "matadors": "1", "hand": "not_hand", "announced": "none",
            "bid": "30", "soloist_place": "unknown"}
    s, asked = walk("skat", [event], deal)
    ids = [q for _, q in asked]
    assert ids[-1] == "required_level", ids
    assert ids.index("bid") < ids.index("required_level"), ids
    # clubs with one is worth 24 simple: a bid of 30 forces Schneider, "none" is refused
    with pytest.raises(AnswerRefused):
        s.answer("none")
    s.answer("schneider")
    while (p := s.next()) is not None and p.kind == "question":
        s.answer({"level_still_open": "yes"}.get(p.id, ""))
    ruling = s.rule()
    assert [f.penalty[0].amount for f in ruling.findings if "skat:4.1.5" in f.provisions] == [36]
    # with the bid at 24 the simple game reaches it: no higher level, not asked at all
    s, asked = walk("skat", [event], {**deal, "bid": "24", "required_level": "none"})
    assert "required_level" not in [q for _, q in asked] and s.shared.get("required_level") == "none"
