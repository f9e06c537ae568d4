"""The register's seals: a keyed, chained MAC over every ruling as it was saved.

Each ruling's verification code (``record.compute_code``) is an unkeyed hash of its record: anyone
can recompute it, so it proves nothing about a record edited together with its code. The seal is
what the register trusts:

    seal(n) = HMAC-SHA256(key, "referee-seal/1" | seal(previous ruling) | n | saved | record text)

- the **key** is 32 random bytes in a file beside the register (``<register>.key``, mode 0600,
  created with the register). Without it nobody can make a seal that checks, so an edited record,
  index row or column is found by ``referee register verify``, and every query reads sealed data;
- the **chain** (each seal covers the previous ruling's) makes a removed ruling, a re-ordered pair
  or a re-sealed earlier ruling break the seal of the ruling after it;
- the **head** (the last seal, printed short by ``register verify``) is what to write down at the
  end of a round: cutting rulings off the end of the register leaves a valid but shorter chain,
  which only a head noted elsewhere (or the printed codes of the missing rulings) shows.

What it does not protect against: anyone who can read the key file and write the register can
rewrite and re-seal everything (keep the key where the register's copies and syncs do not go, or
readable by the tournament's account only); the register's own SQLite file can be deleted or
replaced by an older copy whose chain is valid (only the noted head or the printed codes show it).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from referee.expert.language.errors import RefereeError

SEAL_FORMAT = b"referee-seal/1"
KEY_SUFFIX = ".key"


def key_path(register_path: str | os.PathLike) -> Path:
    p = Path(register_path)
    return p.with_name(p.name + KEY_SUFFIX)


def key_id(key: bytes) -> str:
    """A fingerprint of the key, kept in the register: the key file that belongs to it."""
    return hashlib.sha256(b"referee-key-id\0" + key).hexdigest()[:16]


def read_key(register_path: str | os.PathLike) -> bytes | None:
    """The register's key, or None when there is no key file."""
    path = key_path(register_path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RefereeError(f"cannot read the register's key: {exc.strerror}", str(path)) from None
    if not stat.S_ISREG(st.st_mode):
        raise RefereeError("the register's key is not a regular file, expected the key file made "
                           "with the register", str(path))
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError):
        raise RefereeError("not a register key (expected 64 hexadecimal digits)", str(path)) from None
    if len(key) != 32:
        raise RefereeError("not a register key (expected 64 hexadecimal digits)", str(path))
    return key


def create_key(register_path: str | os.PathLike) -> bytes:
    """Make the key file (mode 0600) unless one exists, and return the key in it. Written to a
    temporary file and linked into place, so two processes creating a register at once end with
    one complete key."""
    path = key_path(register_path)
    existing = read_key(register_path)
    if existing is not None:
        return existing
    key = secrets.token_bytes(32)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(key.hex() + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    except OSError as exc:
        raise RefereeError(f"cannot create the register's key: {exc.strerror}", str(path)) from None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    got = read_key(register_path)
    if got is None:
        raise RefereeError("cannot create the register's key", str(path))
    return got


def compute_seal(key: bytes, previous: str | None, rid: int, saved: str, record_text: str) -> str:
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in (SEAL_FORMAT, (previous or "").encode("ascii"), str(rid).encode("ascii"),
                 str(saved).encode("utf-8"), record_text.encode("utf-8")):
        mac.update(len(part).to_bytes(8, "big"))     # lengths first: no two inputs run together
        mac.update(part)
    return mac.hexdigest()


def seal_matches(key: bytes, seal: str | None, previous: str | None, rid: int, saved: str,
                 record_text: str) -> bool:
    if not isinstance(seal, str) or not isinstance(record_text, str):
        return False
    return hmac.compare_digest(seal, compute_seal(key, previous, rid, saved, record_text))


def short(seal: str | None) -> str:
    """The head as written down: 10 characters, in two groups."""
    s = (seal or "").upper()[:10]
    return f"{s[:5]}-{s[5:]}" if s else "(none)"
