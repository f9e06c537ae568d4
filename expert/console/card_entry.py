"""Entering the cards in a terminal on their own (the interview's cards stage goes through the
Session): contract, hands, talon and discard, the play trick by trick.

Every prompt is checked at once by the card library (``expert.cards.parse_deal``) on the deal
entered so far: a mistake gives the library's message, which names the position and the card
("deal: hand of defender_2: the card ♣K (kralj) is also in deal: hand of defender_1 ..."),
and the same prompt is asked again. '?' shows the notation; an empty line skips a prompt (and
ends the play); 'back' undoes the previous entry, given or skipped. The result is the ``cards:`` mapping of a case file (expert/cards/README.md).
"""
from __future__ import annotations

from typing import Callable

from referee.expert.cards.notation import notation_help
from referee.expert.interview.card_steps import CardEntry, words
from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook

Reader = Callable[..., str]
Writer = Callable[[str], None]

class Interrupted(Exception):
    """The referee stopped (end of input, Ctrl-C) during card entry; ``cards`` holds what was
    accepted so far."""

    def __init__(self, cards: dict):
        super().__init__("card entry interrupted")
        self.cards = cards


def enter_cards(book: Rulebook | str, read: Reader, write: Writer, lang: str = "en") -> dict:
    """Ask for the deal record; return the ``cards:`` mapping (possibly empty).

    ``book`` is a Rulebook or a game name. ``read`` may raise EOFError/KeyboardInterrupt:
    ``Interrupted`` then carries what was accepted so far.
    """
    game = book if isinstance(book, str) else book.game
    label = (lambda s: s) if isinstance(book, str) else (lambda s: seat_label(book, s, lang))
    entry = CardEntry(game, lang, label)
    write("")
    write(words(lang)["intro"])
    try:
        while run_step(entry, read, write):
            pass
    except (EOFError, KeyboardInterrupt):
        raise Interrupted(dict(entry.deal)) from None
    return entry.deal


def run_step(entry: CardEntry, read: Reader, write: Writer) -> bool:
    """Ask the current step until it is given, skipped or undone; False when entry is over."""
    step = entry.step()
    if step is None:
        return False
    w = entry.w
    if step.heading:
        write(step.heading)
    while True:
        raw = read(step.prompt)
        raw = (raw if isinstance(raw, str) else "").strip()
        if not raw:
            note = entry.skip()
            if note:
                write("  " + note)
            return entry.step() is not None
        if raw == "?":
            write(step.hint or notation_help(entry.game))
            continue
        if raw.lower() in prompt_words.BACK_WORDS:
            if entry.back():
                write("  " + w["undone"])
                return True
            write("  ! " + w["nothing_to_undo"])
            continue
        try:
            note = entry.give(raw)
        except RefereeError as exc:
            write(f"  ! {exc.message}")
            continue
        if note:
            write("  " + note)
        return True


def seat_label(book: Rulebook, seat: str, lang: str) -> str:
    try:
        name = book.seat_label(seat, lang)
    except Exception:       # a seat the rulebook does not list: show the id
        return seat
    return f"{name} [{seat}]" if name and name != seat else seat
