"""What a ruling calls a finding and its effects: a penalty is what falls on the offender's side;
what the innocent side gains (skat 4.1.5: the soloist's game scored as won, the opponents having
revoked) is the consequence the rules prescribe; an act found but not ruled on (Član 22: only the
violation committed first is ruled on) is never "violation established" in the reasoning."""
from referee.expert.authoring.casebook import run_case
from referee.expert.engine.ruler import Ruler
from referee.expert.language.rulebook import load_rulebook
from referee.reports.render import render


def casebook_ruling(game: str, name: str):
    book = load_rulebook(game)
    case = next(c for c in book.cases if c.name == name)
    result = run_case(Ruler(book), case)
    assert result.passed, result.differences
    return result.ruling


def block(text: str, start: str) -> str:
    """One finding's block of the text ruling, up to the next blank line."""
    return text.split(start, 1)[1].split("\n\n", 1)[0]


SKAT_CREDITED = ("opponent's revoke in trick 3 found in trick 8; spades hand, Schneider announced and still "
                 "possible at the revoke - credited")


def test_the_innocent_sides_win_is_a_consequence_not_a_penalty():
    ruling = casebook_ruling("skat", SKAT_CREDITED)
    text = render(ruling, "text", "en")
    revoke = block(text, "FINDING 1: 4.2.4 — Violation established; penalty prescribed")
    assert "Penalty:" in revoke and "Consequence:" not in revoke      # the game stopped: the offender's
    credited = block(text, "FINDING 2: 4.1.5 — Violation established; consequence prescribed")
    assert "Consequence:" in credited and "Penalty:" not in credited
    assert "soloist's game scored as won" in credited
    reasons = text.split("REASONING", 1)[1].split("....", 1)[0]
    assert "4.1.5 — violation established; consequence prescribed" in reasons
    html = render(ruling, "html", "en")
    assert '<p class="pen-h">Consequence:</p>' in html and '<p class="pen-h">Penalty:</p>' in html
    pl = render(ruling, "text", "pl")
    assert "USTALENIE 2: Pkt. 4.1.5 – stwierdzono wykroczenie; skutek przewidziany" in pl and "  Skutek:" in pl


def test_a_penalty_on_the_offenders_partner_or_written_against_him_stays_a_penalty():
    # bridge Law 25B: the offender's partner must pass (a penalty of the offending side)
    text = render(casebook_ruling("bridge", "l25 offender makes another legal call"), "text", "en")
    assert "Penalty:" in text and "Consequence:" not in text


def test_an_act_not_ruled_on_is_not_called_a_violation_established_in_the_reasoning():
    ruling = casebook_ruling("preferans", "table story 9: Vesna's out-of-turn kontra came before Boris's "
                                          "gross error in play; only the kontra is ruled (Član 22)")
    assert [n.cause for n in ruling.not_ruled] == ["later"]
    reasons = render(ruling, "text", "en").split("REASONING", 1)[1].split("....", 1)[0]
    assert "Član 12, stav 2 — found but not ruled on" in reasons
    assert "Član 12, stav 2 — violation established" not in reasons
    assert "Član 7, stav 7 — violation established; penalty prescribed" in reasons
    sr = render(ruling, "text", "sr").split("OBRAZLOŽENJE", 1)[1]
    assert "Član 12, stav 2 – utvrđeno, ali se po tome ne sudi" in sr


def test_a_later_act_names_the_rule_that_ended_the_game_by_the_first_violation():
    """Skat's first-infraction-only cites 4.1.3, 4.2.3 and 4.2.4; after a revoke (4.2.3) the
    act not ruled on is said to be so under 4.2.3, not under 4.1.3 (blind walk 7, S1)."""
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.engine.ruler import Ruler
    book = load_rulebook("skat")
    ruler = Ruler(book)
    seen = 0
    for case in book.cases:
        if not (isinstance(case.answers.get("claim"), list) and len(case.answers["claim"]) >= 2):
            continue
        ruling = ruler.rule(case.answers)
        for n in ruling.not_ruled:
            if n.cause != "later":
                continue
            first = next(f for f in ruling.findings if f.article == n.first_article)
            ends = [c for c in book.production(n.by).cites if c in first.provisions]
            if ends:
                seen += 1
                assert n.winner_article == book.provisions[ends[0]].label, case.name
    assert seen >= 1
