"""Skat disputes of blind walk 5 (S1, S2, S4): a case in, a ruling (or the interview's questions)
out. Each test names the fault it guards against:

- the signed ruling names each player's actual place once the soloist's place is given, never the
  seat label that describes both cases ("Zadek/Hinterhand; Środek/Mittelhand when the soloist is Zadek");
- the point of section 4 that was broken is among the articles applied when the innocent side
  demands that play continue (4.2.7 with 4.1.6), not listed as set aside;
- the innocent side's choice (4.1.6) is not asked for a revoke found after the game (4.2.4, 4.2.5);
- how the soloist's card came to be seen is asked before 4.1.9's leave to put it back is applied;
- no Polish words in the articles' labels, which English rulings print.
"""
from __future__ import annotations

import re

from case_helpers import rule_case
from referee.expert.interview.relevance import Interview, prune
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render

GAME = {"game_type": "hearts", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
        "announced": "none", "bid": 20}

# S2: Mittelhand is the soloist; Hinterhand revoked in trick 3, found after the game; nobody can
# say whether the tricks of both sides had been mixed
S2 = {**GAME, "required_level": "none", "played_out": True, "final_soloist_points": 55,
      "claim": ["revoke"], "offender": "opponent_2", "could_follow": True,
      "revoke_found": "after_game", "cards_mixed": "unknown", "points_counted": True,
      "soloist_points": 14, "opponents_points": 11}

# S1: Vorhand is the soloist; Hinterhand plays before Mittelhand, the soloist demands play on
S1 = {"game_type": "clubs", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
      "announced": "none", "bid": 18, "played_out": True, "final_soloist_points": 92,
      "final_soloist_tricks": 8, "claim": ["play-before-turn"], "offender": "opponent_2",
      "claimed_at_once": True, "early_act": "played", "could_affect": True,
      "innocent_choice": "continue", "choice_by": "soloist"}

# S4, event 1: the soloist drops a card face up
S4_DROP = {"game_type": "spades", "matadors_with": "without", "matadors": 2, "hand": "not_hand",
           "announced": "none", "bid": 22, "played_out": True, "final_soloist_points": 68,
           "claim": ["cards-exposed"], "offender": "soloist", "claimed_at_once": True,
           "exposure_kind": "dropped_or_shown"}


def asked(book, answers: dict) -> list[str]:
    """The questions the interview asks, in order, answered from ``answers`` (a question they do
    not answer ends the walk: it is the next one the referee would see)."""
    interview = Interview(book)
    order: list[str] = []
    for _ in range(3 * len(book.questions)):
        q = interview.next_question()
        if q is None or q.id not in answers:
            if q is not None:
                order.append(q.id)
            break
        order.append(q.id)
        interview.give(q.id, answers[q.id])
        interview.answers = prune(book, interview.answers)
    return order


def test_a_revoke_found_after_the_game_does_not_ask_whether_play_continues():
    book = load_rulebook("skat")
    questions = asked(book, {**S2, "innocent_choice": "end", "choice_by": "soloist"})
    assert "cards_mixed" in questions
    assert "innocent_choice" not in questions and "choice_by" not in questions


def test_a_revoke_found_at_once_still_asks_whether_play_continues():
    book = load_rulebook("skat")
    answers = {**S2, "revoke_found": "at_once", "claimed_at_once": True, "innocent_choice": "end",
               "points_counted": False, "decided": "open"}
    answers.pop("cards_mixed")
    assert "innocent_choice" in asked(book, answers)


def test_the_soloist_dropping_a_card_is_asked_how_it_came_to_be_seen():
    book = load_rulebook("skat")
    assert "soloist_card_how" in asked(book, S4_DROP)


def test_a_card_the_soloist_showed_on_purpose_is_not_put_back_under_4_1_9(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": {**S4_DROP, "soloist_card_how": "on_purpose"}})
    assert [(f.provisions, f.kind) for f in ruling.findings] == [
        (["skat:4.1.9.soloist-exception"], "undecided")]
    accident = rule_case(tmp_path, "skat", {"answers": {**S4_DROP, "soloist_card_how": "by_accident"}})
    assert [(f.provisions, f.kind) for f in accident.findings] == [
        (["skat:4.1.9.soloist-exception"], "no-violation")]


def test_the_point_broken_is_applied_when_play_continues(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": S1, "requests": [
        {"party": "soloist", "asks": "effect:play_continues", "text": "let us play on"}]})
    standing = {tuple(f.provisions): f.kind for f in ruling.findings}
    assert standing == {("skat:4.2.7", "skat:4.1.11", "skat:4.1.6"): "violation-no-penalty",
                        ("skat:4.1.6", "skat:4.1.2"): "rectification"}
    text = render(ruling, "text", "en")
    applied = text.split("ARTICLES APPLIED", 1)[1].split("REQUESTS", 1)[0]
    assert "4.2.7:" in applied and "4.1.6:" in applied
    assert "set aside" not in text.split("ANNEX", 1)[0]
    assert [r.answer for r in ruling.requests] == ["granted"]


def test_the_ruling_names_each_players_actual_place(tmp_path):
    header = {"players": {"soloist": "Jan", "opponent_1": "Karl", "opponent_2": "Ewa"}}
    answers = {**S2, "cards_mixed": False, "soloist_seat": "Mittelhand"}
    ruling = rule_case(tmp_path, "skat", {"header": header, "answers": answers})
    text = render(ruling, "text", "en")
    assert "Jan (soloist, Środek/Mittelhand); Karl (first opponent, Przodek/Vorhand); Ewa (second opponent, Zadek/Hinterhand)" in text
    assert "offender: Ewa (second opponent, Zadek/Hinterhand)" in text
    assert "when the soloist is" not in text
    polish = render(ruling, "text", "pl")
    assert "Ewa (drugi przeciwnik, Zadek)" in polish and "Jan (solista, Środek)" in polish


def test_a_place_typed_in_polish_or_not_given(tmp_path):
    answers = {**S2, "cards_mixed": False, "soloist_seat": " przodek "}
    text = render(rule_case(tmp_path, "skat", {"answers": answers}), "text", "en")
    assert "offender: second opponent (Zadek/Hinterhand)" in text
    # Przodek (Vorhand) soloist: the second opponent still sits Zadek (Hinterhand)
    assert "second opponent (Zadek/Hinterhand)" in text
    unplaced = render(rule_case(tmp_path, "skat", {"answers": {**S2, "cards_mixed": False}}), "text", "en")
    assert "second opponent (Zadek/Hinterhand; Środek/Mittelhand when the soloist is Zadek)" in unplaced
    nonsense = {**S2, "cards_mixed": False, "soloist_seat": "at the window"}
    assert "when the soloist is" in render(rule_case(tmp_path, "skat", {"answers": nonsense}), "text", "en")


def test_skat_article_labels_carry_no_polish_words():
    book = load_rulebook("skat")
    assert [p.label for p in book.provisions.values() if not re.fullmatch(r"\d+(\.\d+)*", p.label)] == []
