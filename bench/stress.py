"""Stress the ruling register: concurrent writers and writers killed mid-save.

Run: python bench/stress.py [--writers-n 1000] [--kills 100]. Prints what it tried and what it
found; exits 1 if a ruling was lost or corrupted. (The test suite runs smaller versions.)
"""
from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.expert.records.record import compute_code  # noqa: E402
from referee.expert.records.register import Register  # noqa: E402

WRITER = """
import sys, os, time
sys.path.insert(0, {root!r})
from referee.expert.language.answers import check_all
from referee.expert.records.record import build_record
from referee.expert.records.register import Register
from referee.expert.language.rulebook import load_rulebook
from referee.expert.engine.ruler import Ruler
who, n, path, go = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
book = load_rulebook("preferans"); ruler = Ruler(book)
cases = [check_all(c.answers, book) for c in book.cases]
while go != "-" and not os.path.exists(go):
    time.sleep(0.001)
with Register(path) as reg:
    for i in range(n):
        ruling = ruler.rule(cases[i % len(cases)], {{"table": who, "deal": i, "referee": who}})
        reg.save(build_record(ruling, book, date="2026-11-29"))
        print(i, flush=True)
"""


def check(path: Path) -> tuple[int, int]:
    """(rulings, corrupted) in the register."""
    with Register(path) as reg:
        assert reg.integrity() == "ok", "integrity check failed"
        bad = sum(1 for _id, rec in reg.records() if compute_code(rec) != rec["code"])
        return reg.count(), bad


def concurrent(n: int, tmp: Path) -> bool:
    path, go = tmp / "shared.sqlite", tmp / "go"
    code = WRITER.format(root=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", code, who, str(n), str(path), str(go)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for who in ("north", "south")]
    time.sleep(2)
    start = time.perf_counter()
    go.write_text("go")
    for p in procs:
        _out, err = p.communicate(timeout=1800)
        if p.returncode != 0:
            print(err)
            return False
    took = time.perf_counter() - start
    count, bad = check(path)
    print(f"two writers x {n} rulings at once: {count} in the register, {bad} corrupted, "
          f"integrity ok, {took:.1f} s ({2 * n / took:.0f} rulings/s)")
    return count == 2 * n and bad == 0


def kills(k: int, tmp: Path, seed: int = 29) -> bool:
    rng = random.Random(seed)
    path = tmp / "killed.sqlite"
    code = WRITER.format(root=str(ROOT))
    expected_min = 0
    for i in range(k):
        proc = subprocess.Popen([sys.executable, "-c", code, f"k{i}", "100000", str(path), "-"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        proc.stdout.readline()                      # one ruling saved: the writer is in its loop
        time.sleep(rng.uniform(0, 0.05))
        proc.send_signal(signal.SIGKILL)
        done = proc.stdout.read().split()
        proc.wait()
        saved = 1 + len(done)                       # rulings the writer reported complete
        count, bad = check(path)
        expected_min += saved
        if bad or count < expected_min or count > expected_min + 1:
            print(f"kill {i}: {count} rulings, expected {expected_min} (+1 in flight), {bad} corrupted")
            return False
        expected_min = count
    print(f"{k} writers killed (SIGKILL) at random points while saving: register valid every time, "
          f"{expected_min} complete rulings kept, none corrupted, none half-written")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--writers-n", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ok = concurrent(args.writers_n, Path(tmp)) and kills(args.kills, Path(tmp))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
