"""`referee test --watch`: re-run a rulebook's casebook when one of its knowledge files changes.

Polling, not OS notifications: no dependency, works on every file system (also network and
container mounts), and a rulebook is a few dozen files, so a stat of each twice a second costs
nothing. A file counts as changed when its size or modification time changes, or it appears or
goes away.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable

Snapshot = dict[Path, tuple[int, int]]
_sleep = time.sleep          # looked up at each call, so a test can stand in for the clock


def snapshot(root: Path, games: Iterable[str]) -> dict[str, Snapshot]:
    """Per game, each YAML file under knowledge/<game>/ with its (mtime_ns, size)."""
    out: dict[str, Snapshot] = {}
    for game in games:
        files: Snapshot = {}
        for path in sorted((Path(root) / game).rglob("*.yaml")):
            try:
                st = path.stat()
            except OSError:          # removed between the listing and the stat
                continue
            files[path] = (st.st_mtime_ns, st.st_size)
        out[game] = files
    return out


def changed(before: dict[str, Snapshot], after: dict[str, Snapshot]) -> dict[str, list[Path]]:
    """The games whose files changed, each with the files that did (added, removed, edited)."""
    out = {}
    for game, files in after.items():
        old = before.get(game, {})
        paths = sorted(p for p in set(files) | set(old) if files.get(p) != old.get(p))
        if paths:
            out[game] = paths
    return out


def watch(root: Path, games: list[str], on_change: Callable[[dict[str, list[Path]]], None],
          interval: float = 0.5) -> None:
    """Call ``on_change`` with the changed games and files after each change, until interrupted
    (KeyboardInterrupt propagates to the caller, which says goodbye)."""
    last = snapshot(root, games)
    while True:
        _sleep(interval)
        now = snapshot(root, games)
        diff = changed(last, now)
        last = now
        if diff:
            on_change(diff)
