"""The ruling says which values the entries on the score sheet used (the source text rarely
gives the scoring): the parameters the deal as played and the effects' entries read, with
where their values come from, or the tournament's value (the annex's "Values used for the
score sheet", as main's engine prints it for every rulebook)."""
import json

from click.testing import CliRunner

from referee.cli import main

PLAYED = ("game: preferans\n"
          "answers: {claim: [talon], talon_breach: true, deal_play: first-alone,\n"
          "          game: tref, game_mode: talon, deal_contra: none, tricks_first: 5, tricks_second: 1}\n")
SETTLED = ("game: preferans\n"
           "answers: {claim: [pik-talon], game: pik, game_mode: talon,\n"
           "          contra_level: none}\n")


def rule(tmp_path, text, *args):
    case = tmp_path / "case.yaml"
    case.write_text(text)
    return CliRunner().invoke(main, ["rule", str(case), "--no-register", *args])


def test_the_deal_as_played_lists_the_values_it_used(tmp_path):
    out = rule(tmp_path, PLAYED).output
    assert "declarer (lider, won the auction) — bula: +10" in out
    values = out.split("Values used for the score sheet:")[1]
    assert "Value of each game in bula" in values and "usual Serbian tournament scoring" in values
    assert "Multiplier of the game value for the contra in force" in values
    sr = rule(tmp_path, PLAYED, "--lang", "sr").output
    assert "Vrednosti korišćene za upis u zapisnik:" in sr and "uobičajeno turnirsko bodovanje" in sr


def test_a_settled_deal_reads_no_value_of_the_deal_as_played(tmp_path):
    out = rule(tmp_path, SETTLED).output
    assert "bula: −4" in out and "The deal is settled by these entries." in out
    assert "Values used for the score sheet" not in out


def test_a_tournament_value_is_named_as_the_tournaments(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "referee.toml").write_text("[rulebooks.preferans.parameters.game_value]\ntalon = {tref = 11}\n")
    out = rule(tmp_path, PLAYED).output
    assert "bula: +11" in out
    values = out.split("Values used for the score sheet:")[1]
    assert "tref 11" in values
    html = rule(tmp_path, PLAYED, "--format", "html").output
    assert "Values used for the score sheet" in html
    md = rule(tmp_path, PLAYED, "--format", "md").output
    assert "### Values used for the score sheet" in md
    data = json.loads(rule(tmp_path, PLAYED, "--format", "json").output)
    assert data["result"]["text"] == "declarer: bula +11; defender_1: supe +66 against declarer"
