"""Entering the cards, step by step: contract, hands, talon and discard, the play trick by trick.

A ``CardEntry`` knows which part of the deal comes next and checks every entry at once with the
card library (``expert.cards.parse_deal``) on the deal entered so far: a mistake raises the
library's message, which names the position and the card, and the step stays. A step can be
skipped (what the referee does not know) and the last step given or skipped undone. Every front
end (the terminal, the web page) drives the same steps; the result is the ``cards:`` mapping of
a case file (expert/cards/README.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from referee.expert.cards.deal import default_first_lead, parse_deal
from referee.expert.cards.deck import HAND_SIZE, SEATS, TALON_SIZE, TRICK_SIZE, deck
from referee.expert.cards.notation import notation_help
from referee.expert.language import prompt_words
from referee.expert.language.errors import RefereeError

CONTRACT_HELP = {
    "preferans": "the game: pik, karo, herc, tref, betl or sans",
    "skat": "the game: clubs, spades, hearts, diamonds (Kreuz, Pik, Herz, Karo ...), grand or null",
    "bridge": "the final contract, e.g. 4♠, 3NT, 2H",
    "ulti": "the game, e.g. piros ulti, zöld 40-100, betli, durchmars",
}
TALON_KEY = {"preferans": "talon", "skat": "skat", "ulti": "talon"}


def words(lang: str) -> dict:
    return prompt_words.words(prompt_words.CARDS, lang)


@dataclass
class Step:
    """One step of card entry: which part of the deal it fills and how it is read."""

    key: object                  # "contract", ("hands", seat), ("play", n), ...
    prompt: str
    hint: str
    parse: Callable[[str], object] | None = None
    skipped_note: str = ""       # said when the step is skipped
    ends: bool = False           # skipping it ends the entry (the play)
    heading: str = ""            # said before the step (the play's explanation)
    default: str = ""            # what skipping the step gives, in words (seat order, first lead)

    @property
    def kind(self) -> str:
        """contract | seats | declarer | bids | hand | talon | discard | lead | trick: what a front
        end shows (a card grid for hands, talon, discard and tricks)."""
        if isinstance(self.key, tuple):
            return "hand" if self.key[0] == "hands" else "trick"
        return {"skat": "talon"}.get(str(self.key), str(self.key))

    @property
    def seat(self) -> str:
        """The seat whose hand the step enters ('' for any other step)."""
        return str(self.key[1]) if isinstance(self.key, tuple) and self.key[0] == "hands" else ""

    @property
    def trick(self) -> int | None:
        """The trick the step enters, counted from 0 (None for any other step)."""
        return int(self.key[1]) if isinstance(self.key, tuple) and self.key[0] == "play" else None


class CardEntry:
    """The cards entered so far and the step that comes next."""

    def __init__(self, game: str, lang: str = "en", label: Callable[[str], str] = str,
                 deal: dict | None = None, done: list[dict] | None = None):
        self.game, self.lang, self.label = game, lang, label
        self.deal: dict = dict(deal or {})
        self.done: list[dict] = list(done or [])   # the deal as it was before each step given or skipped
        self.ended = False

    @property
    def w(self) -> dict:
        return words(self.lang)

    def step(self) -> Step | None:
        if self.ended:
            return None
        steps = plan(self.game, self.deal, self.label, self.w)
        return steps[len(self.done)] if len(self.done) < len(steps) else None

    def give(self, raw: str) -> str | None:
        """Accept an entry for the current step (RefereeError when the cards refuse it); returns
        a note to show (the play ended on an unfinished trick), or None."""
        step = self.step()
        if step is None:
            raise RefereeError("the cards are complete")
        try:
            value = step.parse(raw) if step.parse else raw.strip()
            trial = _with(self.deal, step.key, value)
            parse_deal(trial, self.game)
        except RefereeError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise RefereeError(f"cannot read {raw!r}: {exc}") from None
        self.done.append(_copy(self.deal))
        self.deal = trial
        if step.ends and _unfinished(self.deal, self.game):
            return self.w["unfinished"]
        return None

    def skip(self) -> str:
        """Leave the current step out; returns what to say (its note). The last bridge hand,
        skipped when the other three are in, is filled with the cards left."""
        step = self.step()
        if step is None:
            return ""
        rest = self._last_hand(step)
        if rest is not None:
            self.give(rest)
            return self.w.get("filled", "(filled in: the cards left after the other three hands)")
        self.done.append(_copy(self.deal))
        if step.ends:
            self.ended = True
        return step.skipped_note

    def _last_hand(self, step: Step) -> str | None:
        """The cards of the last bridge hand when the other three are entered, else None."""
        if self.game != "bridge" or step.kind != "hand":
            return None
        hands = self.deal.get("hands") or {}
        others = [s for s in SEATS["bridge"] if s != step.key[1]]
        if not all(hands.get(s) for s in others):
            return None
        from referee.expert.cards.notation import format_cards, parse_cards
        held = {c for s in others for c in parse_cards(hands[s], "bridge")}
        rest = [c for c in deck("bridge") if c not in held]
        return format_cards(rest, "bridge") if len(rest) == HAND_SIZE["bridge"] else None

    def back(self) -> bool:
        if not self.done:
            return False
        self.deal = self.done.pop()
        self.ended = False
        return True


def plan(game: str, deal: dict, label, w: dict) -> list[Step]:
    """Every step for the deal as entered so far: the hands follow the seats given, the play
    follows the contract, and there is one more trick step until the play is over."""
    steps = []
    seats = list(SEATS[game])
    if game != "bridge":
        steps.append(Step("seats", w["seats"].format(default=" ".join(seats)),
                          "the seat ids, each once, separated by spaces", _seats_parser(seats),
                          default=" ".join(seats)))
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
                      lambda raw: raw.strip(), default=first))
    played = len(deal.get("play") or [])
    more = played < HAND_SIZE[game] and not _unfinished(deal, game)
    hint = notation_help(game) + f"\n{TRICK_SIZE[game]} cards a trick; the last trick entered may be unfinished."
    steps += [Step(("play", n), w["trick"].format(n=n + 1), hint, ends=True,
                   heading=w["play"] if n == 0 else "")
              for n in range(played + (1 if more else 0))]
    return steps


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
