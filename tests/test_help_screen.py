"""'?' at a question fits one terminal screen and shows the referee no provision ids (blind walk
8, p3: "Član 12, stav 4 [preferans:12.signal-exception]"): a few articles one per line with the
start of what each says, many (the claim, the offender) by article number."""
from __future__ import annotations

from click.testing import CliRunner

from referee.cli import main
from referee.expert.console.prompt import _by_number


def test_many_articles_are_listed_by_number_once_each():
    assert _by_number(["Правило 11A", "Правило 11B", "Правило 12A", "Правило 30C.conventional-pass"]) \
        == "Правило 11, 12, 30"
    assert _by_number(["Član 6, stav 1", "Član 7, stav 6", "Član 7, stav 7"]) == "Član 6, 7"
    assert _by_number(["4.1.3", "4.1.4"]) == "4.1.3, 4.1.4"
    assert _by_number(["Renonszok 2. pont", "Továbbiak 2. pont", "Mondások, 1. mondat"]) \
        == "Renonszok 2, Továbbiak 2, Mondások"


def test_help_at_the_offender_fits_a_screen_and_names_no_ids(tmp_path):
    # bridge: four names left out, no cards, the play period's claim, then '?' at the offender
    result = CliRunner().invoke(main, ["interview", "bridge", "--no-register", "--save", str(tmp_path / "s.yaml")],
                                input="\n\n\n\nn\n2\n?\n")
    out = result.output
    shown = out[out.rindex("> ?"):].splitlines()[1:]
    shown = shown[:next(i for i, line in enumerate(shown) if line.startswith("  (??")) + 1]
    assert len(shown) <= 20, shown
    assert not any("[bridge:" in line for line in shown)
    listed = " ".join(shown)
    assert "Правило 11, 12," in listed and " 64, " in listed
