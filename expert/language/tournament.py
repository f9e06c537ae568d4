"""The tournament's configuration: `referee.toml` in the working folder (or `--config FILE`, or
`$REFEREE_CONFIG`).

```toml
[tournament]
name = "Kup Beograda"
chief_referee = "Ana Petrović"
register = "kup-beograda.sqlite"     # the register's file (else $REFEREE_REGISTER, else ./referee-register.sqlite)
language = "sr"                      # the default language of interviews and rulings
appeal = "Appeals in writing to the chief referee within 30 minutes of the ruling."

[rulebooks.preferans.parameters.game_value]
talon = {karo = 7}                   # overrides a rulebook parameter, in the parameter's own shape
```

An override is checked against the parameter it changes: every key must exist there and every
value must have the type of the value it replaces. Overridden values are used in rulings,
printed under "Values used" as the tournament's, and stamped into the ruling's record so that
`verify` and `appeal` use the same values.
"""
from __future__ import annotations

import copy
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook

CONFIG_NAME = "referee.toml"
TOURNAMENT_KEYS = ("name", "chief_referee", "register", "language", "appeal", "date", "place", "interviews")


@dataclass
class Tournament:
    path: str | None = None
    info: dict = field(default_factory=dict)             # [tournament]
    overrides: dict = field(default_factory=dict)        # game -> parameter -> override

    def get(self, key: str, default: Any = None) -> Any:
        return self.info.get(key, default)


def config_path(given: str | None = None) -> Path | None:
    """The configuration file in use: --config, else $REFEREE_CONFIG, else ./referee.toml if it
    exists (None: no configuration)."""
    if given:
        return Path(given)
    env = os.environ.get("REFEREE_CONFIG")
    if env:
        return Path(env)
    here = Path(CONFIG_NAME)
    return here if here.is_file() else None


def load_config(given: str | None = None) -> Tournament:
    path = config_path(given)
    if path is None:
        return Tournament()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RefereeError(f"cannot read the tournament configuration: {exc.strerror}", str(path)) from None
    if len(raw) > 1_000_000:
        raise RefereeError("the tournament configuration is larger than 1 MB, expected a short TOML file",
                           str(path))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RefereeError(f"not valid TOML: {exc}", str(path)) from None
    text = raw.decode("utf-8")
    unknown = set(data) - {"tournament", "rulebooks"}
    if unknown:
        raise RefereeError(f"unknown tables {sorted(unknown)}, expected [tournament] and [rulebooks.GAME...]",
                           str(path), _line(text, sorted(unknown)[0]))
    info = data.get("tournament") or {}
    bad = set(info) - set(TOURNAMENT_KEYS)
    if bad:
        key = sorted(bad)[0]
        raise RefereeError(f"[tournament] {key}: unknown key, expected one of {', '.join(TOURNAMENT_KEYS)}",
                           str(path), _line(text, key))
    for key, value in info.items():
        if not isinstance(value, str):
            raise RefereeError(f"[tournament] {key}: expected a string, got {value!r}", str(path), _line(text, key))
    overrides = {}
    for game, spec in (data.get("rulebooks") or {}).items():
        if not isinstance(spec, dict) or set(spec) - {"parameters"}:
            raise RefereeError(f"[rulebooks.{game}]: expected only a parameters table", str(path), _line(text, game))
        overrides[game] = spec.get("parameters") or {}
    return Tournament(str(path), dict(info), overrides)


def apply(book: Rulebook, tournament: Tournament) -> Rulebook:
    """The rulebook with the tournament's parameter values (checked against each parameter);
    ``book.tournament_values`` names what was changed."""
    values = tournament.overrides.get(book.game) or {}
    if not values:
        return book
    where = tournament.path
    text = Path(where).read_text(encoding="utf-8") if where and Path(where).is_file() else ""
    params = copy.deepcopy(book.parameters)
    for name, override in values.items():
        if name not in params:
            raise RefereeError(f"[rulebooks.{book.game}.parameters] {name}: unknown parameter, expected one of "
                               f"{', '.join(params)}", where, _line(text, name))
        params[name] = dict(params[name], value=_merge(params[name].get("value"), override,
                                                       f"rulebooks.{book.game}.parameters.{name}", where, text))
    changed = copy.copy(book)
    changed.parameters = params
    changed.tournament_values = {name: values[name] for name in values}
    return changed


def _merge(current: Any, override: Any, path: str, where: str | None, text: str) -> Any:
    if isinstance(current, dict):
        if not isinstance(override, dict):
            raise RefereeError(f"{path}: expected a table with keys {', '.join(map(str, current))}, got "
                               f"{override!r}", where, _line(text, path.rsplit('.', 1)[-1]))
        merged = dict(current)
        for key, value in override.items():
            if key not in current:
                raise RefereeError(f"{path}.{key}: unknown key, expected one of {', '.join(map(str, current))}",
                                   where, _line(text, key))
            merged[key] = _merge(current[key], value, f"{path}.{key}", where, text)
        return merged
    if isinstance(current, bool) or isinstance(override, bool):
        ok = isinstance(current, bool) and isinstance(override, bool)
    elif isinstance(current, (int, float)):
        ok = isinstance(override, (int, float))
    else:
        ok = isinstance(override, type(current)) if current is not None else True
    if not ok:
        raise RefereeError(f"{path}: expected {type(current).__name__} like {current!r}, got {override!r}",
                           where, _line(text, path.rsplit(".", 1)[-1]))
    return override


def _line(text: str, key: str) -> int | None:
    """The first line of the TOML text naming ``key`` (TOML parsers give no positions)."""
    for n, line in enumerate(text.splitlines(), 1):
        if key in line:
            return n
    return None
