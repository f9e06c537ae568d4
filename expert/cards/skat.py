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


# ------------------------------------------------------------ card points and the state of play

def card_points(cards) -> int:
    """The card points ("oczka") of some cards: ace 11, ten 10, king 4, queen 3, jack 2."""
    from referee.expert.cards.deck import SKAT_POINTS
    return sum(SKAT_POINTS.get(c.rank, 0) for c in cards)


def points_aside(deal) -> int | None:
    """The points of the two cards no one plays (the skat, or what the soloist put away), which
    count for the soloist; None when the record does not show them."""
    hands = [deal.playing_hand(s) for s in deal.seats]
    if all(h is not None for h in hands):
        return 120 - sum(card_points(h) for h in hands)
    if len(deal.discard) == 2:
        return card_points(deal.discard)
    hand = deal.hands.get(deal.declarer) if deal.declarer else None
    if hand is not None and len(hand) == 10 and len(deal.talon) == 2 and not set(hand) & set(deal.talon):
        return card_points(deal.talon)          # a hand game: the skat stays aside
    return None


def play_state_facts(deal, facts: list) -> list:
    """The state of play the result package reads, from the play record: the card points and
    tricks each side had taken before the first infraction (``before_*``), and those of the whole
    game when all ten tricks were played without one (``final_*``). The skat counts for the
    soloist; his points are left out when the record does not show it."""
    from referee.expert.cards.derive import DerivedFact
    if not deal.declarer or deal.contract is None or not deal.tricks:
        return []
    first = next((f for f in facts if f.name == "first_infraction"), None)
    aside = points_aside(deal)
    null = deal.contract.type == "null"

    def state(tricks, prefix: str, trick: int | None, when: str) -> list:
        mine = [t for t in tricks if t.winner == deal.declarer]
        theirs = [t for t in tricks if t.winner and t.winner != deal.declarer]
        pts = lambda ts: sum(card_points([c for _, c in t.cards]) for t in ts)
        out = [DerivedFact(f"{prefix}_counted", deal.declarer, trick, f"the {len(tricks)} trick(s) {when} "
                           "are in the record", value=True),
               DerivedFact(f"{prefix}_soloist_tricks", deal.declarer, trick,
                           f"the soloist took {len(mine)} of the {len(tricks)} trick(s) {when}", value=len(mine)),
               DerivedFact(f"{prefix}_opponents_tricks", deal.declarer, trick,
                           f"the opponents took {len(theirs)} of the {len(tricks)} trick(s) {when}", value=len(theirs))]
        if not null:
            out.append(DerivedFact(f"{prefix}_opponents_points", deal.declarer, trick,
                                   f"the opponents' tricks {when} hold {pts(theirs)} card points", value=pts(theirs)))
            if aside is not None:
                s = pts(mine) + aside
                out.append(DerivedFact(f"{prefix}_soloist_points", deal.declarer, trick,
                                       f"the soloist's tricks {when} hold {pts(mine)} card points, "
                                       f"the skat {aside}: {s}", value=s))
        return out

    if first is not None and first.trick:
        done = [t for t in deal.tricks if t.number < first.trick and len(t.cards) == 3 and t.winner]
        return state(done, "before", first.trick, f"before trick {first.trick} (the first infraction)")
    complete = [t for t in deal.tricks if len(t.cards) == 3 and t.winner]
    if first is None and len(complete) == 10:
        return state(complete, "final", None, "of the whole game")
    return []
