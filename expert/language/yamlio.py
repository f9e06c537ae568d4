"""Safe YAML loading that remembers where each mapping starts, for file:line messages.

Hostile input is bounded before anything is built from it. A few hundred bytes of nested aliases
(``&a [*b, *b, ...]``, a "billion laughs") stand for billions of nodes once expanded, and whatever
walks the data afterwards (JSON for the register and the parse cache, a message showing a value)
expands them; a file is therefore refused, with the line of the node, when its expansion exceeds
``MAX_NODES`` nodes, ``MAX_DEPTH`` levels or ``MAX_ALIASES`` alias uses, or when it refers to
itself; files over ``MAX_BYTES`` are not read at all. The shipped rulebooks stay far below every
bound (tests/test_hostile_yaml.py measures them).

Scalars are kept to what a rule, a case or a record can use: timestamps (``date: 2026-11-29``
typed unquoted) stay the text that was typed, so a date never crashes JSON; ``.nan``/``.inf`` and
integers longer than ``MAX_INT_DIGITS`` digits are refused; keys must be plain values.
"""
from __future__ import annotations

import math
import os
import stat
from pathlib import Path

import yaml

from referee.expert.language.errors import RefereeError


class LineDict(dict):
    """A mapping that knows the file and line it was read from."""

    file: str | None = None
    line: int | None = None


class LineList(list):
    file: str | None = None
    line: int | None = None


# libyaml's parser when PyYAML was built with it (several times faster on big rulebooks).
_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


#: the bounds (see the module's doc): a knowledge file or a case file is far below each of them
MAX_BYTES = 4 * 1024 * 1024
MAX_NODES = 200_000
# The score formulas nest deepest (bridge's score of a board: 38 levels, with its aliases
# unfolded); 100 keeps twice that margin and stays far inside Python's recursion limit for the
# code that walks a document (a few frames per level).
MAX_DEPTH = 100
MAX_ALIASES = 10_000
MAX_INT_DIGITS = 30


class _Loader(_SafeBase):
    """A safe loader: no Python tags; every mapping and sequence carries its line."""


def _line(node) -> int:
    return node.start_mark.line + 1


def _children(node):
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _check_bounds(root, name: str) -> None:
    """Refuse a composed document whose expansion is too big, too deep, or refers to itself.

    The node graph shares a node wherever an alias points at it; sizes and depths are memoised per
    node, so the walk is linear in the file, however large the expansion."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    aliases = 0
    stack = [(root, _children(root), [1, 1])]       # node, its children, [size, depth below]
    on_path.add(id(root))
    while stack:
        node, children, acc = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            on_path.discard(id(node))
            size[id(node)], depth[id(node)] = acc
            if stack:
                parent = stack[-1][2]
                parent[0] += acc[0]
                parent[1] = max(parent[1], acc[1] + 1)
            continue
        key = id(child)
        if key in on_path:
            raise RefereeError("an alias refers to the node that holds it (a recursive YAML "
                               "structure), expected plain data", name, _line(child))
        if key in size:                               # an alias to a node already walked
            aliases += 1
            if aliases > MAX_ALIASES:
                raise RefereeError(f"more than {MAX_ALIASES} alias uses (*name), expected plain data "
                                   "(a file made of nested aliases expands without bound)",
                                   name, _line(child))
            acc[0] += size[key]
            acc[1] = max(acc[1], depth[key] + 1)
            if len(stack) + depth[key] > MAX_DEPTH:
                raise RefereeError(f"nested more than {MAX_DEPTH} levels deep, expected plain data",
                                   name, _line(child))
        else:
            if len(stack) >= MAX_DEPTH:
                raise RefereeError(f"nested more than {MAX_DEPTH} levels deep, expected plain data",
                                   name, _line(child))
            on_path.add(key)
            stack.append((child, _children(child), [1, 1]))
        if acc[0] > MAX_NODES:
            raise RefereeError(f"expands to more than {MAX_NODES} values through its aliases (&anchor, "
                               "*alias), expected plain data (a \"billion laughs\" file?)", name, _line(child))


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise RefereeError("a key must be a plain value (a name or a number), not a list or a "
                               "mapping", loader.name, key_node.start_mark.line + 1)
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise RefereeError(
                f"key {key!r} given twice in one mapping, expected each key once",
                loader.name, key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
    result.file = loader.name
    result.line = node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.file = loader.name
    result.line = node.start_mark.line + 1
    return result


def _timestamp(loader: _Loader, node: yaml.ScalarNode) -> str:
    """A date or time stays the text that was typed: JSON, the register and messages take it as is
    (an impossible date such as 2026-02-30 is then refused where a date is read, not by YAML)."""
    return loader.construct_scalar(node)


def _int(loader: _Loader, node: yaml.ScalarNode) -> int:
    digits = sum(ch.isdigit() for ch in node.value)
    if digits > MAX_INT_DIGITS:
        raise RefereeError(f"a number of {digits} digits, expected at most {MAX_INT_DIGITS}",
                           loader.name, _line(node))
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        raise RefereeError(f"{node.value[:40]!r} is not a number", loader.name, _line(node)) from None


def _float(loader: _Loader, node: yaml.ScalarNode) -> float:
    if len(node.value) > 64:
        raise RefereeError("a number of more than 64 characters, expected a shorter one",
                           loader.name, _line(node))
    value = yaml.constructor.SafeConstructor.construct_yaml_float(loader, node)
    if not math.isfinite(value):
        raise RefereeError(f"{node.value!r} is not a finite number, expected an ordinary number",
                           loader.name, _line(node))
    return value


def _refused(loader: _Loader, node) -> None:
    raise RefereeError(f"the YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not accepted, "
                       "expected plain text, numbers, lists and mappings", loader.name, _line(node))


for _tag in ("binary", "set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refused)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", _int)
_Loader.add_constructor("tag:yaml.org,2002:float", _float)


def load_text(text: str, name: str):
    if len(text) > MAX_BYTES:
        raise RefereeError(f"file of {len(text)} characters, expected at most {MAX_BYTES}", name)
    loader = None
    try:
        loader = _Loader(text)
        loader.name = name
        node = loader.get_single_node()
        if node is None:
            return None
        _check_bounds(node, name)
        return loader.construct_document(node)
    except RefereeError:
        raise
    except RecursionError:
        raise RefereeError("nested too deeply, expected plain data", name) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise RefereeError(f"malformed YAML: {problem}", name, line) from None
    except yaml.YAMLError as exc:
        line = getattr(exc, "position", None)
        raise RefereeError(f"malformed YAML: {getattr(exc, 'reason', exc)}", name,
                           text.count("\n", 0, line) + 1 if isinstance(line, int) else None) from None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path: str | Path, cached: bool = False):
    """Load a YAML file; ``cached`` for knowledge files read on every start (see yamlcache)."""
    if cached:
        return load_knowledge(path)[0]
    path = Path(path)
    return load_text(_decode(_read(path), path), str(path))


def load_knowledge(path: str | Path, cached: bool = True) -> tuple[object, str]:
    """A knowledge file's data and the digest of that data (what the rulebook's hash is made of),
    through the parse cache unless ``cached`` is false."""
    from referee.expert.language import yamlcache
    path = Path(path)
    raw = _read(path)
    parse = lambda: load_text(_decode(raw, path), str(path))     # noqa: E731
    if not cached:
        data = parse()
        return data, yamlcache.digest(yamlcache.encode(data))
    return yamlcache.load(path, raw, parse)


def _read(path: Path) -> bytes:
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError
        if not stat.S_ISREG(mode):
            # a FIFO would wait for a writer for ever, /dev/zero never ends
            raise RefereeError("not a regular file (a device, FIFO or socket), expected a YAML file",
                               str(path))
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise RefereeError("no such file, expected a readable YAML file", str(path)) from None
    except IsADirectoryError:
        raise RefereeError("is a directory, expected a YAML file", str(path)) from None
    except OSError as exc:
        raise RefereeError(f"cannot read: {exc.strerror}, expected a readable YAML file", str(path)) from None
    if len(raw) > MAX_BYTES:
        raise RefereeError(f"file larger than {MAX_BYTES} bytes, expected a YAML file of ordinary size",
                           str(path))
    return raw


def _decode(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RefereeError("not UTF-8 text, expected a UTF-8 YAML file", str(path)) from None


def where(node) -> tuple[str | None, int | None]:
    return getattr(node, "file", None), getattr(node, "line", None)


# What we read can be written back: our line-carrying containers dump as plain ones.
yaml.SafeDumper.add_representer(LineDict, yaml.SafeDumper.represent_dict)
yaml.SafeDumper.add_representer(LineList, yaml.SafeDumper.represent_list)
