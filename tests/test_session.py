"""The Session every front end drives: names, cards offer, questions, review, '+' for another
event, 'r' for a request, back across stages, saving and restoring exactly."""
import json

import pytest
import yaml
from click.testing import CliRunner

from conftest import FIXTURES
from referee.cli import main
from referee.expert.interview.casefile import read_case, save_session
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook

K = ["--knowledge", str(FIXTURES)]


@pytest.fixture(scope="module")
def mini():
    return load_rulebook("mini", FIXTURES)


def drive(session, typed):
    """Answer prompts in order; returns the kinds of the prompts answered."""
    kinds = []
    for raw in typed:
        prompt = session.next()
        kinds.append((prompt.kind, prompt.id))
        session.answer(raw)
    return kinds


def test_names_come_first_and_enter_leaves_one_out(mini):
    s = Session(mini)
    kinds = drive(s, ["Marko", "", "Petar"])
    assert kinds == [("name", "declarer"), ("name", "d1"), ("name", "d2")]
    assert s.header["players"] == {"declarer": "Marko", "d2": "Petar"}
    assert s.next().id == "claim"


def test_a_second_event_is_asked_from_its_claim_and_ruled_with_chronology(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "no", "pik", "d1"])          # event 1: d1 spoke early
    assert s.next().kind == "review"
    assert s.answer("+").startswith("Event 2")
    prompt = s.next()
    assert (prompt.kind, prompt.id, prompt.event) == ("question", "claim", 1)
    assert prompt.text.startswith("Event 2 — ")
    s.answer("bad-game")
    assert s.next().kind == "review"
    ruling = s.rule()
    assert [f.event for f in ruling.findings] == [0]          # the later event is set aside
    later = [n for n in ruling.not_ruled if n.by == "first-only"]
    assert [(n.event, n.production) for n in later] == [(1, "bad-b")]
    assert later[0].by_provisions == ["mini:4.first"] and later[0].cause == "later"
    assert [e["claim"] for e in ruling.to_dict()["events"]] == [["early"], ["bad-game"]]


def test_a_request_is_recorded_at_the_review_and_answered_in_the_ruling(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "no", "pik", "d1"])
    s.answer("r")
    assert s.next().kind == "request_party"
    s.answer("declarer")
    assert {o.value for o in s.next().options} >= {"upheld", "rejected", "effect:bula", "other"}
    s.answer("upheld")
    s.answer("")                                     # no words recorded
    assert s.next().kind == "review"
    [answer] = s.rule().requests
    assert (answer.party, answer.request, answer.answer) == ("declarer", "upheld", "granted")
    assert answer.provisions == ["mini:1.early"]


def test_a_refused_answer_says_why_and_keeps_the_prompt(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    with pytest.raises(AnswerRefused) as exc:
        s.answer("erly")
    assert "early" in exc.value.allowed
    assert s.next().id == "claim"


def test_back_undoes_across_events_and_requests(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "no", "pik", "d1"])
    s.answer("+")
    s.answer("bad-game")
    assert s.back()                                  # the second event's claim
    assert s.next().id == "claim" and s.next().event == 1
    assert s.back()                                  # the second event itself
    assert len(s.events) == 1 and s.next().kind == "review"
    assert s.back()                                  # the last answer of event 1
    assert s.next().id == "early_who"


def test_unknown_is_accepted_and_a_question_gated_on_it_is_still_asked(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "unknown"])                   # was it his turn? nobody knows
    prompt = s.next()
    assert prompt.id in ("game", "early_who")
    drive(s, ["pik", "d2"] if prompt.id == "game" else ["d2", "pik"])
    ruling = s.rule()
    assert [u.question for u in ruling.unknown] == ["early_turn"] and ruling.unknown[0].matters
    assert len(ruling.alternatives) == 2


def test_state_round_trips_exactly_with_answer_times(mini, tmp_path):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "no"])
    s.times["claim"] = "2026-11-30T10:00:00+00:00"     # an answer given yesterday
    again = Session.from_state(mini, json.loads(json.dumps(s.to_state())))
    assert again.to_state() == s.to_state()
    path = save_session(tmp_path / "s.yaml", s, "in progress")
    resumed = Session.resume(mini, read_case(path))
    assert resumed.times == s.times and resumed.next().id == s.next().id
    assert resumed.dispute().answers == s.dispute().answers


def test_interrupting_the_first_prompt_saves_and_says_how_to_resume(tmp_path):
    save = tmp_path / "iv.yaml"
    result = CliRunner().invoke(main, ["interview", "mini", "--save", str(save), *K], input="")
    assert result.exit_code == 130
    assert "--resume" in result.output
    assert yaml.safe_load(save.read_text())["game"] == "mini"


def test_a_resumed_interview_keeps_the_times_answers_were_given(tmp_path):
    save = tmp_path / "iv.yaml"
    CliRunner().invoke(main, ["interview", "mini", "--save", str(save), *K, "--player", "declarer=A",
                              "--player", "d1=B", "--player", "d2=C"], input="early\n")
    first = yaml.safe_load(save.read_text())["session"]["times"]["claim"]
    data = yaml.safe_load(save.read_text())
    data["session"]["times"]["claim"] = "2026-11-30T10:00:00+00:00"
    save.write_text(yaml.safe_dump(data, allow_unicode=True))
    assert first
    CliRunner().invoke(main, ["interview", "mini", "--resume", str(save), *K, "--no-register"], input="no\n")
    assert yaml.safe_load(save.read_text())["session"]["times"]["claim"] == "2026-11-30T10:00:00+00:00"


def test_o_at_the_review_says_nobody_knows_the_order_of_the_events(mini):
    s = Session(mini, header={"players": {"declarer": "A", "d1": "B", "d2": "C"}})
    drive(s, ["early", "no", "pik", "d1"])
    s.answer("+")
    s.answer("bad-game")
    assert "'o'" in s.next().text
    s.answer("o")
    assert s.to_case()["events_order"] == "unknown"
    ruling = s.rule()
    assert ruling.alternatives and not ruling.order_known
    assert s.back() and s.order_known                   # 'back' undoes it
