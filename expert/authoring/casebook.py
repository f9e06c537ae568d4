"""Running casebook cases: a case in, the expected ruling out, differences in words."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from referee.expert.language.answers import check_all
from referee.expert.language.errors import RefereeError
from referee.expert.interview.from_cards import answers_from_cards, merge
from referee.expert.interview.relevance import not_asked
from referee.expert.language.model import Case, Rulebook
from referee.expert.engine.ruler import Ruler
from referee.expert.engine.verdict import FindingOut, Ruling


@dataclass
class CaseResult:
    case: Case
    differences: list[str] = field(default_factory=list)
    ruling: Ruling | None = None

    @property
    def passed(self) -> bool:
        return not self.differences


def run_case(ruler: Ruler, case: Case) -> CaseResult:
    result = CaseResult(case)
    try:
        answers = check_all(case.answers, ruler.book, case.file, case.line)
        derived = answers_from_cards(ruler.book, case.cards, case.file, case.line)
    except RefereeError as exc:
        result.differences.append(str(exc))
        return result
    answers, sources = merge(answers, derived)
    ruling = ruler.rule(answers, case.header, sources)
    result.ruling = ruling
    result.differences = compare(case.expect, ruling) + unaskable(ruler.book, case, answers)
    return result


def unaskable(book: Rulebook, case: Case, answers: dict) -> list[str]:
    """Answers the case gives to questions the interview would not ask, given its other answers:
    a ruling that needs one of them can never be reached at the table."""
    skipped = set(not_asked(book, answers))
    return [f"answers {qid!r}, which the interview does not ask with the case's other answers "
            "(the question's `when` does not hold): drop the answer, or widen that `when`"
            for qid in sorted(case.answers) if qid in skipped]


def flow(value) -> str:
    """One line of YAML (flow style), as casebooks write ids and penalty lines: provision ids
    unquoted ([skat:4.1.3], as authors write them) wherever they read back the same."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False,
                          width=10_000).strip().removesuffix("...").strip()

    def plain(m):
        word = m.group(1)
        try:
            same = yaml.safe_load(f"[{word}]") == [word]
        except yaml.YAMLError:
            same = False
        return word if same else m.group(0)
    # a whole quoted scalar only: after [ { , or ": ", before , ] } or the end
    unquoted = re.sub(r"(?:(?<=^)|(?<=[\[{ ]))'([A-Za-z0-9_][A-Za-z0-9_.:\-]*)'(?=[,\]}]|$)", plain, text)
    try:
        return unquoted if yaml.safe_load(unquoted) == value else text
    except yaml.YAMLError:
        return text


def finding_entry(f: FindingOut, with_penalty: bool = True) -> dict:
    """A ruled finding in the shape of a case's expected finding (``provisions``, ``kind``,
    ``penalty``); ``with_penalty`` False leaves out an empty penalty."""
    entry: dict = {"provisions": list(f.provisions), "kind": f.kind}
    if f.penalty or with_penalty:
        entry["penalty"] = []
        for p in f.penalty:
            line = {"player": p.player, "effect": p.effect, "amount": p.amount}
            if p.against:
                line["against"] = p.against
            entry["penalty"].append(line)
    return entry


def _penalty_key(entry: dict, with_against: bool) -> tuple:
    amount = entry.get("amount")
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    return (str(entry.get("player")), str(entry.get("effect")), amount,
            str(entry["against"]) if with_against and entry.get("against") is not None else None)


def _penalty_matches(want: dict, found: FindingOut) -> bool:
    if "penalty" not in want:
        return True
    expected_pen = want.get("penalty") or []
    with_against = any("against" in e for e in expected_pen)
    exp = sorted(_penalty_key(e, with_against) for e in expected_pen)
    got = sorted(_penalty_key(p.to_dict(), with_against) for p in found.penalty)
    return exp == got


def _matches(want: dict, f: FindingOut) -> bool:
    """The ruled finding is the expected one: the same provisions (the full list, in any order),
    the same kind, and the same penalty when the expectation states one."""
    return (set(want.get("provisions") or []) == set(f.provisions)
            and want.get("kind") in (None, f.kind) and _penalty_matches(want, f))


def _how_differs(want: dict, f: FindingOut) -> str:
    what = []
    if set(want.get("provisions") or []) != set(f.provisions):
        what.append("provisions")
    if want.get("kind") not in (None, f.kind):
        what.append("kind")
    if not _penalty_matches(want, f):
        what.append("penalty")
    return ", ".join(what)


def compare(expect: dict, ruling: Ruling) -> list[str]:
    """What differs between a case's expectations and a ruling, one message per difference;
    findings are shown as YAML, as a case would state them."""
    diffs: list[str] = []
    if "findings" in expect:
        left = list(ruling.findings)
        missing, changed, unmatched = [], [], []
        wanted = list(expect.get("findings") or [])
        for want in wanted:
            if not want.get("kind"):
                diffs.append(f"expected finding states no kind: {flow(want)}\n"
                             "  (every expected finding states its kind; `referee test --update` fills it in)")
        # exact matches first, so a near one never takes the finding another expectation names
        for want in wanted:
            exact = [f for f in left if _matches(want, f)]
            if exact:
                left.remove(exact[0])
            else:
                unmatched.append(want)
        for want in unmatched:
            ids = set(want.get("provisions") or [])
            # the ruled finding this expectation most likely means: the same provisions, else
            # shared ones; of those, the same kind first
            close = ([f for f in left if set(f.provisions) == ids]
                     or [f for f in left if ids & set(f.provisions)])
            if close:
                f = next((f for f in close if f.kind == want.get("kind")), close[0])
                left.remove(f)
                changed.append((want, f))
            else:
                missing.append(want)
        for want, f in changed:
            diffs.append(f"a finding differs ({_how_differs(want, f)}):\n"
                         f"  expected: {flow(want)}\n"
                         f"  ruled:    {flow(finding_entry(f, 'penalty' in want))}")
        if missing:
            diffs.append("expected, not ruled:\n" + "\n".join(f"  - {flow(w)}" for w in missing))
        if left:
            diffs.append("ruled, not expected:\n"
                         + "\n".join(f"  - {flow(finding_entry(f, False))}" for f in left))
    aside = [n for n in ruling.not_ruled]
    for pid in expect.get("not_ruled") or []:
        if not any(pid in n.provisions for n in aside):
            got = flow(sorted({p for n in aside for p in n.provisions}))
            diffs.append(f"expected {pid} to be set aside (not_ruled), set aside: {got}")
    for pid in expect.get("not_applied") or []:
        hits = [f for f in ruling.findings if pid in f.provisions]
        if hits:
            diffs.append(f"expected {pid} not to apply, but it does: {flow(finding_entry(hits[0], False))}")
    if "no_infraction" in expect and bool(expect["no_infraction"]) != ruling.no_infraction:
        diffs.append(f"expected no_infraction: {flow(bool(expect['no_infraction']))}, "
                     f"ruled no_infraction: {flow(ruling.no_infraction)}")
    return diffs


def run_casebook(book: Rulebook, ruler: Ruler | None = None) -> list[CaseResult]:
    ruler = ruler or Ruler(book)
    return [run_case(ruler, case) for case in book.cases]


def coverage(book: Rulebook, results: list[CaseResult]) -> dict[str, dict[str, int]]:
    """For each provision: cases where it applied, and cases where it was expected not to."""
    table = {pid: {"applied": 0, "not_applied": 0} for pid in book.provisions}
    for r in results:
        if r.ruling is None:
            continue
        # a finding that no violation stands, or that the claim is lost, is no case of a penalty applying
        applied = {pid for f in r.ruling.findings if f.kind not in ("no-violation", "forfeited")
                   for pid in f.provisions}
        cleared = {pid for f in r.ruling.findings if f.kind in ("no-violation", "forfeited")
                   for pid in f.provisions}
        for pid in applied:
            if pid in table:
                table[pid]["applied"] += 1
        negative = set(r.case.expect.get("not_applied") or []) | set(r.case.expect.get("not_ruled") or [])
        negative |= _raised(book, r.case) | cleared
        for pid in negative - applied:
            if pid in table:
                table[pid]["not_applied"] += 1
    return table


def _raised(book: Rulebook, case: Case) -> set[str]:
    """Provisions whose findings answer a claim this case raised: if they did not apply, the
    case shows a close situation where they must not."""
    claimed = case.answers.get("claim")
    claimed = set(map(str, claimed)) if isinstance(claimed, list) else set()
    return {pid for p in book.productions if p.action == "finding"
            and str(p.finding.get("claim") or "") in claimed for pid in p.cites}
