"""The cards tapped, not typed: a grid of the game's pack (rank × suit) for hands, talon,
discard and tricks, buttons for the contract, the declarer and the lead, and what the tapped
cards amount to in the card notation the session's card entry reads (expert/cards/README.md).

Nothing here checks a deal: the session's card entry (and the card library behind it) accepts
or refuses what was tapped, with its own message, exactly as when the cards are typed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.expert.cards.deal import parse_deal
from referee.expert.cards.deck import (HAND_SIZE, RANK_NAMES, RANKS, SEATS, SUIT_NAMES, SUITS, TALON_SIZE,
                                       TRICK_SIZE, Card)
from referee.expert.cards.notation import format_cards
from referee.expert.language.errors import RefereeError

GRID_KINDS = ("hand", "talon", "discard", "trick")
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "P": "♥", "T": "♦", "Z": "♠", "M": "♣"}
# colour on the page: French suits red and black; ulti's German suits their own colours
COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red", "P": "red", "T": "amber", "Z": "green",
          "M": "brown"}
ULTI_RANK = {"A": "Á", "K": "K", "Q": "F", "J": "A", "T": "X", "9": "IX", "8": "VIII", "7": "VII"}

CONTRACTS = {
    "preferans": [("pik", "♠ pik"), ("karo", "♦ karo"), ("herc", "♥ herc"), ("tref", "♣ tref"),
                  ("betl", "betl"), ("sans", "sans")],
    "skat": [("clubs", "♣ Kreuz / trefl"), ("spades", "♠ Pik / pik"), ("hearts", "♥ Herz / kier"),
             ("diamonds", "♦ Karo / karo"), ("grand", "Grand"), ("null", "Null")],
    "ulti": [("piros", "piros"), ("tök", "tök"), ("zöld", "zöld"), ("makk", "makk"), ("betli", "betli"),
             ("durchmars", "durchmars"), ("piros durchmars", "piros durchmars"),
             ("tök durchmars", "tök durchmars"), ("zöld durchmars", "zöld durchmars"),
             ("makk durchmars", "makk durchmars")],
}
BRIDGE_STRAINS = [("♣", "♣"), ("♦", "♦"), ("♥", "♥"), ("♠", "♠"), ("NT", "NT")]
BIDS = {"preferans": ["none", "pik", "karo", "herc", "tref"]}


@dataclass
class Cell:
    code: str          # the card's internal code: suit + rank, e.g. "SA", "PT"
    rank: str          # what the grid shows: "A", "10", "Á", "VIII"
    title: str         # the card's name: "♠A (kec)", "piros ász"
    taken: str = ""    # where the card already is ("the hand of North"), when it cannot be chosen here
    chosen: bool = False


@dataclass
class Suit:
    code: str
    symbol: str
    name: str
    colour: str
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Grid:
    suits: list[Suit]
    expects: str        # what the counter says is expected: "10", "10 (12)"
    count: int          # the number the counter aims at
    ordered: bool       # a trick: the order of the taps is the order of play


def card_code(card: Card) -> str:
    return card.suit + card.rank


def pack(game: str) -> list[Card]:
    """The pack, suit by suit, high ranks first (as players sort a hand)."""
    return [Card(s, r) for s in SUITS[game] for r in reversed(RANKS[game])]


def grid(game: str, kind: str, deal: dict | None, w: dict, seat: str = "", label=str,
         chosen: list[str] | None = None) -> Grid:
    """The grid for a card step: every card of the pack, those already placed elsewhere in the
    deal disabled with where they are, ``chosen`` ticked."""
    taken = _taken(game, kind, deal or {}, w, seat, label)
    chosen = set(chosen or [])
    suits = []
    for s in SUITS[game]:
        suit = Suit(s, SYMBOL[s], SUIT_NAMES[game][s], COLOUR[s])
        for r in reversed(RANKS[game]):
            card = Card(s, r)
            code = card_code(card)
            shown = ULTI_RANK[r] if game == "ulti" else ("10" if r == "T" else RANK_NAMES[game][r].split()[0])
            suit.cells.append(Cell(code, shown, card.label(game), taken.get(code, ""), code in chosen))
        suits.append(suit)
    if kind == "hand":
        n = HAND_SIZE[game]
        # ulti: the declarer's hand may be given with the talon picked up
        expects = f"{n} ({n + TALON_SIZE[game]})" if game == "ulti" and seat == _declarer(game, deal) else str(n)
    elif kind in ("talon", "discard"):
        n = TALON_SIZE[game]
        expects = str(n)
    else:
        n = TRICK_SIZE[game]
        expects = str(n)
    return Grid(suits, expects, n, kind == "trick")


def _declarer(game: str, deal: dict | None) -> str:
    seats = SEATS[game]
    return str((deal or {}).get("declarer") or ("declarer" if "declarer" in seats else seats[0]))


def _taken(game: str, kind: str, deal: dict, w: dict, seat: str, label) -> dict[str, str]:
    """Cards that cannot be chosen at this step, and where they are."""
    if not deal:
        return {}
    try:
        d = parse_deal(deal, game)
    except RefereeError:
        return {}
    taken: dict[str, str] = {}
    if kind == "trick":
        for t in d.tricks:
            for _who, card in t.cards:
                taken[card_code(card)] = w["trick_n"].format(n=t.number)
        return taken
    declarer = d.declarer or _declarer(game, deal)
    for other, cards in d.hands.items():
        if other == seat:
            continue
        if kind == "talon" and other == declarer and len(cards) > HAND_SIZE[game]:
            continue          # ulti: the declarer's hand given with the talon picked up
        if kind == "discard" and other == declarer:
            continue          # the discard comes from the declarer's hand (or the talon)
        for card in cards:
            taken[card_code(card)] = w["hand_of"].format(seat=label(other))
    if kind == "hand":
        for card in d.talon:
            if not (seat == declarer and game == "ulti"):
                taken[card_code(card)] = w["talon"]
    return taken


def cards_text(game: str, codes: list[str], ordered: bool) -> str:
    """The tapped cards in the card notation: a holding sorted suit by suit, a trick one card
    after another in the order tapped. Codes that are not cards of the pack are refused."""
    known = {card_code(c): c for c in pack(game)}
    bad = [c for c in codes if c not in known]
    if bad:
        raise RefereeError(f"not cards of the {game} pack: {', '.join(bad)}")
    cards = [known[c] for c in dict.fromkeys(codes)]
    if ordered:
        return " ".join(format_cards([c], game) for c in cards)
    return format_cards(cards, game)


def contract_choices(game: str) -> list[tuple[str, str, str]]:
    """(value, label, colour) for each contract button."""
    if game == "bridge":
        return [(f"{level}{strain}", f"{level}{shown}", "red" if strain in "♥♦" else "")
                for level in range(1, 8) for strain, shown in BRIDGE_STRAINS]
    return [(value, label, "red" if label[:1] in "♥♦" or value in ("piros",) else "")
            for value, label in CONTRACTS.get(game, [])]


def bid_choices(game: str) -> list[str]:
    return BIDS.get(game, [])
