"""A request the ruling meets only in part says so, and which part (blind walk 5, U1: the declarer
asked that the revoking defender pay her "the whole game (40-100 and ulti)"; the ruling made him
pay the 40-100 and made her pay the innocent defender the ulti that had already failed, and the
request was printed "granted")."""
from __future__ import annotations

from case_helpers import rule_case
from referee.reports.render import render

REVOKE = {"game_kind": "colour", "trump": "tok", "claim": ["revoke"], "booked": False,
          "offender": "defender_1", "revoke_kind": "not-follow", "could_comply": True,
          "card_visible": True, "st_parti": "not-bid", "st_negyvenszaz": "open",
          "st_huszszaz": "not-bid", "st_durchmars": "not-bid", "st_teritett_durchmars": "not-bid"}
HEADER = {"players": {"declarer": "Anna", "defender_1": "Béla", "defender_2": "Csaba"}}
WHOLE_GAME = {"party": "declarer", "asks": "effect:pays", "on": "defender_1",
              "text": "Béla revoked, he pays me the whole game (40-100 and ulti)"}


def _ruled(tmp_path, ulti):
    return rule_case(tmp_path, "ulti", {"header": HEADER, "answers": {**REVOKE, "st_ulti": ulti},
                                        "requests": [WHOLE_GAME]})


def test_paid_the_renonsz_but_paying_the_failed_ulti_is_granted_in_part(tmp_path):
    ruling = _ruled(tmp_path, "lost")
    ask = ruling.requests[0]
    assert (ask.answer, ask.cause) == ("granted", "part")
    assert [(a, line.player, line.against, line.amount) for a, line in ask.contrary] == [
        ("Renonszok, záró rész, 3. bekezdés (folytatás)", "declarer", "defender_2", 8)]
    text = render(ruling, "text")
    assert ("Answer to the request: granted in part — given: Renonszok 2. pont, 1. mondat; not given, "
            "the ruling goes the other way: Renonszok, záró rész, 3. bekezdés (folytatás) (Anna") in text
    assert "8 units, to Csaba" in text


def test_the_whole_renonsz_paid_with_nothing_the_other_way_is_granted(tmp_path):
    ruling = _ruled(tmp_path, "open")
    ask = ruling.requests[0]
    assert (ask.answer, ask.cause, ask.contrary) == ("granted", "granted", [])
    assert "Answer to the request: granted — " in render(ruling, "text")
