"""Appeals: re-ruling on amended facts, the differences, the link to the original."""
import json
from pathlib import Path

import pytest

from referee.expert.interview.appeal import (decide_appeal, differences, file_appeal, format_appeal,
                           load_original, parse_sets)
from referee.expert.language.errors import RefereeError
from referee.expert.records.record import build_record, compute_code, format_code, save_record, verify
from referee.expert.records.register import Register

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "knowledge"

# ------------------------------------------------------------------ a toy rulebook, plain data

TOY = {
    "game": "toy", "edition": "1", "hash": "sha256:" + "1" * 64,
    "seats": ["declarer", "d1", "d2"],
    "questions": {
        "claim": {"type": "multi", "values": [{"value": "early"}, {"value": "revoke"}]},
        "who": {"type": "seat"},
        "game": {"type": "choice", "values": [{"value": "pik"}, {"value": "karo"}]},
        "before_turn": {"type": "yesno"},
        "tricks": {"type": "number", "min": 0, "max": 10},
        "remark": {"type": "text"},
    },
}
VALUE = {"pik": 4, "karo": 6}


def toy_rule(answers, header):
    findings, not_ruled = [], []
    claim = answers.get("claim") or []
    if "early" in claim and answers.get("before_turn") and answers.get("who"):
        findings.append({"provisions": ["toy:1.early"], "article": "Rule 1", "kind": "violation",
                         "summary": "spoke early", "offender": answers["who"],
                         "penalty": [{"player": answers["who"], "effect": "bula",
                                      "amount": VALUE.get(answers.get("game"), 0)}]})
    if "revoke" in claim:
        findings.append({"provisions": ["toy:2.revoke"], "article": "Rule 2",
                         "kind": "violation-no-penalty", "summary": "revoke", "penalty": []})
    return {"game": "toy", "findings": findings, "not_ruled": not_ruled,
            "no_infraction": not findings, "answers": dict(answers),
            "trail": [{"production": "p", "cites": [], "facts": sorted(answers)}],
            "header": dict(header or {})}


def original_record(**answers):
    a = {"claim": ["early"], "who": "d1", "before_turn": True, "game": "karo"}
    a.update(answers)
    return build_record(toy_rule(a, {}), TOY, referee="Ana", table=4, deal=7,
                        date="2026-11-29", answer_times={"claim": "2026-11-29T10:00:00+00:00"})


def test_parse_sets_reads_each_type():
    got = parse_sets(["who=d2", "game=pik", "before_turn=no", "tricks=7",
                      "claim=early,revoke", "remark=looked at the cards"], TOY)
    assert got == {"who": "d2", "game": "pik", "before_turn": False, "tricks": 7,
                   "claim": ["early", "revoke"], "remark": "looked at the cards"}
    assert parse_sets(["who="], TOY) == {"who": None}  # found unanswered


@pytest.mark.parametrize("bad", ["nope=1", "who", "who=east", "game=sans", "before_turn=maybe",
                                 "tricks=x", "tricks=11", "claim=early,early", "claim=early,x"])
def test_parse_sets_refuses_bad_input(bad):
    with pytest.raises(RefereeError) as e:
        parse_sets([bad], TOY)
    assert "\n" not in str(e.value)


def test_parse_sets_needs_something():
    with pytest.raises(RefereeError):
        parse_sets([], TOY)
    with pytest.raises(RefereeError):
        parse_sets(["who=d1", "who=d2"], TOY)


def test_appeal_changes_penalty_and_keeps_original():
    orig = original_record()
    frozen = json.dumps(orig, sort_keys=True)
    dec = decide_appeal(orig, ["game=pik"], note="game was pik", rulebook=TOY, rule=toy_rule,
                        now="2026-11-29T18:00:00+00:00")
    assert json.dumps(orig, sort_keys=True) == frozen  # the original is untouched
    assert dec["kind"] == "appeal" and dec["appeal_of"] == orig["code"]
    assert dec["code"] == compute_code(dec) and dec["code"] != orig["code"]
    assert dec["answers"]["game"] == "pik" and dec["answer_times"]["game"] == "2026-11-29T18:00:00+00:00"
    assert dec["answer_times"]["claim"] == "2026-11-29T10:00:00+00:00"
    assert (dec["table"], dec["deal"], dec["referee"]) == (4, 7, "Ana")
    ap = dec["appeal"]
    assert ap["note"] == "game was pik"
    assert ap["amended"] == [{"question": "game", "before": "karo", "after": "pik", "changed": True}]
    assert ap["original"]["findings"] == orig["findings"]
    d = ap["differences"]
    assert d["findings_added"] == [] and d["findings_removed"] == []
    assert len(d["findings_changed"]) == 1
    assert d["penalties"] == [{"player": "d1", "effect": "bula", "before": 6, "after": 4,
                               "count_before": 1, "count_after": 1, "change": -2}]
    assert ap["rulebook_changed"] is False
    text = format_appeal(dec)
    for part in ("Original ruling:", "Amended facts:", "game: karo → pik", "New ruling:",
                 "penalty d1 bula: 6 → 4 (-2)", dec["code"][:5]):
        assert part in text


def test_appeal_removes_and_adds_findings():
    orig = original_record()
    dec = decide_appeal(orig, {"before_turn": False, "claim": ["early", "revoke"]},
                        rulebook=TOY, rule=toy_rule)
    d = dec["appeal"]["differences"]
    assert [f["provisions"] for f in d["findings_removed"]] == [["toy:1.early"]]
    assert [f["provisions"] for f in d["findings_added"]] == [["toy:2.revoke"]]
    assert d["penalties"][0]["change"] == -6
    # no infraction either way
    dec2 = decide_appeal(orig, {"before_turn": False}, rulebook=TOY, rule=toy_rule)
    assert dec2["no_infraction"] is True
    assert dec2["appeal"]["differences"]["no_infraction"] == {"before": False, "after": True}
    # nothing changes
    dec3 = decide_appeal(orig, {"who": "d1"}, rulebook=TOY, rule=toy_rule)
    assert dec3["appeal"]["differences"]["unchanged"] is True
    assert "none: the amended facts do not change the ruling" in format_appeal(dec3)


def test_unset_answer_and_rulebook_change_are_shown():
    orig = original_record()
    newer = dict(TOY, edition="2", hash="sha256:" + "2" * 64)
    dec = decide_appeal(orig, ["who="], rulebook=newer, rule=toy_rule)
    assert "who" not in dec["answers"] and "who" not in dec["answer_times"]
    assert dec["appeal"]["amended"][0]["after"] is None
    assert dec["appeal"]["rulebook_changed"] is True
    assert "rulebook changed" in format_appeal(dec)


def test_differences_counts_repeated_effects_without_amounts():
    a = {"findings": [{"kind": "violation", "provisions": ["x"],
                       "penalty": [{"player": "d1", "effect": "forced-pass", "amount": None}]}]}
    b = {"findings": []}
    d = differences(a, b)
    assert d["penalties"] == [{"player": "d1", "effect": "forced-pass", "before": None,
                               "after": None, "count_before": 1, "count_after": 0}]


def test_file_appeal_saves_linked_and_original_unaltered(tmp_path):
    orig = original_record()
    with Register(tmp_path / "reg.sqlite") as reg:
        oid = reg.save(orig)
        dec, aid, oid2 = file_appeal(orig["code"], ["game=pik"], reg, note="n",
                                     rulebook=TOY, rule=toy_rule)
        assert oid2 == oid and aid != oid
        shown = reg.show(oid)
        assert shown["record"] == orig  # never altered
        assert [a["id"] for a in shown["appeals"]] == [aid]
        assert shown["appeals"][0]["note"] == "n"
        assert shown["appeals"][0]["amended"][0]["question"] == "game"
        assert reg.show(aid)["original"] == {"id": oid, "code": orig["code"]}
        assert verify(orig, reg).ok and verify(dec, reg).ok
        s = reg.stats()
        assert s["rulings"] == 1 and s["appeals"] == 1 and s["rulings_appealed"] == 1
        assert [r["id"] for r in reg.list(kind="appeal")] == [aid]
        # by number works too, and an appeal of the appeal links to it
        dec2, aid2, _ = file_appeal(str(aid), ["who=d2"], reg, rulebook=TOY, rule=toy_rule)
        assert reg.show(aid2)["original"]["id"] == aid


def test_file_appeal_from_record_file_needs_its_ruling_in_the_register(tmp_path):
    """A record file's code is a hash anyone can compute: only a registered ruling is appealed."""
    orig = original_record()
    path = save_record(orig, tmp_path / "ruling.json")
    with Register(tmp_path / "reg.sqlite") as reg:
        with pytest.raises(RefereeError, match="not in the register"):
            file_appeal(str(path), ["game=pik"], reg, rulebook=TOY, rule=toy_rule)
        assert reg.count() == 0
        oid = reg.save(orig)
        dec, aid, oid2 = file_appeal(str(path), ["game=pik"], reg, rulebook=TOY, rule=toy_rule)
        assert oid2 == oid and reg.get(oid)[1] == orig and reg.count() == 2


def test_appeal_refuses_an_altered_record(tmp_path):
    orig = original_record()
    orig["findings"][0]["penalty"][0]["amount"] = 1
    with pytest.raises(RefereeError, match="altered"):
        load_original(orig)
    with Register(tmp_path / "reg.sqlite") as reg:
        with pytest.raises(RefereeError):
            file_appeal("AAAAA-AAAAA", ["game=pik"], reg, rulebook=TOY, rule=toy_rule)
        with pytest.raises(RefereeError):
            file_appeal("42", ["game=pik"], reg, rulebook=TOY, rule=toy_rule)
        assert reg.count() == 0


def test_interrupted_appeal_save_leaves_nothing(tmp_path):
    orig = original_record()
    with Register(tmp_path / "reg.sqlite") as reg:
        reg.save(orig)
        dec = decide_appeal(orig, ["game=pik"], rulebook=TOY, rule=toy_rule)

        def hook(stage):
            if stage == "appeal-ruling-saved":
                raise KeyboardInterrupt

        reg._save_hook = hook
        with pytest.raises(KeyboardInterrupt):
            reg.save_appeal(dec, orig)
        reg._save_hook = None
        assert reg.count() == 1 and reg.integrity() == "ok"  # the original alone
        reg.save_appeal(dec, orig)
        assert reg.count() == 2


# ------------------------------------------------------------------ through the real engine

def test_record_and_appeal_through_the_engine(tmp_path):
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.engine.ruler import Ruler
    book = load_rulebook("mini", root=FIXTURES)
    answers = {"claim": ["early"], "early_who": "d1", "early_turn": False, "game": "karo"}
    ruling = Ruler(book).rule(answers, {"table": 2, "deal": 9, "referee": "Ana"})
    rec = build_record(ruling, book, date="2026-11-29")
    assert rec["rulebook"]["game"] == "mini" and rec["rulebook"]["edition"] == "test"
    assert rec["findings"][0]["penalty"][0] == {"player": "d1", "effect": "bula", "amount": 6}
    assert rec["trail"] and rec["table"] == 2
    with Register(tmp_path / "reg.sqlite") as reg:
        oid = reg.save(rec)
        assert [r["id"] for r in reg.search(provision="mini:1.early")] == [oid]
        dec, aid, _ = file_appeal(rec["code"], ["game=pik", "early_who=d2"], reg, root=FIXTURES)
        d = dec["appeal"]["differences"]
        by = {(p["player"], p["effect"]): p for p in d["penalties"]}
        assert by[("d1", "bula")]["after"] is None and by[("d1", "bula")]["before"] == 6
        assert by[("d2", "bula")]["after"] == 4
        assert not dec["appeal"]["rulebook_changed"]
        assert reg.show(oid)["appeals"][0]["id"] == aid
        with pytest.raises(RefereeError, match="early_who"):
            file_appeal(rec["code"], ["early_who=nobody"], reg, root=FIXTURES)


def test_preferans_out_of_turn_appeal_through_the_engine(tmp_path):
    """Član 7: a defender declared out of turn. On appeal the committee finds it was the
    other defender, and the game was pik, not karo: bula and supe move, amounts follow."""
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.engine.ruler import Ruler
    book = load_rulebook("preferans")
    answers = {"claim": ["out-of-turn"], "oot_offender": "defender_2", "oot_before_turn": True,
               "game": "karo", "game_mode": "talon", "contra_level": "none"}
    header = {"tournament": "Kup", "table": "5", "deal": "17", "referee": "Ana",
              "players": {"defender_1": "Jovan", "defender_2": "Milica"}}
    ruling = Ruler(book).rule(answers, header)
    rec = build_record(ruling, book, answer_times={q: "2026-11-29T15:00:00+00:00" for q in answers})
    assert rec["rulebook"]["game"] == "preferans" and rec["rulebook"]["edition"] == book.edition
    pen = {(p["player"], p["effect"]): p["amount"] for f in rec["findings"] for p in f["penalty"]}
    assert pen[("defender_2", "bula")] == 6
    with Register(tmp_path / "reg.sqlite") as reg:
        oid = reg.save(rec)
        assert [r["id"] for r in reg.search(provision="preferans:7.out-of-turn")] == [oid]
        assert [r["id"] for r in reg.search(player="milica")] == [oid]
        dec, aid, _ = file_appeal(format_code(rec["code"]), ["oot_offender=defender_1", "game=pik"],
                                  reg, note="it was the first defender; pik")
        by = {(p["player"], p["effect"]): p for p in dec["appeal"]["differences"]["penalties"]}
        assert by[("defender_2", "bula")]["after"] is None
        assert by[("defender_1", "bula")]["after"] == 4
        assert dec["appeal"]["rulebook_changed"] is False
        assert reg.get(oid)[1] == rec and verify(rec, reg, rulebook=book).rulebook_current
        text = format_appeal(dec)
        assert "oot_offender: defender_2 → defender_1" in text and "game: karo → pik" in text
        prec = reg.precedents("preferans:7.out-of-turn")
        assert [p["id"] for p in prec] == [oid, aid]


def test_answers_from_the_cards_stay_marked_unless_amended():
    calls = []

    def rule(answers, header, from_cards=None):
        calls.append(from_cards)
        r = toy_rule(answers, header)
        r["from_cards"] = dict(from_cards or {})
        return r

    r = toy_rule({"claim": ["early"], "who": "d1", "before_turn": True, "game": "karo"}, {})
    r["from_cards"] = {"who": ["d1 led to trick 3"], "game": ["contract: 6 karo"]}
    orig = build_record(r, TOY)
    assert orig["from_cards"] == r["from_cards"]
    dec = decide_appeal(orig, {"who": "d2"}, rulebook=TOY, rule=rule)
    assert calls[-1] == {"game": ["contract: 6 karo"]}
    assert dec["from_cards"] == {"game": ["contract: 6 karo"]}
