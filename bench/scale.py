"""How `referee check` and rulings scale with the size of a rulebook.

Generates rulebooks made of k renamed copies of bridge (k independent sub-rulebooks joined at
one claim menu) and measures, in one run, for k = 1, 2, 4:

- the whole `referee check` process on that rulebook (wall and CPU time);
- the time per casebook case (every case ruled on one Ruler, warm, best of a few rounds);
- `referee check bridge` after one article file was edited, the earlier results cached.

Each figure is printed as a ratio against k = 1. Targets (bench/README.md): the 4x check
<= 4.5x the 1x check, the 4x time per case <= 1.5x the 1x time per case. Nothing is asserted.

    python bench/scale.py                      # generate into a scratch folder and measure
    python bench/scale.py --copies 4 --out DIR # only generate DIR/bridge (k = 4)

Copy 1 keeps bridge's names (so its cards.yaml still applies); copy c > 1 renames every
question (but `claim`), fact, production, provision and claim value with the suffix `_c<c>`
(`-c<c>` on values), and leaves out the cases read from a deal record (cards).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = ROOT / "knowledge" / "bridge"

# mapping keys whose values are prose, never identifiers
PROSE = {"text", "help", "label", "summary", "quote", "english", "note", "reading", "why", "title",
         "orders", "name", "description", "article"}


def _load(path: Path):
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _identifiers(questions: list, articles: dict) -> tuple[set, set]:
    """(ids renamed with '_cN', claim values, of the question and of findings, renamed with '-cN')."""
    ids: set[str] = set()
    claims: set[str] = set()
    for q in questions:
        ids.add(str(q["id"]))
    for data in articles.values():
        for q in data.get("questions") or []:
            ids.add(str(q["id"]))
        for p in data.get("provisions") or []:
            ids.add(str(p["id"]))
        for p in data.get("productions") or []:
            ids.add(str(p["id"]))
            then = p.get("then") or {}
            if then.get("derive"):
                ids.add(str(then["derive"]))
            if (then.get("finding") or {}).get("claim"):
                claims.add(str(then["finding"]["claim"]))
    ids.discard("claim")
    claim = next(q for q in questions if q["id"] == "claim")
    return ids, claims | {str(v["value"]) for v in claim["values"]}


def _rename(node, ids: set, values: set, suffix: str):
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            new_key = f"{key}_{suffix}" if isinstance(key, str) and key in ids else key
            if key in PROSE or key == "cards":
                out[new_key] = value
            else:
                out[new_key] = _rename(value, ids, values, suffix)
        return out
    if isinstance(node, list):
        return [_rename(x, ids, values, suffix) for x in node]
    if isinstance(node, str):
        if node in ids:
            return f"{node}_{suffix}"
        if node in values:
            return f"{node}-{suffix}"
    return node


def generate(copies: int, out: Path, source: Path = BRIDGE) -> Path:
    """Write ``out/bridge`` made of ``copies`` copies of the bridge rulebook; return it."""
    folder = out / "bridge"
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "articles").mkdir(parents=True)
    questions = _load(source / "questions.yaml")
    articles = {p.name: _load(p) for p in sorted((source / "articles").glob("*.yaml"))}
    ids, values = _identifiers(questions, articles)
    shutil.copy(source / "rulebook.yaml", folder / "rulebook.yaml")
    if (source / "cards.yaml").is_file():
        shutil.copy(source / "cards.yaml", folder / "cards.yaml")
    merged = [dict(q) for q in questions]
    claim = next(q for q in merged if q["id"] == "claim")
    claim["values"] = list(claim["values"])
    for c in range(1, copies + 1):
        suffix = f"c{c}"
        for name, data in articles.items():
            if c > 1:
                data = dict(_rename(data, ids, values, suffix))
                data["cases"] = [case for case in data.get("cases") or [] if not case.get("cards")]
                if not (data.get("questions") or data.get("provisions") or data.get("productions")
                        or data["cases"]):
                    continue
            target = folder / "articles" / (name if c == 1 else name.replace(".yaml", f"-{suffix}.yaml"))
            _dump(data, target)
        if c > 1:
            for q in questions:
                if q["id"] == "claim":
                    claim["values"] += [dict(v, value=f"{v['value']}-{suffix}") for v in q["values"]]
                else:
                    merged.append(_rename(q, ids, values, suffix))
    _dump(merged, folder / "questions.yaml")
    return folder


def _dump(data, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(data, fh, allow_unicode=True, sort_keys=False, width=200)


def _check(root: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of a whole `referee check bridge --knowledge ROOT`, and its summary."""
    referee = Path(sys.executable).parent / "referee"
    env = dict(os.environ, REFEREE_NO_CHECK_CACHE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(referee), "check", "bridge", "--knowledge", str(root)],
                          capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = (done.stdout.strip().splitlines() or ["?"])[-1]
    return wall, cpu, summary


def _per_case(root: Path, rounds: int = 3) -> tuple[float, int]:
    """Seconds per casebook case on one warm Ruler (best of ``rounds``), and the case count."""
    sys.path.insert(0, str(ROOT))
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.rulebook import load_rulebook
    book = load_rulebook("bridge", root)
    ruler = Ruler(book)
    cases = [c for c in book.cases if isinstance(c.answers, dict) and not c.cards]
    for case in cases:                      # warm every engine once
        ruler.rule(case.answers)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for case in cases:
            ruler.rule(case.answers)
        best = min(best, time.process_time() - t0)
    return best / len(cases), len(cases)


def _recheck_after_edit(tmp: Path) -> tuple[float, float]:
    """Wall and CPU seconds of `referee check bridge` after one article file was edited (a
    finding's wording in law 53), the results of the check before it in the cache."""
    root = tmp / "edit"
    shutil.copytree(BRIDGE, root / "bridge")
    referee = Path(sys.executable).parent / "referee"
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp / "cache"))
    env.pop("REFEREE_NO_CHECK_CACHE", None)
    env.pop("REFEREE_NO_CACHE", None)
    subprocess.run([str(referee), "check", "bridge", "--knowledge", str(root)], capture_output=True, env=env)
    article = root / "bridge" / "articles" / "law-53-lead-out-of-turn.yaml"
    article.write_text(article.read_text(encoding="utf-8").replace(
        "play continues in rotation from it.", "play goes on in rotation from it.", 1), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([str(referee), "check", "bridge", "--knowledge", str(root)], capture_output=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, nargs="*", default=[1, 2, 4])
    ap.add_argument("--out", help="only generate the rulebook (one --copies value) into this folder")
    args = ap.parse_args()
    if args.out:
        folder = generate(args.copies[0], Path(args.out))
        print(f"wrote {folder}")
        return
    rows = []
    with tempfile.TemporaryDirectory(prefix="referee-scale-") as tmp:
        for k in args.copies:
            root = Path(tmp) / f"k{k}"
            generate(k, root)
            wall, cpu, summary = _check(root)
            case, n = _per_case(root)
            rows.append((k, wall, cpu, summary, case, n))
            print(f"k={k}: check {wall:.2f} s wall, {cpu:.2f} s CPU ({summary}); "
                  f"{case * 1000:.2f} ms per case over {n} cases", flush=True)
        edit_wall, edit_cpu = _recheck_after_edit(Path(tmp))
    base = rows[0]
    print("\n| copies | check wall | check CPU | ratio (CPU) | per case | ratio | result |")
    print("|---|---|---|---|---|---|---|")
    for k, wall, cpu, summary, case, n in rows:
        print(f"| {k} | {wall:.2f} s | {cpu:.2f} s | {cpu / base[2]:.2f}x | {case * 1000:.2f} ms "
              f"({n} cases) | {case / base[4]:.2f}x | {summary} |")
    print(f"\nre-check of bridge after editing one article file (results of the check before it "
          f"cached): {edit_wall:.2f} s wall, {edit_cpu:.2f} s CPU (target <= 2 s)")


if __name__ == "__main__":
    main()
