"""`referee check` of several rulebooks at once, on every CPU the machine gives it.

Each rulebook's check is three jobs that read nothing of each other (``checks.PARTS``: its
references and casebook, and the two halves of its rule-base analysis). The jobs run in worker
processes, the longest first (by the CPU time each took in the last check, ``job-times.data``),
each worker taking the next job when it is done; a rulebook never parsed is parsed once before
its jobs start. Their results are put together in the order one process would give them: the
same problems, notes and cache file (each part hands back the cache entries it used; they are
written together, once per rulebook). On one CPU, or with ``jobs=1``, the rulebooks are checked
one after the other in this process, as before.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import queue
import tempfile
import time
from pathlib import Path
from typing import Callable

from referee.expert.authoring.checks import PARTS, check_game, finish_notes
from referee.expert.authoring.analysis.kept_walks import merged
from referee.expert.authoring.checkcache import is_warm, write_entries
from referee.expert.language.problems import Problems

_progress = None       # the workers' queue for progress labels (set in each worker)


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                   # not on Linux
        return max(1, os.cpu_count() or 1)


def check_games(games: list[str], root: str | Path | None = None,
                progress: Callable[[str, str], None] | None = None, cache: bool = True,
                jobs: int | None = None) -> dict[str, Problems]:
    """Check each rulebook; ``progress(game, label)`` is called once per step of each.
    ``jobs``: worker processes (default: one per CPU). When every rulebook's results of an
    earlier check by this code are kept, a check reads most of them: each rulebook is then one
    job (split in three, each part would load the rulebook and read the results again for a few
    units of work), and a single rulebook is checked in this process, which after an edit forks
    one helper to share the units not cached (``check_split``)."""
    jobs = cpus() if jobs is None else max(1, jobs)
    warm = cache and all(is_warm(_folder(g, root)) for g in games)
    parts = [(g, "all") for g in games] if warm else [(g, part) for g in games for part in PARTS]
    context = _context() if jobs > 1 and len(parts) > 1 else None
    if context is None:
        # a rulebook checked here after an edit shares the work with a second process
        # (``check_split``) where there are CPUs for it
        split = warm and jobs > 1
        return {g: check_game(g, root, (lambda label, g=g: progress(g, label)) if progress else None,
                              cache=cache, split=split) for g in games}
    history = _read_times()
    work = sorted(parts, key=lambda job: -_expected(job[0], job[1], root, history))
    labels = context.Queue()
    done: dict[tuple, Problems] = {}
    failed: list[BaseException] = []
    with context.Pool(min(jobs, len(work)), initializer=_start, initargs=(labels,)) as pool:
        # a rulebook whose files were never parsed is parsed once, in parallel, before its
        # three jobs start (each would parse it again: about 4 s of CPU on a first check)
        unparsed = [g for g in games if not warm and not _parsed(g, root)]
        if unparsed:
            pool.map(_parse, [(g, root) for g in unparsed])
        pending = [pool.apply_async(_run, (g, part, root, cache), callback=done.update,
                                    error_callback=failed.append) for g, part in work]
        while len(done) + len(failed) < len(pending):
            _relay(labels, progress, wait=0.05)
        _relay(labels, progress, wait=0)
    if failed:
        raise failed[0]
    _write_times(history, {(g, part): getattr(p, "cpu", None) for (g, part), p in done.items()}, root)
    if warm:
        return {g: done[(g, "all")] for g in games}
    return {g: _joined([done[(g, part)] for part in PARTS]) for g in games}


def _context():
    # fork: a worker starts with the modules already imported (spawn would import them again,
    # about a second per worker); where there is no fork, one process does it all
    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


def _start(labels) -> None:
    global _progress
    _progress = labels


def _run(game: str, part: str, root, cache: bool) -> dict:
    """One job: a part of one rulebook's check (its cache entries handed back), or all of it
    ("all": its cache written by itself, one file per rulebook)."""
    report = lambda label: _progress.put((game, label))        # noqa: E731
    start = time.process_time()
    if part == "all":
        problems = check_game(game, root, report, cache=cache)
    else:
        problems = check_game(game, root, report, cache=cache, parts=(part,), save=False)
    problems.cpu = time.process_time() - start
    return {(game, part): problems}


def _parsed(game: str, root) -> bool:
    from referee.expert.language.yamlcache import is_cached
    folder = _folder(game, root)
    try:
        # the files loading reads (``rulebook._Loader``)
        files = [folder / n for n in ("rulebook.yaml", "questions.yaml", "cards.yaml")]
        files = [p for p in files if p.is_file()] + sorted((folder / "articles").glob("*.yaml"))
    except OSError:
        return True
    return all(is_cached(p) for p in files)


def _parse(job) -> None:
    """Load a rulebook so its files' parses are cached (what loading finds is its jobs' to
    report)."""
    from referee.expert.language.rulebook import load_rulebook
    game, root = job
    try:
        load_rulebook(game, root, Problems())
    except Exception:                   # noqa: BLE001 - the jobs load it again and report it
        pass


def _relay(labels, progress, wait: float) -> None:
    """Pass the workers' progress labels on (waiting up to ``wait`` for the first)."""
    try:
        while True:
            game, label = labels.get(timeout=wait) if wait else labels.get_nowait()
            wait = 0
            if progress:
                progress(game, label)
    except queue.Empty:
        pass


def _joined(parts: list[Problems]) -> Problems:
    """One rulebook's problems as one process reports them: each part's problems and notes in
    the order of ``PARTS``, then the notes of the whole check; the cache entries the parts used
    written as one file."""
    joined = Problems(items=[item for p in parts for item in p.items])
    joined.notes = [note for p in parts for note in getattr(p, "notes", [])]
    joined.bounded = sum(getattr(p, "bounded", 0) for p in parts)
    joined.undecided = [note for p in parts for note in getattr(p, "undecided", [])]
    finish_notes(joined)
    saved = [p.cache_entries for p in parts if getattr(p, "cache_entries", None)]
    if saved:
        entries: dict = {}
        for _, _, new, _ in saved:
            entries = merged(entries, new)
        folder, file, _, logic = saved[0]
        write_entries(Path(folder), Path(file), entries, logic)
    counts = [p.cache for p in parts if getattr(p, "cache", None)]
    if counts:
        joined.cache = (sum(c[0] for c in counts), sum(c[1] for c in counts))
    return joined


def _folder(game: str, root) -> Path:
    from referee.expert.language.rulebook import knowledge_root
    try:
        return Path(knowledge_root(root)) / game
    except Exception:                    # an unknown folder: check_game reports it
        return Path(str(root or "")) / game


# --- which job first: the longest, as the last check measured it ----------------------------
# Like ninja's log of build times: a job's CPU time in the last check that ran it orders the
# next check (the longest first, so no worker is left with a long job at the end while the
# other waits). The file sizes guess where there is no history; they guess badly (ulti's
# analysis is a tenth of bridge's on files three quarters the size), which cost about a second
# of a cold check of the four rulebooks on two CPUs.

TIMES = "job-times.data"     # (not *.json: the result files are bounded by that pattern)
SECONDS_PER_BYTE = 2e-6     # the guess from file sizes, in the history's unit


def _times_file() -> Path | None:
    from referee.expert.authoring.checkcache import cache_dir
    folder = cache_dir()
    return None if folder is None else folder / TIMES


def _job_key(game: str, part: str, root) -> str:
    return f"{_folder(game, root).resolve()}::{part}"


def _read_times() -> dict:
    file = _times_file()
    if file is None or not file.is_file():
        return {}
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, (int, float))} \
        if isinstance(data, dict) else {}


def _write_times(history: dict, measured: dict, root) -> None:
    """Keep this check's job times with the others' (at most MAX_TIMES; written atomically,
    never over anything but a regular file; a history that cannot be written is skipped)."""
    file = _times_file()
    if file is None:
        return
    fresh = {_job_key(g, part, root): round(cpu, 3) for (g, part), cpu in measured.items()
             if isinstance(cpu, (int, float))}
    if not fresh:
        return
    merged = {k: v for k, v in history.items() if k not in fresh}
    merged.update(fresh)                       # the newest last; the oldest dropped past MAX_TIMES
    merged = dict(list(merged.items())[-MAX_TIMES:])
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        if file.exists() and not file.is_file():
            return
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(merged, out)
            os.replace(tmp, file)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass


MAX_TIMES = 400


def _expected(game: str, part: str, root, history: dict) -> float:
    """How long a job is likely to take: its time in the last check, else a guess from the size
    of the rulebook's files."""
    known = history.get(_job_key(game, part, root))
    if known is not None:
        return float(known)
    return _size(game, part, root) * SECONDS_PER_BYTE


def _size(game: str, part: str, root) -> int:
    """How long a job is likely to take, to start the longest first: the size of the
    rulebook's knowledge files (the first half of the analyses weighs most)."""
    try:
        size = sum(p.stat().st_size for p in _folder(game, root).rglob("*.yaml") if p.is_file())
    except (OSError, ValueError):
        size = 0
    return size * {"analysis": 3, "search": 1, "all": 5}.get(part, 1)
