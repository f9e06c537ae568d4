"""Answers checked against each other (the rulebook's declared impossible combinations, a
request's 'on' seat), an unfinished event kept across a resume, and questions asked only when a
ruling still open depends on them: through the terminal interview and `referee rule`."""
import yaml
from click.testing import CliRunner

from referee.cli import main
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook

BRIDGE_NAMES = ["--player", "N=Ann", "--player", "E=Bob", "--player", "S=Cid", "--player", "W=Dan"]
# a revoke by South, found after he played to the next trick
REVOKE = ["play", "revoke", "S", "yes", "played-next", "no", "faced-card"]


def bridge_interview(tmp_path, typed, *more):
    save = tmp_path / "saved.yaml"
    result = CliRunner().invoke(main, ["interview", "bridge", "--no-enter-cards", "--save", str(save),
                                       "--no-register", *BRIDGE_NAMES, *more],
                                input="\n".join(typed) + "\n")
    return result, save


# --- 1. answers that exclude each other ----------------------------------------------------

def test_the_interview_refuses_a_board_state_the_event_excludes_and_asks_again(tmp_path):
    result, save = bridge_interview(tmp_path, [*REVOKE, "auction", "finished"])
    out = result.output
    assert "these answers exclude each other" in out and "Law 17E" in out, out
    assert "'auction' is not accepted" not in out          # the reason, not the menu's words
    line = next(s for s in out.splitlines() if "exclude each other" in s)
    assert "Stage of the board: the auction has not ended" in line
    assert yaml.safe_load(save.read_text())["answers"]["deal_stage"] == "finished"


def test_a_finished_board_refuses_a_revoke_not_yet_established(tmp_path):
    # a revoke not yet established leaves one stage of the board possible (in play): the
    # interview takes it rather than asking a question with one admissible answer
    result, save = bridge_interview(tmp_path, ["play", "revoke", "S", "yes", "none", "declarer"])
    assert "Where does the board stand now?" not in [line.strip() for line in result.output.splitlines()]
    assert yaml.safe_load(save.read_text())["answers"]["deal_stage"] == "play"
    s = Session(load_rulebook("bridge"), enter_cards=False, ask_names=False)
    s.events = [{"claim": ["play"], "play_claim": ["revoke"], "l63_events": ["none"]}]
    assert "every revoke in it is established" in s.impossible("deal_stage", "finished", None)


def test_a_shared_answer_is_checked_against_every_event():
    s = Session(load_rulebook("bridge"), enter_cards=False, ask_names=False)
    s.shared["deal_stage"] = "finished"
    s.events = [{"claim": ["pass-out-of-turn"]}, {"claim": ["claim-concession"]}]
    assert s.impossible("deal_stage", "play", None) is None
    reason = s.impossible("deal_stage", "passed-out", None)
    assert reason.startswith("Event 2: ") and "Law 17E" in reason


def case_file(tmp_path, text):
    path = tmp_path / "case.yaml"
    path.write_text(text)
    return path, CliRunner().invoke(main, ["rule", str(path), "--no-register", "--allow-incomplete"])


def test_a_case_file_with_answers_that_exclude_each_other_is_refused_with_its_line(tmp_path):
    path, result = case_file(tmp_path, (
        "game: bridge\n"
        "answers: {deal_stage: auction}\n"
        "events:\n"
        "  - {claim: [pass-out-of-turn], offender: N}\n"
        "  - {claim: [play], play_claim: [revoke], offender: S, l63_revoked: true}\n"))
    assert result.exit_code == 2, result.output
    first = result.output.strip().splitlines()[0]
    assert first.startswith(f"error: {path}:5: ") and "exclude each other" in first and "Law 17E" in first
    assert "Traceback" not in result.output


def test_a_consistent_case_file_still_rules(tmp_path):
    _, result = case_file(tmp_path, (
        "game: bridge\n"
        "answers: {deal_stage: play, claim: [play], play_claim: [revoke], offender: S, l63_revoked: true,"
        " l63_events: [played-next], l63_trick12: false}\n"))
    assert result.exit_code == 0, result.output


def test_declarations_of_every_game_are_data_and_refuse_their_combination(tmp_path):
    # skat: a revoke found after the game ended, in a game that was not played to its end
    _, result = case_file(tmp_path, (
        "game: skat\n"
        "answers: {claim: [revoke], offender: soloist, could_follow: true, revoke_found: after_game,"
        " cards_mixed: true, played_out: false}\n"))
    assert result.exit_code == 2 and "4.2.4" in result.output, result.output
    # ulti: a lower bid in the play; preferans: a lead disputed on a deal all three passed
    _, result = case_file(tmp_path, "game: ulti\nanswers: {claim: [lower-bid], phase: play, offender: defender_1}\n")
    assert result.exit_code == 2 and "Továbbiak 2" in result.output, result.output
    _, result = case_file(tmp_path, "game: preferans\nanswers: {claim: [bad-lead], deal_play: passed-out}\n")
    assert result.exit_code == 2 and "dalje" in result.output, result.output


def test_a_request_on_the_partys_own_side_is_refused_in_a_case_file(tmp_path):
    path, result = case_file(tmp_path, (
        "game: bridge\n"
        "answers: {deal_stage: play, claim: [play], play_claim: [revoke], offender: E, l63_revoked: true,"
        " l63_events: [played-next], l63_trick12: false}\n"
        "requests:\n"
        "  - {party: S, asks: 'effect:trick_transfer', 'on': S}\n"))
    assert result.exit_code == 2, result.output
    first = result.output.strip().splitlines()[0]
    assert first.startswith(f"error: {path}:4: ") and "on himself" in first, first


def test_a_request_on_the_other_side_or_on_a_partner_for_a_measure_stands(tmp_path):
    # tricks transferred from the other side; a call of the partner's cancelled is no transfer
    _, result = case_file(tmp_path, (
        "game: bridge\n"
        "answers: {deal_stage: play, claim: [play], play_claim: [revoke], offender: E, l63_revoked: true,"
        " l63_events: [played-next], l63_trick12: false}\n"
        "requests:\n"
        "  - {party: S, asks: 'effect:trick_transfer', 'on': E}\n"
        "  - {party: W, asks: 'effect:call_cancelled', 'on': E}\n"))
    assert result.exit_code == 0, result.output


def test_the_interview_refuses_a_request_on_the_partys_own_side(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(
        "game: bridge\n"
        "header: {players: {N: Ann, E: Bob, S: Cid, W: Dan}}\n"
        "answers: {deal_stage: play, contract_level: 3, contract_strain: clubs, contract_doubled: undoubled,"
        " declarer: S, vulnerability: none, claim: [play], play_claim: [revoke], offender: E,"
        " l63_revoked: true, l63_events: [played-next], l63_trick12: false, l64_exception: [none],"
        " l64_winner: offender, l11_attention: player, l11a_gain: false, l64_later_tricks: 1}\n")
    typed = ["r", "S", "effect:trick_transfer", "N", "E", "", "", "rule"]
    result = CliRunner().invoke(main, ["interview", "bridge", "--resume", str(case), "--no-register",
                                       "--format", "json"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    refusal = next(line for line in result.output.splitlines() if "own side" in line)
    assert "S asks for" in refusal and "on his own side (N, S)" in refusal and "(E, W)" in refusal
    assert yaml.safe_load(case.read_text())["requests"] == [
        {"party": "S", "asks": "effect:trick_transfer", "on": "E", "event": 1}]


# --- 2. an event added with '+' and not yet answered survives a resume -----------------------

def test_an_unfinished_event_resumes_where_it_stopped(tmp_path):
    from conftest import FIXTURES
    k = ["--knowledge", str(FIXTURES)]
    names = ["--player", "declarer=Marko", "--player", "d1=Jovan", "--player", "d2=Petar"]
    save = tmp_path / "saved.yaml"
    first = CliRunner().invoke(main, ["interview", "mini", "--save", str(save), "--no-register", *k, *names],
                               input="early\nno\nkaro\nd2\n+\n")
    assert first.exit_code == 130, first.output
    assert "Event 2" in first.output
    resumed = CliRunner().invoke(main, ["interview", "mini", "--resume", str(save), "--no-register",
                                        "--format", "json", *k], input="bad-game\nrule\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Event 2 — " in resumed.output.split("\n{")[0]      # the new event's first question
    saved = yaml.safe_load(save.read_text())
    assert saved["events"][0] == {"claim": ["early"], "early_turn": False, "early_who": "d2"}
    assert saved["events"][1]["claim"] == ["bad-game"]
    assert saved["answers"] == {"game": "karo"}               # nothing earlier changed


# --- 3. questions no open ruling depends on are not asked -------------------------------------

def test_an_unknown_fact_does_not_open_a_choice_the_text_rules_out_either_way():
    """skat: a revoke found later ends the game (4.2.4, no demand to continue); whether the
    cards were mixed (4.2.5) is unknown: either way play cannot continue (4.1.6), so the innocent
    side's choice is not asked."""
    s = Session(load_rulebook("skat"), enter_cards=False, ask_names=False)
    s.answer("unknown")                 # the soloist's place, asked first (blind walk 9)
    asked = []
    typed = {"claim": "revoke", "offender": "soloist", "could_follow": "yes", "revoke_found": "later_in_play",
             "cards_mixed": "unknown"}
    for _ in range(30):
        p = s.next()
        if p is None or p.kind != "question":
            break
        asked.append(p.id)
        raw = typed.get(p.id) or (str(p.options[0].value) if p.options else ("no" if p.type == "yesno" else "0"))
        try:
            s.answer(raw)
        except AnswerRefused:
            s.answer("unknown")
    assert "cards_mixed" in asked and "innocent_choice" not in asked, asked
    # known either way, it is not asked either; with the revoke found at once it is
    s = Session(load_rulebook("skat"), enter_cards=False, ask_names=False)
    for raw in ("unknown", "revoke", "soloist", "yes", "at_once"):
        s.answer(raw)
    assert s.next().id == "innocent_choice"


# --- the declarations are checked like the rest of a rulebook ---------------------------------

def _check_mini_declaring(tmp_path, declarations: str):
    """`referee check` on a copy of the mini fixture whose game question declares these
    impossible combinations (YAML list items)."""
    import shutil
    from conftest import FIXTURES
    shutil.copytree(FIXTURES, tmp_path / "k")
    path = tmp_path / "k" / "mini" / "questions.yaml"
    values = "  values: [{value: pik, label: {en: pik}}, {value: karo, label: {en: karo}}]\n"
    path.write_text(path.read_text().replace(values, values + "  impossible:\n" + declarations, 1))
    return CliRunner().invoke(main, ["check", "mini", "--knowledge", str(tmp_path / "k")])


def test_check_reports_a_declaration_that_names_no_question_or_gives_no_reason(tmp_path):
    result = _check_mini_declaring(
        tmp_path,
        "    - {when: {all: [{q: game, is: pik}, {q: gmae, is: x}]}, why: {en: \"never\"}, cites: [mini:9]}\n"
        "    - {when: {q: game, is: karo}}\n")
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "reads unknown question 'gmae'" in result.output
    assert "cites 'mini:9', which is not encoded" in result.output
    assert "each impossible combination needs when" in result.output


def test_an_incomplete_case_lists_no_amount_of_a_penalty_nobody_has_decided(tmp_path):
    """bridge: the size of a procedural penalty (Law 90) is asked once the Director has decided
    to give one (11D), not while nothing is decided: `referee rule` lists what the interview
    would still ask, and that is what decides first."""
    revoke = ("game: bridge\nanswers: {deal_stage: play, claim: [play], play_claim: [revoke], offender: S,"
              " l63_revoked: true, l63_events: [played-next], l63_trick12: false}\n")
    _, result = case_file(tmp_path, revoke)
    path = tmp_path / "case.yaml"
    result = CliRunner().invoke(main, ["rule", str(path), "--no-register"])
    assert result.exit_code == 3 and "would still ask" in result.output, result.output
    assert "l64_exception" in result.output and "procedural_penalty_size" not in result.output
    path.write_text("game: bridge\nanswers: {claim: [pass-out-of-turn], offender: S, l30_bid_before: false,"
                    " l30_conventional: false, l11_lho_acted: true, l11_attention: player, l11a_gain: false,"
                    " l11d_procedural: true, l30_out_of_turn: true}\n")
    result = CliRunner().invoke(main, ["rule", str(path), "--no-register"])
    assert "procedural_penalty_size" in result.output, result.output


def test_check_refuses_a_casebook_case_whose_answers_exclude_each_other(tmp_path):
    result = _check_mini_declaring(
        tmp_path,
        "    - {when: {all: [{q: game, is: karo}, {q: claim, has: early}]}, why: {en: \"no one speaks early in karo\"}}\n")
    assert result.exit_code != 0, result.output
    assert "no one speaks early in karo" in result.output and "case " in result.output
