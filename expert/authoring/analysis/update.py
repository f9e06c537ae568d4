"""`referee test --update`: rewrite the expected results of cases after an intended change.

Only the ``expect:`` block of a changed case is rewritten, textually: the case is found by its
name (where it starts now, an earlier update in the file may have moved it), its ``expect:`` key
by indentation. When only kinds, provision lists and one-line keys (``not_ruled``, ...) change,
just those lines are edited (a ``kind:`` line added), so comments and layout stay; otherwise
the block is replaced by the new expectations dumped as block YAML at the same indentation.
The rest of the file stays byte-identical, and files are written atomically. The
result is loaded again and compared with the original (only that case's expect may differ);
when that check fails, or the case is written in flow style, nothing is edited in place and
the new expectations go to ``<game>/expect-update-<article>.yaml`` instead (outside
``articles/``, which would read it as an article).
"""
from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path

import yaml


def new_expect(old: dict, ruling) -> dict:
    """The expectations the current ruling meets, in the shape of the old ones: every finding
    states its full list of provisions and its kind, and its penalty when it has one or the old
    expectation of that finding stated one; findings expected before keep their old order."""
    from referee.expert.authoring.casebook import finding_entry
    new: dict = {}
    old_findings = [w for w in old.get("findings") or [] if isinstance(w, dict)]
    ruled = list(ruling.findings)
    findings = []
    for want in old_findings:         # keep the old order, so the change reads as small as it is
        ids = set(want.get("provisions") or [])
        hit = next((f for f in ruled if set(f.provisions) == ids and f.kind == want.get("kind")), None) \
            or next((f for f in ruled if set(f.provisions) == ids), None) \
            or next((f for f in ruled if ids & set(f.provisions)), None)
        if hit is not None:
            ruled.remove(hit)
            entry = finding_entry(hit, "penalty" in want)      # an empty penalty where it was stated
            if set(want.get("provisions") or []) == set(entry["provisions"]):
                entry["provisions"] = list(want["provisions"])  # the author's order stays
            findings.append(entry)
    findings += [finding_entry(f, False) for f in ruled]
    if "findings" in old or findings:
        new["findings"] = findings
    # what was set aside: the old entries that still hold, then the first provision of each
    # set-aside finding they do not name yet
    aside = [n for n in ruling.not_ruled if n.provisions]
    not_ruled = [pid for pid in old.get("not_ruled") or [] if any(pid in n.provisions for n in aside)]
    not_ruled += [n.provisions[0] for n in aside if not set(n.provisions) & set(not_ruled)]
    if not_ruled or old.get("not_ruled"):
        new["not_ruled"] = list(dict.fromkeys(not_ruled))
    applied = {pid for f in ruling.findings for pid in f.provisions}
    keep = [pid for pid in old.get("not_applied") or [] if pid not in applied]
    if keep:
        new["not_applied"] = keep
    if "no_infraction" in old:
        new["no_infraction"] = ruling.no_infraction
    # a conditional ruling's branches and the facts nobody established, as the ruling gives them
    # now (an update that kept the old ones left a case expecting both branches and none)
    if ruling.alternatives:
        new["alternatives"] = [{"if": alt.when[0], "findings": [finding_entry(f, False) for f in alt.findings]}
                               for alt in ruling.alternatives]
    if "unknown" in old or ruling.alternatives:
        new["unknown"] = [{"question": u.question, "matters": u.matters} for u in ruling.unknown]
    # what this does not work out from the ruling (the score sheet's entries, the requests'
    # answers, ...) is kept as the author wrote it, in its place: an update that rewrote only the
    # findings used to drop it, and the case then asserted less without a word
    merged = {k: (new.pop(k) if k in new else v) for k, v in old.items() if k in new or k not in MANAGED}
    merged.update(new)
    return merged


# the expectations new_expect works out from the ruling (the others are kept as written)
MANAGED = ("findings", "not_ruled", "not_applied", "no_infraction", "alternatives", "unknown")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith("#")


def _expect_span(lines: list[str], case_line: int) -> tuple[int, int, int] | None:
    """(column of the case's keys, line of its ``expect:``, line after the expect block)."""
    i0 = case_line - 1
    if not 0 <= i0 < len(lines):
        return None
    m = re.match(r"^(\s*)(-\s+)?", lines[i0])
    col = len(m.group(0))
    if lines[i0][col:].startswith("{") or lines[i0][col:].startswith("expect:"):
        return None
    end = len(lines)
    for j in range(i0 + 1, len(lines)):
        if not _blank(lines[j]) and _indent(lines[j]) < col:
            end = j
            break
    k = next((j for j in range(i0 + 1, end) if _indent(lines[j]) == col
              and lines[j].lstrip(" ").startswith("expect:")), None)
    if k is None:
        return None
    e = end
    for j in range(k + 1, end):
        if not _blank(lines[j]) and _indent(lines[j]) <= col:
            e = j
            break
    while e > k + 1 and _blank(lines[e - 1]):
        e -= 1
    return col, k, e


def replace_expect(text: str, case_line: int, expect: dict) -> str | None:
    """The file text with the expect block of the case starting at ``case_line`` replaced."""
    lines = text.splitlines(keepends=True)
    span = _expect_span(lines, case_line)
    if span is None:
        return None
    col, k, e = span
    body = expect_yaml(expect)
    newline = "\r\n" if lines[k].endswith("\r\n") else "\n"
    block = " " * col + "expect:" + newline + "".join(
        " " * (col + 2) + ln + newline for ln in body.splitlines())
    return "".join(lines[:k]) + block + "".join(lines[e:])


KEY_ORDER = ("findings", "not_ruled", "not_applied", "no_infraction")


def amend_expect(text: str, case_line: int, old: dict, new: dict) -> str | None:
    """The file text with the case's expect block edited line by line: in expected findings
    only ``provisions`` and ``kind`` (a ``kind:`` line added where none was); other keys
    (``not_ruled``, ...) replaced, added or dropped when their value fits on one line. None when
    the change needs more (the caller then rewrites the whole block). Comments and layout of
    everything that does not change stay as they were."""
    olds, news = old.get("findings") or [], new.get("findings") or []
    if ("findings" in old) != ("findings" in new) or len(olds) != len(news) \
            or not all(isinstance(w, dict) for w in olds):
        return None
    for o, n in zip(olds, news):
        if (set(n) - set(o) - {"kind", "penalty"} or set(o) - set(n)
                or any(o[x] != n[x] for x in o if x not in ("provisions", "kind"))):
            return None
    lines = text.splitlines(keepends=True)
    span = _expect_span(lines, case_line)
    if span is None or lines[span[1]].strip() != "expect:":
        return None
    _, k, e = span
    newline = "\r\n" if lines[k].endswith("\r\n") else "\n"
    first = next((j for j in range(k + 1, e) if not _blank(lines[j])), None)
    if first is None:
        return None
    key_col = _indent(lines[first])
    keys = {}                     # top-level key -> (first line, line after its value)
    starts = [j for j in range(k + 1, e) if not _blank(lines[j]) and _indent(lines[j]) == key_col
              and not lines[j][key_col:].startswith("- ")]
    for j, nxt in zip(starts, starts[1:] + [e]):
        name = lines[j][key_col:].split(":", 1)[0].strip()
        while nxt > j + 1 and _blank(lines[nxt - 1]):
            nxt -= 1
        keys[name] = (j, nxt)
    if set(keys) != set(old):
        return None
    edits: list[tuple[int, int, list[str]]] = []       # (from, to, new lines) on the old text
    for name in set(old) | set(new):
        if name == "findings" or old.get(name) == new.get(name):
            continue
        line = " " * key_col + f"{name}: {_flow(new.get(name))}" + newline
        if name in keys:
            a, b = keys[name]
            if b != a + 1:
                return None
            edits.append((a, b, [] if name not in new else [line]))
        else:
            later = [keys[x][0] for x in KEY_ORDER[KEY_ORDER.index(name) + 1:] if x in keys] \
                if name in KEY_ORDER else []
            at = min(later) if later else max([b for _, b in keys.values()], default=e)
            edits.append((at, at, [line]))
    if olds != news:
        found = _finding_edits(lines, keys.get("findings"), olds, news, newline)
        if found is None:
            return None
        edits += found
    for a, b, repl in sorted(edits, key=lambda x: (x[0], x[1]), reverse=True):
        lines[a:b] = repl
    return "".join(lines)


def _finding_edits(lines, span, olds, news, newline):
    """Edits that give each expected finding its new ``provisions`` and ``kind``."""
    if span is None or lines[span[0]].strip() != "findings:":
        return None
    f, stop = span
    items = [j for j in range(f + 1, stop) if lines[j].lstrip(" ").startswith("- ")]
    if not items:
        return None
    item_col = _indent(lines[items[0]])
    items = [j for j in items if _indent(lines[j]) == item_col]
    if len(items) != len(olds):
        return None
    edits = []
    for (a, b), o, n in zip(zip(items, items[1:] + [stop]), olds, news):
        if o == n:
            continue
        if lines[a].lstrip(" ").startswith("- {"):
            if any(not _blank(x) for x in lines[a + 1:b]):
                return None
            entry = {key: n[key] for key in ("provisions", "kind") if key in n}
            entry.update({key: v for key, v in o.items() if key not in entry})
            edits.append((a, a + 1, [" " * item_col + "- " + _flow(entry) + newline]))
            continue
        inner = item_col + 2

        def key_line(name, a=a, b=b, inner=inner):
            for j in range(a, b):
                if (j == a or _indent(lines[j]) == inner) and lines[j][inner:].startswith(f"{name}:"):
                    return j
            return None

        def value_end(j, b=b, inner=inner):
            # a block list may sit at the key's own indentation ("- " counts as indentation)
            return next((x for x in range(j + 1, b) if not _blank(lines[x]) and (
                _indent(lines[x]) < inner or (_indent(lines[x]) == inner
                                              and not lines[x][inner:].startswith("- ")))), b)

        pj = key_line("provisions")
        if pj is None:
            return None
        pend = value_end(pj)
        if o.get("provisions") != n["provisions"]:
            edits.append((pj, pend, [lines[pj][:inner] + f"provisions: {_flow(n['provisions'])}" + newline]))
        added = []
        if "kind" not in o:
            added.append(" " * inner + f"kind: {n['kind']}" + newline)
        if "penalty" in n and "penalty" not in o:
            pen = n["penalty"]
            added.append(" " * inner + "penalty:" + (" []" if not pen else "") + newline)
            added += [" " * (inner + 2) + f"- {_flow(x)}" + newline for x in pen or []]
        if added:
            edits.append((pend, pend, added))
        elif o["kind"] != n.get("kind"):
            j = key_line("kind")
            if j is None or value_end(j) != j + 1:
                return None
            edits.append((j, j + 1, [lines[j][:inner] + f"kind: {n['kind']}" + newline]))
    return edits


def _flow(value) -> str:
    from referee.expert.authoring.casebook import flow
    return flow(value)


def expect_yaml(expect: dict) -> str:
    """The house style of casebooks: findings as a block list, ids and penalty lines in flow."""
    out = []
    for key, value in expect.items():
        if key == "findings" and value:
            out.append("findings:")
            for f in value:
                first = True
                for k, v in f.items():
                    lead = "  - " if first else "    "
                    first = False
                    if k == "penalty" and v:
                        out.append(f"{lead}penalty:")
                        out.extend(f"      - {_flow(e)}" for e in v)
                    else:
                        out.append(f"{lead}{k}: {_flow(v)}")
        else:
            out.append(f"{key}: {_flow(value)}")
    return "\n".join(out) + "\n"


def atomic_write(path: Path, data: bytes) -> None:
    """Replace a regular file (or create one) so that a crash leaves the old or the new file;
    anything else at that path (a link, a device, a folder) is refused, never replaced."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise OSError(f"{path} is not a regular file; not replaced")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, stat.S_IMODE(mode))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _only_expect_changed(text: str, new_text: str, name: str, expect: dict) -> bool:
    try:
        before = yaml.safe_load(text)
        after = yaml.safe_load(new_text)
    except yaml.YAMLError:
        return False
    want = _find_case(before, name)
    if want is None:
        return False
    want["expect"] = expect
    return before == after


def _case_line(text: str, name: str, case_name: str, fallback: int) -> int:
    """The line the case starts on now (an earlier update in the same file may have moved it)."""
    from referee.expert.language.errors import RefereeError
    from referee.expert.language.yamlio import load_text
    try:
        data = load_text(text, name)
    except RefereeError:
        return fallback
    case = _find_case(data, case_name)
    return getattr(case, "line", None) or fallback


def _find_case(data, name):
    for c in (data or {}).get("cases") or []:
        if isinstance(c, dict) and c.get("name") == name:
            return c
    return None


def write_expect(case, expect: dict) -> tuple[str, Path]:
    """Write; return ('in place', file) or ('separate', the file the expectations went to)."""
    path = Path(case.file)
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    line = _case_line(text, str(path), case.name, case.line)
    # the smallest edit first (kinds added, provisions completed), else the whole block anew;
    # either is kept only if the file, read again, differs in that case's expect alone
    for new_text in (amend_expect(text, line, dict(case.expect), expect),
                     replace_expect(text, line, expect)):
        if new_text is not None and _only_expect_changed(text, new_text, case.name, expect):
            atomic_write(path, new_text.encode("utf-8"))
            return "in place", path
    # beside the rulebook, not in articles/ (every *.yaml there is read as an article)
    folder = path.parent.parent if path.parent.name == "articles" else path.parent
    side = folder / f"expect-update-{path.stem}.yaml"
    existing = yaml.safe_load(side.read_text(encoding="utf-8")) if side.exists() else None
    entries = existing if isinstance(existing, list) else []
    entries = [e for e in entries if e.get("case") != case.name]
    entries.append({"case": case.name, "line": case.line, "expect": expect})
    atomic_write(side, yaml.safe_dump(entries, sort_keys=False, allow_unicode=True).encode("utf-8"))
    return "separate", side


def show_change(old: dict, new: dict) -> str:
    import difflib
    a = yaml.safe_dump(old, sort_keys=False, allow_unicode=True).splitlines()
    b = yaml.safe_dump(new, sort_keys=False, allow_unicode=True).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "expected", "ruled", lineterm="", n=2))
