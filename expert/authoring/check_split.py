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
  answers, unused knowledge, order), then helps with the lead's batches.

A batch is a list of units that read nothing of each other (``Analysis.units``): the searches
for a witness of each production no casebook case fires, and the pairs of findings compared.
Which units a batch holds depends on what the lead has just found (the productions dead by
their literals, those the casebook witnesses, those unreachable), so the lead sends that state
when it reaches the batch; the helper makes the same list from it (``_batches``), and from then
on each process takes the next unit not cached from the batch's shared counter as it is free.
The helper sends each batch's units as it finishes its share, and its parts' problems, notes
and cache entries at the end; the lead puts them together in the order one process gives them
(as ``check_jobs._joined`` does) and writes the cache once.

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
        mp = multiprocessing.get_context("fork")
        counters = {name: mp.Value("i", 0) for name in BATCHES}
    except (ValueError, OSError):
        return False
    down_r, down_w = os.pipe()              # lead -> helper: each batch's state
    up_r, up_w = os.pipe()                  # helper -> lead: each batch's units, then its parts
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
            _help(book, ctx, ruler, cited, counters, down_r, up_w)
        except BaseException:               # noqa: BLE001 - the lead works it out instead
            code = 1
        finally:
            os._exit(code)
    os.close(down_r)
    os.close(up_w)
    partner = Partner(counters, down_w, up_r, ctx.cache)
    ctx.partner = partner
    try:
        mine = Problems()
        analyse(book, mine, ruler, step, ctx=ctx, only=HALVES["analysis"])
        theirs = partner.finish()
    finally:
        partner.close()
        _reap(pid, finished=partner.parts is not None)
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


def _batches() -> dict:
    """The batches of units the two processes share, by name: how the helper makes a batch's
    specs from the state the lead sends (the same specs the lead made)."""
    from referee.expert.authoring.analysis import conflicts, unreachable
    return {"unreachable": unreachable.search_specs, "conflicts": conflicts.pair_specs}


BATCHES = ("unreachable", "conflicts")


def _help(book, ctx, ruler, cited, counters, down_r, up_w) -> None:
    """The helper's share (see the module's text): its parts, then its share of each batch the
    lead sends the state of, until the lead says there are no more."""
    from referee.expert.authoring.checks import casebook_part
    casebook = Problems()
    casebook_part(book, ctx, ruler, cited, casebook)
    ctx.notes, ctx.bounded = [], 0          # the casebook part reports no notes (as apart)
    search = Problems()
    analyse(book, search, ruler, None, ctx=ctx, only=HALVES["search"])
    makers = _batches()
    while (message := _receive(down_r)) is not None:
        name, state = message
        specs = makers[name](book, ctx, state)
        todo = _not_cached(ctx, specs)
        done = {}
        while (n := _take(counters[name])) < len(todo):
            i = todo[n]
            done[i] = ctx.captured(*specs[i][:5], **specs[i][5])
        _send(up_w, ("units", name, done))
    ctx.keep_walks()
    cache = ctx.cache
    _send(up_w, ("parts", {"casebook": casebook.items,
                           "search": (search.items, search.notes, search.bounded),
                           "cache": cache.new, "counts": (cache.hits, cache.misses)}))
    os.close(up_w)


def _not_cached(ctx, specs) -> list[int]:
    return [i for i, (kind, name, pids, qids, _, options) in enumerate(specs)
            if not ctx.cached(kind, name, pids, qids, **options)]


def _take(counter) -> int:
    with counter.get_lock():
        n = counter.value
        counter.value = n + 1
    return n


class Partner:
    """The lead's side of a split check: the batches' shared counters, and the pipes."""

    def __init__(self, counters: dict, down, up, cache=None):
        self.counters, self.down, self.up = counters, down, up
        self.cache = cache                  # the lead's: the helper's entries join it
        self.alive = True                   # False once the helper failed: nothing more shared
        self.shared: set = set()            # the batches shared so far (each once)
        self.parts: dict | None = None
        self.stats: dict = {}

    def units(self, ctx, problems: Problems, specs: list, batch: str, state) -> list:
        """``Analysis.units`` shared: the helper is sent the batch's state, each side works
        out the next unit not cached until none is left; the lead reports them all in order."""
        if not self.alive or batch in self.shared or batch not in self.counters:
            return [ctx.unit(problems, kind, name, pids, qids, compute, **options)
                    for kind, name, pids, qids, compute, options in specs]
        self.shared.add(batch)
        self._tell((batch, state))
        todo = _not_cached(ctx, specs)
        worked: dict = {}
        while (n := _take(self.counters[batch])) < len(todo):
            worked[todo[n]] = ctx.captured(*specs[todo[n]][:5], **specs[todo[n]][5])
        given: dict = {}
        if len(worked) < len(todo):         # the helper took some: wait for them (an answer
            given = self._results(batch) or {}    # to a batch it took none of is skipped later)
        self.stats[batch] = {"shared": len(todo), "lead": len(worked),
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

    def _tell(self, message) -> None:
        if self.down is None:
            return
        try:
            _send(self.down, message)
        except OSError:
            self.alive = False              # the helper is gone: _results finds out

    def _results(self, batch: str) -> dict | None:
        """The helper's units of ``batch`` (None: it failed)."""
        while self.alive:
            message = _receive(self.up) if self.up is not None else None
            if message is None:
                self.alive = False
                return None
            if message[0] == "units" and message[1] == batch:
                return message[2]
            if message[0] == "parts":
                self._take_parts(message[1])
                return None
            # (units of a batch the lead worked out alone: skipped)
        return None

    def finish(self) -> dict | None:
        """No more batches: the helper's parts (None when it failed); its cache entries join
        the lead's."""
        if self.down is not None:
            self._tell(None)
            os.close(self.down)
            self.down = None
        while self.alive and self.parts is None:
            message = _receive(self.up) if self.up is not None else None
            if message is None:
                self.alive = False
            elif message[0] == "parts":
                self._take_parts(message[1])
        return self.parts

    def _take_parts(self, parts: dict) -> None:
        self.parts = parts
        if self.cache is not None:
            self.cache.new = merged(self.cache.new, parts["cache"])
            self.cache.hits += parts["counts"][0]
            self.cache.misses += parts["counts"][1]

    def close(self) -> None:
        for fd in (self.down, self.up):
            if fd is not None:
                os.close(fd)
        self.down = self.up = None


_HEAD = 8           # a message's length, before it


def _send(fd: int, value) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_HEAD, "big") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int):
    """The next value the other side sent, or None (it sent None, or ended: it failed)."""
    head = _exactly(fd, _HEAD)
    if head is None:
        return None
    body = _exactly(fd, int.from_bytes(head, "big"))
    if body is None:
        return None
    try:
        return pickle.loads(body)
    except Exception:                       # noqa: BLE001 - a helper cut off mid-message
        return None


def _exactly(fd: int, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        try:
            chunk = os.read(fd, min(1 << 16, n - got))
        except OSError:
            return None
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _reap(pid: int, finished: bool) -> None:
    """Wait for the helper: one that sent its parts is ending (it closes a pipe and exits);
    one that did not is stopped (the lead failed, or was interrupted)."""
    try:
        if not finished:
            os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError, OSError):
        pass
