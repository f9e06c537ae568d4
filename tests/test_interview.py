"""The interview: relevance, checking answers, help, back, review, autosave and resume."""
import yaml
from click.testing import CliRunner

from referee.cli import main
from conftest import FIXTURES
from referee.expert.interview.relevance import Interview, prune

K = ["--knowledge", str(FIXTURES)]
# the players' names given as flags, so the interview does not ask them first
NAMED = ["--player", "declarer=Marko", "--player", "d1=Jovan", "--player", "d2=Petar"]


def asked(book, script):
    interview, order = Interview(book), []
    while (q := interview.next_question()) is not None:
        order.append(q.id)
        interview.give(q.id, script[q.id])
    return order


def test_asks_only_what_can_change_the_ruling(mini):
    assert asked(mini, {"claim": ["early"], "early_turn": True}) == ["claim", "early_turn"]
    assert asked(mini, {"claim": ["bad-game"], "game": "pik"}) == ["claim", "game"]
    full = {"claim": ["early", "bad-game"], "early_turn": False, "order": ["early", "bad-game"],
            "game": "pik", "early_who": "d1"}
    assert asked(mini, full) == ["claim", "early_turn", "order", "game", "early_who"]


def test_changed_answer_drops_answers_that_no_longer_apply(mini):
    answers = {"claim": ["bad-game"], "early_who": "d1", "early_turn": False, "game": "pik"}
    assert prune(mini, answers) == {"claim": ["bad-game"], "game": "pik"}


def interview(tmp_path, typed):
    save = tmp_path / "saved.yaml"
    result = CliRunner().invoke(main, ["interview", "mini", "--save", str(save), "--format", "json", *K, *NAMED],
                                input=typed)
    return result, save


def test_piped_answers_drive_the_real_interview_to_a_ruling(tmp_path):
    result, save = interview(tmp_path, "early\nno\n2\n1\nrule\n")
    assert result.exit_code == 0, result.output
    ruling = result.output[result.output.index("{"):]
    import json
    data = json.loads(ruling)
    assert data["findings"][0]["penalty"][0] == {"player": "d1", "effect": "bula", "amount": 6}
    assert yaml.safe_load(save.read_text())["answers"]["early_who"] == "d1"


def test_invalid_answer_is_asked_again_with_allowed_values(tmp_path):
    result, _ = interview(tmp_path, "sideways\nearly\nperhaps\nno\nkaro\nd2\nrule\n")
    assert "'sideways' is not accepted: expected one or more of: early, bad-game" in result.output
    assert "'perhaps' is not accepted: expected yes or no" in result.output
    assert result.exit_code == 0


def test_the_interview_frame_speaks_the_referees_language(tmp_path):
    from referee.expert.console import prompt as console
    from referee.expert.language.rulebook import load_rulebook
    from conftest import FIXTURES
    book = load_rulebook("mini", FIXTURES)
    typed = ["", "", "talán", "early", "nem", "karo", "1", "döntés"]     # two names left out first
    out = []

    def read(prompt, q=None):
        out.append(prompt)
        return typed.pop(0)
    from referee.expert.interview.session import Session
    session = Session(book, lang="hu", header={"players": {"d1": "Kovács"}})
    console.run(session, read, out.append, tmp_path / "s.yaml")
    text = "\n".join(out)
    assert "„talán” nem fogadható el; a várt válasz: egy vagy több ezek közül: early, bad-game" in text
    assert ("igen vagy nem; „ismeretlen”, ha senki sem tudja megállapítani (? – súgó, „vissza” – az utolsó "
            "válasz visszavonása)") in text
    assert "[d1] — Kovács" in text
    assert "Megadott válaszok:" in text


def test_help_shows_the_articles_a_question_feeds(tmp_path):
    """'?' fits one screen: the help and the articles by label; '??' their full texts."""
    result, _ = interview(tmp_path, "?\n??\nearly\nyes\nrule\n")
    # one line per article: its label and the start of its English rendering, no ids
    line = next(x for x in result.output.splitlines() if x.startswith("  Rule 1 \u2014 "))
    assert "[mini:" not in line and len(line) <= 78
    assert "Rule 1 [mini:1.early]: \u201cq1\u201d" in result.output


def test_back_undoes_the_last_answer(tmp_path):
    result, save = interview(tmp_path, "early\nback\nbad-game\n1\nrule\n")
    claim = yaml.safe_load((FIXTURES / "mini" / "questions.yaml").read_text())[0]["text"]["en"]
    assert f"Undid the answer to {claim!r}" in result.output
    assert yaml.safe_load(save.read_text())["answers"] == {"claim": ["bad-game"], "game": "pik"}


def test_review_lets_the_referee_change_an_answer(tmp_path):
    result, save = interview(tmp_path, "early\nyes\n2\nno\n1\n1\nrule\n")
    saved = yaml.safe_load(save.read_text())["answers"]
    assert saved["early_turn"] is False and saved["early_who"] == "d1"


def test_end_of_input_saves_answers_and_resume_continues(tmp_path):
    result, save = interview(tmp_path, "early\nno\n")
    assert result.exit_code == 130
    assert f"Answers saved to {save}" in result.output
    assert yaml.safe_load(save.read_text())["answers"] == {"claim": ["early"], "early_turn": False}
    resumed = CliRunner().invoke(main, ["interview", "mini", "--resume", str(save), "--format", "json", *K],
                                 input="karo\nd2\nrule\n")
    assert resumed.exit_code == 0
    assert '"player": "d2"' in resumed.output and '"amount": 6' in resumed.output


def test_prune_keeps_answers_gated_by_a_derived_fact(tmp_path):
    import shutil
    from referee.expert.language.rulebook import load_rulebook
    draft = tmp_path / "k"
    shutil.copytree(FIXTURES, draft)
    art = draft / "mini" / "articles" / "01-rules.yaml"
    art.write_text(art.read_text().replace(
        "    text: {en: \"Who spoke early?\"}\n    when: {q: claim, has: early}",
        "    text: {en: \"Who spoke early?\"}\n    when: {fact: early-established}"))
    book = load_rulebook("mini", draft)
    answers = {"claim": ["early"], "early_turn": False, "early_who": "d2"}
    assert prune(book, answers) == answers
    assert asked(book, dict(answers, game="pik")) == ["claim", "early_turn", "game", "early_who"]


def test_a_description_for_the_record_is_asked_last_and_enter_leaves_it_out(tmp_path):
    from referee.expert.console import prompt as console
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("skat")
    for typed_text, expected in (("The soloist showed his cards to a kibitzer.", True), ("", False)):
        asked = []
        answers = {"claim": ["other-infraction"]}

        def read(prompt, q=None):
            asked.append(q.id if q else prompt)
            assert len(asked) < 30, asked
            if q is None:                                 # names: left out; the review: rule
                return "rule" if session.stage == "review" else ""
            if q.id == "other_description":
                return typed_text
            return {"yesno": "y", "number": str(q.min or 0)}.get(q.type, "1")
        from referee.expert.interview.session import Session
        session = Session(book, enter_cards=False)
        session.give("claim", answers["claim"], 0)
        given = console.run(session, read, lambda line: None, tmp_path / "s.yaml").dispute().answers
        assert asked[-2] == "other_description"
        assert ("other_description" in given) is expected
        if expected:
            assert given["other_description"] == typed_text


def test_an_alternative_that_needs_more_than_another_asks_nothing_more():
    from conftest import FIXTURES
    from referee.expert.language import conditions as cond
    from referee.expert.interview.relevance import _producers, _State
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("mini", FIXTURES)
    # claim has early, and not (early_turn and pik), and early_who d1: with karo known, the
    # alternative through 'not early_turn' needs early_turn AND early_who, the one through
    # 'not pik' only early_who - so early_turn can never decide it
    when = cond.parse({"all": [{"q": "claim", "has": "early"},
                               {"not": {"all": [{"q": "early_turn", "is": True}, {"q": "game", "is": "pik"}]}},
                               {"q": "early_who", "is": "d1"}]})
    wanted: set = set()
    _State(book, {"claim": ["early"], "game": "karo"}, _producers(book)).collect(when, wanted)
    assert wanted == {"early_who"}
    wanted = set()
    _State(book, {"claim": ["early"]}, _producers(book)).collect(when, wanted)
    assert wanted == {"early_who", "early_turn", "game"}


def test_a_long_menu_and_a_refusal_fit_an_80_by_24_terminal(tmp_path, monkeypatch):
    """Bridge's claim menu (16 kinds): the question, every option, the one-line hint and the
    reason an answer was refused stay on one 80×24 screen; the reason names the menu's numbers."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    save = tmp_path / "b.yaml"
    result = CliRunner().invoke(main, ["interview", "bridge", "--save", str(save), "--player", "N=Ivan",
                                       "--player", "E=Petr", "--player", "S=Anna", "--player", "W=Olga"],
                                input="n\nsideways\n")
    out = result.output
    start = out.index("What is the dispute about?")
    screen = out[start:].split("\n")
    refusal = next(i for i, line in enumerate(screen) if "'sideways' is not accepted" in line)
    rows = sum(max(1, -(-len(line) // 80)) for line in screen[:refusal + 1])     # a terminal wraps by characters
    assert rows + 1 <= 24, out[start:]          # and the prompt line under it
    assert "1–16" in screen[refusal] and "pass-out-of-turn" not in screen[refusal]


def test_unknown_among_on_a_several_answer_question_says_to_split_the_sets_with_a_bar(tmp_path):
    """'unknown: a, b' on the claim menu reads as one set; the refusal says how to give the sets
    it may be (a blind tester was refused with the menu's numbers only)."""
    result, _ = interview(tmp_path, "unknown: early, bad-game\nearly\nno\n2\n1\nrule\n")
    assert "separate the sets it may be with '|'" in result.output
    assert result.exit_code == 0
