"""Ruling records: canonical JSON, verification codes, rulebook hash, verify()."""
import json
import types

import pytest

from referee.expert.language.errors import RefereeError
from referee.expert.records.record import (CODE_LENGTH, build_record, canonical_json, compute_code,
                           diff_fields, format_code, load_record, normalize_code,
                           rulebook_hash, save_record, verify)
from referee.expert.records.register import Register


def make_rulebook(tmp_path, text="edition: '1'\n"):
    root = tmp_path / "kb" / "toy"
    (root / "articles").mkdir(parents=True)
    (root / "rulebook.yaml").write_text("game: toy\n" + text, encoding="utf-8")
    (root / "articles" / "01-a.yaml").write_text("article: Član 1\n", encoding="utf-8")
    files = [str(root / "rulebook.yaml"), str(root / "articles" / "01-a.yaml")]
    return types.SimpleNamespace(game="toy", edition="1", files=files, questions={})


RULING = {
    "game": "toy",
    "findings": [{"provisions": ["toy:1.late"], "article": "Član 1", "kind": "violation",
                  "summary": {"en": "Late.", "sr": "Kasno."}, "offender": "east",
                  "penalty": [{"player": "east", "effect": "bula", "amount": 6}]}],
    "not_ruled": [],
    "no_infraction": False,
    "answers": {"claim": ["late"], "offender": "east"},
    "trail": [{"production": "late", "cites": ["toy:1.late"], "facts": ["claim", "offender"]}],
    "header": {"tournament": "Open", "table": 3, "deal": 12, "referee": "Ana"},
}


def test_canonical_json_is_sorted_and_compact():
    assert canonical_json({"b": 1, "a": [1, {"d": "č", "c": None}]}) == \
        '{"a":[1,{"c":null,"d":"č"}],"b":1}'


def test_record_has_everything_and_a_code(tmp_path):
    rb = make_rulebook(tmp_path)
    rec = build_record(RULING, rb, answer_times={"claim": "2026-11-29T10:00:00+00:00"},
                       cards={"east": ["AS", "KS"]}, date="2026-11-29")
    assert rec["rulebook"]["game"] == "toy" and rec["rulebook"]["edition"] == "1"
    assert rec["rulebook"]["hash"].startswith("sha256:")
    assert rec["answers"] == RULING["answers"]
    assert rec["answer_times"] == {"claim": "2026-11-29T10:00:00+00:00", "offender": None}
    assert rec["cards"] == {"east": ["AS", "KS"]}
    assert rec["findings"] == RULING["findings"] and rec["trail"] == RULING["trail"]
    assert (rec["referee"], rec["table"], rec["deal"], rec["date"]) == ("Ana", 3, 12, "2026-11-29")
    assert len(rec["code"]) == CODE_LENGTH and rec["code"] == compute_code(rec)
    # the code is over the canonical JSON without the code field
    import base64, hashlib
    body = {k: v for k, v in rec.items() if k != "code"}
    digest = hashlib.sha256(canonical_json(body).encode()).digest()
    assert rec["code"] == base64.b32encode(digest).decode()[:10]


def test_code_changes_with_any_field(tmp_path):
    rb = make_rulebook(tmp_path)
    rec = build_record(RULING, rb, created="2026-11-29T10:00:00+00:00")
    again = build_record(RULING, rb, created="2026-11-29T10:00:00+00:00")
    assert rec["code"] == again["code"]  # deterministic
    other = json.loads(json.dumps(rec))
    other["findings"][0]["penalty"][0]["amount"] = 4
    assert compute_code(other) != rec["code"]


def test_rulebook_hash_depends_on_content_not_location(tmp_path):
    a = make_rulebook(tmp_path / "one")
    b = make_rulebook(tmp_path / "two")
    assert rulebook_hash(a.files) == rulebook_hash(b.files)
    assert rulebook_hash(a.files) == rulebook_hash(list(reversed(a.files)))
    c = make_rulebook(tmp_path / "three", text="edition: '2'\n")
    assert rulebook_hash(c.files) != rulebook_hash(a.files)


def test_code_printing_and_reading():
    code = "ABCDEFGH23"
    assert format_code(code) == "ABCDE-FGH23"
    assert normalize_code("abcde-fgh23") == code
    assert normalize_code(" ABCDE FGH23 ") == code
    assert normalize_code("0BCDE-FGH23") == "OBCDEFGH23"  # 0 read as O
    for bad in ("ABC", "ABCDEFGH2X!", "ABCDEFGHIJK"):
        with pytest.raises(RefereeError):
            normalize_code(bad)


def test_diff_fields_names_paths():
    a = {"x": 1, "f": [{"p": [1, 2]}], "y": "s"}
    b = {"x": 2, "f": [{"p": [1, 3]}], "z": 0, "y": "s"}
    assert set(diff_fields(a, b)) == {"f[0].p[1]", "x", "z"}


def test_verify_record_and_code_against_register(tmp_path):
    rb = make_rulebook(tmp_path)
    rec = build_record(RULING, rb)
    with Register(tmp_path / "reg.sqlite") as reg:
        rid = reg.save(rec)
        # the record itself
        v = verify(rec, reg)
        assert v.ok and v.status == "matches" and v.ruling_id == rid
        # the printed code, typed in lower case with the hyphen
        v = verify(format_code(rec["code"]).lower(), reg)
        assert v.ok and v.ruling_id == rid
        # a record file
        path = save_record(rec, tmp_path / "r.json")
        assert verify(str(path), reg).ok
        assert load_record(path) == rec
        # an altered record: the fields that differ are named
        bad = json.loads(json.dumps(rec))
        bad["findings"][0]["penalty"][0]["amount"] = 2
        bad["referee"] = "Mallory"
        v = verify(bad, reg)
        assert not v.ok and v.status == "differs"
        assert set(v.differences) == {"findings[0].penalty[0].amount", "referee"}
        assert "referee" in v.message
        # altered and re-sealed: still caught, the register has no such code...
        from referee.expert.records.record import seal
        resealed = seal(json.loads(json.dumps(bad)))
        v = verify(resealed, reg)
        assert not v.ok and v.status == "unregistered"
        # ...and a code nobody issued
        v = verify("AAAAA-AAAAA", reg)
        assert not v.ok and v.status == "unknown-code"


def test_verify_without_register_checks_the_seal(tmp_path):
    rec = build_record(RULING, make_rulebook(tmp_path))
    # consistent with its own code, but anyone can compute that: not a verified ruling
    assert verify(rec).status == "unregistered" and not verify(rec).ok
    rec["deal"] = 13
    v = verify(rec)
    assert not v.ok and v.status == "altered"


def test_bad_inputs_are_referee_errors(tmp_path):
    with pytest.raises(RefereeError):
        verify("not-a-code")
    (tmp_path / "x.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(RefereeError) as e:
        load_record(tmp_path / "x.json")
    assert "x.json:1" in str(e.value)
    (tmp_path / "y.json").write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(RefereeError):
        verify(str(tmp_path / "y.json"))
    with pytest.raises(RefereeError):
        verify(str(tmp_path / "missing.json"))
    with pytest.raises(RefereeError):
        build_record({"game": "other", "findings": []}, make_rulebook(tmp_path))


def test_verify_says_whether_the_rulebook_changed(tmp_path):
    from referee.reports.register_views import verification_text
    rb = make_rulebook(tmp_path)
    rec = build_record(RULING, rb)
    with Register(tmp_path / "reg.sqlite") as reg:
        reg.save(rec)
        v = verify(rec["code"], reg, rulebook=rb)
        assert v.ok and v.rulebook_current is True
        assert "rulebook is unchanged" in verification_text(v)
        (tmp_path / "kb" / "toy" / "articles" / "01-a.yaml").write_text("article: Član 1 (new)\n")
        v = verify(rec, reg, rulebook=rb)
        assert v.ok and v.rulebook_current is False
        assert "rulebook has changed" in verification_text(v)
