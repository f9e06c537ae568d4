"""Conflicts: two findings that stand on the same answers and say different things.

Two finding productions conflict when some reachable answers make both fire, both stand (no
``overrides`` sets either aside), they answer the same claim, and their findings differ (kind,
penalty or offender) — or they impose the same penalty under different provisions, so it would
be applied twice. Findings on different claims are not compared: they answer different claimed
events, and the claim the referee names (and ``keep_first``, Član 22) separates them. For the
same reason two findings without a claim are compared only when they can concern the same
claimed event (``logic.scope``: the claim values under which each can fire): a forfeiture
reachable only under one claim does not conflict with one reachable only under another.

First the pair is decided over the disjunctive normal form with derived facts unfolded
(``expand``): most pairs exclude each other there and cost no search. For the alternatives
that may hold together, the reachable answers they allow are searched (gates applied, branches
cut by three-valued evaluation, each search bounded); an example found is completed with the
answers the penalties read and confirmed on the rulebook's one Ruler before it is reported;
answers the interview would refuse (a combination a question's ``impossible:`` declares) are
passed over.
"""
from __future__ import annotations

from referee.expert.authoring.analysis import report
from referee.expert.language import exclusions
from referee.expert.authoring.analysis.space import Space, alt_condition, tested_first, fill_example, describe_finding, finding_signature, show_answers, where

CONFIRMATIONS = 5
# The search for answers on which two findings both stand is bounded per pair: at most
# MAX_JOINT pairs of their (unfolded) alternatives, BUDGET nodes each. A node costs a pass over
# the derived facts, which grew with the score sheet's frame (preferans' tricks, skat's card
# points): at 40 x 3,000 one pair of preferans' dolaz findings took over 30 s and the check of
# preferans about half an hour. The conflicts tests/test_analysis.py plants are found well within
# these bounds; a search that reaches them is counted (ctx.bounded) and said in check's notes.
BUDGET = 1500
MAX_JOINT = 12
# Findings that answer no claim (skat's results: won, lost, decided) can meet under any claim;
# their pairs were four fifths of skat's whole check (about 20 s each, none in conflict), so
# their search is bounded more tightly: alternatives and nodes each a quarter.
CLAIMLESS_SHARE = 4
# pairs of unfolded alternatives compared one by one before a pair falls back to one search
# over both whole conditions (a comparison costs a few microseconds; a search, seconds)
JOINT_LIMIT = 100_000


def candidate_pairs(book, ctx):
    dead = getattr(ctx, "unreachable", set())
    groups: dict[str, list] = {}
    for p in book.productions:
        if p.action == "finding" and p.id not in dead and ctx.ev.alts.get(p.id) is not None:
            groups.setdefault(p.claim, []).append(p)
    logic = ctx.ev.logic
    for claim, prods in groups.items():
        for i, p in enumerate(prods):
            for q in prods[i + 1:]:
                if q.id in p.overrides or p.id in q.overrides:
                    continue
                if not claim and not logic.may_share_claim(p.id, q.id):
                    continue           # findings without a claim, reachable under different claims
                yield claim, p, q


def check(book, ctx, problems) -> int:
    # the pairs read nothing of each other: a re-check shares them with a second process
    state = {"unreachable": sorted(getattr(ctx, "unreachable", ()))}
    return sum(v or 0 for v in ctx.units(problems, pair_specs(book, ctx, state), "conflicts", state))


def pair_specs(book, ctx, state: dict) -> list:
    """The pairs of findings to compare (``Analysis.units``), those of productions found
    unreachable (``state["unreachable"]``) left out."""
    ctx.unreachable = set(state["unreachable"])
    declaring = [q.id for q in book.questions.values() if q.impossible]
    specs = []
    for claim, p, q in candidate_pairs(book, ctx):
        twice = finding_signature(p) == finding_signature(q)
        if twice and (sorted(p.cites) == sorted(q.cites) or not (p.finding.get("penalty") or [])):
            continue                                  # the same outcome: see redundancy
        # (every pair reads the combinations questions declare impossible: an example the
        # interview would refuse is no conflict, and a declaration may name any question)
        specs.append(("conflict", [p.id, q.id], [p.id, q.id], declaring,
                      lambda found, p=p, q=q, claim=claim, twice=twice:
                      _pair(book, ctx, found, claim, p, q, twice), {}))
    return specs


def _pair(book, ctx, problems, claim, p, q, twice) -> int:
    """Report the pair if some answers make both stand (1), else nothing (0)."""
    example, ruling = find_together(book, ctx, p, q, share=1 if claim else CLAIMLESS_SHARE)
    if example is None:
        return 0
    head = (f"conflict: productions {p.id!r} ({', '.join(p.cites)}; {where(p)}) and {q.id!r} "
            f"({', '.join(q.cites)}; {where(q)}) both stand on the same answers"
            + (f" for claim {claim!r}" if claim else ""))
    if twice:
        why = (f" and impose the same penalty under different provisions, so it is applied "
               f"twice: {_outcome(p, ruling)}. Example: {show_answers(example, book)}. Cite both "
               f"provisions in one production, or add `overrides: [{q.id}]` to {p.id!r}")
    else:
        why = (f" with different findings — on these answers {p.id}: {_outcome(p, ruling)}; "
               f"{q.id}: {_outcome(q, ruling)}. Example: {show_answers(example, book)}. Neither overrides "
               f"the other: add `overrides: [{q.id}]` to {p.id!r} (or the reverse) with a `why:`, "
               "or make their conditions exclusive")
    report(problems, "error", "conflict", head + why,
           p, productions=[p.id, q.id], provisions=list(dict.fromkeys(p.cites + q.cites)),
           example=example)
    return 1


def find_together(book, ctx, p, q, share: int = 1):
    """Answers on which both stand (confirmed on the Ruler), or (None, None); ``share`` divides
    the search's bounds (see CLAIMLESS_SHARE)."""
    budget, max_joint = BUDGET // share, MAX_JOINT // share
    ev = ctx.ev
    overriders = [x for x in _overriders(book, ctx).get(p.id, []) + _overriders(book, ctx).get(q.id, [])]
    overriders = list({x.id: x for x in overriders}.values())
    among = [p, q] + overriders
    tries = 0
    pair = [p.id, q.id]

    def viable(answers, decided):
        # each production on its own (the same values as the pair's: a production's value reads
        # only its own derivations), so each is memoised by the fewer answers it reads, and
        # shares what the unreachable search and the other pairs worked out
        return all(ev.possible([pid], answers, decided)[0] is not False for pid in pair)

    unfold = ctx.unfolder
    ua, ub = unfold.production(p.id), unfold.production(q.id)
    if ua is not None and ub is not None and len(ua) * len(ub) <= JOINT_LIMIT:
        joint = unfold.joint(ua, ub)
        # refuted one at a time, as the search reaches them: a pair that does conflict is
        # shown by its first alternatives, without proving the others impossible (preferans'
        # two dolaz findings made to overlap: 191 refutation walks, 2 s, before the first search)
        # (set aside by an override, a few inclusion tests, before refuted, a walk)
        live = (j for j in joint if not _overridden(unfold, overriders, j) and not unfold.refuted(j))
        first = next(live, None)
        if first is None:
            return None, None                 # proved: they never fire together

        def alternatives():
            yield first
            for n, both in enumerate(live, start=1):
                if n == max_joint:
                    rest = 1 + sum(1 for _ in live)
                    ctx.notes.append(f"conflicts: {p.id} / {q.id}: searched {max_joint} of "
                                     f"{max_joint + rest} compatible alternative pairs")
                    return
                yield both

        def built(both):
            both = sorted(both, key=str)
            # the questions the alternative tests come first, fewest allowed answers first: a
            # walk decides them before the questions only its negative facts bring in, so the
            # literals that cannot hold together are found near the root
            return (Space.build(book, ev, [alt_condition(both)], prefer=tested_first(book, both))
                    .restrict(both).pruned(ev.alt_viable(both), walk_first=True).bounded(budget))
        spaces = (built(both) for both in alternatives())
    else:
        spaces = [Space.build(book, ev, [p.when, q.when]).pruned(viable).bounded(10 * budget)]
    for space in spaces:
        for answers in space:
            fired = ev.fired(answers, among)
            if {p.id, q.id} <= ev.standing(fired):
                if exclusions.conflicts(book, answers):
                    continue          # answers the interview refuses (a question's impossible:)
                ruling = ctx.rule(answers)
                tries += 1
                if ruling is None:
                    return answers, None
                standing = {f.production for f in ruling.findings}
                if {p.id, q.id} <= standing:
                    full = fill_example(book, ev, answers, [p, q])
                    if full != answers and not exclusions.conflicts(book, full):
                        again = ctx.rule(full)
                        if {p.id, q.id} <= {f.production for f in again.findings}:
                            return full, again
                    return answers, ruling
                if tries >= CONFIRMATIONS:
                    return None, None
        if space.sampled:
            ctx.bounded += 1
    return None, None


def _overridden(unfold, overriders, alt) -> bool:
    """Does a production that sets p or q aside fire wherever the joint alternative holds (one
    of its unfolded alternatives inside it)? An override sets its loser aside whenever both
    findings are made, whether or not the overrider itself stands (compiler: ``p>loser``), so
    there the two never both stand. (Skat's play-continues fires with every "-continued"
    finding and sets aside the result findings they met: without this each such pair was
    searched to its bound.)"""
    for x in overriders:
        ways = unfold.production(x.id)
        if ways and any(way <= alt for way in ways):
            return True
    return False


def _overriders(book, ctx) -> dict[str, list]:
    """Loser id -> the finding productions that override it (made once per analysis)."""
    table = getattr(ctx, "overriders", None)
    if table is None:
        table = {}
        for x in book.productions:
            if x.action == "finding":
                for loser in x.overrides:
                    table.setdefault(loser, []).append(x)
        ctx.overriders = table
    return table


def _outcome(p, ruling) -> str:
    """The finding as ruled on the example (concrete seats and amounts), else as written."""
    for f in (ruling.findings if ruling is not None else []):
        if f.production == p.id:
            pen = "; ".join(f"{x.player} {x.effect} {x.amount}" + (f" on {x.against}" if x.against else "")
                            for x in f.penalty)
            return f"{f.kind} ({pen or 'no penalty'})"
    return describe_finding(p)
