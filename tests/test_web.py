"""`referee serve` through Flask's test client: a dispute in, the ruling out (the same as the
engine's on the same answers, saved in the register); the access code, the cookie, CSRF, the
limit on guessing, one referee's disputes closed to another, escaping; the state kept in case
files after every answer; the card grid's notation. The real browser is in test_web_browser.py."""
from __future__ import annotations

import json
import os
import re

import pytest

pytest.importorskip("flask")

from web_helpers import BRIDGE_HANDS, PREFERANS, SECRET, Referee, hidden, make_app, refusals  # noqa: E402

from referee.expert.engine.ruler import Ruler  # noqa: E402
from referee.expert.interview.casefile import case_answers, read_case  # noqa: E402
from referee.expert.language.rulebook import DEFAULT_ROOT, load_rulebook  # noqa: E402
from referee.expert.records.register import Register  # noqa: E402


def demo_findings():
    path = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
    book = load_rulebook("preferans")
    answers, header = case_answers(read_case(path), book, path)
    return [(f["provisions"], f["penalty"]) for f in Ruler(book).rule(answers, header).to_dict()["findings"]]


# --- a dispute in, a ruling out ------------------------------------------------------------------
def test_a_preferans_dispute_is_ruled_as_the_engine_rules_it_and_saved_in_the_register(tmp_path):
    app = make_app(tmp_path)
    ref = Referee(app)
    url = ref.new("preferans", table="3", deal="14", referee="Ana",
                  players={"declarer": "Marko", "defender_1": "Jovan", "defender_2": "Petar"})
    review = ref.answer(url, PREFERANS)
    # the review lists every answer given (questions asked once per deal first, as the terminal does)
    assert {row["question"] for row in review["rows"]} == set(PREFERANS)
    r = ref.post(url, do="rule")
    assert r.status_code == 303 and r.headers["Location"].endswith("/ruling")
    page = ref.get(r.headers["Location"]).text
    code = re.search(r'class="mono code">([^<]+)<', page).group(1)
    with Register(str(tmp_path / "register.sqlite"), create=False) as reg:
        _rid, record = reg.get(code)
    assert [(f["provisions"], f["penalty"]) for f in record["findings"]] == demo_findings()
    assert record["header"]["players"] == {"declarer": "Marko", "defender_1": "Jovan", "defender_2": "Petar"}
    assert set(record["answer_times"]) >= set(PREFERANS)          # every answer's time kept
    sheet = ref.get(url + "/sheet.html")
    assert sheet.status_code == 200 and code in sheet.text and "Član 8" in sheet.text
    download = ref.get(url + "/sheet.html?download=1")
    assert "attachment" in download.headers["Content-Disposition"]
    # ruled: the dispute now opens on its ruling, and a second 'Rule' registers nothing more
    assert ref.get(url).headers["Location"].endswith("/ruling")
    ref.client.post(url, data={"csrf": ref.csrf, "do": "rule", "step": "x"})
    with Register(str(tmp_path / "register.sqlite"), create=False) as reg:
        assert reg.count() == 1


def test_the_web_page_offers_what_the_terminal_offers_unknown_back_plus_r_and_help(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.post(url, value="no")                                   # no cards
    page = ref.get(url).text
    assert 'value="unknown"' in page and 'value="back"' in page and "? Help" in page
    ref.post(url, value=["bad-dolaz"])
    assert ref.prompt(url)["prompt"]["id"] != "claim"
    r = ref.post(url, do="back")                                # back undoes the claim
    assert ref.prompt(url)["prompt"]["id"] == "claim"
    assert "Undid the answer to" in ref.get(url).text
    rows = ref.answer(url, PREFERANS)["rows"]
    row = next(n for n, r in enumerate(rows, 1) if r["question"] == "claim")
    ref.post(url, do="change", row=str(row))                    # the review: change the claim's row
    assert ref.prompt(url)["prompt"]["id"] == "claim"
    ref.answer(url, PREFERANS)
    ref.post(url, do="request")                                 # 'r': a player's request
    assert ref.prompt(url)["prompt"]["kind"] == "request_party"
    ref.post(url, value="defender_1")
    ref.post(url, value="upheld")
    ref.post(url, value="He pays the bula")
    ref.post(url, value="Član 8")
    review = ref.prompt(url)["prompt"]
    assert review["kind"] == "review"
    assert "He pays the bula" in ref.get(url).text
    ref.post(url, do="event")                                   # '+': another event of the deal
    p = ref.prompt(url)["prompt"]
    assert p["kind"] == "question" and p["event"] == 1 and p["text"].startswith("Event 2")
    ref.post(url, do="unknown")                                 # nobody can establish it
    rows = ref.prompt(url)["prompt"]
    assert rows["kind"] == "question" or any(r["unknown"] for r in rows["rows"])


def test_a_refused_answer_says_why_under_the_question_without_changing_anything(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.post(url, value="no")
    before = (tmp_path / "interviews").rglob("*.yaml")
    before = {p: p.read_bytes() for p in before}
    r = ref.post(url, value=["no-such-claim"])
    assert r.status_code == 422
    assert any("not" in text or "invalid" in text for text in refusals(r.text))
    assert {p: p.read_bytes() for p in before} == before
    assert ref.prompt(url)["prompt"]["id"] == "claim"


def test_help_shows_the_articles_a_question_feeds_and_an_article_by_its_label(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.post(url, value="no")
    page = ref.get(url).text
    assert "Articles this question feeds" in page
    found = ref.get(url + "?article=8").text
    assert "preferans:8." in found and "<details class=\"help\" open>" in found


# --- saved after every answer, resumed exactly -------------------------------------------------------
def test_every_answer_is_saved_in_a_case_file_the_command_line_can_resume(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans", players={"declarer": "Marko"})
    ref.post(url, value="no")
    ref.post(url, value=["bad-dolaz"])
    files = list((tmp_path / "interviews").glob("*/*.yaml"))
    assert len(files) == 1
    data = read_case(files[0])
    assert data["answers"] == {"claim": ["bad-dolaz"]}
    assert data["header"]["players"] == {"declarer": "Marko"}
    assert data["session"]["times"]["claim"]
    from referee.expert.interview.session import Session
    resumed = Session.resume(load_rulebook("preferans"), data)
    assert resumed.next().id == ref.prompt(url)["prompt"]["id"]


def test_a_restarted_server_reopens_the_dispute_where_it_was(tmp_path):
    first = make_app(tmp_path)
    ref = Referee(first)
    url = ref.new("preferans")
    ref.post(url, value="no")
    ref.post(url, value=["bad-dolaz"])
    before = ref.prompt(url)
    cookie = ref.client.get_cookie("referee_session").value
    again = Referee(make_app(tmp_path))                      # a new server on the same folder
    again.client.set_cookie("referee_session", cookie)
    assert again.prompt(url) == before


def test_a_form_for_an_earlier_screen_is_not_applied_to_the_next_one(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.post(url, value="no")
    page = ref.get(url).text
    form = {"csrf": ref.csrf, "step": hidden(page, "step"), "value": ["bad-dolaz"]}
    assert ref.client.post(url, data=form).status_code == 303
    after_first = ref.prompt(url)
    ref.client.post(url, data={**form, "value": "yes"})       # the same tap again (a retry)
    assert ref.prompt(url) == after_first
    assert "already been answered" in ref.get(url).text


# --- who may use it ------------------------------------------------------------------------------
CODE = "ABCD-EFGH"


def coded(tmp_path, **extra):
    return make_app(tmp_path, code=CODE, **extra)


def test_without_the_code_every_request_is_refused_with_401(tmp_path):
    app = coded(tmp_path)
    c = app.test_client()
    r = c.get("/")
    assert r.status_code == 401 and 'name="code"' in r.text
    for url in ("/new/preferans", "/d/preferans-20261201-120000-abcd1234", "/static/style.css",
                "/static/app.js", "/d/preferans-20261201-120000-abcd1234/prompt.json"):
        assert c.get(url).status_code == 401, url
    assert c.post("/new/preferans", data={}).status_code in (401, 403)
    assert c.post("/code", data={"code": CODE}).status_code == 403      # no CSRF token: refused too


def test_the_code_buys_an_httponly_samesite_strict_session(tmp_path):
    app = coded(tmp_path)
    c = app.test_client()
    page = c.get("/").text
    r = c.post("/code", data={"csrf": hidden(page, "csrf"), "code": "abcd efgh", "next": "/new/preferans"})
    assert r.status_code == 303 and r.headers["Location"] == "/new/preferans"
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert c.get("/").status_code == 200
    assert c.get("/static/style.css").status_code == 200


def test_the_qr_code_link_carries_the_code_and_never_sends_anyone_elsewhere(tmp_path):
    c = coded(tmp_path).test_client()
    r = c.get("/code?c=ABCDEFGH")
    assert r.status_code == 303 and r.headers["Location"] == "/"
    d = coded(tmp_path).test_client()
    page = d.get("/").text
    r = d.post("/code", data={"csrf": hidden(page, "csrf"), "code": CODE, "next": "//evil.example/"})
    assert r.headers["Location"] == "/"


def test_guessing_the_code_is_limited(tmp_path):
    app = coded(tmp_path)
    clock = [1000.0]
    app.extensions["referee"]["guard"].attempts.clock = lambda: clock[0]
    c = app.test_client()
    page = c.get("/").text
    csrf = hidden(page, "csrf")
    for guess in ("AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "EEEE-EEEE"):
        assert c.post("/code", data={"csrf": csrf, "code": guess}).status_code == 401
    r = c.post("/code", data={"csrf": csrf, "code": CODE})    # even the right code waits now
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    clock[0] += 61
    assert c.post("/code", data={"csrf": csrf, "code": CODE}).status_code == 303


def test_the_code_is_not_guessable():
    from referee.web.auth import ALPHABET, CODE_LENGTH, new_code
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(re.fullmatch(r"[2-9A-Z]{4}-[2-9A-Z]{4}", c) for c in codes)
    assert len(ALPHABET) ** CODE_LENGTH > 2 ** 39


def test_forms_need_the_sessions_csrf_token_and_this_sites_origin(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    page = ref.get(url).text
    step = hidden(page, "step")
    assert ref.client.post(url, data={"step": step, "value": "no"}).status_code == 403
    assert ref.client.post(url, data={"csrf": "forged", "step": step, "value": "no"}).status_code == 403
    r = ref.client.post(url, data={"csrf": ref.csrf, "step": step, "value": "no"},
                        headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    assert ref.prompt(url)["prompt"]["kind"] == "offer"          # nothing was answered


def test_on_loopback_only_loopback_host_names_are_answered(tmp_path):
    app = make_app(tmp_path, hosts={"127.0.0.1:8000", "localhost:8000"})
    c = app.test_client()
    assert c.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert c.get("/", headers={"Host": "rebound.example:8000"}).status_code == 400


def test_one_referees_dispute_cannot_be_read_or_changed_through_anothers_session(tmp_path):
    app = make_app(tmp_path)
    ana, bob = Referee(app), Referee(app)
    url = ana.new("preferans", players={"declarer": "Marko"})
    ana.post(url, value="no")
    bob.get("/new/preferans")                                  # bob's own session and CSRF token
    saved = {p: p.read_bytes() for p in (tmp_path / "interviews").rglob("*.yaml")}
    assert bob.client.get(url).status_code == 404
    assert bob.client.get(url + "/prompt.json").status_code == 404
    assert bob.client.get(url + "/sheet.html").status_code == 404
    assert bob.client.post(url, data={"csrf": bob.csrf, "step": "x", "value": "yes"}).status_code == 404
    assert bob.client.post(url + "/discard", data={"csrf": bob.csrf}).status_code == 404
    assert "Marko" not in bob.get("/").text
    assert {p: p.read_bytes() for p in (tmp_path / "interviews").rglob("*.yaml")} == saved
    assert bob.client.get("/d/..%2f..%2fetc%2fpasswd").status_code == 404


def test_nothing_a_player_types_reaches_a_page_unescaped(tmp_path):
    ref = Referee(make_app(tmp_path))
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    url = ref.new("preferans", table=evil, players={"declarer": evil, "defender_1": "Jovan", "defender_2": evil})
    ref.post(url, value="no")
    ref.post(url, value=["bad-dolaz"])
    pages = [ref.get(url).text, ref.get("/").text]
    ref.answer(url, PREFERANS)
    ref.post(url, do="request")
    ref.post(url, value="defender_2")
    ref.post(url, value="other")
    ref.post(url, value=evil)
    ref.post(url, do="skip")
    pages.append(ref.get(url).text)                             # the review, with the request's text
    ref.post(url, do="rule")
    pages += [ref.get(url + "/ruling").text, ref.get(url + "/sheet.html").text]
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page
    assert any("&lt;script&gt;alert(1)&lt;/script&gt;" in page for page in pages[2:])


def test_every_page_forbids_scripts_and_styles_from_elsewhere(tmp_path):
    ref = Referee(make_app(tmp_path))
    r = ref.get("/")
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert r.headers["Cache-Control"] == "no-store"
    for asset in re.findall(r'(?:href|src)="([^"]+)"', r.text):
        assert asset.startswith("/") or asset.startswith("?"), asset     # nothing from the internet


# --- the cards ---------------------------------------------------------------------------------------
def test_the_cards_tapped_become_the_notation_card_entry_reads():
    from referee.web.card_grid import cards_text
    assert cards_text("bridge", BRIDGE_HANDS["N"].split(), False) == "♠AK7 ♥QJ109 ♦AK2 ♣543"
    assert cards_text("bridge", ["CK", "C4", "CJ", "H6"], True) == "♣K ♣4 ♣J ♥6"    # a trick keeps its order
    assert cards_text("ulti", ["PA", "PJ", "PT"], False) == "P:Á X A"           # ász, X, alsó
    with pytest.raises(Exception):
        cards_text("preferans", ["S2"], False)                                  # no 2 in a 32-card pack


def test_the_grid_shows_the_cards_already_placed_and_where(tmp_path):
    from referee.web.card_grid import grid
    from referee.web.words import words
    deal = {"declarer": "S", "contract": "4♠", "hands": {"N": "♠AK7 ♥QJ109 ♦AK2 ♣543"}}
    g = grid("bridge", "hand", deal, words("en"), "E", str)
    taken = {c.code: c.taken for s in g.suits for c in s.cells if c.taken}
    assert set(taken) == set(BRIDGE_HANDS["N"].split()) and taken["SA"] == "the hand of N"
    assert g.count == 13 and not g.ordered
    trick = grid("bridge", "trick", {**deal, "play": ["♣A ♣3 ♣Q ♣2"]}, words("en"))
    assert {c.code for s in trick.suits for c in s.cells if c.taken} == {"CA", "C3", "CQ", "C2"}
    assert trick.ordered and len(trick.suits) == 4 and len(trick.suits[0].cells) == 13


def test_cards_tapped_on_the_web_give_the_same_deal_as_cards_typed(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("bridge")
    ref.post(url, value="yes")
    assert ref.prompt(url)["prompt"]["card_kind"] == "declarer"
    ref.post(url, value="S")
    ref.post(url, value="4♠")
    r = ref.post(url)                                           # Next with nothing tapped
    assert r.status_code == 422 and "Nothing was tapped" in r.text
    for seat in "NESW":
        p = ref.prompt(url)["prompt"]
        assert (p["card_kind"], p["seat"]) == ("hand", seat)
        assert ref.post(url, card=BRIDGE_HANDS[seat].split()).status_code == 303
    p = ref.prompt(url)["prompt"]
    assert p["card_kind"] == "lead" and p["default"] == "W"
    ref.post(url, do="skip")
    ref.post(url, order="CA,C3,CQ,C2")
    assert ref.prompt(url)["prompt"]["trick"] == 1
    ref.post(url, order="CK,C4,CJ,H6")                          # the order of the taps is the order of play
    bad = ref.post(url, order="CA,C9,C5,C8")                    # ♣A was played at trick 1
    assert bad.status_code == 422 and refusals(bad.text)
    data = read_case(next((tmp_path / "interviews").glob("*/*.yaml")))
    assert data["cards"]["hands"]["N"] == "♠AK7 ♥QJ109 ♦AK2 ♣543"
    assert data["cards"]["play"] == ["♣A ♣3 ♣Q ♣2", "♣K ♣4 ♣J ♥6"]


# --- the store --------------------------------------------------------------------------------------
def test_the_store_never_replaces_what_is_not_a_regular_file(tmp_path):
    from referee.expert.language.errors import RefereeError
    from referee.web.store import write_atomic
    target = tmp_path / "dir.json"
    target.mkdir()
    with pytest.raises(RefereeError):
        write_atomic(target, b"{}")
    link = tmp_path / "link.json"
    os.symlink(tmp_path / "elsewhere", link)
    with pytest.raises(RefereeError):
        write_atomic(link, b"{}")
    write_atomic(tmp_path / "ok.json", b'{"a": 1}')
    assert json.loads((tmp_path / "ok.json").read_text()) == {"a": 1}
    assert not list(tmp_path.glob(".web-*"))                   # no half-written file left


def test_a_discarded_dispute_is_moved_aside_never_deleted(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.get("/")
    r = ref.client.post(url + "/discard", data={"csrf": ref.csrf})
    assert r.status_code == 303
    assert list((tmp_path / "interviews").glob("*/discarded/*.yaml"))
    assert ref.client.get(url).status_code == 404


# --- the words ---------------------------------------------------------------------------------------
def test_the_page_has_every_word_in_every_language():
    from referee.web.words import WORDS
    for lang, table in WORDS.items():
        assert set(table) == set(WORDS["en"]), lang


def test_typists_hints_are_left_off_the_screen():
    from referee.expert.language import prompt_words
    from referee.web.words import for_screen
    for lang in ("en", "sr", "pl", "ru", "hu"):
        cards = prompt_words.words(prompt_words.CARDS, lang)
        for text in (cards["offer"], cards["lead"].format(default="W"), cards["seats"].format(default="a b"),
                     cards["bids"], prompt_words.words(prompt_words.SESSION, lang)["request_provision"]):
            shown = for_screen(text)
            assert "Enter" not in shown and "=" not in shown and "?" not in shown[:-1] and not shown.endswith(":"), shown


@pytest.mark.skipif(not __import__("shutil").which("chromium"), reason="needs the Debian package chromium")
def test_the_ruling_downloads_as_a_pdf(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans", players={"declarer": "Marko"})
    ref.answer(url, PREFERANS)
    ref.post(url, do="rule")
    r = ref.get(url + "/sheet.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    assert r.headers["Content-Type"] == "application/pdf" and "attachment" in r.headers["Content-Disposition"]
    assert ref.get(url + "/sheet.pdf").data == r.data                 # printed once, then kept


def test_an_order_question_takes_the_order_of_the_taps(tmp_path):
    ref = Referee(make_app(tmp_path))
    url = ref.new("preferans")
    ref.post(url, value="no")
    ref.post(url, value=["bad-dolaz", "out-of-turn"])
    assert ref.prompt(url)["prompt"]["id"] == "claims_one_act"
    ref.post(url, value="no")                                   # separate acts: their order matters
    p = ref.prompt(url)["prompt"]
    assert (p["id"], p["type"]) == ("order", "order")
    assert 'data-ordered="yes"' in ref.get(url).text
    ref.post(url, order="out-of-turn,bad-dolaz")                 # tapped: out-of-turn first
    data = read_case(next((tmp_path / "interviews").glob("*/*.yaml")))
    assert data["answers"]["order"] == ["out-of-turn", "bad-dolaz"]
