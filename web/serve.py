"""`referee serve`: the web page on the chief referee's laptop, for the venue's own network.

The server is Waitress (a pure-Python WSGI server made for serving, not a development server),
with a few threads: a handful of referees tapping at once is its whole load. On a loopback
address it asks no code; on any other it prints the access code, the addresses to open, and a
QR code of the address with the code in it, for a phone's camera.
"""
from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Callable

from referee.expert.language.errors import RefereeError
from referee.expert.language.tournament import Tournament
from referee.web.app import WebConfig, create_app
from referee.web.auth import is_loopback, loopback_hosts, new_code

THREADS = 8


def make_server(host: str, port: int, interviews: Path, *, register: str | None = None,
                knowledge: str | None = None, tournament: Tournament | None = None, code: str | None = None,
                require_code: bool | None = None, secret: bytes | None = None):
    """The server, listening but not yet serving (``.run()`` serves, ``.close()`` stops). A code
    is required on any address that is not loopback (``require_code`` True asks it on loopback
    too, as the tests do); it is ``code``, or a new one."""
    import waitress
    loopback = is_loopback(host)
    if require_code is None:
        require_code = not loopback
    if require_code and code is None:
        code = new_code()
    config = WebConfig(Path(interviews), tournament or Tournament(), register, knowledge,
                       code if require_code else None, None, secret)
    app = create_app(config)
    try:
        server = waitress.create_server(app, host=host, port=port, threads=THREADS, ident="referee",
                                        clear_untrusted_proxy_headers=True)
    except OSError as exc:
        raise RefereeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port "
                           "(or --host)") from None
    if loopback:       # only names of this laptop's loopback, with the port actually listened on
        app.extensions["referee"]["guard"].hosts = loopback_hosts(host, server.effective_port)
    server.referee_code = config.code
    server.referee_app = app
    return server


def addresses(host: str) -> list[str]:
    """The addresses a phone on the venue's network can open: the laptop's own interfaces, as
    `ip addr` (Linux) or `ifconfig` (macOS) list them, else what its host name resolves to.
    Only local configuration is read; nothing is sent anywhere."""
    if host not in ("0.0.0.0", "::", ""):
        return [host]
    found: list[str] = []
    for command in (["ip", "-4", "-o", "addr", "show", "scope", "global", "up"], ["ifconfig"]):
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        found += [a for a in interface_addresses(out) if a not in found]
        if found:
            return found
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            addr = info[4][0]
            if addr not in found and not is_loopback(addr):
                found.append(addr)
    except OSError:
        pass
    return found


def interface_addresses(listing: str) -> list[str]:
    """IPv4 addresses in `ip -o addr` or `ifconfig` output, loopback and link-local left out."""
    found = []
    for addr in re.findall(r"\binet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", listing):
        if not is_loopback(addr) and not addr.startswith("169.254.") and addr not in found:
            found.append(addr)
    return found


def url(addr: str, port: int, path: str = "/") -> str:
    shown = f"[{addr}]" if ":" in addr else addr
    return f"http://{shown}:{port}{path}"


def banner(server, host: str, echo: Callable[[str], None], qr: bool = True) -> None:
    port = server.effective_port
    code = server.referee_code
    if code is None:
        echo(f"referee serve: open {url('127.0.0.1' if host in ('localhost',) else host, port)} on this laptop")
        echo("  (only this laptop can reach it; --host 0.0.0.0 lets phones on the venue's network in, with a code)")
    else:
        shown = addresses(host)
        echo("referee serve: on the venue's network, open")
        for addr in shown or ["<this laptop's address>"]:
            echo(f"  {url(addr, port)}")
        echo(f"access code: {code}")
        if qr and shown:
            link = url(shown[0], port, f"/code?c={code.replace('-', '')}")
            echo(f"or scan this (it opens {link}):")
            echo(_qr(link))
    echo("Ctrl-C stops the server; every dispute is saved after each answer.")


def _qr(text: str) -> str:
    import io

    import segno
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")


def serve(host: str, port: int, interviews: Path, *, register: str | None = None, knowledge: str | None = None,
          tournament: Tournament | None = None, echo: Callable[[str], None] = print) -> None:
    server = make_server(host, port, interviews, register=register, knowledge=knowledge, tournament=tournament)
    import threading
    threading.Thread(target=server.referee_app.extensions["referee"]["books"].warm, daemon=True).start()
    banner(server, host, echo)
    try:
        server.run()
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        server.close()
        sys.stdout.flush()
