"""Driving `referee serve` in tests: an app on a folder of the test's own, a referee who reads
the page's hidden fields and posts forms as a browser would, and the disputes both the web tests
and the browser tests walk through."""
from __future__ import annotations

import re
from pathlib import Path

from referee.web.app import WebConfig, create_app

SECRET = b"s" * 48

# The demo dispute (knowledge/preferans/examples/demo.yaml), as a referee answers it (the
# partner's fall is read from the tricks, so it is not asked).
PREFERANS = {"claim": ["bad-dolaz"], "game": "karo", "game_mode": "talon", "contra_level": "none",
             "gentlemen": "no", "dolaz_offender": "defender_2",
             "dolaz_situation": "lider-only", "holding_lider": ["none"], "no_trump": "no",
             "claimant_dolaz": "regular", "volunteered": "no", "dolaz_caused_fall": "yes",
             "deal_play": "both", "deal_contra": "none", "tricks_first": "1", "tricks_second": "3"}

# expert/cards/README.md's bridge deal: South revokes at tricks 2 and 3 (4♠ by South).
BRIDGE_HANDS = {"N": "SA SK S7 HQ HJ HT H9 DA DK D2 C5 C4 C3", "E": "SQ SJ ST HA HK H2 DQ DJ DT CQ CJ CT C7",
                "S": "S9 S8 S6 S5 S4 H8 H7 H6 D9 D8 D7 C6 C2", "W": "S3 S2 H5 H4 H3 D6 D5 D4 D3 CA CK C9 C8"}
BRIDGE_TRICKS = ["CA C3 CQ C2", "CK C4 CJ H6", "C9 C5 CT S4", "S8 S2 SA ST", "DA DT D7 D3"]


def make_app(tmp_path: Path, **extra):
    config = WebConfig(tmp_path / "interviews", register=str(tmp_path / "register.sqlite"), secret=SECRET, **extra)
    return create_app(config)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no hidden field {name!r} on the page"
    return found.group(1)


def refusals(html: str) -> list[str]:
    return re.findall(r'class="refusal[^"]*"[^>]*>([^<]*)<', html)


class Referee:
    """A Flask test client used as one referee's browser."""

    def __init__(self, app):
        self.client = app.test_client()
        self.csrf = ""

    def get(self, url: str, **kw):
        r = self.client.get(url, **kw)
        if r.mimetype == "text/html" and 'name="csrf"' in r.text:
            self.csrf = hidden(r.text, "csrf")
        return r

    def new(self, game: str, lang: str = "en", players: dict | None = None, **frame) -> str:
        self.get(f"/new/{game}")
        data = {"csrf": self.csrf, "lang": lang, **frame}
        data.update({f"player:{seat}": name for seat, name in (players or {}).items()})
        r = self.client.post(f"/new/{game}", data=data)
        assert r.status_code == 303, r.text
        return r.headers["Location"]

    def prompt(self, url: str) -> dict:
        return self.client.get(url + "/prompt.json").get_json()

    def post(self, url: str, **fields):
        """Post a form of the screen now shown (its CSRF token and state key)."""
        page = self.get(url).text
        data = {"csrf": self.csrf, "step": hidden(page, "step")}
        data.update(fields)
        return self.client.post(url, data=data)

    def answer(self, url: str, answers: dict, offer: str = "no", until: str = "review") -> dict:
        """Answer every question from ``answers`` until the prompt of kind ``until``."""
        for _ in range(80):
            p = self.prompt(url)["prompt"]
            if p["kind"] == until:
                return p
            if p["kind"] == "offer":
                r = self.post(url, value=offer)
            else:
                r = self.post(url, value=answers[p["id"]])
            assert r.status_code == 303, refusals(r.text)
        raise AssertionError("the interview did not reach " + until)
