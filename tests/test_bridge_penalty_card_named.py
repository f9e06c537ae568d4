"""Blind walk 9 (B2): a defender's card that becomes a penalty card (Law 49) is named. The
interview asks which card(s) were exposed, in the card notation; the ruling names the card in
the decision, in the penalty line and in the order, and says what the surviving text obliges of
a penalty card (45C5, 52A, 52B) and what is lost with Law 50B-D."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from case_helpers import rule_case
from referee.cli import main
from referee.expert.interview.session import AnswerRefused, Session
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render

# East held his hand so that West could see the club king (walk 9, B2, event 2)
TYPED = {"claim": "play", "play_claim": "defender-exposed", "offender": "E", "l49_how": "partner-could-see",
         "l49_entitled": "no", "l11_lho_acted": "no", "l11_attention": "player", "l11a_gain": "no",
         "deal_stage": "play", "l49_cards": "1"}
ANSWERS = {"deal_stage": "play", "claim": ["play"], "play_claim": ["defender-exposed"], "offender": "E",
           "l49_how": "partner-could-see", "l49_entitled": False, "l11_lho_acted": False,
           "l11_attention": "player", "l11a_gain": False, "l49_cards": 1}
PLAYERS = {"players": {"N": "Ana", "E": "Boris", "S": "Vera", "W": "Gleb"}}


@pytest.fixture(scope="module")
def book():
    return load_rulebook("bridge")


def interview(book, which: str):
    """Answer the interview as typed at the table; the cards question last, as it is asked."""
    session = Session(book, enter_cards=False, header=PLAYERS)
    asked = []
    while (prompt := session.next()).kind != "review":
        asked.append(prompt.id)
        session.answer(which if prompt.id == "l49_which" else TYPED[prompt.id])
    return session, asked


def test_the_interview_asks_which_card_and_the_ruling_names_it(book):
    session, asked = interview(book, "C:K")
    assert "l49_which" in asked and asked.index("l49_which") > asked.index("l49_cards")
    ruling = session.rule()
    [f] = ruling.findings
    assert [(p.player, p.effect, p.amount, p.cards) for p in f.penalty] == [("E", "penalty_card", 1, "♣K")]
    text = render(ruling, "text")
    decision = text.split("DECISION")[1].split("ENTRIES ON THE SCORE SHEET")[0]
    assert "each such card becomes a penalty card: ♣K" in decision
    assert "Boris (East) — penalty card, major or minor (Law 50): 1 card (♣K)" in text
    assert "Card(s) exposed or named: ♣K" in text
    # the order: the card, what the surviving text obliges, and what it does not say
    assert "Order: Penalty card: ♣K (Law 49). What the source text says of a penalty card" in text
    for said in ("(45C5)", "(52A)", "(52B1(a))", "(52B1(b))", "(52B1(c))", "major penalty card (52B2)",
                 "50B–D are lost", "whether the card is a major or a minor penalty card", "when it must be played"):
        assert said in text
    assert "{" not in text
    ru = render(ruling, "text", lang="ru")
    assert "Штрафная карта: ♣K (правило 49)." in ru and "каждая такая карта становится штрафной: ♣K" in ru
    assert "{" not in ru


def test_a_count_that_differs_from_the_cards_named_is_refused(book):
    session = Session(book, enter_cards=False, header=PLAYERS)
    while (prompt := session.next()).id != "l49_which":
        session.answer(TYPED[prompt.id])
    with pytest.raises(AnswerRefused) as exc:
        session.answer("♣K ♥Q")
    assert "2 card(s) given (♥Q ♣K), but 1 counted before" in exc.value.message
    with pytest.raises(AnswerRefused):
        session.answer("♣Z")                     # not a card
    assert session.next().id == "l49_which"      # asked again


def test_enter_leaves_the_card_out_and_the_ruling_still_reads(book):
    session, _ = interview(book, "")
    ruling = session.rule()
    [f] = ruling.findings
    assert [(p.amount, p.cards) for p in f.penalty] == [(1, None)]
    text = render(ruling, "text")
    assert "Boris (East) — penalty card, major or minor (Law 50): 1 card\n" in text
    assert "each such card becomes a penalty card (Law 49" in text
    assert "Order: What the source text says of a penalty card" in text
    assert "{" not in text


def test_no_card_is_named_where_no_penalty_card_arises(tmp_path):
    # declarer's dropped card (48A): no penalty card, no card question
    ruling = rule_case(tmp_path, "bridge", {"answers": {
        "deal_stage": "play", "claim": ["play"], "play_claim": ["declarer-exposed"], "l48_how": "dropped"}})
    assert all(not f.penalty for f in ruling.findings)
    assert "Penalty card:" not in render(ruling, "text")


def test_a_case_file_names_the_card_in_letters_and_a_bad_card_is_one_line(tmp_path):
    ruling = rule_case(tmp_path, "bridge", {"answers": {**ANSWERS, "l49_which": "c:k"}})
    assert [p.cards for f in ruling.findings for p in f.penalty] == ["♣K"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: bridge\nanswers: {deal_stage: play, claim: [play], play_claim: [defender-exposed], "
                   "offender: E, l49_how: faced, l49_entitled: false, l49_cards: 1, l49_which: '♣K ♣K'}\n",
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["rule", str(bad), "--no-register"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "l49_which" in result.output


def test_with_the_cards_entered_the_card_named_must_be_in_the_offenders_hand(book):
    # --enter-cards: the hands are known, so a card East never held cannot be his penalty card
    deal = {"contract": "3NT", "declarer": "S",
            "hands": {"N": "♠AKQJ1098765432", "E": "♥AKQJ1098765432", "S": "♦AKQJ1098765432",
                      "W": "♣AKQJ1098765432"}}
    session = Session(book, enter_cards=False, header=PLAYERS, cards=deal)
    while (prompt := session.next()).id != "l49_which":
        session.answer(TYPED[prompt.id])
    with pytest.raises(AnswerRefused) as exc:
        session.answer("♣K")
    assert "♣K is not in the hand of" in exc.value.message and "as the cards were entered" in exc.value.message
    session.answer("♥K")
    [f] = session.rule().findings
    assert [p.cards for p in f.penalty] == ["♥K"]
