"""Blind walk 8 (su, U1): every player at the table is on the ruling's score sheet. The innocent
defender, whom the text leaves at zero ("A védőtárs nullán marad", Renonszok, záró rész 3), was
missing; he is written 0 on the line the deal writes for everyone. Skat writes only the
soloist's line, and bridge a side's score: no 0 is invented there."""
from __future__ import annotations

from case_helpers import rule_case
from referee.expert.engine.result import every_seat_item
from referee.expert.language.rulebook import load_rulebook
from referee.reports import document
from referee.reports.render import render

U1 = {"game_kind": "colour", "trump": "makk", "claim": ["revoke"], "booked": False, "offender": "defender_1",
      "revoke_kind": "not-follow", "could_comply": True, "card_visible": True, "st_parti": "open",
      "st_negyvenszaz": "not-bid", "st_huszszaz": "not-bid", "st_ulti": "open", "st_durchmars": "not-bid",
      "st_teritett_durchmars": "not-bid"}
ULTI_NAMES = {"players": {"declarer": "Sandor", "defender_1": "Endre", "defender_2": "Vilmos"}}


def _sheet(text: str) -> str:
    return text.split("ENTRIES ON THE SCORE SHEET", 1)[1].split("ARTICLES APPLIED", 1)[0]


def test_the_innocent_defender_stays_at_zero_on_the_sheet(tmp_path):
    ruling = rule_case(tmp_path, "ulti", {"header": ULTI_NAMES, "answers": U1})
    # the engine's result is unchanged: the payment, nothing for Vilmos
    assert "defender_2" not in {e.player for e in ruling.result.entries}
    sheet = _sheet(render(ruling, "text"))
    lines = [line.strip() for line in sheet.splitlines() if line.strip().startswith("- ")]
    assert lines[-1] == ("- Vilmos (second defender, védő: plays right before the felvevő) — units, net for "
                         "this deal: 0")
    assert [line.split(" (")[0] for line in lines] == ["- Sandor", "- Sandor", "- Endre", "- Vilmos"]
    hu = _sheet(render(ruling, "text", lang="hu").replace("BEÍRÁS A JEGYZŐKÖNYVBE", "ENTRIES ON THE SCORE SHEET")
                .replace("ALKALMAZOTT SZABÁLYOK", "ARTICLES APPLIED"))
    assert "Vilmos (második védő, a felvevő előtt ül) – a leosztás egyenlege (egység): 0" in hu


def test_a_preferans_player_the_deal_leaves_untouched_is_written_zero_bula():
    book = load_rulebook("preferans")
    case = next(c for c in book.cases if c.name.startswith("pik with talon, no contra, no refe: four bula down"))
    from referee.expert.authoring.casebook import run_case
    from referee.expert.engine.ruler import Ruler
    ruling = run_case(Ruler(book), case).ruling
    rows = [(r["who"].split(" (")[0], r["item"], r["amount"]) for r in document.entries(ruling, ruling.result, "en")]
    assert len(rows) == 3 and rows[0][2] == "−4"
    assert [r[2] for r in rows[1:]] == ["0", "0"] and all(r[1] == "bula" for r in rows)


def test_no_zero_is_invented_where_a_player_has_no_line_or_nothing_is_written(tmp_path):
    # skat: only the soloist has a line; bridge: a side's score is a result, not a change
    assert every_seat_item(load_rulebook("skat")) is None
    assert every_seat_item(load_rulebook("bridge")) is None
    ruling = rule_case(tmp_path, "skat", {"answers": {
        "game_type": "clubs", "matadors_with": "with", "matadors": 1, "hand": "not_hand", "announced": "none",
        "required_level": "none", "claim": ["revoke"], "offender": "opponent_1", "could_follow": True,
        "revoke_found": "later_in_play", "cards_mixed": False, "points_counted": True,
        "soloist_points": 41, "opponents_points": 14}})
    assert [r["amount"] for r in document.entries(ruling, ruling.result, "en")] == ["+24"]
    # nothing written at all: "no entry changes", not a 0 for everyone
    quiet = rule_case(tmp_path, "ulti", {"header": ULTI_NAMES, "answers": {
        "played_out": False, "claim": ["information"], "booked": False, "phase": "play",
        "info_offender": "defender_2", "info_helpful": False}})
    assert document.entries(quiet, quiet.result, "en") == []
