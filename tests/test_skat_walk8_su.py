"""Skat disputes of blind walk 8 (tester su), through the interview a referee sees: a case in,
the questions (and the ruling) out. Each test names the fault it guards against:

- S2: once the answers settle a ruling with no sanction (the soloist's card fell out of his hand
  by accident, 4.1.9), the game, its matadors, hand, announcement and bid are not asked for a
  score entry that cannot be written yet: only whether the game has been played to its end;
- S3: a claim that the skat was looked at (4.2.8) does not make the look a fact found: the
  interview asks whether he looked at or turned up its cards; "no" is no infraction, and
  "unknown" (the text sets no burden of proof) gives a conditional ruling;
- the other claims whose menu entry names the act in dispute ask it too: whether a card was
  seen (4.1.9), whether a card was played or drawn before turn at all (4.2.7).
"""
from __future__ import annotations

from click.testing import CliRunner

from case_helpers import rule_case
from case_helpers import walk_skat as walk
from referee.cli import main
from referee.reports.render import render

SCORE_SHEET = {"game_type", "matadors_with", "matadors", "hand", "announced", "bid", "final_soloist_points",
               "final_soloist_tricks"}




DROPPED = {"claim": "cards-exposed", "offender": "soloist", "claimed_at_once": "yes",
           "exposure_kind": "dropped_or_shown", "soloist_card_how": "by_accident", "played_out": "no",
           "soloist_place": "Przodek", "game_type": "grand", "matadors_with": "with", "matadors": "2",
           "hand": "not_hand", "announced": "none", "bid": "36", "final_soloist_points": "70"}


def test_a_ruling_with_no_sanction_asks_no_game_for_a_score_entry_not_yet_written():
    _, asked = walk(DROPPED)
    assert asked == ["claim", "offender", "claimed_at_once", "exposure_kind", "soloist_card_how",
                     "played_out"], asked
    # played to its end: the game as played is scored, so the game and the points are asked
    _, asked = walk({**DROPPED, "played_out": "yes"})
    assert {"game_type", "matadors", "hand", "announced", "bid", "final_soloist_points"} <= set(asked), asked
    assert asked.index("played_out") < asked.index("game_type"), asked


def test_a_ruling_that_ends_the_game_still_asks_the_game_and_never_whether_it_was_played_out():
    story = {"claim": "cards-exposed", "offender": "opponent_2", "claimed_at_once": "yes",
             "exposure_kind": "two_or_more_led", "innocent_choice": "end", "game_type": "spades",
             "matadors_with": "with", "matadors": "1", "hand": "not_hand", "announced": "none",
             "points_counted": "yes", "soloist_points": "38", "opponents_points": "27", "required_level": "none"}
    _, asked = walk(story)
    assert {"game_type", "matadors", "hand", "announced"} <= set(asked), asked
    assert "played_out" not in asked and "final_soloist_points" not in asked, asked


def test_the_dropped_card_dispute_at_the_command_line_asks_seven_questions_fewer(tmp_path):
    # the tester's answers (blind walk 8, S2), without those for the game: names, no cards,
    # claim 5 (4.1.9), the soloist, at once, fell or drawn, by accident, not played out (his seat
    # first, before the names: blind walk 9)
    typed = "\n".join(["Przodek", "Adam", "Bartek", "Czeslaw", "n", "5", "1", "y", "2", "1", "n", "rule"]) + "\n"
    out = CliRunner().invoke(main, ["interview", "skat", "--no-register", "--table", "1", "--deal", "1",
                                    "--referee", "su", "--save", str(tmp_path / "case.yaml")], input=typed).output
    assert "Has the game been played to its end?" in out, out[-3000:]
    for question in ("Which game was the soloist playing?", "with or without matadors", "hand game",
                     "announce Schneider", "last bid"):
        assert question not in out, question
    ruling = out[out.index("RULING"):]
    assert "4.1.9" in ruling and "without sanction" in ruling
    assert "To be written once established" in ruling


SKAT = {"claim": "skat-seen", "offender": "opponent_2", "claimed_at_once": "yes"}
GAME = {"innocent_choice": "end", "game_type": "spades", "matadors_with": "with", "matadors": "1",
        "hand": "not_hand", "announced": "none", "points_counted": "yes", "soloist_points": "38",
        "opponents_points": "27", "bid": "18", "required_level": "none", "played_out": "no", "soloist_place": "Zadek"}


def test_a_claim_that_the_skat_was_seen_asks_whether_he_looked_at_it():
    _, asked = walk(SKAT)
    assert asked == ["claim", "offender", "claimed_at_once", "skat_looked_at"], asked
    # he only pushed it aside: no infraction, and nothing about the game for a result
    _, asked = walk({**SKAT, "skat_looked_at": "no", **GAME})
    assert asked == ["claim", "offender", "claimed_at_once", "skat_looked_at", "played_out"], asked
    # he looked: when, then the result of the 4.1.3-4.1.6 package
    _, asked = walk({**SKAT, "skat_looked_at": "yes", "skat_seen_when": "during_game", **GAME})
    assert asked[3:5] == ["skat_looked_at", "skat_seen_when"] and "points_counted" in asked, asked
    assert "played_out" not in asked, asked
    # nobody can establish it: both alternatives are asked for
    _, asked = walk({**SKAT, "skat_looked_at": "unknown", "skat_seen_when": "during_game", **GAME})
    assert "skat_seen_when" in asked and "points_counted" in asked and "played_out" in asked, asked


def test_a_look_at_the_skat_nobody_can_establish_gives_a_conditional_ruling(tmp_path):
    answers = {"claim": ["skat-seen"], "offender": "opponent_2", "claimed_at_once": True,
               "skat_looked_at": "unknown", "skat_seen_when": "during_game", "innocent_choice": "end",
               "game_type": "spades", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
               "announced": "none", "points_counted": True, "soloist_points": 38, "opponents_points": 27,
               "required_level": "none", "played_out": False}
    ruling = rule_case(tmp_path, "skat", {"answers": answers, "requests": [
        {"party": "soloist", "asks": "effect:game_won"}, {"party": "opponent_2", "asks": "rejected"}]})
    assert ruling.conditional
    by_branch = {str(a.when): {(tuple(f.provisions), f.kind) for f in a.findings} for a in ruling.alternatives}
    assert len(by_branch) == 2, by_branch
    kinds = sorted(by_branch.values(), key=len)
    assert kinds[0] == {(("skat:4.2.8",), "no-violation")}
    assert (("skat:4.2.8", "skat:4.1.11"), "violation") in kinds[1] and (("skat:4.1.4",), "violation") in kinds[1]
    assert [r.answer for r in ruling.requests] == ["undecided", "undecided"]
    # he only touched it: no infraction, the soloist's request refused
    ruling = rule_case(tmp_path, "skat", {"answers": {**answers, "skat_looked_at": False}, "requests": [
        {"party": "soloist", "asks": "effect:game_won"}]})
    assert [(f.provisions, f.kind) for f in ruling.findings] == [(["skat:4.2.8"], "no-violation")]
    assert [r.answer for r in ruling.requests] == ["refused"]
    text = render(ruling, "text", "en")
    assert "neither looked at the skat's cards nor turned them up" in text


def test_a_card_nobody_saw_and_an_early_card_that_never_was_are_no_infraction(tmp_path):
    s, asked = walk({"claim": "cards-exposed", "offender": "opponent_1", "claimed_at_once": "yes"})
    assert asked[-1] == "exposure_kind"
    assert "none_seen" in [v for v, _ in s.book.questions["exposure_kind"].values]
    ruling = rule_case(tmp_path, "skat", {"answers": {
        "claim": ["cards-exposed"], "offender": "opponent_1", "claimed_at_once": True, "exposure_kind": "none_seen"}})
    assert [(f.provisions, f.kind) for f in ruling.findings] == [(["skat:4.1.9"], "no-violation")]
    ruling = rule_case(tmp_path, "skat", {"answers": {
        "claim": ["play-before-turn"], "offender": "opponent_1", "claimed_at_once": True, "early_act": "neither"}})
    assert [(f.provisions, f.kind) for f in ruling.findings] == [(["skat:4.2.7"], "no-violation")]
    _, asked = walk({"claim": "play-before-turn", "offender": "opponent_1", "claimed_at_once": "yes",
                     "early_act": "neither", "played_out": "no"})
    assert not SCORE_SHEET & set(asked), asked
