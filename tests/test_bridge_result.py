"""Bridge: the board's result on the score sheet (knowledge/bridge/rulebook.yaml score:) - the
standard duplicate scoring written as parameters, trick transfers added to the tricks taken,
adjusted scores naming the non-offending and the offending side, the frame asked after what
decides the findings, and the frame read from the cards."""
import json

import pytest
from click.testing import CliRunner

from case_helpers import asked_unknown_else as asked

from referee.cli import main
from referee.expert.cards import case_facts, parse_contract
from referee.expert.cards.bridge import doubling
from referee.expert.engine.result import compute, result_text
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.relevance import Interview
from referee.expert.language.dispute import Dispute
from referee.expert.language.rulebook import load_rulebook

FRAME = ["deal_stage", "contract_level", "contract_strain", "contract_doubled", "declarer", "vulnerability",
         "declarer_tricks"]
REVOKE = {"claim": ["play"], "play_claim": ["revoke"], "offender": "E", "l63_revoked": True, "l63_events": ["played-next"],
          "l63_trick12": False, "l64_exception": ["none"], "l64_winner": "offender", "l64_later_tricks": 3,
          "l11_attention": "player", "l11a_gain": False}


@pytest.fixture(scope="module")
def bridge():
    book = load_rulebook("bridge")
    return book, Ruler(book)


def board(book, level, strain, doubled, vulnerability, declarer, tricks):
    answers = dict(deal_stage="finished", contract_level=level, contract_strain=strain, contract_doubled=doubled,
                   vulnerability=vulnerability, declarer=declarer, declarer_tricks=tricks)
    result = compute(book, [], lambda k: answers, answers)
    return {(e.player, e.item): e.amount for e in result.entries}


# Scores every duplicate scorer knows (ACBL/EBU score tables): (contract, doubled, declarer's
# side vulnerable, tricks) -> declarer's score.
KNOWN = [
    ((1, "clubs"), "undoubled", False, 7, 70),
    ((2, "hearts"), "undoubled", False, 8, 110),
    ((3, "notrump"), "undoubled", False, 9, 400),
    ((3, "notrump"), "undoubled", True, 10, 630),
    ((4, "spades"), "undoubled", True, 11, 650),
    ((5, "diamonds"), "undoubled", False, 11, 400),
    ((6, "hearts"), "undoubled", True, 12, 1430),
    ((7, "notrump"), "undoubled", False, 13, 1520),
    ((1, "notrump"), "doubled", False, 7, 180),
    ((2, "hearts"), "doubled", False, 8, 470),
    ((1, "notrump"), "redoubled", False, 7, 560),
    ((4, "spades"), "doubled", True, 11, 990),
    ((7, "notrump"), "redoubled", True, 13, 2980),
    ((4, "spades"), "undoubled", False, 8, -100),
    ((4, "spades"), "undoubled", True, 7, -300),
    ((3, "notrump"), "doubled", False, 5, -800),
    ((3, "notrump"), "doubled", True, 6, -800),
    ((4, "hearts"), "doubled", False, 3, -1700),
    ((2, "clubs"), "redoubled", True, 7, -400),
    ((6, "spades"), "redoubled", False, 9, -1000),
]


@pytest.mark.parametrize("contract, doubled, vul, tricks, score", KNOWN)
def test_the_standard_duplicate_score(bridge, contract, doubled, vul, tricks, score):
    book, _ = bridge
    level, strain = contract
    got = board(book, level, strain, doubled, "north-south" if vul else "east-west", "S", tricks)
    assert got[("S", "score")] == score and got[("W", "score")] == -score
    assert got[("S", "tricks")] == tricks and got[("W", "tricks")] == 13 - tricks
    assert got[("S", "contract_result")] == tricks - 6 - level


def test_vulnerability_is_declarers_side(bridge):
    book, _ = bridge
    assert board(book, 4, "hearts", "undoubled", "both", "E", 10)[("E", "score")] == 620
    assert board(book, 4, "hearts", "undoubled", "north-south", "E", 10)[("E", "score")] == 420
    assert board(book, 4, "hearts", "undoubled", "east-west", "W", 10)[("W", "score")] == 620
    assert board(book, 4, "hearts", "undoubled", "none", "N", 10)[("N", "score")] == 420


def test_a_passed_out_board_scores_nothing(bridge):
    book, _ = bridge
    answers = {"deal_stage": "passed-out"}
    result = compute(book, [], lambda k: answers, answers)
    assert result_text(book, result, {}) == "N–S: score +0; E–W: score +0"
    # during the auction there is no contract yet: the ruling writes nothing
    answers = {"deal_stage": "auction"}
    assert compute(book, [], lambda k: answers, answers).entries == []


def test_trick_transfers_are_added_to_the_tricks_taken(bridge):
    book, ruler = bridge
    frame = dict(deal_stage="finished", contract_level=4, contract_strain="spades", contract_doubled="undoubled",
                 declarer="S", vulnerability="north-south", declarer_tricks=9)
    result = rule_dispute(ruler, Dispute(dict(REVOKE, **frame))).to_dict()["result"]
    assert result["text"] == ("N–S: transferred +2 against E; N–S: tricks 11; N–S: contract_result +1; "
                              "N–S: score +650; E–W: tricks 2; E–W: score -650")
    # the same revoke by declarer's own side takes the tricks away: 9 become 7, down three
    own = rule_dispute(ruler, Dispute(dict(REVOKE, offender="N", **frame))).to_dict()["result"]
    got = {(e["side"], e["item"]): e["amount"] for e in own["entries"]}
    assert got[("NS", "tricks")] == 7 and got[("NS", "contract_result")] == -3 and got[("NS", "score")] == -300


def test_an_adjusted_score_names_both_sides_and_settles_the_board(bridge):
    book, ruler = bridge
    answers = {"claim": ["no-indemnity"], "l12_violation": True, "l12_offender": "E", "l12_no_redress": True}
    # the Director's score is asked, after what decides the finding; the board's frame is not
    interview = Interview(book, dict(answers))
    asked = []
    while (q := interview.next_question()) is not None:
        asked.append(q.id)
        interview.answers[q.id] = "unknown"
    assert asked == ["adjusted_score_non_offending", "adjusted_score_offending"]
    ruling = rule_dispute(ruler, Dispute(dict(answers, adjusted_score_non_offending=420,
                                              adjusted_score_offending=-420)))
    result = ruling.to_dict()["result"]
    assert result["settled_by"] == ["l12a1-adjusted-score"]
    entries = {e["item"]: (e["side"], e["amount"], e.get("against")) for e in result["entries"]}
    assert entries == {"adjusted_non_offending": ("NS", 420, "E"), "adjusted_offending": ("EW", -420, None)}
    # unknown: each stays open and says what the scorer must fill in
    open_ = rule_dispute(ruler, Dispute(dict(answers, adjusted_score_non_offending="unknown",
                                             adjusted_score_offending="unknown"))).to_dict()["result"]
    assert open_["needs"] == ["adjusted_score_non_offending", "adjusted_score_offending"]
    assert [e["amount"] for e in open_["entries"]] == [None, None]




def test_the_frame_is_asked_after_what_decides_and_only_as_far_as_it_is_needed(bridge):
    book, _ = bridge
    decided = {k: v for k, v in REVOKE.items() if k != "l64_later_tricks"}
    # the stage first; a board passed out, or still in the auction, needs nothing more of it
    for stage in ("passed-out", "auction"):
        assert asked(book, decided, {"deal_stage": stage}) == ["deal_stage", "l64_later_tricks"]
    # during the play none of the frame is asked (nothing is scored yet: the contract,
    # vulnerability and tricks only feed the score); once it has ended, the whole frame
    assert asked(book, decided, {"deal_stage": "play"}) == ["deal_stage", "l64_later_tricks"]
    assert asked(book, decided, {"deal_stage": "finished"}) == FRAME + ["l64_later_tricks"]


def test_an_unknown_vulnerability_leaves_only_the_score_open(bridge):
    book, ruler = bridge
    frame = dict(deal_stage="finished", contract_level=3, contract_strain="notrump", contract_doubled="undoubled",
                 declarer="N", vulnerability="unknown", declarer_tricks=9)
    result = rule_dispute(ruler, Dispute(dict(REVOKE, offender="W", **frame))).to_dict()["result"]
    assert result["needs"] == ["vulnerability"]
    assert result["text"].endswith("to fill in once known: vulnerability")
    assert {e["item"] for e in result["entries"] if e["amount"] is not None} == {"transferred", "tricks", "contract_result"}


def test_tricks_are_written_without_a_sign_and_the_values_used_are_printed(tmp_path):
    case = tmp_path / "board.yaml"
    case.write_text(json.dumps({"game": "bridge", "answers": dict(
        REVOKE, deal_stage="finished", contract_level=4, contract_strain="spades", contract_doubled="undoubled",
        declarer="S", vulnerability="north-south", declarer_tricks=9)}))
    out = CliRunner().invoke(main, ["rule", str(case), "--no-register"]).output
    assert "tricks taken (with the tricks transferred): 11\n" in out
    assert "score (duplicate scoring): +650" in out
    values = out.split("Values used for the score sheet:")[1].split("FINDING 1")[0]
    assert "Law 77 is absent" in values and "'Частичная запись 90 или менее очков" in values
    config = tmp_path / "referee.toml"
    config.write_text("[rulebooks.bridge.parameters.game_premium]\nvulnerable = 600\n")
    out = CliRunner().invoke(main, ["--config", str(config), "rule", str(case), "--no-register"]).output
    assert "score (duplicate scoring): +750" in out and "the tournament's value (vulnerable 600)" in out


def test_an_open_amount_wraps_in_the_printed_table(tmp_path):
    case = tmp_path / "adj.yaml"
    case.write_text(json.dumps({"game": "bridge", "answers": {
        "claim": ["no-indemnity"], "l12_violation": True, "l12_offender": "E", "l12_no_redress": True,
        "adjusted_score_non_offending": "unknown", "adjusted_score_offending": "unknown"}}))
    html = CliRunner().invoke(main, ["rule", str(case), "--no-register", "--format", "html"]).output
    # each open entry says it waits; what for, once, on a line of its own across the table
    assert html.count('<td class="open">to be written once established (below)</td>') == 2
    assert '<td colspan="4" class="open">To be written once established: adjusted score of the offending side' in html
    assert "adjusted score of the non-offending side" in html.split('colspan="4" class="open">', 1)[1]


def test_the_contract_and_its_doubling_read_from_text():
    assert doubling("4♠") == "undoubled" and doubling("4♠X") == "doubled" and doubling("3NT XX") == "redoubled"
    assert doubling({"type": "notrump", "level": 3}) is None
    c = parse_contract("3NTXX", "bridge")
    assert (c.type, c.level) == ("notrump", 3)
    c = parse_contract("2♥x", "bridge")
    assert (c.type, c.trump, c.level) == ("suit", "H", 2)


def test_the_frame_from_a_complete_play_record():
    # every player holds one suit: North the spades (trumps), so North-South win every trick
    deal = {"declarer": "N", "contract": "1♠XX",
            "hands": {"N": "♠AKQJT98765432", "E": "♥AKQJT98765432", "S": "♦AKQJT98765432",
                      "W": "♣AKQJT98765432"},
            "play": ["♥2 ♦2 ♣2 ♠2"] + [f"♠{r} ♥{r} ♦{r} ♣{r}" for r in "3456789TJQKA"]}
    _deal, facts = case_facts(deal, "bridge")
    got = {f.name: f.value for f in facts if f.name in ("contract_level", "contract_doubled", "declarer_side_tricks")}
    assert got == {"contract_level": 1, "contract_doubled": "redoubled", "declarer_side_tricks": 13}
    # a record that stops before the end says nothing about the tricks: the referee is asked
    _deal, facts = case_facts(dict(deal, play=deal["play"][:5]), "bridge")
    assert "declarer_side_tricks" not in {f.name for f in facts}


def test_signed_must_be_true_or_false(tmp_path):
    import shutil

    from conftest import FIXTURES
    from referee.expert.language.errors import RefereeError
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    rb = draft / "mini" / "rulebook.yaml"
    rb.write_text(rb.read_text() + "score:\n  items:\n    - {id: bula, label: {en: bula}, signed: 'no'}\n")
    with pytest.raises(RefereeError, match="score item 'bula': signed must be true or false"):
        load_rulebook("mini", draft)
