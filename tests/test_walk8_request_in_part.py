"""Blind walk 8 (su, s1): the soloist asked for his game won with Schneider (36); the ruling gives
the game won at the simple level (24, 4.1.4). That is a request granted in part -- what is given
and what is not -- never "refused — the rules give 24 points, not 36"."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

# s1: the first opponent's revoke found later in the play (4.2.4, 4.1.4)
S1 = {"game_type": "clubs", "matadors_with": "with", "matadors": 1, "hand": "not_hand", "announced": "none",
      "required_level": "none", "claim": ["revoke"], "offender": "opponent_1", "could_follow": True,
      "revoke_found": "later_in_play", "cards_mixed": False, "points_counted": True,
      "soloist_points": 41, "opponents_points": 14}


def _asks(amount):
    return {"party": "soloist", "asks": "effect:game_won", "on": "soloist", "amount": amount}


def test_more_than_the_rules_give_is_granted_in_part(tmp_path):
    ruling = rule_case(tmp_path, "skat", {"answers": S1, "requests": [_asks(36), _asks(24), _asks(12)]})
    assert [e.amount for e in ruling.result.entries] == [24]
    part, exact, less = ruling.requests
    assert (part.answer, part.cause, part.given) == ("granted", "less", 24)
    assert part.to_dict()["in_part"] is True and part.to_dict()["given"] == 24
    assert part.reason["en"].startswith("granted in part: the rules give 24 of the 36 asked")
    # as much as asked, or less: granted in full
    assert (exact.answer, exact.cause) == ("granted", "granted") and "in_part" not in exact.to_dict()
    assert (less.answer, less.cause) == ("granted", "granted")
    text = render(ruling, "text")
    assert ("Answer to the request: granted in part — given: 24 points (4.1.4); not given: the rest of "
            "the 36 points asked.") in text
    assert "refused" not in text.split("REQUESTS OF THE PLAYERS")[1].split("SIGNATURES")[0]
    pl = render(ruling, "text", lang="pl")
    assert "uwzględnione częściowo – uwzględnione: 24 punkty (pkt. 4.1.4)" in pl


def test_nothing_given_of_what_was_asked_is_still_refused(tmp_path):
    """The soloist's own revoke: his game is lost; his game won at 36 is refused, not 'in part'."""
    own = {**S1, "offender": "soloist"}
    ruling = rule_case(tmp_path, "skat", {"answers": own, "requests": [_asks(36)]})
    assert ruling.requests[0].answer == "refused"
    assert "granted in part" not in render(ruling, "text")
