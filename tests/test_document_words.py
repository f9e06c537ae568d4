"""The signed ruling's words as a native referee would sign them (issue 16, item 6): a case in, the
rendered string out. Labels inside a sentence in lower case; a sentence after a label's colon and a
reason after a dash lower-cased; Polish "Pkt." at the head of a line and "pkt." before a cited
number; a true minus; events named by their specific claim; the unit of what was asked and given;
no second colon; no set-aside finding among the reasons; a number fact's range in a heading."""
from dataclasses import replace

import pytest

from referee.expert.engine.ruler import Ruler
from referee.expert.engine.verdict import FindingOut, NotRuled, PenaltyLine, RequestAnswer, UnknownFact
from referee.expert.interview.adjudicate import _merge_numbers, rule_dispute
from referee.expert.language.dispute import Dispute
from referee.expert.language.rulebook import load_rulebook
from referee.reports import document, view
from referee.reports.i18n import LANGS, words
from referee.reports.render import render


def _case(game: str, start: str):
    """A casebook case of ``game`` (its name begins with ``start``), ruled."""
    book = load_rulebook(game)
    case = next(c for c in book.cases if c.name.startswith(start))
    return rule_dispute(Ruler(book), Dispute(dict(case.answers), events=[dict(e) for e in case.events or []]))


def _pid(book, label: str) -> str:
    return next(pid for pid, p in book.provisions.items() if p.label == label)


@pytest.fixture(scope="module")
def gentlemen():
    """Preferans: the gentlemen's agreement (Član 13, stav 2) sets aside the false-bid liability."""
    return _case("preferans", "gentlemen agreement waives the false-bid liability")


def test_the_article_whose_conditions_fail_is_cited_in_lower_case_or_after_pkt(gentlemen):
    book = gentlemen.book
    ask = RequestAnswer(party="declarer", request="other", answer="refused", provisions=[], reason={},
                        cause="not-met", provision=_pid(book, "Član 21, stav 1"))
    row = document.requests(replace(gentlemen, requests=[ask]), "sr")[0]
    assert row["reason"] == "utvrđene činjenice ne ispunjavaju propisane uslove (član 21, stav 1)"
    skat = _case("skat", "rearhand leads out of turn")
    ask = replace(ask, party="soloist", provision=_pid(skat.book, "4.2.8"))
    row = document.requests(replace(skat, requests=[ask]), "pl")[0]
    assert row["reason"] == "ustalone fakty nie spełniają warunków przepisu (pkt. 4.2.8)"


def test_a_default_the_rules_prescribe_cites_its_articles_in_lower_case_with_semicolons(gentlemen):
    book = gentlemen.book
    cites = [_pid(book, "Član 21, stav 1"), _pid(book, "Član 21, stav 2")]
    qid = next(q for q in book.questions if book.questions[q].type == "yesno")
    fact = UnknownFact(question=qid, event=None, matters=False, default=False, cites=cites)
    said = document.unknown(replace(gentlemen, unknown=[fact]), "sr")[0]["said"]
    assert said == "nije utvrđeno; uzima se odgovor „ne“ (član 21, stav 1; član 21, stav 2)"


def test_later_and_not_examined_lines_cite_in_lower_case():
    later = NotRuled(production="x", provisions=[], article="Правило 64A1", reason="", by="y", cause="later",
                     winner_article="Правило 11B", first_article="Правило 53A")
    said = view._reason(later, "ru")
    assert "(правило 53A)" in said and "(правило 11B)" in said and "Правило" not in said


def test_a_finding_with_no_offender_continues_in_lower_case_after_the_colon_save_in_english(gentlemen):
    finding = FindingOut(production="p", provisions=[], article="Član 7, stav 6", kind="no-violation", claim="",
                         summary={"sr": "Izjava je data po redu.", "en": "The statement was made in turn."},
                         offender=None, penalty=[], orders=[], readings=[])
    ruling = replace(gentlemen, findings=[finding], not_ruled=[])
    assert document.decision(ruling, "sr") == ["Član 7, stav 6: izjava je data po redu."]
    assert document.decision(ruling, "en") == ["Član 7, stav 6: The statement was made in turn."]


def test_a_reason_after_a_dash_starts_in_lower_case_and_the_set_aside_finding_is_not_a_reason(gentlemen):
    text = render(gentlemen, "text", "sr")
    reasons = text[text.index("OBRAZLOŽENJE"):text.index(words("sr")["technical"].upper())]
    step = next(line for line in reasons.splitlines() if "isključuje" in line)
    assert step.split(". ", 1)[1].startswith("Član 13, stav 2 isključuje član 6, stav 7 – dve odredbe")
    # Član 6, stav 7 is named only as what Član 13, stav 2 sets aside, never as a finding of its own
    heads = [line.strip() for line in reasons.splitlines() if line.strip()[:1].isdigit()]
    assert not any(h.split(". ", 1)[1].startswith("Član 6, stav 7 –") for h in heads), heads
    # a reference in a ruling's words keeps its capital after a dash ("Law 11", "Továbbiak 5")
    assert document.lower_first("Law 11 removes the right", gentlemen) == "Law 11 removes the right"
    assert document.lower_first("Pkt. 4.1.6 stosujemy", gentlemen) == "pkt. 4.1.6 stosujemy"


def test_polish_names_a_bare_paragraph_number_pkt_at_the_head_of_a_line():
    skat = _case("skat", "rearhand leads out of turn")
    lines = document.decision(skat, "pl")
    assert lines and all(line.startswith("Pkt. 4.") for line in lines), lines
    text = render(skat, "text", "pl")
    assert "USTALENIE 1: Pkt. 4." in text and "\n  - Pkt. 4." in text
    assert view.head_label("4.1.6", "en") == "4.1.6" and view.head_label("Član 7", "pl") == "Član 7"


def test_a_negative_amount_takes_a_true_minus(gentlemen):
    effect = next(iter(gentlemen.book.effects))
    line = PenaltyLine(player="declarer", effect=effect, amount=-40)
    said = view.penalty_words(gentlemen, line, "sr")
    assert ": −40" in said and "-40" not in said


def test_events_are_named_by_the_specific_claim():
    ruling = _case("bridge", "two events: West revokes and wins")
    for lang in ("ru", "en"):
        labels = [e["what"] for e in document.events(ruling, lang)]
        assert len(set(labels)) == 2, labels
    assert [e["what"] for e in document.events(ruling, "ru")] == [
        "Фальшренонс (правила 63–64)", "Дефектная взятка: без карты или с лишней (правило 67)"]


def test_less_than_asked_names_the_unit_of_the_effect():
    ruling = _case("bridge", "l11b LHO passes over")
    effect = next(e for e, spec in ruling.book.effects.items() if isinstance(spec.get("unit"), dict)
                  and spec["unit"].get("ru") and "взят" in str(spec["unit"]["ru"]))
    ask = RequestAnswer(party="declarer", request=f"effect:{effect}", answer="refused", provisions=[], reason={},
                        cause="less", articles=["Правило 70C"], amount=2, given=1)
    reason = document.requests(replace(ruling, requests=[ask]), "ru")[0]["reason"]
    assert reason == "по правилам полагается 1 взятка, а не 2 взятки (правило 70C)"
    reason = document.requests(replace(ruling, requests=[ask]), "en")[0]["reason"]
    assert reason.startswith("the rules give 1 trick, not 2 tricks")


def test_a_number_fact_in_a_heading_reads_as_the_range_its_value_stands_for():
    book = load_rulebook("skat")
    tried = {"soloist_points": [54, 65]}
    assert _merge_numbers(book, [{"soloist_points": 54}], tried) == [{"soloist_points": {"to": 60, "e.g.": 54}}]
    assert _merge_numbers(book, [{"soloist_points": 65}], tried) == [
        {"soloist_points": {"from": 61, "to": 89, "e.g.": 65}}]
    case = next(c for c in book.cases if c.name.startswith("result: an opponent gives up at 61 to 20"))
    answers = dict(case.answers, soloist_points={"unknown": [54, 65]})
    ruling = rule_dispute(Ruler(book), Dispute(answers))
    assert len(ruling.alternatives) == 2
    text = render(ruling, "text", "pl")
    assert "(łącznie z oczkami skata) – mniej niż 61 (np. 54)\n" in text
    assert "(łącznie z oczkami skata) – od 61 do 89 (np. 65)\n" in text
    # the reasons' facts under "if established": one colon, the label and value joined by a dash
    # (as the heading gives the range, not the value tried)
    assert "· jeżeli zostanie ustalone: oczka solisty przed zdarzeniem (łącznie z oczkami skata) – mniej niż 61" \
        in text
    assert not [ln for ln in text.splitlines() if "jeżeli zostanie ustalone:" in ln and ln.count(":") > 1
                and "„" not in ln]


@pytest.mark.parametrize("key", ["cited", "at_least", "less_than", "for_example"])
def test_the_new_words_are_written_in_every_language(key):
    from referee.reports.i18n import DOCUMENT
    assert all(DOCUMENT[lang].get(key) for lang in LANGS)     # none left to the English fallback


def test_an_amount_to_write_that_begins_its_line_is_capitalised_and_a_value_with_a_colon_takes_a_dash():
    ruling = _case("preferans", "gross-error-4-shortest-waived")
    rows = [r for r in document.entries(ruling, ruling.result, "sr") if r["open"] and not r["who"]]
    assert rows and all(r["amount"].startswith("Upis sledi kada se utvrdi: ") for r in rows), rows
    skat = _case("skat", "game announced first")
    rows = [r for r in document.entries(skat, skat.result, "pl") if r["open"]]
    # a player's open entry (lower case after his name) says it waits; what for is said once, below
    assert rows and all(r["amount"] == "do wpisania po ustaleniu (poniżej)" for r in rows if r["who"])
    assert any(r["amount"].startswith("Do wpisania po ustaleniu – ") for r in rows if not r["who"])
    # the soloist's game not known: the whole entry waits for it, its line begins with a capital
    book = load_rulebook("skat")
    case = next(c for c in book.cases if c.name.startswith("soloist leads before announcing, clubs meant"))
    answers = {q: v for q, v in case.answers.items() if q != "game_type"}
    ruling = rule_dispute(Ruler(book), Dispute(answers))
    rows = [r for r in document.entries(ruling, ruling.result, "pl") if r["open"] and not r["who"]]
    assert rows and rows[0]["amount"] == "Do wpisania po ustaleniu – gra solisty"
    bridge = _case("bridge", "l11b LHO passes over")
    book = bridge.book
    q, value, label = next((q, v, q.label(v, "en")) for q in book.questions.values() if q.type == "choice"
                           and isinstance((q.fact or {}).get("en"), str)
                           for v, _ in q.values if ": " in q.label(v, "en"))
    assert document._statement(bridge, q, value, "en") == f"{q.fact['en']} — {label}"


def test_a_finding_applied_only_jointly_is_not_a_reason_of_its_own():
    """Skat: the open-cards finding under 4.3.5 and 4.1.4 stands in place of 4.1.4's own and
    4.3.5's own; the reasons name those only as applied jointly."""
    ruling = _case("skat", "opponent plays open against clubs with three")
    text = render(ruling, "text", "pl")
    reasons = text[text.index("UZASADNIENIE"):text.index(words("pl")["technical"].upper())]
    heads = [ln.strip().split(". ", 1)[1] for ln in reasons.splitlines() if ln.strip()[:1].isdigit()]
    assert sum(h.startswith("Pkt. 4.3.5 –") for h in heads) == 1, heads
    assert not any(h.startswith("Pkt. 4.1.4 –") for h in heads), heads
    # applied jointly reads as applied, and names the step of the finding that applies it
    n = 1 + next(i for i, h in enumerate(heads) if h.startswith("Pkt. 4.3.5 –"))
    assert any(h.startswith("Pkt. 4.1.4: stosuje się łącznie z pkt. 4.3.5 w jednym rozstrzygnięciu, nie osobno"
                            f" (zob. punkt {n})") for h in heads), heads
    assert not any("nie stosuje się osobno, lecz" in h for h in heads), heads


def test_an_article_of_one_letter_before_a_number_is_no_reference(gentlemen):
    # Hungarian "A 40-100 bemondás …" after a colon: "a 40-100 …", not kept as if "A" named a rule
    assert document.lower_first("A 40-100 bemondás érvényes", gentlemen) == "a 40-100 bemondás érvényes"


@pytest.mark.parametrize("game, lang, chief", [("bridge", "ru", "главн"), ("skat", "pl", "główn"),
                                               ("ulti", "hu", "főjátékvezető"), ("bridge", "en", "chief referee")])
def test_the_appeal_notice_does_not_send_the_appeal_to_the_chief_referee_who_cosigns(game, lang, chief):
    """Bridge's, skat's and ulti's texts name no appeal body; the chief referee signs the ruling,
    so the notice does not make him the judge of the appeal against it (referee.toml may name one)."""
    book = load_rulebook(game)
    ruling = _case(game, book.cases[0].name)
    text = render(ruling, "text", lang)
    notice = next(line for line in text.splitlines() if line.startswith(words(lang)["appeal_notice"]))
    assert chief not in notice.lower()


def test_the_decision_names_no_offender_for_a_forfeited_claim_and_says_which_event_each_line_rules():
    """br-08's class: a forfeited (11B) finding named 'offender' in the decision; pf-06's: two
    events' lines alike."""
    from referee.reports.document import decision
    book = load_rulebook("bridge")
    base = FindingOut(production="x", provisions=[], article="Law 11B", kind="forfeited",
                      summary={"en": "The right to rectification is lost."}, offender="north",
                      penalty=[], event=0, claim="", orders=[], readings=[])
    ruling = _case("bridge", book.cases[0].name)
    lines = decision(replace(ruling, findings=[base, replace(base, event=1, kind="violation")],
                             not_ruled=[], events=[{}, {}]), "en")
    assert "Offender" not in lines[0] and lines[0].startswith("Law 11B (event 1)")
    assert "offender" in lines[1].lower() and lines[1].startswith("Law 11B (event 2)")


def test_a_fact_taken_by_default_is_not_also_listed_as_established():
    """pf-01's class: an answer nobody could establish, settled by the rules' default (Član 21),
    was printed among the facts found as if established, and again among those not established."""
    from referee.expert.interview.casefile import case_dispute
    book = load_rulebook("preferans")
    case = {"game": "preferans", "header": {"players": {"declarer": "Marko", "defender_1": "Jovan",
                                                       "defender_2": "Petar"}},
            "answers": {"deal_play": "second-drew", "game": "tref",
                        "game_mode": "talon", "deal_contra": "none", "tricks_first": 2, "tricks_second": 2,
                        "claim": ["out-of-turn"], "oot_offender": "defender_2", "oot_before_turn": "unknown",
                        "oot_after_close": False, "contra_level": "none"}}
    dispute, header, sources = case_dispute(case, book, "case.yaml")
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    assert any(u.question == "oot_before_turn" and u.has_default for u in ruling.unknown)
    text = render(ruling, "text", "sr")
    established = text[text.index("Utvrđene činjenice"):text.index("Neutvrđene činjenice")]
    assert "pre nego što je igrač bio na redu" not in established
    assert "uzima se odgovor „ne“ (član 21, stav 1; član 21, stav 2)" in text


def test_a_finding_every_alternative_shares_is_printed_once_in_a_ruling_of_several_events():
    """Two events (an early speech nobody could establish, and same-category bids): the priority
    finding stands in every alternative; the decision states it once, with its event."""
    from referee.expert.interview.casefile import case_dispute
    book = load_rulebook("ulti")
    case = {"game": "ulti", "header": {"players": {"declarer": "A", "defender_1": "B", "defender_2": "C"}},
            "answers": {"played_out": True, "game_kind": "colour", "trump": "zold", "res_parti": "not-bid",
                        "res_negyvenszaz": "won", "res_huszszaz": "not-bid", "res_ulti": "not-bid",
                        "res_durchmars": "not-bid", "res_teritett_durchmars": "not-bid"},
            "events": [{"claim": ["early-speech"], "booked": False, "phase": "bidding",
                        "offender": "defender_2", "spoke_early": "unknown", "prev_clear": True},
                       {"claim": ["priority"], "booked": False, "same_category": True}]}
    dispute, header, sources = case_dispute(case, book, "case.yaml")
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    assert ruling.alternatives
    text = render(ruling, "text", "en")
    decision = text[text.index("DECISION"):text.index("ENTRIES ON THE SCORE SHEET")]
    assert decision.count("ranking") + decision.count("Mondások") >= 1
    lines = [l for l in decision.splitlines() if "Mondások" in l]
    assert len(lines) == 1 and "(event 2)" in lines[0], lines
