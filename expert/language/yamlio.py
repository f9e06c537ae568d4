"""Safe YAML loading that remembers where each mapping starts, for file:line messages."""
from __future__ import annotations

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


class _Loader(_SafeBase):
    """A safe loader: no Python tags; every mapping and sequence carries its line."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    for key_node, value_node in node.value:
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


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_text(text: str, name: str):
    loader = None
    try:
        loader = _Loader(text)
        loader.name = name
        return loader.get_single_data()
    except RefereeError:
        raise
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
    path = Path(path)
    if cached:
        from referee.expert.language import yamlcache
        return yamlcache.get(path, lambda: load_file(path))
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RefereeError("no such file, expected a readable YAML file", str(path)) from None
    except IsADirectoryError:
        raise RefereeError("is a directory, expected a YAML file", str(path)) from None
    except UnicodeDecodeError:
        raise RefereeError("not UTF-8 text, expected a UTF-8 YAML file", str(path)) from None
    return load_text(text, str(path))


def where(node) -> tuple[str | None, int | None]:
    return getattr(node, "file", None), getattr(node, "line", None)


# What we read can be written back: our line-carrying containers dump as plain ones.
yaml.SafeDumper.add_representer(LineDict, yaml.SafeDumper.represent_dict)
yaml.SafeDumper.add_representer(LineList, yaml.SafeDumper.represent_list)
