"""The HTML ruling printed to PDF by headless Chromium: A4 pages, the quote and the code in the text."""
import shutil
import subprocess

import pytest

from conftest import FIXTURES
from referee.expert.interview.casefile import case_answers, read_case
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler
from referee.reports.render import render

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(not (CHROMIUM and shutil.which("pdftotext")),
                                reason="needs Debian packages chromium and poppler-utils (.ci/run installs them)")


def print_pdf(html_path, pdf_path, profile):
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", f"--user-data-dir={profile}", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf_path}", html_path.as_uri()],
                   check=True, capture_output=True, timeout=120)


def pdf_facts(pdf_path):
    info = subprocess.run(["pdfinfo", str(pdf_path)], capture_output=True, text=True, check=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    size = next(line for line in info.splitlines() if line.startswith("Page size:"))
    text = subprocess.run(["pdftotext", str(pdf_path), "-"], capture_output=True, text=True, check=True).stdout
    return pages, size, text


@pytest.mark.parametrize("lang", ["en", "both"])
def test_ruling_prints_on_one_a4_page_with_quote_penalty_and_code(tmp_path, lang):
    book = load_rulebook("mini", FIXTURES)
    path = FIXTURES / "mini" / "examples" / "case.yaml"
    answers, header = case_answers(read_case(path), book, path)
    html = tmp_path / "ruling.html"
    html.write_text(render(Ruler(book).rule(answers, header), "html", lang, code="ABCD-EFGH-JK"),
                    encoding="utf-8")
    pdf = tmp_path / "ruling.pdf"
    print_pdf(html, pdf, tmp_path / "profile")
    pages, size, text = pdf_facts(pdf)
    assert pages == 1
    assert "(A4)" in size
    assert "Finding 1: Rule 1" in text
    assert "Marko (second defender)" in text
    assert "ABCD-EFGH-JK" in text


def test_a_long_bilingual_ruling_repeats_header_and_code_on_every_page(tmp_path):
    from referee.expert.language.rulebook import DEFAULT_ROOT
    path = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
    book = load_rulebook("preferans")
    answers, header = case_answers(read_case(path), book, path)
    html = tmp_path / "ruling.html"
    html.write_text(render(Ruler(book).rule(answers, header), "html", "both", code="WXYZ-2345-AB"),
                    encoding="utf-8")
    pdf = tmp_path / "ruling.pdf"
    print_pdf(html, pdf, tmp_path / "profile")
    pages, size, text = pdf_facts(pdf)
    assert "(A4)" in size and pages >= 2
    assert text.count("WXYZ-2345-AB") == pages
    assert text.count("Table 3 · Deal 14") == pages
    assert "Odluka sudije" in text and "Ruling" in text
    assert "Ukoliko je za datu ruku sudija doneo presudu" in " ".join(text.split())   # the quote
