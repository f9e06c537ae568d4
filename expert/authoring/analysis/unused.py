"""Unused knowledge: questions no production reads, provisions no production cites,
parameters no amount uses, effects no penalty uses. Warnings: the rulebook still rules. What the
score sheet reads (rulebook.yaml `score:`: the deal as played, how an effect is written) counts
as used: the interview asks it for the result."""
from __future__ import annotations

from referee.expert.language.conditions import parse, questions_read
from referee.expert.language.expressions import params_in, questions_in_amounts, questions_in_finding
from referee.expert.authoring.analysis import report


def used_questions(book) -> set[str]:
    used: set[str] = set()
    for p in book.productions:
        used |= questions_read(p.when)
        if p.finding:
            used |= questions_in_finding(p.finding)
        if p.keep_first:
            used.add(p.keep_first)
    for q in book.questions.values():
        if q.when is not None:
            used |= questions_read(q.when)
        if q.values_from:
            used.add(q.values_from)
    for rule in (book.score or {}).get("play") or []:
        if isinstance(rule, dict):
            for key in ("when", "ask_when"):
                if rule.get(key) is not None:
                    used |= questions_read(parse(rule[key]))
            used |= questions_in_amounts(rule.get("entries") or [])
    used |= questions_in_amounts(_score_effect_amounts(book))
    return used


def _score_effect_amounts(book) -> list:
    """The amounts (and seats) of how the score sheet writes each effect."""
    found = []
    for specs in ((book.score or {}).get("effects") or {}).values():
        for spec in specs if isinstance(specs, list) else [specs]:
            if isinstance(spec, dict):
                found.append({k: v for k, v in spec.items() if k in ("amount", "per_unit")})
    return found


def check(book, ctx, problems) -> int:
    count = 0
    cited = {c for p in book.productions for c in p.cites}
    for prov in book.provisions.values():
        if prov.id not in cited and not prov.penalty_bearing:   # penalty-bearing: an error in checks
            count += 1
            report(problems, "warning", "unused",
                   f"provision {prov.id} ({prov.label}) is cited by no production", prov,
                   provisions=[prov.id])
    used = used_questions(book)
    for q in book.questions.values():
        if q.id not in used and not q.for_the_record:
            count += 1
            report(problems, "warning", "unused",
                   f"question {q.id!r} is read by no production (nor by another question's when): "
                   "the interview never needs it", q)
    params: set[str] = set()
    effects: set[str] = set()
    for p in book.productions:
        for e in (p.finding or {}).get("penalty") or []:
            if isinstance(e, dict):
                params.update(params_in(e.get("amount")))
                effects.add(str(e.get("effect")))
    for rule in (book.score or {}).get("play") or []:
        if isinstance(rule, dict):
            params.update(params_in([e.get("amount") for e in rule.get("entries") or [] if isinstance(e, dict)]))
    params.update(params_in([[s.get("amount"), s.get("per_unit")] for s in _score_effect_amounts(book)]))
    rb = _Where(str(book.root / "rulebook.yaml"))
    for name in book.parameters:
        if name not in params:
            count += 1
            report(problems, "warning", "unused",
                   f"parameter {name!r} (rulebook.yaml) is used by no penalty amount", rb)
    # an effect only a request names, answered by the articles it lists (refused_by/given_by)
    effects |= {n for n, spec in book.effects.items() if spec.get("refused_by") or spec.get("given_by")}
    for name in book.effects:
        if name not in effects:
            count += 1
            report(problems, "warning", "unused",
                   f"effect {name!r} (rulebook.yaml) is named by no penalty", rb)
    return count


class _Where:
    def __init__(self, file):
        self.file, self.line = file, None
