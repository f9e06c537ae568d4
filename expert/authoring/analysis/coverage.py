"""`referee test --coverage`: per provision, the cases that apply it and those where it must not."""
from __future__ import annotations

from referee.expert.authoring.casebook import coverage, raised


def coverage_rows(book, results) -> list[dict]:
    """One row per provision: counts from ``expert.casebook.coverage`` and the case names."""
    table = coverage(book, results)
    cited = {c for p in book.productions for c in p.cites}
    rows = []
    for pid, prov in book.provisions.items():
        applying, not_applying = [], []
        for r in results:
            if r.ruling is None:
                continue
            applied = {x for f in r.ruling.findings for x in f.provisions}
            negative = (set(r.case.expect.get("not_applied") or [])
                        | set(r.case.expect.get("not_ruled") or []) | raised(book, r.case))
            if pid in applied:
                applying.append(r.case.name)
            elif pid in negative:
                not_applying.append(r.case.name)
        rows.append({"provision": pid, "label": prov.label, "penalty_bearing": prov.penalty_bearing,
                     "cited": pid in cited, "applied": table[pid]["applied"],
                     "not_applied": table[pid]["not_applied"], "cases_applying": applying,
                     "cases_not_applying": not_applying,
                     "uncovered": prov.penalty_bearing and not (table[pid]["applied"]
                                                                and table[pid]["not_applied"])})
    return rows
