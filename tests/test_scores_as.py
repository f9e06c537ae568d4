"""An effect written `{scores_as: {QUESTION: VALUE}}` (engine/result.py): the finding writes no
entry of its own, the deal is scored as played with that answer replaced (bridge: a double that
Law 35D cancels leaves the contract scored undoubled); the checks refuse one that names no
question or a value the question does not allow."""
from test_result_sheet import EARLY, draft, errors

from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.language.dispute import Dispute

# the deal as played: the declarer writes the game's value (pik 4, karo 6) when he takes 6 tricks
PLAY = [{"when": {"q": "tricks", "ge": 6},
         "entries": [{"player": "declarer", "item": "net", "amount": {"param": "game_value", "key": {"answer": "game"}}}]}]


def scored(book, answers) -> list:
    result = rule_dispute(Ruler(book), Dispute(answers)).to_dict()["result"]
    return sorted((e["player"], e["item"], e["amount"]) for e in result["entries"])


def test_a_finding_that_changes_what_the_deal_is_scored_on_changes_the_play_entries(tmp_path):
    book = draft(tmp_path)
    book.score["play"] = PLAY
    book.score["effects"].pop("bula")             # only the declarer's entry as played is compared
    book.score["effects"]["supe"] = {"scores_as": {"game": "pik"}}
    assert not errors(book)
    # the early declaration's finding (bula and supe) stands: karo as answered is scored as pik
    assert ("declarer", "net", 4) in scored(book, dict(EARLY, tricks=8))
    # without that effect the deal is scored on the answer as given
    book.score["effects"].pop("supe")
    assert ("declarer", "net", 6) in scored(book, dict(EARLY, tricks=8))


def test_scores_as_names_a_question_and_one_of_its_values(tmp_path):
    book = draft(tmp_path)
    book.score["effects"]["supe"] = {"scores_as": {"nowhere": "pik"}}
    assert any("scores_as: unknown question 'nowhere'" in m for m in errors(book)), errors(book)
    book.score["effects"]["supe"] = {"scores_as": {"game": "herc"}}
    assert any("'herc' is not a value of 'game'" in m for m in errors(book)), errors(book)
    book.score["effects"]["supe"] = {"scores_as": {"game": "pik"}, "item": "net"}
    assert any("scores_as stands alone" in m for m in errors(book)), errors(book)
