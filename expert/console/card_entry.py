"""Entering the cards at the table: contract, hands, talon and discard, the play trick by trick.

Every prompt is checked at once by the card library (``expert.cards.parse_deal``) on the deal
entered so far: a mistake gives the library's message, which names the position and the card
("deal: hand of defender_2: the card ♣K (kralj) is also in deal: hand of defender_1 ..."),
and the same prompt is asked again. '?' shows the notation; an empty line skips a prompt (and
ends the play); 'back' undoes the previous entry, given or skipped. The result is the ``cards:`` mapping of a case file (expert/cards/README.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from referee.expert.cards.deal import default_first_lead, parse_deal
from referee.expert.cards.deck import HAND_SIZE, SEATS, TALON_SIZE, TRICK_SIZE
from referee.expert.cards.notation import notation_help
from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError
from referee.expert.language.model import Rulebook

Reader = Callable[..., str]
Writer = Callable[[str], None]

CONTRACT_HELP = {
    "preferans": "the game: pik, karo, herc, tref, betl or sans",
    "skat": "the game: clubs, spades, hearts, diamonds (Kreuz, Pik, Herz, Karo ...), grand or null",
    "bridge": "the final contract, e.g. 4♠, 3NT, 2H",
    "ulti": "the game, e.g. piros ulti, zöld 40-100, betli, durchmars",
}
TALON_KEY = {"preferans": "talon", "skat": "skat", "ulti": "talon"}

def words(lang: str) -> dict:
    return prompt_words.words(prompt_words.CARDS, lang)


class Interrupted(Exception):
    """The referee stopped (end of input, Ctrl-C) during card entry; ``cards`` holds what was
    accepted so far."""

    def __init__(self, cards: dict):
        super().__init__("card entry interrupted")
        self.cards = cards


def offer(book: Rulebook, read: Reader, write: Writer, lang: str = "en") -> dict | None:
    """The first question when the rulebook reads facts from the cards: enter them now?"""
    w = words(lang)
    while True:
        typed = read(w["offer"]).strip()
        raw = typed.lower()
        if raw in ("y", "yes", "d", "da", "j", "ja", "t", "tak", "i", "igen", "д", "да"):
            return enter_cards(book, read, write, lang)
        if raw in ("", "n", "no", "ne", "nein", "nie", "nem", "н", "нет"):
            return None
        if raw == "?":
            write("  " + w["offer_help"])
            continue
        write("  ! " + w["yn"].format(raw=typed))


def enter_cards(book: Rulebook | str, read: Reader, write: Writer, lang: str = "en") -> dict:
    """Ask for the deal record; return the ``cards:`` mapping (possibly empty).

    ``book`` is a Rulebook or a game name. ``read`` may raise EOFError/KeyboardInterrupt:
    ``Interrupted`` then carries what was accepted so far.
    """
    game = book if isinstance(book, str) else book.game
    label = (lambda s: s) if isinstance(book, str) else (lambda s: _seat_label(book, s, lang))
    deal: dict = {}
    try:
        _enter(game, deal, read, write, label, words(lang))
    except (EOFError, KeyboardInterrupt):
        raise Interrupted(dict(deal)) from None
    return deal


@dataclass
class Step:
    """One prompt of card entry: which part of the deal it fills and how it is read."""

    key: object
    prompt: str
    hint: str
    parse: Callable[[str], object] | None = None
    skipped_note: str = ""       # written when the prompt is skipped
    ends: bool = False           # skipping it ends the entry (the play)
    heading: str = ""            # written before the prompt (the play's explanation)


def _plan(game: str, deal: dict, label, w: dict) -> list[Step]:
    """Every prompt for the deal as entered so far: the hands follow the seats given, the
    play follows the contract, and there is one more trick prompt until the play is over."""
    steps = []
    seats = list(SEATS[game])
    if game != "bridge":
        steps.append(Step("seats", w["seats"].format(default=" ".join(seats)),
                          "the seat ids, each once, separated by spaces", _seats_parser(seats)))
        seats = deal.get("seats", seats)
    else:
        steps.append(Step("declarer", w["declarer"], "the seat of the declarer: N, E, S or W",
                          lambda raw: raw.strip().upper()))
    steps.append(Step("contract", w["contract"], CONTRACT_HELP[game], skipped_note=w["no_contract"]))
    if game == "preferans":
        steps.append(Step("bids", w["bids"], "seat=suit or seat=none for each player who bid or passed", _bids))
    steps += [Step(("hands", seat), w["hand"].format(seat=label(seat)), notation_help(game, "hand"))
              for seat in seats]
    if TALON_SIZE[game]:
        key = TALON_KEY[game]
        steps.append(Step(key, w[key].format(n=TALON_SIZE[game]), notation_help(game, key)))
        steps.append(Step("discard", w["discard"].format(n=TALON_SIZE[game]), notation_help(game, "discard")))
    if "contract" not in deal:
        return steps
    try:
        first = default_first_lead(parse_deal(deal, game))
    except RefereeError:
        first = seats[0]
    steps.append(Step("lead", w["lead"].format(default=first), f"one of {', '.join(seats)}",
                      lambda raw: raw.strip()))
    played = len(deal.get("play") or [])
    more = played < HAND_SIZE[game] and not _unfinished(deal, game)
    hint = notation_help(game) + f"\n{TRICK_SIZE[game]} cards a trick; the last trick entered may be unfinished."
    steps += [Step(("play", n), w["trick"].format(n=n + 1), hint, ends=True,
                   heading=w["play"] if n == 0 else "")
              for n in range(played + (1 if more else 0))]
    return steps


def _enter(game: str, deal: dict, read: Reader, write: Writer, label, w: dict) -> None:
    write("")
    write(w["intro"])
    done: list[dict] = []        # the deal as it was before each prompt answered or skipped
    while True:
        steps = _plan(game, deal, label, w)
        if len(done) >= len(steps):
            return
        step = steps[len(done)]
        if step.heading:
            write(step.heading)
        before = _copy(deal)
        answer = ask(game, deal, step.key, step.prompt, read, write, parse=step.parse, hint=step.hint,
                     can_go_back=bool(done), w=w)
        if answer is BACK:
            deal.clear()
            deal.update(done.pop())
            write("  " + w["undone"])
            continue
        done.append(before)
        if answer and step.ends and _unfinished(deal, game):
            write("  " + w["unfinished"])
        if not answer:
            if step.skipped_note:
                write("  " + step.skipped_note)
            if step.ends:
                return


BACK = object()


def ask(game: str, deal: dict, key, prompt: str, read: Reader, write: Writer, *,
        parse=None, hint: str = "", can_go_back: bool = False, w: dict | None = None):
    """Ask one part of the deal until it is accepted (True), skipped with Enter (False) or, when
    ``can_go_back``, undone with 'back' (``BACK``)."""
    while True:
        raw = read(prompt)
        if not isinstance(raw, str):
            raw = ""
        raw = raw.strip()
        if not raw:
            return False
        if raw == "?":
            write(hint or notation_help(game))
            continue
        if raw.lower() in prompt_words.BACK_WORDS:
            if can_go_back:
                return BACK
            write("  ! " + (w or words("en"))["nothing_to_undo"])
            continue
        try:
            value = parse(raw) if parse else raw
            trial = _with(deal, key, value)
            parse_deal(trial, game)
        except RefereeError as exc:
            write(f"  ! {exc.message}")
            continue
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            write(f"  ! cannot read {raw!r}: {exc}")
            continue
        deal.clear()
        deal.update(trial)
        return True


def _copy(deal: dict) -> dict:
    return {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
            for k, v in deal.items()}


def _with(deal: dict, key, value) -> dict:
    trial = _copy(deal)
    if isinstance(key, tuple):
        part, sub = key
        if part == "play":
            trial.setdefault("play", []).append(value)
        else:
            trial.setdefault(part, {})[sub] = value
    else:
        trial[key] = value
    return trial


def _seats_parser(default: list[str]):
    def parse(raw: str) -> list[str]:
        got = [s for s in re.split(r"[\s,]+", raw) if s]
        if sorted(got) != sorted(default):
            raise RefereeError(f"deal: seats: {raw!r} is not an order of {', '.join(default)} "
                               "(each seat once)")
        return got
    return parse


def _bids(raw: str) -> dict:
    bids = {}
    for part in (p for p in re.split(r"[\s,;]+", raw) if p):
        seat, sep, suit = part.partition("=")
        if not sep or not seat or not suit:
            raise RefereeError(f"deal: bids: {part!r}: expected seat=suit or seat=none")
        bids[seat] = suit
    return bids


def _unfinished(deal: dict, game: str) -> bool:
    try:
        d = parse_deal(deal, game)
    except RefereeError:
        return False
    return bool(d.tricks) and not d.tricks[-1].complete


def _seat_label(book: Rulebook, seat: str, lang: str) -> str:
    try:
        name = book.seat_label(seat, lang)
    except Exception:       # a seat the rulebook does not list: show the id
        return seat
    return f"{name} [{seat}]" if name and name != seat else seat
