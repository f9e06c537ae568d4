"""bench/mutate.py's proofs of equivalence: a mutant is counted equivalent only where check's
unreachable analysis proves that no reachable answers tell it apart, and a mutant that does
differ on reachable answers is never proved equivalent."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def mutate():
    spec = importlib.util.spec_from_file_location("bench_mutate", ROOT / "bench" / "mutate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _mutant(mutate, game, production, what):
    _book, mutants = mutate._book(game)
    index = next(m.index for m, _ in mutants if m.production == production and m.what == what)
    return mutate.mutate(game, index)


def test_a_comparison_behind_a_gate_is_proved_equivalent(mutate):
    # Law 58B3's opponent is asked about only when two cards or more were visible, so the
    # production that reads his choice cannot fire at one visible card, whatever its threshold
    original, book, m = _mutant(mutate, "bridge", "l58b2-several-visible-defender-opponent-replaces",
                                "{q: l58_visible, ge: 2} -> 1")
    assert "proved" in (mutate.prove(original, book, m) or "")


def test_the_same_comparison_without_the_gate_is_not(mutate):
    # the sibling without the opponent's choice fires at one visible card once its threshold is 1:
    # a real difference, which the proof must not hide
    original, book, m = _mutant(mutate, "bridge", "l58b2-several-visible-defender",
                                "{q: l58_visible, ge: 2} -> 1")
    assert mutate.prove(original, book, m) is None
    answers = {"claim": ["play"], "play_claim": ["simultaneous"], "l58_type": "one-hand",
               "play_next_trick": "before-next", "l58_visible": 1, "play_offender_role": "defender",
               "offender": "N"}
    from referee.expert.engine.ruler import Ruler
    assert mutate.signature(Ruler(original).rule(answers)) != mutate.signature(Ruler(book).rule(answers))


def test_an_override_between_exclusive_productions_is_proved_equivalent(mutate):
    original, book, m = _mutant(mutate, "bridge", "l11b-forfeited", "overrides l36-cancel-and-penalise dropped")
    assert "never fire on the same answers" in (mutate.prove(original, book, m) or "")


def test_a_penalty_always_set_aside_is_proved_equivalent(mutate):
    # skat 4.1.7's cards laid down as led is always set aside by one of 4.3.4's findings
    original, book, m = _mutant(mutate, "skat", "soloist-cards-laid-down-as-led",
                                'penalty[0].player "soloist" -> "opponent_1"')
    assert "set its finding aside" in (mutate.prove(original, book, m) or "")


def test_a_widened_branch_another_branch_already_covers_is_proved_equivalent(mutate):
    # the declarer falls at (0 tricks, 5 or more) and at (1 trick, 4 or more): widening the first
    # branch to one trick adds only answers the second already covers
    original, book, m = _mutant(mutate, "preferans", "declarer-fell", "{q: tricks_first, le: 0} -> 1")
    assert "agree on every answer" in (mutate.prove(original, book, m) or "")


def test_a_moved_threshold_of_the_declarers_pass_is_not(mutate):
    # at 2 and 3 tricks the declarer fell; the mutant has him pass too
    original, book, m = _mutant(mutate, "preferans", "declarer-passed", "{q: tricks_second, le: 2} -> 3")
    assert mutate.prove(original, book, m) is None
