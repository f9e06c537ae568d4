"""The knowledge folders' cards.yaml mappings, and standards read from the cards through them:
holdings that just meet a standard and just miss it give different answers; the play-record
standards (betl discards, trump seven, later tricks) meet and miss at the edge."""
import pytest

from referee.expert.language.answers import check
from referee.expert.cards import case_facts
from referee.expert.cards.deal import parse_deal
from referee.expert.cards.derive import derive
from referee.expert.interview.from_cards import answers_from_cards
from referee.expert.language.rulebook import load_rulebook

GAMES = ("preferans", "skat", "bridge", "ulti")


@pytest.fixture(scope="module")
def books():
    return {g: load_rulebook(g) for g in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_every_mapping_names_a_question_and_an_allowed_value(books, game):
    """A spec with a typo would be dropped silently (the question then asked): refuse it here."""
    book = books[game]
    assert book.cards_map, f"{game} has no cards.yaml"
    for name, specs in book.cards_map.items():
        for spec in specs if isinstance(specs, list) else [specs]:
            assert set(spec) <= {"q", "value", "add", "absent", "if"}, (name, spec)
            q = book.questions.get(spec["q"])
            assert q is not None, f"{game} cards.yaml: {name}: no question {spec['q']!r}"
            for key in ("value", "absent"):
                v = spec.get(key)
                if key in spec and not (isinstance(v, str) and v.startswith("$")):
                    check(q, v, book)
            if "add" in spec:
                assert q.type in ("multi", "order"), (name, spec)
                check(q, [spec["add"]], book)


def pref(books, hand, bids, contract="karo", seat="defender_1", talon="♠7 ♥7"):
    cards = {"contract": contract, "bids": bids, "hands": {seat: hand}, "talon": talon}
    return answers_from_cards(books["preferans"], cards).answers


LIDER = {"declarer": "karo", "defender_1": "none", "defender_2": "none"}


@pytest.mark.parametrize("meets,misses,q,value", [
    # Član 8 item 4: a trump trick and two side kings (K-x in trumps is a trump trick)
    ("♦K7 ♠K98 ♥K98 ♣98", "♦K ♠K98 ♥K98 ♣987", "holding_lider", "d4"),
    # item 1: two trump tricks (A-K) - K-Q is one
    ("♦AK ♠J98 ♥J9 ♣987", "♦KQ ♠J98 ♥J9 ♣987", "holding_lider", "d1"),
])
def test_dolaz_item_from_the_cards_just_meets_and_just_misses(books, meets, misses, q, value):
    assert value in pref(books, meets, LIDER)[q]
    assert value not in pref(books, misses, LIDER).get(q, [])


def test_no_listed_holding_answers_none_and_the_situation_comes_from_the_bids(books):
    got = pref(books, "♦7 ♠J98 ♥J98 ♣987", LIDER)
    assert got["holding_lider"] == ["none"] and got["dolaz_situation"] == "lider-only"
    assert got["no_trump"] is False and got["game"] == "karo"
    got = pref(books, "♦7 ♠J98 ♥J98 ♣987", dict(LIDER, defender_2="herc"))
    assert got["dolaz_situation"] == "partner-bid"
    assert pref(books, "♠A98 ♥K98 ♣K987", LIDER)["no_trump"] is True


BID = {"declarer": "karo", "defender_1": "herc", "defender_2": "none"}


@pytest.mark.parametrize("meets,misses,value", [
    ("♥AK ♠Q98 ♦87 ♣987", "♥AQ ♠Q98 ♦87 ♣987", "c1"),              # Član 6 item 1: A-K
    ("♥A98 ♠Q98 ♦87 ♣98", "♥AK9 ♠Q98 ♦87 ♣98", "one-trick"),       # one sure trick; A-K is two
    ("♥J98 ♠Q98 ♦87 ♣98", "♥Q98 ♠J98 ♦87 ♣98", "no-trick"),        # Q-x-x is a sure trick
])
def test_bid_standard_from_the_cards_just_meets_and_just_misses(books, meets, misses, value):
    assert value in pref(books, meets, BID)["bid_holding"]
    assert value not in pref(books, misses, BID).get("bid_holding", [])


def test_follower_item_3_guarded_ace_and_two_guarded_kings(books):
    bids = {"declarer": "tref", "defender_1": "none", "defender_2": "herc"}
    meets = pref(books, "♥AJ9 ♠K98 ♦K9 ♣87", bids, "tref", "defender_2")
    misses = pref(books, "♥AJ9 ♠K98 ♦K ♣987", bids, "tref", "defender_2")   # ♦K bare
    assert "f3" in meets["bid_holding"] and "f3" not in misses.get("bid_holding", [])


BETL = {"declarer": "♣79 ♥789 ♦789 ♠78", "defender_1": "♣8 10 J Q K A ♥10 J Q ♠9",
        "defender_2": "♠10 J Q K A ♦K Q 10 ♥K A"}


def betl(play, hands=BETL):
    d = {"contract": "betl", "hands": hands, "talon": "♦JA", "discard": "♦JA", "play": play}
    return {f.name: f for f in derive(parse_deal(d, "preferans")) if f.name.startswith("betl_")}


def test_betl_discard_from_the_shortest_suit_just_meets_and_just_misses():
    assert "betl_discard_not_shortest" in betl(["♣7 ♣8 ♠A"])       # ♥KA (2) held: not shortest
    assert betl(["♣7 ♣8 ♥A"]) == {}                                  # shortest, the higher
    # the seven/eight exception: a shorter suit holding its 7 or 8 need not be thrown first
    hands = dict(BETL, declarer="♣79 ♥79 ♦789 ♠78 ♥K", defender_2="♠10 J Q K A ♦K Q 10 ♥8 A")
    assert "betl_discard_not_shortest" not in betl(["♣7 ♣8 ♠A"], hands)


def test_betl_discard_order_two_cards_the_higher():
    got = betl(["♣7 ♣8 ♥K"])
    assert got["betl_discard_wrong_card"].value == "♥A"


def ulti(play, contract="piros ulti"):
    d = {"contract": contract, "talon": "M:VIII VII", "discard": "M:VIII VII", "play": play,
         "hands": {"declarer": "P:VII Z:Á X K F A IX VIII VII T:Á",
                   "defender_1": "P:Á X K F A IX T:X K F M:Á",
                   "defender_2": "P:VIII T:A IX VIII VII M:K F A IX X"}}
    return {f.name: f.value for f in derive(parse_deal(d, "ulti"))}


def test_trump_seven_early_or_forced():
    # led while other cards were held: early (a breach of sajátosságok 2 when ulti is played)
    assert ulti(["P:VII P:IX P:VIII"])["trump_seven"] == "early"
    # void in makk, the seven his only trump: forced
    assert ulti(["T:Á T:X T:VII", "Z:Á P:IX P:VIII", "M:Á M:X P:VII"])["trump_seven"] == "early-forced"


BRIDGE = {"declarer": "S", "contract": "4♠",
          "hands": {"N": "♠AK7 ♥QJ109 ♦AK2 ♣543", "E": "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107",
                    "S": "♠98654 ♥876 ♦987 ♣62", "W": "♠32 ♥543 ♦6543 ♣AK98"}}


def test_later_tricks_are_claimed_only_where_the_record_proves_them(books):
    revoke_won = ["♦3 ♦2 ♠10 ♦7"]                       # East ruffs holding diamonds, wins
    got = answers_from_cards(books["bridge"], dict(BRIDGE, play=revoke_won)).answers
    assert got["l64_winner"] == "offender" and "l64_later_tricks" not in got   # nothing proven
    more = revoke_won + ["♥A ♥6 ♥3 ♥9"]
    got = answers_from_cards(books["bridge"], dict(BRIDGE, play=more)).answers
    assert got["l64_later_tricks"] == 1 and got["l63_events"] == ["played-next"]


def test_contract_fact_names_the_game(books):
    _, facts = case_facts({"contract": "zöld ulti"}, "ulti")
    assert [f.value for f in facts if f.name == "contract"] == ["zold"]
    got = answers_from_cards(books["ulti"], {"contract": "betli"}).answers
    assert got == {"game_kind": "colourless"}


def betl_lead(seats, lead):
    d = {"seats": seats, "contract": "betl", "hands": BETL, "talon": "♦JA", "discard": "♦JA",
         "play": [lead]}
    _, facts = case_facts(d, "preferans")
    return {f.name: f.value for f in facts if f.name == "betl_lead_breach"}.get("betl_lead_breach")


def test_betl_first_lead_from_the_shortest_suit_just_meets_and_just_misses():
    d1_first = ["defender_1", "defender_2", "declarer"]
    assert betl_lead(d1_first, "♠9 ♠A ♠7") == "none"          # the singleton
    assert betl_lead(d1_first, "♥Q ♥A ♥7") == "lead"          # three hearts beside a singleton
    d2_first = ["defender_2", "declarer", "defender_1"]
    assert betl_lead(d2_first, "♦10 ♦7 ♠9") == "bought-suit"  # both bought cards were diamonds
    assert betl_lead(d2_first, "♥A ♥7 ♥10") == "none"         # the shortest suit, not the bought one
