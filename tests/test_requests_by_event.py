"""Players' requests and the review, as blind testers met them (blind walk 8): a request tied to
the event it concerns and answered from that event's findings (saying what another event's give);
never granted on a finding left pending or undecided; the follow-up questions a request kind
needs, announced, with answers of the wrong shape refused; free-text requests shown beside what
the decision gives; a stray Enter at the review rules nothing; an incomplete ruling does not
promote a finding a rule still in reach of the open questions would set aside."""
from __future__ import annotations

import pytest
import yaml
from click.testing import CliRunner

from case_helpers import rule_case
from conftest import FIXTURES
from referee.cli import main
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render

# skat, two events: the soloist drops a card by accident and puts it back (4.1.9: no sanction);
# later an opponent plays open without taking every remaining trick (4.3.5: the game is over,
# the soloist wins)
SKAT_DEAL = {"game_type": "spades", "matadors_with": "with", "matadors": 1, "hand": "not_hand",
             "announced": "none", "bid": 22, "soloist_seat": "Vorhand"}
DROPPED = {"claim": ["cards-exposed"], "offender": "soloist", "claimed_at_once": True,
           "exposure_kind": "dropped_or_shown", "soloist_card_how": "by_accident"}
PLAYS_OPEN = {"claim": ["opponent-plays-open"], "offender": "opponent_2", "opponent_took_all": False,
              "points_counted": False, "decided": "open", "required_level": "none", "innocent_choice": "end"}


def _two_events(tmp_path, requests):
    return rule_case(tmp_path, "skat", {"answers": SKAT_DEAL, "events": [DROPPED, PLAYS_OPEN],
                                        "requests": requests})


def test_a_request_is_answered_from_the_event_it_concerns(tmp_path):
    ruling = _two_events(tmp_path, [
        {"party": "opponent_1", "asks": "upheld", "event": 1},
        {"party": "soloist", "asks": "upheld", "event": 2},
        {"party": "soloist", "asks": "upheld", "event": 1}])
    by_hand, played_open, on_the_drop = ruling.requests
    # the dropped card is no infraction (4.1.9): the opponent's claim about it fails
    assert (by_hand.answer, by_hand.event, by_hand.provisions) == ("refused", 1, ["skat:4.1.9.soloist-exception"])
    assert (played_open.answer, played_open.event) == ("granted", 2)
    assert "skat:4.3.5" in played_open.provisions
    # asked about the drop, the soloist's claim upheld is given by the other event, and it says so
    assert (on_the_drop.answer, on_the_drop.cause, on_the_drop.by_event) == ("granted", "other-event", 2)
    assert on_the_drop.to_dict()["event"] == 1 and on_the_drop.to_dict()["by_event"] == 2
    text = render(ruling, "text")
    assert "granted — given by event 2 (4.3.5), not by event 1 it concerns" in text


def test_what_another_event_gives_is_said_rather_than_a_bare_refusal(tmp_path):
    """'Game over' asked about the dropped card: that event gives no such thing (4.1.9); the
    game did end, by event 2, against the asker's own side: the answer says both."""
    ruling = _two_events(tmp_path, [{"party": "opponent_1", "asks": "effect:game_ends", "event": 1,
                                     "text": "he dropped a card: game over"}])
    [r] = ruling.requests
    assert (r.answer, r.cause, r.event) == ("refused", "not-given", 1)
    assert [(o.event, o.answer, o.cause) for o in r.elsewhere] == [(2, "refused", "own-infraction")]
    text = render(ruling, "text")
    # 4.1.9 finds no violation in the dropped card: the refusal says so, not merely that no
    # article gives it
    # ... and event 2's finding is said as what that event gives and on whom, not as a refusal
    # of the asker (blind walk 9, B2)
    assert ("refused — no violation is established (4.1.9), so nothing of this follows; event 2 is another "
            "matter: what it gives falls there on: second opponent (Zadek/Hinterhand), the asker's partner "
            "(4.3.5)") in text
    assert "event 2: refused" not in text
    assert r.to_dict()["elsewhere"][0]["event"] == 2
    # asked as ending against the soloist: event 2 ends it, on the opponent who played open
    ruling = _two_events(tmp_path, [{"party": "opponent_1", "asks": "effect:game_ends", "on": "soloist",
                                     "event": 1}])
    [r] = ruling.requests
    assert [(o.event, o.answer, o.cause) for o in r.elsewhere] == [(2, "refused", "other-player")]
    text = render(ruling, "text")
    assert "event 2 is another matter: what it gives falls there on: second opponent" in text
    assert "event 2: refused" not in text and r.to_dict()["elsewhere"][0]["falls_on"] == ["opponent_2"]


def test_a_request_naming_no_event_is_answered_from_the_whole_dispute(tmp_path):
    ruling = _two_events(tmp_path, [{"party": "opponent_1", "asks": "effect:game_ends"}])
    [r] = ruling.requests
    assert (r.answer, r.cause, r.event) == ("refused", "own-infraction", None)
    assert "event" not in r.to_dict()


def test_a_case_file_request_for_an_event_the_dispute_lacks_is_refused(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump({"game": "skat", "answers": SKAT_DEAL, "events": [DROPPED, PLAYS_OPEN],
                                    "requests": [{"party": "soloist", "asks": "upheld", "event": 3}]}))
    result = CliRunner().invoke(main, ["rule", str(case), "--no-register"])
    assert result.exit_code == 2
    assert "request event 3, expected a number from 1 to 2 (the event it concerns)" in result.output


# bridge: an inadmissible double during the auction; Law 26 may restrict the lead only if the
# offending side defends, and the auction has not ended: pending, not decided
PENDING_26 = {"claim": ["inadmissible-double"], "offender": "E", "l36_permitted": False,
              "l36_out_of_turn": False, "l11_lho_acted": False, "l11_attention": "player", "l11a_gain": False,
              "l26_auction_over": False}


def test_a_request_is_never_granted_on_a_pending_article(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": {**PENDING_26, "deal_stage": "auction"}, "requests": [
        {"party": "S", "asks": "upheld"},
        {"party": "S", "asks": "effect:lead_restriction"},
        {"party": "S", "asks": "other", "provision": "bridge:26", "text": "a lead restriction"}]})
    upheld, restriction, invoked = ruling.requests
    assert (upheld.answer, upheld.provisions) == ("granted", ["bridge:36"])
    assert (restriction.answer, restriction.cause, restriction.provisions) == ("undecided", "undecided", ["bridge:26"])
    assert (invoked.answer, invoked.provisions) == ("undecided", ["bridge:26"])
    assert "granted — Правило 26" not in render(ruling, "text")


def test_an_undecided_finding_is_no_basis_of_a_grant(tmp_path):
    """Law 26B is lost: the lead restriction after a double is undecided; the restriction asked
    stays open on it, and a grant names only decided findings."""
    answers = {**PENDING_26, "offender": "N", "l26_auction_over": True,
               "l26_defender": True, "l26_suit": False}
    ruling = rule_case(tmp_path, "bridge", {"answers": answers, "requests": [
        {"party": "E", "asks": "effect:lead_restriction"}, {"party": "E", "asks": "rejected"},
        {"party": "E", "asks": "no-penalty"}]})
    restriction, rejected, no_penalty = ruling.requests
    assert (restriction.answer, restriction.provisions) == ("undecided", ["bridge:26"])
    assert rejected.answer == no_penalty.answer == "granted"
    assert "bridge:26" not in rejected.provisions + no_penalty.provisions


# --- the follow-up questions -------------------------------------------------------------------

def _at_request(game: str, asks: str, events: int = 1) -> Session:
    s = Session(load_rulebook(game), enter_cards=False, ask_names=False)
    s.events = [{} for _ in range(events)]
    s.current = events - 1
    s.stage, s.draft = "request", {"party": s.book.seat_ids[1], "asks": asks}
    return s


def test_a_request_kind_asks_only_the_follow_ups_it_needs_and_announces_them():
    void = _at_request("ulti", "effect:void")
    assert void.follow_ups() == ["on", "text"]            # a voided bid has no amount
    first = void.next()
    assert first.kind == "request_on" and first.heading == "2 more questions: whom, the player's words."
    assert _at_request("ulti", "effect:pays").follow_ups() == ["on", "amount", "text"]
    assert _at_request("bridge", "effect:forced_pass").follow_ups() == ["on", "scope", "text"]
    assert _at_request("preferans", "other").follow_ups() == ["text", "provision"]
    assert _at_request("ulti", "upheld").next().heading == "One more question: the player's words."
    assert _at_request("ulti", "effect:void", events=2).follow_ups() == ["event", "on", "text"]


def test_answers_of_the_wrong_shape_are_refused_not_stored():
    s = _at_request("ulti", "effect:void")
    with pytest.raises(AnswerRefused) as exc:
        s.answer("8")                                      # an amount typed ahead, at 'whom'
    assert "a number is not a player" in exc.value.reason
    s.answer("declarer")
    with pytest.raises(AnswerRefused):
        s.answer("8")                                      # ... and at the player's words
    s.answer("his bid does not count")
    [r] = s.requests
    assert (r.asks, r.on, r.amount, r.text) == ("effect:void", "declarer", None, "his bid does not count")


def test_the_event_a_request_concerns_defaults_to_the_event_being_recorded():
    s = _at_request("ulti", "upheld", events=2)
    prompt = s.next()
    assert prompt.kind == "request_event" and "Enter: event 2" in prompt.text
    with pytest.raises(AnswerRefused):
        s.answer("3")
    s.answer("")
    s.answer("")
    assert s.requests[0].event == 2
    t = _at_request("ulti", "upheld", events=2)
    t.answer("1")
    t.answer("")
    assert t.requests[0].event == 1 and t.requests[0].to_dict()["event"] == 1


def test_a_free_text_request_is_shown_beside_what_the_decision_gives(tmp_path):
    answers = {"claim": ["early-speech"], "booked": False, "phase": "bidding", "offender": "defender_1",
               "spoke_early": True, "prev_clear": True, "game_kind": "colour", "trump": "tok",
               "st_parti": "open", "st_negyvenszaz": "not-bid", "st_huszszaz": "not-bid", "st_ulti": "not-bid",
               "st_durchmars": "not-bid", "st_teritett_durchmars": "not-bid"}
    ruling = rule_case(tmp_path, "ulti", {"answers": answers, "requests": [
        {"party": "declarer", "asks": "other", "text": "Bela must pay me"}]})
    [r] = ruling.requests
    assert (r.answer, r.cause) == ("undecided", "no-article")
    assert "ulti:renonsz.1" in r.provisions
    assert "the decision above answers it if what he asks is what it gives (Renonszok 1. pont" \
        in render(ruling, "text").replace("\n    ", " ")


# --- the review --------------------------------------------------------------------------------

def test_an_empty_line_at_the_review_rules_nothing():
    mini = load_rulebook("mini", FIXTURES)
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    for raw in ["early", "no", "pik", "d1"]:
        s.answer(raw)
    assert s.next().kind == "review"
    assert s.answer("") == "Nothing chosen: type 'rule' to rule."
    assert s.next().kind == "review" and not s.done
    assert "type 'rule' to rule" in s.next().text and not s.next().can_skip
    s.answer("rule")
    assert s.done


def test_piped_enters_at_the_review_register_nothing(tmp_path):
    register = tmp_path / "register.sqlite"
    k = ["--knowledge", str(FIXTURES), "--player", "declarer=Marko", "--player", "d1=Jovan", "--player", "d2=Petar"]
    result = CliRunner().invoke(main, ["interview", "mini", "--save", str(tmp_path / "s.yaml"), "--register",
                                       str(register), *k], input="early\nno\n2\n1\n\n\n")
    assert result.exit_code == 130, result.output          # stopped at the end of input, saved
    assert "Nothing chosen: type 'rule' to rule." in result.output
    assert not register.exists() or "1 ruling" not in CliRunner().invoke(
        main, ["register", "list", "--register", str(register)]).output
    ruled = CliRunner().invoke(main, ["interview", "mini", "--resume", str(tmp_path / "s.yaml"), "--no-register",
                                      "--format", "json", "--knowledge", str(FIXTURES)], input="rule\n")
    assert ruled.exit_code == 0, ruled.output


# --- an incomplete ruling ------------------------------------------------------------------------

def test_an_incomplete_ruling_does_not_promote_a_finding_the_open_facts_may_set_aside(tmp_path):
    """ulti: an early speech in the bidding, the previous bid clear: Renonszok 1 is established
    by the facts answered, and what it gives waits for whether the deal was played and the
    declarer's game. Továbbiak 5's warning (found only in the kontra round) is not the decision,
    and neither is "no irregularity": the decision says it is not decided yet."""
    answers = {"claim": ["early-speech"], "booked": False, "phase": "bidding", "offender": "defender_1",
               "spoke_early": True, "prev_clear": True}
    ruling = rule_case(tmp_path, "ulti", {"answers": answers})
    assert ruling.open_questions == ["played_out", "game_kind"]
    assert not [f for f in ruling.findings if "ulti:tovabbiak.5" in f.provisions]
    text = render(ruling, "text")
    decision = text[text.index("DECISION"):text.index("ENTRIES")]
    assert "the offender is warned" not in decision
    assert "No irregularity is established" not in decision
    assert "Not decided yet" in decision


def test_whatif_with_facts_missing_shows_what_the_answered_facts_establish(tmp_path):
    """The blind tester's what-if: the previous bid made clear, the game facts not answered."""
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump({"game": "ulti", "answers": {
        "claim": ["early-speech"], "booked": False, "phase": "bidding", "offender": "defender_1",
        "spoke_early": True, "prev_clear": False}}))
    result = CliRunner().invoke(main, ["whatif", str(case), "--set", "prev_clear=yes", "--allow-incomplete"])
    assert result.exit_code == 0, result.output
    decision = result.output.split("Decision:")[1]
    assert "- Renonszok 1. pont, 2. mondat [No violation]" in decision
    assert "= Not decided yet" in decision
    assert "Továbbiak 5" not in decision


def test_a_request_entered_before_a_second_event_stays_tied_to_the_first():
    """The tester's order: event 1 recorded, the request about it entered, then '+' for event 2
    (which in fact ends the game): the request is answered from event 1, not from the dispute."""
    s = Session(load_rulebook("skat"), enter_cards=False, ask_names=False)
    s.shared.update(SKAT_DEAL)
    s.events[0].update(DROPPED)
    s.stage = "review"
    for raw in ["r", "opponent_1", "upheld", "he dropped a card"]:
        s.answer(raw)
    assert s.requests[0].event == 1
    s.answer("+")
    s.events[1].update(PLAYS_OPEN)
    s.stage = "review"
    [r] = s.rule().requests
    assert (r.answer, r.event, r.provisions) == ("refused", 1, ["skat:4.1.9.soloist-exception"])
