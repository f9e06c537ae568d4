"""expert.cards.derive: facts from the play record, for all four games."""
import copy

from referee.expert.cards.deal import parse_deal
from referee.expert.cards.derive import answers_from_facts, derive, infractions_in_order

from card_deals import PREFERANS


def names(facts, *which):
    return [(f.name, f.seat, f.trick) for f in facts if f.name in which]


INFR = ("revoke", "failed_to_trump", "failed_to_overtrump", "failed_to_beat",
        "lead_out_of_turn", "played_out_of_turn")


# ------------------------------------------------------------------ preferans

def test_preferans_leads_winners_and_failure_to_trump():
    facts = derive(parse_deal(copy.deepcopy(PREFERANS), "preferans"))
    assert names(facts, "on_lead") == [("on_lead", "defender_1", 1), ("on_lead", "declarer", 2)]
    assert names(facts, "won_trick") == [("won_trick", "declarer", 1),
                                         ("won_trick", "defender_2", 2)]
    assert names(facts, *INFR) == [("failed_to_trump", "defender_1", 2)]
    f = next(f for f in facts if f.name == "failed_to_trump")
    assert "holding the trump(s) ♥9, ♥8, ♥7" in f.detail_en


def test_preferans_revoke_holding_the_suit():
    d = copy.deepcopy(PREFERANS)
    d["play"] = ["♣K ♣Q ♣A", "♥A ♠10 ♠7"]     # defender_1 holds ♥987, plays a spade
    facts = derive(parse_deal(d, "preferans"))
    assert names(facts, *INFR) == [("revoke", "defender_1", 2)]
    assert "without following trumps" in next(f for f in facts if f.name == "revoke").detail_en


def test_preferans_legal_play_has_no_infraction():
    d = copy.deepcopy(PREFERANS)
    d["play"] = ["♣K ♣Q ♣A", "♥A ♥7 ♠7", "♥K ♥8 ♠8"]
    facts = derive(parse_deal(d, "preferans"))
    assert names(facts, *INFR) == []
    assert not any(f.name == "first_infraction" for f in facts)


def test_preferans_lead_out_of_turn_and_order_of_infractions():
    d = copy.deepcopy(PREFERANS)
    # trick 2 belongs to the declarer (won trick 1) but defender_2 leads; then at trick 3
    # defender_1 fails to follow.
    d["play"] = ["♣K ♣Q ♣A", "♦7 ♦A ♦K", "♠A ♥7 ♠7"]
    facts = derive(parse_deal(d, "preferans"))
    got = names(facts, *INFR)
    assert ("lead_out_of_turn", "defender_2", 2) in got
    assert ("revoke", "defender_1", 3) in got
    order = infractions_in_order(facts)
    assert [f.name for f in order] == ["lead_out_of_turn", "revoke"]
    first = next(f for f in facts if f.name == "first_infraction")
    assert first.value == "lead_out_of_turn" and first.trick == 2
    assert "declarer was on lead (won trick 1)" in order[0].detail_en


def test_played_out_of_turn_within_a_trick():
    d = copy.deepcopy(PREFERANS)
    # defender_1 leads; the declarer plays second, before defender_2
    d["play"] = ["♣K ♣A ♣Q"]
    facts = derive(parse_deal(d, "preferans"))
    assert names(facts, "played_out_of_turn") == [("played_out_of_turn", "declarer", 1)]


# ------------------------------------------------------------------ skat

SKAT_HANDS = {
    # soloist (middlehand) plays hearts; jacks are trumps
    "forehand": "♣AK ♠AK10 ♥7 ♦AK10 ♣J",
    "middlehand": "♥AK10Q98 ♠J ♥J ♦J ♣10",
    "rearhand": "♣Q987 ♠Q987 ♦Q9",
}
SKAT = {"seats": ["forehand", "middlehand", "rearhand"], "declarer": "middlehand",
        "contract": "hearts", "hands": SKAT_HANDS,
        "skat": "♦87", "discard": "♦87"}


def test_skat_revoke_when_a_jack_is_the_trump_held():
    d = copy.deepcopy(SKAT)
    # forehand leads ♠A; middlehand ♠J is a trump, not a spade: no spade held -> may ruff;
    # trick 2 middlehand leads ♥A, forehand holds ♥7 and ♣J (both trumps) but plays ♦A
    d["play"] = ["♠A ♥8 ♠7", "♥A ♦A ♦9"]
    facts = derive(parse_deal(d, "skat"))
    assert names(facts, "revoke") == [("revoke", "forehand", 2)]
    assert names(facts, "won_trick") == [("won_trick", "middlehand", 1),
                                         ("won_trick", "middlehand", 2)]


def test_skat_no_duty_to_trump_when_void():
    d = copy.deepcopy(SKAT)
    # rearhand leads? no: forehand leads ♦K, middlehand has only ♦J (a trump) -> no diamond
    # held, so ♣10 is legal (no duty to trump in skat)
    d["play"] = ["♦K ♣10 ♦Q"]
    facts = derive(parse_deal(d, "skat"))
    assert names(facts, *INFR) == []
    assert names(facts, "won_trick") == [("won_trick", "forehand", 1)]


def test_skat_null_jack_follows_its_suit():
    d = copy.deepcopy(SKAT)
    d["contract"] = "null"
    d["play"] = ["♣A ♥8 ♣7"]   # in null ♣J is a club: middlehand holds ♣10 -> revoke
    facts = derive(parse_deal(d, "skat"))
    assert names(facts, "revoke") == [("revoke", "middlehand", 1)]


def test_skat_lead_out_of_turn():
    d = copy.deepcopy(SKAT)
    d["play"] = ["♠A ♥8 ♠7", "♠K ♥9 ♠8"]   # middlehand won trick 1, forehand leads again
    facts = derive(parse_deal(d, "skat"))
    assert names(facts, "lead_out_of_turn") == [("lead_out_of_turn", "forehand", 2)]


# ------------------------------------------------------------------ bridge 64A1

BRIDGE = {
    "declarer": "S", "contract": "4♠",
    "hands": {"N": "♠AK7 ♥QJ109 ♦AK2 ♣543", "E": "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107",
              "S": "♠98654 ♥876 ♦987 ♣62", "W": "♠32 ♥543 ♦6543 ♣AK98"},
}


def test_bridge_revoke_transfer_two_tricks():
    d = copy.deepcopy(BRIDGE)
    # trick 3: S ruffs a club holding ♣6 and wins the trick; N-S win tricks 4 and 5
    d["play"] = ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6", "♣9 ♣5 ♣10 ♠4", "♠8 ♠2 ♠A ♠10",
                 "♦A ♦10 ♦7 ♦3"]
    facts = derive(parse_deal(d, "bridge"))
    revokes = names(facts, "revoke")
    assert revokes == [("revoke", "S", 2), ("revoke", "S", 3)]
    t3 = [f for f in facts if f.trick == 3 and f.name in
          ("revoke_trick_won_by_offender", "later_tricks_won_by_offending_side", "revoke_transfer",
           "revoke_established", "revoke_trick_winner_role")]
    got = {f.name: f.value for f in t3}
    assert "revoke_trick_won_by_offender" in got and "revoke_established" in got
    assert got["later_tricks_won_by_offending_side"] == 2
    assert got["revoke_transfer"] == 2
    t2 = {f.name: f.value for f in facts if f.trick == 2 and f.name.startswith("revoke_trick")}
    assert t2 == {"revoke_trick_not_won_by_offender": "W",
                  "revoke_trick_winner_role": "non-offending"}
    assert got["revoke_trick_winner_role"] == "offender"


def test_bridge_second_revoke_in_the_same_suit_and_a_revoke_by_dummy_are_shown():
    d = copy.deepcopy(BRIDGE)
    d["play"] = ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6", "♣9 ♣5 ♣10 ♠4"]
    facts = derive(parse_deal(d, "bridge"))
    assert [(f.seat, f.trick, f.value) for f in facts if f.name == "revoke_repeated_in_suit"] == [("S", 3, 2)]
    assert not any(f.name == "revoke_by_dummy" for f in facts)
    d["play"] = ["♣A ♥9 ♣Q ♣2"]                  # N (dummy, declarer S) discards holding clubs
    facts = derive(parse_deal(d, "bridge"))
    assert [(f.seat, f.trick) for f in facts if f.name == "revoke_by_dummy"] == [("N", 1)]
    assert not any(f.name == "revoke_repeated_in_suit" for f in facts)


def test_bridge_revoke_transfer_one_trick_when_no_later_trick():
    d = copy.deepcopy(BRIDGE)
    d["play"] = ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6", "♣9 ♣5 ♣10 ♠4"]
    facts = derive(parse_deal(d, "bridge"))
    t3 = {f.name: f.value for f in facts if f.trick == 3}
    assert t3["later_tricks_won_by_offending_side"] == 0
    assert t3["revoke_transfer"] == 1
    assert "revoke_established" not in t3        # no later trick played yet


def test_bridge_no_duty_to_ruff():
    d = copy.deepcopy(BRIDGE)
    d["play"] = ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♣6", "♣9 ♣5 ♣10 ♥6"]
    facts = derive(parse_deal(d, "bridge"))
    assert names(facts, *INFR) == []
    assert [f.value for f in facts if f.name == "tricks_won" and f.seat == "W"] == [2]


def test_bridge_opening_lead_by_the_wrong_defender():
    d = copy.deepcopy(BRIDGE)
    d["play"] = ["♥A ♥8 ♥3 ♥Q"]       # E leads; W (declarer's LHO) was on lead
    facts = derive(parse_deal(d, "bridge"))
    assert names(facts, "lead_out_of_turn") == [("lead_out_of_turn", "E", 1)]
    assert next(f for f in facts if f.name == "lead_out_of_turn").value == "W"


# ------------------------------------------------------------------ ulti

ULTI = {
    "declarer": "declarer", "contract": "piros",
    "hands": {"declarer": "P:Á X K F A IX Z:Á X T:Á M:Á",
              "defender_1": "P:VIII VII Z:K F A IX T:X K F M:F",
              "defender_2": "Z:VIII VII T:A IX VIII VII M:A IX VIII VII"},
    "talon": "M:X K", "discard": "M:X K",
}


def test_ulti_declarer_leads_and_renonsz_not_following():
    d = copy.deepcopy(ULTI)
    d["play"] = ["Z:Á M:F Z:VII"]     # defender_1 holds zöld, plays makk
    facts = derive(parse_deal(d, "ulti"))
    assert names(facts, "on_lead") == [("on_lead", "declarer", 1)]
    assert names(facts, *INFR) == [("revoke", "defender_1", 1)]


def test_ulti_failed_to_beat_in_betli():
    d = copy.deepcopy(ULTI)
    d["contract"] = "betli"
    # betli order: X is below alsó; defender_1 holds Z:K F A and plays IX under the X
    d["play"] = ["Z:X Z:IX Z:VIII"]
    facts = derive(parse_deal(d, "ulti"))
    assert names(facts, *INFR) == [("failed_to_beat", "defender_1", 1)]
    # in a trump game the X is above the király: IX is legal there
    d["contract"] = "piros"
    assert names(derive(parse_deal(d, "ulti")), *INFR) == []


def test_ulti_failed_to_trump_and_to_overtrump():
    # only defender_1's hand is known; seats by rotation from the lead
    d = {"declarer": "declarer", "contract": "piros", "lead": "defender_2",
         "hands": {"defender_1": "P:K VIII T:X K F M:F A IX VIII VII"},
         "play": [{"lead": "defender_2", "cards": "Z:VII P:F P:VIII"}]}
    facts = derive(parse_deal(d, "ulti"))
    assert names(facts, *INFR) == [("failed_to_overtrump", "defender_1", 1)]
    d["play"] = [{"lead": "defender_2", "cards": "Z:VII P:F T:X"}]
    assert names(derive(parse_deal(d, "ulti")), *INFR) == [("failed_to_trump", "defender_1", 1)]
    d["play"] = [{"lead": "defender_2", "cards": "Z:VII P:F P:K"}]
    assert names(derive(parse_deal(d, "ulti")), *INFR) == []


def test_revoke_proven_by_a_later_card_when_hands_are_unknown():
    d = {"declarer": "S", "contract": "4♠", "lead": "W",
         "play": ["♣A ♣3 ♣Q ♥2", "♣K ♣4 ♣J ♣2"]}     # S showed out, then played a club
    facts = derive(parse_deal(d, "bridge"))
    assert names(facts, "revoke") == [("revoke", "S", 1)]


# ------------------------------------------------------------------ answers

def test_answers_from_facts_with_mapping():
    d = copy.deepcopy(PREFERANS)
    d["play"] = ["♣K ♣Q ♣A", "♦7 ♦A ♦K", "♠A ♥7 ♠7"]
    facts = derive(parse_deal(d, "preferans"))
    mapping = {
        "revoke": [{"q": "claim", "add": "revoke"}, {"q": "revoke_offender", "value": "$seat"},
                   {"q": "revoked", "value": True, "absent": False}],
        "lead_out_of_turn": [("lead_ok", False), {"q": "lead_ok", "absent": True}],
        "failed_to_trump": {"q": "trumped_ok", "value": False, "absent": True},
        "first_infraction": {"q": "first", "value": "$value"},
    }
    got = answers_from_facts(facts, mapping)
    assert got.answers == {"claim": ["revoke"], "revoke_offender": "defender_1", "revoked": True,
                           "lead_ok": False, "trumped_ok": True, "first": "lead_out_of_turn"}
    assert "defender_1 played" in got.sources["revoked"][0]
    assert got.sources["trumped_ok"] == ["the cards show no failed to trump"]
    # an incomplete record proves nothing by absence
    assert "trumped_ok" not in answers_from_facts(facts, mapping, record_complete=False).answers


def test_preferans_betl_discards():
    d = {"seats": ["defender_1", "defender_2", "declarer"], "declarer": "declarer",
         "contract": "betl",
         "hands": {"declarer": "♠7 ♥78 ♦789 ♣789 ♠8",
                   "defender_1": "♠AKQ ♥KQ ♦AK ♣AKQ",
                   "defender_2": "♠J109 ♥AJ109 ♦QJ10"},
         "talon": "♣J10", "discard": "♣J10"}
    # defender_2 void in clubs: holds ♠J109 (3), ♥AJ109 (4), ♦QJ10 (3) -> shortest 3;
    # discarding from hearts (4) is not the shortest; from ♦QJ10 the middle (♦J) is due
    d["play"] = [{"lead": "defender_1", "cards": "♣A ♥A ♣7"}]
    facts = derive(parse_deal(d, "preferans"))
    assert names(facts, "betl_discard_not_shortest") == [
        ("betl_discard_not_shortest", "defender_2", 1)]
    d["play"] = [{"lead": "defender_1", "cards": "♣A ♦Q ♣7"}]
    facts = derive(parse_deal(d, "preferans"))
    assert names(facts, "betl_discard_not_shortest") == []
    wrong = [f for f in facts if f.name == "betl_discard_wrong_card"]
    assert len(wrong) == 1 and wrong[0].value == "♦J"
    d["play"] = [{"lead": "defender_1", "cards": "♣A ♦J ♣7"}]
    facts = derive(parse_deal(d, "preferans"))
    assert not [f for f in facts if f.name.startswith("betl_discard")]


def test_mapping_if_filters_on_the_fact_value():
    d = copy.deepcopy(BRIDGE)
    d["play"] = ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6", "♣9 ♣5 ♣10 ♠4"]
    facts = derive(parse_deal(d, "bridge"))
    mapping = {"revoke_trick_winner_role": {"q": "l64_winner", "value": "$value"},
               "revoke_established": {"q": "l63_events", "add": "played-next"},
               "revoke": [{"q": "offender", "value": "$seat"},
                          {"q": "claim", "add": "play"}],
               "later_tricks_won_by_offending_side": {"q": "l64_later_tricks", "value": "$value"},
               "lead_out_of_turn": {"q": "l53_out_of_turn", "value": True, "absent": False}}
    got = answers_from_facts(facts, mapping).answers
    # the first revoke (trick 2) gives the answers; it was won by the non-offending side
    assert got == {"l64_winner": "non-offending", "l63_events": ["played-next"], "offender": "S",
                   "claim": ["play"], "l64_later_tricks": 1, "l53_out_of_turn": False}
    only_won = {"revoke_trick_winner_role": {"q": "won", "value": True, "if": "offender"}}
    assert answers_from_facts(facts, only_won).answers == {"won": True}


def test_mapping_earliest_fact_wins_across_names():
    d = {"declarer": "declarer", "contract": "betli", "lead": "declarer",
         "hands": {"defender_1": "P:VIII VII Z:K F A IX T:X K F M:F",
                   "defender_2": "Z:VIII VII T:A IX VIII VII M:A IX VIII VII"},
         # trick 1: defender_1 does not beat (Z:IX under Z:X holding Z:K F A); trick 2 is led
         # by the declarer again; defender_1 does not follow makk holding M:F
         "play": ["Z:X Z:IX Z:VIII", "M:Á T:X M:VII"]}
    facts = derive(parse_deal(d, "ulti"))
    got = [(f.name, f.seat, f.trick) for f in infractions_in_order(facts)]
    assert got[0] == ("failed_to_beat", "defender_1", 1)
    assert ("revoke", "defender_1", 2) in got or ("revoke", "defender_2", 2) in got
    mapping = {"revoke": [{"q": "revoke_kind", "value": "not-follow"},
                          {"q": "offender", "value": "$seat"}],
               "failed_to_beat": [{"q": "revoke_kind", "value": "not-beat"},
                                  {"q": "offender", "value": "$seat"}]}
    ans = answers_from_facts(facts, mapping).answers
    assert ans == {"revoke_kind": "not-beat", "offender": "defender_1"}


def test_ulti_trump_seven():
    base = {"declarer": "declarer", "contract": "piros ulti", "seats":
            ["declarer", "defender_1", "defender_2"],
            "hands": {"declarer": "P:VII Á X K F A IX Z:Á X T:Á"}}
    d = dict(base, play=["P:VII P:VIII Z:VII"])      # led the VII at trick 1
    f = [x for x in derive(parse_deal(d, "ulti")) if x.name == "trump_seven"]
    assert len(f) == 1 and f[0].value == "early" and f[0].trick == 1
    # piros led to him; his only piros is the VII -> forced
    d = dict(base, hands={"declarer": "P:VII Z:Á X K F A IX VIII T:Á X"},
             lead="defender_1", play=["P:Á P:K P:VII"])
    f = [x for x in derive(parse_deal(d, "ulti")) if x.name == "trump_seven"]
    assert f[0].value == "early-forced"


def test_skat_matadors_come_from_the_soloists_cards_and_the_skat():
    from referee.expert.cards import case_facts
    deal = {"seats": ["opponent_1", "soloist", "opponent_2"], "declarer": "soloist", "contract": "grand",
            "hands": {"opponent_1": "♣AKJ ♠AK10 ♥7 ♦AK10", "soloist": "♥AK10Q98 ♠J ♥J ♦J ♣10",
                      "opponent_2": "♣Q987 ♠Q987 ♦Q9"},
            "skat": "♦87"}
    facts = {f.name: f.value for f in case_facts(dict(deal), "skat")[1]}
    assert (facts["matadors_with"], facts["matadors"], facts["contract"]) == ("without", 1, "grand")
    deal["hands"] = {"opponent_1": "♠J ♣AK ♠AK10 ♥7 ♦AK10", "soloist": "♥AK10Q98 ♣J ♥J ♦J ♣10",
                     "opponent_2": "♣Q987 ♠Q987 ♦Q9"}
    facts = {f.name: f.value for f in case_facts(dict(deal), "skat")[1]}
    assert (facts["matadors_with"], facts["matadors"]) == ("with", 1)
    deal["contract"] = "null"
    assert "matadors" not in {f.name for f in case_facts(dict(deal), "skat")[1]}
