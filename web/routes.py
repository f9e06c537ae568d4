"""The pages: the start page, a new dispute's frame, one screen per prompt of the session, the
ruling, and the access code. Every POST changes a dispute through its Session only, under the
dispute's lock, saves it at once and redirects (so a reload never answers twice); a form made
for an earlier state of the dispute (a double tap, a retry after a dropped connection) is not
applied to the current one."""
from __future__ import annotations

import hashlib
import json
from urllib.parse import urlsplit

from flask import (Blueprint, abort, current_app, flash, get_flashed_messages, redirect, render_template, request,
                   session, url_for)

from referee.expert.interview.session import AnswerRefused, Prompt, Session
from referee.expert.language.answers import question_text
from referee.expert.language.errors import RefereeError
from referee.web import card_grid, forms
from referee.web.store import NotFound, write_atomic
from referee.web.words import LANG_NAMES, for_screen, words

bp = Blueprint("web", __name__)
LANGS = tuple(LANG_NAMES)
FIELD_MAX = 120        # a frame field: a name, a table, a tournament


def ext() -> dict:
    return current_app.extensions["referee"]


def owner() -> str:
    return session.get("owner", "")


def ui_lang() -> str:
    lang = session.get("ui_lang") if session else None
    if lang in LANGS:
        return lang
    try:
        configured = ext()["config"].tournament.get("language")
    except (RuntimeError, KeyError):
        configured = None
    return configured if configured in LANGS else "en"


def step_key(s: Session) -> str:
    """Names the state a screen was made for: any answer, skip or undo changes it. (The session
    settles its stage when asked for the prompt, so the key is taken after that.)"""
    s.next()
    state = s.to_state()
    state.pop("times", None)
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:20]


# --- the code ------------------------------------------------------------------------------
@bp.get("/code")
def code():
    guard = ext()["guard"]
    typed = request.args.get("c", "")
    if guard.code is None or (guard.authorized() and not typed):
        return redirect(url_for("web.start"))
    if typed:                              # the link in the QR code carries it
        return _code_answer(typed, "/")
    return code_page("/", "", 401)


@bp.post("/code")
def code_post():
    return _code_answer(request.form.get("code", ""), request.form.get("next", "/"))


def _code_answer(typed: str, target: str):
    w = words(ui_lang())
    ok, wait = ext()["guard"].try_code(typed)
    if ok:
        return redirect(_local(target), 303)
    if wait:
        return code_page(target, w["code_wait"].format(s=wait), 429, {"Retry-After": str(wait)})
    return code_page(target, w["code_wrong"], 401)


def code_page(target: str, problem: str, status: int, headers: dict | None = None):
    """The code page: the only page a visitor without the code sees, so it carries its style
    inline (with a nonce) rather than asking for a file it may not have."""
    import secrets
    from referee.web.app import inline_css
    nonce = secrets.token_urlsafe(16)
    page = render_template("code.html", w=words(ui_lang()), next=_local(target), problem=problem, nonce=nonce,
                           inline_css=inline_css())
    csp = (f"default-src 'none'; style-src 'nonce-{nonce}'; form-action 'self'; frame-ancestors 'none'; "
           "base-uri 'none'")
    return page, status, {**(headers or {}), "Content-Security-Policy": csp}


def _local(target: str) -> str:
    """Only a path on this server (never another site) after the code."""
    parts = urlsplit(target or "/")
    if parts.scheme or parts.netloc or not (parts.path or "/").startswith("/") or target.startswith("//"):
        return "/"
    return target or "/"


# --- the start page ------------------------------------------------------------------------
@bp.get("/")
def start():
    if request.args.get("lang") in LANGS:
        session["ui_lang"] = request.args["lang"]
    lang = ui_lang()
    books = ext()["books"]
    games = [(g, _title(books.book(g), lang)) for g in books.games]
    mine = ext()["store"].entries(owner())
    return render_template("start.html", w=words(lang), lang=lang, langs=LANG_NAMES, games=games,
                           progress=[e for e in mine if not e.ruling], ruled=[e for e in mine if e.ruling],
                           recent=_recent(mine), tournament=ext()["config"].tournament.get("name", ""),
                           notes=get_flashed_messages())


def _title(book, lang: str) -> str:
    return book.title.get(lang) or book.title.get("en") or book.game


def _recent(mine) -> list[dict]:
    """The register's latest rulings (this tournament's), newest first; a link to those made here."""
    from referee.expert.records.register import Register
    cfg = ext()["config"]
    try:
        with Register(cfg.register or cfg.tournament.get("register"), create=False) as reg:
            rows = reg.list()[-12:]
    except RefereeError:
        return []
    links = {e.ruling["code"]: e.id for e in mine if e.ruling}
    from referee.expert.records.record import format_code
    out = []
    for row in reversed(rows):
        shown = format_code(row["code"])
        out.append({**row, "shown": shown, "link": links.get(shown)})
    return out


# --- a new dispute ---------------------------------------------------------------------------
@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game: str):
    books = ext()["books"]
    if game not in books.games:
        abort(404)
    book = books.book(game)
    lang = ui_lang()
    choices = [(l, LANG_NAMES.get(l, l)) for l in dict.fromkeys(["en", book.language])]
    if book.language != "en":
        choices.append(("both", words(lang)["lang_both"].format(native=LANG_NAMES.get(book.language))))
    configured = ext()["config"].tournament.get("language")
    default_lang = configured if configured in dict(choices) else "en"
    if request.method == "GET":
        return render_template("frame.html", w=words(lang), game=game, title=_title(book, lang), choices=choices,
                               chosen=default_lang, seats=[(s, book.seat_label(s, lang)) for s in book.seat_ids],
                               referee=session.get("referee_name", ""),
                               tournament=ext()["config"].tournament.get("name", ""))
    f = request.form
    chosen = f.get("lang") if f.get("lang") in dict(choices) else default_lang
    header = {k: _field(f.get(k)) for k in ("tournament", "table", "deal", "referee") if _field(f.get(k))}
    if "tournament" not in header and ext()["config"].tournament.get("name"):
        header["tournament"] = ext()["config"].tournament.get("name")
    players = {s: _field(f.get(f"player:{s}")) for s in book.seat_ids if _field(f.get(f"player:{s}"))}
    if players:
        header["players"] = players
    if header.get("referee"):
        session["referee_name"] = header["referee"]
    s = Session(book, lang=book.language if chosen == "both" else chosen, header=header, ask_names=False)
    dispute = ext()["store"].create(owner(), s, chosen)
    return redirect(url_for("web.dispute", dispute=dispute), 303)


def _field(value) -> str:
    text = " ".join(str(value or "").split())
    return text[:FIELD_MAX]


# --- one screen per prompt ---------------------------------------------------------------------
def _load(dispute: str, ruler=None) -> Session:
    store, books = ext()["store"], ext()["books"]
    try:
        return store.load(owner(), dispute, books.book, (lambda _g: ruler) if ruler else None)
    except NotFound:
        abort(404, words(ui_lang())["not_found"])


def _note(dispute: str) -> dict:
    try:
        return ext()["store"].note(owner(), dispute)
    except NotFound:
        abort(404, words(ui_lang())["not_found"])


@bp.get("/d/<dispute>")
def dispute(dispute: str):
    note = _note(dispute)
    if note.get("ruling"):
        return redirect(url_for("web.ruling", dispute=dispute), 303)
    with ext()["store"].lock(owner(), dispute):
        return _screen(dispute, _load(dispute))


@bp.get("/d/<dispute>/prompt.json")
def prompt_json(dispute: str):
    """The current prompt as data (Prompt.to_dict), and the state key its form must carry."""
    _note(dispute)
    with ext()["store"].lock(owner(), dispute):
        s = _load(dispute)
        prompt = s.next()
        return {"prompt": prompt.to_dict() if prompt else None, "step": step_key(s), "stage": s.stage}


@bp.post("/d/<dispute>")
def answer(dispute: str):
    store = ext()["store"]
    with store.lock(owner(), dispute):
        note = _note(dispute)
        if note.get("ruling"):
            return redirect(url_for("web.ruling", dispute=dispute), 303)
        if request.form.get("do") == "rule":
            return _rule(dispute, note)
        s = _load(dispute)
        if request.form.get("step") != step_key(s):
            flash(words(s.lang)["stale"])
            return redirect(url_for("web.dispute", dispute=dispute), 303)
        prompt = s.next()
        if prompt is None:
            return redirect(url_for("web.dispute", dispute=dispute), 303)
        w = words(s.lang)
        stage = s.stage
        try:
            action = forms.read(prompt, request.form, s.book.game)
            if action.kind == "back":
                undone = s.back()
                if undone is None:
                    flash(w["nothing"])
                else:
                    flash(f"{w['undone']} \u201c{undone}\u201d." if prompt.kind != "card" else undone.strip("() "))
            else:
                said = s.answer(action.raw)
                if said:
                    flash(said.strip("() "))
        except (AnswerRefused, RefereeError) as exc:
            store.forget(owner(), dispute)          # whatever the refusal touched: read the file again
            if isinstance(exc, AnswerRefused):
                reason = w.get(exc.reason, exc.reason) if exc.reason == "nothing_tapped" else exc.reason
            else:
                reason = exc.message
            return _screen(dispute, _load(dispute), refusal=reason, status=422, form=request.form)
        except BaseException:
            store.forget(owner(), dispute)
            raise
        s.next()                             # settles the stage (the cards done, the review reached)
        if stage == "cards" and s.stage != "cards" and s.from_cards_note():
            flash(s.from_cards_note())
        store.save(owner(), dispute, s)
    return redirect(url_for("web.dispute", dispute=dispute), 303)


def _rule(dispute: str, note: dict):
    """The review's 'Rule': the ruling, published to the register, rendered as the front sheet."""
    from referee.expert.interview.publish import publish
    from referee.reports.document import stored_views
    from referee.reports.render import render
    store, books, cfg = ext()["store"], ext()["books"], ext()["config"]
    s = _load(dispute)
    if request.form.get("step") != step_key(s):
        flash(words(s.lang)["stale"])
        return redirect(url_for("web.dispute", dispute=dispute), 303)
    prompt = s.next()
    if prompt is None or prompt.kind != "review":
        return redirect(url_for("web.dispute", dispute=dispute), 303)
    s.answer("rule")                         # the review's explicit choice: rule now
    try:
        with books.ruler(note["game"]) as ruler:     # the rulebook's one engine, this ruling only
            ruling = s.rule(ruler)
        lang = note.get("ruling_lang") or s.lang
        code, rid = publish(ruling, s.book, cfg.tournament, register=cfg.register, cards=s.cards,
                            times=s.answer_times(), document=stored_views)
        html = render(ruling, "html", lang, code=code, tournament=cfg.tournament)
        write_atomic(store.path(owner(), dispute, ".ruling.html"), html.encode("utf-8"))
        note["ruling"] = {"code": code, "id": rid, "ruled_at": getattr(ruling, "ruled_at", ""), "lang": lang}
        store.write_note(owner(), dispute, note)
        store.save(owner(), dispute, s, "referee serve, ruled")
    except BaseException:
        store.forget(owner(), dispute)       # the session in memory said 'done': read the file again
        raise
    return redirect(url_for("web.ruling", dispute=dispute), 303)


def _screen(dispute: str, s: Session, refusal: str = "", status: int = 200, form=None):
    prompt = s.next()
    if prompt is None:
        return redirect(url_for("web.dispute", dispute=dispute), 303)
    book, lang = s.book, s.lang
    w = words(lang)
    names = s.header.get("players") or {}
    data = {
        "w": w, "lang": lang, "dispute": dispute, "prompt": prompt, "text": for_screen(prompt.text),
        "step": step_key(s), "refusal": refusal, "notes": get_flashed_messages(),
        "title": _title(book, lang), "header": s.header, "game": book.game, "form": form,
        "help": (info := s.help(prompt)), "article_groups": _by_label(info["articles"]),
        "found": _articles(book, request.args.get("article", "")),
        "asked_article": request.args.get("article", ""),
    }
    if prompt.kind == "question" and prompt.conditional_on:
        data["conditional"] = prompt.conditional_note or ", ".join(
            question_text(book.questions[q], lang) for q in prompt.conditional_on if q in book.questions)
    if prompt.kind == "card":
        data.update(_card_screen(s, prompt, w, form))
    if prompt.kind == "review":
        data["requests"] = [{"who": names.get(r.party) or book.seat_label(r.party, lang),
                             "asks": dict((o.value, o.label) for o in s.request_options()).get(r.asks, r.asks),
                             "text": r.text, "provision": r.provision} for r in s.requests]
        data["several"] = len(s.events) > 1
        data["from_cards"] = s.from_cards_rows()
    if prompt.kind == "request_provision":
        data["provisions"] = [p.label for p in book.provisions.values()]
    return render_template("prompt.html", **data), status


def _by_label(articles: list[dict]) -> list[tuple[str, list[dict]]]:
    """The articles a question feeds, one entry per label (a paragraph's provisions together)."""
    groups: dict[str, list[dict]] = {}
    for a in articles:
        groups.setdefault(a["label"], []).append(a)
    return list(groups.items())


def _articles(book, label: str) -> list:
    if not label.strip():
        return []
    from referee.expert.language.lookup import lookup
    try:
        return list(lookup(book, label.strip()))[:5]
    except RefereeError:
        return []


def _card_screen(s: Session, prompt: Prompt, w: dict, form) -> dict:
    book, game = s.book, s.book.game
    names = s.header.get("players") or {}

    def label(seat: str) -> str:
        base = book.seat_label(seat, s.lang) if seat in book.seat_ids else seat
        return f"{base} — {names[seat]}" if names.get(seat) else base
    out: dict = {"card_kind": prompt.card_kind, "player": names.get(prompt.seat, "") if prompt.seat else ""}
    if prompt.card_kind in card_grid.GRID_KINDS:
        chosen = form.getlist("card") if form else []
        out["grid"] = card_grid.grid(game, prompt.card_kind, s.cards, w, prompt.seat, label, chosen)
        out["deal_so_far"] = _deal_lines(s.cards, w, label)
    elif prompt.card_kind == "contract":
        out["choices"] = card_grid.contract_choices(game)
    elif prompt.card_kind in ("declarer", "lead", "seats"):
        seats = (s.cards or {}).get("seats") or list(card_grid.SEATS[game])
        out["choices"] = [(seat, label(seat)) for seat in seats]
    elif prompt.card_kind == "bids":
        out["bids"] = card_grid.bid_choices(game)
        out["choices"] = [(seat, label(seat)) for seat in (s.cards or {}).get("seats") or card_grid.SEATS[game]]
    if prompt.default:
        shown = " → ".join(label(x) for x in prompt.default.split()) if prompt.card_kind == "seats" \
            else label(prompt.default)
        out["default_shown"] = shown
    return out


def _deal_lines(cards: dict | None, w: dict, label) -> list[tuple[str, str]]:
    """What has been entered so far, for the referee to see beside the grid."""
    if not cards:
        return []
    lines = []
    for seat, held in (cards.get("hands") or {}).items():
        lines.append((w["hand_of"].format(seat=label(seat)), str(held)))
    for key, name in (("talon", w["talon"]), ("skat", w["talon"]), ("discard", w["discard_pile"])):
        if cards.get(key):
            lines.append((name, str(cards[key])))
    for n, trick in enumerate(cards.get("play") or [], 1):
        lines.append((w["trick_n"].format(n=n), trick if isinstance(trick, str) else json.dumps(trick, ensure_ascii=False)))
    return lines


# --- the ruling --------------------------------------------------------------------------------
@bp.get("/d/<dispute>/ruling")
def ruling(dispute: str):
    note = _note(dispute)
    if not note.get("ruling"):
        return redirect(url_for("web.dispute", dispute=dispute), 303)
    with ext()["store"].lock(owner(), dispute):
        s = _load(dispute)
    from referee.reports.pdf import chromium
    return render_template("ruling.html", w=words(s.lang), dispute=dispute, ruling=note["ruling"],
                           header=s.header, title=_title(s.book, s.lang), pdf=chromium() is not None,
                           notes=get_flashed_messages())


@bp.get("/d/<dispute>/sheet.html")
def sheet(dispute: str):
    note = _note(dispute)
    if not note.get("ruling"):
        abort(404)
    path = ext()["store"].path(owner(), dispute, ".ruling.html")
    headers = {"Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": _sheet_csp()}
    if request.args.get("download"):
        headers["Content-Disposition"] = f'attachment; filename="ruling-{note["ruling"]["code"]}.html"'
    return path.read_bytes(), 200, headers


def _sheet_csp() -> str:
    from referee.web.app import SHEET_CSP
    return SHEET_CSP


@bp.get("/d/<dispute>/sheet.pdf")
def sheet_pdf(dispute: str):
    note = _note(dispute)
    if not note.get("ruling"):
        abort(404)
    store = ext()["store"]
    pdf = store.path(owner(), dispute, ".ruling.pdf")
    with store.lock(owner(), dispute):
        if not pdf.is_file():
            from referee.reports.pdf import html_to_pdf
            try:
                data = html_to_pdf(store.path(owner(), dispute, ".ruling.html").read_text(encoding="utf-8"))
            except RefereeError:
                abort(503, words(ui_lang())["pdf_missing"])
            write_atomic(pdf, data)
    return pdf.read_bytes(), 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": f'attachment; filename="ruling-{note["ruling"]["code"]}.pdf"'}


@bp.post("/d/<dispute>/discard")
def discard(dispute: str):
    store = ext()["store"]
    with store.lock(owner(), dispute):
        try:
            store.discard(owner(), dispute)
        except NotFound:
            abort(404, words(ui_lang())["not_found"])
    flash(words(ui_lang())["discarded"])
    return redirect(url_for("web.start"), 303)
