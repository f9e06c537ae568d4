"""Reference checks over a loaded rulebook: every id, value, effect and parameter resolves."""
from __future__ import annotations

from referee.expert.language import conditions as cond
from referee.expert.language.answers import allowed_values, check
from referee.expert.language.errors import RefereeError
from referee.expert.language.expressions import check_amount, check_seat_ref
from referee.expert.language.model import FINDING_KINDS, UNKNOWN, Rulebook, scope_ids, text
from referee.expert.language.problems import Problems
from referee.expert.language.qtypes import NUMBER_OPS, SET_OPS, VALUE_OPS, qtype
from referee.expert.language.finding_kinds import PENALTY_FREE_KINDS


def validate(book: Rulebook, problems: Problems) -> None:
    producers = {p.derive for p in book.productions if p.action == "derive"}
    for q in book.questions.values():
        _question(book, q, producers, problems)
        if q.from_earlier and q.from_earlier.get("seat") is not None:
            for msg in check_seat_ref(q.from_earlier["seat"], book, set()):
                problems.error(f"question {q.id!r}: from_earlier: {msg}", q.file, q.line)
    carried = {str(spec.get("question")) for p in book.productions
               for spec in (p.finding or {}).get("carries") or [] if isinstance(spec, dict)}
    for q in book.questions.values():
        if q.from_earlier is not None and q.id not in carried:
            problems.warning(f"question {q.id!r} is answered from earlier events, but no finding "
                             "carries it: it is never answered (add it to a finding's carries:)",
                             q.file, q.line, "dangling")
    seen: dict[str, object] = {}
    for p in book.productions:
        if p.id in seen:
            problems.error(f"production id {p.id!r} used twice", p.file, p.line)
        seen[p.id] = p
    for p in book.productions:
        _production(book, p, producers, set(seen), problems)
    for case in book.cases:
        _case(book, case, problems)
    _cards_map(book, problems)
    _effects(book, problems)
    _score(book, problems, producers)
    _parameters(book, problems)


def _is_text(value) -> bool:
    """A text: a string, or a mapping {lang: string}."""
    return isinstance(value, str) or (isinstance(value, dict) and bool(value) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()))


def _parameters(book: Rulebook, problems: Problems) -> None:
    """A parameter's description and source: a string, or a text per language {en: ..., sr: ...}."""
    file = str(book.root / "rulebook.yaml")
    for name, param in book.parameters.items():
        if not isinstance(param, dict):
            continue
        for key in ("description", "source"):
            if key in param and not _is_text(param[key]):
                problems.error(f"rulebook.yaml: parameter {name!r}: {key} {param[key]!r}, expected a "
                               "string or a text per language {en: ..., sr: ...}", file,
                               getattr(param, "line", None))


def _fact(q, problems: Problems) -> None:
    """fact: per language, {yes: ..., no: ...} for a yesno question, a label string otherwise."""
    if q.fact is None:
        return
    want = "{yes: ..., no: ...}" if q.type == "yesno" else "a label string"
    ok = isinstance(q.fact, dict) and bool(q.fact)
    for lang, v in (q.fact.items() if ok else ()):
        if q.type == "yesno":
            ok = ok and isinstance(v, dict) and set(v) == {"yes", "no"} and all(
                isinstance(x, str) and x.strip() for x in v.values())
        else:
            ok = ok and isinstance(v, str) and bool(v.strip())
    if not ok:
        problems.error(f"question {q.id!r}: fact {q.fact!r}, expected per language {want}, "
                       f"e.g. fact: {{en: {want}}}", q.file, q.line)


def _effects(book: Rulebook, problems: Problems) -> None:
    """An effect's unit: a word, or its forms [one, few, many], or either per language."""
    def words_ok(v) -> bool:
        return isinstance(v, str) or (isinstance(v, list) and bool(v) and all(isinstance(w, str) for w in v))

    file = str(book.root / "rulebook.yaml")
    for name, effect in book.effects.items():
        if not isinstance(effect, dict):
            problems.error(f"rulebook.yaml: effect {name!r} must be a mapping with a label", file)
            continue
        line = getattr(effect, "line", None)
        unit = effect.get("unit")
        if unit is not None and not (words_ok(unit) or (isinstance(unit, dict)
                                                         and all(words_ok(v) for v in unit.values()))):
            problems.error(f"rulebook.yaml: effect {name!r}: unit {unit!r}, expected a word, a list of "
                           "its forms [one, few, many], or either per language {en: ..., ru: ...}", file, line)
        against = effect.get("against")
        if against is not None and not (isinstance(against, dict) and all(
                isinstance(v, str) and v.count("{who}") == 1 and "{" not in v.replace("{who}", "")
                for v in against.values())):
            problems.error(f"rulebook.yaml: effect {name!r}: against {against!r}, expected per language a "
                           "phrase with {who} once, e.g. {en: 'to {who}', hu: '{who} javára'}", file, line)
        if "side" in effect and not isinstance(effect["side"], bool):
            problems.error(f"rulebook.yaml: effect {name!r}: side must be true or false", file, line)
        if "against_gains" in effect and not isinstance(effect["against_gains"], bool):
            problems.error(f"rulebook.yaml: effect {name!r}: against_gains must be true or false", file, line)
        scopes = effect.get("scopes")
        if scopes is not None and not (isinstance(scopes, list) and scopes and all(
                isinstance(s, dict) and isinstance(s.get("id"), str) and isinstance(s.get("label"), dict)
                for s in scopes)):
            problems.error(f"rulebook.yaml: effect {name!r}: scopes, expected a list of {{id, label}}, "
                           "narrowest first (how long the effect lasts)", file, line)
        for key in ("refused_by", "given_by", "governed_by"):
            # the articles that answer a request for an effect no penalty gives (engine/requests.py)
            ids = effect.get(key)
            if ids is not None and not (isinstance(ids, list) and all(str(i) in book.provisions for i in ids)):
                problems.error(f"rulebook.yaml: effect {name!r}: {key} {ids!r}, expected a list of the "
                               "rulebook's provision ids", file, line, "dangling")


def _cards_map(book: Rulebook, problems: Problems) -> None:
    file = str(book.root / "cards.yaml")
    for name, specs in book.cards_map.items():
        for spec in specs if isinstance(specs, list) else [specs]:
            if not isinstance(spec, dict) or "q" not in spec or not {"value", "add", "absent"} & set(spec):
                problems.error(f"cards.yaml: {name}: each spec needs q and one of value, add, absent",
                               file, getattr(spec, "line", None))
            elif spec["q"] not in book.questions:
                problems.error(f"cards.yaml: {name} answers unknown question {spec['q']!r}",
                               file, getattr(spec, "line", None), "dangling")


def _condition(book, c, file, line, problems, producers, owner):
    if c is None:
        return
    for lit in cond.literals(c):
        if isinstance(lit, cond.FactTest) and lit.name not in producers:
            problems.error(f"{owner} reads fact {lit.name!r}, which no production derives",
                           file, line, "dangling")
        if not isinstance(lit, cond.AnswerTest):
            continue
        q = book.questions.get(lit.question)
        if q is None:
            problems.error(f"{owner} reads unknown question {lit.question!r}", file, line, "dangling")
            continue
        qt = qtype(q)
        if not qt.operators:
            problems.error(f"{owner} reads text question {q.id!r}; text is never a condition", file, line)
        elif lit.op not in qt.operators:
            # say what would be right, in the words of the operator misused
            if lit.op in SET_OPS:
                problems.error(f"{owner}: '{lit.op}' on {q.id!r} needs a multi or order question", file, line)
            elif lit.op in NUMBER_OPS and lit.op not in VALUE_OPS:
                problems.error(f"{owner}: '{lit.op}' on {q.id!r} needs a number question", file, line)
            else:
                problems.error(f"{owner}: use 'has' to test a {q.type} answer ({q.id!r})", file, line)
        elif lit.op in ("is", "in", "has") and qt.allowed(q, book) is not None:
            values = lit.value if lit.op == "in" else (lit.value,)
            allowed = qt.allowed(q, book)
            for v in values:
                if v not in allowed:
                    problems.error(f"{owner} tests {q.id!r} for {v!r}, which that question does "
                                   f"not allow (allowed: {', '.join(map(str, allowed))})",
                                   file, line, "dangling")


def _question(book, q, producers, problems):
    if not q.text.get("en"):
        problems.error(f"question {q.id!r} has no English text", q.file, q.line)
    if book.language != "en" and not q.text.get(book.language):
        problems.warning(f"question {q.id!r} has no {book.language} text", q.file, q.line)
    if q.type in ("choice", "multi") and not q.values:
        problems.error(f"question {q.id!r} ({q.type}) needs values", q.file, q.line)
    if q.type == "order" and not q.values and q.values_from not in book.questions:
        problems.error(f"question {q.id!r} (order) needs values or values_from a known question",
                       q.file, q.line)
    if q.type == "cards" and q.values_from is not None and (
            q.values_from not in book.questions or book.questions[q.values_from].type != "number"):
        problems.error(f"question {q.id!r} (cards): values_from names the number question of how "
                       f"many cards, got {q.values_from!r}", q.file, q.line)
    _fact(q, problems)
    for s in q.seats or []:
        if s not in book.seat_ids:
            problems.error(f"question {q.id!r} names unknown seat {s!r}", q.file, q.line)
    if UNKNOWN in [str(v) for v in q.allowed()]:
        problems.error(f"question {q.id!r} offers the value {UNKNOWN!r}, which every question "
                       "already accepts for a fact nobody can establish; name the value otherwise",
                       q.file, q.line)
    if q.unknown is not None:
        try:
            check(q, q.unknown["value"], book)
        except RefereeError as exc:
            problems.error(f"question {q.id!r}: unknown value: {exc.message}", q.file, q.line)
        for c in q.unknown.get("cites") or []:
            if c not in book.provisions:
                problems.error(f"question {q.id!r}: unknown cites {c!r}, which is not encoded",
                               q.file, q.line, "dangling")
        if not q.unknown.get("cites"):
            problems.error(f"question {q.id!r}: a default for an unknown answer must cite the provision "
                           "that prescribes it (burden of proof, benefit of the doubt)", q.file, q.line)
    _condition(book, q.when, q.file, q.line, problems, producers, f"question {q.id!r}")
    for rule in q.impossible:
        owner = f"question {q.id!r}: an impossible combination"
        _condition(book, rule["when"], rule["file"], rule["line"], problems, producers, owner)
        if cond.facts_read(rule["when"]) or cond.reads_findings(rule["when"]):
            problems.error(f"{owner} reads facts or findings; it names answers only", rule["file"], rule["line"])
        if not _is_text(rule["why"]) or not text(rule["why"], "en") or (
                book.language != "en" and not (isinstance(rule["why"], dict) and rule["why"].get(book.language))):
            problems.error(f"{owner}: why must say in English and in {book.language} why the source text "
                           "rules it out", rule["file"], rule["line"])
        for c in rule["cites"]:
            if c not in book.provisions:
                problems.error(f"{owner} cites {c!r}, which is not encoded", rule["file"], rule["line"], "dangling")


def _production(book: Rulebook, p, producers, ids, problems):
    owner = f"production {p.id!r}"
    for c in p.cites:
        if c not in book.provisions:
            problems.error(f"{owner} cites {c!r}, which no article file of {book.game} encodes",
                           p.file, p.line, "dangling")
    _condition(book, p.when, p.file, p.line, problems, producers, owner)
    for o in p.overrides:
        if o not in ids:
            problems.error(f"{owner} overrides unknown production {o!r}", p.file, p.line, "dangling")
    if p.action == "keep_first":
        q = book.questions.get(p.keep_first)
        if q is None or q.type != "order":
            problems.error(f"{owner}: keep_first needs an order question, got {p.keep_first!r}",
                           p.file, p.line)
        for key in ("among", "except", "later"):
            for other in getattr(p, f"keep_first_{key}") or []:
                if other not in ids or book.production(other).action != "finding":
                    problems.error(f"{owner}: keep_first {key} names {other!r}, expected a production "
                                   "that makes a finding", p.file, p.line, "dangling")
    if p.action != "finding":
        return
    f = p.finding
    if f.get("kind") not in FINDING_KINDS:
        problems.error(f"{owner}: finding kind {f.get('kind')!r}, expected one of "
                       f"{', '.join(FINDING_KINDS)}", p.file, p.line)
    if not (f.get("summary") or {}).get("en") if isinstance(f.get("summary"), dict) else not f.get("summary"):
        problems.error(f"{owner}: finding needs an English summary", p.file, p.line)
    reads: set[str] = set()
    msgs = []
    if f.get("offender") is not None:
        msgs += check_seat_ref(f["offender"], book, reads)
    penalty = f.get("penalty") or []
    if not isinstance(penalty, list):
        msgs.append("penalty must be a list of {player, effect, amount}")
        penalty = []
    for entry in penalty:
        if not isinstance(entry, dict) or not {"player", "effect"} <= set(entry):
            msgs.append(f"penalty entry {entry!r} needs player and effect")
            continue
        msgs += check_seat_ref(entry["player"], book, reads)
        if entry.get("against") is not None:
            msgs += check_seat_ref(entry["against"], book, reads)
        if entry["effect"] not in book.effects:
            msgs.append(f"unknown effect {entry['effect']!r}, expected one of "
                        f"{', '.join(book.effects)} (rulebook.yaml effects)")
        msgs += check_amount(entry.get("amount"), book, reads)
        if entry.get("cards") is not None:
            msgs += _check_cards_ref(entry["cards"], book, reads, "penalty cards")
        if entry.get("scope") is not None and entry["scope"] not in scope_ids(book, entry["effect"]):
            msgs.append(f"penalty scope {entry['scope']!r}, expected one of the scopes of effect "
                        f"{entry['effect']!r}: {', '.join(scope_ids(book, entry['effect'])) or 'none declared'}")
    fill = f.get("fill") or {}
    if not isinstance(fill, dict):
        msgs.append("fill must map placeholder names to {answer: Q, then: TEXT, else: TEXT}")
        fill = {}
    for name, spec in fill.items():
        if not isinstance(spec, dict) or set(spec) != {"answer", "then", "else"}:
            msgs.append(f"fill {name!r}: expected {{answer: Q, then: TEXT, else: TEXT}}")
            continue
        msgs += _check_cards_ref({"answer": spec["answer"]}, book, reads, f"fill {name!r}")
        texts = [f.get("summary")] + list(f.get("orders") or [])
        if not any(("{" + str(name) + "}") in str(t) for t in texts):
            msgs.append(f"fill {name!r}: no summary or order holds {{{name}}}")
    if f.get("kind") == "violation" and not penalty:
        msgs.append("a violation finding needs a penalty; use violation-no-penalty when the "
                    "articles prescribe none")
    if f.get("kind") in PENALTY_FREE_KINDS and penalty:
        msgs.append(f"a {f['kind']} finding carries a penalty, but it establishes no infraction "
                    "(no violation, a claim lost, or the rules do not decide): drop the penalty, or "
                    "use violation, rectification or settlement")
    for spec in f.get("carries") or []:
        # what the finding establishes for the events after its own (engine/carried.py)
        q = book.questions.get(str(spec.get("question"))) if isinstance(spec, dict) else None
        if q is None or q.from_earlier is None:
            msgs.append(f"carries {spec!r}: expected {{question: Q, seat: REF}} naming a question "
                        "marked from_earlier")
            continue
        if (spec.get("seat") is None) != (q.from_earlier.get("seat") is None):
            msgs.append(f"carries {q.id!r}: give a seat exactly when the question's from_earlier "
                        "names one")
        elif spec.get("seat") is not None:
            msgs += check_seat_ref(spec["seat"], book, reads)
    for order in f.get("orders") or []:
        # an instruction given only when a condition on the answers holds (not on derived facts:
        # it is read on the answers alone, as the score sheet's play rules are)
        if isinstance(order, dict) and "when" in order:
            try:
                test = cond.parse(order["when"], p.file)
            except RefereeError as exc:
                msgs.append(f"order: {exc}")
                continue
            if any(not isinstance(lit, cond.AnswerTest) for lit in cond.literals(test)):
                msgs.append("an order's when: reads answers only (no fact, no findings)")
            _condition(book, test, p.file, p.line, problems, producers, f"{owner} order")
    for m in msgs:
        problems.error(f"{owner}: {m}", p.file, p.line)


def _case(book: Rulebook, case, problems):
    owner = f"case {case.name!r}"
    for qid, value in case.answers.items():
        q = book.questions.get(str(qid))
        if q is None:
            problems.error(f"{owner}: unknown question {qid!r}", case.file, case.line, "dangling")
            continue
        try:
            check(q, value, book, case.answers)
        except RefereeError as exc:
            problems.error(f"{owner}: {exc.message}", case.file, case.line)
    # no referee could give answers the source text rules out together (questions' impossible:)
    from referee.expert.language.exclusions import check_dispute
    impossible = check_dispute(book, case.answers, [e for e in case.events or [] if isinstance(e, dict)])
    if impossible is not None:
        problems.error(f"{owner}: {impossible[1]}", case.file, case.line)
    expect = case.expect
    unknown = set(expect) - {"findings", "not_ruled", "not_applied", "no_infraction", "alternatives", "requests",
                             "unknown", "result"}
    if unknown:
        problems.error(f"{owner}: expect has unknown keys {sorted(unknown)}", case.file, case.line)
    for result in [expect.get("result")] + [a.get("result") for a in expect.get("alternatives") or []
                                            if isinstance(a, dict)]:
        if result is None:
            continue
        if not isinstance(result, dict) or not result or set(result) - {"text", "entries"}:
            problems.error(f"{owner}: expect result must be a mapping with text and/or entries", case.file, case.line)
            continue
        for entry in result.get("entries") or []:
            if not isinstance(entry, dict) or not {"player", "item", "amount"} <= set(entry):
                problems.error(f"{owner}: expected result entry {entry!r} needs player, item, amount",
                               case.file, case.line)
    ids = []
    for f in expect.get("findings") or []:
        if not isinstance(f, dict) or "provisions" not in f:
            problems.error(f"{owner}: each expected finding needs provisions", case.file, case.line)
            continue
        ids += f["provisions"]
        if "kind" in f and f["kind"] not in FINDING_KINDS:
            problems.error(f"{owner}: expected finding kind {f['kind']!r}, expected one of "
                           f"{', '.join(FINDING_KINDS)}", case.file, case.line)
        for entry in f.get("penalty") or []:
            if not isinstance(entry, dict) or not {"player", "effect"} <= set(entry):
                problems.error(f"{owner}: expected penalty entry {entry!r} needs player, effect",
                               case.file, case.line)
    ids += list(expect.get("not_ruled") or []) + list(expect.get("not_applied") or [])
    for pid in ids:
        if pid not in book.provisions:
            problems.error(f"{owner}: expects unknown provision {pid!r}", case.file, case.line, "dangling")


def _score(book: Rulebook, problems: Problems, producers) -> None:
    """rulebook.yaml `score:`: the score sheet's items, how each effect is written on it, and the
    deal's own entries (`play`) when no standing finding settles the result."""
    score = book.score
    if not score:
        return
    file = str(book.root / "rulebook.yaml")
    line = getattr(score, "line", None)
    unknown = set(score) - {"items", "effects", "play", "description", "booked"}
    if unknown:
        problems.error(f"rulebook.yaml: score: unknown keys {sorted(unknown)}, expected items, effects, play, booked",
                       file, line)
    if score.get("booked") is not None:
        # when the deal's points were already on the sheet as the claim was raised
        try:
            test = cond.parse(score["booked"], file)
        except RefereeError as exc:
            problems.error(exc.message, exc.file, exc.line)
        else:
            _condition(book, test, file, getattr(score["booked"], "line", line), problems, producers,
                       "score booked")
    items = []
    for node in score.get("items") or []:
        if not isinstance(node, dict) or "id" not in node or "label" not in node:
            problems.error("rulebook.yaml: score item needs id and label", file, getattr(node, "line", line))
            continue
        if node.get("per", "player") not in ("player", "side"):
            problems.error(f"rulebook.yaml: score item {node['id']!r}: per must be player or side", file,
                           getattr(node, "line", line))
        if not isinstance(node.get("signed", True), bool):
            problems.error(f"rulebook.yaml: score item {node['id']!r}: signed must be true or false", file,
                           getattr(node, "line", line))
        items.append(node["id"])
    for name, specs in (score.get("effects") or {}).items():
        where = getattr(specs, "line", line)
        if name not in book.effects:
            problems.error(f"rulebook.yaml: score effects: unknown effect {name!r}", file, where, "dangling")
        # one entry (a mapping) or several (a list of them: a payment written for payer and payee)
        for spec in (specs if isinstance(specs, list) and specs else [specs]):
            _score_effect(book, name, spec, items, file, getattr(spec, "line", where), problems)
    for rule in score.get("play") or []:
        where = getattr(rule, "line", line)
        if not isinstance(rule, dict) or "entries" not in rule:
            problems.error("rulebook.yaml: score play: each rule needs entries (and an optional when)", file, where)
            continue
        for key in ("when", "ask_when"):
            if rule.get(key) is None:
                continue
            try:
                test = cond.parse(rule[key], file)
            except RefereeError as exc:
                problems.error(exc.message, exc.file, exc.line)
            else:
                _condition(book, test, file, where, problems, producers, "score play rule")
        for entry in rule.get("entries") or []:
            reads = set()
            if not isinstance(entry, dict) or not {"player", "item", "amount"} <= set(entry):
                problems.error("rulebook.yaml: score play entry needs player, item, amount", file, where)
                continue
            msgs = check_seat_ref(entry["player"], book, reads) + check_amount(entry["amount"], book, reads)
            if entry.get("against") is not None:
                msgs += check_seat_ref(entry["against"], book, reads)
            if entry["item"] not in items:
                msgs.append(f"unknown score item {entry['item']!r}")
            for m in msgs:
                problems.error(f"rulebook.yaml: score play: {m}", file, getattr(entry, "line", where))


def _score_effect(book: Rulebook, name: str, spec, items: list, file: str, where, problems: Problems) -> None:
    """One way an effect is written on the score sheet (rulebook.yaml `score: effects:`)."""
    if isinstance(spec, dict) and "scores_as" in spec:
        _scores_as(book, name, spec, file, where, problems)
        return
    if not isinstance(spec, dict) or spec.get("item") not in items:
        problems.error(f"rulebook.yaml: score effects: {name!r} needs item: one of {', '.join(items)} "
                       "(or a list of such entries)", file, where)
        return
    keys = {"item", "sign", "amount", "per_unit", "player", "against", "settles"}
    if set(spec) - keys:
        problems.error(f"rulebook.yaml: score effects: {name!r}: unknown keys {sorted(set(spec) - keys)}",
                       file, where)
    reads: set[str] = set()
    msgs = check_amount(spec.get("amount"), book, reads) if "amount" in spec else []
    if "per_unit" in spec:
        msgs += check_amount(spec["per_unit"], book, reads)
        if "amount" in spec:
            msgs.append("give amount or per_unit, not both")
    for key in ("player", "against"):
        if spec.get(key) is not None and spec[key] not in ("line", "against", "none", "player"):
            msgs += check_seat_ref(spec[key], book, reads)
    for m in msgs:
        problems.error(f"rulebook.yaml: score effects: {name!r}: {m}", file, where)


def _scores_as(book: Rulebook, name: str, spec: dict, file: str, where, problems: Problems) -> None:
    """`{scores_as: {QUESTION: VALUE}}`: the deal is scored as played with these answers replaced."""
    if set(spec) != {"scores_as"} or not isinstance(spec["scores_as"], dict) or not spec["scores_as"]:
        problems.error(f"rulebook.yaml: score effects: {name!r}: scores_as stands alone, a mapping of "
                       "question ids to values", file, where)
        return
    for qid, value in spec["scores_as"].items():
        q = book.questions.get(qid)
        allowed = q.allowed() if q is not None else []
        if q is None:
            problems.error(f"rulebook.yaml: score effects: {name!r}: scores_as: unknown question {qid!r}",
                           file, where, "dangling")
        elif allowed and value not in allowed:
            problems.error(f"rulebook.yaml: score effects: {name!r}: scores_as: {value!r} is not a value of "
                           f"{qid!r}, expected one of {', '.join(map(str, allowed))}", file, where)


def _check_cards_ref(ref, book, reads: set[str], what: str) -> list[str]:
    """{answer: Q} naming a question whose answer is recorded words or cards (read, not tested)."""
    if not isinstance(ref, dict) or set(ref) != {"answer"}:
        return [f"{what}: expected {{answer: Q}}, got {ref!r}"]
    q = book.questions.get(str(ref["answer"]))
    if q is None:
        return [f"{what} reads unknown question {ref['answer']!r}"]
    reads.add(q.id)
    return [] if q.type == "cards" else [f"{what} reads {q.id!r}, which is not a cards question"]
