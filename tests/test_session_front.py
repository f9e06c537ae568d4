"""What the Session gives every front end beyond the terminal's needs: a prompt as JSON-safe
data, the card step's seat, trick and default, the cards' answers as review rows, and the same
prompt again without working it out again."""
import json

from referee.expert.interview.session import Session
from referee.expert.language.rulebook import load_rulebook


def test_a_prompt_is_json_safe_data_with_its_options():
    s = Session(load_rulebook("preferans"), enter_cards=False, ask_names=False)
    data = s.next().to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["kind"] == "question" and data["id"] == "claim" and data["type"] == "multi"
    assert {"value": "bad-dolaz", "label": data["options"][[o["value"] for o in data["options"]].index("bad-dolaz")]["label"],
            "name": ""} in data["options"]


def test_card_prompts_name_the_seat_the_trick_and_what_skipping_gives():
    s = Session(load_rulebook("bridge"), enter_cards=True, ask_names=False)
    seen = []
    for raw in ("S", "4♠", "♠AK7 ♥QJ109 ♦AK2 ♣543", "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107", "♠98654 ♥876 ♦987 ♣62",
                "♠32 ♥543 ♦6543 ♣AK98", "", "♣A ♣3 ♣Q ♣2"):
        p = s.next()
        seen.append((p.card_kind, p.seat, p.trick, p.default))
        s.answer(raw)
    assert seen[:3] == [("declarer", "", None, ""), ("contract", "", None, ""), ("hand", "N", None, "")]
    assert seen[6] == ("lead", "", None, "W")                 # the declarer's left-hand opponent
    assert seen[7] == ("trick", "", 0, "")
    assert (s.next().card_kind, s.next().trick) == ("trick", 1)


def test_the_seat_order_step_says_its_default_order():
    s = Session(load_rulebook("preferans"), enter_cards=True, ask_names=False)
    p = s.next()
    assert p.card_kind == "seats" and p.default == "declarer defender_1 defender_2"


def test_the_cards_answers_are_listed_as_the_review_lists_answers():
    s = Session(load_rulebook("bridge"), enter_cards=True, ask_names=False)
    for raw in ("S", "4♠", "♠AK7 ♥QJ109 ♦AK2 ♣543", "♠QJ10 ♥AK2 ♦QJ10 ♣QJ107", "♠98654 ♥876 ♦987 ♣62",
                "♠32 ♥543 ♦6543 ♣AK98", "", "♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6", "♣9 ♣5 ♣10 ♠4", ""):
        s.answer(raw)
    s.next()
    rows = {r["question"]: r["shown"] for r in s.from_cards_rows()}
    assert rows["offender"] == "South"
    assert set(rows) == set(s.known)


def test_asking_again_gives_the_same_prompt_and_any_change_gives_a_new_one():
    s = Session(load_rulebook("preferans"), enter_cards=False, ask_names=False)
    first = s.next()
    assert s.next() is first
    s.answer("bad-dolaz")
    second = s.next()
    assert second.id != "claim"
    fresh = Session.from_state(s.book, s.to_state())          # worked out from nothing
    assert fresh.next().to_dict() == second.to_dict()
    s.back()
    assert s.next().id == "claim"
