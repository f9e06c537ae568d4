"""The web application: its configuration, the checks on every request, the security headers on
every answer, and the error pages. The pages themselves are in routes.py."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from functools import lru_cache
from pathlib import Path

from flask import Flask, render_template, request
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from referee.expert.language.tournament import Tournament
from referee.web.auth import Guard, csrf_token
from referee.web.rulebooks import Rulebooks
from referee.web.store import Store
from referee.web.words import words

HERE = Path(__file__).resolve().parent
# The page's own files ship in the package; nothing is fetched from the internet.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "form-action 'self'; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'")
# the front sheet is the reports' own HTML document, with its style inline
SHEET_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'"


@dataclass
class WebConfig:
    interviews: Path                       # where the disputes are kept (store.py)
    tournament: Tournament = field(default_factory=Tournament)
    register: str | None = None            # the register file (None: the tournament's, $REFEREE_REGISTER, ./...)
    knowledge: str | None = None           # the knowledge root (None: the built-in rulebooks)
    code: str | None = None                # the access code; None on a loopback address
    hosts: set[str] | None = None          # the Host headers accepted (loopback), None: any
    secret: bytes | None = None            # signs the session cookie (None: kept in the interviews folder)


def secret_key(folder: Path) -> bytes:
    """The key that signs session cookies, kept (0600) in the interviews folder so that a
    restarted server still knows its referees' folders."""
    path = folder / ".secret-key"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        raise RuntimeError(f"{path}: too short to be a key; delete it and start again") from None
    key = secrets.token_bytes(48)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    return key


@lru_cache(maxsize=1)
def inline_css() -> Markup:
    """The style sheet, for the one page that carries it inline (the code page)."""
    return Markup((HERE / "static" / "style.css").read_text(encoding="utf-8").replace("</", "<\\/"))


def create_app(config: WebConfig) -> Flask:
    app = Flask(__name__, template_folder=str(HERE / "templates"), static_folder=str(HERE / "static"))
    app.secret_key = config.secret or secret_key(Path(config.interviews))
    app.config.update(
        SESSION_COOKIE_NAME="referee_session", SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30), MAX_CONTENT_LENGTH=256 * 1024,
        SEND_FILE_MAX_AGE_DEFAULT=0, TEMPLATES_AUTO_RELOAD=False,
    )
    app.jinja_env.autoescape = True          # every template, whatever its name
    app.extensions["referee"] = {
        "config": config, "store": Store(config.interviews), "books": Rulebooks(config.tournament, config.knowledge),
    }
    guard = Guard(config.code, config.hosts)
    app.extensions["referee"]["guard"] = guard
    guard.install(app)
    app.jinja_env.globals["csrf_token"] = csrf_token

    from referee.web.routes import bp
    app.register_blueprint(bp)

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        if response.mimetype == "text/html" or request.method == "POST":
            response.headers["Cache-Control"] = "no-store"      # the browser's Back asks the server again
        return response

    @app.errorhandler(HTTPException)
    def error(exc: HTTPException):
        from referee.web.routes import ui_lang
        w = words(ui_lang())
        if exc.code == 401:
            if request.method in ("GET", "HEAD"):
                from referee.web.routes import code_page
                return code_page(request.full_path.rstrip("?"), "", 401)
            return "401: the access code is needed\n", 401, {"Content-Type": "text/plain; charset=utf-8"}
        return render_template("error.html", w=w, status=exc.code, message=exc.description or exc.name), exc.code

    return app
