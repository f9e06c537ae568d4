"""Cards, decks, rank orders and trumps for the four games.

One internal code per card, whatever the game:

* suits: French-suited games use ``S H D C`` (spades/pik, hearts/herc, diamonds/karo,
  clubs/tref); ulti uses its Hungarian suits ``P T Z M`` (piros, tök, zöld, makk);
* ranks: ``2 .. 9``, ``T`` (ten), ``J`` (jack / pub / Bube / walet; in ulti the alsó),
  ``Q`` (queen / dama / Dame; in ulti the felső), ``K`` (king / kralj; in ulti the király),
  ``A`` (ace / kec; in ulti the ász).

Rank order depends on the game and the contract (:func:`rank_order`); which cards are trumps
depends on the contract (:func:`trump_suit`, :func:`is_trump`, :func:`effective_suit`).
Nothing here imports Experta.
"""
from __future__ import annotations

from dataclasses import dataclass

GAMES = ("preferans", "skat", "bridge", "ulti")

FRENCH_SUITS = ("S", "H", "D", "C")
ULTI_SUITS = ("P", "T", "Z", "M")

SUITS = {
    "preferans": FRENCH_SUITS,
    "skat": ("C", "S", "H", "D"),        # skat's own order of suits (clubs highest)
    "bridge": FRENCH_SUITS,
    "ulti": ULTI_SUITS,
}
RANKS = {
    "preferans": ("7", "8", "9", "T", "J", "Q", "K", "A"),
    "skat": ("7", "8", "9", "T", "J", "Q", "K", "A"),
    "bridge": ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"),
    "ulti": ("7", "8", "9", "T", "J", "Q", "K", "A"),
}

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "P": "P:", "T": "T:", "Z": "Z:", "M": "M:"}

SUIT_NAMES = {
    "preferans": {"S": "pik", "H": "herc", "D": "karo", "C": "tref"},
    "skat": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"},
    "bridge": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "ulti": {"P": "piros", "T": "tök", "Z": "zöld", "M": "makk"},
}
RANK_NAMES = {
    "preferans": {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J (pub)", "Q": "D (dama)",
                  "K": "K (kralj)", "A": "A (kec)"},
    "skat": {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
    "bridge": {r: r for r in RANKS["bridge"]} | {"T": "10"},
    "ulti": {"7": "VII", "8": "VIII", "9": "IX", "T": "X", "J": "alsó", "Q": "felső",
             "K": "király", "A": "ász"},
}

# Card points (skat "oczka"; ulti: ász and tízes count 10 each). Bridge and preferans count
# tricks only.
SKAT_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
ULTI_POINTS = {"A": 10, "T": 10}

SEATS = {
    "preferans": ("declarer", "defender_1", "defender_2"),
    "skat": ("soloist", "opponent_1", "opponent_2"),
    "bridge": ("N", "E", "S", "W"),
    "ulti": ("declarer", "defender_1", "defender_2"),
}
TRICK_SIZE = {"preferans": 3, "skat": 3, "bridge": 4, "ulti": 3}
HAND_SIZE = {"preferans": 10, "skat": 10, "bridge": 13, "ulti": 10}
TALON_SIZE = {"preferans": 2, "skat": 2, "bridge": 0, "ulti": 2}


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``suit`` and ``rank`` are internal codes (see the module docstring)."""

    suit: str
    rank: str

    @property
    def code(self) -> str:
        return self.suit + self.rank

    def __str__(self) -> str:  # compact and unambiguous in every game
        sym = SUIT_SYMBOL.get(self.suit, self.suit + ":")
        return f"{sym}{'10' if self.rank == 'T' else self.rank}"

    def label(self, game: str) -> str:
        """A reader's name for the card in that game, e.g. ``herc D (dama)``, ``piros ász``."""
        suit = SUIT_NAMES.get(game, {}).get(self.suit, self.suit)
        rank = RANK_NAMES.get(game, {}).get(self.rank, self.rank)
        if game == "ulti":
            return f"{suit} {rank}"
        return f"{SUIT_SYMBOL.get(self.suit, '')}{rank}"


def describe(card: "Card", game: str) -> str:
    """How messages name a card: ``♠A (kec)``, ``♣D (dama)``, ``♠10``, ``P:Á (piros ász)``."""
    if game == "ulti":
        r = {"A": "Á", "K": "K", "Q": "F", "J": "A", "T": "X", "9": "IX", "8": "VIII",
             "7": "VII"}.get(card.rank, card.rank)
        return f"{card.suit}:{r} ({card.label(game)})"
    if game == "preferans":
        return card.label(game)
    return str(card)


def check_game(game: str) -> str:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    return game


def deck(game: str) -> list[Card]:
    """The full pack of that game: 32 cards (preferans, skat, ulti) or 52 (bridge)."""
    check_game(game)
    return [Card(s, r) for s in SUITS[game] for r in RANKS[game]]


# ---------------------------------------------------------------- contracts and trumps

#: contract types per game ("suit" always needs a trump suit)
CONTRACT_TYPES = {
    "preferans": ("suit", "betl", "sans"),
    "skat": ("suit", "grand", "null"),
    "bridge": ("suit", "notrump"),
    "ulti": ("suit", "betli", "durchmars"),
}


@dataclass(frozen=True)
class Contract:
    """What is played: ``type`` (see CONTRACT_TYPES) and the trump suit where there is one.

    Ulti ``durchmars`` with a trump suit is the colour (színes) durchmars, ranked like a trump
    game; without one it is ranked like betli (seed: "Durchmars: ... színes bemondásként is,
    ilyenkor a 10-es az ász és király között van, színnélküliben viszont a betlihez hasonló").
    Bridge keeps the bid ``level`` (1-7) when given.
    """

    game: str
    type: str
    trump: str | None = None
    level: int | None = None

    def __post_init__(self):
        check_game(self.game)
        if self.type not in CONTRACT_TYPES[self.game]:
            raise ValueError(f"{self.game}: unknown contract type {self.type!r}; expected one of "
                             f"{', '.join(CONTRACT_TYPES[self.game])}")
        if self.type == "suit" and self.trump not in SUITS[self.game]:
            raise ValueError(f"{self.game}: a suit contract needs a trump suit among "
                             f"{', '.join(SUITS[self.game])}, got {self.trump!r}")
        if self.type in ("betl", "sans", "grand", "null", "notrump", "betli") and self.trump:
            raise ValueError(f"{self.game}: a {self.type} contract has no trump suit")

    def __str__(self) -> str:
        lvl = f"{self.level} " if self.level else ""
        if self.trump:
            name = SUIT_NAMES[self.game][self.trump]
            return lvl + (f"{self.type} ({name})" if self.type != "suit" else name)
        return lvl + self.type


def trump_suit(contract: Contract) -> str | None:
    """The trump suit named by the contract, or None (betl, sans, null, notrump, betli,
    colourless durchmars). Skat grand has no trump *suit* but its jacks are trumps."""
    return contract.trump


def is_trump(card: Card, contract: Contract) -> bool:
    g = contract.game
    if g == "skat":
        if contract.type == "null":
            return False
        if card.rank == "J":                    # jacks are trumps in suit games and grand
            return True
        return contract.type == "suit" and card.suit == contract.trump
    return contract.trump is not None and card.suit == contract.trump


def effective_suit(card: Card, contract: Contract) -> str:
    """The suit a card belongs to for following: skat jacks belong to the trumps ("T!"
    in grand, the trump suit in a suit game), every other card to its own suit."""
    if contract.game == "skat" and contract.type != "null" and card.rank == "J":
        return contract.trump if contract.type == "suit" else "TRUMP"
    return card.suit


def rank_order(game: str, contract: Contract | None = None) -> tuple[str, ...]:
    """Ranks from lowest to highest within a plain suit, for this game and contract.

    * preferans, bridge: 7/2 .. A in every contract;
    * skat: suit and grand ``7 8 9 Q K T A`` (jacks are taken out as trumps, ranked apart);
      null ``7 8 9 T J Q K A``;
    * ulti: trump games and colour durchmars ``7 8 9 J Q K T A`` (X between király and ász);
      betli and colourless durchmars ``7 8 9 T J Q K A`` ("a 10-es az alsó és a 9-es között van").
    """
    check_game(game)
    if game == "skat":
        if contract is not None and contract.type == "null":
            return ("7", "8", "9", "T", "J", "Q", "K", "A")
        return ("7", "8", "9", "Q", "K", "T", "A")
    if game == "ulti":
        if contract is not None and (contract.type == "betli"
                                     or (contract.type == "durchmars" and not contract.trump)):
            return ("7", "8", "9", "T", "J", "Q", "K", "A")
        return ("7", "8", "9", "J", "Q", "K", "T", "A")
    return RANKS[game]


SKAT_JACK_ORDER = ("D", "H", "S", "C")        # lowest to highest: J♦ < J♥ < J♠ < J♣


def card_power(card: Card, contract: Contract, led: Card) -> tuple[int, int]:
    """A sortable strength of ``card`` in a trick whose first card is ``led``.

    (2, n) for trumps, (1, n) for cards of the suit led, (0, 0) for others (they never win).
    """
    order = rank_order(contract.game, contract)
    led_suit = effective_suit(led, contract)
    if is_trump(card, contract):
        if contract.game == "skat" and card.rank == "J":
            return (2, 100 + SKAT_JACK_ORDER.index(card.suit))
        return (2, order.index(card.rank))
    if effective_suit(card, contract) == led_suit:
        return (1, order.index(card.rank))
    return (0, 0)


def trick_winner_index(cards: list[Card], contract: Contract) -> int:
    """Index (in play order) of the card that wins a trick of these cards."""
    if not cards:
        raise ValueError("an empty trick has no winner")
    powers = [card_power(c, contract, cards[0]) for c in cards]
    return max(range(len(cards)), key=lambda i: powers[i])


def beats(a: Card, b: Card, contract: Contract, led: Card) -> bool:
    """True when ``a`` would win against ``b`` in a trick led with ``led``."""
    return card_power(a, contract, led) > card_power(b, contract, led)


def sort_cards(cards, game: str, contract: Contract | None = None) -> list[Card]:
    """Cards grouped by suit (game order) and highest first within a suit."""
    order = rank_order(game, contract) if game != "skat" or contract else RANKS[game]
    suits = SUITS[game]

    def key(c: Card):
        return (suits.index(c.suit) if c.suit in suits else 99,
                -(order.index(c.rank) if c.rank in order else -1))
    return sorted(cards, key=key)
