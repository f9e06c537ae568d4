"""Where the web page keeps interviews: one folder per referee (a browser session), one case file
per dispute, in the format `referee interview --save` writes (answers, header, cards and the
``session:`` block), saved atomically after every answer. A server restart, a closed tab or a
dropped connection loses nothing: the next request reopens the dispute from its file, and the
command line can continue it too (``referee interview GAME --resume FILE``).

    ROOT/<referee>/<dispute>.yaml          the case file with its session block
    ROOT/<referee>/<dispute>.json          the page's own note: ruling language, and the ruling once made
    ROOT/<referee>/<dispute>.ruling.html   the signed front sheet as rendered when ruled
    ROOT/<referee>/<dispute>.ruling.pdf    its PDF, printed on the first download
    ROOT/<referee>/discarded/              disputes the referee discarded (never deleted)

A referee's folder is named by a random id kept in that referee's signed session cookie, and a
dispute is looked up only inside it: another referee's dispute is simply not there.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import stat
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from referee.expert.interview.casefile import read_case, save_session
from referee.expert.interview.session import Session
from referee.expert.language.errors import RefereeError

OWNER = re.compile(r"^[0-9a-f]{32}$")
DISPUTE = re.compile(r"^[a-z]{1,20}-\d{8}-\d{6}-[0-9a-z]{8}$")


class NotFound(Exception):
    """No such dispute in this referee's folder (or a name that could never be one)."""


@dataclass
class Entry:
    """A dispute as the start page lists it."""
    id: str
    game: str
    header: dict
    stage: str
    saved: str               # when its file was last written (local time, minutes)
    ruling: dict | None      # {code, id, ruled_at, lang} once ruled


def new_owner() -> str:
    return secrets.token_hex(16)


def write_atomic(path: Path, data: bytes) -> None:
    """Write a whole file or nothing; never replace what is not a regular file."""
    _check_regular(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".web-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _signature(path: Path) -> tuple | None:
    """What changes whenever the file is written (None: no such file)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _check_regular(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise RefereeError("not a regular file; refusing to replace it", str(path))


LIVE = 64      # sessions kept in memory (the file stays the truth: a changed file is read again)


class Store:
    def __init__(self, root: str | Path):
        self.root = Path(root)
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()
        # (referee, dispute) -> (the file's signature when last read or written, its Session):
        # the page shown after an answer is then the session that took it, with its next prompt
        # already worked out. Used only under the dispute's lock.
        self._live: OrderedDict[tuple[str, str], tuple[tuple, Session]] = OrderedDict()

    # --- names ---------------------------------------------------------------------------
    def folder(self, owner: str) -> Path:
        if not OWNER.match(owner or ""):
            raise NotFound(owner)
        return self.root / owner

    def path(self, owner: str, dispute: str, suffix: str = ".yaml") -> Path:
        if not DISPUTE.match(dispute or ""):
            raise NotFound(dispute)
        return self.folder(owner) / f"{dispute}{suffix}"

    def lock(self, owner: str, dispute: str) -> threading.Lock:
        """One request at a time changes a dispute (two taps, two tabs)."""
        with self._guard:
            return self._locks.setdefault((owner, dispute), threading.Lock())

    # --- disputes --------------------------------------------------------------------------
    def create(self, owner: str, session: Session, ruling_lang: str) -> str:
        now = datetime.now()
        dispute = f"{session.book.game}-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"
        self.write_note(owner, dispute, {"game": session.book.game, "ruling_lang": ruling_lang,
                                         "created": now.astimezone().isoformat(timespec="seconds")})
        self.save(owner, dispute, session)
        return dispute

    def save(self, owner: str, dispute: str, session: Session, note: str = "referee serve, in progress") -> None:
        path = self.path(owner, dispute)
        _check_regular(path)
        path.parent.mkdir(parents=True, exist_ok=True)      # the referee's own folder (save_session makes none)
        save_session(path, session, note)
        self._remember((owner, dispute), _signature(path), session)

    def load(self, owner: str, dispute: str, book_of, ruler_of=None) -> Session:
        """The dispute's session, exactly as last saved. ``book_of(game)`` gives the rulebook;
        with ``ruler_of(game)`` the session is read from its file and rules with that engine."""
        path = self.path(owner, dispute)
        signature = _signature(path)
        if signature is None:
            raise NotFound(dispute)
        key = (owner, dispute)
        with self._guard:
            live = self._live.get(key)
            if live is not None and live[0] == signature and ruler_of is None:
                self._live.move_to_end(key)
                return live[1]
        data = read_case(path)
        book = book_of(data["game"])
        session = Session.resume(book, data, ruler=ruler_of(data["game"]) if ruler_of else None,
                                 source=str(path))
        self._remember(key, signature, session)
        return session

    def forget(self, owner: str, dispute: str) -> None:
        """Drop the session kept in memory (a refused answer: the file is read again)."""
        with self._guard:
            self._live.pop((owner, dispute), None)

    def _remember(self, key: tuple[str, str], signature, session: Session) -> None:
        with self._guard:
            self._live[key] = (signature, session)
            self._live.move_to_end(key)
            while len(self._live) > LIVE:
                self._live.popitem(last=False)

    def note(self, owner: str, dispute: str) -> dict:
        path = self.path(owner, dispute, ".json")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise NotFound(dispute) from None

    def write_note(self, owner: str, dispute: str, note: dict) -> None:
        write_atomic(self.path(owner, dispute, ".json"),
                     json.dumps(note, ensure_ascii=False, indent=1).encode("utf-8"))

    def entries(self, owner: str) -> list[Entry]:
        """This referee's disputes, the most recently saved first."""
        try:
            folder = self.folder(owner)
        except NotFound:
            return []
        found = []
        for path in folder.glob("*.yaml"):
            dispute = path.stem
            if not DISPUTE.match(dispute):
                continue
            try:
                data = read_case(path)
                note = self.note(owner, dispute)
            except (RefereeError, NotFound, OSError, ValueError):
                continue
            session = data.get("session") or {}
            mtime = path.stat().st_mtime
            found.append((mtime, Entry(dispute, str(data.get("game")), dict(data.get("header") or {}),
                                       str(session.get("stage") or "questions"),
                                       datetime.fromtimestamp(mtime, timezone.utc).astimezone()
                                       .strftime("%Y-%m-%d %H:%M"), note.get("ruling"))))
        return [e for _, e in sorted(found, key=lambda f: f[0], reverse=True)]

    def discard(self, owner: str, dispute: str) -> None:
        """Move the dispute's files to discarded/ (a referee's mistake is never lost either)."""
        path = self.path(owner, dispute)
        if not path.is_file():
            raise NotFound(dispute)
        bin_ = self.folder(owner) / "discarded"
        bin_.mkdir(exist_ok=True)
        self.forget(owner, dispute)
        for suffix in (".yaml", ".json", ".ruling.html", ".ruling.pdf"):
            src = self.path(owner, dispute, suffix)
            if src.is_file():
                os.replace(src, bin_ / src.name)
