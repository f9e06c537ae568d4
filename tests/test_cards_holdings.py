"""expert.cards.holdings: preferans standards item by item, on holdings that just meet and
just miss each one."""
import pytest

from referee.expert.cards.holdings import (Context, correct_bid_follower_items, correct_bid_items,
                                   correct_dolaz, dolaz_items, guarded_ace, pik_dolaz_items,
                                   trump_tricks)
from referee.expert.cards.notation import parse_cards


def H(text):
    return parse_cards(text, "preferans")


def item(items, n):
    return next(i for i in items if i.item.endswith("." + str(n)))


@pytest.mark.parametrize("trumps,n", [
    ("♥A", 1), ("♥K7", 1), ("♥K", 0), ("♥KQ", 1), ("♥Q97", 1), ("♥Q9", 0), ("♥J987", 1),
    ("♥J98", 0), ("♥AK", 2), ("♥AQ", 2), ("♥KQJ", 2), ("♥A7", 1), ("♥98", 0), ("♥AKQ", 3),
])
def test_sure_trump_tricks(trumps, n):
    assert trump_tricks(H(trumps), "H") == n


def test_guarded_ace_reading():
    assert guarded_ace(H("♠AJ7"), "S")
    assert not guarded_ace(H("♠A7"), "S")
    assert not guarded_ace(H("♠A87"), "S")


ONLY_DECLARER = dict(trump="H", own_bid="none", partner_bid="none", declarer_position=2,
                     bought=H("♦7 ♣8"))


def dol(text, n, **ctx):
    c = dict(ONLY_DECLARER)
    if "bought" in ctx and isinstance(ctx["bought"], str):
        ctx["bought"] = H(ctx["bought"])
    c.update(ctx)
    return item(dolaz_items(H(text), Context(**c)), n).satisfied


# (item, hand that just meets, hand that just misses, extra context)
DOLAZ = [
    (1, "♥AK", "♥KQ", {}),
    (2, "♥K87", "♥K8", {}),
    (3, "♠A ♥K8", "♠A ♥K", {}),
    (4, "♥K8 ♠K ♦K", "♥K8 ♠K", {}),
    (5, "♥K8 ♦K9", "♥K ♦K9", {"bought": "♦7 ♦8"}),
    (6, "♥K8 ♦K9 ♣J98", "♥K8 ♦K9 ♣J9", {"bought": "♦8 ♣7"}),
    (7, "♥987 ♠A", "♥98 ♠A", {}),
    (8, "♠AQ", "♠KQ", {"bought": "♠7 ♠8"}),
    (9, "♠A ♦A ♥98", "♠A ♦A ♥9", {}),
    (10, "♠AJ7 ♦A", "♠A7 ♦A", {"bought": "♣7 ♠8"}),
    (11, "♠A ♦K ♣K ♥7", "♠A ♦K ♣K", {}),
    (12, "♠A ♦K ♣Q98 ♥7", "♠A ♦K ♣Q9 ♥7", {"bought": "♠7 ♦8"}),
    (13, "♠K ♦K ♣K ♥87", "♠K ♦K ♣K ♥8", {}),
    (14, "♠K7 ♦K7 ♥87", "♠K7 ♦K ♥87", {"bought": "♠8 ♦8"}),
    (16, "♥987 ♦A", "♥98 ♦A", {"partner_bid": "D"}),
    (17, "♦A ♠AQ7 ♥98", "♦A ♠A7 ♥98", {"partner_bid": "D"}),
    (18, "♠A ♣K ♥9", "♦A ♣K ♥9", {"partner_bid": "D"}),
    (19, "♠K ♣K ♥98", "♠K ♦K ♥98", {"partner_bid": "D"}),
    (20, "♠A ♣A", "♠A ♦A", {"partner_bid": "D"}),
    (21, "♠K ♣Q87 ♥987", "♠K ♣Q87 ♥98", {"partner_bid": "D"}),
    (23, "♦A ♣K ♥7", "♦AK ♥7", {"own_bid": "S"}),
    (24, "♦A ♣A", "♦A ♣A ♥7", {"own_bid": "S"}),
    (25, "♠A ♦AQ7", "♠A ♦A87", {"own_bid": "S", "bought": "♠8 ♦8"}),
    (26, "♦A ♣A", "♦A ♣K", {"own_bid": "S"}),
]


@pytest.mark.parametrize("n,meets,misses,ctx", DOLAZ, ids=[f"8.dolaz.{d[0]}" for d in DOLAZ])
def test_dolaz_item_just_meets_and_just_misses(n, meets, misses, ctx):
    assert dol(meets, n, **ctx) is True
    assert dol(misses, n, **ctx) is False


def test_dolaz_context_conditions():
    # 2: not when the declarer is first to play; unknown position -> undecided
    assert dol("♥K87", 2, declarer_position=1) is False
    assert dol("♥K87", 2, declarer_position=None) is None
    # 7: declarer second to play and no trump bought
    assert dol("♥987 ♠A", 7, declarer_position=3) is False
    assert dol("♥987 ♠A", 7, bought="♥J ♣8") is False
    # 10: two cards bought in the side suit
    assert dol("♠A ♦A", 10, bought="♣7 ♣8") is False
    assert dol("♠A ♦A", 10, bought="♠7 ♦8") is True
    # 12: both bought cards under the queen
    assert dol("♠A ♦K ♣Q98 ♥7", 12, bought="♣7 ♣J") is False
    # 16: declarer first to play
    assert dol("♥987 ♦A", 16, partner_bid="D", declarer_position=1) is False
    # 25: trump and a side-suit card bought
    assert dol("♠A ♦AQ7", 25, own_bid="S", bought="♥7 ♣8") is False
    # headings: items 1-15 need "only the declarer bid"
    assert dol("♥AK", 1, partner_bid="D") is False
    assert dol("♥AK", 1, partner_bid=None) is None
    # bought cards unknown -> items that read them are undecided
    assert dol("♠AQ", 8, bought=None) is None


def test_judgement_items_are_undecided():
    assert dol("♠A ♦A", 27) is None
    assert dol("♠A ♦A", 15, game="sans", trump=None) is None
    assert dol("♠A ♦7", 22, game="sans", trump=None, partner_bid="D") is True
    assert dol("♠A ♣7", 22, game="sans", trump=None, partner_bid="D") is None


def test_correct_dolaz_summary_and_explanation():
    ok, items = correct_dolaz(H("♥K8 ♠K7 ♦K97 ♣J987"), Context(**ONLY_DECLARER))
    assert ok is True
    four = item(items, 4)
    assert four.satisfied and "♥K8" in four.detail_en and "♠K ♦K" in four.detail_en
    ok, _ = correct_dolaz(H("♥8 ♠Q7 ♦Q97 ♣J10987"), Context(**ONLY_DECLARER))
    assert ok is False


PIK = [
    (1, "♠AK", "♠KQ", {}),
    (2, "♦A ♠K7", "♦A ♠K", {}),
    (3, "♦A ♣A", "♦A ♣K", {}),
    (4, "♦A ♠987", "♦A ♠98", {}),
    (5, "♠10987", "♠987", {}),
    (6, "♦A ♣K ♥K ♠Q7", "♦A ♣K ♥K ♠J7", {"bought": "♦7 ♣8"}),
    (7, "♦AQ7 ♣K ♥K ♠7", "♦A87 ♣K ♥K ♠7", {"bought": "♦8 ♦9"}),
]


@pytest.mark.parametrize("n,meets,misses,ctx", PIK, ids=[f"8.pik-dolaz.{d[0]}" for d in PIK])
def test_pik_dolaz(n, meets, misses, ctx):
    c = dict(trump="S", declarer_position=2, bought=H("♦7 ♣8"))
    c.update({k: H(v) if k == "bought" else v for k, v in ctx.items()})
    assert item(pik_dolaz_items(H(meets), Context(**c)), n).satisfied is True
    assert item(pik_dolaz_items(H(misses), Context(**c)), n).satisfied is False


def test_pik_list_replaces_1_27_on_pik():
    items = dolaz_items(H("♠AK"), Context(trump="S"))
    assert all(i.item.startswith("preferans:8.pik-dolaz.") for i in items)
    c = Context(trump="S", declarer_position=1, bought=H("♦7 ♣8"))
    assert item(pik_dolaz_items(H("♦A ♠987"), c), 4).satisfied is False
    c = Context(trump="S", declarer_position=2, bought=H("♠7 ♣8"))
    assert item(pik_dolaz_items(H("♦A ♣K ♥K ♠Q7"), c), 6).satisfied is False


BID = [
    (1, "♥AK", "♥AJ10"), (1, "♥AJ109", "♥AJ10"), (1, "♥K10987", "♥K987"),
    (3, "♥AQ87", "♥AQ8"), (4, "♥KQ987 ♠K87", "♥KQ987 ♠K8"), (5, "♥Q10987 ♠A87", "♥Q10987 ♠A8"),
    (6, "♥K987 ♠A87", "♥K98 ♠A87"),
]


@pytest.mark.parametrize("n,meets,misses", BID)
def test_correct_bid(n, meets, misses):
    assert item(correct_bid_items(H(meets), "H"), n).satisfied is True
    assert item(correct_bid_items(H(misses), "H"), n).satisfied is False


def test_correct_bid_judgement_and_position():
    assert item(correct_bid_items(H("♥QJ109"), "H"), 2).satisfied is None
    assert item(correct_bid_items(H("♥QJ10"), "H"), 2).satisfied is False
    assert item(correct_bid_items(H("♥Q10987 ♠KQ7"), "H"), 5).satisfied is None
    assert item(correct_bid_items(H("♥Q10987 ♠KQ7"), "H", first_to_play=True), 5).satisfied is True
    assert item(correct_bid_items(H("♥KQ87 ♠KQ87"), "H", first_to_play=True), 7).satisfied is True
    assert item(correct_bid_items(H("♥KQ87 ♠KQ87"), "H", first_to_play=False), 7).satisfied is False
    assert item(correct_bid_items(H("♥AK"), "H"), 8).satisfied is True
    assert item(correct_bid_items(H("♥A87"), "H"), 8).satisfied is None


@pytest.mark.parametrize("n,meets,misses", [
    (1, "♥10987", "♥987"), (2, "♥AQ8", "♥AQ"), (2, "♥AK", "♥KQ8"),
    (3, "♠AJ7 ♦K7 ♣K8", "♠AJ7 ♦K ♣K8"),
])
def test_correct_bid_follower(n, meets, misses):
    assert item(correct_bid_follower_items(H(meets), "H"), n).satisfied is True
    assert item(correct_bid_follower_items(H(misses), "H"), n).satisfied is False


# ------------------------------------------------------------------ Član 8 no trump, 9, 10

from referee.expert.cards.holdings import (betl_contra_lead_items, called_lead_items,  # noqa: E402
                                   no_trump_minimum, sans_called_lead_items)
from referee.expert.cards.notation import parse_card  # noqa: E402


def L(t):
    return parse_card(t, "preferans")


def test_no_trump_minimum():
    ctx = Context(trump="H", bought=H("♦7 ♣8"), declarer_position=3)
    assert no_trump_minimum(H("♠A ♦A ♣7"), ctx).satisfied is True
    assert no_trump_minimum(H("♠A ♦K ♣7"), ctx).satisfied is False
    assert no_trump_minimum(H("♠A ♦K ♣K"), ctx).satisfied is None       # control: judgement
    ctx_bad = Context(trump="H", bought=H("♥7 ♣8"), declarer_position=3)
    assert no_trump_minimum(H("♠A ♦K ♣K"), ctx_bad).satisfied is False
    assert no_trump_minimum(H("♠A ♥7"), ctx).applies is False


def test_sans_called_lead_clubs_highest_or_lowest():
    ctx = Context(game="sans", partner_bid="none")
    hand = H("♣K87 ♠A ♦Q")
    lead, pen = sans_called_lead_items(hand, L("♣K"), ctx)
    assert lead.satisfied is True and pen.satisfied is False
    lead, pen = sans_called_lead_items(hand, L("♣7"), ctx)
    assert lead.satisfied is False and pen.satisfied is False
    lead, pen = sans_called_lead_items(H("♣K987 ♠A"), L("♣7"), ctx)
    assert lead.satisfied is True
    lead, pen = sans_called_lead_items(hand, L("♠A"), ctx)
    assert lead.satisfied is False and pen.satisfied is True      # has tref, led a spade
    # contra on sans: spades
    lead, pen = sans_called_lead_items(H("♠Q8 ♣A"), L("♠Q"), ctx, contra=True)
    assert lead.item.endswith(".5.contra") and lead.satisfied is True
    assert pen.item.endswith(".5.contra-penalty") and pen.satisfied is False
    # partner bid: highest card of that suit
    ctx_p = Context(game="sans", partner_bid="D")
    assert sans_called_lead_items(H("♦K87 ♣A"), L("♦K"), ctx_p)[0].satisfied is True
    assert sans_called_lead_items(H("♦K87 ♣A"), L("♦8"), ctx_p)[0].satisfied is False


def test_called_lead_in_a_trump_game():
    ctx = Context(trump="H", partner_bid="D", own_bid="S", bought=H("♣7 ♣8"))
    items = called_lead_items(H("♦K87 ♠AK7 ♣Q"), L("♦K"), ctx)
    assert item(items, 1).satisfied is True
    assert item(called_lead_items(H("♦K87 ♠AK7"), L("♠A"), ctx), 1).satisfied is False
    assert item(called_lead_items(H("♦K87 ♠AK7"), L("♠A"), ctx), 2).satisfied is True
    assert item(called_lead_items(H("♦K87 ♠AQ7"), L("♠A"), ctx), 2).satisfied is False
    ctx2 = Context(trump="H", partner_bid="none", own_bid="none", bought=H("♣7 ♣8"))
    assert item(called_lead_items(H("♣Q9 ♠A"), L("♣9"), ctx2, declarer_next=True), 3).satisfied
    assert item(called_lead_items(H("♣Q9 ♠A"), L("♣Q"), ctx2, declarer_next=True),
                3).satisfied is False
    assert item(called_lead_items(H("♣Q9 ♠A"), L("♠A"), ctx2), 4).satisfied is False
    assert item(called_lead_items(H("♣Q9 ♠A"), L("♣Q"), ctx2), 4).satisfied is True


def test_betl_contra_lead():
    ctx = Context(game="betl", bought=H("♥7 ♥8"))
    hand = H("♠7 ♦987 ♣KQ97 ♥J9")
    lead, bought = betl_contra_lead_items(hand, L("♠7"), ctx)
    assert lead.satisfied is True and bought.satisfied is True
    lead, _ = betl_contra_lead_items(hand, L("♦9"), ctx)
    assert lead.satisfied is False and "♠7" in lead.detail_en
    lead, _ = betl_contra_lead_items(hand, L("♣K"), ctx)
    assert lead.satisfied is None                     # fourth bela: the referee's call
    _, bought = betl_contra_lead_items(H("♥J ♠87 ♦987 ♣Q97"), L("♥J"), ctx)
    assert bought.satisfied is False                  # a doubleton elsewhere
    _, bought = betl_contra_lead_items(H("♥J ♠987 ♦987 ♣Q97"), L("♥J"), ctx)
    assert bought.satisfied is True                   # the only singleton, no doubleton


def test_holding_facts_from_a_deal():
    from referee.expert.cards.deal import parse_deal
    from referee.expert.cards.derive import answers_from_facts
    from referee.expert.cards.holdings import holding_facts
    deal = parse_deal({
        "seats": ["defender_1", "defender_2", "declarer"], "declarer": "declarer",
        "contract": "herc",
        "hands": {"declarer": "♥AQJ10 ♠AK ♦A ♣A7 ♠Q",
                  "defender_1": "♥K8 ♠J10 ♦KQJ ♣K ♠7 ♦7",
                  "defender_2": "♥97 ♠98 ♦1098 ♣QJ10"},
        "talon": "♣98", "discard": "♣98"}, "preferans")
    bids = {"declarer": "herc", "defender_1": "none", "defender_2": "none"}
    facts = holding_facts(deal, "defender_1", bids)
    by = {f.name: f for f in facts}
    assert by["trump_tricks"].value == 1 and by["kings"].value == 2
    assert by["preferans:8.dolaz.4"].value is True
    assert by["correct_dolaz"].value is True and "8.dolaz.4" in by["correct_dolaz"].detail_en
    facts2 = holding_facts(deal, "defender_2", bids)
    assert {f.name: f.value for f in facts2}["correct_dolaz"] is False
    got = answers_from_facts(facts, {"correct_dolaz": {"q": "dolaz_correct", "value": "$value"}})
    assert got.answers == {"dolaz_correct": True}
    bid = {f.name: f.value for f in holding_facts(deal, "declarer", bids, bid_suit="herc")}
    assert bid["correct_bid"] is True and bid["preferans:6.correct-bid.1"] is True


def test_case_facts_one_call():
    from referee.expert.cards import case_facts
    deal, facts = case_facts({
        "seats": ["defender_1", "defender_2", "declarer"], "declarer": "declarer",
        "contract": "herc",
        "bids": {"declarer": "herc", "defender_1": "none", "defender_2": "dalje"},
        "hands": {"declarer": "♥AQJ10 ♠AK ♦A ♣A7 ♠Q",
                  "defender_1": "♥K8 ♠J10 ♦KQJ ♣K ♠7 ♦7",
                  "defender_2": "♥97 ♠98 ♦1098 ♣QJ10"},
        "talon": "♣98", "discard": "♣98", "play": ["♣K ♣Q ♣A"]}, "preferans")
    got = {(f.name, f.seat): f.value for f in facts}
    assert got[("correct_dolaz", "defender_1")] is True
    assert got[("correct_dolaz", "defender_2")] is False
    assert got[("correct_bid", "declarer")] is True
    assert got[("dolaz_situation", "defender_2")] == "lider-only"
    assert got[("won_trick", "declarer")] == "declarer"


def test_bids_validation():
    from referee.expert.cards.deal import parse_deal
    from referee.expert.language.errors import RefereeError
    with pytest.raises(RefereeError, match="deal: bids: defender_1: cannot read 'seven'"):
        parse_deal({"bids": {"defender_1": "seven"}}, "preferans")
    with pytest.raises(RefereeError, match="unknown seat"):
        parse_deal({"bids": {"north": "pik"}}, "preferans")


def test_dolaz_minimal():
    from referee.expert.cards.holdings import dolaz_minimal
    assert dolaz_minimal(H("♠A7 ♦A8 ♣987 ♥7"), "H")          # two bare aces
    assert dolaz_minimal(H("♥AK ♠987 ♦987 ♣98"), "H")         # two trump tricks, nothing beside
    assert not dolaz_minimal(H("♥AK ♠K7 ♦987 ♣98"), "H")      # a rezon beside
    assert not dolaz_minimal(H("♠A7 ♦A8 ♣K97 ♥7"), "H")
