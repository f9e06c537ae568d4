"""expert.cards.deal: the deal: mapping of a case file, and its validation."""
import copy

import pytest
import yaml

from referee.expert.cards.deal import parse_contract, parse_deal
from referee.expert.cards.deck import Card
from referee.expert.language.errors import RefereeError

from card_deals import PREFERANS


def P(data=None, **changes):
    d = copy.deepcopy(PREFERANS if data is None else data)
    d.update(changes)
    return d


def test_preferans_deal_parses_with_winners_and_leaders():
    deal = parse_deal(P(), "preferans")
    assert deal.contract.trump == "H"
    assert deal.first_lead == "defender_1"
    t1, t2 = deal.tricks
    assert [s for s, _ in t1.cards] == ["defender_1", "defender_2", "declarer"]
    assert t1.winner == "declarer" and t2.expected_leader == "declarer"
    assert t2.winner == "defender_2"
    assert deal.playing_hand("declarer") == [Card(*x) for x in
                                             ("HA", "HK", "HQ", "HJ", "HT", "SA", "SK", "DA",
                                              "CA", "C7")]
    assert deal.side_of("defender_2") == "defenders"


def test_deal_loads_from_yaml_text():
    text = """
deal:
  seats: [defender_1, defender_2, declarer]
  declarer: declarer
  contract: {type: suit, trump: herc}
  hands:
    defender_1: "P:QJ10 K:KQJ H:987 T:K"
  play:
    - {lead: defender_1, cards: "♣K ♣Q ♣A"}
"""
    deal = parse_deal(yaml.safe_load(text)["deal"], "preferans")
    assert deal.tricks[0].leader == "defender_1" and deal.tricks[0].winner == "declarer"
    assert deal.tricks[0].seats_known is False       # only one hand given: rotation assumed


def test_card_dealt_twice_across_hands():
    d = P()
    d["hands"]["defender_2"] = "♠987 ♦10987 ♣QJK"
    with pytest.raises(RefereeError, match="hand of defender_2: the card ♣K .* also in deal: "
                                           "hand of defender_1"):
        parse_deal(d, "preferans")


def test_wrong_hand_size_names_the_position():
    d = P()
    d["hands"]["defender_2"] = "♠987 ♦10987 ♣QJ"
    with pytest.raises(RefereeError, match=r"deal: hand of defender_2: 9 cards given, 10 expected"):
        parse_deal(d, "preferans")


def test_declarer_may_be_given_with_the_talon_picked_up():
    d = P()
    d["hands"]["declarer"] = "♥AKQJ10 ♠AK ♦A ♣A987"
    deal = parse_deal(d, "preferans")
    assert len(deal.playing_hand("declarer")) == 10


def test_talon_size():
    with pytest.raises(RefereeError, match="deal: talon: 1 cards given, 2 expected"):
        parse_deal(P(talon="♣9", discard=None, play=[]), "preferans")


def test_discard_must_come_from_hand_or_talon():
    with pytest.raises(RefereeError, match="neither in the declarer's hand nor in the talon"):
        parse_deal(P(discard="♠Q ♣9", play=[]), "preferans")


def test_played_card_must_come_from_that_seats_hand():
    d = P(play=[{"cards": "♣K ♣Q ♣A", "by": ["defender_1", "declarer", "defender_2"]}])
    with pytest.raises(RefereeError, match=r"trick 1: declarer played ♣D \(dama\) but that card is not in declarer's hand"):
        parse_deal(d, "preferans")


def test_discarded_card_cannot_be_played():
    with pytest.raises(RefereeError, match="trick 1: ♣9 was discarded"):
        parse_deal(P(play=["♣9 ♣Q ♣A"]), "preferans")


def test_card_played_twice():
    with pytest.raises(RefereeError, match="trick 2: ♣K .* already played to trick 1"):
        parse_deal(P(play=["♣K ♣Q ♣A", "♣K ♣J ♣7"]), "preferans")


def test_trick_sizes():
    with pytest.raises(RefereeError, match="trick 1: 2 cards, 3 expected"):
        parse_deal(P(play=["♣K ♣Q", "♣A ♣J ♣7"]), "preferans")
    with pytest.raises(RefereeError, match="trick 1: 4 cards, 3 expected"):
        parse_deal(P(play=["♣K ♣Q ♣A ♠7"]), "preferans")
    # the last trick listed may be unfinished
    deal = parse_deal(P(play=["♣K ♣Q ♣A", "♣7"]), "preferans")
    assert deal.tricks[1].complete is False and deal.tricks[1].winner is None


def test_play_needs_a_contract():
    with pytest.raises(RefereeError, match="give the contract"):
        parse_deal(P(contract=None), "preferans")


def test_unknown_keys_and_seats():
    with pytest.raises(RefereeError, match="unknown key"):
        parse_deal(P(trumps="herc"), "preferans")
    with pytest.raises(RefereeError, match="unknown seat 'north'"):
        parse_deal(P(declarer="north"), "preferans")
    with pytest.raises(RefereeError, match="3 seats"):
        parse_deal(P(seats=["a", "b"]), "preferans")


def test_pairs_form_of_a_trick():
    d = P(play=[[{"defender_1": "♣K"}, {"defender_2": "♣Q"}, {"declarer": "♣A"}]])
    assert parse_deal(d, "preferans").tricks[0].winner == "declarer"


def test_lead_that_contradicts_the_holder():
    d = P(play=[{"lead": "defender_2", "cards": "♣K ♣Q ♣A"}])
    with pytest.raises(RefereeError, match="lead says defender_2 but the first card ♣K was "
                                           "played by defender_1"):
        parse_deal(d, "preferans")


@pytest.mark.parametrize("game,text,typ,trump", [
    ("preferans", "herc", "suit", "H"), ("preferans", "betl", "betl", None),
    ("preferans", "sans", "sans", None), ("preferans", "♠", "suit", "S"),
    ("skat", "grand", "grand", None), ("skat", "null ouvert", "null", None),
    ("skat", "Kreuz", "suit", "C"), ("skat", "kier", "suit", "H"),
    ("bridge", "4♠", "suit", "S"), ("bridge", "3NT", "notrump", None),
    ("ulti", "piros ulti", "suit", "P"), ("ulti", "betli", "betli", None),
    ("ulti", "zöld durchmars", "durchmars", "Z"), ("ulti", "durchmars", "durchmars", None),
])
def test_contracts(game, text, typ, trump):
    c = parse_contract(text, game)
    assert (c.type, c.trump) == (typ, trump)


def test_bad_contract_message():
    with pytest.raises(RefereeError, match="deal: contract: cannot read 'hearts please'"):
        parse_contract("hearts please", "ulti")


def test_a_bare_yaml_null_contract_in_skat_says_to_quote_it():
    import pytest
    import yaml
    from referee.expert.cards.deal import parse_deal
    from referee.expert.language.errors import RefereeError
    with pytest.raises(RefereeError) as err:
        parse_deal(yaml.safe_load("contract: null\nhands: {}\n"), "skat")
    assert 'contract: "null"' in str(err.value)
    assert parse_deal(yaml.safe_load('contract: "null"\n'), "skat").contract.type == "null"
