"""The package's layers: a lower layer never imports a higher one, nothing imports a front end,
and every package folder is installed under the one name `referee`."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# what each group may import from the project (besides itself)
ALLOWED = {
    "expert.language": set(),
    "expert.cards": {"expert.language"},
    "expert.records": {"expert.language"},
    "expert.engine": {"expert.language", "expert.cards"},
    "expert.interview": {"expert.language", "expert.cards", "expert.engine", "expert.records"},
    "expert.authoring": {"expert.language", "expert.cards", "expert.engine", "expert.records",
                         "expert.interview"},
    "reports": {"expert.language", "expert.cards", "expert.engine", "expert.records", "expert.interview"},
    # front ends: anything below them, never each other
    "expert.console": {"expert.language", "expert.cards", "expert.engine", "expert.records",
                       "expert.interview", "reports"},
    "web": {"expert.language", "expert.cards", "expert.engine", "expert.records", "expert.interview",
            "expert.authoring", "reports"},
    "cli": {"expert.language", "expert.cards", "expert.engine", "expert.records", "expert.interview",
            "expert.authoring", "expert.console", "reports", "web"},
}


def group_of(module: str) -> str | None:
    """'referee.expert.engine.ruler' -> 'expert.engine'."""
    parts = module.split(".")
    if parts[0] != "referee" or len(parts) < 2:
        return None
    if parts[1] == "expert" and len(parts) > 2:
        return f"expert.{parts[2]}"
    return parts[1] if parts[1] in ALLOWED else None


def imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
    return found


def own_group(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    return group_of("referee." + ".".join(rel.parts)) or rel.parts[0]


def test_no_layer_imports_a_higher_one():
    wrong = []
    for path in sorted(ROOT.glob("**/*.py")):
        rel = path.relative_to(ROOT)
        if (rel.parts[0] in ("tests", "bench", "build") or rel.parts[0].startswith(".")
                or rel.name == "__init__.py" and len(rel.parts) == 1):
            continue
        mine = own_group(path)
        for line, module in imports(path):
            if module.split(".")[0] in ("expert", "reports", "cli", "knowledge"):
                wrong.append(f"{rel}:{line}: imports {module} by its old name; use referee.{module}")
                continue
            theirs = group_of(module)
            if theirs and theirs != mine and theirs not in ALLOWED.get(mine, set()):
                wrong.append(f"{rel}:{line}: {mine} imports {module} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_every_package_folder_is_installed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {"referee"} | {
        "referee." + ".".join(p.parent.relative_to(ROOT).parts)
        for p in ROOT.glob("**/__init__.py")
        if p.parent != ROOT and p.relative_to(ROOT).parts[0] not in ("tests", "bench", "build")
        and not p.relative_to(ROOT).parts[0].startswith(".")}
    assert folders == listed
