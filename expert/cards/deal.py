"""The deal record: hands, talon/skat, bought cards and discard, contract, and the play.

:func:`parse_deal` reads the plain dict that a case file's optional ``deal:`` section holds
(format in ``expert/cards/README.md``) and validates it: each card once, played cards from
the hand of the seat that played them, trick sizes. Every error is a RefereeError naming
the position. Trick winners and leaders are computed here; infractions are found by
:mod:`expert.cards.derive`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.expert.language.errors import RefereeError

from referee.expert.cards.deck import (GAMES, HAND_SIZE, SEATS, SUITS, TALON_SIZE, TRICK_SIZE, Card, Contract,
                   describe, trick_winner_index)
from referee.expert.cards.notation import SUIT_WORDS, SYMBOLS, ULTI_SYMBOLS, check_count, format_cards, parse_cards

DEAL_KEYS = {"game", "seats", "declarer", "contract", "hands", "talon", "skat", "bought",
             "discard", "lead", "play", "partnerships", "bids"}
TRICK_KEYS = {"cards", "by", "lead"}

CONTRACT_WORDS = {
    "preferans": {"BETL": ("betl", None), "BETEL": ("betl", None), "SANS": ("sans", None),
                  "BEZ ADUTA": ("sans", None)},
    "skat": {"GRAND": ("grand", None), "NULL": ("null", None), "NULL OUVERT": ("null", None),
             "NULL HAND": ("null", None), "NULL OUVERT HAND": ("null", None)},
    "bridge": {"NT": ("notrump", None), "NOTRUMP": ("notrump", None), "NO TRUMP": ("notrump", None),
               "БК": ("notrump", None), "SA": ("notrump", None)},
    "ulti": {"BETLI": ("betli", None), "DURCHMARS": ("durchmars", None),
             "REBETLI": ("betli", None), "TERÍTETT BETLI": ("betli", None)},
}


@dataclass
class Trick:
    """One trick as played. ``cards`` is [(seat, card)] in the order played."""

    number: int                                   # 1-based
    cards: list[tuple[str, Card]]
    expected_leader: str                          # who was on lead by the rules
    seats_known: bool = True                      # False: seats were assumed by rotation
    winner: str | None = None                     # computed when the trick is complete
    complete: bool = True

    @property
    def leader(self) -> str:
        return self.cards[0][0]

    @property
    def led(self) -> Card:
        return self.cards[0][1]


@dataclass
class Deal:
    game: str
    seats: list[str]                              # table order = order of play
    contract: Contract | None = None
    declarer: str | None = None
    hands: dict[str, list[Card]] = field(default_factory=dict)     # as dealt (declarer: 10 or 12)
    talon: list[Card] = field(default_factory=list)                # preferans/ulti talon, skat
    discard: list[Card] = field(default_factory=list)
    first_lead: str | None = None
    tricks: list[Trick] = field(default_factory=list)
    partnerships: list[list[str]] = field(default_factory=list)
    bids: dict[str, str] = field(default_factory=dict)    # seat -> suit bid up to, or "none"

    # ---------------------------------------------------------------- derived views
    @property
    def bought(self) -> list[Card]:
        """The cards the declarer took from the talon (preferans 'kupljene karte')."""
        return list(self.talon)

    def pool(self, seat: str) -> list[Card] | None:
        """Every card ``seat`` may have played: its hand, and for the declarer the talon too
        (less the discard where known). None when the hand was not given."""
        if seat not in self.hands:
            return None
        cards = list(self.hands[seat])
        if seat == self.declarer:
            cards += [c for c in self.talon if c not in cards]
            cards = [c for c in cards if c not in self.discard]
        return cards

    def playing_hand(self, seat: str) -> list[Card] | None:
        """The exact cards ``seat`` played the deal with, or None when they are not known
        (no hand given; or the declarer picked up the talon and the discard is not given)."""
        cards = self.pool(seat)
        if cards is None:
            return None
        if len(cards) != HAND_SIZE[self.game]:
            return None
        return cards

    def held_before(self, seat: str, trick_number: int) -> tuple[list[Card], bool]:
        """What ``seat`` held when trick ``trick_number`` (1-based) began, and whether that is
        the whole holding (True) or only the cards the play record shows he still had (the
        cards he played to this and later tricks: False)."""
        hand = self.playing_hand(seat)
        if hand is not None:
            played = {c for t in self.tricks[:trick_number - 1] for s, c in t.cards if s == seat}
            return [c for c in hand if c not in played], True
        later = [c for t in self.tricks[trick_number - 1:] for s, c in t.cards if s == seat]
        return later, False

    def side_of(self, seat: str) -> str:
        for pair in self.partnerships:
            if seat in pair:
                return "+".join(pair)
        if self.declarer:
            return "declarer" if seat == self.declarer else "defenders"
        return seat

    def next_seat(self, seat: str, k: int = 1) -> str:
        i = self.seats.index(seat)
        return self.seats[(i + k) % len(self.seats)]

    def holder_of(self, card: Card) -> str | None:
        for s in self.hands:
            h = self.pool(s)
            if h and card in h:
                return s
        return None

    def summary(self) -> str:
        parts = [f"{self.game}", f"contract {self.contract}" if self.contract else "contract ?"]
        if self.declarer:
            parts.append(f"declarer {self.declarer}")
        for s, h in self.hands.items():
            parts.append(f"{s}: {format_cards(h, self.game, self.contract)}")
        if self.talon:
            parts.append(f"talon: {format_cards(self.talon, self.game)}")
        if self.discard:
            parts.append(f"discard: {format_cards(self.discard, self.game)}")
        for t in self.tricks:
            cs = ", ".join(f"{s} {c}" for s, c in t.cards)
            parts.append(f"trick {t.number}: {cs}" + (f" -> {t.winner}" if t.winner else ""))
        return "; ".join(parts)


# -------------------------------------------------------------------- parsing helpers

def parse_contract(value, game: str, *, file=None, line=None) -> Contract:
    """A contract from text ('herc', 'betl', 'grand', '4♠', '3NT', 'piros ulti', 'betli') or
    a dict {type, trump, level}."""
    where = "deal: contract"
    try:
        if isinstance(value, Contract):
            return value
        if isinstance(value, dict):
            extra = set(value) - {"type", "trump", "level"}
            if extra:
                raise ValueError(f"unknown key(s) {', '.join(sorted(map(str, extra)))}")
            trump = value.get("trump")
            if trump is not None:
                trump = _suit_from_word(str(trump), game)
            typ = value.get("type") or ("suit" if trump else None)
            level = value.get("level")
            if level is not None and (not isinstance(level, int) or isinstance(level, bool)):
                raise ValueError("level must be a whole number")
            return Contract(game, str(typ), trump, level)
        if not isinstance(value, str):
            raise ValueError(f"a text or a mapping is expected, got {type(value).__name__}")
        text = value.strip()
        up = text.upper()
        level = None
        if game == "bridge":
            m = re.match(r"^([1-7])\s*(.*)$", text)
            if m:
                level = int(m.group(1))
                text = m.group(2).strip()
            text = text.rstrip("xX* ") or text      # the doubling (4♠X, 3NTXX): cards/bridge.py
            up = text.upper()
            for w, (typ, _) in CONTRACT_WORDS["bridge"].items():
                if up == w:
                    return Contract(game, typ, None, level)
            return Contract(game, "suit", _suit_from_word(text.rstrip("xX* "), game), level)
        words = up.split()
        if game == "ulti":
            trump = None
            for w in words:
                try:
                    trump = _suit_from_word(w, game)
                    break
                except ValueError:
                    continue
            if "BETLI" in words or "REBETLI" in words:
                return Contract(game, "betli")
            if "DURCHMARS" in words:
                return Contract(game, "durchmars", trump)
            if trump is None:
                raise ValueError("name the trump colour (piros, tök, zöld, makk), or betli / "
                                 "durchmars")
            return Contract(game, "suit", trump)
        if up in CONTRACT_WORDS[game]:
            typ, _ = CONTRACT_WORDS[game][up]
            return Contract(game, typ)
        if words and words[0] in CONTRACT_WORDS[game]:
            return Contract(game, CONTRACT_WORDS[game][words[0]][0])
        return Contract(game, "suit", _suit_from_word(words[0] if words else "", game))
    except ValueError as e:
        kinds = {"preferans": "pik, karo, herc, tref, betl or sans",
                 "skat": "clubs/spades/hearts/diamonds (or Kreuz/Pik/Herz/Karo, trefl/pik/kier/"
                         "karo), grand or null",
                 "bridge": "a level and a strain: 4♠, 3NT, 2H",
                 "ulti": "a colour (piros, tök, zöld, makk), betli, or durchmars (with a colour "
                         "for the colour durchmars)"}[game]
        raise RefereeError(f"{where}: cannot read {value!r}: {e}; expected {kinds}",
                           file, line) from None


def _suit_from_word(word: str, game: str) -> str:
    w = word.strip().rstrip(":")
    if w in SYMBOLS:
        s = SYMBOLS[w]
        return ULTI_SYMBOLS[s] if game == "ulti" else s
    up = w.upper()
    if up in SUITS[game]:
        return up
    if up in SUIT_WORDS[game]:
        return SUIT_WORDS[game][up]
    raise ValueError(f"unknown suit {word!r}")


def _seat(value, deal: Deal, where: str, file, line) -> str:
    if not isinstance(value, str) or value not in deal.seats:
        raise RefereeError(f"{where}: unknown seat {value!r}; expected one of "
                           f"{', '.join(deal.seats)}", file, line)
    return value


def default_first_lead(deal: Deal) -> str:
    """Who leads to trick 1 when the deal does not say: bridge the declarer's left-hand
    opponent; ulti the declarer (the taker leads); preferans and skat the first seat listed
    (first in hand / Przodek)."""
    if deal.game == "bridge" and deal.declarer:
        return deal.next_seat(deal.declarer)
    if deal.game == "ulti" and deal.declarer:
        return deal.declarer
    return deal.seats[0]


# -------------------------------------------------------------------- the parser

def parse_deal(data: dict, game: str | None = None, *, file: str | None = None,
               line: int | None = None) -> Deal:
    """Build and validate a Deal from the ``deal:`` mapping of a case file."""
    if not isinstance(data, dict):
        raise RefereeError(f"deal: a mapping is expected, got {type(data).__name__}", file, line)
    unknown = set(map(str, data)) - DEAL_KEYS
    if unknown:
        raise RefereeError(f"deal: unknown key(s) {', '.join(sorted(unknown))}; expected "
                           f"{', '.join(sorted(DEAL_KEYS))}", file, line)
    game = data.get("game", game)
    if game not in GAMES:
        raise RefereeError(f"deal: unknown game {game!r}; expected one of {', '.join(GAMES)}",
                           file, line)
    seats = data.get("seats", list(SEATS[game]))
    if (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)
            or len(set(seats)) != len(seats)):
        raise RefereeError("deal: seats must be a list of distinct seat names in order of play",
                           file, line)
    if len(seats) != TRICK_SIZE[game]:
        raise RefereeError(f"deal: {game} is played by {TRICK_SIZE[game]} seats, "
                           f"{len(seats)} given ({', '.join(seats)})", file, line)
    deal = Deal(game=game, seats=list(seats))
    if "partnerships" in data:
        p = data["partnerships"]
        if not (isinstance(p, list) and all(isinstance(x, list) for x in p)
                and all(s in seats for x in p for s in x)):
            raise RefereeError("deal: partnerships must be a list of lists of seats", file, line)
        deal.partnerships = [list(x) for x in p]
    elif game == "bridge" and set(seats) == {"N", "E", "S", "W"}:
        deal.partnerships = [["N", "S"], ["E", "W"]]
    if data.get("declarer") is not None:
        deal.declarer = _seat(data["declarer"], deal, "deal: declarer", file, line)
    else:   # a seat named for the role is the declarer
        deal.declarer = next((s for s in ("declarer", "soloist") if s in deal.seats), None)
    if data.get("contract") is not None:
        deal.contract = parse_contract(data["contract"], game, file=file, line=line)
    elif "contract" in data and game == "skat":
        # YAML reads a bare `null` (or `~`, or nothing) as "no value", not as the null game
        raise RefereeError('deal: contract: no value; for the null game write it in quotes: '
                           'contract: "null" (YAML reads a bare null as empty)', file, line)
    if data.get("bids") is not None:
        bids = data["bids"]
        if not isinstance(bids, dict):
            raise RefereeError("deal: bids must map seats to the suit each bid up to (or none)",
                               file, line)
        for seat, v in bids.items():
            _seat(seat, deal, "deal: bids", file, line)
            if v in (None, False, "none", "dalje", "pass"):
                deal.bids[seat] = "none"
                continue
            try:
                deal.bids[seat] = _suit_from_word(str(v), game)
            except ValueError:
                raise RefereeError(f"deal: bids: {seat}: cannot read {v!r}; expected a suit "
                                   "(pik, karo, herc, tref ...) or none", file, line) from None

    seen: dict[Card, str] = {}

    def register(cards, where):
        for c in cards:
            if c in seen:
                raise RefereeError(f"{where}: the card {describe(c, game)} is also in "
                                   f"{seen[c]}; each card exists once", file, line)
            seen[c] = where

    # talon / skat (one of the two names)
    talon_key = [k for k in ("talon", "skat", "bought") if data.get(k) is not None]
    if len(talon_key) > 1:
        raise RefereeError(f"deal: give the talon once (found {', '.join(talon_key)})", file, line)
    if talon_key:
        k = talon_key[0]
        deal.talon = parse_cards(data[k], game, f"deal: {k}", file=file, line=line)
        check_count(deal.talon, TALON_SIZE[game], f"deal: {k}", game, file=file, line=line)

    hands = data.get("hands") or {}
    if not isinstance(hands, dict):
        raise RefereeError("deal: hands must map each seat to its cards", file, line)
    for seat, text in hands.items():
        where = f"deal: hand of {seat}"
        _seat(seat, deal, where, file, line)
        cards = parse_cards(text, game, where, file=file, line=line)
        allowed = [HAND_SIZE[game]]
        if seat == deal.declarer and TALON_SIZE[game]:
            allowed.append(HAND_SIZE[game] + TALON_SIZE[game])   # with the talon picked up
        check_count(cards, tuple(allowed), where, game, file=file, line=line)
        if len(cards) > HAND_SIZE[game] and deal.talon:
            missing = [c for c in deal.talon if c not in cards]
            if missing:
                raise RefereeError(f"{where}: {len(cards)} cards is the hand with the talon "
                                   f"picked up, but the talon card {missing[0]} is not in it",
                                   file, line)
            cards_wo = [c for c in cards if c not in deal.talon]
            register(cards_wo, where)
        else:
            register(cards, where)
        deal.hands[seat] = cards
    if deal.talon:
        register(deal.talon, f"deal: {talon_key[0]}")

    if data.get("discard") is not None:
        where = "deal: discard"
        deal.discard = parse_cards(data["discard"], game, where, file=file, line=line)
        check_count(deal.discard, TALON_SIZE[game], where, game, file=file, line=line)
        if deal.declarer is None:
            raise RefereeError(f"{where}: name the declarer (declarer: SEAT) who discarded",
                               file, line)
        if deal.declarer in deal.hands:
            pool = set(deal.hands[deal.declarer]) | set(deal.talon)
            for c in deal.discard:
                if c not in pool:
                    raise RefereeError(f"{where}: {describe(c, game)} is neither in the "
                                       f"declarer's hand nor in the talon", file, line)
        elif any(c in seen for c in deal.discard):
            c = next(c for c in deal.discard if c in seen)
            raise RefereeError(f"{where}: {c} is in {seen[c]}", file, line)

    if data.get("lead") is not None:
        deal.first_lead = _seat(data["lead"], deal, "deal: lead", file, line)
    else:
        deal.first_lead = default_first_lead(deal)

    play = data.get("play") or []
    if not isinstance(play, list):
        raise RefereeError("deal: play must be a list of tricks", file, line)
    if play and deal.contract is None:
        raise RefereeError("deal: play: give the contract (contract: ...) so that the winner "
                           "of each trick can be computed", file, line)
    _parse_play(deal, play, file, line)
    return deal


def _parse_play(deal: Deal, play: list, file, line) -> None:
    game = deal.game
    size = TRICK_SIZE[game]
    if len(play) > HAND_SIZE[game]:
        raise RefereeError(f"deal: play: {len(play)} tricks, at most {HAND_SIZE[game]} in {game}",
                           file, line)
    played: dict[Card, int] = {}
    hands_known = len(deal.hands) == len(deal.seats)
    expected = deal.first_lead or deal.seats[0]
    for i, raw in enumerate(play, start=1):
        where = f"deal: play: trick {i}"
        by: list[str] | None = None
        lead: str | None = None
        if isinstance(raw, dict):
            unknown = set(map(str, raw)) - TRICK_KEYS
            if unknown:
                raise RefereeError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
                                   f"expected cards, by, lead", file, line)
            cards = parse_cards(raw.get("cards"), game, where, file=file, line=line)
            if raw.get("by") is not None:
                if not isinstance(raw["by"], list):
                    raise RefereeError(f"{where}: by must list the seat of each card in order",
                                       file, line)
                by = [_seat(s, deal, where + ": by", file, line) for s in raw["by"]]
            if raw.get("lead") is not None:
                lead = _seat(raw["lead"], deal, where + ": lead", file, line)
        elif isinstance(raw, list) and raw and all(isinstance(x, dict) and len(x) == 1 for x in raw):
            by, texts = [], []
            for pair in raw:
                (s, t), = pair.items()
                by.append(_seat(s, deal, where, file, line))
                texts.append(t)
            cards = []
            for s, t in zip(by, texts):
                one = parse_cards(t, game, f"{where} ({s})", file=file, line=line)
                if len(one) != 1:
                    raise RefereeError(f"{where}: {s} must play exactly one card, got {t!r}",
                                       file, line)
                cards.extend(one)
        else:
            cards = parse_cards(raw, game, where, file=file, line=line)
        if not cards:
            raise RefereeError(f"{where}: no cards; expected {size} cards in the order played",
                               file, line)
        if len(cards) > size or (len(cards) < size and i != len(play)):
            raise RefereeError(f"{where}: {len(cards)} cards, {size} expected (only the last "
                               f"trick listed may be unfinished)", file, line)
        if by is not None and len(by) != len(cards):
            raise RefereeError(f"{where}: by names {len(by)} seats for {len(cards)} cards",
                               file, line)
        for c in cards:
            if c in played:
                raise RefereeError(f"{where}: {describe(c, game)} was already played to "
                                   f"trick {played[c]}", file, line)
            played[c] = i
        # who played each card
        seats_known = True
        if by is None:
            if hands_known:
                by = []
                for c in cards:
                    h = deal.holder_of(c)
                    if h is None:
                        place = ("was discarded" if c in deal.discard else
                                 "is in the talon" if c in deal.talon else "is in no hand")
                        raise RefereeError(f"{where}: {describe(c, game)} {place}; a played "
                                           f"card must come from a hand", file, line)
                    by.append(h)
            else:
                start = lead or expected
                by = [deal.next_seat(start, k) for k in range(len(cards))]
                seats_known = False
        if lead is not None and by[0] != lead:
            raise RefereeError(f"{where}: lead says {lead} but the first card {cards[0]} was "
                               f"played by {by[0]}", file, line)
        if len(set(by)) != len(by):
            raise RefereeError(f"{where}: a seat plays twice in one trick ({', '.join(by)})",
                               file, line)
        for s, c in zip(by, cards):
            hand = deal.pool(s)
            if hand is not None and c not in hand:
                raise RefereeError(f"{where}: {s} played {describe(c, game)} but that card "
                                   f"is not in {s}'s hand", file, line)
        trick = Trick(number=i, cards=list(zip(by, cards)), expected_leader=expected,
                      seats_known=seats_known, complete=len(cards) == size)
        if trick.complete:
            trick.winner = by[trick_winner_index(cards, deal.contract)]
            expected = trick.winner
        deal.tricks.append(trick)
