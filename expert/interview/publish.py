"""Publishing a ruling: the tournament's name and the time stamped on it, its record saved in the
tournament's register, and the verification code the printed ruling carries. Every front end
(the command line, the web page) publishes through this one function."""
from __future__ import annotations

from typing import Callable

from referee.expert.engine.verdict import Ruling
from referee.expert.language.model import Rulebook
from referee.expert.language.tournament import Tournament


def stamp(ruling: Ruling, tournament: Tournament) -> None:
    """The tournament's name (when the interview gave none) and the time of the ruling."""
    if tournament.get("name") and not ruling.header.get("tournament"):
        ruling.header["tournament"] = tournament.get("name")
    if not getattr(ruling, "ruled_at", ""):
        from referee.expert.records.record import _now as record_time
        ruling.ruled_at = record_time()       # the record's own clock: one ruling, one time


def publish(ruling: Ruling, book: Rulebook, tournament: Tournament, *, register=None, record_path=None,
            cards: dict | None = None, times: dict | None = None,
            document: Callable | None = None) -> tuple[str, int]:
    """Stamp the ruling, save its record in the register (``register``: a path or a Register;
    else the tournament's, else $REFEREE_REGISTER, else ./referee-register.sqlite); returns the
    verification code as printed and the ruling's number in the register. ``document(ruling,
    tournament)`` gives the rendered views stored with the record (reports/document.stored_views:
    a layer above this one, so the front end passes it)."""
    from referee.expert.records.record import format_code
    from referee.expert.records.register import register_ruling
    stamp(ruling, tournament)
    record, rid = register_ruling(ruling, book, register=register or tournament.get("register"),
                                  record_path=record_path, cards=cards, answer_times=times,
                                  extra={"document": document(ruling, tournament)} if document else None)
    return format_code(record["code"]), rid
