"""A JSON copy of each parsed knowledge file, so a command that starts cold skips YAML parsing.

Parsing the YAML is most of a rulebook's load time; ``json`` reads the same data several times
faster. An entry is used only while the file's path, size and modification time are unchanged,
and holds plain data (never code). Without a writable cache folder nothing is cached.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

FORMAT = 1          # bump when the encoding below changes


def cache_dir() -> Path | None:
    if os.environ.get("REFEREE_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "referee" / "yaml"


def _entry(path: Path) -> tuple[Path, dict] | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    key = {"format": FORMAT, "path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    name = hashlib.sha256(key["path"].encode()).hexdigest()[:32] + ".json"
    return folder / name, key


def get(path: Path, rebuild):
    """The data of ``path`` from the cache, or ``rebuild()`` (then stored) when stale or absent."""
    from referee.expert.language.yamlio import LineDict, LineList
    entry = _entry(path)
    if entry is not None:
        file, key = entry
        try:
            stored = json.loads(file.read_text(encoding="utf-8"),
                                object_hook=_decoder(str(path), LineDict, LineList))
            if stored.get("key") == key:
                return stored["data"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
    data = rebuild()
    if entry is not None:
        _store(entry[0], entry[1], data)
    return data


def _store(file: Path, key: dict, data) -> None:
    try:
        body = json.dumps({"key": key, "data": _encode(data)}, ensure_ascii=False)
    except (TypeError, ValueError):
        return                          # e.g. a YAML date: not worth caching
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(body)
        os.replace(tmp, file)
    except OSError:
        pass


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
