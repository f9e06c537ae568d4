"""Preferans: the tricks the score sheet reads come from the play record once the hand is over,
and the result's frame questions are answered from them (knowledge/preferans/cards.yaml)."""
from referee.expert.cards import case_facts

SEATS = ["defender_1", "defender_2", "declarer"]
# ten tricks of a herc; the winner of each trick leads the next
TEN = ["♣K ♣Q ♣A", "♥7 ♥8 ♥A", "♥9 ♥10 ♥K", "♠Q ♠7 ♠A", "♠J ♠8 ♠K", "♦K ♦7 ♦A", "♦Q ♦8 ♥Q",
       "♦J ♦9 ♥J", "♠10 ♠9 ♣7", "♣8 ♣9 ♣10"]


def _final(play, contract="herc"):
    deal, facts = case_facts({"seats": SEATS, "contract": contract, "play": play}, "preferans")
    return deal, {f.name: f.value for f in facts if f.name.startswith("final_")}


def test_all_ten_tricks_give_each_defenders_tricks():
    deal, final = _final(TEN)
    won = {s: sum(1 for t in deal.tricks if t.winner == s) for s in SEATS}
    assert final == {"final_tricks_defender_1": won["defender_1"],
                     "final_tricks_defender_2": won["defender_2"]}
    assert won["defender_1"] + won["defender_2"] + won["declarer"] == 10


def test_a_hand_stopped_at_the_defences_fifth_trick_is_over():
    deal, _ = _final(TEN)
    theirs, k = 0, 0
    while theirs < 5:                       # the tricks until the defence's fifth
        theirs += deal.tricks[k].winner != "declarer"
        k += 1
    _, final = _final(TEN[:k])
    assert sum(final.values()) == 5


def test_a_hand_still_open_gives_nothing():
    # three tricks played, neither side decided: a defender's own fall depends on what follows
    assert _final(TEN[:3])[1] == {}
    # a trick left half-played
    assert _final(TEN[:2] + ["♥9 ♥10"])[1] == {}


def test_betl_the_declarers_first_trick_is_his_fall_and_an_open_betl_gives_nothing():
    deal, final = _final(["♣K ♣Q ♣A"], contract="betl")       # the declarer's ace wins
    assert deal.tricks[0].winner == "declarer" and final == {"final_betl_taken": True}
    assert _final(["♣A ♣Q ♣7"], contract="betl")[1] == {}      # one trick, the hand goes on


def test_the_cards_answer_the_frame_questions():
    from referee.expert.interview.from_cards import answers_from_cards
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("preferans")
    deal, final = _final(TEN)
    answers = answers_from_cards(book, {"seats": SEATS, "contract": "herc", "play": TEN}, "case.yaml", 1)
    assert answers.answers["game"] == "herc"
    assert answers.answers["tricks_first"] == final["final_tricks_defender_1"]
    assert answers.answers["tricks_second"] == final["final_tricks_defender_2"]
