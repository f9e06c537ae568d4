"""The signed ruling: the front sheet on page 1, the annex after it, 'Page X / Y' and the
verification code on every printed page; PDF straight from the command line."""
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.expert.engine.ruler import Ruler
from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.interview.casefile import case_dispute, read_case
from referee.expert.language.dispute import Dispute
from referee.expert.language.rulebook import DEFAULT_ROOT, load_rulebook
from referee.reports.render import render

DEMO = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_pdf = pytest.mark.skipif(not (CHROMIUM and shutil.which("pdftotext")),
                               reason="needs Debian packages chromium and poppler-utils (.ci/run installs them)")


def demo_ruling():
    book = load_rulebook("preferans")
    dispute, header, sources = case_dispute(read_case(DEMO), book, DEMO)
    return rule_dispute(Ruler(book), dispute, header, sources)


def pages_of(pdf_path):
    text = subprocess.run(["pdftotext", "-layout", str(pdf_path), "-"], capture_output=True, text=True,
                          check=True).stdout
    return text.split("\f")[:-1] if text.endswith("\f") else text.split("\f")


def test_the_html_anchors_come_in_the_order_people_read():
    html = render(demo_ruling(), "html", "en", code="ABCD-EFGH-JK")
    positions = [html.index(f'id="{a}"') for a in ("decision", "entries", "signatures", "annex")]
    assert positions == sorted(positions)
    assert html.index("Pravila igre i suđenja") < positions[0]       # the rulebook's own title
    # provision ids only in the annex
    assert "preferans:8.ruled-fall" not in html[:positions[3]]
    assert "preferans:8.ruled-fall" in html[positions[3]:]


def test_the_text_ruling_has_the_front_sheet_before_the_annex():
    text = render(demo_ruling(), "text", "sr")
    order = [text.index(h) for h in ("ODLUKA\n", "UPIS U ZAPISNIK", "POTPISI", "PRILOG")]
    assert order == sorted(order)
    assert "Petar (drugi pratilac" in text and "+6" in text


@needs_pdf
@pytest.mark.parametrize("lang", ["en", "sr", "both"])
def test_the_pdf_has_the_decision_on_page_1_and_page_numbers_and_the_code_everywhere(tmp_path, lang):
    pdf = tmp_path / "ruling.pdf"
    result = CliRunner().invoke(main, ["rule", str(DEMO), "--format", "pdf", "--out", str(pdf), "--lang", lang,
                                       "--register", str(tmp_path / "reg.sqlite")])
    assert result.exit_code == 0, result.output
    code = re.search(r"verification code (\S+)", result.output).group(1)
    pages = pages_of(pdf)
    assert len(pages) >= 2
    first = " ".join(pages[0].split())
    decision = {"en": "Decision", "sr": "Odluka", "both": "Decision / Odluka"}[lang]
    assert decision in first and "Petar" in first and "+6" in first
    for n, page in enumerate(pages, 1):
        flat = " ".join(page.split())
        assert f"{n} / {len(pages)}" in flat, (n, flat[-200:])
        assert code in flat


@needs_pdf
def test_pdf_needs_an_output_file(tmp_path):
    result = CliRunner().invoke(main, ["rule", str(DEMO), "--format", "pdf", "--no-register"])
    assert result.exit_code == 2 and "--format pdf needs --out" in result.output


def test_pdf_without_chromium_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_CHROMIUM", str(tmp_path / "no-such-browser"))
    result = CliRunner().invoke(main, ["rule", str(DEMO), "--format", "pdf", "--out", str(tmp_path / "r.pdf"),
                                       "--no-register"])
    assert result.exit_code == 2
    assert "apt-get install chromium" in result.output and not (tmp_path / "r.pdf").exists()


def test_a_language_the_rulebook_has_no_texts_for_is_refused():
    result = CliRunner().invoke(main, ["rule", str(DEMO), "--lang", "ru", "--no-register"])
    assert result.exit_code == 2
    assert "no texts in 'ru', expected one of en, sr or both" in result.output


@pytest.fixture
def registered(tmp_path):
    """A register holding the demo's ruling (#1) and an appeal decision on it (#2)."""
    reg = str(tmp_path / "reg.sqlite")
    assert CliRunner().invoke(main, ["rule", str(DEMO), "--register", reg]).exit_code == 0
    appealed = CliRunner().invoke(main, ["appeal", "1", "--set", "volunteered=true", "--register", reg])
    assert appealed.exit_code == 0, appealed.output
    return reg


REFUSAL = "error: the preferans rulebook has no texts in 'ru', expected one of en, sr or both\n"


@pytest.mark.parametrize("command", [
    ["rule", str(DEMO), "--no-register"],
    ["demo"],
    ["appeal", "1", "--set", "volunteered=true"],
    ["register", "show", "1"],
    ["register", "show", "1", "--format", "html"],
    ["reprint", "1"],
    ["reprint", "2", "--format", "html"],
    ["interview", "preferans"],
])
def test_every_command_refuses_a_language_the_rulebook_lacks_in_one_line(registered, command):
    """rule, demo, appeal, register show, reprint and interview refuse --lang ru on the Serbian
    rulebook alike: one line naming the languages it has, exit 2, nothing else printed (the
    interview before its first question)."""
    args = [*command, "--lang", "ru"] + (["--register", registered] if command[0] in ("appeal", "register", "reprint") else [])
    result = CliRunner().invoke(main, args, input="")
    assert result.exit_code == 2, result.output
    assert result.output == REFUSAL
    # the language it has is accepted by the same command
    if command[0] != "interview":
        ok = [*command, "--lang", "sr"] + (["--register", registered] if command[0] in ("appeal", "register", "reprint") else [])
        assert CliRunner().invoke(main, ok).exit_code == 0


def test_questions_refuses_a_language_the_rulebook_lacks_and_offers_no_both():
    result = CliRunner().invoke(main, ["questions", "bridge", "--lang", "sr"])
    assert result.exit_code == 2
    assert result.output == "error: the bridge rulebook has no texts in 'sr', expected one of en, ru\n"
    ru = CliRunner().invoke(main, ["questions", "bridge", "--lang", "ru"])
    assert ru.exit_code == 0 and "Кто" in ru.output


def test_demo_rules_in_serbian_and_side_by_side():
    sr = CliRunner().invoke(main, ["demo", "--lang", "sr"])
    assert sr.exit_code == 0 and "ODLUKA SUDIJE" in sr.output
    both = CliRunner().invoke(main, ["demo", "--lang", "both", "--format", "html"])
    assert both.exit_code == 0
    assert '<span lang="en">Decision</span> / <span lang="sr">Odluka</span>' in both.output


def test_the_appeal_decision_has_each_anchor_once_in_order_also_side_by_side(registered):
    """The appeal decision's HTML carries id="decision", "entries", "signatures", "annex" once
    each, in that order, in one language and in both."""
    for lang in ("sr", "both"):
        html = CliRunner().invoke(main, ["reprint", "2", "--format", "html", "--lang", lang,
                                         "--register", registered]).output
        for anchor in ("original", "amended", "decision", "entries", "signatures", "annex"):
            assert html.count(f'id="{anchor}"') == 1, (lang, anchor)
        positions = [html.index(f'id="{a}"') for a in ("decision", "entries", "signatures", "annex")]
        assert positions == sorted(positions)


def test_a_conditional_ruling_states_what_every_alternative_decides_alike_once():
    """Skat: the concession (4.3.3) ends the game whatever the state of the game was; it is stated
    once, before the alternatives, which differ only in the article that scores it."""
    book = load_rulebook("skat")
    case = {"game": "skat", "header": {"players": {"soloist": "Jan"}},
            "answers": {"claim": ["opponent-concedes"], "offender": "opponent_2", "points_counted": False,
                        "decided": "unknown", "level_so_far": "simple", "required_level": "none",
                        "game_type": "hearts", "matadors_with": "with", "matadors": 2, "hand": "not_hand",
                        "announced": "none", "bid": 30, "innocent_choice": "end"}}
    dispute, header, sources = case_dispute(case, book, "case.yaml")
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    assert len(ruling.alternatives) == 3
    text = render(ruling, "text", "pl")
    decision = text[text.index("ROZSTRZYGNIĘCIE"):text.index("ZAPIS W PROTOKOLE")]
    assert decision.count("4.3.3 – sprawca") == 1
    assert decision.index("4.3.3 – sprawca") < decision.index("Wariant 1")
    assert "4.1.4 – sprawca" in decision and decision.count("4.1.3:") == 2
    html = render(ruling, "html", "pl")
    annex = html[html.index('id="annex"'):]
    # the common finding once among the annex's findings too (the reasons name it once more)
    assert len(re.findall(r"<h3>[^<]*4\.3\.3 – stwierdzono", annex)) == 1


def test_an_article_applied_only_jointly_is_not_said_to_prevail_over_itself():
    """Bridge 70C and 70D on one claim: one award under both; neither is 'set aside by' itself."""
    book = load_rulebook("bridge")
    case = {"game": "bridge", "header": {"players": {"S": "Pyotr"}},
            "answers": {"claim": ["claim-concession"], "l70_claimer": "S",
                        "l70_issues": ["outstanding-trump", "new-line"], "l70c_mentioned": False,
                        "l70c_unaware": True, "l70c_normal_loss": True, "l70d_alternative_fails": True,
                        "l70_tricks_lost": 1}}
    dispute, header, sources = case_dispute(case, book, "case.yaml")
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    for lang, joint in (("en", "Правило 70C: applied together with Правило 70D in one finding, not on its own"),
                        ("ru", "Правило 70C: применяется вместе с положениями: правило 70D в одном решении, не отдельно")):
        text = render(ruling, "text", lang)
        assert joint in text
        assert "имеет правило 70C, правило 70D" not in text and "Правило 70C, Правило 70D prevails" not in text


def test_the_front_sheet_names_the_edition_beside_the_title_and_leaves_a_line_for_a_missing_referee():
    ruling = demo_ruling()
    ruling.header.pop("referee", None)
    text = render(ruling, "text", "sr")
    # the preferans source names no edition of its own: the title alone (not the encoding's)
    assert "Pravilnik: Pravila igre i suđenja\n" in text
    assert "\nSudija: ________________________\n" in text          # a line to write the name on
    html = render(ruling, "html", "en")
    assert '<strong lang="sr">Pravila igre i suđenja</strong> (' in html
    assert "edition 2026.1" not in html[:html.index('id="annex"')]
    assert '<td><span class="blank"></span></td>' in html
    # the encoding's edition and hash stay in the annex's technical record
    annex = html[html.index('id="annex"'):]
    assert re.search(r"preferans, edition 2026\.1, hash [0-9a-f]{16}", annex)


def test_page_one_gives_the_source_texts_own_edition_and_the_annex_the_encodings():
    """Issue 16, item 3: bridge's text is the 1987 wording (``source.edition``); the encoding
    of it is edition 2026.1, with its hash, in the annex only."""
    book = load_rulebook("bridge")
    ruling = rule_dispute(Ruler(book), Dispute(dict(book.cases[0].answers)))
    text = render(ruling, "text", "ru")
    front, annex = text.split("Запись правил")[0], text.split("Запись правил")[1]
    assert "(фрагменты), редакция 1987\n" in front and "2026.1" not in front
    assert re.search(r"редакция 2026\.1, хеш [0-9a-f]{16}", annex)
