"""Holdings the preferans correctness standards turn on, decided from the cards.

The standards (Član 6 correct bidding 1-8 and the follower's 1-3; Član 8 dolaz 1-27 and the
pik list 1-7) are evaluated item by item. Each item gives an :class:`ItemResult` with
``satisfied`` = True / False / None (None: the item needs the referee's judgement or a fact
the caller did not give) and an English explanation naming the cards ("8.dolaz.4: trump
trick ♥K8; kings ♠K, ♦K").

Readings (the seed does not define its terms; inventory README 4d and our choices):

* **adutski štih** (a trump trick): a trick the player wins in the trump suit against any
  distribution of the other trumps, the declarer leading trumps and the player following
  (:func:`sure_tricks`): A; Kx; Qxx; Jxxx; AK = 2; KQ = 1; KQJ = 2; AQ (velike makaze) = 2.
* **rezon** (a stopper, a probable trick) in a side suit: at least one sure trick in that
  suit by the same count (A, Kx, Qxx, Jxxx).
* **kec / kralj / dama** named without "adut" are side-suit cards (outside trumps).
* **bela** = K and Q of one suit; **velike makaze** = A and Q of one suit; **treći/četvrti/
  peti X** = X in a suit of at least 3/4/5 cards.
* **branjen kralj** (guarded king) = K with at least one more card of its suit;
  **branjen kec** (guarded ace, "sa kraljem, damom ili pubom i malom kartom") = A with K, Q or
  J and at least one more card of its suit.
* **mala karta** (small card) = 7, 8, 9, 10.
* **bočna boja** (side suit) = the one non-trump suit the item does not otherwise name.
* On a game in pik (trump ♠) the pik list (8.pik-dolaz.1-7) applies instead of 1-27.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from referee.expert.cards.deck import RANKS, Card

GAME = "preferans"
ORDER = RANKS[GAME]                        # 7 8 9 T J Q K A
SUITS = ("S", "D", "H", "C")               # pik, karo, herc, tref (bidding order)
SMALL = ("7", "8", "9", "T")
NAME = {"S": "pik", "D": "karo", "H": "herc", "C": "tref"}


@dataclass
class ItemResult:
    item: str                      # inventory id, e.g. "preferans:8.dolaz.4"
    satisfied: bool | None
    detail_en: str
    applies: bool | None = True    # False: the item's situation is not this one


@dataclass
class Context:
    """What the standards read besides the hand.

    * ``trump``: the trump suit (S D H C) of the game played, or None for sans/betl;
    * ``game``: "suit", "sans" or "betl";
    * ``bought``: the two cards the declarer bought (shown to all); None = not known;
    * ``declarer_position``: the declarer's place in the order of play, 1 (prvi na
      odigravanju / na ruci), 2 or 3; None = not known;
    * ``own_bid`` / ``partner_bid`` / ``declarer_bid``: the suit up to which that player bid,
      "none" if he did not bid, None = not known;
    * ``declaring_position``: 1 or 2 (first or second defender to declare); None = not known.
    """

    trump: str | None = None
    game: str = "suit"
    bought: list[Card] | None = None
    declarer_position: int | None = None
    own_bid: str | None = None
    partner_bid: str | None = None
    declarer_bid: str | None = None
    declaring_position: int | None = None
    extra: dict = field(default_factory=dict)


# ------------------------------------------------------------------ basic counts

def suit_cards(hand, suit) -> list[Card]:
    return sorted((c for c in hand if c.suit == suit), key=lambda c: -ORDER.index(c.rank))


def length(hand, suit) -> int:
    return sum(1 for c in hand if c.suit == suit)


def has(hand, suit, rank) -> bool:
    return Card(suit, rank) in set(hand)


def side_suits(trump) -> list[str]:
    return [s for s in SUITS if s != trump]


def count_trumps(hand, trump) -> int:
    return length(hand, trump) if trump else 0


def aces(hand, exclude=()) -> list[Card]:
    return [c for c in hand if c.rank == "A" and c.suit not in exclude]


def kings(hand, exclude=()) -> list[Card]:
    return [c for c in hand if c.rank == "K" and c.suit not in exclude]


def fmt(cards) -> str:
    sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return " ".join(sym[c.suit] + ("10" if c.rank == "T" else c.rank) for c in cards)


def holding(hand, suit) -> str:
    cs = suit_cards(hand, suit)
    if not cs:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit] + "-"
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit] + "".join(
        "10" if c.rank == "T" else c.rank for c in cs)


@lru_cache(maxsize=None)
def _sure(ours: frozenset, theirs: frozenset) -> int:
    """Tricks we surely win in one suit: they lead each round (any card), we answer."""
    if not ours:
        return 0
    if not theirs:
        return len(ours)
    best_for_them = None
    low = min(ours)
    for o in theirs:
        rest_t = theirs - {o}
        opts = [_sure(ours - {low}, rest_t)]               # duck / lose with the lowest
        higher = [h for h in ours if h > o]
        if higher:
            opts.append(1 + _sure(ours - {min(higher)}, rest_t))
        val = max(opts)
        best_for_them = val if best_for_them is None else min(best_for_them, val)
    return best_for_them


def sure_tricks(hand, suit, order=ORDER) -> int:
    """Tricks the holder surely wins in ``suit`` against the other cards of that suit, all
    in one opposing hand that leads the suit (the declarer drawing trumps)."""
    ours = frozenset(order.index(c.rank) for c in hand if c.suit == suit)
    theirs = frozenset(range(len(order))) - ours
    return _sure(ours, theirs)


def trump_tricks(hand, trump) -> int:
    """Number of adutski štihovi (guaranteed trump tricks)."""
    return sure_tricks(hand, trump) if trump else 0


def is_rezon(hand, suit) -> bool:
    return sure_tricks(hand, suit) >= 1


def bela(hand, suit) -> bool:
    return has(hand, suit, "K") and has(hand, suit, "Q")


def velike_makaze(hand, suit) -> bool:
    return has(hand, suit, "A") and has(hand, suit, "Q")


def guarded_king(hand, suit) -> bool:
    return has(hand, suit, "K") and length(hand, suit) >= 2


def guarded_ace(hand, suit) -> bool:
    return (has(hand, suit, "A") and length(hand, suit) >= 3
            and any(has(hand, suit, r) for r in ("K", "Q", "J")))


def singletons(hand) -> list[Card]:
    """Soler / solo karta: the only card of its suit."""
    return [c for c in hand if length(hand, c.suit) == 1]


# ------------------------------------------------------------------ Član 6: correct bidding

_BID1 = (("A", "K"), ("A", "Q", "J"), ("A", "J", "T", "9"), ("K", "Q", "J"), ("K", "Q", "T", "9"),
         ("K", "J", "T", "9"))


def correct_bid_items(hand, suit, *, first_to_play: bool | None = None) -> list[ItemResult]:
    """Član 6 items 1-8: is bidding up to ``suit`` correct with this hand?"""
    H = hand
    L = length(H, suit)
    h = holding(H, suit)
    out = []
    rid = "preferans:6.correct-bid."
    combo = next((c for c in _BID1 if all(has(H, suit, r) for r in c)), None)
    fifth = (has(H, suit, "A") or has(H, suit, "K")) and L >= 5
    ok1 = bool(combo) or fifth
    why = (f"{h} holds {'-'.join('10' if r == 'T' else r for r in combo)}" if combo else
           f"{h}: fifth (or longer) A or K" if fifth else
           f"{h} has none of A-K, A-Q-J, A-J-10-9, K-Q-J, K-Q-10-9, K-J-10-9, fifth A or K")
    out.append(ItemResult(rid + "1", ok1, why))
    combo2 = all(has(H, suit, r) for r in ("Q", "J", "T", "9"))
    fifth2 = (has(H, suit, "Q") or has(H, suit, "J")) and L >= 5
    if combo2 or fifth2:
        out.append(ItemResult(rid + "2", None, f"{h} has the cards (Q-J-10-9 or fifth Q/J); "
                              "whether his other suits let him follow is the referee's call"))
    else:
        out.append(ItemResult(rid + "2", False, f"{h}: no Q-J-10-9 and no fifth Q or J"))
    out.append(ItemResult(rid + "3", velike_makaze(H, suit) and L >= 4,
                          f"{h}: {'fourth' if L >= 4 else 'not fourth'} "
                          f"{'velike makaze (A-Q)' if velike_makaze(H, suit) else 'without A-Q'}"))
    others = [s for s in SUITS if s != suit]
    fifth_bela = bela(H, suit) and L >= 5
    third_king = [s for s in others if has(H, s, "K") and length(H, s) >= 3]
    four_cards = [s for s in others if length(H, s) >= 4]
    ok4 = fifth_bela and bool(third_king or four_cards)
    out.append(ItemResult(rid + "4", ok4, f"{h}: {'fifth bela' if fifth_bela else 'no fifth bela'}"
                          + (f"; third king {holding(H, third_king[0])}" if third_king else "")
                          + (f"; four cards {holding(H, four_cards[0])}" if four_cards else "")
                          + " (reading: 'any four cards' = four cards of another suit)"))
    fifth_q = has(H, suit, "Q") and L >= 5
    third_ace = [s for s in others if has(H, s, "A") and length(H, s) >= 3]
    third_bela = [s for s in others if bela(H, s) and length(H, s) >= 3]
    if fifth_q and third_ace:
        r5 = ItemResult(rid + "5", True, f"{h} fifth queen; third ace {holding(H, third_ace[0])}")
    elif fifth_q and third_bela:
        r5 = ItemResult(rid + "5", first_to_play,
                        f"{h} fifth queen; third bela {holding(H, third_bela[0])}; needs the "
                        f"bidder first to play ({'unknown' if first_to_play is None else first_to_play})")
    else:
        r5 = ItemResult(rid + "5", False, f"{h}: " + ("no fifth queen" if not fifth_q else
                                                      "no third ace and no third bela elsewhere"))
    out.append(r5)
    fourth_k = has(H, suit, "K") and L >= 4
    out.append(ItemResult(rid + "6", fourth_k and bool(third_ace),
                          f"{h}: {'fourth king' if fourth_k else 'no fourth king'}"
                          + (f"; third ace {holding(H, third_ace[0])}" if third_ace else
                             "; no third ace elsewhere")))
    fourth_bela = bela(H, suit) and L >= 4
    other_fb = [s for s in others if bela(H, s) and length(H, s) >= 4]
    if fourth_bela and other_fb:
        out.append(ItemResult(rid + "7", first_to_play,
                              f"{h} and {holding(H, other_fb[0])}: two fourth bele; needs the "
                              f"bidder first to play ({'unknown' if first_to_play is None else first_to_play})"))
    else:
        out.append(ItemResult(rid + "7", False, f"{h}: not two fourth bele (one in the bid suit)"))
    if any(r.satisfied for r in out):
        out.append(ItemResult(rid + "8", True, "an item above is met"))
    else:
        out.append(ItemResult(rid + "8", None, "'anything stronger' than items 1-7: the "
                              "referee's judgement"))
    return out


def correct_bid_follower_items(hand, suit) -> list[ItemResult]:
    """Član 6, the follower's items 1-3 (a player who said he follows the bidding)."""
    H = hand
    h = holding(H, suit)
    rid = "preferans:6.correct-bid-follower."
    L = length(H, suit)
    out = [ItemResult(rid + "1", L >= 4, f"{h}: {L} card(s) in the bid suit (4 needed)")]
    ok2 = (velike_makaze(H, suit) and L >= 3) or (has(H, suit, "A") and has(H, suit, "K"))
    out.append(ItemResult(rid + "2", ok2, f"{h}: " + ("third velike makaze or A-K" if ok2 else
                                                      "neither third A-Q nor A-K")))
    g_aces = [s for s in SUITS if guarded_ace(H, s)]
    g_kings = [s for s in SUITS if guarded_king(H, s) and s not in g_aces[:1]]
    ok3 = bool(g_aces) and len([s for s in g_kings]) >= 2
    out.append(ItemResult(rid + "3", ok3,
                          ("guarded ace " + holding(H, g_aces[0]) if g_aces else "no guarded ace")
                          + f"; guarded kings: {', '.join(holding(H, s) for s in g_kings) or 'none'}"
                          + " (minimum for a preparatory 'two')"))
    return out


# ------------------------------------------------------------------ Član 8: dolaz

def _bought_known(ctx):
    return ctx.bought is not None


def _bought_suits(ctx):
    return [c.suit for c in ctx.bought or []]


def dolaz_items(hand, ctx: Context) -> list[ItemResult]:
    """Član 8 items 1-27 (or 8.pik-dolaz.1-7 on a pik game), each decided where the cards
    and the context decide it."""
    if ctx.game == "suit" and ctx.trump == "S":
        return pik_dolaz_items(hand, ctx)
    H = hand
    t = ctx.trump
    sides = side_suits(t)
    T = count_trumps(H, t)
    tt = trump_tricks(H, t)
    th = holding(H, t) if t else "(no trumps)"
    s_aces = aces(H, exclude=(t,))
    s_kings = kings(H, exclude=(t,))
    bought = ctx.bought
    bs = _bought_suits(ctx)
    bought_trump = (t in bs) if bought is not None else None
    dpos = ctx.declarer_position
    out: list[ItemResult] = []
    rid = "preferans:8.dolaz."

    def add(n, ok, why):
        out.append(ItemResult(rid + str(n), ok, why))

    def need(cond_known, cond_value, ok, why):
        """ok AND a context condition; None when the condition is unknown and ok holds."""
        if not ok:
            return False
        if not cond_known:
            return None
        return bool(cond_value)

    own, partner = ctx.own_bid, ctx.partner_bid
    bids_known = own is not None and partner is not None
    only_declarer = bids_known and own == "none" and partner == "none"
    partner_bid = partner not in (None, "none")
    own_bid = own not in (None, "none")

    def heading(applies, label):
        if applies is None:
            return None
        return applies

    # ---- 1-15: only the declarer bid
    h1 = True if only_declarer else (None if not bids_known else False)
    hn = "only the declarer bid" if h1 else ("bids not known" if h1 is None else "not only the declarer bid")

    def under(applies, ok):
        if applies is False:
            return False
        if applies is None:
            return None if ok is not False else False
        return ok

    ok = t is not None and tt >= 2
    add(1, under(h1, ok), f"trump {th}: {tt} sure trump trick(s) (2 needed); {hn}")
    third_ak = t is not None and T >= 3 and (has(H, t, "A") or has(H, t, "K"))
    add(2, under(h1, need(dpos is not None, dpos != 1, third_ak, "")),
        f"trump {th}: {'third' if T >= 3 else 'not third'} A/K; declarer "
        f"{'first' if dpos == 1 else 'position ' + str(dpos) if dpos else 'position unknown'} "
        f"to play; {hn}")
    add(3, under(h1, bool(s_aces) and tt >= 1),
        f"side aces {fmt(s_aces) or 'none'}; trump {th}: {tt} sure trump trick(s); {hn}")
    add(4, under(h1, tt >= 1 and len(s_kings) >= 2),
        f"trump {th}: {tt} sure trump trick(s); side kings {fmt(s_kings) or 'none'} "
        f"(any two kings, guarded or not); {hn}")
    double = bought is not None and len(bs) == 2 and bs[0] == bs[1] and bs[0] != t
    if bought is None:
        add(5, under(h1, None if tt >= 1 else False), "bought cards not given")
    else:
        rz = double and is_rezon(H, bs[0])
        add(5, under(h1, tt >= 1 and rz),
            f"trump tricks {tt}; " + (f"double purchase in {NAME[bs[0]]}, holding "
                                      f"{holding(H, bs[0])} ({'a rezon' if rz else 'no rezon'})"
                                      if double else "no double purchase in a side suit") + f"; {hn}")
    # 6: rezon in one bought suit and third jack above the bought small card in the other
    if bought is None:
        add(6, under(h1, None if tt >= 1 else False), "bought cards not given")
    else:
        ok6 = False
        why6 = "the two bought cards are not in two different side suits"
        if len(bs) == 2 and bs[0] != bs[1] and t not in bs:
            for a, b in ((0, 1), (1, 0)):
                sa, cb = bought[a].suit, bought[b]
                jack3 = (has(H, cb.suit, "J") and length(H, cb.suit) >= 3
                         and ORDER.index(cb.rank) < ORDER.index("J"))
                if is_rezon(H, sa) and jack3:
                    ok6 = True
                    why6 = (f"rezon {holding(H, sa)} in bought {NAME[sa]}; third jack "
                            f"{holding(H, cb.suit)} above the bought {fmt([cb])}")
                    break
            else:
                why6 = "no rezon in one bought suit with a third jack above the other bought card"
        add(6, under(h1, tt >= 1 and ok6), f"trump tricks {tt}; {why6}; {hn}")
    ok7 = T >= 3 and bool(s_aces)
    c7 = None if (dpos is None or bought_trump is None) else (dpos == 2 and not bought_trump)
    add(7, under(h1, need(c7 is not None, c7, ok7, "")),
        f"{T} trump(s), side aces {fmt(s_aces) or 'none'}; needs the declarer second to play "
        f"and no trump bought; {hn}")
    if bought is None:
        add(8, under(h1, None), "bought cards not given")
    else:
        both = bs[0] if len(bs) == 2 and bs[0] == bs[1] else None
        ok8 = both is not None and (velike_makaze(H, both) or (has(H, both, "A") and has(H, both, "K")))
        add(8, under(h1, ok8), (f"both bought cards in {NAME[both]}, holding {holding(H, both)}"
                                if both else "the bought cards are in different suits") + f"; {hn}")
    add(9, under(h1, len(s_aces) >= 2 and T >= 2),
        f"side aces {fmt(s_aces) or 'none'}; {T} trump(s); {hn}")
    # 10: two aces, without two trumps, unless two cards bought in the side suit
    if len(s_aces) < 2:
        add(10, under(h1, False), f"side aces {fmt(s_aces) or 'none'} (two needed); {hn}")
    elif bought is None:
        add(10, under(h1, None), "two aces; the bought cards decide (not given)")
    else:
        ok10 = False
        why10 = ""
        ace_suits = [c.suit for c in s_aces]
        for i in range(len(ace_suits)):
            for j in range(i + 1, len(ace_suits)):
                pair = (ace_suits[i], ace_suits[j])
                side = [s for s in sides if s not in pair]
                side = side[0] if side else None
                n_side = bs.count(side) if side else 0
                if n_side == 2:
                    why10 = f"both bought cards in the side suit {NAME[side]}"
                    continue
                if n_side == 1:
                    other = [c for c in bought if c.suit != side][0]
                    if other.suit in pair and not guarded_ace(H, other.suit):
                        why10 = (f"one bought card in the side suit and one in {NAME[other.suit]}"
                                 f" where the ace {holding(H, other.suit)} is not doubly held")
                        continue
                ok10 = True
                why10 = f"aces {holding(H, pair[0])}, {holding(H, pair[1])}; bought {fmt(bought)}"
                break
            if ok10:
                break
        add(10, under(h1, ok10), f"{why10}; {hn}")
    ok11 = bool(s_aces) and len(s_kings) >= 2 and T >= 1
    add(11, under(h1, ok11), f"side aces {fmt(s_aces) or 'none'}, side kings "
        f"{fmt(s_kings) or 'none'}, {T} trump(s); {hn}")
    # 12: A, K and third Q in the three side suits, >=1 trump, bought cards below
    ok12, why12 = _item12(H, t, sides, bought)
    add(12, under(h1, ok12 if T >= 1 or ok12 is False else False),
        f"{why12}; {T} trump(s); {hn}")
    add(13, under(h1, len(s_kings) >= 3 and T >= 2),
        f"side kings {fmt(s_kings) or 'none'}; {T} trump(s); {hn}")
    gk = [s for s in sides if guarded_king(H, s)]
    if len(gk) < 2 or T < 2:
        add(14, under(h1, False), f"guarded side kings {', '.join(holding(H, s) for s in gk) or 'none'};"
            f" {T} trump(s); {hn}")
    elif bought is None:
        add(14, under(h1, None), "two guarded kings and two trumps; the bought cards decide "
            "(not given)")
    else:
        ok14 = len(bs) == 2 and any(set(bs) <= {a, b2} for a in gk for b2 in gk if a != b2)
        add(14, under(h1, ok14), f"guarded kings {', '.join(holding(H, s) for s in gk)}; bought "
            f"{fmt(bought)} ({'in' if ok14 else 'not both in'} those suits); {hn}")
    add(15, under(h1, None) if ctx.game == "sans" else False,
        "sans, second to declare: the run-on list of item 15 needs the referee's judgement"
        if ctx.game == "sans" else "item 15 is for sans only")

    # ---- 16-22: the partner bid too
    h2 = True if (bids_known and partner_bid) else (None if partner is None else False)
    hn2 = (f"partner bid {NAME.get(partner, partner)}" if h2 else
           "partner's bid not known" if h2 is None else "partner did not bid")
    ps = partner if partner_bid else None
    ace_ps = ps is not None and has(H, ps, "A")
    c16 = None if (dpos is None or bought_trump is None) else (dpos != 1 and not bought_trump)
    add(16, under(h2, need(c16 is not None, c16, T >= 3 and ace_ps, "")),
        f"{T} trump(s); ace in partner's suit: {holding(H, ps) if ps else '-'}; needs no trump "
        f"bought and the declarer not first to play; {hn2}")
    other_guarded = [s for s in sides if s != ps and guarded_ace(H, s)]
    add(17, under(h2, need(c16 is not None, c16, ace_ps and bool(other_guarded) and T >= 2, "")),
        f"ace in partner's suit {holding(H, ps) if ps else '-'}; guarded ace "
        f"{holding(H, other_guarded[0]) if other_guarded else 'none'}; {T} trump(s); {hn2}")
    out_aces = [c for c in s_aces if c.suit != ps]
    out_kings = [c for c in s_kings if c.suit != ps]
    add(18, under(h2, bool(out_aces) and bool(out_kings) and T >= 1),
        f"outside partner's suit: aces {fmt(out_aces) or 'none'}, kings {fmt(out_kings) or 'none'};"
        f" {T} trump(s); {hn2}")
    add(19, under(h2, len(out_kings) >= 2 and T >= 2),
        f"kings outside partner's suit {fmt(out_kings) or 'none'}; {T} trump(s); {hn2}")
    add(20, under(h2, len(out_aces) >= 2), f"aces outside partner's suit {fmt(out_aces) or 'none'};"
        f" {hn2}")
    k_q3 = any(has(H, a, "K") and any(has(H, b, "Q") and length(H, b) >= 3 for b in sides
                                      if b not in (a, ps)) for a in sides if a != ps)
    add(21, under(h2, k_q3 and T >= 3), f"king and third queen outside partner's suit: "
        f"{'yes' if k_q3 else 'no'}; {T} trump(s); {hn2}")
    if ctx.game != "sans":
        add(22, False, "item 22 is for sans only")
    elif ps is None:
        add(22, under(h2, None), hn2)
    elif length(H, ps) >= 1:
        add(22, under(h2, True), f"holds {holding(H, ps)} in partner's suit; {hn2}")
    else:
        add(22, under(h2, None), f"no card in partner's suit: allowed only if he can defeat the "
            f"declarer alone in the other suits (the referee's judgement); {hn2}")

    # ---- 23-27: the player himself bid
    h3 = True if own_bid else (None if own is None else False)
    hn3 = (f"he bid {NAME.get(own, own)}" if h3 else "his bid not known" if h3 is None
           else "he did not bid")
    os_ = own if own_bid else None
    ace_own = os_ is not None and has(H, os_, "A")
    two_other = [s for s in sides if s != os_]
    ok23 = (not ace_own and os_ is not None and T >= 1 and len(two_other) == 2
            and ((has(H, two_other[0], "A") and has(H, two_other[1], "K"))
                 or (has(H, two_other[1], "A") and has(H, two_other[0], "K"))))
    add(23, under(h3, ok23), f"no ace in his suit: {not ace_own}; A and K in "
        f"{' and '.join(holding(H, s) for s in two_other)}; {T} trump(s); {hn3}")
    add(24, under(h3, (not ace_own) and T == 0 and len(s_aces) >= 2),
        f"no ace in his suit: {not ace_own}; side aces {fmt(s_aces) or 'none'}; {T} trump(s); {hn3}")
    g_other = [s for s in sides if s != os_ and guarded_ace(H, s)]
    if not (ace_own and g_other):
        add(25, under(h3, False), f"ace in his suit: {ace_own}; another guarded ace: "
            f"{holding(H, g_other[0]) if g_other else 'none'}; {hn3}")
    elif bought is None:
        add(25, under(h3, None), "the bought cards decide (not given)")
    else:
        side = [s for s in sides if s not in (os_, g_other[0])]
        side = side[0] if side else None
        bad = bs.count(side) == 2 or (t in bs and side in bs)
        add(25, under(h3, not bad), f"ace in his suit {holding(H, os_)}; guarded ace "
            f"{holding(H, g_other[0])}; bought {fmt(bought)}"
            f"{' (two in the side suit, or trump and side suit)' if bad else ''}; {hn3}")
    no_ak_own = os_ is not None and not has(H, os_, "A") and not has(H, os_, "K")
    add(26, under(h3, len(s_aces) >= 2 if no_ak_own else (False if os_ else None)),
        f"neither A nor K in his suit: {no_ak_own}; side aces {fmt(s_aces) or 'none'}; {hn3}")
    add(27, None, "a prohibition on 'njegovog licita' (whose bid is unclear) with 'rezon pored':"
        " the referee's judgement")
    return out


def _item12(H, t, sides, bought):
    """A, K and third Q in the three non-trump suits, one each; both bought cards below the
    rezon in their suit; not both bought below the queen."""
    if len(sides) != 3:
        return False, "item 12 needs a trump game"
    import itertools
    for perm in itertools.permutations(sides):
        a, k, q = perm
        if has(H, a, "A") and has(H, k, "K") and has(H, q, "Q") and length(H, q) >= 3:
            if bought is None:
                return None, (f"A {holding(H, a)}, K {holding(H, k)}, third Q {holding(H, q)}; "
                              "the bought cards decide (not given)")
            top = {a: "A", k: "K", q: "Q"}
            below = all(b.suit in top and ORDER.index(b.rank) < ORDER.index(top[b.suit])
                        for b in bought)
            both_q = sum(1 for b in bought if b.suit == q) == 2
            ok = below and not both_q
            return ok, (f"A {holding(H, a)}, K {holding(H, k)}, third Q {holding(H, q)}; bought "
                        f"{fmt(bought)} {'below the rezon' if below else 'not all below the rezon'}"
                        f"{'; both under the queen' if both_q else ''}")
    return False, "no A, K and third Q in the three side suits"


def pik_dolaz_items(hand, ctx: Context) -> list[ItemResult]:
    """8.pik-dolaz.1-7: correct dolaz on a bid pik."""
    H = hand
    t = "S"
    T = count_trumps(H, t)
    tt = trump_tricks(H, t)
    th = holding(H, t)
    s_aces = aces(H, exclude=(t,))
    s_kings = kings(H, exclude=(t,))
    rid = "preferans:8.pik-dolaz."
    bought = ctx.bought
    bs = _bought_suits(ctx)
    dpos = ctx.declarer_position
    out = [ItemResult(rid + "1", tt >= 2, f"trump {th}: {tt} sure trump trick(s)"),
           ItemResult(rid + "2", bool(s_aces) and tt >= 1,
                      f"side aces {fmt(s_aces) or 'none'}; {tt} sure trump trick(s)"),
           ItemResult(rid + "3", len(s_aces) >= 2, f"side aces {fmt(s_aces) or 'none'}")]
    ok4 = bool(s_aces) and T >= 3
    out.append(ItemResult(rid + "4", (None if dpos is None else dpos != 1) if ok4 else False,
                          f"side ace {fmt(s_aces) or 'none'}, {T} trump(s); needs the declarer "
                          f"not first to play ({dpos or 'unknown'})"))
    out.append(ItemResult(rid + "5", T >= 4, f"{T} trump(s) (4 needed)"))
    ok6 = bool(s_aces) and len(s_kings) >= 2 and has(H, t, "Q") and T >= 2
    if ok6 and bought is None:
        r6 = None
    elif ok6:
        r6 = not any(b.suit == t or b.rank == "A" for b in bought)
    else:
        r6 = False
    out.append(ItemResult(rid + "6", r6, f"ace {fmt(s_aces) or 'none'}, kings "
                          f"{fmt(s_kings) or 'none'}, trump {th} (second queen needed); "
                          f"bought {fmt(bought) if bought else 'not given'} (no trump, no ace)"))
    g = [s for s in side_suits(t) if guarded_ace(H, s)]
    ok7 = bool(g) and len([k for k in s_kings if k.suit != g[0]]) >= 2 and T >= 1
    if ok7 and bought is None:
        r7 = None
    elif ok7:
        r7 = len(bs) == 2 and all(b == g[0] for b in bs)
    else:
        r7 = False
    out.append(ItemResult(rid + "7", r7, f"guarded ace {holding(H, g[0]) if g else 'none'}, "
                          f"kings {fmt(s_kings) or 'none'}, {T} trump(s); both bought cards in "
                          f"the ace's suit"))
    return out


PROHIBITIONS = ("preferans:8.dolaz.22", "preferans:8.dolaz.27")


def correct_dolaz(hand, ctx: Context) -> tuple[bool | None, list[ItemResult]]:
    """Is the dolaz correct? True if an item is met, None if none is met but one is
    undecided, False if every item fails. Items 22 and 27 are prohibitions, not sufficient
    holdings: on sans, 22 undecided (no card in partner's suit) makes True at most None.
    Also returns the items."""
    items = dolaz_items(hand, ctx)
    suff = [i for i in items if i.item not in PROHIBITIONS]
    blocked = any(i.item == "preferans:8.dolaz.22" and i.satisfied is None and ctx.game == "sans"
                  for i in items)
    if any(i.satisfied is True for i in suff):
        return (None if blocked else True), items
    if any(i.satisfied is None for i in suff):
        return None, items
    return False, items


# ------------------------------------------------------------------ Član 8: no trump at all

def no_trump_minimum(hand, ctx: Context) -> ItemResult:
    """8.no-trump-minimum: with no trump, two aces; exceptionally (declarer did not buy a trump
    or is not last to play) ace and two kings with all three suits fully controlled (the
    control is the referee's call: None)."""
    t = ctx.trump
    rid = "preferans:8.no-trump-minimum"
    if t is None or count_trumps(hand, t) > 0:
        return ItemResult(rid, None, "he holds a trump (or no trump game): the rule is not "
                          "engaged", applies=False)
    sa, sk = aces(hand, (t,)), kings(hand, (t,))
    if len(sa) >= 2:
        return ItemResult(rid, True, f"no trump; two aces {fmt(sa)}")
    if sa and len(sk) >= 2:
        bs = _bought_suits(ctx)
        exc = None if ctx.bought is None or ctx.declarer_position is None else (
            t not in bs or ctx.declarer_position != 3)
        if exc is False:
            return ItemResult(rid, False, f"no trump; ace {fmt(sa)} and kings {fmt(sk)}, but the "
                              "declarer bought a trump and is last to play")
        return ItemResult(rid, None, f"no trump; ace {fmt(sa)} and kings {fmt(sk)}: allowed only "
                          "with all three suits fully controlled (double stoppers) - the "
                          "referee's call" + ("" if exc else "; exception conditions unknown"))
    return ItemResult(rid, False, f"no trump; aces {fmt(sa) or 'none'}, kings {fmt(sk) or 'none'}"
                      " (two aces needed)")


# ------------------------------------------------------------------ Član 9 and 10: leads

def called_lead_items(hand, led: Card, ctx: Context, *, declarer_next: bool | None = None,
                      contra: bool = False) -> list[ItemResult]:
    """9.called-lead.1-5: the lead of a player who did not want to follow but was called (or
    his side gave contra) and is first to lead. ``hand`` is his hand before the lead,
    ``led`` the card he led, ``ctx.partner_bid`` the bid of the player who called him,
    ``declarer_next``: the declarer plays right after him ("polazi pod odigravača")."""
    rid = "preferans:9.called-lead."
    out = []
    cb = ctx.partner_bid
    caller_bid = cb not in (None, "none")
    bs = _bought_suits(ctx)
    if ctx.game == "sans":
        return sans_called_lead_items(hand, led, ctx, contra=contra)
    # 1
    if cb is None:
        out.append(ItemResult(rid + "1", None, "the caller's bid is not known", applies=None))
    elif caller_bid:
        if length(hand, cb) == 0:
            out.append(ItemResult(rid + "1", True, f"no card in the caller's suit {NAME[cb]}"))
        else:
            out.append(ItemResult(rid + "1", led.suit == cb,
                                  f"led {fmt([led])}; the caller bid {NAME[cb]} "
                                  f"(holding {holding(hand, cb)})"))
    else:
        out.append(ItemResult(rid + "1", None, "the caller did not bid", applies=False))
    # 2
    own = ctx.own_bid
    if own not in (None, "none") and led.suit == own:
        ok = has(hand, own, "A") and has(hand, own, "K")
        out.append(ItemResult(rid + "2", ok, f"led {fmt([led])} from his own bid suit "
                              f"{holding(hand, own)}: " + ("connected top cards (A-K)" if ok else
                                                            "not connected top cards")))
    else:
        out.append(ItemResult(rid + "2", None, "he did not lead his own bid suit",
                              applies=False if own is not None else None))
    # 3
    if caller_bid or cb is None or declarer_next is not True or ctx.bought is None:
        out.append(ItemResult(rid + "3", None, "applies when leading into the declarer and the "
                              "caller did not bid (with the bought cards known)",
                              applies=False if caller_bid or declarer_next is False else None))
    else:
        ok = led.suit in bs and led.rank in SMALL
        out.append(ItemResult(rid + "3", ok, f"led {fmt([led])}; bought {fmt(ctx.bought)}: "
                              + ("a small card of a bought suit" if ok else
                                 "not a small card of a bought suit")))
    # 4
    if ctx.bought is None or cb is None:
        out.append(ItemResult(rid + "4", None, "bought cards or the caller's bid not known",
                              applies=None))
    elif len(bs) == 2 and bs[0] == bs[1] and not caller_bid:
        if length(hand, bs[0]) == 0:
            out.append(ItemResult(rid + "4", True, f"no card in the bought suit {NAME[bs[0]]}"))
        else:
            out.append(ItemResult(rid + "4", led.suit == bs[0], f"led {fmt([led])}; both bought "
                                  f"cards in {NAME[bs[0]]} (holding {holding(hand, bs[0])})"))
    else:
        out.append(ItemResult(rid + "4", None, "not both bought cards in one suit with a "
                              "caller who did not bid", applies=False))
    return out


def sans_called_lead_items(hand, led: Card, ctx: Context, *, contra: bool = False
                           ) -> list[ItemResult]:
    """9.called-lead.5 (called on sans) or .5.contra (contra on sans): the highest card of the
    partner's bid suit; if the partner did not bid, the highest tref (pik on contra) with 2-3
    of them, the lowest with 4 or more. And the penalty trigger: holding that suit, not
    leading from it (.5.penalty / .5.contra-penalty)."""
    base = "preferans:9.called-lead.5" + (".contra" if contra else "")
    pen = "preferans:9.called-lead.5." + ("contra-penalty" if contra else "penalty")
    pb = ctx.partner_bid
    if pb is None:
        return [ItemResult(base, None, "the partner's bid is not known", applies=None)]
    if pb != "none":
        cs = suit_cards(hand, pb)
        if not cs:
            return [ItemResult(base, True, f"no card in partner's suit {NAME[pb]}")]
        return [ItemResult(base, led == cs[0], f"led {fmt([led])}; partner bid {NAME[pb]}: the "
                           f"highest card there is {fmt([cs[0]])}")]
    suit = "S" if contra else "C"
    cs = suit_cards(hand, suit)
    if not cs:
        return [ItemResult(base, True, f"no {NAME[suit]}: no obligation"),
                ItemResult(pen, False, f"no {NAME[suit]} held", applies=False)]
    want = cs[0] if len(cs) <= 3 else cs[-1]
    which = "highest" if len(cs) <= 3 else "lowest"
    return [ItemResult(base, led == want, f"led {fmt([led])}; {holding(hand, suit)}: the {which} "
                       f"{NAME[suit]} {fmt([want])} was due"),
            ItemResult(pen, led.suit != suit, f"holding {holding(hand, suit)}, he led "
                       f"{fmt([led])}: " + ("not from " + NAME[suit] + " - the penalty applies"
                                            if led.suit != suit else "from " + NAME[suit]))]


def betl_contra_lead_items(hand, led: Card, ctx: Context) -> list[ItemResult]:
    """10.betl-contra-lead and 10.betl-contra-bought-suit: with contra on betl, lead a
    singleton or from the shortest suit (exception: a fourth bela with no other entry - the
    referee's call); never from the suit of two bought cards, unless that card is the only
    singleton and he has no two cards in another suit."""
    out = []
    held = [s for s in SUITS if length(hand, s)]
    shortest = min(length(hand, s) for s in held)
    L = length(hand, led.suit)
    if L == shortest:
        r = ItemResult("preferans:10.betl-contra-lead", True,
                       f"led {fmt([led])} from {holding(hand, led.suit)}, a shortest suit "
                       f"({L} card{'s' if L > 1 else ''})")
    elif bela(hand, led.suit) and L == 4:
        r = ItemResult("preferans:10.betl-contra-lead", None,
                       f"led from a fourth bela {holding(hand, led.suit)}: allowed only if he "
                       "has no other entry (the referee's call)")
    else:
        r = ItemResult("preferans:10.betl-contra-lead", False,
                       f"led {fmt([led])} from {holding(hand, led.suit)}; shortest suit has "
                       f"{shortest} card(s): {', '.join(holding(hand, s) for s in held if length(hand, s) == shortest)}")
    out.append(r)
    bs = _bought_suits(ctx)
    rid = "preferans:10.betl-contra-bought-suit"
    if ctx.bought is None:
        out.append(ItemResult(rid, None, "bought cards not given", applies=None))
    elif len(bs) == 2 and bs[0] == bs[1]:
        if led.suit != bs[0]:
            out.append(ItemResult(rid, True, f"did not lead the bought suit {NAME[bs[0]]}"))
        else:
            singles = [s for s in held if length(hand, s) == 1]
            only_single = singles == [led.suit]
            no_two = not any(length(hand, s) == 2 for s in held if s != led.suit)
            ok = only_single and no_two
            out.append(ItemResult(rid, ok, f"led {fmt([led])} from the suit of both bought cards"
                                  + (": the only singleton, no doubleton elsewhere" if ok else
                                     ": forbidden (not the only singleton, or a doubleton elsewhere)")))
    else:
        out.append(ItemResult(rid, None, "the bought cards are not in one suit", applies=False))
    return out


# ------------------------------------------------------------------ from a Deal to facts

def preferans_context(deal, seat: str, bids: dict | None = None) -> Context:
    """A Context for ``seat`` from a preferans Deal: trump and game from the contract, the
    bought cards from the talon, the declarer's place in the order of play (``deal.seats``
    lists the seats from the player first to play), and the bids (seat -> suit word or
    letter, or "none"; seats missing are unknown)."""
    from referee.expert.cards.deal import _suit_from_word
    c = deal.contract
    game = "suit" if c is None or c.type == "suit" else c.type
    bids = bids if bids is not None else dict(deal.bids)

    def bid(s):
        if s is None or s not in bids:
            return None
        v = bids[s]
        if v in (None, "none", False, "dalje", "pass"):
            return "none"
        try:
            return _suit_from_word(str(v), "preferans")
        except ValueError:
            return None
    others = [s for s in deal.seats if s not in (seat, deal.declarer)]
    partner = others[0] if len(others) == 1 and seat != deal.declarer else None
    pos = (deal.seats.index(deal.declarer) + 1) if deal.declarer in deal.seats else None
    return Context(trump=c.trump if c else None, game=game,
                   bought=list(deal.talon) if deal.talon else None,
                   declarer_position=pos, own_bid=bid(seat), partner_bid=bid(partner),
                   declarer_bid=bid(deal.declarer))


def holding_facts(deal, seat: str, bids: dict | None = None, *, bid_suit: str | None = None):
    """DerivedFacts for one seat's hand in a preferans deal: counts (``trumps``,
    ``trump_tricks``, ``aces``, ``kings``), each dolaz item (name = the inventory id, value =
    True/False/None) and ``correct_dolaz`` (value True/False/None); with ``bid_suit``, the
    Član 6 items and ``correct_bid`` for the suit he bid up to."""
    from referee.expert.cards.derive import DerivedFact
    hand = deal.playing_hand(seat) if seat == deal.declarer else deal.hands.get(seat)
    if hand is None:
        return []
    ctx = preferans_context(deal, seat, bids)
    t = ctx.trump
    out = [DerivedFact("trumps", seat, None, f"{seat} holds {count_trumps(hand, t)} trump(s)"
                       + (f" ({holding(hand, t)})" if t else ""), value=count_trumps(hand, t)),
           DerivedFact("trump_tricks", seat, None, f"{seat}: {trump_tricks(hand, t)} sure trump "
                       f"trick(s)", value=trump_tricks(hand, t)),
           DerivedFact("aces", seat, None, f"{seat}: side aces {fmt(aces(hand, (t,))) or 'none'}",
                       value=len(aces(hand, (t,)))),
           DerivedFact("kings", seat, None, f"{seat}: side kings {fmt(kings(hand, (t,))) or 'none'}",
                       value=len(kings(hand, (t,))))]
    out.append(DerivedFact("no_trump", seat, None, f"{seat} holds "
                           + ("no trump" if t and not count_trumps(hand, t) else "a trump")
                           if t else "no trump game", value=(count_trumps(hand, t) == 0)
                           if t else None))
    if seat != deal.declarer and ctx.game in ("suit", "sans"):
        if ctx.game == "suit" and t == "S":
            sit = "pik-licitiran"
        elif ctx.own_bid is None or ctx.partner_bid is None:
            sit = None
        elif ctx.own_bid != "none":
            sit = "self-bid"
        elif ctx.partner_bid != "none":
            sit = "partner-bid"
        else:
            sit = "lider-only"
        out.append(DerivedFact("dolaz_situation", seat, None,
                               f"bidding situation for {seat}'s dolaz: {sit or 'unknown'}",
                               value=sit))
        ok, items = correct_dolaz(hand, ctx)
        for i in items:
            out.append(DerivedFact(i.item, seat, None, f"{i.item.split(':')[1]}: {i.detail_en}",
                                   value=i.satisfied))
        met = [i.item.split(":")[1] for i in items if i.satisfied is True]
        strength = None
        if ok is False:
            strength = "not-regular"
        elif ok is True:
            strength = "minimal" if dolaz_minimal(hand, t) else "regular"
        out.append(DerivedFact("dolaz_strength", seat, None,
                               f"{seat}'s dolaz is {strength or 'not decided by the cards'} "
                               f"({sure_total(hand, t)} sure trick(s) in all: trump "
                               f"{trump_tricks(hand, t)}, side suits "
                               f"{sure_total(hand, t) - trump_tricks(hand, t)})", value=strength))
        out.append(DerivedFact("correct_dolaz", seat, None,
                               (f"correct dolaz under {', '.join(met)}" if ok else
                                "no item of Član 8 is met" if ok is False else
                                "no item is met from the cards alone; some need the referee"),
                               value=ok))
    if bid_suit is not None:
        bs = _suit_from_bid(bid_suit)
        # the auction comes before the talon is bought: judge the bid on the dealt ten cards
        dealt = deal.hands.get(seat) or hand
        if len(dealt) > 10:
            dealt = [c for c in dealt if c not in deal.talon]
        hand = dealt
        n = sure_tricks(hand, bs)
        out.append(DerivedFact("bid_suit_tricks", seat, None, f"{seat}: {n} sure trick(s) in "
                               f"the bid suit {holding(hand, bs)}", value=n))
        for i in correct_bid_follower_items(hand, bs):
            out.append(DerivedFact(i.item, seat, None, f"{i.item.split(':')[1]}: {i.detail_en}",
                                   value=i.satisfied))
        items = correct_bid_items(hand, bs, first_to_play=(deal.seats.index(seat) == 0))
        for i in items:
            out.append(DerivedFact(i.item, seat, None, f"{i.item.split(':')[1]}: {i.detail_en}",
                                   value=i.satisfied))
        met = [i.item.split(":")[1] for i in items if i.satisfied is True]
        ok = True if met else (None if any(i.satisfied is None for i in items) else False)
        out.append(DerivedFact("correct_bid", seat, None,
                               f"correct bid under {', '.join(met)}" if met else
                               "no item of Član 6 is met" if ok is False else
                               "no item is met from the cards alone; some need the referee",
                               value=ok))
    return out


def sure_total(hand, trump) -> int:
    """Sure tricks in all suits (trump tricks plus side-suit sure tricks)."""
    return sum(sure_tricks(hand, s) for s in SUITS)


def dolaz_minimal(hand, trump) -> bool:
    """8.first-declarer-claim: a minimal dolaz is "dva prazna keca, dva adutska bez rezona
    pored, kec i adutski rezon bez rezona pored". Reading: exactly two sure tricks in all
    (trump tricks plus side-suit sure tricks: nothing beside the two)."""
    return sure_total(hand, trump) <= 2


def _suit_from_bid(v: str) -> str:
    from referee.expert.cards.deal import _suit_from_word
    return _suit_from_word(str(v), "preferans")
