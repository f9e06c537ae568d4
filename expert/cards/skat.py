"""Skat game value from the cards: matadors ("szczyty") with or without, and the value.

4.1.1 and 4.3.1 value a lost or conceded game by "ostatnią wysokość licytacji oraz ilość
posiadanych albo brakujących szczytów" (the last bid and the matadors held or missing).
The seed gives no base values: the caller passes them (rulebook parameters), e.g.
``{"D": 9, "H": 10, "S": 11, "C": 12, "grand": 24}``.
"""
from __future__ import annotations

import math

from referee.expert.cards.deck import Card, Contract

SUIT_ORDER = ("A", "T", "K", "Q", "9", "8", "7")
JACKS = ("C", "S", "H", "D")                 # J♣ J♠ J♥ J♦, highest first


def trump_sequence(contract: Contract) -> list[Card]:
    """The trumps from the top: four jacks, then (suit game) A 10 K Q 9 8 7 of the suit."""
    seq = [Card(s, "J") for s in JACKS]
    if contract.type == "suit":
        seq += [Card(contract.trump, r) for r in SUIT_ORDER]
    return seq


def matadors(cards, contract: Contract) -> tuple[str, int]:
    """("with", n) or ("without", n): the unbroken run of top trumps held (with) or missing
    (without), counted in the soloist's cards including the skat."""
    if contract.game != "skat" or contract.type == "null":
        raise ValueError("matadors exist only in skat suit and grand games")
    held = set(cards)
    seq = trump_sequence(contract)
    first = seq[0] in held
    n = 0
    for c in seq:
        if (c in held) != first:
            break
        n += 1
    return ("with" if first else "without"), n


def game_value(cards, contract: Contract, base: dict, *, hand=False, schneider=False,
               schneider_announced=False, schwarz=False, schwarz_announced=False,
               ouvert=False, null_values: dict | None = None) -> tuple[int, str]:
    """The game value and how it was reached. ``base``: suit letter / "grand" -> base value;
    ``null_values``: {"null", "null hand", "null ouvert", "null ouvert hand"} -> value."""
    if contract.type == "null":
        if not null_values:
            raise ValueError("null values are rulebook parameters: pass null_values")
        key = "null" + (" ouvert" if ouvert else "") + (" hand" if hand else "")
        return null_values[key], f"{key}: fixed value {null_values[key]}"
    kind, n = matadors(cards, contract)
    b = base["grand"] if contract.type == "grand" else base[contract.trump]
    steps = [f"{kind} {n}", "game 1"]
    level = n + 1
    for flag, name in ((hand, "hand"), (schneider, "schneider"),
                       (schneider_announced, "schneider announced"), (schwarz, "schwarz"),
                       (schwarz_announced, "schwarz announced"), (ouvert, "ouvert")):
        if flag:
            level += 1
            steps.append(f"{name} 1")
    return level * b, f"{' + '.join(steps)} = {level} x base {b} = {level * b}"


def lost_value_at_bid(value: int, bid: int, base_value: int) -> tuple[int, str]:
    """4.1.1: a game lost "uwzględniając ostatnią wysokość licytacji": when the value from
    the cards is below the last bid, the lowest multiple of the base value that reaches the
    bid (reading: the ISkO overbid rule; the seed does not spell the arithmetic out)."""
    if value >= bid:
        return value, f"value {value} reaches the bid {bid}"
    k = math.ceil(bid / base_value)
    return k * base_value, (f"value {value} is below the bid {bid}: {k} x base {base_value} = "
                            f"{k * base_value}")
