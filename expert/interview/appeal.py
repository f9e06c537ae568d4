"""Appeals: re-rule a recorded ruling on amended facts.

An appeals committee takes a ruling record (a file, or a ruling in the register by number or
verification code), finds one or more facts differently (``--set QUESTION=VALUE``, each value
read per the question's type), and gets the appeal decision: the original ruling, the amended
facts, the new ruling and the differences (findings added, removed or changed; penalties per
player). The decision is a ruling record of its own (kind ``appeal``, ``appeal_of`` = the
original's code) saved in the register linked to the original. The original is never altered.
"""
from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Callable, Iterable, Mapping

from referee.expert.language.errors import RefereeError
from referee.expert.records.record import (build_record, compute_code, describe, format_code, load_record,
                           rulebook_identity, seal)

_YES = {"yes", "y", "true", "t", "1", "da", "d", "tak", "t", "igen", "i", "да", "д", "on"}
_NO = {"no", "n", "false", "f", "0", "ne", "nie", "nem", "нет", "н", "off"}


# ---------------------------------------------------------------- questions and values

def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _questions(rulebook: Any) -> dict:
    qs = _get(rulebook, "questions") or {}
    if isinstance(qs, Mapping):
        return dict(qs)
    return {_get(q, "id"): q for q in qs}


def _allowed_values(q: Any) -> list | None:
    if hasattr(q, "allowed"):
        return list(q.allowed()) or None
    vals = _get(q, "values")
    if not vals:
        return None
    out = []
    for v in vals:
        out.append(_get(v, "value", v) if isinstance(v, Mapping) or hasattr(v, "value") else v)
    return out


def _seat_ids(rulebook: Any, q: Any) -> list | None:
    seats = _get(q, "seats") or getattr(rulebook, "seat_ids", None) or _get(rulebook, "seats")
    if not seats:
        return None
    out = []
    for s in seats:
        out.append(_get(s, "id", s) if isinstance(s, Mapping) or hasattr(s, "id") else s)
    return [str(s) for s in out]


def parse_value(question: Any, raw: str, rulebook: Any = None, qid: str | None = None,
                answers: Mapping | None = None) -> Any:
    """Read ``raw`` (as typed after ``QUESTION=``) per the question's type. An empty value
    means "not answered" and returns None. With the engine's own Rulebook, its prompt parser
    (``expert.answers.parse_typed``) reads the value, so ``--set`` accepts what the interview
    accepts (names, labels, list numbers)."""
    qid = qid or _get(question, "id") or "?"
    qtype = _get(question, "type") or "text"
    raw = raw.strip()
    if raw == "":
        return None
    if hasattr(question, "allowed") and hasattr(rulebook, "seat_ids"):
        from referee.expert.language.answers import parse_typed
        try:
            return parse_typed(question, raw, rulebook, dict(answers or {}))
        except RefereeError as exc:
            raise RefereeError(f"--set {qid}={raw}: {exc.message}") from None
    if qtype == "yesno":
        low = raw.lower()
        if low in _YES:
            return True
        if low in _NO:
            return False
        raise RefereeError(f"--set {qid}={raw}: '{qid}' is a yes/no question; "
                           "expected yes or no")
    if qtype == "number":
        try:
            n = int(raw)
        except ValueError:
            raise RefereeError(f"--set {qid}={raw}: '{qid}' takes a whole number") from None
        lo, hi = _get(question, "min"), _get(question, "max")
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            raise RefereeError(f"--set {qid}={raw}: out of range "
                               f"[{'' if lo is None else lo}..{'' if hi is None else hi}]")
        return n
    if qtype == "seat":
        seats = _seat_ids(rulebook, question)
        if seats is not None and raw not in seats:
            raise RefereeError(f"--set {qid}={raw}: not a seat here; expected one of "
                               + ", ".join(seats))
        return raw
    if qtype == "choice":
        allowed = _allowed_values(question)
        return _one_of(qid, raw, allowed)
    if qtype in ("multi", "order"):
        items = [x.strip() for x in raw.split(",") if x.strip()]
        allowed = _allowed_values(question)
        if allowed is None and _get(question, "values_from") and rulebook is not None:
            src = _questions(rulebook).get(_get(question, "values_from"))
            allowed = _allowed_values(src) if src is not None else None
        out = [_one_of(qid, x, allowed) for x in items]
        if len(set(map(str, out))) != len(out):
            raise RefereeError(f"--set {qid}={raw}: a value is given twice")
        return out
    return raw  # text


def _one_of(qid: str, raw: str, allowed: list | None) -> Any:
    if allowed is None:
        return raw
    for v in allowed:
        if str(v) == raw:
            return v
    raise RefereeError(f"--set {qid}={raw}: '{raw}' is not an answer to '{qid}'; expected "
                       + ", ".join(map(str, allowed)))


def parse_sets(pairs: Iterable[str], rulebook: Any, answers: Mapping | None = None) -> dict[str, Any]:
    """``["offender=defender_2", "game=karo"]`` → ``{"offender": "defender_2", ...}``,
    each value read per its question; RefereeError on an unknown question or a bad value."""
    questions = _questions(rulebook)
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise RefereeError(f"--set {pair}: expected QUESTION=VALUE")
        qid, raw = pair.split("=", 1)
        qid = qid.strip()
        if qid not in questions:
            import difflib
            game = _get(rulebook, "game")
            close = difflib.get_close_matches(qid, list(questions), n=3)
            hint = (f"did you mean {', '.join(close)}? " if close else "")
            raise RefereeError(f"--set {pair}: no question '{qid}' in the {game} rulebook; "
                               f"{hint}(all questions: `referee questions {game}`)")
        if qid in out:
            raise RefereeError(f"--set {qid} is given twice")
        merged = {**dict(answers or {}), **{k: v for k, v in out.items() if v is not None}}
        out[qid] = parse_value(questions[qid], raw, rulebook, qid, merged)
    if not out:
        raise RefereeError("an appeal needs at least one --set QUESTION=VALUE")
    return out


# ---------------------------------------------------------------- differences

def _fkey(f: Mapping) -> tuple:
    return (str(f.get("kind")), tuple(sorted(map(str, f.get("provisions") or []))))


def _penalty_norm(f: Mapping) -> list:
    return sorted(((str(p.get("player")), str(p.get("effect")), repr(p.get("amount")))
                   for p in f.get("penalty") or []))


def penalty_totals(findings: Iterable[Mapping]) -> dict[tuple, dict]:
    """``{(player, effect, against): {"amount": sum or None, "count": n}}`` over findings."""
    out: dict[tuple, dict] = {}
    for f in findings:
        for p in f.get("penalty") or []:
            key = (str(p.get("player")), str(p.get("effect")),
                   None if p.get("against") is None else str(p.get("against")))
            slot = out.setdefault(key, {"amount": None, "count": 0})
            slot["count"] += 1
            a = p.get("amount")
            if isinstance(a, (int, float)) and not isinstance(a, bool):
                slot["amount"] = (slot["amount"] or 0) + a
    return out


def differences(before: Mapping, after: Mapping) -> dict:
    """What changed from one ruling (record or ruling dict) to another."""
    bf = list(before.get("findings") or [])
    af = list(after.get("findings") or [])
    bmap, amap = {}, {}
    for f in bf:
        bmap.setdefault(_fkey(f), []).append(f)
    for f in af:
        amap.setdefault(_fkey(f), []).append(f)
    added, removed, changed, kept = [], [], [], []
    for k in sorted(set(bmap) | set(amap)):
        b, a = bmap.get(k, []), amap.get(k, [])
        n = min(len(a), len(b))
        for i in range(n):
            if _penalty_norm(b[i]) != _penalty_norm(a[i]) or b[i].get("offender") != a[i].get("offender"):
                changed.append({"before": b[i], "after": a[i]})
            else:
                kept.append(a[i])
        removed += b[n:]
        added += a[n:]

    def nr_keys(r):
        return {tuple(sorted(map(str, n.get("provisions") or []))): n for n in r.get("not_ruled") or []}

    bn, an = nr_keys(before), nr_keys(after)
    bt, at = penalty_totals(bf), penalty_totals(af)
    penalties = []
    for key in sorted(set(bt) | set(at), key=lambda k: tuple("" if x is None else x for x in k)):
        b = bt.get(key, {"amount": None, "count": 0})
        a = at.get(key, {"amount": None, "count": 0})
        if b == a:
            continue
        entry = {"player": key[0], "effect": key[1], "before": b["amount"], "after": a["amount"],
                 "count_before": b["count"], "count_after": a["count"]}
        if key[2] is not None:
            entry["against"] = key[2]
        if b["amount"] is not None or a["amount"] is not None:
            entry["change"] = (a["amount"] or 0) - (b["amount"] or 0)
        penalties.append(entry)
    out = {
        "findings_added": added,
        "findings_removed": removed,
        "findings_changed": changed,
        "findings_kept": len(kept),
        "not_ruled_added": [an[k] for k in sorted(set(an) - set(bn))],
        "not_ruled_removed": [bn[k] for k in sorted(set(bn) - set(an))],
        "penalties": penalties,
        "no_infraction": None,
    }
    if bool(before.get("no_infraction")) != bool(after.get("no_infraction")):
        out["no_infraction"] = {"before": bool(before.get("no_infraction")),
                                "after": bool(after.get("no_infraction"))}
    out["unchanged"] = not (added or removed or changed or out["not_ruled_added"]
                            or out["not_ruled_removed"] or penalties or out["no_infraction"])
    return out


# ---------------------------------------------------------------- the appeal

def _default_engine(game: str, root: Any = None):
    """The installed rulebook named ``game`` (never a path: a record naming ``/elsewhere`` or
    ``../x`` loads nothing) and a rule function on its engine."""
    try:
        from referee.expert.language.rulebook import list_games, load_rulebook
        from referee.expert.engine.ruler import Ruler
    except ImportError as exc:  # the engine is not there yet
        raise RefereeError(f"the rule engine is not available: {exc}") from None
    installed = list_games(root)
    if not isinstance(game, str) or game not in installed:
        raise RefereeError(f"the record's rulebook {str(game)[:60]!r} is not an installed rulebook, "
                           f"expected one of: {', '.join(installed) or 'none'}")
    rulebook = load_rulebook(game, root=root)

    def rule(answers, header, from_cards=None):
        return Ruler(rulebook).rule(answers, header, from_cards)

    return rulebook, rule


def load_original(ref: Any, register: Any = None) -> tuple[dict, int | None]:
    """The ruling to appeal, as the register holds it: by number or verification code, or as a
    record (dict or file) whose ruling is in the register, unchanged. Returns ``(record, id)``.

    A record file alone proves nothing: its code is a hash anyone can compute, so a fabricated
    "original" would hash to its own code. The register's sealed copy is what is appealed."""
    from referee.expert.records.record import diff_fields
    given = None
    if isinstance(ref, Mapping):
        given = dict(ref)
    elif isinstance(ref, os.PathLike) or (isinstance(ref, str) and os.path.isfile(ref)):
        given = load_record(ref)
    elif not isinstance(ref, (str, int)):
        raise RefereeError(f"cannot appeal {type(ref).__name__}: give a ruling number, a verification "
                           "code or a record file of a registered ruling")
    if given is not None:
        computed = compute_code(given)
        if str(given.get("code") or "") != computed:
            raise RefereeError(f"the record's content hashes to {format_code(computed)}, not to its "
                               f"code {str(given.get('code'))[:20]}: it was altered; run 'referee verify' on it")
    if register is None:
        raise RefereeError("an appeal needs the register that holds the original ruling "
                           "(--register or $REFEREE_REGISTER)")
    found = register.get(given["code"] if given is not None else ref)
    if found is None:
        if given is not None:
            raise RefereeError(f"the record's ruling {format_code(given['code'])} is not in the register "
                               f"{register.path}: an appeal starts from a registered ruling")
        raise RefereeError(f"no ruling {str(ref)[:40]} in the register {register.path} "
                           "(and no such record file)")
    rid, rec = found
    if given is not None:
        differ = diff_fields({k: v for k, v in rec.items() if k != "code"},
                             {k: v for k, v in given.items() if k != "code"})
        if differ:
            raise RefereeError(f"the record differs from ruling #{rid} in the register "
                               f"({', '.join(differ[:5])}): appeal the registered ruling ({rid})")
    if compute_code(rec) != rec.get("code"):
        raise RefereeError(f"ruling #{rid} in the register does not hash to its code: the register "
                           "was altered (run `referee register verify`)")
    return rec, rid


def _checked_answers(original: Mapping, rulebook: Any) -> None:
    """The original's answers, read like a case file's: every question known, every value allowed."""
    from referee.expert.language.model import Rulebook
    answers = original.get("answers")
    if not isinstance(answers, Mapping):
        raise RefereeError("the record's answers are not a mapping of question to value")
    if isinstance(rulebook, Rulebook):
        from referee.expert.language.answers import check_all
        try:
            check_all(dict(answers), rulebook)
        except RefereeError as exc:
            raise RefereeError(f"the record's answers do not fit the {rulebook.game} rulebook: "
                               f"{exc.message}") from None


def decide_appeal(original: Mapping, sets: Mapping[str, Any] | Iterable[str], *,
                  note: str | None = None, rulebook: Any = None,
                  rule: Callable[[dict, dict], Any] | None = None, root: Any = None,
                  referee: str | None = None, date: str | None = None,
                  now: str | None = None) -> dict:
    """The appeal decision record (sealed), not yet saved.

    ``sets``: parsed ``{question: value}`` or raw ``["Q=V", ...]``. ``rulebook``/``rule``:
    the rulebook and a ``rule(answers, header)`` function; by default the engine's
    ``load_rulebook(game)`` and ``Ruler(rulebook).rule``.
    """
    game = (original.get("rulebook") or {}).get("game")
    if rulebook is None or rule is None:
        rb, rl = _default_engine(game, root)
        rulebook = rulebook or rb
        rule = rule or rl
    _checked_answers(original, rulebook)
    if not isinstance(sets, Mapping):
        sets = parse_sets(list(sets), rulebook, original.get("answers") or {})
    else:
        questions = _questions(rulebook)
        unknown = [q for q in sets if questions and q not in questions]
        if unknown:
            raise RefereeError(f"no question {', '.join(unknown)} in the {game} rulebook")
    when = now or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    before_answers = dict(original.get("answers") or {})
    answers = dict(before_answers)
    amended = []
    for q, v in sets.items():
        old = before_answers.get(q)
        if v is None:
            answers.pop(q, None)
        else:
            answers[q] = v
        amended.append({"question": q, "before": old, "after": v,
                        "changed": old != v})
    from referee.expert.language.model import Rulebook
    if isinstance(rulebook, Rulebook):
        # an amended fact can close another question: its answer no longer counts, as at the table
        from referee.expert.interview.relevance import not_asked
        for q in not_asked(rulebook, answers):
            if q not in sets:
                amended.append({"question": q, "before": answers.pop(q), "after": None, "changed": True})
    header = dict(original.get("header") or {})
    # answers the cards gave stay marked as such, unless the committee amended them
    from_cards = {q: v for q, v in (original.get("from_cards") or {}).items()
                  if q not in sets and q in answers}
    ruling = rule(answers, header, from_cards) if from_cards else rule(answers, header)
    times = dict(original.get("answer_times") or {})
    for q in sets:
        times[q] = when
    for q in list(times):
        if q not in answers and q in before_answers:
            times.pop(q)  # the committee found it unanswered
    ident = rulebook_identity(rulebook)
    orig_rb = original.get("rulebook") or {}
    new = build_record(ruling, ident, answers=answers, answer_times=times,
                       cards=original.get("cards"),
                       referee=referee if referee is not None else original.get("referee"),
                       table=original.get("table"), deal=original.get("deal"),
                       date=date or when[:10], header=header, created=when)
    diff = differences(original, new)
    new["kind"] = "appeal"
    new["appeal_of"] = original["code"]
    new["appeal"] = {
        "note": note,
        "amended": amended,
        "original": {
            "code": original["code"],
            "date": original.get("date"),
            "referee": original.get("referee"),
            "rulebook": orig_rb,
            "answers": before_answers,
            "findings": original.get("findings") or [],
            "not_ruled": original.get("not_ruled") or [],
            "no_infraction": bool(original.get("no_infraction")),
        },
        "differences": diff,
        "rulebook_changed": (orig_rb.get("hash") != ident["hash"]
                             or str(orig_rb.get("edition")) != str(ident["edition"])),
    }
    return seal(new)


def file_appeal(ref: Any, sets: Mapping[str, Any] | Iterable[str], register: Any, *,
                note: str | None = None, rulebook: Any = None, rule: Callable | None = None,
                root: Any = None, referee: str | None = None, date: str | None = None,
                now: str | None = None) -> tuple[dict, int, int]:
    """Load the original (a registered ruling), decide the appeal, save the decision linked to
    it. Returns ``(decision, appeal id, original id)``."""
    original, oid = load_original(ref, register)
    decision = decide_appeal(original, sets, note=note, rulebook=rulebook, rule=rule, root=root,
                             referee=referee, date=date, now=now)
    aid = register.save_appeal(decision, original)
    return decision, aid, oid


# ---------------------------------------------------------------- plain-text print

def _txt(v: Any, lang: str = "en") -> str:
    if isinstance(v, Mapping):
        return str(v.get(lang) or v.get("en") or next(iter(v.values()), ""))
    return "" if v is None else str(v)


def _penalty_text(f: Mapping) -> str:
    parts = [f"{p.get('player')}: {p.get('effect')}"
             + ("" if p.get("amount") is None else f" {p.get('amount')}")
             + (f" against {p['against']}" if p.get("against") else "")
             for p in f.get("penalty") or []]
    off = f"offender {f['offender']}; " if f.get("offender") else ""
    return off + ("; ".join(parts) or "no penalty")


def _finding_text(f: Mapping) -> str:
    head = " · ".join(str(x) for x in (f.get("article"), f.get("kind")) if x)
    provs = ", ".join(f.get("provisions") or [])
    pen = "; ".join(f"{p.get('player')}: {p.get('effect')}"
                    + ("" if p.get("amount") is None else f" {p.get('amount')}")
                    + (f" against {p['against']}" if p.get("against") else "")
                    for p in f.get("penalty") or [])
    s = f"{head} [{provs}] {_txt(f.get('summary'))}".strip()
    return s + (f" — {pen}" if pen else "")


def _ruling_lines(findings, not_ruled, no_infraction) -> list[str]:
    lines = [f"  - {_finding_text(f)}" for f in findings]
    if no_infraction:
        lines.append("  - no infraction")
    if not findings and not no_infraction:
        lines.append("  - (no finding)")
    for n in not_ruled:
        lines.append(f"  - set aside [{', '.join(n.get('provisions') or [])}]: "
                     f"{_txt(n.get('reason'))}")
    return lines


def _val(v: Any) -> str:
    if v is None:
        return "(not answered)"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(map(str, v)) or "(none)"
    return str(v)


def _pen_value(amount: Any, count: int) -> str:
    if count == 0:
        return "none"
    if amount is None:
        return "imposed" if count == 1 else f"imposed {count}×"
    return str(amount)


def format_appeal(decision: Mapping) -> str:
    """The appeal decision as plain text (what ``referee appeal`` prints); what was typed (notes,
    names, answers) is shown on its line, control characters visible."""
    from referee.expert.language.safe_text import deep_clean
    decision = deep_clean(dict(decision))
    ap = decision.get("appeal") or {}
    orig = ap.get("original") or {}
    d = ap.get("differences") or {}
    out = [f"APPEAL DECISION {format_code(decision['code'])} on ruling "
           f"{format_code(orig.get('code') or decision.get('appeal_of'))} "
           f"({describe(decision).replace('appeal, ', '')})"]
    if ap.get("note"):
        out.append(f"Note: {ap['note']}")
    if ap.get("rulebook_changed"):
        out.append(f"Warning: the rulebook changed since the original ruling "
                   f"(edition {orig.get('rulebook', {}).get('edition')} → "
                   f"{decision['rulebook'].get('edition')}; knowledge files differ). "
                   "The new ruling applies the current rulebook.")
    out.append("Original ruling:")
    out += _ruling_lines(orig.get("findings") or [], orig.get("not_ruled") or [],
                         orig.get("no_infraction"))
    out.append("Amended facts:")
    for a in ap.get("amended") or []:
        mark = "" if a.get("changed") else " (unchanged)"
        out.append(f"  - {a['question']}: {_val(a.get('before'))} → {_val(a.get('after'))}{mark}")
    out.append("New ruling:")
    out += _ruling_lines(decision.get("findings") or [], decision.get("not_ruled") or [],
                         decision.get("no_infraction"))
    out.append("Differences:")
    if d.get("unchanged"):
        out.append("  - none: the amended facts do not change the ruling")
    for f in d.get("findings_added") or []:
        out.append(f"  + finding {_finding_text(f)}")
    for f in d.get("findings_removed") or []:
        out.append(f"  - finding {_finding_text(f)}")
    for c in d.get("findings_changed") or []:
        b, a = c["before"], c["after"]
        head = " · ".join(str(x) for x in (b.get("article"), b.get("kind")) if x)
        out.append(f"  ~ finding {head} [{', '.join(b.get('provisions') or [])}]: "
                   f"{_penalty_text(b)} → {_penalty_text(a)}")
    for n in d.get("not_ruled_added") or []:
        out.append(f"  + set aside [{', '.join(n.get('provisions') or [])}]")
    for n in d.get("not_ruled_removed") or []:
        out.append(f"  - no longer set aside [{', '.join(n.get('provisions') or [])}]")
    if d.get("no_infraction"):
        out.append(f"  ~ no infraction: {_val(d['no_infraction']['before'])} → "
                   f"{_val(d['no_infraction']['after'])}")
    for p in d.get("penalties") or []:
        ch = p.get("change")
        chs = "" if ch is None else f" ({'+' if ch > 0 else ''}{ch})"
        b = _pen_value(p["before"], p["count_before"])
        a = _pen_value(p["after"], p["count_after"])
        against = f" (against {p['against']})" if p.get("against") else ""
        out.append(f"  penalty {p['player']} {p['effect']}{against}: {b} → {a}{chs}")
    out.append(f"Verification code: {format_code(decision['code'])}")
    return "\n".join(out) + "\n"
