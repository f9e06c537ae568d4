"""`referee serve` in a real browser: the system's Chromium driven by Playwright (pointed at the
installed browser, nothing downloaded) on a phone (390×844) and a tablet (820×1180) viewport,
with touch. A whole preferans dispute and a whole bridge dispute with the cards tapped in, to
the ruling, `back` and resuming a closed tab included; a visitor without the access code
refused. Set REFEREE_SCREENSHOTS=DIR to keep a screenshot of each kind of screen."""
from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(not CHROMIUM, reason="needs the Debian package chromium (.ci/run installs it)")

from web_helpers import BRIDGE_HANDS, BRIDGE_TRICKS, PREFERANS  # noqa: E402

from referee.expert.engine.ruler import Ruler  # noqa: E402
from referee.expert.interview.casefile import case_dispute, read_case  # noqa: E402
from referee.expert.interview.adjudicate import rule_dispute  # noqa: E402
from referee.expert.language.rulebook import load_rulebook  # noqa: E402
from referee.expert.records.register import Register  # noqa: E402
from referee.web.serve import make_server  # noqa: E402

# headless, no sandbox (CI runs as root), and no connection to anything but this server
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 820, "height": 1180}}
SHOTS = os.environ.get("REFEREE_SCREENSHOTS")


def start(tmp: Path, **kw):
    server = make_server("127.0.0.1", 0, tmp / "interviews", register=str(tmp / "register.sqlite"), **kw)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.effective_port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    srv, thread, url = start(tmp)
    yield SimpleNamespace(url=url, tmp=tmp)
    srv.close()
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield b
        b.close()


def context(browser, device: str):
    return browser.new_context(viewport=VIEWPORTS[device], has_touch=True, is_mobile=device == "phone",
                               device_scale_factor=1)


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def prompt(page) -> dict:
    """What the server asks now (the page's own data, fetched with the page's cookie)."""
    return page.context.request.get(page.url.split("?")[0] + "/prompt.json").json()["prompt"]


def question(page) -> str:
    return page.locator("h1").first.inner_text()


def submit(page, locator) -> None:
    """Tap a button that sends its form, and wait for the page the server answers with."""
    with page.expect_navigation():
        locator.tap()


def tap_value(page, value) -> None:
    submit(page, page.locator(f'button[name="value"][value="{value}"]'))


def answer(page, value) -> None:
    """Answer the question shown as a referee would: one tap on a button, or ticks and Next."""
    p = prompt(page)
    if p["type"] == "multi" or p["type"] == "order":
        for v in value:
            page.locator(f'label.option:has(input[value="{v}"])').tap()
        submit(page, page.locator("button.primary"))
    elif p["type"] in ("yesno", "choice", "seat") or p["kind"] == "offer":
        tap_value(page, value)
    else:
        page.locator('[name="value"]').fill(str(value))
        submit(page, page.locator("button.primary"))


def start_dispute(page, base: str, game: str, players: dict, table="4", deal="12") -> None:
    page.goto(base + "/")
    shot(page, f"{page.viewport_size['width']}-start")
    submit(page, page.locator(f'a[href="/new/{game}"]'))
    page.locator('input[name="table"]').fill(table)
    page.locator('input[name="deal"]').fill(deal)
    page.locator('input[name="referee"]').fill("Ana")
    for seat, name in players.items():
        page.locator(f'input[name="player:{seat}"]').fill(name)
    submit(page, page.locator("button.primary"))


def ruled_findings(tmp: Path, code: str) -> list:
    with Register(str(tmp / "register.sqlite"), create=False) as reg:
        _rid, record = reg.get(code)
    return [(f["provisions"], f["penalty"]) for f in record["findings"]]


def case_file_findings(path: Path) -> list:
    """The ruling the command line gives on the case file the page saved."""
    data = read_case(path)
    book = load_rulebook(data["game"])
    dispute, header, sources = case_dispute({k: v for k, v in data.items() if k != "session"}, book, str(path))
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    return [(f["provisions"], f["penalty"]) for f in ruling.to_dict()["findings"]]


def finish(page, tmp: Path, device: str, game: str) -> str:
    shot(page, f"{device}-{game}-review")
    submit(page, page.locator('button[value="rule"]'))
    page.wait_for_url(re.compile(r".*/ruling$"))
    page.wait_for_load_state("load")
    code = page.locator(".done .code").inner_text().strip()
    sheet = page.frame_locator("iframe#sheet")
    sheet.locator("#decision").wait_for()
    assert code in sheet.locator("body").inner_text()          # the front sheet carries the code
    shot(page, f"{device}-{game}-ruling")
    return code


@pytest.mark.parametrize("device", ["phone", "tablet"])
def test_a_whole_preferans_dispute_tapped_through_with_back_and_a_closed_tab(server, browser, device):
    ctx = context(browser, device)
    page = ctx.new_page()
    start_dispute(page, server.url, "preferans", {"declarer": "Marko", "defender_1": "Jovan", "defender_2": "Petar"})
    url = page.url
    shot(page, f"{device}-offer")
    answer(page, "no")                                          # no cards
    answer(page, PREFERANS["claim"])
    first = question(page)
    answer(page, PREFERANS[prompt(page)["id"]])
    submit(page, page.locator('form.back button'))             # back: the last answer undone
    assert question(page) == first
    assert "Undid the answer to" in page.locator(".note").inner_text()
    for _ in range(3):
        answer(page, PREFERANS[prompt(page)["id"]])
    shot(page, f"{device}-question")
    asked = question(page)
    page.close()                                                # the tab closed mid-dispute
    page = ctx.new_page()
    page.goto(server.url + "/")
    submit(page, page.locator(f'a[href="{url.replace(server.url, "")}"]'))   # 'Disputes in progress'
    assert question(page) == asked
    while prompt(page)["kind"] != "review":
        answer(page, PREFERANS[prompt(page)["id"]])
    rows = page.locator("ul.review button.row-button")
    assert rows.count() == len(PREFERANS)
    claim_row = [r["question"] for r in prompt(page)["rows"]].index("claim")
    submit(page, rows.nth(claim_row))
    assert prompt(page)["id"] == "claim"                        # the review: an answer changed
    while prompt(page)["kind"] != "review":
        answer(page, PREFERANS[prompt(page)["id"]])
    code = finish(page, server.tmp, device, "preferans")
    saved = next(p for p in (server.tmp / "interviews").glob("*/*.yaml") if url.rsplit("/", 1)[1] in p.name)
    assert ruled_findings(server.tmp, code) == case_file_findings(saved)
    findings = ruled_findings(server.tmp, code)
    assert findings[0][0][0] == "preferans:8.ruled-fall"
    assert {"player": "defender_2", "effect": "bula", "amount": 6} in findings[0][1]
    ctx.close()


def tap_cards(page, codes) -> None:
    for code in codes:
        page.locator(f'label.card:has(input[value="{code}"])').tap()


@pytest.mark.parametrize("device", ["phone", "tablet"])
def test_a_whole_bridge_dispute_with_the_cards_tapped_in(server, browser, device):
    ctx = context(browser, device)
    page = ctx.new_page()
    start_dispute(page, server.url, "bridge", {"N": "Nina", "E": "Egon", "S": "Sasha", "W": "Wanda"})
    url = page.url
    answer(page, "yes")                                         # the cards are at hand
    tap_value(page, "S")                                        # declarer
    shot(page, f"{device}-contract")
    tap_value(page, "4♠")
    for seat in "NE":
        tap_cards(page, BRIDGE_HANDS[seat].split())
        assert page.locator("[data-count]").inner_text() == "13"
        if seat == "N":
            shot(page, f"{device}-grid-hand")
        submit(page, page.locator("button.primary"))
    page.close()                                                # closed after two hands
    page = ctx.new_page()
    page.goto(url)
    p = prompt(page)
    assert (p["card_kind"], p["seat"]) == ("hand", "S")
    assert page.locator('label.card.taken input[value="SA"]').count() == 1    # North's ♠A is placed
    for seat in "SW":
        tap_cards(page, BRIDGE_HANDS[seat].split())
        submit(page, page.locator("button.primary"))
    assert prompt(page)["card_kind"] == "lead"
    submit(page, page.locator('button[value="skip"]'))         # the default lead: West
    for n, trick in enumerate(BRIDGE_TRICKS):
        tap_cards(page, trick.split())
        assert page.locator("[data-sequence]").inner_text().split() == [
            page.locator(f'input[value="{c}"]').get_attribute("data-label") for c in trick.split()]
        if n == 1:
            shot(page, f"{device}-grid-trick")
        submit(page, page.locator("button.primary"))
        if n == 2:                                              # back: trick 3 entered again
            submit(page, page.locator("form.back button"))
            assert prompt(page)["trick"] == 2
            tap_cards(page, trick.split())
            submit(page, page.locator("button.primary"))
    submit(page, page.locator('button[value="skip"]'))         # the end of the play record
    assert "From the cards" in page.locator(".note").first.inner_text()
    tried: dict = {}
    for _ in range(200):                                        # never a loop that hangs the suite
        p = prompt(page)
        if p["kind"] == "review":
            break
        # the first value, the next one when the page asks again (the answers given exclude it)
        key = (p.get("id"), p.get("event"))
        n = tried[key] = tried.get(key, -1) + 1
        values = ["no", "yes"] if p["type"] == "yesno" else [o["value"] for o in p["options"]] or [1]
        answer(page, values[n % len(values)])
    else:
        pytest.fail("the interview never reached the review")
    assert page.locator("ul.known li").count() >= 3             # what the cards answered, listed
    code = finish(page, server.tmp, device, "bridge")
    saved = next(p for p in (server.tmp / "interviews").glob("*/*.yaml") if url.rsplit("/", 1)[1] in p.name)
    data = read_case(saved)
    assert data["cards"]["play"] == [" ".join(_symbol(c) for c in t.split()) for t in BRIDGE_TRICKS]
    findings = ruled_findings(server.tmp, code)
    assert findings == case_file_findings(saved)
    assert any("bridge:63" in pid for f in findings for pid in f[0])          # South's revoke
    ctx.close()


def _symbol(code: str) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[0]] + ("10" if code[1] == "T" else code[1])


def test_a_visitor_without_the_access_code_is_refused(tmp_path, browser):
    srv, thread, url = start(tmp_path, require_code=True, code="QRST-UVWX")
    try:
        ctx = context(browser, "phone")
        page = ctx.new_page()
        response = page.goto(url + "/")
        assert response.status == 401
        assert page.locator('input[name="code"]').count() == 1 and "New dispute" not in page.content()
        assert ctx.request.get(url + "/static/app.js").status == 401
        page.locator('input[name="code"]').fill("QRST-UVWY")
        with page.expect_navigation() as nav:
            page.locator("button.primary").tap()
        assert nav.value.status == 401 and "not the access code" in page.content()
        shot(page, "phone-code")
        page.locator('input[name="code"]').fill("qrst uvwx")
        submit(page, page.locator("button.primary"))
        assert "New dispute" in page.content()
        ctx.close()
    finally:
        srv.close()
        thread.join(10)


def test_the_order_of_events_is_the_order_of_the_taps(server, browser):
    ctx = context(browser, "phone")
    page = ctx.new_page()
    start_dispute(page, server.url, "preferans", {})
    answer(page, "no")
    answer(page, ["bad-dolaz", "out-of-turn"])
    assert prompt(page)["id"] == "claims_one_act"
    answer(page, "no")                                          # separate acts: their order matters
    assert prompt(page)["type"] == "order"
    for value in ("out-of-turn", "bad-dolaz"):
        page.locator(f'label.option:has(input[value="{value}"])').tap()
    marks = [page.locator(f'label.option:has(input[value="{v}"]) .rank').inner_text() for v in ("out-of-turn", "bad-dolaz")]
    assert marks == ["1", "2"]
    shot(page, "phone-order")
    submit(page, page.locator("button.primary"))
    assert prompt(page)["id"] != "order"
    dispute = page.url.rsplit("/", 1)[1]
    saved = next(p for p in (server.tmp / "interviews").glob("*/*.yaml") if dispute in p.name)
    assert read_case(saved)["answers"]["order"] == ["out-of-turn", "bad-dolaz"]
    ctx.close()
