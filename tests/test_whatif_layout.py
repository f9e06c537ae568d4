"""`referee whatif` as text reads in an 80-column terminal: each finding, each of its effects and
each reading on its own lines, wrapped with a hanging indent; the next heading never runs onto
the last reading (a macro's output printed through {{ }} was put on one line)."""
import yaml
from click.testing import CliRunner

from referee.cli import main

SIGNAL_DISCARD_UNKNOWN = {
    "claim": ["bad-play"], "game": "herc", "game_mode": "talon", "contra_level": "none",
    "deal_play": "both", "deal_contra": "none", "tricks_first": 3, "tricks_second": 1,
    "play_offender": "defender_1", "play_error": "gross-2", "error_caused_fall": True,
    "signal_discard": True, "could_not_know": "unknown", "gentlemen": False}
OUT_OF_TURN = {"claim": ["out-of-turn"], "oot_offender": "defender_2", "oot_before_turn": True, "game": "karo",
               "game_mode": "talon", "contra_level": "none"}


def whatif(tmp_path, answers, *sets):
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump({"game": "preferans", "answers": answers}, allow_unicode=True), encoding="utf-8")
    args = ["whatif", str(path)]
    for s in sets:
        args += ["--set", s]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_new_finding_its_effects_and_reading_each_start_a_line(tmp_path):
    out = whatif(tmp_path, SIGNAL_DISCARD_UNKNOWN, "could_not_know=no")
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80, [line for line in lines if len(line) > 80]
    assert "  + Član 12, stav 2 [Violation established; penalty prescribed]" in lines
    effects = [line for line in lines if line.startswith("      ") and not line.startswith("       ")]
    assert any(line.startswith("      first defender (") for line in effects)
    assert any(line.startswith("      second defender (") for line in effects)
    assert any(line.startswith("      Reading of the text: ") for line in effects)
    assert "Changes per player:" in lines                  # its own line, not after the reading
    assert lines.index("Changes per player:") > lines.index("Decision:")


def test_a_changed_finding_shows_before_and_after_on_their_own_lines(tmp_path):
    out = whatif(tmp_path, OUT_OF_TURN, "oot_offender=defender_1")
    lines = out.splitlines()
    assert max(map(len, lines)) <= 80
    k = lines.index("  ~ Član 7, stav 7")
    assert lines[k + 1] == "      before: Violation established; penalty prescribed"
    after = lines.index("      after: Violation established; penalty prescribed")
    assert lines[k + 2].startswith("        second defender (") and lines[after + 1].startswith("        first defender (")
    # three effects on each side, each starting its own line
    assert sum(1 for line in lines[k + 2:after] if line.startswith("        ") and not line.startswith("         ")) == 3
