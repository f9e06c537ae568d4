"""Blind walk 8, preferans: the units of the supe column (P1), Član 22 across events (P2), Član 12
stav 4 as an answer of its own (P3), and findings reached through Član 21's "unknown" default (P1).
Each test is a case in and a ruling (or an interview) out."""
import json

from click.testing import CliRunner

from referee.cli import main
from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook

OUT_OF_TURN = ("game: preferans\n"
               "header: {players: {declarer: Ana, defender_1: Boris, defender_2: Ceca}}\n"
               "answers: {claim: [out-of-turn], oot_offender: defender_2,\n"
               "          oot_before_turn: true, game: herc, game_mode: talon, contra_level: none}\n")
UNKNOWN_TURN = ("game: preferans\n"
                "answers: {claim: [out-of-turn], oot_offender: defender_2,\n"
                "          oot_before_turn: unknown, oot_after_close: false, deal_play: both, game: herc,\n"
                "          game_mode: talon, deal_contra: none, tricks_first: 2, tricks_second: 2}\n")
SANS_EVENTS = {"answers": {"game": "sans", "game_mode": "talon"},
               "events": [{"claim": ["bad-lead"], "contra_level": "none", "lead_offender": "defender_1",
                           "lead_kind": "sans-called", "sans_partner_bid": False, "holds_suit": True,
                           "led_suit": False, "lost_tricks": 3, "gentlemen": False},
                          {"claim": ["bad-play"]}]}


def rule(tmp_path, text, *args):
    case = tmp_path / "case.yaml"
    case.write_text(text)
    return CliRunner().invoke(main, ["rule", str(case), "--no-register", *args])


def test_two_supe_are_not_written_as_two_points_beside_tricks_at_the_games_value(tmp_path):
    data = json.loads(rule(tmp_path, OUT_OF_TURN, "--format", "json").output)
    boris = [e for e in data["result"]["entries"] if e["player"] == "defender_1"]
    assert [(e["item"], e["amount"], e.get("unset")) for e in boris] == [("supe", None, ["supa_value"])]
    out = rule(tmp_path, OUT_OF_TURN).output
    assert "supe: not given by the source text: value of one supa in the supe column" in out
    assert "Value of one supa in the supe column (for 'dve supe', Član 7): Not given by the source text." in out


def test_a_tournament_that_sets_the_value_of_a_supa_gets_the_two_supe_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "referee.toml").write_text("[rulebooks.preferans.parameters]\nsupa_value = 8\n")
    out = rule(tmp_path, OUT_OF_TURN).output
    assert "Boris (first defender, first to declare on following, next after the declarer) — supe: +16" in out
    assert "the tournament's value (8)" in out


def test_an_unestablished_turn_is_not_stated_as_a_turn_kept(tmp_path):
    out = rule(tmp_path, UNKNOWN_TURN).output
    decision = out.split("DECISION")[1].split("ENTRIES ON THE SCORE SHEET")[0]
    assert "made in its turn" not in out
    assert "ahead of the speaker's turn in the declaration order (Član 7, stav 6) is established" in decision


def test_after_the_first_violation_settled_the_deal_the_later_event_asks_only_its_own_facts():
    book = load_rulebook("preferans")
    session = Session.resume(book, SANS_EVENTS)
    while (prompt := session.next()).kind == "name":
        session.answer("")
    asked = []
    answers = {"contra_level": "none", "play_offender": "defender_2", "play_error": "gross-1"}
    while prompt is not None and prompt.kind == "question":
        asked.append(prompt.id)
        assert prompt.id in answers, prompt.id          # nothing of the hand as played
        session.answer(answers[prompt.id])
        prompt = session.next()
    assert "play_error" in asked
    ruling = session.rule()
    assert [(f.production, f.event) for f in ruling.findings] == [("sans-called-penalty", 0)]


def test_a_request_on_a_later_claim_is_refused_under_clan_22(tmp_path):
    case = ("game: preferans\n"
            "answers: {game: sans, game_mode: talon}\n"
            "events:\n"
            "  - {claim: [bad-lead], contra_level: none, lead_offender: defender_1, lead_kind: sans-called,\n"
            "     sans_partner_bid: false, holds_suit: true, led_suit: false, lost_tricks: 3, gentlemen: false}\n"
            "  - {claim: [bad-play], contra_level: none, play_offender: defender_2, play_error: gross-1}\n"
            "requests:\n"
            "  - {party: defender_1, asks: upheld, event: 2}\n")
    out = rule(tmp_path, case).output
    assert ("refused — not ruled on: committed after the violation ruled on first, under Član 9, stav 3, tačka 5 "
            "(Član 22, stav 1)") in out
    assert "not examined — raised after an earlier violation (Član 9, stav 3, tačka 5)" in out


def test_a_discard_under_clan_12_stav_4_is_an_answer_of_its_own_and_not_printed_as_a_signalling_breach(tmp_path):
    case = ("game: preferans\n"
            "answers: {claim: [bad-play], deal_play: both, game: karo, game_mode: talon,\n"
            "          deal_contra: none, tricks_first: 3, tricks_second: 1, play_offender: defender_1,\n"
            "          play_error: discard-suit, could_not_know: true}\n")
    out = rule(tmp_path, case).output
    judgement = out.split("The referee's judgement:")[1].split("Values used")[0]
    assert "improper or ambiguous signal" not in judgement
    assert "improper or ambiguous signal" not in out.split("DECISION")[1].split("ENTRIES")[0]
    assert "Kind of error — stav 4: while discarding or signalling, threw a card in a suit" in out
    assert "not a gross error (Član 12, stav 4). No violation." in out
    gross = rule(tmp_path, case.replace("could_not_know: true", "could_not_know: false, error_caused_fall: true,"
                                        " gentlemen: false, contra_level: none")).output
    assert "bula: +6" in gross and "a gross error (Član 12, stav 4 and stav 2)" in gross
