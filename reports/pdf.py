"""Printing a document's HTML to PDF with the system's headless Chromium.

Chromium is what Debian and Ubuntu install cleanly (`apt-get install chromium`), it prints the
same page CSS (A4, running header, "Page X / Y" and the verification code in the margins) that
the HTML shows on screen, and it needs no Python package. It is started with the flags that
keep it off the network.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from referee.expert.language.errors import RefereeError

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-pdf-header-footer")


def chromium() -> str | None:
    explicit = os.environ.get("REFEREE_CHROMIUM")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def html_to_pdf(html: str) -> bytes:
    """The PDF of an HTML document (raises RefereeError, with how to install Chromium, when it
    cannot be printed)."""
    browser = chromium()
    if browser is None:
        raise RefereeError("PDF needs the system's Chromium, which is not installed: install it "
                           "(Debian/Ubuntu: apt-get install chromium) or set $REFEREE_CHROMIUM, or use "
                           "--format html and print that")
    with tempfile.TemporaryDirectory(prefix="referee-pdf-") as tmp:
        page, pdf = Path(tmp) / "ruling.html", Path(tmp) / "ruling.pdf"
        page.write_text(html, encoding="utf-8")
        try:
            subprocess.run([browser, *FLAGS, f"--user-data-dir={Path(tmp) / 'profile'}",
                            f"--print-to-pdf={pdf}", page.as_uri()],
                           check=True, capture_output=True, timeout=120)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            raise RefereeError(f"Chromium could not print the PDF ({type(exc).__name__})", browser) from None
        if not pdf.is_file() or pdf.stat().st_size == 0:
            raise RefereeError("Chromium printed no PDF", browser)
        return pdf.read_bytes()
