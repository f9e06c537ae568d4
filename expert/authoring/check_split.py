"""A re-check of one rulebook on two CPUs: after an edit, the work the cache cannot answer is
shared with a second process.

A rule author's edit changes a few units of the check (``Analysis.unit``), but which ones, and
how many, only the edit says: a changed condition in preferans' dolaz article sends 48 pairs of
the conflict search, 85 casebook cases and the unreachable search back to work, about two
seconds on one CPU. The cold check splits a rulebook's check into three parts run apart
(``check_jobs``), each loading the rulebook again: worth it for minutes of work, not for two
seconds, and the parts are uneven (the conflict search is most of its half).

So the process that loaded the rulebook forks once (the helper starts with the rulebook, the
Ruler and the cache already in memory) and the two divide the check:

- the **lead** runs the first half of the analyses (``analysis.HALVES``: unreachable productions,
  conflicts, verdicts, redundancy);
- the **helper** runs the casebook's coverage and the second half (silent claims, unasked
  answers, unused knowledge, order), then helps with the conflict search.

The conflict pairs read nothing of each other, but which pairs there are depends on the
unreachable productions the lead has just found: the lead sends them when it reaches the
conflicts, and from then on each process takes the next pair not cached from a shared counter
as it is free (``Analysis.units``). The helper sends back everything at the end: its parts'
problems and notes, the pairs it worked out, and the cache entries it used. The lead puts them
together in the order one process gives them (as ``check_jobs._joined`` does) and writes the
cache once.

A helper that fails or dies costs only time: the lead works out whatever it did not send.
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys

from referee.expert.authoring.analysis import HALVES, analyse
from referee.expert.authoring.analysis.kept_walks import merged
from referee.expert.language.problems import Problems


def check_split(book, problems: Problems, step, ctx, ruler, cited) -> bool:
    """Check the loaded rulebook with a helper process (``problems``: what loading and the
    casebook's references found, to which the rest is added). False where this machine cannot
    fork: the caller then checks in one process."""
    from referee.expert.authoring.checks import casebook_part, finish_notes, undecided_notes
    try:
        counter = multiprocessing.get_context("fork").Value("i", 0)
    except (ValueError, OSError):
        return False
    down_r, down_w = os.pipe()              # lead -> helper: what the shared units need
    up_r, up_w = os.pipe()                  # helper -> lead: all it worked out
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()                  # nothing buffered is written twice
        except (OSError, ValueError):
            pass
    try:
        pid = os.fork()
    except OSError:
        for fd in (down_r, down_w, up_r, up_w):
            os.close(fd)
        return False
    if pid == 0:                            # the helper: never returns
        os.close(down_w)
        os.close(up_r)
        code = 0
        try:
            _help(book, ctx, ruler, cited, counter, down_r, up_w)
        except BaseException:               # noqa: BLE001 - the lead works it out instead
            code = 1
        finally:
            os._exit(code)
    os.close(down_r)
    os.close(up_w)
    partner = Partner("lead", counter, down_w, up_r, ctx.cache)
    ctx.partner = partner
    try:
        mine = Problems()
        analyse(book, mine, ruler, step, ctx=ctx, only=HALVES["analysis"])
        partner.share(None)                 # the conflicts did not run: nothing to share
        theirs = partner.collect()
    finally:
        partner.close()
        _reap(pid)
    ctx.partner = None
    if theirs is None:                      # the helper failed: its parts are done here
        casebook, search = Problems(), Problems()
        casebook_part(book, ctx, ruler, cited, casebook)
        ctx.notes, ctx.bounded = [], 0
        analyse(book, search, ruler, None, ctx=ctx, only=HALVES["search"])
        casebook, search = casebook.items, (search.items, search.notes, search.bounded)
    else:
        casebook, search = theirs["casebook"], theirs["search"]
    step("casebook")
    for label in HALVES["search"]:
        step(label)
    problems.items.extend(casebook)
    problems.items.extend(mine.items)
    problems.items.extend(search[0])
    problems.notes = list(mine.notes) + list(search[1])
    problems.bounded = mine.bounded + search[2]
    problems.undecided = undecided_notes(book)
    finish_notes(problems)
    problems.split = partner.stats
    return True


def _help(book, ctx, ruler, cited, counter, down_r, up_w) -> None:
    """The helper's share (see the module's text); its results are written to ``up_w``."""
    from referee.expert.authoring.analysis import conflicts
    from referee.expert.authoring.checks import casebook_part
    casebook = Problems()
    casebook_part(book, ctx, ruler, cited, casebook)
    ctx.notes, ctx.bounded = [], 0          # the casebook part reports no notes (as apart)
    search = Problems()
    analyse(book, search, ruler, None, ctx=ctx, only=HALVES["search"])
    partner = Partner("helper", counter, None, None)
    state = _read(down_r)
    os.close(down_r)
    if state is not None:
        ctx.unreachable = set(state["unreachable"])
        ctx.partner = partner
        conflicts.check(book, ctx, Problems())
    ctx.keep_walks()
    cache = ctx.cache
    _write(up_w, {"casebook": casebook.items,
                  "search": (search.items, search.notes, search.bounded),
                  "units": partner.done, "cache": cache.new, "counts": (cache.hits, cache.misses)})
    os.close(up_w)


class Partner:
    """One side of a split check: the shared counter of the units not cached, and the pipes."""

    def __init__(self, role: str, counter, down, up, cache=None):
        self.role, self.counter, self.down, self.up = role, counter, down, up
        self.cache = cache                  # the lead's: the helper's entries join it
        self.open = True                    # one batch of units is shared per check
        self.done: dict = {}                # the helper's: unit index -> ``Analysis.captured``
        self.theirs: dict | None = None
        self.collected = False
        self.stats = {"shared": 0, "lead": 0, "helper": 0}

    def _take(self) -> int:
        with self.counter.get_lock():
            n = self.counter.value
            self.counter.value = n + 1
        return n

    def units(self, ctx, problems: Problems, specs: list) -> list:
        """``Analysis.units`` shared: each side works out the next unit not cached until none
        is left; the lead then reports them all in order."""
        self.open = False
        todo = [i for i, (kind, name, pids, qids, _, options) in enumerate(specs)
                if not ctx.cached(kind, name, pids, qids, **options)]
        if self.role == "helper":
            while (n := self._take()) < len(todo):
                self.done[todo[n]] = ctx.captured(*specs[todo[n]][:5], **specs[todo[n]][5])
            return [None] * len(specs)
        self.share({"unreachable": sorted(getattr(ctx, "unreachable", ()))})
        worked: dict = {}
        while (n := self._take()) < len(todo):
            worked[todo[n]] = ctx.captured(*specs[todo[n]][:5], **specs[todo[n]][5])
        theirs = self.collect()
        given = theirs["units"] if theirs is not None else {}
        self.stats = {"shared": len(todo), "lead": len(worked),
                      "helper": sum(1 for i in todo if i not in worked and i in given)}
        values = []
        for i, (kind, name, pids, qids, compute, options) in enumerate(specs):
            if i not in worked and i in given:
                worked[i] = given[i]
            if i in worked:
                items, notes, bounded, value = worked[i]
                problems.items.extend(items)
                ctx.notes.extend(notes)
                ctx.bounded += bounded
            else:       # cached (replayed), or left undone by a helper that failed
                value = ctx.unit(problems, kind, name, pids, qids, compute, **options)
            values.append(value)
        return values

    def share(self, state) -> None:
        """The lead's one message to the helper (None: no units are shared)."""
        if self.down is None:
            return
        try:
            _write(self.down, state)
        except OSError:
            pass                            # the helper is gone: collect() finds out
        os.close(self.down)
        self.down = None

    def collect(self) -> dict | None:
        """The helper's results (read once; None when it failed); its cache entries join the
        lead's."""
        if not self.collected:
            self.collected = True
            self.theirs = _read(self.up) if self.up is not None else None
            if self.theirs is not None and self.cache is not None:
                self.cache.new = merged(self.cache.new, self.theirs["cache"])
                self.cache.hits += self.theirs["counts"][0]
                self.cache.misses += self.theirs["counts"][1]
        return self.theirs

    def close(self) -> None:
        self.share(None)
        if self.up is not None:
            os.close(self.up)
            self.up = None


def _write(fd: int, value) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read(fd: int):
    """One pickled value written by the other side, or None (it wrote nothing: it failed)."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return None
        if not chunk:
            break
        chunks.append(chunk)
    try:
        return pickle.loads(b"".join(chunks)) if chunks else None
    except Exception:                       # noqa: BLE001 - a helper cut off mid-message
        return None


def _reap(pid: int) -> None:
    """Wait for the helper (ended at its last write; stopped if the lead stops early)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError, OSError):
        pass
