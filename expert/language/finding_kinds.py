"""What each kind of finding means, in one table.

A production's finding states its ``kind``; the engine, the casebook, the checks, the requests
and the ruling all read what that kind implies from here, instead of each keeping its own tuple
of kind names. knowledge/README.md ("Findings") explains the kinds to rule authors.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FindingKind:
    id: str
    infraction: bool        # an irregularity is established (a ruling with one is no "no infraction")
    competes: bool          # competes to be "the violation committed first" under keep_first
    applies: bool           # its provisions count as applied (casebook coverage, request answers)
    penalty_allowed: bool   # may carry effects (the loader refuses a penalty on the others)
    names_offender: bool    # its player is an offender (the ruling shows "Offender: ..." only then)
    heading: str            # the word over its effects in the ruling: "penalty" or "consequence"


KINDS: dict[str, FindingKind] = {k.id: k for k in (
    #            id                      infr.  competes applies penalty offender heading
    FindingKind("violation",             True,  True,    True,   True,   True,    "penalty"),
    FindingKind("violation-no-penalty",  True,  True,    True,   True,   True,    "consequence"),
    FindingKind("rectification",         True,  True,    True,   True,   True,    "consequence"),
    # no irregularity: the claim fails on the facts
    FindingKind("no-violation",          False, False,   False,  False,  False,   "consequence"),
    # the right to a penalty or rectification is lost (late claim, own act): no one is the offender
    FindingKind("forfeited",             False, True,    False,  False,  False,   "consequence"),
    # the rules do not decide: the Director's or the committee's decision is needed
    FindingKind("undecided",             False, True,    True,   False,  False,   "consequence"),
    # a payment the rules make due without an irregularity (ulti: a silent ulti made)
    FindingKind("settlement",            False, False,   True,   True,   False,   "consequence"),
)}

FINDING_KINDS = tuple(KINDS)
INFRACTION_KINDS = tuple(k for k, v in KINDS.items() if v.infraction)
NOT_RULED_KINDS = tuple(k for k, v in KINDS.items() if not v.competes)
PENALTY_FREE_KINDS = tuple(k for k, v in KINDS.items() if not v.penalty_allowed)
NOT_APPLYING_KINDS = tuple(k for k, v in KINDS.items() if not v.applies)


def kind(kind_id: str) -> FindingKind:
    """The kind's row; an unknown id (refused by the loader) reads as a violation."""
    return KINDS.get(kind_id) or KINDS["violation"]
