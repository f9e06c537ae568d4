"""Appeals: the committee re-rules a registered ruling on amended facts; the decision names the
facts by their labels and the players by name, is saved linked to the original (never altered),
and prints and reprints as a document."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.appeal import decide_appeal, file_appeal, load_original
from referee.expert.language.dispute import Dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.rulebook import DEFAULT_ROOT, load_rulebook
from referee.expert.records.record import build_record, format_code, save_record, verify
from referee.expert.records.register import Register

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "knowledge"
ANSWERS = {"claim": ["early"], "early_who": "d1", "early_turn": False, "game": "karo"}


@pytest.fixture(scope="module")
def mini():
    return load_rulebook("mini", FIXTURES)


def books(game):
    return load_rulebook(game, FIXTURES if game == "mini" else None)


def original_record(mini, **answers):
    ruling = rule_dispute(Ruler(mini), Dispute({**ANSWERS, **answers}), {"table": 2, "deal": 9, "referee": "Ana",
                                                                      "players": {"d1": "Jovan", "d2": "Petar"}})
    return build_record(ruling, mini, date="2026-11-29", answer_times={"claim": "2026-11-29T10:00:00+00:00"})


def test_the_decision_names_what_changed_and_the_entries_per_player(mini):
    orig = original_record(mini)
    dec, ruling, amendment = decide_appeal(orig, ["game=pik", "early_who=d2"], mini, note="pik; d2")
    ap = dec["appeal"]
    assert dec["kind"] == "appeal" and dec["appeal_of"] == orig["code"]
    assert [(c["question"], c["before"], c["after"]) for c in ap["amended"]] == [
        ("game", "karo", "pik"), ("early_who", "d1", "d2")]
    [changed] = ap["differences"]["changed"]
    assert changed["before"]["penalty"][0] == {"player": "d1", "effect": "bula", "amount": 6}
    assert changed["after"]["penalty"][0] == {"player": "d2", "effect": "bula", "amount": 4}
    assert not ap["rulebook_changed"] and ap["note"] == "pik; d2"
    assert dec["answer_times"]["claim"] == "2026-11-29T10:00:00+00:00"      # kept from the original
    assert dec["answer_times"]["game"] == ruling.ruled_at                    # amended now


def test_an_amended_fact_that_closes_a_question_drops_its_answer(mini):
    orig = original_record(mini)
    dec, _, amendment = decide_appeal(orig, ["claim=bad-game"], mini)
    assert {c.question for c in amendment.dropped} == {"early_who", "early_turn"}
    assert any(c.get("dropped") and c["question"] == "early_who" for c in dec["appeal"]["amended"])


def test_file_appeal_saves_linked_and_original_unaltered(mini, tmp_path):
    orig = original_record(mini)
    with Register(tmp_path / "reg.sqlite") as reg:
        oid = reg.save(orig)
        dec, aid, oid2, *_ = file_appeal(orig["code"], ["game=pik"], reg, books, note="n")
        assert oid2 == oid and aid != oid
        shown = reg.show(oid)
        assert shown["record"] == orig                                       # never altered
        assert [a["id"] for a in shown["appeals"]] == [aid] and shown["appeals"][0]["note"] == "n"
        assert reg.show(aid)["original"] == {"id": oid, "code": orig["code"]}
        assert verify(orig, reg).ok and verify(dec, reg).ok
        s = reg.stats()
        assert s["rulings"] == 1 and s["appeals"] == 1 and s["rulings_appealed"] == 1
        # by number works too, and an appeal of the appeal links to it
        _, aid2, *_ = file_appeal(str(aid), ["early_who=d2"], reg, books)
        assert reg.show(aid2)["original"]["id"] == aid


def test_file_appeal_from_a_record_file_needs_its_ruling_in_the_register(mini, tmp_path):
    """A record file's code is a hash anyone can compute: only a registered ruling is appealed."""
    orig = original_record(mini)
    path = save_record(orig, tmp_path / "ruling.json")
    with Register(tmp_path / "reg.sqlite") as reg:
        with pytest.raises(RefereeError, match="not in the register"):
            file_appeal(str(path), ["game=pik"], reg, books)
        assert reg.count() == 0
        oid = reg.save(orig)
        _, _, oid2, *_ = file_appeal(str(path), ["game=pik"], reg, books)
        assert oid2 == oid and reg.get(oid)[1] == orig and reg.count() == 2


def test_appeal_refuses_an_altered_record_and_garbage(mini, tmp_path):
    orig = original_record(mini)
    orig["findings"][0]["penalty"][0]["amount"] = 1
    with pytest.raises(RefereeError, match="altered"):
        load_original(orig)
    with Register(tmp_path / "reg.sqlite") as reg:
        for ref in ("AAAAA-AAAAA", "42"):
            with pytest.raises(RefereeError):
                file_appeal(ref, ["game=pik"], reg, books)
        assert reg.count() == 0
    with pytest.raises(RefereeError, match="early_who"):
        decide_appeal(original_record(mini), ["early_who=nobody"], mini)


def test_interrupted_appeal_save_leaves_nothing(mini, tmp_path):
    orig = original_record(mini)
    with Register(tmp_path / "reg.sqlite") as reg:
        reg.save(orig)
        dec, *_ = decide_appeal(orig, ["game=pik"], mini)

        def hook(stage):
            if stage == "appeal-ruling-saved":
                raise KeyboardInterrupt
        reg._save_hook = hook
        with pytest.raises(KeyboardInterrupt):
            reg.save_appeal(dec, orig)
        reg._save_hook = None
        assert reg.count() == 1 and reg.integrity() == "ok"                  # the original alone
        reg.save_appeal(dec, orig)
        assert reg.count() == 2


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def test_preferans_appeal_prints_a_document_without_internal_ids(tmp_path):
    """Član 7: a defender declared out of turn. On appeal the committee finds it was the other
    defender, and the game was pik: the document names them, the entries move per player."""
    case = tmp_path / "case.yaml"
    case.write_text("game: preferans\nheader: {table: '5', deal: '17', referee: Ana, players: "
                    "{declarer: Marko, defender_1: Jovan, defender_2: Milica}}\n"
                    "answers: {claim: [out-of-turn], oot_offender: defender_2, oot_before_turn: true, "
                    "game: karo, game_mode: talon, contra_level: none}\n")
    reg = tmp_path / "reg.sqlite"
    assert run("rule", case, "--register", reg).exit_code == 0
    result = run("appeal", "1", "--set", "oot_offender=defender_1", "--set", "game=pik", "--register", reg,
                 "--note", "it was the first defender; pik", "--referee", "Komisija")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "DECISION OF THE APPEALS COMMITTEE" in text and "Decided by: Komisija" in text
    assert "karo → pik" in text and "defender_2 → defender_1" not in text
    assert "Milica (second defender, second to declare on following, just before the declarer) — bula: +6 → —" in text
    assert "Jovan (first defender, first to declare on following, next after the declarer) — bula: — → +4" in text
    front = text[:text.index("ANNEX")]
    assert "oot_offender" not in front and "preferans:7" not in front          # no ids before the annex
    # ids only in the technical record that closes the annex
    body = text[:text.index("TECHNICAL RECORD (FOR RULE AUTHORS)")]
    assert "preferans:" not in body and "Član 7, stav 7: preferans:7.out-of-turn" in text
    assert "Member of the appeals committee\n    Name: Komisija\n    Signature: ____" in text
    # reprinted from its record, exactly as decided
    again = run("reprint", "2", "--register", reg)
    assert again.exit_code == 0 and again.stdout.rstrip("\n").endswith(text.rstrip("\n").split("\n")[-1])
    assert "DECISION OF THE APPEALS COMMITTEE" in again.stdout
    with Register(reg) as r:
        assert [p["id"] for p in r.precedents("preferans:7.out-of-turn")] == [1, 2]


def test_an_appeal_that_opens_a_question_decides_nothing(tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(f"game: mini\nanswers: {json.dumps(ANSWERS)}\n")
    reg = tmp_path / "reg.sqlite"
    assert run("rule", case, "--register", reg, "--knowledge", FIXTURES).exit_code == 0
    refused = run("appeal", "1", "--set", "early_turn=", "--register", reg, "--knowledge", FIXTURES)
    assert refused.exit_code == 3 and "open questions the interview would ask: early_turn" in refused.stderr
    with Register(reg) as r:
        assert r.count() == 1                                                # nothing saved
    ok = run("appeal", "1", "--set", "early_turn=", "--allow-incomplete", "--format", "json", "--register", reg,
             "--knowledge", FIXTURES)
    assert ok.exit_code == 0 and json.loads(ok.stdout)["appeal"]["opened"] == ["early_turn"]


def test_answers_from_the_cards_stay_marked_unless_amended(tmp_path):
    case = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
    reg = tmp_path / "reg.sqlite"
    assert run("rule", case, "--register", reg).exit_code == 0
    dec = json.loads(run("appeal", "1", "--set", "volunteered=yes", "--format", "json", "--register", reg).stdout)
    assert dec["answers"]["volunteered"] is True and dec["appeal_of"]
    assert format_code(dec["code"]) in run("register", "show", "2", "--register", reg).stdout
