"""A player's request as blind testers met it (blind walk 9): the 'whom' question says whether it
means the player who pays or the one who receives, from the effect's own definition; the 'how
much' question says its unit and sign ('?') and is not asked of an effect that carries no amount;
a request about one event is not refused over another event's finding on another player."""
from __future__ import annotations

import pytest

from case_helpers import rule_case
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render

# bridge B2: declarer drops the ♦Q (48A: no penalty); then East shows the ♣K to his partner (49:
# a penalty card). West asks a penalty card on South about the drop; South asks one on East.
B2_EVENTS = [
    {"claim": ["play"], "play_claim": ["declarer-exposed"], "l48_how": "dropped"},
    {"claim": ["play"], "play_claim": ["defender-exposed"], "offender": "E", "l49_how": "partner-could-see",
     "l49_entitled": False, "l11_lho_acted": False, "l11_attention": "player", "l11a_gain": False,
     "l49_cards": 1}]


def _b2(tmp_path, requests):
    return rule_case(tmp_path, "bridge", {"header": {"players": {"N": "Ann", "E": "Bob", "S": "Cid", "W": "Dan"}},
                                          "answers": {"deal_stage": "play"}, "events": B2_EVENTS,
                                          "requests": requests})


@pytest.mark.parametrize("on", ["S", None])
def test_another_events_finding_on_the_askers_partner_is_no_refusal_of_the_asker(tmp_path, on):
    ask = {"party": "W", "asks": "effect:penalty_card", "event": 1, **({"on": on} if on else {})}
    ruling = _b2(tmp_path, [ask, {"party": "S", "asks": "effect:penalty_card", "event": 2, "on": "E"}])
    west, south = ruling.requests
    assert west.answer == "refused" and west.event == 1
    [other] = west.elsewhere
    assert other.event == 2 and other.falls_on == ["E"]
    text = render(ruling, "text").replace("\n    ", " ")
    assert "event 2: refused" not in text and "on another player" not in text
    assert ("event 2 is another matter: what it gives falls there on: Bob (East), the asker's partner "
            "(Правило 49)") in text
    assert south.answer == "granted"
    # in every language of the report, the other event is said as another matter
    for lang, said in [("sr", "druga stvar"), ("pl", "odrębna sprawa"), ("ru", "другое дело"),
                       ("hu", "másik ügy")]:
        assert said in render(ruling, "text", lang=lang)
