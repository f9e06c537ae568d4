"""Case files and YAML 1.1: a request's bare `on: S` (as the README once showed it) is read by
YAML as the key true; the loader reads it back as "on". Any other key YAML turned into a boolean
is refused in one line saying why and how to write it."""
import re
from pathlib import Path

import yaml
from click.testing import CliRunner

from referee.cli import main
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.casefile import case_dispute, read_case
from referee.expert.language.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parent.parent
PASS_AT_RHO_TURN = ("{deal_stage: auction, claim: [pass-out-of-turn], offender: S, l30_out_of_turn: true, "
                    "l30_bid_before: true, l30_conventional: false, l30_turn: rho, l30_suit_shown: false, "
                    "l11_lho_acted: false, l11_attention: player, l11a_gain: false}")


def test_a_bare_on_in_a_request_is_read_as_on(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("game: bridge\nanswers: " + PASS_AT_RHO_TURN + "\nrequests:\n"
                    "  - {party: E, asks: \"effect:forced_pass\", on: S, scope: rest_of_auction}\n", encoding="utf-8")
    assert True in yaml.safe_load(path.read_text(encoding="utf-8"))["requests"][0]     # the trap itself
    book = load_rulebook("bridge")
    dispute, header, sources = case_dispute(read_case(path), book, path)
    assert dispute.requests[0].on == "S"
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    assert [r.to_dict()["on"] for r in ruling.requests] == ["S"]


def test_another_boolean_key_is_refused_saying_why(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("game: bridge\nanswers: " + PASS_AT_RHO_TURN + "\nrequests:\n"
                    "  - {party: E, asks: \"effect:forced_pass\", off: S}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["rule", str(path), "--no-register"])
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in result.output
    assert err.startswith(f"error: {path}:4: ") and "read by YAML as false" in err and 'in quotes ("off"' in err


def test_the_readmes_case_file_examples_have_no_boolean_keys(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "requests:" in b]
    assert blocks
    for block in blocks:
        data = yaml.safe_load(block)

        def keys(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    yield k
                    yield from keys(v)
            elif isinstance(node, list):
                for v in node:
                    yield from keys(v)
        assert not [k for k in keys(data) if isinstance(k, bool)]
        assert any(r.get("on") for r in data["requests"])
        # the commented bridge line too
        for line in re.findall(r"# bridge: (\{.*\})", block):
            assert yaml.safe_load(line)["on"] == "S"
