"""Facts derived from a deal's play record, each with an English explanation.

:func:`derive` walks the tricks and returns :class:`DerivedFact` objects:

=================================  ==========================================================
name                               meaning (seat = who; trick = 1-based trick number)
=================================  ==========================================================
``on_lead``                        seat led this trick
``won_trick``                      seat won this trick (``value``: the side)
``lead_out_of_turn``               seat led although another seat was on lead
``lead_out_of_turn_to_last_trick`` the same, to the last trick of the deal (skat 4.1.10)
``played_out_of_turn``             seat played to the trick before his turn
``revoke``                         seat did not follow suit although he held the suit led
                                   (bridge revoke / ulti renonsz / skat "nie dołożenie koloru
                                   albo tromfa"; skat jacks count as trumps)
``failed_to_trump``                preferans, ulti: void in the suit led, held a trump, did
                                   not trump
``failed_to_overtrump``            ulti: trumped under a trump already in the trick though he
                                   could overtrump
``failed_to_beat``                 ulti: followed suit below the best card though he could
                                   beat it ("nem ütött felül")
``revoke_established``             the offending side played to the following trick (bridge
                                   63A1)
``revoke_trick_winner_role``       ``value``: offender / offender-partner / non-offending
``revoke_on_twelfth_trick``        bridge: the revoke was on trick 12
``revoke_trick_won_by_offender``   bridge 64A1: the revoke trick was won by the offender
``revoke_trick_not_won_by_offender`` bridge: not won by him (64A2 is absent from the seed)
``later_tricks_won_by_offending_side`` ``value``: tricks after the revoke trick won by the
                                   offending side
``later_tricks_proven``            the same count when the record is complete, or when it is
                                   incomplete but already > 0 (a lower bound); absent otherwise
``revoke_transfer``                bridge 64A1: ``value`` tricks to transfer (revoke trick +
                                   one later trick won by the offending side, if any)
``revoke_by_dummy``                bridge: the revoking seat is dummy (declarer's partner),
                                   whose cards are faced on the table (64B, lost from the seed)
``revoke_repeated_in_suit``        bridge: the same seat revoked before in the suit led now
                                   (a second revoke in the same suit; ``value``: the earlier
                                   trick)
``trump_seven``                    ulti: when the declarer played the trump VII (``value``:
                                   last / early / early-forced / early-undetermined)
``betl_discard_not_shortest``      preferans betl: discard not from the shortest suit
``betl_discard_wrong_card``        preferans betl: not the higher of two / the middle of three
``tricks_won``                     ``value``: tricks won by seat (one fact per seat, at the end)
``first_infraction``               the infraction that happened first (preferans Član 22);
                                   ``value``: its name
=================================  ==========================================================

Which follow rules apply (the reading, per game):

* preferans: follow suit; void, a trump if you have one (the surviving articles of the seed
  do not restate it; this is the rule the whole game assumes); no duty to overtrump;
* skat 4.2.1-4.2.2: follow the colour led, or trump when a trump (jacks included) is led;
  void, any card;
* bridge: follow suit; void, any card;
* ulti (renonsz 2, "nem ütött felül; nem tett szabályos színt"): follow suit; void, trump;
  and among the cards so allowed, one that beats the best card so far when you have one
  (the seed does not define "felül ütni"; we read it as the Hungarian table rule: beat the
  trick when you can, in every game).

Where a hand was not given, only the cards the seat is seen to play later prove what it held,
so a revoke is found only when the play record proves it.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.expert.cards.deal import Deal, Trick
from referee.expert.cards.deck import HAND_SIZE, Card, beats, effective_suit, is_trump, trick_winner_index

INFRACTIONS = ("lead_out_of_turn", "played_out_of_turn", "revoke", "failed_to_trump",
               "failed_to_overtrump", "failed_to_beat")


@dataclass
class DerivedFact:
    """One fact the cards establish. ``value`` carries counts or names; ``seq`` is the
    position of the card in the whole play (for chronology); ``card`` the card concerned."""

    name: str
    seat: str | None
    trick: int | None
    detail_en: str
    value: object = None
    seq: int | None = None
    card: str | None = None


def _who_was_on_lead(deal: Deal, t: Trick) -> str:
    if t.number == 1:
        return "first lead of the deal"
    prev = deal.tricks[t.number - 2]
    return f"won trick {prev.number}"


def legal_cards(contract, held: list[Card], before: list[Card]) -> list[Card]:
    """The cards of ``held`` that may be played to a trick whose earlier cards are
    ``before`` (empty: a lead, anything goes), under the follow rules above."""
    if not before:
        return list(held)
    game = contract.game
    led = before[0]
    led_suit = effective_suit(led, contract)
    legal = [c for c in held if effective_suit(c, contract) == led_suit]
    if not legal and game in ("preferans", "ulti"):
        legal = [c for c in held if is_trump(c, contract)]
    if not legal:
        legal = list(held)
    if game == "ulti":
        best = before[trick_winner_index(before, contract)]
        winners = [c for c in legal if beats(c, best, contract, led)]
        if winners:
            legal = winners
    return legal


def follow_check(deal: Deal, trick: Trick, k: int, held: list[Card]) -> tuple[str, str] | None:
    """Did the k-th card of ``trick`` break a follow rule, given what the seat ``held``?
    Returns (fact name, explanation) or None."""
    contract = deal.contract
    game = deal.game
    seat, card = trick.cards[k]
    if k == 0:
        return None
    before = [c for _, c in trick.cards[:k]]
    led = before[0]
    led_suit = effective_suit(led, contract)
    suit_name = "trumps" if is_trump(led, contract) else f"the suit led ({led.label(game)})"
    same = [c for c in held if effective_suit(c, contract) == led_suit]
    if same:
        if effective_suit(card, contract) != led_suit:
            return ("revoke", f"{seat} played {card.label(game)} to trick {trick.number} without "
                              f"following {suit_name} although holding "
                              f"{', '.join(c.label(game) for c in same)}")
        legal = same
    else:
        trumps = [c for c in held if is_trump(c, contract)] if game in ("preferans", "ulti") else []
        if trumps:
            if not is_trump(card, contract):
                return ("failed_to_trump", f"{seat} was void in {suit_name} at trick "
                        f"{trick.number} and played {card.label(game)} although holding the "
                        f"trump(s) {', '.join(c.label(game) for c in trumps)}")
            legal = trumps
        else:
            legal = list(held)
    if game == "ulti":
        best = before[trick_winner_index(before, contract)]
        winners = [c for c in legal if beats(c, best, contract, led)]
        if winners and card not in winners:
            overtrump = (is_trump(card, contract) and is_trump(best, contract)
                         and not is_trump(led, contract))
            name = "failed_to_overtrump" if overtrump else "failed_to_beat"
            return (name, f"{seat} played {card.label(game)} to trick {trick.number} under "
                          f"{best.label(game)} although he could beat it with "
                          f"{', '.join(c.label(game) for c in winners)}")
    return None


def derive(deal: Deal) -> list[DerivedFact]:
    """All facts the play record establishes, in the order of play, then the totals."""
    facts: list[DerivedFact] = []
    size = len(deal.seats)
    game = deal.game
    infr: list[DerivedFact] = []
    for t in deal.tricks:
        base = (t.number - 1) * size
        leader, led = t.cards[0]
        facts.append(DerivedFact("on_lead", leader, t.number,
                                 f"trick {t.number}: {leader} led {led.label(game)}",
                                 seq=base, card=str(led)))
        if t.expected_leader and leader != t.expected_leader:
            why = _who_was_on_lead(deal, t)
            f = DerivedFact("lead_out_of_turn", leader, t.number,
                            f"{leader} led {led.label(game)} to trick {t.number} but "
                            f"{t.expected_leader} was on lead ({why})",
                            value=t.expected_leader, seq=base, card=str(led))
            facts.append(f)
            infr.append(f)
            if t.number == HAND_SIZE[game]:
                facts.append(DerivedFact("lead_out_of_turn_to_last_trick", leader, t.number,
                                         f"the lead out of turn was to the last trick "
                                         f"({t.number})", seq=base, card=str(led)))
        if t.seats_known:
            for k in range(1, len(t.cards)):
                seat, card = t.cards[k]
                due = deal.next_seat(leader, k)
                if seat != due:
                    f = DerivedFact("played_out_of_turn", seat, t.number,
                                    f"{seat} played {card.label(game)} to trick {t.number} "
                                    f"before his turn ({due} was due to play)",
                                    value=due, seq=base + k, card=str(card))
                    facts.append(f)
                    infr.append(f)
                    break
        for k in range(1, len(t.cards)):
            seat, card = t.cards[k]
            held, _complete = deal.held_before(seat, t.number)
            res = follow_check(deal, t, k, held)
            if res:
                f = DerivedFact(res[0], seat, t.number, res[1], seq=base + k, card=str(card))
                facts.append(f)
                infr.append(f)
        if t.winner:
            facts.append(DerivedFact("won_trick", t.winner, t.number,
                                     f"trick {t.number} won by {t.winner} "
                                     f"({', '.join(str(c) for _, c in t.cards)})",
                                     value=deal.side_of(t.winner), seq=base + size - 1))
    if game == "ulti" and deal.contract is not None and deal.contract.trump and deal.declarer:
        facts.extend(trump_seven_facts(deal))
    if game == "preferans" and deal.contract is not None and deal.contract.type == "betl":
        facts.extend(betl_discard_facts(deal))
    # revoke consequences
    revokes = [x for x in infr if x.name in ("revoke", "failed_to_trump", "failed_to_overtrump",
                                             "failed_to_beat")]
    for f in revokes:
        facts.extend(_revoke_consequences(deal, f))
    if game == "bridge":
        facts.extend(_revoke_circumstances(deal, revokes))
    # totals
    for s in deal.seats:
        n = sum(1 for t in deal.tricks if t.winner == s)
        facts.append(DerivedFact("tricks_won", s, None, f"{s} won {n} trick(s)", value=n))
    if infr:
        infr.sort(key=lambda f: f.seq)
        first = infr[0]
        order = "; ".join(f"{i + 1}. {f.name} by {f.seat} (trick {f.trick})"
                          for i, f in enumerate(infr))
        facts.append(DerivedFact("first_infraction", first.seat, first.trick,
                                 f"first infraction: {first.name} by {first.seat} at trick "
                                 f"{first.trick}; in order: {order}",
                                 value=first.name, seq=first.seq, card=first.card))
    return facts


def trump_seven_facts(deal: Deal) -> list[DerivedFact]:
    """Ulti (sajátosságok 2): the declarer must play the trump VII to the last trick. Fact
    ``trump_seven`` (seat: declarer) with value ``last`` (played to trick 10), ``early`` (played
    before, while another legal card was held), ``early-forced`` (it was his only legal card) or
    ``early-undetermined`` (his hand is not known well enough to tell)."""
    c = deal.contract
    seven = Card(c.trump, "7")
    for t in deal.tricks:
        for k, (seat, card) in enumerate(t.cards):
            if card != seven or seat != deal.declarer:
                continue
            base = f"{seat} played the trump VII ({card.label('ulti')}) to trick {t.number}"
            if t.number == HAND_SIZE["ulti"]:
                return [DerivedFact("trump_seven", seat, t.number, base + " (the last trick)",
                                    value="last", card=str(card))]
            held, complete = deal.held_before(seat, t.number)
            legal = legal_cards(c, held, [x for _, x in t.cards[:k]])
            others = [x for x in legal if x != card]
            if others:
                v, why = "early", (f"; he could have played "
                                   f"{', '.join(x.label('ulti') for x in others[:4])}")
            elif complete:
                v, why = "early-forced", "; it was his only legal card"
            else:
                v, why = "early-undetermined", "; his hand is not known well enough to tell"
            return [DerivedFact("trump_seven", seat, t.number, base + " before the last trick"
                                + why, value=v, seq=(t.number - 1) * len(deal.seats) + k,
                                card=str(card))]
    return []


def betl_discard_facts(deal: Deal) -> list[DerivedFact]:
    """Preferans betl: each discard by a defender (void in the suit led), checked against
    Član 10 / 12.gross-error.4: discard from the shortest suit first (excused when the
    shortest suit holds the 7 or 8); from two cards the higher, from three the middle one.
    Facts ``betl_discard_not_shortest`` and ``betl_discard_wrong_card`` (value: the card due).
    Whether the discard caused the kontraš's fall is the referee's call."""
    from referee.expert.cards.deck import rank_order
    out = []
    order = rank_order("preferans", deal.contract)
    size = len(deal.seats)
    for t in deal.tricks:
        led = t.cards[0][1]
        for k in range(1, len(t.cards)):
            seat, card = t.cards[k]
            if seat == deal.declarer or card.suit == led.suit:
                continue
            held, complete = deal.held_before(seat, t.number)
            if not complete or any(c.suit == led.suit for c in held):
                continue
            by_suit: dict[str, list[Card]] = {}
            for c in held:
                by_suit.setdefault(c.suit, []).append(c)
            shortest = min(len(v) for v in by_suit.values())
            mine = sorted(by_suit[card.suit], key=lambda c: order.index(c.rank))
            if len(mine) > shortest:
                short = [v for v in by_suit.values() if len(v) == shortest]
                excused = any(c.rank in ("7", "8") for v in short for c in v)
                if not excused:
                    out.append(DerivedFact(
                        "betl_discard_not_shortest", seat, t.number,
                        f"{seat} discarded {card.label('preferans')} at trick {t.number} from a "
                        f"suit of {len(mine)} while holding a shorter suit of {shortest} "
                        f"(without its 7 or 8)", seq=(t.number - 1) * size + k, card=str(card)))
            due = None
            if len(mine) == 2:
                due = mine[-1]
            elif len(mine) == 3:
                due = mine[1]
            if due is not None and card != due:
                out.append(DerivedFact(
                    "betl_discard_wrong_card", seat, t.number,
                    f"{seat} discarded {card.label('preferans')} at trick {t.number} from "
                    f"{', '.join(c.label('preferans') for c in reversed(mine))}: "
                    f"{'the higher' if len(mine) == 2 else 'the middle'} card "
                    f"{due.label('preferans')} was due", value=str(due),
                    seq=(t.number - 1) * size + k, card=str(card)))
    return out


def _revoke_consequences(deal: Deal, f: DerivedFact) -> list[DerivedFact]:
    out = []
    n = f.trick
    side = deal.side_of(f.seat)
    t = deal.tricks[n - 1]
    nxt = deal.tricks[n] if n < len(deal.tricks) else None
    if nxt and any(deal.side_of(s) == side for s, _ in nxt.cards):
        out.append(DerivedFact("revoke_established", f.seat, n,
                               f"the {f.name.replace('_', ' ')} at trick {n} was established: "
                               f"the offending side played to trick {n + 1}", seq=f.seq))
    if n == 12 and deal.game == "bridge":
        out.append(DerivedFact("revoke_on_twelfth_trick", f.seat, n,
                               "the revoke was made on the twelfth trick (Law 62D)", seq=f.seq))
    if not t.winner:
        return out
    later = sum(1 for u in deal.tricks[n:] if u.winner and deal.side_of(u.winner) == side)
    total = HAND_SIZE[deal.game]
    done = sum(1 for u in deal.tricks if u.complete)
    note = "" if done >= total else f" (the record holds {done} of {total} tricks: at least)"
    out.append(DerivedFact("later_tricks_won_by_offending_side", f.seat, n,
                           f"after trick {n} the offending side ({side}) won {later} "
                           f"trick(s){note}", value=later, seq=f.seq))
    if done >= total or later:
        # what a question "how many tricks after the revoke trick, at the end of play" may take:
        # the count when the record is complete; a lower bound (> 0) when it is not, which is
        # enough for 64A1 (one later trick transfers); an incomplete record with none proves nothing
        out.append(DerivedFact("later_tricks_proven", f.seat, n,
                               f"after trick {n} the offending side ({side}) won {later} "
                               f"trick(s){note}", value=later, seq=f.seq))
    role = ("offender" if t.winner == f.seat else
            "offender-partner" if deal.side_of(t.winner) == side else "non-offending")
    out.append(DerivedFact("revoke_trick_winner_role", f.seat, n,
                           f"trick {n} was won by {t.winner} ({role.replace('-', ' ')})",
                           value=role, seq=f.seq))
    if t.winner == f.seat:
        moved = 1 + (1 if later else 0)
        out.append(DerivedFact("revoke_trick_won_by_offender", f.seat, n,
                               f"{f.seat} won trick {n}, the trick of the {f.name.replace('_', ' ')}",
                               seq=f.seq))
        out.append(DerivedFact("revoke_transfer", f.seat, n,
                               f"transfer {moved} trick(s) to the other side: trick {n} plus "
                               + ("one later trick won by the offending side" if later
                                  else "no later trick (the offending side won none)"),
                               value=moved, seq=f.seq))
    else:
        out.append(DerivedFact("revoke_trick_not_won_by_offender", f.seat, n,
                               f"trick {n} was won by {t.winner}, not by the offender {f.seat}",
                               value=t.winner, seq=f.seq))
    return out


def _revoke_circumstances(deal: Deal, revokes: list[DerivedFact]) -> list[DerivedFact]:
    """What the play record shows of the situations the full Laws exempt (64B): a revoke by
    dummy, a second revoke by the same player in the same suit."""
    out = []
    dummy = deal.next_seat(deal.declarer, 2) if deal.declarer else None
    for i, f in enumerate(revokes):
        if f.seat == dummy:
            out.append(DerivedFact("revoke_by_dummy", f.seat, f.trick,
                                   f"the revoke at trick {f.trick} was by dummy ({f.seat}), whose "
                                   "cards are faced on the table", seq=f.seq))
        suit = _led_suit(deal, f.trick)
        before = next((e for e in revokes[:i] if e.seat == f.seat and _led_suit(deal, e.trick) == suit), None)
        if before is not None:
            out.append(DerivedFact("revoke_repeated_in_suit", f.seat, f.trick,
                                   f"{f.seat} revoked in the same suit at trick {before.trick} "
                                   f"already: the revoke at trick {f.trick} is the second",
                                   value=before.trick, seq=f.seq))
    return out


def _led_suit(deal: Deal, trick: int):
    return deal.tricks[trick - 1].cards[0][1].suit


def infractions_in_order(facts: list[DerivedFact]) -> list[DerivedFact]:
    """The infraction facts, earliest first (preferans Član 22: rule on the first)."""
    return sorted((f for f in facts if f.name in INFRACTIONS), key=lambda f: (f.seq or 0))


# ---------------------------------------------------------------- answers for the interview

@dataclass
class DerivedAnswers:
    answers: dict            # question id -> value
    sources: dict            # question id -> [detail_en of the facts that gave it]


def answers_from_facts(facts: list[DerivedFact], mapping: dict, *,
                       record_complete: bool = True) -> DerivedAnswers:
    """Turn derived facts into question answers with a per-game ``mapping``.

    ``mapping``: derived-fact name -> one spec or a list of specs. A spec is a dict::

        {q: QUESTION, value: V}          # answer V when the fact was derived
        {q: QUESTION, value: "$seat"}    # the fact's seat ("$trick", "$value", "$card" too;
                                         #   "$count": how many such facts)
        {q: QUESTION, add: V}            # add V to a multi/order answer (kept in order)
        {q: QUESTION, absent: V}         # answer V when no such fact was derived
                                         #   (only when ``record_complete``)
        {q: ..., add/value: ..., if: X}  # only facts of that name whose value equals X

    or a 2-tuple ``(QUESTION, V)`` for ``{q: QUESTION, value: V}``. The first fact of a name
    (earliest in play) gives ``$seat``/``$trick``/``$value``/``$card``; across names, the
    earliest fact in play sets a question first and later ones do not overwrite it.
    """
    by_name: dict[str, list[DerivedFact]] = {}
    for f in facts:
        by_name.setdefault(f.name, []).append(f)
    pending = []          # (seq, order, q, kind, value, detail)
    absent = []
    k = 0
    for name, specs in mapping.items():
        if isinstance(specs, (tuple, dict)):
            specs = [specs]
        for spec in specs:
            if isinstance(spec, tuple):
                spec = {"q": spec[0], "value": spec[1]}
            q = spec["q"]
            got = by_name.get(name, [])
            if "if" in spec:                    # only facts whose value equals spec["if"]
                got = [f for f in got if f.value == spec["if"]]
            k += 1
            if got:
                first = got[0]
                seq = first.seq if first.seq is not None else 10 ** 9
                if "add" in spec:
                    pending.append((seq, k, q, "add", spec["add"], first.detail_en))
                elif "value" in spec:
                    v = _resolve(spec["value"], first, len(got))
                    if v is not None:       # None: the cards do not decide it; ask the referee
                        pending.append((seq, k, q, "value", v, first.detail_en))
            elif "absent" in spec and record_complete:
                absent.append((q, spec["absent"], name))
    answers: dict = {}
    sources: dict = {}
    # earliest fact first: with several infractions, the first one in play gives the value
    for _seq, _k, q, kind, v, detail in sorted(pending, key=lambda x: (x[0], x[1])):
        if kind == "add":
            answers.setdefault(q, [])
            if not isinstance(answers[q], list):
                continue
            if v not in answers[q]:
                answers[q].append(v)
        elif q in answers:
            continue
        else:
            answers[q] = v
        sources.setdefault(q, []).append(detail)
    for q, v, name in absent:
        if q not in answers:
            answers[q] = v
            sources.setdefault(q, []).append(f"the cards show no {name.replace('_', ' ')}")
    return DerivedAnswers(answers, sources)


def _resolve(v, f: DerivedFact, count: int):
    if v == "$seat":
        return f.seat
    if v == "$trick":
        return f.trick
    if v == "$value":
        return f.value
    if v == "$card":
        return f.card
    if v == "$count":
        return count
    return v
