"""expert.cards.skat: card points and the state of play from the record (the card points and
tricks each side had taken before the first infraction, or in the whole game played out), and
how knowledge/skat/cards.yaml turns them into answers."""
from referee.expert.cards import case_facts
from referee.expert.cards.notation import parse_cards
from referee.expert.cards.skat import card_points
from referee.expert.interview.from_cards import answers_from_cards
from referee.expert.language.rulebook import load_rulebook

HANDS = {"opponent_1": "♣AKJ ♠AK10 ♥7 ♦AK10",
         "soloist": "♥AK10Q98 ♠J ♥J ♦J ♣10",
         "opponent_2": "♣Q987 ♠Q987 ♦Q9"}


def deal(play, **extra):
    return dict({"seats": ["opponent_1", "soloist", "opponent_2"], "declarer": "soloist",
                 "contract": "diamonds", "hands": HANDS, "skat": "♦87", "discard": "♦87",
                 "play": play}, **extra)


def facts(data):
    return {f.name: f.value for f in case_facts(data, "skat")[1]}


def test_card_points_count_ace_ten_king_queen_jack():
    assert card_points(parse_cards("♣A ♣10 ♣K ♣Q ♣J ♣9 ♣8 ♣7", "skat")) == 30
    assert card_points(parse_cards("♣A ♠A ♥A ♦A ♣10 ♠10 ♥10 ♦10 ♣K ♠K ♥K ♦K ♣Q ♠Q ♥Q ♦Q ♣J ♠J ♥J ♦J",
                                   "skat")) == 120


def test_the_state_before_the_first_infraction_counts_the_tricks_complete_before_it():
    # trick 1 to the soloist (♥A 11); in trick 2 forehand throws ♠A on ♣10 holding ♣AK: a revoke
    got = facts(deal(["♥7 ♥A ♣7", "♣10 ♣8 ♠A"]))
    assert got["first_infraction"] == "revoke"
    assert (got["before_counted"], got["before_soloist_points"], got["before_opponents_points"],
            got["before_soloist_tricks"], got["before_opponents_tricks"]) == (True, 11, 0, 1, 0)
    assert "final_soloist_points" not in got


def test_the_skat_counts_for_the_soloist_and_is_left_out_when_unknown():
    # the soloist put away ♦A ♦K (15 points): they count for him
    hands = dict(HANDS, opponent_1="♣AKJ ♠AK10 ♥7 ♦1087")
    with_skat = facts(deal(["♥7 ♥A ♣7", "♣10 ♣8 ♠A"], hands=hands, skat="♦AK", discard="♦AK"))
    assert with_skat["before_soloist_points"] == 11 + 15
    # neither the skat nor the soloist's hand in the record: only the opponents' points are known
    unknown = facts({"seats": ["opponent_1", "soloist", "opponent_2"], "declarer": "soloist",
                     "contract": "diamonds", "hands": {"opponent_1": HANDS["opponent_1"]},
                     "play": ["♥7 ♥A ♣7", "♣10 ♣8 ♠A"]})
    assert "before_soloist_points" not in unknown and unknown["before_opponents_points"] == 0


def legal_play(data: dict) -> list[str]:
    """Ten legal tricks for a deal record: each seat plays its first legal card."""
    from referee.expert.cards.deal import parse_contract
    from referee.expert.cards.deck import trick_winner_index
    from referee.expert.cards.notation import format_cards
    from referee.expert.cards.derive import legal_cards
    contract = parse_contract(data["contract"], "skat")
    seats = data["seats"]
    held = {s: parse_cards(data["hands"][s], "skat") for s in seats}
    leader, tricks = seats[0], []
    for _ in range(10):
        order = [seats[(seats.index(leader) + k) % 3] for k in range(3)]
        cards = []
        for seat in order:
            card = legal_cards(contract, held[seat], cards)[0]
            held[seat].remove(card)
            cards.append(card)
        tricks.append(" ".join(format_cards([c], "skat") for c in cards))
        leader = order[trick_winner_index(cards, contract)]
    return tricks


def test_a_game_played_out_without_infraction_gives_the_final_count():
    data = deal([])
    data["play"] = play = legal_play(data)
    got = facts(data)
    assert "first_infraction" not in got
    assert sum(card_points(parse_cards(t, "skat")) for t in play) == 120      # the skat ♦87: none
    assert got["final_soloist_points"] + got["final_opponents_points"] == 120
    assert got["final_soloist_tricks"] + got["final_opponents_tricks"] == 10


def test_cards_yaml_answers_the_state_of_play_questions():
    book = load_rulebook("skat")
    got = answers_from_cards(book, deal(["♥7 ♥A ♣7", "♣10 ♣8 ♠A"]))
    assert {q: got.answers.get(q) for q in ("points_counted", "soloist_points", "opponents_points")} == \
        {"points_counted": True, "soloist_points": 11, "opponents_points": 0}
    assert "11" in " ".join(got.sources["soloist_points"])
