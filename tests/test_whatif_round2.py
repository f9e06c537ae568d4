"""`referee whatif` after blind walk 5: event addressing as the help promises, every amended fact
named, and what a what-if result rests on (a reading, a prescribed default) said as the ruling
says it."""
import re

import yaml
from click.testing import CliRunner

from referee.cli import main


def run(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def _case(tmp_path, name, data) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(path)


PLAYERS = {"declarer": "Gábor", "defender_1": "Hanna", "defender_2": "Ferenc"}

# U3 of blind walk 5: a player spoke early in the bidding; whether the bid before his was said
# clearly is unknown (the rulebook prescribes "no" for that case)
U3 = {"game": "ulti", "header": {"players": PLAYERS},
      "answers": {"claim": ["early-speech"], "booked": False, "phase": "bidding", "offender": "declarer",
                  "spoke_early": True, "prev_clear": "unknown"}}

# P4 of blind walk 5: on sans the caller's partner did not lead a club; tricks lost unknown
P4 = {"game": "preferans", "header": {"players": {"declarer": "Sava", "defender_1": "Zoran", "defender_2": "Milan"}},
      "answers": {"game": "sans", "game_mode": "talon", "claim": ["bad-lead"],
                  "lead_kind": "sans-called", "sans_partner_bid": False, "holds_suit": True, "led_suit": False,
                  "gentlemen": False, "contra_level": "none", "lead_offender": "defender_1",
                  "lost_tricks": {"unknown": [4, 5]}}}


def test_event_one_of_a_one_event_dispute_is_the_dispute_itself(tmp_path):
    """The help says N:QUESTION=VALUE changes event N's answer; a one-event dispute has event 1
    (it was refused with 'event '1', expected a number from 1 to 1')."""
    case = _case(tmp_path, "p4.yaml", P4)
    plain = run("whatif", case, "--set", "lost_tricks=4")
    numbered = run("whatif", case, "--set", "1:lost_tricks=4")
    assert plain.exit_code == 0, plain.output
    assert numbered.exit_code == 0, numbered.output
    assert numbered.output == plain.output
    assert "+56" in numbered.output


def test_an_event_that_does_not_exist_is_refused_with_what_exists(tmp_path):
    case = _case(tmp_path, "p4.yaml", P4)
    result = run("whatif", case, "--set", "2:lost_tricks=4")
    assert result.exit_code == 2
    line = result.output.strip()
    assert line.startswith("error:") and "\n" not in line
    assert "event '2' does not exist" in line
    assert "expected 1 (the dispute has one event" in line
    # never the self-contradicting range
    assert "from 1 to 1" not in line


def test_an_event_past_the_last_of_several_names_how_many_there_are(tmp_path):
    two = {"game": "ulti", "header": {"players": PLAYERS},
           "answers": {"booked": False, "phase": "bidding", "offender": "declarer", "prev_clear": True},
           "events": [{"claim": ["early-speech"], "spoke_early": True},
                      {"claim": ["early-speech"], "spoke_early": False}]}
    case = _case(tmp_path, "two.yaml", two)
    result = run("whatif", case, "--set", "3:spoke_early=no", "--allow-incomplete")
    assert result.exit_code == 2
    assert "expected a number from 1 to 2 (the dispute has 2 events)" in result.output


def test_a_yes_no_fact_amended_is_named(tmp_path):
    """A yes/no fact whose statements stand for its values was printed as ': not established -> …'."""
    case = _case(tmp_path, "u3.yaml", U3)
    result = run("whatif", case, "--set", "prev_clear=yes", "--allow-incomplete")
    assert result.exit_code == 0, result.output
    amended = result.output.split("Decision:")[0]
    assert not re.search(r"^\s*:", amended, re.M), amended
    # (wrapped to 78 columns: the words as one text)
    assert ("Had the player sitting before him said his bid clearly and intelligibly: not established ->"
            in " ".join(amended.split()))


def test_a_result_resting_on_a_prescribed_default_says_so(tmp_path):
    """Amended to 'unknown', the fact is settled by the value the rulebook prescribes: the
    what-if says so, as the ruling's decision does, instead of stating the finding bare."""
    known = {**U3, "answers": {**U3["answers"], "prev_clear": True, "game_kind": "colour", "trump": "piros"}}
    case = _case(tmp_path, "u3c.yaml", known)
    result = run("whatif", case, "--set", "prev_clear=unknown", "--allow-incomplete")
    assert result.exit_code == 0, result.output
    added = " ".join(result.output.split("+ Renonszok 1. pont, 2. mondat")[1].split())
    assert ("It was not established that the bid of the player sitting before him was said clearly and "
            "intelligibly; for that case the rules (Renonszok, záró rész, 2. bekezdés) take it that the bid "
            "of the player sitting before him was not said clearly and intelligibly") in added
    assert "Violation not established (not proven)" in added
    # unchanged findings resting on the default say so too
    same = run("whatif", _case(tmp_path, "u3.yaml", U3), "--set", "booked=no")
    assert "(unchanged)" in same.output and "for that case the rules" in " ".join(same.output.split())


def test_a_result_resting_on_a_reading_prints_the_reading(tmp_path):
    """U3 amended to a clear previous bid: the renonsz is settled on the rulebook's reading of
    the expected winnings; the what-if prints that reading under the new finding."""
    case = _case(tmp_path, "u3.yaml", U3)
    result = run("whatif", case, "--set", "prev_clear=yes", "--set", "game_kind=colour", "--set", "trump=piros",
                 "--allow-incomplete")
    assert result.exit_code == 0, result.output
    added = " ".join(result.output.split("+ Renonszok 1. pont, 1. mondat")[1].split())
    assert "Reading of the text: 'Várható nyeremény' (expected winnings) is not defined in the source text" in added


# B3 of blind walk 5: South doubles his partner's bid (Law 36); whether West had already called
# is unknown, so the right to a penalty (Law 11B) is lost in one alternative only
B3_INPUT = ["inadmissible-double", "S", "no", "no", "unknown", "player", "no"]
PLAYERS_BRIDGE = ["--player", "N=Ann", "--player", "E=Bob", "--player", "S=Cy", "--player", "W=Di"]


def _interview(tmp_path, game, lines, *extra):
    return CliRunner().invoke(main, ["interview", game, "--no-enter-cards", "--save", str(tmp_path / "i.yaml"),
                                     *extra], input="\n".join(lines) + "\n")


def _asked(output: str, start: str) -> list[str]:
    """The lines of the prompt that begins with ``start``: the question and its notes."""
    lines = output.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(start))
    return lines[k:k + 2]


def test_a_question_asked_for_one_alternative_names_the_value_assumed(tmp_path):
    result = _interview(tmp_path, "bridge", B3_INPUT + ["no", "no"], *PLAYERS_BRIDGE)
    asked = _asked(result.output, "If the right to a penalty is lost")
    assert asked[1].strip() == ("(asked for the case where the unknown fact is so: Before the Director was "
                                "summoned, the offender's LHO called or played over the irregularity on his "
                                "own initiative.)")
    # the other alternative's question names the other value
    other = _asked(result.output, "Has the auction ended")
    assert "is so: The offender's LHO did not call or play over the irregularity" in other[1]


def test_a_question_asked_for_one_alternative_does_not_state_it_as_fact(tmp_path):
    result = _interview(tmp_path, "bridge", B3_INPUT + ["no", "no"], *PLAYERS_BRIDGE)
    assert "The right to a penalty is lost." not in result.output
    assert "If the right to a penalty is lost (Law 11), does the Director nevertheless assess" in result.output


def _prompts(output: str) -> list[str]:
    """The questions asked, each a line of its own (the review lists answers after a number)."""
    return [line.strip() for line in output.splitlines() if line.strip().endswith("?") and line == line.lstrip()]


def _case_file(tmp_path) -> dict:
    return yaml.safe_load((tmp_path / "i.yaml").read_text(encoding="utf-8"))


def test_a_fact_the_answers_already_decide_is_not_asked_again(tmp_path):
    """B3: 'Has the auction ended?' answered no, the board's stage follows (a double excludes a
    passed-out board): 'Where does the board stand now?' is not asked, and the answer is kept."""
    result = _interview(tmp_path, "bridge", B3_INPUT + ["no", "no", "", ""], *PLAYERS_BRIDGE)
    assert "Has the auction ended" in result.output
    assert "Where does the board stand now?" not in _prompts(result.output)
    assert _case_file(tmp_path)["answers"]["deal_stage"] == "auction"


def test_the_game_named_by_the_lead_disputed_is_not_asked(tmp_path):
    """P4: 'sans: the player was called' names the game; 'Which game is the declarer's game?' is
    not asked after it."""
    lines = ["bad-lead", "no", "sans-called", "no", "yes", "no", "no", "talon", "none", "defender_1", "4", "", ""]
    result = _interview(tmp_path, "preferans", lines, "--player", "declarer=Sava", "--player", "defender_1=Zoran",
                        "--player", "defender_2=Milan")
    assert "sans: the player was called" in result.output
    assert "Which game is (or would be) the declarer's game?" not in _prompts(result.output)
    assert _case_file(tmp_path)["answers"]["game"] == "sans"


def test_back_undoes_the_answer_a_taken_fact_follows_from(tmp_path):
    """The fact taken from an answer goes with it: 'back' after it re-asks that answer, and a
    different answer takes nothing (the game is asked)."""
    lines = ["bad-lead", "no", "sans-called", "back", "ordinary"]
    result = _interview(tmp_path, "preferans", lines, "--player", "declarer=Sava", "--player", "defender_1=Zoran",
                        "--player", "defender_2=Milan")
    assert _prompts(result.output).count("What kind of opening lead is disputed?") == 2
    assert "Undid the answer to 'What kind of opening lead is disputed?'" in result.output
    answers = _case_file(tmp_path)["answers"]
    assert answers["lead_kind"] == "ordinary" and "game" not in answers


# B1 of blind walk 5: East revokes and wins the trick; whether his side played to the next trick
# (which establishes the revoke, Law 63A1) is unknown
B1 = {"game": "bridge", "header": {"players": {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}},
      "answers": {"deal_stage": "finished", "contract_level": 4, "contract_strain": "spades",
                  "contract_doubled": "undoubled", "declarer": "S", "vulnerability": "none", "declarer_tricks": 9,
                  "claim": ["play"], "play_claim": ["revoke"], "offender": "E", "l63_revoked": True, "play_offender_role": "defender",
                  "l63_events": {"unknown": [["played-next"], ["none"]]}, "l63_trick12": False,
                  "l64_exception": ["none"], "l64_winner": "offender", "l11_attention": "player", "l11a_gain": False,
                  "l64_later_tricks": 2}}


def test_the_article_that_establishes_the_revoke_is_applied(tmp_path):
    """In the alternative where the revoke is established by play to the next trick, 63A1 is
    among the articles applied, beside 64A1 and 63B; the finding is still headed by 64A1."""
    case = _case(tmp_path, "b1.yaml", B1)
    result = run("rule", case, "--no-register", "--format", "json")
    assert result.exit_code == 0, result.output
    import json
    ruling = json.loads(result.output)
    # a finished board has no revoke left unestablished (a declared impossible combination): the
    # alternative 'none' is no alternative, so the ruling is the established revoke's alone
    established = [alt for alt in ruling["alternatives"] if alt["if"].get("l63_events") == ["played-next"]] \
        or ([ruling] if not ruling["alternatives"] else [])
    assert established, ruling["alternatives"]
    provisions = [f["provisions"] for f in established[0]["findings"]]
    assert ["bridge:64A1", "bridge:63B", "bridge:63A1"] in provisions
    text = run("rule", case, "--no-register").output
    applied = text.split("ARTICLES APPLIED")[1].split("REQUESTS")[0]
    assert "Правило 63A1:" in applied
    assert "Правило 64A1 — offender: Bob" in text


def test_a_revoke_established_by_a_claim_cites_63A3_not_63A1(tmp_path):
    answers = {**B1["answers"], "l63_events": ["claim-concession"]}
    answers.pop("play_offender_role")           # not asked when the revoke is known established
    case = _case(tmp_path, "b1c.yaml", {**B1, "answers": answers})
    result = run("rule", case, "--no-register", "--format", "json")
    assert result.exit_code == 0, result.output
    import json
    findings = json.loads(result.output)["findings"]
    assert [f["provisions"] for f in findings] == [["bridge:64A1", "bridge:63B", "bridge:63A3"]]
