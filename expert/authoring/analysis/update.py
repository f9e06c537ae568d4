"""`referee test --update`: rewrite the expected results of cases after an intended change.

Only the ``expect:`` block of a changed case is rewritten, textually: the case is found by its
line, its ``expect:`` key by indentation, and the block is replaced by the new expectations
dumped as block YAML at the same indentation. The rest of the file stays byte-identical. The
result is loaded again and compared with the original (only that case's expect may differ);
when that check fails, or the case is written in flow style, nothing is edited in place and
the new expectations go to ``<game>/expect-update-<article>.yaml`` instead (outside
``articles/``, which would read it as an article).
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml


def new_expect(old: dict, ruling) -> dict:
    """The expectations the current ruling meets, in the shape of the old ones."""
    new: dict = {}
    findings = []
    for f in ruling.findings:
        entry: dict = {"provisions": list(f.provisions)}
        if f.penalty:
            entry["penalty"] = []
            for p in f.penalty:
                d = {"player": p.player, "effect": p.effect, "amount": p.amount}
                if p.against:
                    d["against"] = p.against
                entry["penalty"].append(d)
        elif any("penalty" in (w or {}) for w in old.get("findings") or []):
            entry["penalty"] = []
        findings.append(entry)
    if "findings" in old or findings:
        new["findings"] = findings
    not_ruled = [n.provisions[0] for n in ruling.not_ruled if n.provisions]
    if not_ruled or old.get("not_ruled"):
        new["not_ruled"] = list(dict.fromkeys(not_ruled))
    applied = {pid for f in ruling.findings for pid in f.provisions}
    keep = [pid for pid in old.get("not_applied") or [] if pid not in applied]
    if keep:
        new["not_applied"] = keep
    if "no_infraction" in old:
        new["no_infraction"] = ruling.no_infraction
    return new


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith("#")


def replace_expect(text: str, case_line: int, expect: dict) -> str | None:
    """The file text with the expect block of the case starting at ``case_line`` replaced."""
    lines = text.splitlines(keepends=True)
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
    body = expect_yaml(expect)
    newline = "\r\n" if lines[k].endswith("\r\n") else "\n"
    block = " " * col + "expect:" + newline + "".join(
        " " * (col + 2) + ln + newline for ln in body.splitlines())
    return "".join(lines[:k]) + block + "".join(lines[e:])


def _flow(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False,
                          width=10_000).strip().removesuffix("...").strip()


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
    new_text = replace_expect(text, case.line, expect)
    if new_text is not None:
        try:
            before = yaml.safe_load(text)
            after = yaml.safe_load(new_text)
            want = _find_case(before, case.name)
            if want is not None:
                want["expect"] = expect
            ok = want is not None and before == after
        except yaml.YAMLError:
            ok = False
        if ok:
            path.write_bytes(new_text.encode("utf-8"))
            return "in place", path
    # beside the rulebook, not in articles/ (every *.yaml there is read as an article)
    folder = path.parent.parent if path.parent.name == "articles" else path.parent
    side = folder / f"expect-update-{path.stem}.yaml"
    existing = yaml.safe_load(side.read_text(encoding="utf-8")) if side.exists() else None
    entries = existing if isinstance(existing, list) else []
    entries = [e for e in entries if e.get("case") != case.name]
    entries.append({"case": case.name, "line": case.line, "expect": expect})
    side.write_text(yaml.safe_dump(entries, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return "separate", side


def show_change(old: dict, new: dict) -> str:
    import difflib
    a = yaml.safe_dump(old, sort_keys=False, allow_unicode=True).splitlines()
    b = yaml.safe_dump(new, sort_keys=False, allow_unicode=True).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "expected", "ruled", lineterm="", n=2))
