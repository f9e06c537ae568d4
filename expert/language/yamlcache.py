"""A JSON copy of each parsed knowledge file, so a command that starts cold skips YAML parsing.

Parsing the YAML is most of a rulebook's load time; ``json`` reads the same data several times
faster. The cache is never trusted over the files:

- an entry is found by the SHA-256 of the file's bytes (read every time), never by its path, size
  or modification time, so an edited file is always parsed again and copies of a rulebook share
  their entries;
- what a file contributes to a rulebook is the *digest of the data actually used* (the SHA-256 of
  the JSON text the data is read from, the same whether it was just parsed or came from the
  cache). The rulebook's hash in a ruling record is made of these digests, so a ruling made with
  an altered cache entry carries a hash that the files, parsed afresh (``referee verify`` does
  that), do not give;
- entries hold plain data (never code) and live in the platform's cache folder
  (``platformdirs.user_cache_dir('referee')``, on Linux ``$XDG_CACHE_HOME/referee``), which is
  kept under ``MAX_BYTES`` by removing the least recently used entries.

``REFEREE_NO_CACHE=1`` turns it off; without a writable cache folder nothing is cached.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import time
from pathlib import Path

FORMAT = 2          # bump when the encoding below or what the YAML loader accepts changes
MAX_BYTES = 32 * 1024 * 1024          # the whole cache folder
MAX_ENTRY_BYTES = 16 * 1024 * 1024    # one entry (a knowledge file is far smaller)
_TOUCH_AFTER = 3600                   # seconds: how stale an entry's mtime may be before a hit renews it


def cache_dir() -> Path | None:
    if os.environ.get("REFEREE_NO_CACHE"):
        return None
    try:
        from platformdirs import user_cache_dir
        base = Path(user_cache_dir("referee", appauthor=False))
    except Exception:           # no platformdirs (or no home): the XDG default
        base = Path(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")) / "referee"
    return base / "yaml"


def encode(data) -> str:
    """The one JSON text of parsed YAML data (lines kept), from which its digest is taken."""
    return json.dumps(_encode(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _entry(folder: Path, raw: bytes) -> Path:
    return folder / f"{hashlib.sha256(raw).hexdigest()[:48]}-{FORMAT}.json"


def is_cached(path: Path) -> bool:
    """Whether a file's bytes, as they are now, have an entry (a command about to load the same
    files in several processes parses them once first)."""
    folder = cache_dir()
    if folder is None:
        return True                     # nothing would be cached: nothing to do first
    try:
        return _entry(folder, Path(path).read_bytes()).is_file()
    except OSError:
        return True                     # unreadable: loading reports it


def load(path: Path, raw: bytes, parse) -> tuple[object, str]:
    """The data of a file whose bytes are ``raw`` and the digest of that data: from the cache when an
    entry for these bytes exists, else ``parse()`` (then stored)."""
    from referee.expert.language.yamlio import LineDict, LineList
    folder = cache_dir()
    entry = None
    if folder is not None:
        entry = _entry(folder, raw)
        try:
            st = os.lstat(entry)        # a FIFO or a link to /dev/zero planted there is not read
            if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_ENTRY_BYTES:
                body = entry.read_text(encoding="utf-8")
                data = json.loads(body, object_hook=_decoder(str(path), LineDict, LineList))
                if isinstance(data, (dict, list)):
                    _touch(entry)
                    return data, digest(body)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            pass
    data = parse()
    body = encode(data)
    if entry is not None:
        _store(entry, body)
    return data, digest(body)


def _touch(entry: Path) -> None:
    try:
        if time.time() - entry.stat().st_mtime > _TOUCH_AFTER:
            os.utime(entry)
    except OSError:
        pass


def _store(file: Path, body: str) -> None:
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(body)
            os.replace(tmp, file)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return
    prune(file.parent)


def prune(folder: Path, limit: int | None = None) -> int:
    """Remove the least recently used entries until the folder holds at most 3/4 of ``limit``
    (only when it holds more than ``limit``); also stale temporary files and entries of older
    formats. Returns how many entries went for the limit."""
    try:
        entries = []
        for item in os.scandir(folder):
            if not item.is_file(follow_symlinks=False):
                continue
            st = item.stat(follow_symlinks=False)
            if item.name.endswith(".tmp") and time.time() - st.st_mtime > 3600:
                os.unlink(item.path)        # left by a process killed while storing
                continue
            if item.name.endswith(".json") and not item.name.endswith(f"-{FORMAT}.json"):
                os.unlink(item.path)        # an entry of an older format is never read again
                continue
            entries.append((st.st_mtime, st.st_size, item.path))
    except OSError:
        return 0
    limit = MAX_BYTES if limit is None else limit
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return 0
    removed = 0
    for _, size, name in sorted(entries):
        if total <= limit * 3 // 4:
            break
        try:
            os.unlink(name)
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def _encode(x):
    if isinstance(x, dict):
        return {"l": getattr(x, "line", None), "d": [[k, _encode(v)] for k, v in x.items()]}
    if isinstance(x, list):
        return {"l": getattr(x, "line", None), "s": [_encode(v) for v in x]}
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(type(x).__name__)


def _decoder(file, LineDict, LineList):
    """Rebuild LineDict/LineList while ``json`` parses (an object hook runs once per object)."""
    def hook(obj):
        if "d" in obj and "l" in obj:
            out = LineDict(obj["d"])
        elif "s" in obj and "l" in obj:
            out = LineList(obj["s"])
        else:
            return obj
        out.file, out.line = file, obj["l"]
        return out
    return hook
