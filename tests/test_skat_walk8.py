"""Skat disputes of blind walk 8, through the interview a referee sees: a case in, the questions
(and the ruling) out. Each test names the fault it guards against:

- the soloist's lead to the first trick asks where he sat (Przodek leads, 4.1.1) and whether
  the card lay on the table (4.1.2); from Zadek after the announcement it is an unentitled lead
  (4.1.3, 4.1.4), never "play began properly";
- an opponent's cards face up ask whether he gave up (4.3.6) or played on open (4.3.5);
- the level the soloist had to reach is not asked when nothing was announced and the simple game
  with his matadors reaches the bid;
- the soloist's laid-down cards ask whether he gave up tricks before whether his claim came
  true, and not the card points once the opponents' demand to play on decides (4.1.6);
- English questions and rulings name the Polish place with the German one;
- a concession that merely has no effect (4.3.2) reads "no violation".
"""
from __future__ import annotations

from case_helpers import rule_case
from case_helpers import walk_skat as walk
from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render




LEAD = {"claim": "lead-before-announcement", "announced_before_lead": "unknown", "soloist_place": "zadek",
        "lead_card_on_table": "yes", "lead_noticed": "before_trick_complete", "innocent_choice": "end",
        "game_type": "clubs", "matadors_with": "with", "matadors": "1", "hand": "not_hand", "announced": "none"}


def test_a_lead_to_the_first_trick_asks_where_the_soloist_sat_and_whether_the_card_lay_down():
    _, asked = walk(LEAD)
    # the place, asked first (blind walk 9), is not asked again where 4.1.1 reads it
    assert asked[:3] == ["claim", "announced_before_lead", "lead_card_on_table"], asked
    assert "lead_noticed" in asked and "innocent_choice" in asked
    # either way the game is lost (4.1.4 or 4.1.1): the game as played out is never asked
    _, asked = walk({**LEAD, "bid": "30"})
    assert "played_out" not in asked and "final_soloist_points" not in asked, asked
    # not announced: the 4.1.1 loss does not depend on the place, so it is not asked
    _, asked = walk({**LEAD, "announced_before_lead": "no"})
    assert "soloist_place" not in asked and "lead_card_on_table" in asked


def test_a_zadek_soloist_leading_after_the_announcement_is_an_unentitled_lead(tmp_path):
    answers = {"claim": ["lead-before-announcement"], "announced_before_lead": True, "soloist_place": "zadek",
               "lead_card_on_table": True, "lead_noticed": "before_trick_complete", "innocent_choice": "end",
               "game_type": "clubs", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
               "announced": "none", "bid": 30}
    ruling = rule_case(tmp_path, "skat", {"answers": answers, "requests": [
        {"party": "soloist", "asks": "effect:card_taken_back", "text": "let me take the card back"}]})
    assert {tuple(f.provisions): f.kind for f in ruling.findings} == {
        ("skat:4.1.3", "skat:4.1.1", "skat:4.1.2"): "violation", ("skat:4.1.4",): "violation"}
    assert [r.answer for r in ruling.requests] == ["refused"]
    text = render(ruling, "text", "en")
    assert "soloist (Zadek/Hinterhand)" in text and "proper" not in text.split("ANNEX", 1)[0]
    # in Przodek the lead was his
    proper = rule_case(tmp_path, "skat", {"answers": {**answers, "soloist_place": "przodek"}})
    assert [(f.provisions, f.kind) for f in proper.findings] == [
        (["skat:4.1.1", "skat:4.1.2", "skat:4.1.2.played-card"], "no-violation")]


def test_an_opponents_cards_face_up_ask_whether_he_gave_up_or_played_open():
    _, asked = walk({"claim": "cards-thrown-open", "offender": "opponent_2"})
    assert asked == ["claim", "offender", "throw_meant"]
    # the soloist's throw is a concession (4.3.6 with 4.3.1): nothing to tell apart
    _, asked = walk({"claim": "cards-thrown-open", "offender": "soloist"})
    assert "throw_meant" not in asked


def test_the_level_to_reach_is_not_asked_when_the_simple_game_covers_the_bid():
    story = {"claim": "cards-thrown-open", "offender": "opponent_2", "throw_meant": "gave_up",
             "innocent_choice": "end", "game_type": "spades", "matadors_with": "with", "matadors": "1",
             "hand": "not_hand", "announced": "none", "points_counted": "yes", "soloist_points": "40",
             "opponents_points": "30"}
    # the bid given by an earlier event: spades with one is worth 22, which reaches 22
    s, asked = walk(story, shared={"bid": 22})
    assert "required_level" not in asked and s.shared.get("required_level") == "none", asked
    # bid 23: the simple game does not reach it, so the level is asked
    _, asked = walk(story, shared={"bid": 23})
    assert asked[-1] == "required_level", asked
    # an announced level must be reached: Schwarz announced leaves Schwarz only
    s = Session(load_rulebook("skat"), enter_cards=False, ask_names=False)
    s.shared["announced"] = "schwarz"
    assert s.impossible("required_level", "schneider", None)
    assert s.impossible("required_level", "none", None)
    assert s.impossible("required_level", "schwarz", None) is None


def test_the_declaration_comes_before_the_claim_and_no_points_once_play_continues():
    story = {"claim": "soloist-shows-cards", "innocent_choice": "continue", "choice_by": "opponent_1",
             "game_type": "grand", "tricks_given_up": "unknown", "claim_holds": "no",
             "matadors_with": "with", "matadors": "2", "hand": "not_hand", "announced": "none", "bid": "72",
             "played_out": "yes", "final_soloist_points": "55"}
    s, asked = walk(story)
    assert asked.index("tricks_given_up") < asked.index("claim_holds"), asked
    assert asked.index("innocent_choice") < asked.index("tricks_given_up"), asked
    assert not {"points_counted", "soloist_points", "opponents_points", "decided"} & set(asked), asked


def test_english_questions_and_labels_name_przodek_srodek_zadek():
    book = load_rulebook("skat")
    for qid in ("soloist_place", "soloist_seat"):
        text = book.questions[qid].text["en"]
        assert "Przodek (Vorhand" in text and "Zadek (Hinterhand" in text, text
    assert "Zadek/Hinterhand" in book.seat_label("opponent_2", "en")
    assert "Vorhand" not in book.questions["soloist_place"].text["pl"]


def test_a_concession_without_consent_reads_as_having_no_effect(tmp_path):
    answers = {"claim": ["soloist-concedes"], "cards_in_hand": 7, "opponent_consent": "unknown",
               "game_type": "spades", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
               "announced": "none", "bid": 22}
    text = render(rule_case(tmp_path, "skat", {"answers": answers}), "text", "en")
    line = next(x for x in text.splitlines() if "the concession has no effect" in x and "No violation" in x)
    assert "Irregularity" not in line


def test_a_grand_with_more_than_four_matadors_is_refused_and_four_is_not(tmp_path):
    """Only the four jacks are trumps in a grand (blind walk 7, S1 took 11 matadors); a suit
    game may have more."""
    from click.testing import CliRunner
    from referee.cli import main
    base = ("game: skat\nanswers: {claim: [lead-before-announcement], announced_before_lead: false, "
            "lead_card_on_table: true, game_type: %s, matadors_with: with, matadors: %d, hand: hand, bid: 18}\n")
    for game, n, refused in (("grand", 6, True), ("grand", 4, False), ("clubs", 6, False)):
        path = tmp_path / f"{game}{n}.yaml"
        path.write_text(base % (game, n))
        out = CliRunner().invoke(main, ["rule", str(path), "--no-register", "--allow-incomplete"]).output
        assert ("at most four matadors" in out) is refused, (game, n, out)
