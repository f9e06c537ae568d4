"""Preferans and ulti: answers the source texts rule out are refused (declared under `impossible:`),
a ruling that tries every answer to an unknown fact skips those combinations, and questions a
fact already decided makes moot are not asked (Član 8, stav 9's hand game; a deal not played)."""
import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.casefile import case_dispute
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.exclusions import conflicts, excluded
from referee.expert.language.rulebook import load_rulebook


def rule_file(tmp_path, text):
    path = tmp_path / "case.yaml"
    path.write_text(text)
    return CliRunner().invoke(main, ["rule", str(path), "--no-register", "--allow-incomplete"])


@pytest.mark.parametrize("answers, reason", [
    # Član 6, stav 11: a winner who had not written his refe does not play on his refe
    ("{claim: [refe], refe_case: unwritten-winner, game: tref, game_mode: talon-refe}", "stav 11"),
    # a kontra brings both defenders into the play: not 'nobody followed'
    ("{claim: [pik-talon], game: pik, game_mode: talon, contra_level: kontra, deal_play: nobody}", "Član 9"),
    # a deal all three passed has no talon bought for pik
    ("{claim: [pik-talon], deal_play: passed-out}", "dalje"),
    # Član 8: trump holdings on sans, a bid-pik list on another game
    ("{claim: [bad-dolaz], game: sans, dolaz_offender: defender_1, dolaz_situation: lider-only, holding_lider: [d1]}", "sans"),
    ("{claim: [bad-dolaz], game: herc, dolaz_offender: defender_1, dolaz_situation: pik-licitiran}", "licitiranog pika"),
    # Član 10: a defence on betl is in the game of betl; a lead and a discard are two acts
    ("{claim: [betl], game: sans}", "Kada se igra betl"),
    ("{claim: [betl], game: betl, betl_offender: defender_1, betl_contra: true, betl_breach: [lead, discard-order]}", "separate acts"),
])
def test_preferans_refuses_answers_its_text_excludes(tmp_path, answers, reason):
    result = rule_file(tmp_path, f"game: preferans\nanswers: {answers}\n")
    assert result.exit_code == 2, result.output
    assert "exclude each other" in result.output and reason in result.output, result.output
    assert "Traceback" not in result.output


def test_the_excluded_combinations_are_only_those():
    book = load_rulebook("preferans")
    # an item that counts no trump stands on sans; a trump item on a trump game
    assert not conflicts(book, {"claim": ["bad-dolaz"], "game": "sans", "dolaz_situation": "lider-only",
                                "holding_lider": ["d8", "d15"]})
    assert not conflicts(book, {"claim": ["bad-dolaz"], "game": "herc", "holding_lider": ["d1"]})
    # the contra and the refe are independent facts: a kontra on a pik played on refe is possible
    assert not conflicts(book, {"claim": ["pik-talon"], "game": "pik", "game_mode": "talon-refe",
                                "contra_level": "kontra", "deal_play": "both"})
    # an unknown answer completes no combination
    assert not conflicts(book, {"claim": ["refe"], "refe_case": "unwritten-winner", "game_mode": "unknown"})


def test_ulti_refuses_a_lost_or_kontrad_bid_in_the_bidding(tmp_path):
    base = ("game: ulti\nanswers: {claim: [early-speech], booked: false, offender: defender_1, spoke_early: true,"
            " prev_clear: true, game_kind: colour, trump: tok, st_parti: open, st_negyvenszaz: not-bid,"
            " st_huszszaz: not-bid, st_durchmars: not-bid, st_teritett_durchmars: not-bid, ")
    result = rule_file(tmp_path, base + "phase: bidding, st_ulti: lost}\n")
    assert result.exit_code == 2 and "Továbbiak 5" in result.output, result.output
    result = rule_file(tmp_path, base + "phase: bidding, st_ulti: open-kontra}\n")
    assert result.exit_code == 2, result.output
    book = load_rulebook("ulti")
    assert not conflicts(book, {"phase": "bidding", "st_ulti": "open"})
    assert not conflicts(book, {"phase": "kontra-round", "st_ulti": "lost-kontra"})
    assert conflicts(book, {"phase": "bidding", "cl_status": "lost"})


def _ruling(game, case):
    book = load_rulebook(game)
    dispute, header, sources = case_dispute({"game": game, **case}, book, "case.yaml")
    return rule_dispute(Ruler(book), dispute, header, sources)


def test_a_ruling_on_an_unknown_fact_offers_no_alternative_the_answers_exclude():
    book = load_rulebook("preferans")
    # a kontra was given on the pik; how the declaring ended is not known: 'nobody followed' and
    # 'only one defender played' are excluded, so no alternative is ruled on them
    shared = {"claim": ["pik-talon"], "game": "pik", "game_mode": "talon", "contra_level": "kontra"}
    assert excluded(book, {**shared, "deal_play": "nobody"}, [])
    assert not excluded(book, {**shared, "deal_play": "both"}, [])
    ruling = _ruling("preferans", {"answers": {**shared,
                                               "game_mode": {"unknown": ["talon", "talon-refe"]},
                                               "contra_level": "none"}})
    # no kontra, the refe not established: the two rulings of Član 6, stav 9-10, nothing more
    assert len(ruling.alternatives) == 2, [a.answers for a in ruling.alternatives]
    kinds = sorted(f.kind for a in ruling.alternatives for f in a.findings)
    assert kinds == ["no-violation", "settlement"], kinds


def _walk(game, typed):
    s = Session(load_rulebook(game), enter_cards=False, ask_names=False)
    asked = []
    for _ in range(60):
        p = s.next()
        if p is None or p.kind != "question":
            break
        asked.append(p.id)
        assert p.id in typed, (p.id, asked)
        try:
            s.answer(typed[p.id])
        except AnswerRefused as exc:
            raise AssertionError(f"{p.id}={typed[p.id]} refused: {exc}") from exc
    return asked


HAND_KONTRA = {"claim": "bad-dolaz", "game": "herc", "contra_level": "kontra",
               "dolaz_offender": "defender_1", "dolaz_situation": "lider-only", "holding_lider": "none",
               "no_trump": "no", "partner_kontras": "yes", "deal_play": "both", "deal_contra": "kontra",
               "kontras": "defender_2", "tricks_first": "2", "tricks_second": "1", "dolaz_caused_fall": "yes",
               "volunteered": "no", "gentlemen": "no", "kontras_three": "yes", "borderline": "no",
               "kontras_no_trump": "no"}
GATES = {"kontras_three", "partner_play_error", "borderline", "contra_hopeless", "kontras_no_trump"}


def test_a_kontra_on_a_hand_game_asks_none_of_the_kontras_claim_conditions():
    asked = _walk("preferans", {**HAND_KONTRA, "game_mode": "hand"})
    # who gave the kontra (for the score sheet) answers whether the partner who fell was the
    # kontraš: it is not asked again in other words (blind walk 7)
    assert "game_mode" in asked and "partner_kontras" not in asked and not GATES & set(asked), asked
    assert asked.index("kontras") < asked.index("dolaz_offender"), asked
    # with the talon bought the conditions of the kontraš's claim (Član 8, stav 2 and 10) decide
    asked = _walk("preferans", {**HAND_KONTRA, "game_mode": "talon"})
    assert {"kontras_three", "borderline", "kontras_no_trump"} <= set(asked), asked


def test_a_refe_dispute_names_the_declarer_and_is_no_infraction():
    ruling = _ruling("preferans", {"answers": {"claim": ["refe"],
                                               "refe_case": "unwritten-winner"}})
    [finding] = ruling.findings
    assert finding.kind == "settlement" and finding.offender is None
    assert [(p.player, p.effect) for p in finding.penalty] == [("declarer", "refa_naknadno")]
    assert "preferans:21.impose-prescribed" not in finding.provisions
    assert "refe_player" not in load_rulebook("preferans").questions


def test_a_betl_discard_complaint_reaches_clan_12_from_the_betl_ground():
    asked = _walk("preferans", {"claim": "betl", "deal_play": "both", "game": "betl",
                                "deal_contra": "kontra", "kontras": "defender_1", "betl_taken": "no",
                                "betl_offender": "defender_2", "betl_contra": "yes",
                                "betl_breach": "discard-shortest", "seven_eight": "no",
                                "error_caused_fall": "yes", "gentlemen": "no", "game_mode": "talon",
                                "contra_level": "kontra"})
    assert {"seven_eight", "error_caused_fall"} <= set(asked), asked


def test_ulti_a_bidding_claim_ruled_before_the_play_asks_no_result_and_sets_nothing_aside():
    typed = {"claim": "early-speech", "booked": "no", "phase": "bidding", "offender": "defender_1",
             "spoke_early": "no", "played_out": "no"}
    asked = _walk("ulti", typed)
    assert asked[-1] == "played_out" and "game_kind" not in asked, asked
    # a renonsz in the bidding: Továbbiak 5 (the kontra round) is not found, not even set aside
    ruling = _ruling("ulti", {"answers": {"claim": ["early-speech"], "booked": False, "phase": "bidding",
                                          "offender": "defender_1", "spoke_early": True, "prev_clear": True,
                                          "game_kind": "colour", "trump": "tok", "st_parti": "open",
                                          "st_negyvenszaz": "not-bid", "st_huszszaz": "not-bid",
                                          "st_ulti": "not-bid", "st_durchmars": "not-bid",
                                          "st_teritett_durchmars": "not-bid"}})
    assert ruling.findings and not any("ulti:tovabbiak.5" in n.provisions for n in ruling.not_ruled)
