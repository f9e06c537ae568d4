"""What each party asked for, answered from the ruling: granted, refused or undecided, with the
findings or set-asides that decide it.

A request is one of the outcomes a ruling can give: ``upheld`` (an infraction established against
the other side), ``rejected`` (none established against the party), ``effect:<name>`` (one of
the rulebook's effects: a penalty card, tricks transferred, a game scored as lost),
``provision:<id>`` (an article applied), or ``other`` (free text, with the article invoked when
the party named one).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.expert.engine.result import compute as compute_result
from referee.expert.engine.result import sheet_entry
from referee.expert.engine.result import side_id, specs_of
from referee.expert.engine.verdict import FindingOut, RequestAnswer, Ruling, why_not_examined
from referee.expert.language.dispute import Request
from referee.expert.language.finding_kinds import kind as kind_of
from referee.expert.language.model import INFRACTION_KINDS, Rulebook, scope_ids, scope_label


@dataclass
class Basis:
    """Why a request is answered so: a cause and the findings/set-asides behind it."""
    cause: str            # granted | not-given | own-infraction | settled | set-aside | not-met | undecided |
                          # no-article | less (granted, but less than asked) | changed (the result does not stand) |
                          # scope (granted, but for less time than asked) | part | depends | later (not ruled on:
                          # committed after the violation ruled on first, preferans Član 22)
    findings: list = field(default_factory=list)      # FindingOut or NotRuled
    given: object = None  # less: what the rules give
    contrary: list = field(default_factory=list)      # part: (finding, line) going the other way
    articles: list = field(default_factory=list)      # the articles cited, where not the findings'


def side_of(book: Rulebook, seat: str) -> set[str]:
    for pair in book.partnerships:
        if seat in pair:
            return set(pair)
    return {seat}


def fixed_sides(book: Rulebook) -> bool:
    """Every seat plays in a partnership for the whole session (bridge): a penalty on one
    partner is a penalty on the side. Where sides form per deal (ulti's and skat's defenders)
    or not at all (preferans), a player answers for his own acts: the innocent partner of an
    offender "stays at zero" (ulti: "a védőtárs nullán marad")."""
    paired = {s for pair in book.partnerships for s in pair}
    return bool(paired) and set(book.seat_ids) <= paired


def own_of(book: Rulebook, seat: str) -> set[str]:
    """Whose penalties are the player's own: his side's where sides are fixed, else his."""
    return side_of(book, seat) if fixed_sides(book) else {seat}


def answer_request(ruling: Ruling, request: Request) -> RequestAnswer:
    """The request answered from the findings of the event it concerns (all of them when it names
    none, or the dispute has one event). Where that event's findings do not give it and another
    event's do, it is granted by that event, and the answer says so (blind walk 8: asked about a
    dropped card, 'game over' was refused with 'no article applied gives this' although the
    cards thrown open in the next event had ended the game)."""
    k = _event_of(ruling, request)
    if k is None:
        return _answer(ruling, request)
    own = _answer(_on_event(ruling, k), request)
    if own.answer == "granted":
        return replace(own, event=k + 1)
    later = _not_examined(ruling, k) if own.answer == "refused" and own.cause in ("not-met", "not-given") else None
    if later is not None:
        # the event's claims were not examined at all: an earlier violation is the one ruled on
        # (preferans Član 22), which answers the request, not the conditions of an article
        first, rule, cites = later
        return replace(own, event=k + 1, cause="later", articles=[rule], provisions=list(cites), first=first,
                       reason={"en": f"refused: not ruled on: raised after the violation under {first}; "
                                     f"{rule} rules only on the one committed first"})
    # what the other events' findings answer, where they speak to it at all (an article that
    # merely does not give it is no answer worth repeating)
    others = [replace(o, event=j + 1) for j in range(len(ruling.events)) if j != k
              for o in [_answer(_on_event(ruling, j), request)]
              if o.cause not in ("not-given", "not-met", "no-article") or o.answer == "granted"]
    given = next((o for o in others if o.answer == "granted"), None)
    if given is not None:
        reason = (f"granted by event {given.event}, not by event {k + 1} it concerns: "
                  f"{given.reason['en'].removeprefix('granted: ')}; on event {k + 1}: {own.reason['en']}")
        return replace(given, cause="other-event", by_event=given.event, event=k + 1, reason={"en": reason},
                       contrary=[])
    if others:
        # another event's finding that falls on another player than the one asked about (his
        # partner's infraction, the effect given on someone else) is no refusal of the party: it
        # is said as what that other event gives, and on whom (blind walk 9, B2: "event 2:
        # refused -- the rules give it on another player" read as West refused over East's card)
        others = [_on_another(ruling, request, o) if o.cause in ELSEWHERE_ON else o for o in others]
        reason = own.reason["en"] + "".join(
            f"; event {o.event} is {o.reason['en']}" if o.falls_on is not None
            else f"; on event {o.event}: {o.reason['en']}" for o in others)
        return replace(own, event=k + 1, elsewhere=others, reason={"en": reason})
    return replace(own, event=k + 1)


# the causes by which another event's finding answers a request only by falling on another
# player than the one the request is about: said as what that event gives, on whom
ELSEWHERE_ON = ("own-infraction", "other-player", "settled")


def _on_another(ruling: Ruling, request: Request, other: RequestAnswer) -> RequestAnswer:
    """Another event's answer said as what that event gives and on whom."""
    seats = _falls_on(ruling, request, other.event - 1)
    return replace(other, falls_on=seats, reason={"en": f"another matter: given there on "
                                                        f"{', '.join(seats) or 'another player'} "
                                                        f"({'; '.join(other.articles)})"})


def _falls_on(ruling: Ruling, request: Request, k: int) -> list[str]:
    """The players on whom event ``k``'s findings put what the request asks: for an effect,
    whom its lines burden (tricks FROM a side, a payment BY a player), else the offenders."""
    kind, _, name = request.asks.partition(":")
    seats: list[str] = []
    for f in ruling.findings:
        if f.event != k or f.kind == "undecided":
            continue
        if kind == "effect":
            seats += [_burdened(ruling.book, p) for p in f.penalty if p.effect == name]
        elif f.offender:
            seats.append(f.offender)
    return list(dict.fromkeys(s for s in seats if s))


def _event_of(ruling: Ruling, request: Request) -> int | None:
    """The event the request concerns, counted from 0; None: the whole dispute (it names none,
    or there is one event)."""
    if request.event is None or len(ruling.events or []) < 2 or request.event > len(ruling.events):
        return None
    return request.event - 1


def _on_event(ruling: Ruling, k: int) -> Ruling:
    """The ruling as far as event ``k`` goes: its findings and what was set aside in it."""
    return replace(ruling, findings=[f for f in ruling.findings if f.event == k],
                   not_ruled=[n for n in ruling.not_ruled if n.event == k])


def _not_examined(ruling: Ruling, k: int) -> tuple | None:
    """(first article, rule article, rule's provisions) when event ``k`` has no finding of its own
    and its claims were not examined because an earlier event's violation is ruled on first."""
    if k == 0 or any(f.event == k for f in ruling.findings):
        return None
    claims = (ruling.events[k] if ruling.events and k < len(ruling.events) else {}).get("claim") or []
    for c in claims if isinstance(claims, list) else [claims]:
        why = why_not_examined(ruling, c, k)
        if why and why[0] == "later":
            kp = next((p for p in ruling.book.productions if p.action == "keep_first"), None)
            return why[1], why[2], (kp.cites if kp else [])
    return None


def _answer(ruling: Ruling, request: Request) -> RequestAnswer:
    answer, basis = decide(ruling, request)
    provisions: list[str] = []
    articles: list[str] = list(basis.articles)
    for f in basis.findings:
        # a claim not examined (committed after the violation ruled on first): the article that
        # says so (preferans Član 22) answers it, not the one the claim invoked
        later = basis.cause == "later"
        provisions += [p for p in (f.by_provisions if later else f.provisions) if p not in provisions]
        article = f.winner_article if later else f.article
        if not basis.articles and article not in articles:
            articles.append(article)
    return RequestAnswer(party=request.party, request=request.asks, answer=answer,
                         provisions=provisions, reason={"en": english_reason(ruling, request, answer, basis)},
                         text=request.text, cause=basis.cause, articles=articles, provision=request.provision,
                         on=request.on, amount=request.amount, given=basis.given, scope=request.scope,
                         contrary=[(f.article, line) for f, line in basis.contrary],
                         no_violation=basis.cause == "not-given" and bool(basis.findings) and not basis.articles
                         and all(f.kind == "no-violation" for f in basis.findings),
                         governed=bool(basis.articles))


def decide(ruling: Ruling, request: Request) -> tuple[str, Basis]:
    book = ruling.book
    ours = side_of(book, request.party)
    standing = ruling.findings
    against_them = [f for f in standing if f.kind in INFRACTION_KINDS and f.offender not in ours]
    against_us = [f for f in standing if f.kind in INFRACTION_KINDS and f.offender in ours]
    # a settlement (no irregularity: bridge's award on a contested claim) decides for or against
    # a side as an infraction would: by whom its effects burden
    for f in standing:
        if f.kind == "settlement" and f.penalty:
            burdened = {_burdened(book, p) for p in f.penalty}
            if burdened & ours:
                against_us.append(f)
            if burdened - ours:
                against_them.append(f)
    undecided = [f for f in standing if f.kind == "undecided"]
    # an open point leaves a request open only where it could go against the party asked about:
    # an undecided measure on the party's own act cannot uphold his claim, nor one on the other
    # side's act reject it
    open_theirs = [f for f in undecided if f.offender is None or f.offender not in ours]
    open_ours = [f for f in undecided if f.offender is None or f.offender in ours]
    kind, _, name = request.asks.partition(":")
    if request.asks == "upheld":
        if against_them:
            return "granted", Basis("granted", against_them)
        if open_theirs:
            return "undecided", Basis("undecided", open_theirs)
        # the claim was not examined: committed after the violation ruled on first (preferans
        # Član 22); said so, not as conditions unmet (blind walk 8, P2)
        later = [n for n in ruling.not_ruled if n.cause == "later"]
        if later and not _deciding(standing):
            return "refused", Basis("later", later)
        return "refused", Basis("not-met", _deciding(standing))
    if request.asks == "rejected":
        if against_us:
            # a settlement is no infraction: the rules settle the deal against the side
            settled = all(f.kind == "settlement" for f in against_us)
            return "refused", Basis("settled" if settled else "own-infraction", against_us)
        if open_ours:
            return "undecided", Basis("undecided", open_ours)
        return "granted", Basis("granted", [f for f in _deciding(standing) if f.kind not in INFRACTION_KINDS])
    if request.asks == "no-penalty":
        own = own_of(book, request.party)
        burdened = [f for f in against_us if f.penalty and f.offender in own]
        if burdened:
            return "refused", Basis("own-infraction", burdened)
        open_own = [f for f in undecided if f.offender in own]
        if open_own:
            return "undecided", Basis("undecided", open_own)
        decided = _deciding(standing)
        return "granted", Basis("granted", [f for f in decided if f.offender in ours] or decided)
    if request.asks == "stands":
        return _stands(ruling, request, standing, undecided)
    if kind == "effect":
        return _effect(ruling, request, name, ours, standing, undecided)
    pid = name if kind == "provision" else request.provision
    if pid:
        answer, basis = _provision(ruling, pid, ours)
        # a penalty article invoked against the other side, not applied, while the measure on
        # the other side's act is left open (preferans Član 21: the measures of Član 24 are cut
        # off): the open finding decides, not the conditions of the article invoked
        prov = book.provisions.get(pid)
        if answer == "refused" and basis.cause == "not-met" and prov is not None and prov.penalty_bearing:
            open_measure = [f for f in open_theirs if f.offender is not None]
            if open_measure:
                return "undecided", Basis("undecided", open_measure)
        return answer, basis
    # in his own words, naming no article: open, with what the decision gives beside it, so the
    # referee sees whether it answers him (a free-text request is never refused unread)
    return "undecided", Basis("no-article", _deciding(standing))


def _effect(ruling: Ruling, request: Request, name: str, ours: set[str], standing: list,
            undecided: list) -> tuple[str, Basis]:
    """An effect asked for: on a named player when the request says (``on``), else on the other
    side; as much as asked when the request says (``amount``). Answered from what the score
    sheet shows: a penalty written on the sheet as the effect asked for (preferans: tricks
    charged, "written as supe", asked for as supe) gives it, in the sheet's own amounts."""
    book = ruling.book
    target = side_of(book, request.on) if request.on else None
    lines = [(f, row) for f in standing for p in f.penalty for row in _rows(ruling, f, p, name)]
    gains = bool((book.effects.get(name) or {}).get("against_gains"))
    if target is None and gains:
        # asked for without naming the payer: a payment TO the party's side from the other side
        hits = [(f, p) for f, p in lines if p.against in ours and p.player not in ours]
    elif target is not None:
        # "on" names whom the effect falls on: the player it is written for, or the one it is
        # written against where that one bears it (tricks transferred FROM the offender, supe
        # written ON the declarer) -- not where he gains by it (ulti: paid TO him)
        hits = [(f, p) for f, p in lines
                if (p.player in target and (not gains or p.against in ours or p.player in ours))
                or (p.against and p.against in target and not gains)]
    else:
        hits = [(f, p) for f, p in lines if f.offender not in ours]
    if hits:
        found = _unique(f for f, _ in hits)
        # the amount asked is what the party himself receives where he is paid (ulti: each
        # defender is paid his own share); the other payees' shares do not make up his
        own = [(f, p) for f, p in hits if gains and p.against == request.party]
        rows = [p for _, p in (own or hits)]
        if request.scope is not None:
            # how long it lasts, as asked: a line giving it for less time (bridge 30B1: at the
            # next turn only, asked for the whole auction) gives less than asked; a line that
            # says no scope is not compared
            order = scope_ids(book, name)
            given = [r.line.scope for r in rows if getattr(r.line, "scope", None) in order]
            if given and request.scope in order:
                widest = max(given, key=order.index)
                if order.index(widest) < order.index(request.scope):
                    return "refused", Basis("scope", found, given=widest)
        if request.amount is not None:
            totals = _totals_by_option(rows)
            if totals is not None:
                short = [t for t in totals.values() if _short_of(t, request.amount)]
                if len(short) == len(totals):
                    # the least the rules give, said as the sheet would write it: the effect is
                    # given, but less of it than asked -- granted in part (blind walk 8, s1: the
                    # game won without the schneider asked, 24 of 36, read "refused"); nothing of
                    # it (0, or the other way) refuses it
                    given = _shown_total(totals)
                    if _some_of(given, request.amount):
                        return "granted", Basis("less", found, given=given)
                    return "refused", Basis("less", found, given=given)
                if short:
                    # enough under some value of the open fact, too little under another
                    return "undecided", Basis("depends", found, given=_shown_total(totals))
        contrary = _contrary(ruling, name, ours, found, standing, {id(p.line) for _, p in hits})
        if contrary:
            return "granted", Basis("part", found, contrary=contrary)
        return "granted", Basis("granted", found)
    # an effect no penalty gives, answered by the articles its rulebook names (bridge 'the play
    # continues': a claim is decided by the Director on the claimer's statement, 70C-E, so any
    # claim finding refuses it; 48A lets play continue): rulebook.yaml refused_by / given_by
    spec = book.effects.get(name) or {}
    refusing = [f for f in standing if set(f.provisions) & set(spec.get("refused_by") or ())]
    if refusing:
        return "refused", Basis("not-given", refusing)
    giving = [f for f in standing if f.kind != "undecided" and set(f.provisions) & set(spec.get("given_by") or ())]
    if giving:
        return "granted", Basis("granted", giving)
    if lines and target is None and not gains:
        return "refused", Basis("own-infraction", _unique(f for f, _ in lines))
    # only an event nothing decided leaves the request open, or a point left undecided on the
    # very matter that gives the effect (bridge: Law 26 undecided, a lead restriction asked);
    # elsewhere the decided findings answer it
    decided_events = {f.event for f in standing if f.kind != "undecided"}
    # ... and, where the request names whom the effect falls on, only an open measure on him
    open_ = [f for f in undecided if (f.event not in decided_events or _could_give(book, f, name))
             and (target is None or f.offender is None or f.offender in target)]
    if open_:
        return "undecided", Basis("undecided", open_)
    # the findings write the effect, but on another player than the one named (skat: the game
    # ended by an opponent's open play, asked as ending against the soloist)
    writing = [f for f in _deciding(standing) if any(p.effect == name for p in f.penalty)]
    if writing and target is not None:
        return "refused", Basis("other-player", writing)
    # the articles that say when the effect is given (rulebook.yaml governed_by) answer a request
    # no finding gives, rather than whichever article ruled (skat: a card taken back is 4.1.2's
    # matter, not that of the 4.1.3 ending that let it stand)
    governing = [book.provisions[i].label for i in spec.get("governed_by") or () if i in book.provisions]
    return "refused", Basis("not-given", _deciding(standing), articles=list(dict.fromkeys(governing)))


def _could_give(book: Rulebook, f, name: str) -> bool:
    """Whether the matter an undecided finding leaves open is one that gives the effect ``name``
    where the rules decide it: a production on the same claim, or citing one of its articles,
    writes that effect."""
    provisions = set(f.provisions)
    for p in book.productions:
        if p.action != "finding":
            continue
        if not ((f.claim and p.claim == f.claim) or provisions & set(p.cites)):
            continue
        if any(isinstance(e, dict) and e.get("effect") == name for e in (p.finding.get("penalty") or [])):
            return True
    return False


def _contrary(ruling: Ruling, name: str, ours: set[str], found: list, standing: list,
              granting: set) -> list:
    """The same effect written the other way on the same matter: in an event of the findings
    that grant it, a penalty line of that effect the party's side bears (ulti: the offender pays
    the declarer the renonsz, and the declarer pays the innocent defender the ulti that had
    already failed: asked for "the whole game", the request is met only in part). An effect
    written for one player and borne by nobody in particular (a fine) has no other way."""
    book = ruling.book
    if not (book.effects.get(name) or {}).get("against_gains") and not _written_against(book, name):
        return []
    events = {f.event for f in found}
    out = []
    for f in standing:
        if f.event not in events or f.kind == "undecided":
            continue
        for p in f.penalty:
            if p.effect == name and p.against and _burdened(book, p) in ours \
                    and not ({p.player, p.against} <= ours) and id(p) not in granting:
                out.append((f, p))
    return out


def _written_against(book: Rulebook, name: str) -> bool:
    """An effect a player writes against another (preferans supe): borne by the one written against."""
    return bool((book.effects.get(name) or {}).get("against"))


@dataclass
class _Row:
    """One effect as asked for, as a penalty line gives it: for whom, against whom, how much
    (``options``: under each value of a fact known only to lie among a few)."""
    player: str
    against: str | None
    amount: object
    options: list = field(default_factory=list)
    line: object = None           # the penalty line it comes from


def _rows(ruling: Ruling, f, line, name: str) -> list[_Row]:
    """What the penalty ``line`` of finding ``f`` gives of the effect ``name``: the line itself
    when it is that effect; else, where ``name`` is a plain entry on a score-sheet item, the
    entries the line writes on that item with the same sign, in the sheet's amounts; else nothing."""
    if line.effect == name:
        return [_Row(line.player, line.against, line.amount, list(line.options or []), line)]
    effects = (ruling.book.score or {}).get("effects") or {}
    specs = specs_of(effects.get(name))
    # only an effect that is a plain entry on its item (preferans "writes supe") is given by
    # whatever the sheet writes there; one with a measure of its own (tricks charged, at the
    # game's value) is given only by itself, not by a fixed number of supe
    if not specs or any(set(s) - {"item", "sign"} for s in specs):
        return []
    asked = {(s.get("item"), s.get("sign", 1)) for s in specs if s.get("item")}
    rows = []
    for spec in specs_of(effects.get(line.effect)):
        if (spec.get("item"), spec.get("sign", 1)) not in asked:
            continue
        e = sheet_entry(ruling.book, spec, line, ruling.answers_of(f.event), f.production)
        rows.append(_Row(e.player, e.against, e.amount, list(e.options), line))
    return rows


def _totals_by_option(rows: list[_Row]) -> dict | None:
    """The rows' total under each value of the open fact (one key, ``None``, when nothing is
    open); None where an amount is open with no values to try or is not a number."""
    keys = [None]
    for r in rows:
        if r.amount is None and r.options:
            keys = [repr(sorted(w.items())) for w, _ in r.options]
            break
    totals: dict = {}
    for k in keys:
        total = 0
        for r in rows:
            if r.amount is None:
                by = {repr(sorted(w.items())): a for w, a in r.options}
                a = by.get(k)
            else:
                a = r.amount
            if not isinstance(a, (int, float)) or isinstance(a, bool):
                return None
            total += a
        totals[k] = total
    return totals


def _short_of(given, asked) -> bool:
    """The rules give less than asked. An amount asked below zero is a loss asked for (skat: the
    soloist's game at -144, lost Schneider): -96 gives less of it, not more."""
    if asked < 0:
        return given > asked
    return given < asked


def _some_of(given, asked) -> bool:
    """Some of what was asked is given: an amount on the same side of zero as the one asked."""
    return isinstance(given, (int, float)) and not isinstance(given, bool) and given * asked > 0


def _shown_total(totals: dict):
    """One amount, or the list of them under the values of the open fact."""
    values = list(dict.fromkeys(totals.values()))
    return values[0] if len(values) == 1 else values


def _burdened(book: Rulebook, line) -> str:
    """Whom an effect burdens: the player it is written against, unless that one gains by it
    (ulti: paid TO him), in which case the player it is written for."""
    gains = bool((book.effects.get(line.effect) or {}).get("against_gains"))
    return line.player if gains or not line.against else line.against


def _deciding(standing: list) -> list:
    """The findings that decide what the ruling gives: the decided ones (an undecided measure
    decides nothing), infractions first."""
    decided = [f for f in standing if f.kind != "undecided"]
    return [f for f in decided if f.kind in INFRACTION_KINDS] + [f for f in decided if f.kind not in INFRACTION_KINDS]


def _stands(ruling: Ruling, request: Request, standing: list, undecided: list) -> tuple[str, Basis]:
    """The result as played stands for the party: his entries on the score sheet (his side's,
    where sides are fixed) are those of the deal as played. Where the rulebook keeps no score
    sheet, or either sheet still waits for an answer, any finding that changes the result
    refuses it."""
    book = ruling.book
    changing = [f for f in standing if f.penalty and kind_of(f.kind).applies]
    mine, played = _entries_of(ruling, request.party)
    side = side_of(book, request.party)
    if mine == [] and played == [] and len(side) > 1 and _entries_of(ruling, request.party, side) == ([], []):
        # no line for the party's side at all (skat writes only the soloist's game, the opponents'
        # result is its other face): the result as played is the whole sheet's. A player with a
        # line of his own that is simply empty (a preferans defender who passed) keeps his own.
        mine, played = _entries_of(ruling, request.party, everyone=True)
    if mine is not None and played is not None:
        if mine == played:
            return "granted", Basis("granted", _deciding(standing))
        touching = [f for f in changing if _touches(book, f, request.party)] or changing
        return "refused", Basis("changed", touching or _deciding(standing))
    if changing:
        return "refused", Basis("changed", changing)
    if undecided:
        return "undecided", Basis("undecided", undecided)
    return "granted", Basis("granted", _deciding(standing))


def _entries_of(ruling: Ruling, party: str, seats: set | None = None, everyone: bool = False):
    """The party's own entries after the ruling and as played, comparable (the items and amounts
    written for him); None where a sheet is missing or still open."""
    book, result = ruling.book, ruling.result
    if result is None or not book.score:
        return None, None
    answers = ruling.events or [ruling.answers]
    played = compute_result(book, [], lambda k: answers[min(k, len(answers) - 1)], ruling.answers)
    if played is None or result.open or played.open:
        return None, None
    own = seats or own_of(book, party)
    sides = {side_id(book, s) for s in own}

    def of(res) -> list:
        rows = []
        for e in res.entries:
            if e.amount is None:
                return None
            # his own columns only: supe another player writes against him are that player's entries
            if everyone or e.player in own or (e.item and fixed_sides(book) and side_id(book, e.player) in sides):
                rows.append((e.item, round(float(e.amount), 6)))
        return sorted(r for r in rows if r[1] != 0)
    return of(result), of(played)


def _touches(book: Rulebook, f, party: str) -> bool:
    own = own_of(book, party)
    return f.offender in own or any(p.player in own or p.against in own for p in f.penalty)


def _unique(findings) -> list:
    seen, out = set(), []
    for f in findings:
        if id(f) not in seen:
            seen.add(id(f))
            out.append(f)
    return out


def _provision(ruling: Ruling, pid: str, ours: set[str]) -> tuple[str, Basis]:
    """An article the party asks to be applied: granted when a standing finding applies it other
    than as an infraction of the party's own side (a player may invoke an exception in his own
    favour), refused when it is applied against him, undecided when the finding leaves it
    undecided, refused when it is set aside or its conditions are not met."""
    applying = [f for f in ruling.findings if pid in f.provisions]
    decided = [f for f in applying if f.kind != "undecided"]
    # applied, but as an infraction of the party's own side: invoked as a defence, it fails
    for_us = [f for f in decided if not (f.kind in INFRACTION_KINDS and f.offender in ours)]
    if for_us:
        return "granted", Basis("granted", for_us)
    if decided:
        return "refused", Basis("own-infraction", decided)
    if applying:
        return "undecided", Basis("undecided", applying)
    aside = [n for n in ruling.not_ruled if pid in n.provisions]
    if aside:
        return "refused", Basis("set-aside", aside)
    return "refused", Basis("not-met", [])


def english_reason(ruling: Ruling, request: Request, answer: str, basis: Basis) -> str:
    book = ruling.book
    arts = "; ".join(_line(book, f) for f in basis.findings)
    if basis.cause == "granted":
        return f"granted: {arts}" if arts else "granted"
    if basis.cause == "part":
        other = "; ".join(dict.fromkeys(f.article for f, _ in basis.contrary))
        return f"granted in part: given by {arts}; the other way: {other}"
    if basis.cause == "own-infraction":
        return f"refused: the finding is against the party's own side ({arts})"
    if basis.cause == "settled":
        return f"refused: no irregularity, but the rules settle the deal against the party's own side ({arts})"
    if basis.cause == "less":
        if answer == "granted":
            return (f"granted in part: the rules give {_or(basis.given)} of the {request.amount} asked "
                    f"({arts})")
        return f"refused: the rules give {_or(basis.given)}, not {request.amount} ({arts})"
    if basis.cause == "scope":
        effect = request.asks.partition(":")[2]
        return (f"refused: the rules give it {scope_label(book, effect, basis.given)}, "
                f"not {scope_label(book, effect, request.scope)} ({arts})")
    if basis.cause == "depends":
        return (f"undecided: it depends on facts not established: the rules give {_or(basis.given)}, "
                f"{request.amount} asked ({arts})")
    if basis.cause == "other-player":
        return f"refused: the rules give it on another player ({arts})"
    if basis.cause == "changed":
        return f"refused: the ruling changes the result ({arts})"
    if basis.cause == "later":
        return "refused: not ruled on: " + "; ".join(n.reason for n in basis.findings)
    if basis.cause == "set-aside":
        return "refused: " + "; ".join(f"{n.article} is not applied ({n.reason})" for n in basis.findings)
    if basis.cause == "not-given":
        return ("refused: no article applied gives this" + (f" (ruled: {arts})" if arts else "")
                + (f"; see {'; '.join(basis.articles)}" if basis.articles else ""))
    if basis.cause == "undecided":
        return f"undecided: {arts}"
    if basis.cause == "no-article":
        if arts:
            return ("undecided: in the player's own words, naming no article: the decision above answers it "
                    f"if what he asks is what it gives ({arts}); otherwise the referee answers it on the facts")
        return "undecided: the request names no article; the referee decides it on the facts"
    return "refused: the facts found do not meet the conditions of the article" + (f" ({arts})" if arts else "")


def _or(value) -> str:
    return " or ".join(f"{v:g}" for v in value) if isinstance(value, list) else f"{value}"


def _line(book: Rulebook, f) -> str:
    summary = f.summary.get("en", "") if isinstance(getattr(f, "summary", None), dict) else ""
    return f"{f.article}" + (f" — {summary}" if summary else "")


def answer_all(ruling: Ruling, requests: list[Request]) -> list[RequestAnswer]:
    """Every request answered; on a conditional ruling, per alternative, and undecided (saying on
    which facts it depends) when the alternatives answer it differently."""
    if not ruling.alternatives:
        return [answer_request(ruling, r) for r in requests]
    answers = []
    for r in requests:
        per_branch = [answer_request(_branch(ruling, alt), r) for alt in ruling.alternatives]
        # granted in full under one alternative, in part under another: not the same answer
        if len({(a.answer, in_part(a)) for a in per_branch}) == 1:
            answers.append(per_branch[0])
            continue
        facts = ", ".join(u.question for u in ruling.unknown if u.matters)
        provisions = sorted({p for a in per_branch for p in a.provisions})
        answers.append(RequestAnswer(party=r.party, request=r.asks, answer="undecided",
                                     provisions=provisions, text=r.text, cause="depends", provision=r.provision,
                                     on=r.on, amount=r.amount, scope=r.scope, branches=[a.answer for a in per_branch],
                                     reason={"en": f"undecided: it depends on facts not established ({facts}); "
                                                   + "; ".join(f"if {_when(alt)}: {a.answer}"
                                                               for alt, a in zip(ruling.alternatives, per_branch))}))
    return answers


def in_part(answer: RequestAnswer) -> bool:
    """A request granted only in part: less than the amount asked, or with the ruling going the
    other way on the same matter."""
    return answer.answer == "granted" and (answer.cause == "less" or bool(answer.contrary))


def _branch(ruling: Ruling, alt) -> Ruling:
    """The ruling under one alternative: its findings, its score sheet, the answers it holds on."""
    from dataclasses import replace
    answers = list(alt.answers or [])
    if not answers:
        events, shared = ruling.events, ruling.answers
    elif ruling.events:
        events, shared = answers, ruling.answers
    else:
        events, shared = [], answers[0]
    return replace(ruling, findings=list(alt.findings), not_ruled=list(alt.not_ruled), alternatives=[],
                   result=alt.result, events=events, answers=shared)


def _when(alt) -> str:
    return " or ".join(", ".join(f"{q} = {v}" for q, v in w.items()) for w in alt.when)


__all__ = ["answer_all", "answer_request", "decide", "in_part", "side_of", "FindingOut"]
