"""expert.cards.deck and expert.cards.notation: the card model and the compact notation."""
import pytest

from referee.expert.cards.deck import (Card, Contract, deck, is_trump, rank_order, trick_winner_index)
from referee.expert.cards.notation import (check_count, expected_count, format_cards, parse_card,
                                   parse_cards, parse_hand)
from referee.expert.language.errors import RefereeError


def C(s):
    return Card(s[0], s[1])


# ------------------------------------------------------------------ decks and orders

def test_deck_sizes():
    assert len(deck("preferans")) == 32
    assert len(deck("skat")) == 32
    assert len(deck("ulti")) == 32
    assert len(deck("bridge")) == 52
    assert len(set(deck("bridge"))) == 52
    assert {c.suit for c in deck("ulti")} == {"P", "T", "Z", "M"}


def test_ulti_ten_placed_by_game():
    trump = Contract("ulti", "suit", "P")
    betli = Contract("ulti", "betli")
    colour_dm = Contract("ulti", "durchmars", "Z")
    plain_dm = Contract("ulti", "durchmars")
    # trump games and colour durchmars: X between király and ász
    assert rank_order("ulti", trump)[-3:] == ("K", "T", "A")
    assert rank_order("ulti", colour_dm)[-3:] == ("K", "T", "A")
    # betli and colourless durchmars: X between alsó and IX
    assert rank_order("ulti", betli)[2:5] == ("9", "T", "J")
    assert rank_order("ulti", plain_dm) == rank_order("ulti", betli)


def test_skat_jacks_are_trumps_in_suit_and_grand_not_null():
    hearts = Contract("skat", "suit", "H")
    grand = Contract("skat", "grand")
    null = Contract("skat", "null")
    assert is_trump(C("CJ"), hearts) and is_trump(C("DJ"), grand)
    assert not is_trump(C("CJ"), null)
    assert is_trump(C("H7"), hearts) and not is_trump(C("H7"), grand)
    # grand: J♣ > J♠ > J♥ > J♦ > any ace
    assert trick_winner_index([C("SA"), C("DJ"), C("HJ")], grand) == 2
    # suit game: a jack trumps the ace of the suit led
    assert trick_winner_index([C("SA"), C("DJ"), C("ST")], hearts) == 1
    # null: natural order, 10 below jack
    assert trick_winner_index([C("ST"), C("SJ"), C("S9")], null) == 1
    # suit game: 10 ranks above king
    assert trick_winner_index([C("SK"), C("ST"), C("S9")], hearts) == 1


def test_trick_winner_with_trumps_and_offsuit():
    pik = Contract("preferans", "suit", "S")
    assert trick_winner_index([C("HA"), C("S7"), C("HK")], pik) == 1
    assert trick_winner_index([C("HQ"), C("DA"), C("HK")], pik) == 2   # off-suit ace loses
    sans = Contract("preferans", "sans")
    assert trick_winner_index([C("H7"), C("SA"), C("H8")], sans) == 2


def test_contract_validation():
    with pytest.raises(ValueError):
        Contract("preferans", "suit")           # no trump
    with pytest.raises(ValueError):
        Contract("skat", "betl")


# ------------------------------------------------------------------ notation, each form

def test_symbols_with_ten_written_10():
    assert parse_cards("♠AK7 ♥QJ109", "bridge") == [
        C("SA"), C("SK"), C("S7"), C("HQ"), C("HJ"), C("HT"), C("H9")]


def test_letters_with_colon_and_T():
    assert parse_cards("S:AK7 H:QJT9", "bridge") == parse_cards("♠AK7 ♥QJ109", "bridge")


def test_preferans_serbian_letters():
    cards = parse_cards("P:AKD K:J109 H:- T:87", "preferans")
    assert cards == [C("SA"), C("SK"), C("SQ"), C("DJ"), C("DT"), C("D9"), C("C8"), C("C7")]
    # words, and P for pub after a suit marker
    assert parse_cards("herc:AP tref:K", "preferans") == [C("HA"), C("HJ"), C("CK")]


def test_skat_german_and_polish_letters():
    assert parse_cards("Kr:BA10 Pi:K Ka:D7", "skat") == [
        C("CJ"), C("CA"), C("CT"), C("SK"), C("DQ"), C("D7")]
    assert parse_cards("T:WA10 Ki:D P:9", "skat") == [C("CJ"), C("CA"), C("CT"), C("HQ"), C("S9")]


def test_ulti_hungarian_letters_and_roman_numerals():
    cards = parse_cards("P:Á K X  Z:F A IX VIII", "ulti")
    assert cards == [C("PA"), C("PK"), C("PT"), C("ZQ"), C("ZJ"), C("Z9"), C("Z8")]
    assert parse_cards("M:VIIVIII", "ulti") == [C("M7"), C("M8")]
    assert parse_cards("tök:ász", "ulti") == [C("TA")]


def test_russian_bridge_letters():
    assert parse_cards("П:ТКД Ч:В109", "bridge") == [
        C("SA"), C("SK"), C("SQ"), C("HJ"), C("HT"), C("H9")]


def test_format_round_trip():
    for game in ("preferans", "skat", "bridge", "ulti"):
        cards = deck(game)[:10]
        assert sorted(parse_cards(format_cards(cards, game), game)) == sorted(cards)


def test_single_card():
    assert parse_card("♦10", "preferans") == C("DT")
    with pytest.raises(RefereeError, match="exactly one expected"):
        parse_card("♦10 ♦9", "preferans")


# ------------------------------------------------------------------ error messages

def err(text, game="preferans", where="hand of defender_1", **kw):
    with pytest.raises(RefereeError) as e:
        parse_cards(text, game, where, file="case.yaml", line=7, **kw)
    assert e.value.file == "case.yaml" and e.value.line == 7
    assert str(e.value).startswith("case.yaml:7: hand of defender_1")
    return e.value.message


def test_error_unknown_rank_names_the_card_and_what_is_expected():
    m = err("♠AKZ")
    assert "unknown card ♠Z ('Z' is not a rank)" in m and "expected a suit" in m and "A K D/Q" in m


def test_error_unknown_suit():
    m = err("Q:AK")
    assert "unknown suit 'Q'" in m


def test_error_rank_before_suit():
    m = err("AK7")
    assert "comes before any suit" in m


def test_error_small_card_placeholder():
    assert "unknown small card" in err("♠AKx")


def test_error_one_is_not_a_rank():
    assert "'1' is not a rank" in err("♠A1")


def test_error_card_given_twice():
    m = err("♠AK ♠A")
    assert "♠A" in m and "given 2 times" in m


def test_error_ambiguous_skat_k():
    assert "ambiguous suit letter 'K'" in err("K:A", game="skat")


def test_error_ambiguous_roman_numerals():
    assert "VII IX or VIII X" in err("P:VIIIX", game="ulti")


def test_error_not_text():
    assert "must be written as text" in err({"a": 1})


def test_wrong_number_of_cards_for_the_position():
    assert expected_count("preferans", "hand") == 10
    assert expected_count("preferans", "talon") == 2
    assert expected_count("skat", "skat") == 2
    assert expected_count("ulti", "hand", before_discard=True) == 12
    assert expected_count("bridge", "hand") == 13
    with pytest.raises(RefereeError, match="hand of N: 3 cards given, 13 expected"):
        parse_hand("♠AK7", "bridge", "hand of N")
    with pytest.raises(RefereeError, match="talon: 1 cards given, 2 expected"):
        check_count(parse_cards("♠A", "preferans"), 2, "talon", "preferans")


def test_notation_help():
    from referee.expert.cards.notation import notation_help
    text = notation_help("ulti", "hand")
    assert "A is the alsó" in text and "hand: 10 cards" in text


def test_a_suit_letter_glued_to_its_ranks_is_read_as_typed_in_a_hurry():
    from referee.expert.cards.notation import parse_cards
    assert [(c.suit, c.rank) for c in parse_cards("H4 S2 D5 C3", "bridge")] == \
        [("H", "4"), ("S", "2"), ("D", "5"), ("C", "3")]
    assert parse_cards("H4", "bridge") == parse_cards("H:4", "bridge") == parse_cards("♥4", "bridge")
    # where D is a rank (preferans dama), it stays a rank after a suit
    assert [(c.suit, c.rank) for c in parse_cards("♠A D7", "preferans")] == [("S", "A"), ("S", "Q"), ("S", "7")]


def test_the_last_bridge_hand_is_the_cards_left_when_skipped():
    from referee.expert.interview.card_steps import CardEntry
    entry = CardEntry("bridge")
    entry.give("S")
    entry.give("4S")
    for hand in ("♠AKQJ ♥AKQ ♦AKQ ♣AKQ", "♠T987 ♥JT9 ♦JT9 ♣JT9", "♠6543 ♥876 ♦876 ♣876"):
        entry.give(hand)
    assert entry.skip().startswith("(filled in")
    assert entry.deal["hands"]["W"] == "♠2 ♥5432 ♦5432 ♣5432"
