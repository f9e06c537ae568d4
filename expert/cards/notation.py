"""Compact card notation, quick to type, with the local letters of each game.

A holding is written suit by suit: a suit marker, then the ranks held in that suit::

    ♠AK7 ♥QJ109          S:AK7 H:QJT9         (any game with French suits)
    H4  SAK7                                  (a French suit letter glued to its ranks)
    P:AKD K:J109 H:- T:87    (preferans: pik, karo, herc, tref; D = dama, K = kralj, J/P = pub)
    Kr:BA10 Pi:K Ka:D7       (skat, German letters)   T:WA10 Ki:D (Polish: trefl, kier, walet)
    P:Á X K  Z:F A IX VIII   (ulti: piros, tök, zöld, makk; Á ász, K király, F felső, A alsó)

A suit marker is a suit symbol (♠♥♦♣) or a suit letter/word followed by ``:``. Ranks follow
without separators (``AKQJT9``, ``AKQJ109``) or separated by spaces/commas. ``-`` after a marker
means "none in that suit". Single cards are written the same way (``♠A``, ``S:A``, ``P:Á``).
Roman numerals (ulti) must be separated when a run could be read two ways (``VIIIX``).

Every error is an :class:`expert.errors.RefereeError` that names the position (``where``),
the text, what was wrong and what was expected. Nothing typed makes this module raise
anything else.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from referee.expert.language.errors import RefereeError

from referee.expert.cards.deck import GAMES, HAND_SIZE, SUIT_SYMBOL, TALON_SIZE, Card, describe, sort_cards

SYMBOLS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
# German-suited ulti cards against the French symbols: Herz/piros ♥, Schellen/tök ♦,
# Grün/zöld ♠, Eichel/makk ♣.
ULTI_SYMBOLS = {"S": "Z", "H": "P", "D": "T", "C": "M"}

SUIT_WORDS: dict[str, dict[str, str]] = {
    "preferans": {
        "S": "S", "H": "H", "D": "D", "C": "C",
        "P": "S", "PIK": "S", "K": "D", "KARO": "D", "HERC": "H", "T": "C", "TREF": "C",
        "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D", "CLUBS": "C",
    },
    "skat": {
        "S": "S", "H": "H", "D": "D", "C": "C",
        "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D", "CLUBS": "C",
        # German
        "KR": "C", "KREUZ": "C", "X": "C", "PI": "S", "PIK": "S", "HE": "H", "HERZ": "H",
        "KA": "D", "KARO": "D", "E": "C", "EICHEL": "C", "G": "S", "GRÜN": "S", "GRUN": "S",
        "R": "H", "ROT": "H", "SCH": "D", "SCHELLEN": "D",
        # Polish
        "T": "C", "TR": "C", "TREFL": "C", "P": "S", "KI": "H", "KIER": "H",
        "ŻOŁĄDŹ": "C", "ZOLADZ": "C", "WINO": "S", "CZERWIEŃ": "H", "CZERWIEN": "H",
        "SERCE": "H", "DZWONEK": "D", "DZWONKI": "D",
    },
    "bridge": {
        "S": "S", "H": "H", "D": "D", "C": "C",
        "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D", "CLUBS": "C",
        # Russian (the seed's language)
        "П": "S", "ПИКИ": "S", "Ч": "H", "ЧЕРВЫ": "H", "ЧЕРВИ": "H", "Б": "D", "БУБНЫ": "D",
        "Т": "C", "ТРЕФЫ": "C", "КРЕСТИ": "C",
    },
    "ulti": {
        "P": "P", "PIROS": "P", "T": "T", "TÖK": "T", "TOK": "T", "Z": "Z", "ZÖLD": "Z",
        "ZOLD": "Z", "M": "M", "MAKK": "M",
    },
}
# Letters that name two different suits in the local languages of a game.
AMBIGUOUS_SUITS = {
    "skat": {"K": "K is Kreuz, Karo or Polish kier: write Kr/Ka/Ki (or C/D/H)"},
    "bridge": {},
    "preferans": {},
    "ulti": {},
}

RANK_WORDS: dict[str, dict[str, str]] = {
    "preferans": {"A": "A", "KEC": "A", "K": "K", "KRALJ": "K", "Q": "Q", "D": "Q",
                  "DAMA": "Q", "J": "J", "P": "J", "PUB": "J", "10": "T", "T": "T",
                  "9": "9", "8": "8", "7": "7"},
    "skat": {"A": "A", "AS": "A", "K": "K", "Q": "Q", "D": "Q", "O": "Q", "J": "J", "B": "J",
             "W": "J", "U": "J", "10": "T", "T": "T", "9": "9", "8": "8", "7": "7"},
    "bridge": {"A": "A", "K": "K", "Q": "Q", "J": "J", "10": "T", "T": "T",
               "9": "9", "8": "8", "7": "7", "6": "6", "5": "5", "4": "4", "3": "3", "2": "2",
               # Russian: туз, король, дама, валет
               "Т": "A", "К": "K", "Д": "Q", "В": "J"},
    "ulti": {"ÁSZ": "A", "ASZ": "A", "Á": "A", "KIRÁLY": "K", "KIRALY": "K", "K": "K",
             "FELSŐ": "Q", "FELSO": "Q", "F": "Q", "O": "Q", "ALSÓ": "J", "ALSO": "J", "A": "J",
             "U": "J", "10": "T", "9": "9", "8": "8", "7": "7"},
}
ROMAN = {"VII": "7", "VIII": "8", "IX": "9", "X": "T"}

EXPECTED_RANKS = {
    "preferans": "A K D/Q J/P 10/T 9 8 7",
    "skat": "A 10/T K D/Q B/J/W 9 8 7",
    "bridge": "A K Q J 10/T 9 8 7 6 5 4 3 2",
    "ulti": "Á (ász) K (király) F (felső) A (alsó) X/10 IX/9 VIII/8 VII/7",
}
EXPECTED_SUITS = {
    "preferans": "♠♥♦♣, or P: K: H: T: (pik, karo, herc, tref), or S: H: D: C:",
    "skat": "♣♠♥♦, or C: S: H: D:, Kr: Pi: He: Ka: (German), T: P: Ki: Ka: (Polish)",
    "bridge": "♠♥♦♣, or S: H: D: C:, or П: Ч: Б: Т:",
    "ulti": "P: T: Z: M: (piros, tök, zöld, makk), or ♥ ♦ ♠ ♣",
}
EXAMPLE = {
    "preferans": "♠AK7 ♥QJ109  or  P:AKD H:J109",
    "skat": "♣J ♠AK7 ♥QT9  or  Kr:B Pi:AK7 He:D10 9",
    "bridge": "♠AK7 ♥QJT9 ♦AK2 ♣5432",
    "ulti": "P:Á K X Z:F A IX",
}

_SEP = re.compile(r"[\s,;|/]+")
_WORD_COLON = re.compile(r"([^\W\d_]+)\s*:")
_ROMAN_RUN = re.compile(r"[VIXvix]+")


def _fail(msg: str, where: str, text: str, game: str, file, line, expect: bool = True):
    tail = ""
    if expect:
        tail = (f"; expected a suit ({EXPECTED_SUITS[game]}) followed by ranks "
                f"({EXPECTED_RANKS[game]}), e.g. '{EXAMPLE[game]}'")
    raise RefereeError(f"{where}: {msg} in {text!r}{tail}", file, line)


def _segment_roman(run: str) -> list[list[str]]:
    """All ways to read a run like 'VIIVIII' as a sequence of VII VIII IX X."""
    run = run.upper()
    if not run:
        return [[]]
    out = []
    for w in ROMAN:
        if run.startswith(w):
            for rest in _segment_roman(run[len(w):]):
                out.append([w] + rest)
    return out


def _as_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return " ".join(_as_text(v) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise TypeError(type(value).__name__)


def parse_cards(text, game: str, where: str = "cards", *, file: str | None = None,
                line: int | None = None, allow_duplicates: bool = False) -> list[Card]:
    """Read cards in the compact notation, in the order written.

    ``where`` names the position for messages ("hand of defender_1", "talon", "trick 3").
    Raises RefereeError for an unknown suit or rank, a rank before any suit, an ambiguous
    letter, or (unless ``allow_duplicates``) a card given twice.
    """
    if game not in GAMES:
        raise RefereeError(f"{where}: unknown game {game!r}; expected one of {', '.join(GAMES)}",
                           file, line)
    try:
        text = _as_text(text)
    except TypeError as e:
        raise RefereeError(f"{where}: cards must be written as text, got a {e}; "
                           f"e.g. '{EXAMPLE[game]}'", file, line) from None
    suits = SUIT_WORDS[game]
    ranks = RANK_WORDS[game]
    suit_words = sorted(suits, key=len, reverse=True)
    rank_words = sorted(ranks, key=len, reverse=True)
    cards: list[Card] = []
    suit: str | None = None
    pos = 0
    n = len(text)
    at_token_start = True
    while pos < n:
        m = _SEP.match(text, pos)
        if m:
            pos = m.end()
            at_token_start = True
            continue
        ch = text[pos]
        # -- suit marker: a symbol (optionally followed by ':')
        if ch in SYMBOLS:
            s = SYMBOLS[ch]
            suit = ULTI_SYMBOLS[s] if game == "ulti" else s
            pos += 1
            if pos < n and text[pos] == ":":
                pos += 1
            at_token_start = True
            continue
        # -- suit marker: a known word followed by ':'
        found = None
        for w in suit_words:
            end = pos + len(w)
            if text[pos:end].upper() == w:
                rest = text[end:]
                stripped = rest.lstrip(" ")
                if stripped.startswith(":"):
                    found = (w, end + (len(rest) - len(stripped)) + 1)
                    break
        if found:
            suit = suits[found[0]]
            pos = found[1]
            at_token_start = True
            continue
        # -- a suit letter glued to its ranks, as typed in a hurry: H4, SAK7 (French letters;
        #    only where the letter cannot be a rank, or before any suit)
        if (at_token_start and game != "ulti" and ch.upper() in "SHDC" and pos + 1 < n
                and not _SEP.match(text, pos + 1) and text[pos + 1] != ":"
                and (suit is None or ch.upper() not in ranks)):
            suit = ch.upper()
            pos += 1
            at_token_start = False
            continue
        if at_token_start:
            wm = _WORD_COLON.match(text, pos)
            if wm:
                word = wm.group(1)
                amb = AMBIGUOUS_SUITS[game].get(word.upper())
                if amb:
                    _fail(f"ambiguous suit letter '{word}': {amb}", where, text, game, file, line,
                          expect=False)
                _fail(f"unknown suit '{word}'", where, text, game, file, line)
        # -- void marker
        if ch in "-—–":
            if suit is None:
                _fail("'-' (none in this suit) before any suit", where, text, game, file, line)
            pos += 1
            at_token_start = False
            continue
        # -- a rank
        if suit is None:
            _fail(f"'{text[pos:pos + 3].strip()}' comes before any suit: write the suit first",
                  where, text, game, file, line)
        if game == "ulti":
            rm = _ROMAN_RUN.match(text, pos)
            if rm:
                run = rm.group(0)
                segs = _segment_roman(run)
                if len(segs) == 1:
                    for w in segs[0]:
                        cards.append(Card(suit, ROMAN[w]))
                    pos = rm.end()
                    at_token_start = False
                    continue
                if len(segs) > 1:
                    readings = " or ".join(" ".join(s) for s in segs)
                    _fail(f"roman numerals '{run}' can be read as {readings}: separate them "
                          "with spaces", where, text, game, file, line, expect=False)
                # not a reading of roman numerals: the letters below decide
        got = None
        for w in rank_words:
            end = pos + len(w)
            if text[pos:end].upper() == w:
                # a word rank (KRALJ, ÁSZ ...) must not be the start of a longer unknown word
                got = (w, end)
                break
        if got is None:
            bad = text[pos]
            if bad in "xXhH" and game in ("preferans", "bridge", "skat") and bad.upper() not in ranks:
                _fail(f"'{bad}' stands for an unknown small card; give the actual card",
                      where, text, game, file, line, expect=False)
            if bad == "1":
                _fail("'1' is not a rank (write 10 or T)", where, text, game, file, line)
            _fail(f"unknown card {SUIT_SYMBOL.get(suit, suit)}{bad} ('{bad}' is not a rank)",
                  where, text, game, file, line)
        cards.append(Card(suit, ranks[got[0]]))
        pos = got[1]
        at_token_start = False
    if not allow_duplicates:
        check_unique(cards, where, game, file=file, line=line)
    return cards


def check_unique(cards: Iterable[Card], where: str, game: str, *, file=None, line=None) -> None:
    """RefereeError naming the first card given twice."""
    counts = Counter(cards)
    for card, k in counts.items():
        if k > 1:
            raise RefereeError(f"{where}: the card {describe(card, game)} is given {k} times; "
                               "each card exists once in the pack", file, line)


def expected_count(game: str, position: str, *, before_discard: bool = False) -> int:
    """How many cards a position holds.

    ``hand`` 10 (bridge 13; ulti declarer ``before_discard`` 12), ``talon``/``skat``/``bought``/
    ``discard`` 2 (0 in bridge).
    """
    if position == "hand":
        if game == "ulti" and before_discard:
            return 12
        return HAND_SIZE[game]
    if position in ("talon", "skat", "bought", "discard"):
        return TALON_SIZE[game]
    raise ValueError(f"unknown position {position!r}")


def check_count(cards: list[Card], expected: int | tuple[int, ...], where: str, game: str, *,
                file=None, line=None) -> None:
    """RefereeError when ``cards`` does not have the expected number of cards."""
    allowed = (expected,) if isinstance(expected, int) else tuple(expected)
    if len(cards) not in allowed:
        want = " or ".join(str(a) for a in allowed)
        raise RefereeError(f"{where}: {len(cards)} cards given, {want} expected "
                           f"({format_cards(cards, game) or 'none'})", file, line)


def parse_hand(text, game: str, where: str = "hand", *, expected=None, file=None,
               line=None) -> list[Card]:
    """parse_cards + a count check (``expected`` defaults to the game's hand size)."""
    cards = parse_cards(text, game, where, file=file, line=line)
    check_count(cards, HAND_SIZE[game] if expected is None else expected, where, game,
                file=file, line=line)
    return cards


def parse_card(text, game: str, where: str = "card", *, file=None, line=None) -> Card:
    """Exactly one card."""
    cards = parse_cards(text, game, where, file=file, line=line)
    if len(cards) != 1:
        raise RefereeError(f"{where}: {len(cards)} cards in {text!r}, exactly one expected "
                           f"(e.g. '♠A' or 'S:A')", file, line)
    return cards[0]


def format_cards(cards: Iterable[Card], game: str, contract=None) -> str:
    """The compact notation back: ``♠AK7 ♥QJ109`` (ulti: ``P:Á K X``); canonical order."""
    cards = sort_cards(list(cards), game, contract)
    groups: list[tuple[str, list[str]]] = []
    for c in cards:
        r = c.rank
        if game == "ulti":
            r = {"A": "Á", "K": "K", "Q": "F", "J": "A", "T": "X", "9": "IX", "8": "VIII",
                 "7": "VII"}[r]
        elif r == "T":
            r = "10"
        if not groups or groups[-1][0] != c.suit:
            groups.append((c.suit, []))
        groups[-1][1].append(r)
    out = []
    for s, rs in groups:
        if game == "ulti":
            out.append(f"{s}:" + " ".join(rs))
        else:
            out.append({"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s] + "".join(rs))
    return " ".join(out)


def notation_help(game: str, position: str | None = None) -> str:
    """A short help text for a card prompt (what to type, with an example)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    lines = [f"Suits: {EXPECTED_SUITS[game]}.", f"Ranks: {EXPECTED_RANKS[game]}.",
             f"Example: {EXAMPLE[game]}", "'-' after a suit means none in that suit."]
    if game == "ulti":
        lines.append("Mind: A is the alsó, Á the ász.")
    if position:
        try:
            lines.append(f"{position}: {expected_count(game, position)} cards.")
        except ValueError:
            pass
    return "\n".join(lines)
