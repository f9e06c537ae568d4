"""Benchmarks for referee, each reported as a ratio against a baseline measured in the same run.

Run: python bench/run.py [--quick]. Prints a table; asserts nothing (targets are read, not enforced).
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.expert.language.answers import check_all  # noqa: E402
from referee.expert.interview.relevance import Interview  # noqa: E402
from referee.expert.language.rulebook import list_games, load_rulebook  # noqa: E402
from referee.expert.engine.ruler import Ruler  # noqa: E402

FLOOR = ("import collections, collections.abc; collections.Mapping = collections.abc.Mapping; "
         "import experta, click, yaml, jinja2")


def books(root=None):
    result = []
    for game in list_games(root):
        try:
            result.append(load_rulebook(game, root))
        except Exception as exc:  # a rulebook that does not load is reported, not benchmarked
            print(f"  (skipping {game}: {exc})")
    return result


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def interview_steps(all_books):
    """Time from an answer to the next question, replaying every casebook case."""
    times = []
    for book in all_books:
        for case in book.cases:
            answers = check_all(case.answers, book)
            interview = Interview(book)
            for _ in range(len(book.questions) + 1):
                start = time.perf_counter()
                q = interview.next_question()
                times.append(time.perf_counter() - start)
                if q is None or q.id not in answers:
                    break
                interview.give(q.id, answers[q.id])
    return times


def warm_rulings(all_books, seconds):
    """Cases per second with one engine per rulebook, reused (reset per case)."""
    work = []
    for book in all_books:
        ruler = Ruler(book)
        work += [(ruler, check_all(c.answers, book)) for c in book.cases]
    if not work:
        return 0.0, 0
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for ruler, answers in work:
            ruler.rule(answers)
        done += len(work)
    return done / (time.perf_counter() - start), len(work)


def median_run(cmd, runs, cwd=ROOT):
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)     # warm the disk and the caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def compile_bytecode():
    """Write our modules' bytecode, as ``pip install`` does (the floor's libraries have theirs)."""
    import compileall
    for folder in ("expert", "reports"):
        compileall.compile_dir(ROOT / folder, quiet=1)
    compileall.compile_file(ROOT / "cli.py", quiet=1)


def cold_start(all_books, runs):
    """(with the register write, without it, floor): whole processes, medians."""
    book = next((b for b in all_books if b.cases), None)
    if book is None:
        return None
    case = book.cases[0]
    import yaml
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.yaml"
        path.write_text(yaml.safe_dump({"game": book.game, "answers": case.answers}, allow_unicode=True))
        floor = median_run([sys.executable, "-c", FLOOR], runs)
        os.environ["REFEREE_REGISTER"] = str(Path(tmp) / "register.sqlite")   # as a user runs it
        beside = Path(sys.executable).with_name("referee")   # not a shim in front of it, as for the floor
        command = [str(beside) if beside.exists() else "referee", "rule", str(path), "--format", "json"]
        saved = median_run(command, runs)
        unsaved = median_run(command + ["--no-register"], runs)
    return saved, unsaved, floor


def check_time():
    start = time.perf_counter()
    subprocess.run(["referee", "check"], cwd=ROOT, capture_output=True)
    return time.perf_counter() - start


def memory_run(n):
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "memory_run.py"), str(n),
                          os.environ.get("REFEREE_KNOWLEDGE", "")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [tuple(map(float, line.split())) for line in out.split("\n") if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--knowledge", default=None, help="another knowledge root")
    args = parser.parse_args()
    runs = 3 if args.quick else 9
    all_books = books(args.knowledge)
    if args.knowledge:
        os.environ["REFEREE_KNOWLEDGE"] = args.knowledge
    cases = sum(len(b.cases) for b in all_books)
    print(f"rulebooks: {', '.join(b.game for b in all_books)}; {cases} casebook cases\n")
    rows = []
    steps = interview_steps(all_books)
    p50, p95 = percentile(steps, 50) * 1000, percentile(steps, 95) * 1000
    rows.append(("interview step p50", f"{p50:.2f} ms", "50 ms", f"{p50 / 50:.3f}"))
    rows.append(("interview step p95", f"{p95:.2f} ms", "50 ms", f"{p95 / 50:.3f}"))
    cold = cold_start(all_books, runs)
    if cold:
        saved, unsaved, floor = cold
        for label, ours in (("cold start `referee rule --format json`", saved),
                            ("  the same with --no-register", unsaved)):
            rows.append((label, f"{ours * 1000:.0f} ms", f"import floor {floor * 1000:.0f} ms (target 2x)",
                         f"{ours / floor:.2f}x"))
    gc.collect()
    rate, n = warm_rulings(all_books, 1.5 if args.quick else 4)
    rows.append((f"warm rulings ({n} cases, engine reused)", f"{rate:.0f} cases/s", "300 cases/s",
                 f"{rate / 300:.2f}x"))
    t = check_time()
    rows.append(("`referee check` all rulebooks", f"{t:.1f} s", "30 s", f"{t / 30:.3f}"))
    mem = memory_run(2000 if args.quick else 10000)
    if mem:
        first, last = mem[0], mem[-1]
        rows.append((f"peak RSS over {int(last[0])} rulings", f"{last[1]:.1f} MiB",
                     f"after {int(first[0])} rulings {first[1]:.1f} MiB", f"{last[1] / first[1]:.3f}"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':{width}}  {'value':>14}  {'baseline / target':34}  ratio")
    for name, value, base, ratio in rows:
        print(f"{name:{width}}  {value:>14}  {base:34}  {ratio}")


if __name__ == "__main__":
    main()
