"""How the ruling's documents show facts not established: an answer 'unknown' is not a missing
answer, a fact the text settles by default is not among the facts found, and the score sheet says
once what its open entries wait for. Through `referee rule`."""
from click.testing import CliRunner

from referee.cli import main


def rule(tmp_path, text, *more):
    path = tmp_path / "case.yaml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["rule", str(path), "--no-register", "--allow-incomplete", *more])
    assert result.exit_code == 0, result.output
    return result.output


def test_an_amount_waiting_for_an_unknown_fact_says_not_established_not_missing(tmp_path):
    out = rule(tmp_path, (
        "game: preferans\n"
        "answers: {claim: [bad-lead], game_mode: talon, contra_level: none, game: sans,"
        " lead_offender: defender_1, lead_kind: sans-called, sans_partner_bid: false, holds_suit: true,"
        " led_suit: false, lost_tricks: unknown, gentlemen: false}\n"))
    line = next(s for s in out.splitlines() if "charges tricks (duženje)" in s and "not computed" in s)
    assert "is not established)" in line and "is missing" not in line, line


def annex_facts(out):
    annex = out[out.index("Facts found:"):]
    return annex[:annex.index("Facts not established:")]


def test_a_fact_taken_by_default_is_not_listed_among_the_facts_found(tmp_path):
    revoke = ("offender: defender_1, revoke_kind: not-follow, card_visible: true, st_parti: open,"
              " st_negyvenszaz: not-bid, st_huszszaz: not-bid, st_ulti: open, st_durchmars: not-bid,"
              " st_teritett_durchmars: not-bid")
    # one event given under events: (as the interview saves a dispute of one event)
    out = rule(tmp_path, (
        "game: ulti\n"
        "answers: {booked: false, game_kind: colour, trump: zold}\n"
        f"events:\n  - {{claim: [revoke], could_comply: unknown, {revoke}}}\n"))
    assert "could have complied" not in annex_facts(out)
    assert "not established; taken so (Renonszok, záró rész, 2. bekezdés): he held no card" in out
    # two events: the default of the first does not make the second's answer 'not established'
    out = rule(tmp_path, (
        "game: ulti\n"
        "answers: {booked: false, game_kind: colour, trump: zold}\n"
        f"events:\n  - {{claim: [revoke], could_comply: unknown, {revoke}}}\n"
        f"  - {{claim: [revoke], could_comply: true, {revoke.replace('defender_1', 'declarer')}}}\n"))
    assert "Event 2: He held a card with which he could have complied" in annex_facts(out)
    assert "taken so (Renonszok, záró rész, 2. bekezdés): he held a card" not in out


def test_the_score_sheet_says_once_what_its_open_entries_wait_for(tmp_path):
    out = rule(tmp_path, (
        "game: bridge\n"
        "header: {players: {N: Ann, E: Bob, S: Cid, W: Dan}}\n"
        "answers: {deal_stage: finished, contract_level: 3, contract_strain: clubs, contract_doubled: undoubled,"
        " declarer: S, vulnerability: none, declarer_tricks: unknown, claim: [play], play_claim: [revoke], offender: E,"
        " l63_revoked: true, l63_events: [played-next], l63_trick12: false, l64_exception: [none],"
        " l64_winner: offender, l11_attention: player, l11a_gain: false, l64_later_tricks: 1}\n"))
    sheet = out[out.index("ENTRIES ON THE SCORE SHEET"):out.index("ARTICLES APPLIED")]
    assert sheet.count("tricks declarer's side took") == 1, sheet
    assert "tricks transferred to the side: +2" in sheet
    assert sheet.count("to be written once established (below)") == 5
