"""How long `referee check GAME` takes after one article file was edited, the results of the
check before the edit cached (issue 19: ≤ 2 s).

For each rulebook, on a scratch copy with a cache folder of its own: a check fills the cache,
then each of three edits is made to the copy as it was and the rulebook checked again:

- **reworded**: the English summary of the first finding in the largest article file
  (prose: no analysis reads it, so nothing is recomputed);
- **penalty**: the first penalty amount of a production changed to another number (skat's
  penalties carry none: the first penalty's player made another seat); what the conflict,
  redundancy and order analyses of that production read, not the casebook's coverage or the
  searches for silence, which read only which findings fire;
- **condition**: the first ``is: true`` literal of a production's condition made ``is: false``
  (every unit that reads that production runs again, the casebook's cases among them).

Wall and CPU seconds of the whole `referee check` process, and whether the re-check reports
what a check without the cache does. Nothing is asserted.

    python bench/recheck.py                    # all four rulebooks
    python bench/recheck.py preferans bridge
    python bench/recheck.py --sweep 6          # 6 condition edits in every article file
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("preferans", "skat", "bridge", "ulti")


def _productions(text: str) -> tuple[int, int]:
    """Where an article file's productions stand (from ``productions:`` to ``cases:``)."""
    start = text.find("\nproductions:")
    if start < 0:
        return 0, 0
    end = text.find("\ncases:", start)
    return start, end if end > 0 else len(text)


def _reworded(text: str) -> str | None:
    m = re.search(r"summary:[^\n]*\n?[^\n]*?en:\s*[\"']?([A-Za-z][^,\n}\"']{5,})", text)
    return None if m is None else text[:m.start(1)] + "Reworded: " + text[m.start(1):]


def _penalty(text: str) -> str | None:
    """The first penalty amount of a production made another number; in a rulebook whose
    penalties carry no amounts (skat: the game ends or continues), the first penalty's player
    made another seat."""
    a, b = _productions(text)
    m = re.compile(r"amount: (\{param: \w+\}|\d+)").search(text, a, b)
    if m is not None:
        new = "7" if m.group(1) != "7" else "8"
        return text[:m.start(1)] + new + text[m.end(1):]
    seats = sorted(set(re.findall(r"player: (\w+)", text)))
    m = re.compile(r"\{player: (\w+), effect").search(text, a, b)
    if m is None or len(seats) < 2:
        return None
    other = next(x for x in seats if x != m.group(1))
    return text[:m.start(1)] + other + text[m.end(1):]


def _condition(text: str) -> str | None:
    a, b = _productions(text)
    m = re.compile(r"\{q: [\w-]+, is: (true)\}").search(text, a, b)
    return None if m is None else text[:m.start(1)] + "false" + text[m.end(1):]


EDITS = {"reworded": _reworded, "penalty": _penalty, "condition": _condition}


def _check(game: str, root: Path, env: dict, cache: bool = True) -> tuple[float, float, str]:
    referee = Path(sys.executable).parent / "referee"
    args = [str(referee), "check", game, "--knowledge", str(root)] + ([] if cache else ["--no-cache"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shown = "\n".join(line for line in done.stdout.splitlines() if not line.startswith("checked "))
    return wall, cpu, shown


def _scratch(game: str, tmp: str) -> tuple[Path, dict]:
    """A copy of the rulebook in ``tmp`` with a cache folder of its own, checked once (the cache
    warm): its knowledge root and the environment to check it in."""
    root = Path(tmp) / "knowledge"
    shutil.copytree(ROOT / "knowledge" / game, root / game)
    env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
    env.pop("REFEREE_NO_CHECK_CACHE", None)
    env.pop("REFEREE_NO_CACHE", None)
    _check(game, root, env)
    return root, env


def measure(game: str, edit: str) -> tuple[str, float, float, bool]:
    with tempfile.TemporaryDirectory(prefix="referee-recheck-") as tmp:
        root, env = _scratch(game, tmp)
        files = sorted((root / game / "articles").glob("*.yaml"), key=lambda p: -p.stat().st_size)
        for path in files:
            text = path.read_text(encoding="utf-8")
            new = EDITS[edit](text)
            if new is not None:
                path.write_text(new, encoding="utf-8")
                break
        else:
            return "-", 0.0, 0.0, True
        wall, cpu, shown = _check(game, root, env)
        _, _, fresh = _check(game, root, env, cache=False)
        return path.name, wall, cpu, shown == fresh


def _flipped(text: str, n: int) -> tuple[str, str] | None:
    """The ``n``-th ``is: true``/``is: false`` literal among an article file's productions
    turned the other way (n = 0: the first; then every seventh, so the edits spread over the
    file), and the literal as it was."""
    a, b = _productions(text)
    found = list(re.compile(r"\{q: [\w-]+, is: (true|false)\}").finditer(text, a, b))
    if n >= len(found):
        return None
    m = found[(n * 7) % len(found)]
    new = "false" if m.group(1) == "true" else "true"
    return text[:m.start(1)] + new + text[m.end(1):], m.group(0)


def sweep(game: str, per_file: int) -> list[tuple[str, str, float]]:
    """Re-check times after each of ``per_file`` condition edits in every article file (each
    edit alone, on the rulebook as it was, the cache warm before it)."""
    out = []
    with tempfile.TemporaryDirectory(prefix="referee-sweep-") as tmp:
        root, env = _scratch(game, tmp)
        for path in sorted((root / game / "articles").glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            for n in range(per_file):
                edit = _flipped(text, n)
                if edit is None:
                    break
                path.write_text(edit[0], encoding="utf-8")
                wall, _, _ = _check(game, root, env)
                out.append((f"{path.name} {edit[1]}", game, wall))
                path.write_text(text, encoding="utf-8")
                _check(game, root, env)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--sweep", type=int, metavar="N", default=0,
                    help="instead: N condition edits in every article file, one at a time; "
                         "prints the distribution of re-check times per rulebook")
    args = ap.parse_args()
    if args.sweep:
        print("| rulebook | edits | median | 90th percentile | slowest | over 2 s |")
        print("|---|---|---|---|---|---|")
        for game in args.games:
            times = sweep(game, args.sweep)
            walls = sorted(w for _, _, w in times)
            worst = max(times, key=lambda t: t[2])
            print(f"| {game} | {len(walls)} | {walls[len(walls) // 2]:.2f} s | "
                  f"{walls[int(len(walls) * 0.9)]:.2f} s | {worst[2]:.2f} s ({worst[0]}) | "
                  f"{sum(w > 2 for w in walls)} |", flush=True)
        return
    print("| rulebook | edit | file | re-check wall | CPU | same as uncached |")
    print("|---|---|---|---|---|---|")
    for game in args.games:
        for edit in EDITS:
            name, wall, cpu, same = measure(game, edit)
            print(f"| {game} | {edit} | {name} | {wall:.2f} s | {cpu:.2f} s | {'yes' if same else 'NO'} |",
                  flush=True)


if __name__ == "__main__":
    main()
