"""Running casebook cases: a case in, the expected ruling out, differences in words."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from referee.expert.interview.adjudicate import rule_dispute
from referee.expert.language.dispute import read_dispute
from referee.expert.language.errors import RefereeError
from referee.expert.language.finding_kinds import NOT_APPLYING_KINDS
from referee.expert.language.logic import Logic
from referee.expert.interview.from_cards import answers_from_cards, merge
from referee.expert.interview.named_cards import named_cards
from referee.expert.interview.relevance import not_asked
from referee.expert.language.model import Case, Rulebook
from referee.expert.engine.ruler import Ruler
from referee.expert.engine.carried import carries_anything, with_carried
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
        dispute = named_cards(read_dispute({"answers": case.answers, "events": case.events,
                                            "requests": case.requests}, ruler.book, case.file),
                              ruler.book, case.file)
        derived = answers_from_cards(ruler.book, case.cards, case.file, case.line)
    except RefereeError as exc:
        result.differences.append(str(exc))
        return result
    dispute.answers, sources = merge(dispute.answers, derived)
    ruling = rule_dispute(ruler, dispute, case.header, sources, ask=False)
    result.ruling = ruling
    result.differences = (compare(case.expect, ruling) + compare_dispute(case.expect, ruling)
                          + unaskable(ruler.book, case, dispute))
    return result


def unaskable(book: Rulebook, case: Case, dispute) -> list[str]:
    """Answers the case gives to questions the interview would not ask, given its other answers:
    a ruling that needs one of them can never be reached at the table."""
    found = []
    per_event = dispute.event_answers()
    if len(per_event) > 1 and carries_anything(book):
        per_event = with_carried(Ruler.of(book), per_event)    # what earlier events establish
    for k, answers in enumerate(per_event):
        own = case.answers if not dispute.events else dispute.events[k]
        # only the gates of the answered questions decide this: rule on the rulebook cut down to
        # them (logic.view), not on every question and derivation of the rulebook
        skipped = set(not_asked(Logic.of(book).view(answers), answers))
        where = "" if not dispute.events else f" in event {k + 1}"
        found += [f"answers {qid!r}{where}, which the interview does not ask with the case's other answers "
                  "(the question's `when` does not hold): drop the answer, or widen that `when`"
                  for qid in sorted(own) if qid in skipped]
    return found


def compare_dispute(expect: dict, ruling: Ruling) -> list[str]:
    """The dispute-level expectations: ``alternatives`` of a conditional ruling (each
    ``{if: {question: value}, findings: [...]}``), ``requests`` (each ``{party, request,
    answer}``) and ``unknown`` (each ``{question, matters}``)."""
    from dataclasses import replace
    diffs: list[str] = []
    if "alternatives" in expect:
        wanted = expect.get("alternatives") or []
        if len(wanted) != len(ruling.alternatives):
            diffs.append(f"expected {len(wanted)} alternatives, got {len(ruling.alternatives)}: "
                         + "; ".join(str(a.when) for a in ruling.alternatives))
        for want in wanted:
            alt = next((a for a in ruling.alternatives if want.get("if") in a.when), None)
            if alt is None:
                diffs.append(f"expected an alternative if {want.get('if')}, got: "
                             + ("; ".join(str(a.when) for a in ruling.alternatives) or "an unconditional ruling"))
                continue
            branch = replace(ruling, findings=list(alt.findings), not_ruled=list(alt.not_ruled),
                             refined=list(alt.refined), alternatives=[],
                             result=alt.result)
            diffs += [f"if {want.get('if')}: {d}" for d in compare(want, branch)]
    for want in expect.get("requests") or []:
        got = next((r for r in ruling.requests if r.party == want.get("party")
                    and r.request == want.get("request")), None)
        if got is None:
            diffs.append(f"expected an answer to {want.get('party')}'s request {want.get('request')!r}")
        elif got.answer != want.get("answer"):
            diffs.append(f"{want.get('party')}'s request {want.get('request')!r}: expected "
                         f"{want.get('answer')}, got {got.answer} ({got.reason.get('en', '')})")
    for want in expect.get("unknown") or []:
        got = next((u for u in ruling.unknown if u.question == want.get("question")), None)
        if got is None:
            diffs.append(f"expected {want.get('question')!r} among the facts not established")
        elif "matters" in want and bool(want["matters"]) != got.matters:
            diffs.append(f"{want.get('question')!r}: expected matters={bool(want['matters'])}, got {got.matters}")
    return diffs


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
            if p.cards:
                line["cards"] = p.cards
            entry["penalty"].append(line)
    return entry


def _penalty_key(entry: dict, with_against: bool, with_cards: bool = False) -> tuple:
    amount = entry.get("amount")
    if isinstance(amount, float) and amount.is_integer():
        amount = int(amount)
    return (str(entry.get("player")), str(entry.get("effect")), amount,
            str(entry["against"]) if with_against and entry.get("against") is not None else None,
            str(entry.get("cards") or "") if with_cards else None)


def _penalty_matches(want: dict, found: FindingOut) -> bool:
    if "penalty" not in want:
        return True
    expected_pen = want.get("penalty") or []
    with_against = any("against" in e for e in expected_pen)
    with_cards = any("cards" in e for e in expected_pen)      # the cards named, when stated
    exp = sorted(_penalty_key(e, with_against, with_cards) for e in expected_pen)
    got = sorted(_penalty_key(p.to_dict(), with_against, with_cards) for p in found.penalty)
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
    aside = [n for n in ruling.not_ruled + ruling.refined]   # a sibling reading set aside counts
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
    if "result" in expect:
        diffs += compare_result(expect.get("result") or {}, ruling)
    return diffs


def compare_result(want: dict, ruling: Ruling) -> list[str]:
    """The deal's result after the ruling (rulebook.yaml ``score:``): ``text``, the one-line
    English result as the JSON carries it, and/or ``entries``, exactly these entries in any order
    (each ``{player, item, amount}``, with ``against`` and ``needs`` compared when given; an
    open amount is ``amount: null``)."""
    if ruling.result is None:
        return ["expected a result on the score sheet, but the rulebook has no score: section"]
    got = ruling.result.to_dict(ruling.book, ruling.header or {})
    diffs = []
    if "text" in want and str(want["text"]) != got["text"]:
        diffs.append(f"result: expected {want['text']!r}, got {got['text']!r}")
    if "entries" in want:
        wanted = want.get("entries") or []
        keys = [k for k in ("against", "needs") if any(k in e for e in wanted)]

        def key(e: dict) -> tuple:
            return (str(e.get("player")), str(e.get("item")), _number(e.get("amount")),
                    *(repr(e.get(k)) for k in keys))
        exp, have = sorted(map(key, wanted)), sorted(map(key, got["entries"]))
        if exp != have:
            diffs.append(f"result entries: expected {exp}, got {have}")
    return diffs


def _number(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value


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
        applied = {pid for f in r.ruling.findings if f.kind not in NOT_APPLYING_KINDS
                   for pid in f.provisions}
        cleared = {pid for f in r.ruling.findings if f.kind in NOT_APPLYING_KINDS
                   for pid in f.provisions}
        for pid in applied:
            if pid in table:
                table[pid]["applied"] += 1
        negative = set(r.case.expect.get("not_applied") or []) | set(r.case.expect.get("not_ruled") or [])
        negative |= raised(book, r.case) | cleared
        for pid in negative - applied:
            if pid in table:
                table[pid]["not_applied"] += 1
    return table


def raised(book: Rulebook, case: Case) -> set[str]:
    """Provisions whose findings answer a claim this case raised: if they did not apply, the
    case shows a close situation where they must not."""
    claimed: set[str] = set()
    for answers in [case.answers, *(case.events or [])]:
        claim = answers.get("claim") if isinstance(answers, dict) else None
        claimed |= set(map(str, claim)) if isinstance(claim, list) else set()
    return {pid for p in book.productions if p.action == "finding"
            and p.claim in claimed for pid in p.cites}
