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
