"""A player's request as blind testers met it (blind walk 9): the 'whom' question says whether it
means the player who pays or the one who receives, from the effect's own definition; the 'how
much' question says its unit and sign ('?') and is not asked of an effect that carries no amount;
a request about one event is not refused over another event's finding on another player."""
from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from case_helpers import rule_case
from referee.cli import main
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render

# bridge B2: declarer drops the ♦Q (48A: no penalty); then East shows the ♣K to his partner (49:
# a penalty card). West asks a penalty card on South about the drop; South asks one on East.
B2_EVENTS = [
    {"claim": ["play"], "play_claim": ["declarer-exposed"], "l48_how": "dropped"},
    {"claim": ["play"], "play_claim": ["defender-exposed"], "offender": "E", "l49_how": "partner-could-see",
     "l49_entitled": False, "l11_lho_acted": False, "l11_attention": "player", "l11a_gain": False,
     "l49_cards": 1}]


def _b2(tmp_path, requests):
    return rule_case(tmp_path, "bridge", {"header": {"players": {"N": "Ann", "E": "Bob", "S": "Cid", "W": "Dan"}},
                                          "answers": {"deal_stage": "play"}, "events": B2_EVENTS,
                                          "requests": requests})


@pytest.mark.parametrize("on", ["S", None])
def test_another_events_finding_on_the_askers_partner_is_no_refusal_of_the_asker(tmp_path, on):
    ask = {"party": "W", "asks": "effect:penalty_card", "event": 1, **({"on": on} if on else {})}
    ruling = _b2(tmp_path, [ask, {"party": "S", "asks": "effect:penalty_card", "event": 2, "on": "E"}])
    west, south = ruling.requests
    assert west.answer == "refused" and west.event == 1
    [other] = west.elsewhere
    assert other.event == 2 and other.falls_on == ["E"]
    assert west.to_dict()["elsewhere"][0]["reason"] == "another matter: given there on E (Правило 49)"
    text = render(ruling, "text").replace("\n    ", " ")
    assert "event 2: refused" not in text and "on another player" not in text
    assert ("event 2 is another matter: what it gives falls there on: Bob (East), the asker's partner "
            "(Правило 49)") in text
    assert south.answer == "granted"
    # in every language of the report, the other event is said as another matter
    for lang, said in [("sr", "druga stvar"), ("pl", "odrębna sprawa"), ("ru", "другое дело"),
                       ("hu", "másik ügy")]:
        assert said in render(ruling, "text", lang=lang)


# --- 1. whom: the player who pays, or the one who receives ----------------------------------------

def _at_request(game: str, asks: str, party: str | None = None, lang: str = "en") -> Session:
    s = Session(load_rulebook(game), enter_cards=False, ask_names=False, lang=lang)
    s.events, s.current = [{}], 0
    s.stage, s.draft = "request", {"party": party or s.book.seat_ids[1], "asks": asks}
    return s


@pytest.mark.parametrize("game, asks, says", [
    # tricks transferred TO the innocent side are asked FROM the offending side (rulebook.yaml:
    # side, against 'from {who}'): the request names the side that gives them up
    ("bridge", "effect:trick_transfer", "From whom is \u201ctricks transferred to this side\u201d asked? Name the "
                                        "player (or side) it is taken from or written against, not the one who "
                                        "receives it. (Enter: the other side)"),
    ("preferans", "effect:supe", "From whom is"),
    # a payment is written for the payer, TO the one it is against (ulti: against_gains)
    ("ulti", "effect:pays", "Who is to pay \u201ca payment in units"),
    # a penalty card, bula, a game lost: the player it is written on bears it
    ("bridge", "effect:penalty_card", "On whom is \u201cpenalty card, major or minor (Law 50)\u201d asked? Name the "
                                      "player it is written on, the one who bears it. (Enter: the other side)"),
    ("skat", "effect:game_lost", "On whom is"),
    ("preferans", "effect:bula", "On whom is"),
])
def test_the_whom_question_says_whether_it_means_the_payer_or_the_receiver(game, asks, says):
    prompt = _at_request(game, asks).next()
    assert prompt.kind == "request_on" and says in prompt.text
    assert "Which player does" not in prompt.text
    assert "the one the effect is to fall on" in prompt.help


def test_an_effect_in_the_askers_favour_is_asked_for_him():
    prompt = _at_request("skat", "effect:game_won", party="soloist").next()
    assert prompt.text.startswith("For whom is \u201csoloist's game scored as won")
    assert "Name the player who gains by it. (Enter: the player who asks, soloist" in prompt.text


@pytest.mark.parametrize("lang, says", [("sr", "Od koga se traži"), ("pl", "Od kogo żąda się"),
                                        ("ru", "С кого требуется"), ("hu", "Kitől kéri")])
def test_the_whom_question_in_every_language(lang, says):
    prompt = _at_request("bridge", "effect:trick_transfer", lang=lang).next()
    assert prompt.text.startswith(says) and "{" not in prompt.text


REVOKE = ("game: bridge\n"
          "header: {players: {N: Ann, E: Bob, S: Cid, W: Dan}}\n"
          "answers: {deal_stage: play, contract_level: 3, contract_strain: clubs, contract_doubled: undoubled,"
          " declarer: S, vulnerability: none, claim: [play], play_claim: [revoke], offender: E,"
          " l63_revoked: true, l63_events: [played-next], l63_trick12: false, l64_exception: [none],"
          " l64_winner: offender, l11_attention: player, l11a_gain: false, l64_later_tricks: 1}\n")


def _interview(tmp_path, typed: list[str]):
    case = tmp_path / "case.yaml"
    case.write_text(REVOKE)
    result = CliRunner().invoke(main, ["interview", "bridge", "--resume", str(case), "--no-register",
                                       "--format", "json"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    return result.output, yaml.safe_load(case.read_text())["requests"]


def test_the_side_the_question_names_is_the_one_the_request_is_decided_on(tmp_path):
    """South asks for the revoke's tricks: the question asks from whom, he names East (who
    revoked), and the request is granted as asked -- 2 tricks to N-S from East (Law 64A)."""
    out, requests = _interview(tmp_path, ["r", "S", "effect:trick_transfer", "E", "2", "", "rule"])
    assert "From whom is \u201ctricks transferred to this side\u201d asked?" in out
    assert requests == [{"party": "S", "asks": "effect:trick_transfer", "on": "E", "amount": 2, "event": 1}]
    [answer] = json.loads(out[out.index("\n{") + 1:])["requests"]
    assert answer["answer"] == "granted"


# --- 2. how much: the unit and the sign; no amount where the effect carries none -----------------

def test_question_mark_at_how_much_says_the_unit_and_the_sign(tmp_path):
    out, _ = _interview(tmp_path, ["r", "S", "effect:trick_transfer", "", "?", "1", "", "rule"])
    assert "How much is asked (tricks)? (Enter: what the rules give)" in out
    assert ("The amount the player asks for, in tricks, as the score sheet writes it: a number above zero. "
            "It is compared with what the rules give: less than asked is granted in part.") in out


def test_a_loss_is_asked_below_zero_and_a_number_of_the_other_sign_is_refused():
    s = _at_request("skat", "effect:game_lost", party="opponent_1")
    s.answer("")
    prompt = s.next()
    assert prompt.kind == "request_amount" and "(points)" in prompt.text
    assert "a number below zero (a loss is written with a minus)" in prompt.help
    with pytest.raises(AnswerRefused) as exc:
        s.answer("72")
    assert "a number below zero" in exc.value.reason
    s.answer("\u221272")                      # typed with the sheet's own minus
    assert s.draft["amount"] == -72
    won = _at_request("skat", "effect:game_won", party="soloist")
    won.answer("")
    with pytest.raises(AnswerRefused):
        won.answer("-48")


def test_a_payment_asked_is_the_askers_own_share():
    s = _at_request("ulti", "effect:pays", party="defender_1")
    s.answer("")
    assert "(units)" in s.next().text and "his own share" in s.next().help


@pytest.mark.parametrize("game, asks", [("bridge", "effect:penalty_card"), ("bridge", "effect:play_continues"),
                                        ("bridge", "effect:board_cancelled"), ("skat", "effect:game_ends"),
                                        ("preferans", "effect:ruka_ponistena"), ("ulti", "effect:void")])
def test_no_amount_is_asked_for_an_effect_that_carries_none(game, asks):
    """A penalty card is the card exposed (its '1 card' a count the facts fix, on no score
    sheet); the play continuing, a board cancelled, a hand annulled have no amount at all."""
    assert "amount" not in _at_request(game, asks).follow_ups()


@pytest.mark.parametrize("game, asks", [("bridge", "effect:trick_transfer"), ("skat", "effect:game_lost"),
                                        ("preferans", "effect:supe"), ("ulti", "effect:pays")])
def test_an_amount_is_asked_for_an_effect_the_score_sheet_counts(game, asks):
    assert "amount" in _at_request(game, asks).follow_ups()


@pytest.mark.parametrize("lang", ["sr", "pl", "ru", "hu"])
def test_the_how_much_help_in_every_language(lang):
    s = _at_request("skat", "effect:game_lost", party="opponent_1", lang=lang)
    s.answer("")
    prompt = s.next()
    assert prompt.help and "{" not in prompt.help + prompt.text + prompt.allowed and "-" not in prompt.text
