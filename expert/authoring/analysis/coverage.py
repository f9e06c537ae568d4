"""`referee test --coverage`: per provision, the cases that apply it and those where it must not."""
from __future__ import annotations

from referee.expert.authoring.casebook import _raised, coverage


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
                        | set(r.case.expect.get("not_ruled") or []) | _raised(book, r.case))
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


def render_coverage(game: str, rows: list[dict]) -> str:
    lines = [f"Coverage of {game}: provision, cases applying it / cases where it must not apply"]
    for r in rows:
        mark = "!" if r["uncovered"] else " "
        pb = "penalty" if r["penalty_bearing"] else "       "
        lines.append(f"{mark} {r['provision']:45} {pb} {r['applied']:3} applying, "
                     f"{r['not_applied']:3} not" + ("" if r["cited"] else "  (cited by no production)"))
        for name in r["cases_applying"][:5]:
            lines.append(f"      + {name}")
        for name in r["cases_not_applying"][:5]:
            lines.append(f"      - {name}")
    uncovered = [r["provision"] for r in rows if r["uncovered"]]
    total = sum(1 for r in rows if r["penalty_bearing"])
    lines.append(f"{game}: {total - len(uncovered)} of {total} penalty-bearing provisions covered "
                 "both ways" + (f"; uncovered: {', '.join(uncovered)}" if uncovered else ""))
    return "\n".join(lines) + "\n"


# --- per production ---------------------------------------------------------------------------

def production_rows(book, results) -> list[dict]:
    """One row per production: the cases in which it fired (made its finding, standing or set
    aside; derived its fact; set a later finding aside). A production no case reaches can be
    wrong in any way without a case failing, even when a sibling citing the same provision is
    covered."""
    reached: dict[str, list[str]] = {p.id: [] for p in book.productions}
    for r in results:
        if r.ruling is None:
            continue
        for pid in dict.fromkeys(step["production"] for step in r.ruling.trail):
            if pid in reached:
                reached[pid].append(r.case.name)
    return [{"production": p.id, "action": p.action, "file": p.file, "line": p.line,
             "cases": reached[p.id]} for p in book.productions]


def override_rows(book, results) -> list[dict]:
    """One row per ``overrides:`` entry: the cases where both productions fire and the loser is
    expected under ``not_ruled`` (set aside by that winner). Without one, dropping or reversing
    the override fails no case."""
    rows = []
    for p in book.productions:
        for loser in p.overrides:
            try:
                cites = set(book.production(loser).cites)
            except KeyError:
                continue
            cases = [r.case.name for r in results if r.ruling is not None
                     and any(n.production == loser and n.by == p.id for n in r.ruling.not_ruled)
                     and cites & set(r.case.expect.get("not_ruled") or [])]
            rows.append({"winner": p.id, "loser": loser, "file": p.file, "line": p.line, "cases": cases})
    return rows


def render_productions(game: str, prows: list[dict], orows: list[dict]) -> str:
    lines = [f"Coverage of {game}: production, cases that reach it"]
    for r in prows:
        mark = " " if r["cases"] else "!"
        first = f"  e.g. {r['cases'][0]}" if r["cases"] else f"  ({r['file']}:{r['line']})"
        lines.append(f"{mark} {r['production']:45} {r['action']:10} {len(r['cases']):3}{first}")
    lines.append(f"Overrides of {game}: winner > loser, cases where both fire and the loser is expected "
                 "under not_ruled")
    for r in orows:
        mark = " " if r["cases"] else "!"
        first = f"  e.g. {r['cases'][0]}" if r["cases"] else f"  ({r['file']}:{r['line']})"
        lines.append(f"{mark} {r['winner']} > {r['loser']}: {len(r['cases'])}{first}")
    unreached = [r["production"] for r in prows if not r["cases"]]
    unexercised = [f"{r['winner']} > {r['loser']}" for r in orows if not r["cases"]]
    lines.append(f"{game}: {len(prows) - len(unreached)} of {len(prows)} productions reached by a case"
                 + (f"; none reaches: {', '.join(unreached)}" if unreached else ""))
    lines.append(f"{game}: {len(orows) - len(unexercised)} of {len(orows)} overrides exercised"
                 + (f"; not exercised: {', '.join(unexercised)}" if unexercised else ""))
    return "\n".join(lines) + "\n"
