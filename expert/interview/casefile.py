"""Case files: a disputed deal's answers and header, read from and saved to YAML."""
from __future__ import annotations

from pathlib import Path

import yaml

from referee.expert.language.dispute import read_dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.fileio import write_atomic
from referee.expert.language.model import Rulebook
from referee.expert.language.yamlio import load_file, load_text, where

_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

HEADER_KEYS = ("tournament", "table", "deal", "date", "referee", "players")
# session: an interrupted interview's own state (interview/session.py), kept for --resume
CASE_KEYS = ("game", "header", "answers", "events", "events_order", "requests", "cards", "session")


def read_case(path: str | Path, text: str | None = None) -> dict:
    """The raw case mapping, with its game checked to be a string. ``text``: the case's YAML
    already read (from standard input), ``path`` then only names it in messages."""
    data = load_file(path) if text is None else load_text(text, str(path))
    if not isinstance(data, dict):
        raise RefereeError("a case file must be a mapping with game, answers and optional header",
                           str(path), 1)
    if not isinstance(data.get("game"), str):
        f, line = where(data)
        raise RefereeError("missing 'game:', expected the rulebook name (see `referee games`)",
                           str(path), line)
    check_header(data.get("header"), str(path), where(data)[1])
    _boolean_keys(data, str(path))
    return data


def _boolean_keys(node, path: str, request: bool = False) -> None:
    """YAML 1.1 reads an unquoted key on/off/yes/no as true/false. A request's ``on: S`` (the
    README's example) is the key "on" and is read back so; any other such key is refused with
    why, never passed on as a key True nobody wrote."""
    if isinstance(node, list):
        for item in node:
            _boolean_keys(item, path, request)
        return
    if not isinstance(node, dict):
        return
    for key in [k for k in node if isinstance(k, bool)]:
        if request and key is True and "on" not in node:
            node["on"] = node.pop(True)
            continue
        word = "on" if key else "off"
        raise RefereeError(f"a key written {'on or yes' if key else 'off or no'} without quotes is read by YAML "
                           f"as {str(key).lower()}, not as a word: write the key in quotes (\"{word}\": ...)",
                           path, where(node)[1])
    for key, value in node.items():
        _boolean_keys(value, path, request or key == "requests")


def check_header(header, path: str, line: int | None = None) -> None:
    """The header's shape, before any rulebook is read: a mapping of the known keys to single
    values (``date`` a real YYYY-MM-DD date), ``players`` mapping seats to names."""
    if header is None:
        return
    if not isinstance(header, dict):
        raise RefereeError("header must be a mapping (tournament, table, deal, date, referee, players)",
                           path, line)
    line = where(header)[1] or line
    unknown = set(header) - set(HEADER_KEYS)
    if unknown:
        raise RefereeError(f"unknown header keys {sorted(map(str, unknown))}, expected "
                           f"{', '.join(HEADER_KEYS)}", path, line)
    for key, value in header.items():
        if key == "players":
            continue
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int, float))):
            raise RefereeError(f"header {key} must be a single value (text or a number), "
                               f"got {_shown(value)}", path, line)
    date = header.get("date")
    if date is not None and not _is_date(date):
        raise RefereeError(f"header date {_shown(date)} is not a date, expected YYYY-MM-DD "
                           "(e.g. 2026-11-29)", path, line)
    players = header.get("players")
    if players is None:
        return
    if not isinstance(players, dict):
        raise RefereeError("header players must map seats to names, e.g. {declarer: Marko}", path, line)
    for seat, name in players.items():
        if not isinstance(seat, str) or (name is not None and (
                isinstance(name, bool) or not isinstance(name, (str, int)))):
            raise RefereeError(f"header players must map seats to names, got {_shown(seat)}: "
                               f"{_shown(name)}", path, where(players)[1] or line)


def _is_date(value) -> bool:
    import datetime
    if not isinstance(value, str) or len(value) != 10:
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _shown(value) -> str:
    """A value for a message: its repr, cut short (a hostile file can hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def case_answers(data: dict, book: Rulebook, path: str | Path) -> tuple[dict, dict]:
    """Checked answers (the cards' included) and header of a case file."""
    answers, header, _sources = case_input(data, book, path)
    return answers, header


def case_input(data: dict, book: Rulebook, path: str | Path) -> tuple[dict, dict, dict]:
    """Checked answers, header, and which answers came from the case's ``cards:`` (a case of
    one event)."""
    dispute, header, sources = case_dispute(data, book, path)
    if dispute.events:
        raise RefereeError("this case has several events; it is ruled as a dispute (case_dispute)",
                           str(path), where(data)[1])
    return dispute.answers, header, sources


def case_dispute(data: dict, book: Rulebook, path: str | Path):
    """The checked dispute (answers, events, requests), header, and which answers came from
    the case's ``cards:``."""
    from referee.expert.interview.from_cards import answers_from_cards, merge
    unknown = set(data) - set(CASE_KEYS)
    if unknown:
        raise RefereeError(f"unknown keys {sorted(map(str, unknown))}, expected {', '.join(CASE_KEYS)}",
                           str(path), where(data)[1])
    from referee.expert.interview.named_cards import named_cards
    dispute = named_cards(read_dispute(data, book, str(path)), book, str(path))
    check_header(data.get("header"), str(path), where(data)[1])
    header = data.get("header") or {}
    players = header.get("players") or {}
    for seat in players:
        if seat not in book.seat_ids:
            raise RefereeError(f"header names unknown seat {seat!r}, expected one of "
                               f"{', '.join(book.seat_ids)}", str(path), where(header)[1])
    cards = data.get("cards")
    derived = answers_from_cards(book, cards, str(path), where(cards)[1] if cards else None)
    dispute.answers, sources = merge(dispute.answers, derived)
    return dispute, dict(header), sources


def save_case(path: str | Path, game: str, answers: dict, header: dict | None = None,
              note: str | None = None, cards: dict | None = None) -> Path:
    """Write atomically: a crash while saving leaves the old file or the new one, never half."""
    data = {"game": game}
    if header:
        data["header"] = dict(header)
    if cards:
        data["cards"] = dict(cards)
    data["answers"] = dict(answers)
    return _write_case(path, data, note)


def _write_case(path: str | Path, data: dict, note: str | None) -> Path:
    """Atomically, and never over anything but a regular file (expert/language/fileio.py): a
    target that cannot be written is a RefereeError naming it, and nothing is left behind."""
    try:
        # libyaml's emitter when PyYAML has it: the same text, five times faster (an interview
        # saves after every answer)
        body = yaml.dump(_plain(data), Dumper=_SafeDumper, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError as exc:      # a value YAML cannot write: say so, write nothing
        raise RefereeError(f"cannot save the answers: {exc}", str(path)) from None
    # the note is one comment line whatever it holds
    prefix = f"# {' '.join(str(note).split())}\n" if note else ""
    return write_atomic(path, prefix + body)


def save_session(path: str | Path, session, note: str | None = None) -> Path:
    """An interview's case file with its ``session:`` state, written atomically."""
    state = session.to_state()
    for key in ("game", "header", "cards", "shared", "events", "requests"):
        state.pop(key, None)      # the case file holds them already
    # ... but for an event added ('+') whose questions are not answered yet: a case file has no
    # empty event, so the session says where it stands, and a resume asks its questions
    state["open_events"] = [k for k, event in enumerate(session.events) if not event]
    case = session.to_case()
    return _write_case(path, {**case, "session": state}, note)


def _plain(value):
    """Tuples (a session's pending question) as lists, so the safe dumper takes them."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
