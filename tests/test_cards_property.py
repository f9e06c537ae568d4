"""Property-based tests: nothing typed at a card prompt crashes; random legal deals parse,
round-trip and produce no infraction; a random illegal card is always caught."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.expert.cards.deal import parse_deal
from referee.expert.cards.deck import (HAND_SIZE, SEATS, TALON_SIZE, CONTRACT_TYPES, SUITS, deck)
from referee.expert.cards.derive import INFRACTIONS, derive, legal_cards
from referee.expert.cards.notation import format_cards, parse_cards
from referee.expert.language.errors import RefereeError

GAMES = ("preferans", "skat", "bridge", "ulti")
ALPHABET = st.sampled_from(list("♠♥♦♣♤AKQJTDPBWFXVI0123456789:-—,; /hxÁáÖ|\t\nSCHDKPZMTRГКДВПЧБ"))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(GAMES), st.one_of(st.text(max_size=40), st.text(ALPHABET, max_size=40)))
def test_no_string_crashes_the_parser(game, text):
    try:
        cards = parse_cards(text, game, "hand of X")
    except RefereeError as e:
        assert e.message.startswith("hand of X")
        return
    assert len(set(cards)) == len(cards)
    full = set(deck(game))
    assert all(c in full for c in cards)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(GAMES), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda ch: st.lists(ch, max_size=3) | st.dictionaries(st.text(max_size=5), ch, max_size=3),
    max_leaves=8))
def test_no_value_crashes_the_deal_parser(game, value):
    try:
        parse_deal({"hands": value}, game)
        parse_deal({"play": value, "contract": "4S" if game == "bridge" else
                    {"preferans": "herc", "skat": "grand", "ulti": "piros"}[game]}, game)
        parse_deal({"contract": value}, game)
    except RefereeError:
        pass


def random_contract(game, rnd):
    typ = rnd.choice(CONTRACT_TYPES[game])
    trump = rnd.choice(SUITS[game]) if typ == "suit" or (typ == "durchmars" and rnd.random() < .5) \
        else None
    return {"type": typ, **({"trump": trump} if trump else {})}


def random_legal_deal(game, seed, n_tricks=None):
    """A dealt pack and a legal play, written in the case-file format."""
    from referee.expert.cards.deal import parse_contract
    rnd = random.Random(seed)
    pack = deck(game)
    rnd.shuffle(pack)
    seats = list(SEATS[game])
    n = HAND_SIZE[game]
    hands = {s: pack[i * n:(i + 1) * n] for i, s in enumerate(seats)}
    talon = pack[len(seats) * n:len(seats) * n + TALON_SIZE[game]]
    declarer = rnd.choice(seats)
    contract = random_contract(game, rnd)
    c = parse_contract(contract, game)
    data = {"declarer": declarer, "contract": contract,
            "hands": {s: format_cards(h, game) for s, h in hands.items()}}
    if talon:
        data["talon"] = format_cards(talon, game)
        data["discard"] = format_cards(talon, game)   # declarer lays the talon back
    deal = parse_deal(dict(data, play=[]), game)
    held = {s: list(h) for s, h in hands.items()}
    leader = deal.first_lead
    play = []
    for _ in range(n if n_tricks is None else n_tricks):
        cards, seat = [], leader
        order = []
        for k in range(len(seats)):
            choice = rnd.choice(legal_cards(c, held[seat], cards))
            held[seat].remove(choice)
            cards.append(choice)
            order.append(seat)
            seat = deal.next_seat(seat)
        from referee.expert.cards.deck import trick_winner_index
        leader = order[trick_winner_index(cards, c)]
        play.append(" ".join(format_cards([x], game) for x in cards))
    data["play"] = play
    return data, held


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6))
def test_random_legal_deal_has_no_infraction(game, seed):
    data, _ = random_legal_deal(game, seed)
    deal = parse_deal(data, game)
    facts = derive(deal)
    bad = [f for f in facts if f.name in INFRACTIONS]
    assert bad == [], [f.detail_en for f in bad]
    assert sum(f.value for f in facts if f.name == "tricks_won") == HAND_SIZE[game]
    # every hand round-trips through the notation
    for s, h in deal.hands.items():
        back = parse_cards(format_cards(h, game), game)
        assert len(back) == len(h) and set(back) == set(h)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6))
def test_a_swapped_illegal_card_is_found(game, seed):
    """Replace one follower's card by another of his cards that breaks a follow rule: the
    derived facts name that seat at that trick (or an earlier one)."""
    data, _ = random_legal_deal(game, seed, n_tricks=HAND_SIZE[game])
    deal = parse_deal(data, game)
    rnd = random.Random(seed)
    for t in deal.tricks:
        for k in range(1, len(t.cards)):
            seat, card = t.cards[k]
            held, _ = deal.held_before(seat, t.number)
            legal = legal_cards(deal.contract, held, [c for _, c in t.cards[:k]])
            illegal = [c for c in held if c not in legal]
            if not illegal:
                continue
            bad = rnd.choice(illegal)
            # swap the two cards within the seat's own later play
            play = []
            for u in deal.tricks:
                cs = [bad if c == card else card if c == bad else c for _, c in u.cards]
                play.append(" ".join(format_cards([x], game) for x in cs))
            data2 = dict(data, play=play)
            try:
                facts = derive(parse_deal(data2, game))
            except RefereeError:
                return            # the swap broke the trick sizes/order: nothing to check
            hits = [f for f in facts if f.name in INFRACTIONS and f.seat == seat
                    and f.trick <= t.number]
            assert hits, (t.number, seat, str(card), str(bad))
            return


@pytest.mark.parametrize("game", GAMES)
def test_full_random_deal_example(game):
    data, held = random_legal_deal(game, 1234)
    deal = parse_deal(data, game)
    assert len(deal.tricks) == HAND_SIZE[game]
    assert all(not h for h in held.values())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(GAMES), st.one_of(st.text(max_size=20), st.text(ALPHABET, max_size=12)))
def test_no_string_crashes_the_contract_parser(game, text):
    from referee.expert.cards.deal import parse_contract
    try:
        c = parse_contract(text, game)
    except RefereeError as e:
        assert e.message.startswith("deal: contract")
        return
    assert c.game == game


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(GAMES), st.dictionaries(
    st.sampled_from(["seats", "declarer", "contract", "hands", "talon", "skat", "discard",
                     "lead", "play", "partnerships", "bought", "game", "bids", "other"]),
    st.one_of(st.none(), st.text(ALPHABET, max_size=15), st.integers(),
              st.lists(st.text(ALPHABET, max_size=8), max_size=4),
              st.dictionaries(st.text(ALPHABET, max_size=3), st.text(ALPHABET, max_size=10),
                              max_size=3)),
    max_size=6))
def test_no_deal_mapping_crashes(game, data):
    try:
        parse_deal(data, game)
    except RefereeError:
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6), st.integers(0, 12))
def test_out_of_turn_is_found_when_two_plays_are_swapped(game, seed, which):
    """With all hands given, writing two cards of a trick in the wrong order is a play out
    of turn (or, for the first two, a lead out of turn) by the seat written too early."""
    data, _ = random_legal_deal(game, seed)
    tricks = data["play"]
    n = which % len(tricks)
    cards = tricks[n].split()
    cards[1], cards[2] = cards[2], cards[1]      # the third player plays before the second
    data = dict(data, play=tricks[:n] + [" ".join(cards)] + tricks[n + 1:])
    deal = parse_deal(data, game)
    facts = derive(deal)
    early = deal.tricks[n].cards[1][0]
    assert any(f.name == "played_out_of_turn" and f.trick == n + 1 and f.seat == early
               for f in facts)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10 ** 6), st.integers(1, 12))
def test_lead_out_of_turn_when_the_wrong_seat_leads(game, seed, which):
    """Rewrite trick n (n >= 2) so that it starts with the card of the seat after the one
    on lead: the derived facts name a lead out of turn at that trick."""
    data, _ = random_legal_deal(game, seed)
    tricks = data["play"]
    n = 1 + which % (len(tricks) - 1)
    cards = tricks[n].split()
    cards = cards[1:] + cards[:1]                 # the second player "leads"
    data = dict(data, play=tricks[:n] + [" ".join(cards)] + tricks[n + 1:])
    deal = parse_deal(data, game)
    facts = derive(deal)
    assert any(f.name == "lead_out_of_turn" and f.trick == n + 1 for f in facts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6))
def test_holdings_never_crash_and_always_explain(seed):
    from referee.expert.cards import holdings as hd
    rnd = random.Random(seed)
    pack = deck("preferans")
    rnd.shuffle(pack)
    hand, bought = pack[:10], pack[10:12]
    trump = rnd.choice(["S", "H", "D", "C", None])
    ctx = hd.Context(
        trump=trump, game=rnd.choice(["suit", "sans"]) if trump is None else "suit",
        bought=rnd.choice([bought, None]), declarer_position=rnd.choice([1, 2, 3, None]),
        own_bid=rnd.choice(["none", "S", "H", None]), partner_bid=rnd.choice(["none", "D", None]))
    ok, items = hd.correct_dolaz(hand, ctx)
    assert ok in (True, False, None)
    assert all(i.detail_en and i.satisfied in (True, False, None) for i in items)
    for s in "SHDC":
        assert all(i.detail_en for i in hd.correct_bid_items(hand, s, first_to_play=rnd.random() < .5))
        assert all(i.detail_en for i in hd.correct_bid_follower_items(hand, s))
    led = rnd.choice(hand)
    hd.called_lead_items(hand, led, ctx, declarer_next=rnd.choice([True, False, None]))
    hd.sans_called_lead_items(hand, led, ctx, contra=rnd.random() < .5)
    hd.betl_contra_lead_items(hand, led, ctx)
    hd.no_trump_minimum(hand, ctx)
