"""referee: the command line. Thin commands over the library in expert/ and reports/."""
from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import click

from referee.expert.language.errors import RefereeError

KNOWLEDGE = click.option("--knowledge", "knowledge", type=click.Path(file_okay=False), default=None,
                         envvar="REFEREE_KNOWLEDGE",
                         help="Knowledge root holding <game>/rulebook.yaml (default: the built-in rulebooks).")
FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "md", "html", "json"]), default="text",
                      show_default=True, help="Output format of the ruling.")
OUT = click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
                   help="Write the ruling to this file instead of standard output.")


REGISTER = click.option("--register", "register_path", type=click.Path(dir_okay=False), default=None,
                        envvar="REFEREE_REGISTER",
                        help="The tournament's ruling register, one SQLite file "
                             "(default: $REFEREE_REGISTER, else ./referee-register.sqlite).")
SAVE = click.option("--no-register", "no_register", is_flag=True,
                    help="Do not save the ruling in the register (it then has no verification code).")
RECORD = click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
                      help="Also write the ruling record (JSON) to this file.")


class Referee(click.Group):
    """Bad input ends in one line on stderr and exit code 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RefereeError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


@click.group(cls=Referee)
@click.version_option(package_name="referee")
def main():
    """Settle disputes at card-game tournaments: interview, rule, explain, check.

    Rulebooks: preferans, skat, bridge, ulti (see `referee games`).
    """


def _book(game: str, knowledge):
    from referee.expert.language.rulebook import load_rulebook
    return load_rulebook(game, knowledge)


def _case_book(data: dict, path: str, knowledge):
    """The rulebook a case file names; an unknown game is the case file's error."""
    from referee.expert.language.rulebook import list_games
    if data["game"] not in list_games(knowledge):
        raise RefereeError(f"unknown game {data['game']!r}, expected one of: "
                           f"{', '.join(list_games(knowledge))}", path, getattr(data, "line", None))
    return _book(data["game"], knowledge)


def _publish(ruling, book, fmt, lang, out, no_register, register_path, record_path, cards=None,
             times=None):
    """Save the ruling's record in the register (unless told not to), then print it with its
    verification code."""
    from referee.reports.render import render
    code = None
    if not no_register:
        from referee.expert.records.record import format_code
        from referee.expert.records.register import register_ruling
        record, rid = register_ruling(ruling, book, register=register_path, record_path=record_path,
                                      cards=cards, answer_times=times)
        code = format_code(record["code"])
        click.echo(f"ruling #{rid} saved in the register, verification code {code}", err=True)
    _emit(render(ruling, fmt, lang, code=code), out)


def _emit(text: str, out: str | None) -> None:
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise RefereeError(f"cannot write: {exc.strerror}", out) from None
        click.echo(f"ruling written to {out}", err=True)
    else:
        click.echo(text, nl=False)


@main.command()
@KNOWLEDGE
def games(knowledge):
    """List the installed rulebooks with language, source and counts."""
    from referee.expert.language.rulebook import list_games
    for game in list_games(knowledge):
        book = _book(game, knowledge)
        penalty = sum(1 for p in book.provisions.values() if p.penalty_bearing)
        click.echo(f"{game:10} {book.language}  {book.source.get('document', ''):28} "
                   f"{len(book.provisions):4} provisions ({penalty} penalty-bearing), "
                   f"{len(book.productions)} productions, {len(book.questions)} questions, "
                   f"{len(book.cases)} cases")


@main.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@KNOWLEDGE
def articles(game, fmt, knowledge):
    """List a rulebook's encoded provisions: id, label, quote, English, use."""
    from referee.expert.authoring.casebook import coverage, run_casebook
    book = _book(game, knowledge)
    table = coverage(book, run_casebook(book))
    cited = {c for p in book.productions for c in p.cites}
    rows = [{"id": p.id, "article": p.label, "kind": p.kind, "penalty_bearing": p.penalty_bearing,
             "quote": p.quote, "english": p.english, "cited": p.id in cited,
             "cases": table[p.id]["applied"], "cases_not_applying": table[p.id]["not_applied"]}
            for p in book.provisions.values()]
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for r in rows:
        click.echo(f"{r['id']}  [{r['article']}]  {'cited' if r['cited'] else 'NOT CITED'}, "
                   f"{r['cases']} case(s) applying, {r['cases_not_applying']} not")
        click.echo(f"    \"{r['quote']}\"")
        click.echo(f"    {r['english']}")


@main.command()
@click.argument("game")
@click.option("--lang", default="en", show_default=True, help="Language of the question texts.")
@KNOWLEDGE
def questions(game, lang, knowledge):
    """List a rulebook's questions: id, type, allowed values (for case files and --set)."""
    from referee.expert.language.answers import describe_allowed, question_text
    book = _book(game, knowledge)
    for q in book.questions.values():
        click.echo(f"{q.id} ({q.type}): {question_text(q, lang)}")
        click.echo(f"    {describe_allowed(q, book)}")


LANG = click.option("--lang", type=click.Choice(["en", "sr", "pl", "ru", "hu", "both"]), default="en",
                    show_default=True,
                    help="Language of the ruling; 'both' prints English and the rulebook's language "
                         "side by side. Article quotes are always in the original.")


@main.command()
@click.argument("case", type=click.Path(dir_okay=False))
@FORMAT
@LANG
@OUT
@REGISTER
@SAVE
@RECORD
@KNOWLEDGE
def rule(case, fmt, lang, out, register_path, no_register, record_path, knowledge):
    """Rule on a case file (game, header, answers, cards) without asking anything.

    The ruling is saved in the register and printed with its verification code."""
    from referee.expert.interview.casefile import case_input, read_case
    from referee.expert.engine.ruler import Ruler
    from referee.expert.interview.relevance import not_asked
    data = read_case(case)
    book = _case_book(data, case, knowledge)
    answers, header, sources = case_input(data, book, case)
    for qid in not_asked(book, answers):
        if qid not in sources:      # the cards say what they show; a typed answer must be askable
            click.echo(f"warning: {case}: the answer to {qid!r} is ignored: the interview does not ask "
                       "it with the other answers (its when does not hold)", err=True)
            answers.pop(qid)
    _publish(Ruler(book).rule(answers, header, sources), book, fmt, lang, out, no_register,
             register_path, record_path, data.get("cards"))


@main.command()
@click.argument("game")
@click.option("--lang", type=click.Choice(["en", "sr", "pl", "ru", "hu", "both"]), default="en",
              show_default=True, help="Language of the questions and the ruling ('both': questions in "
                                      "the rulebook's language, ruling side by side).")
@click.option("--resume", type=click.Path(dir_okay=False, exists=False), default=None,
              help="Continue from answers saved by an interrupted interview.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Where answers are saved as they are given (default: interview-GAME-TIME.yaml).")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), default=None,
              help="A YAML file with the deal record (hands, contract, play; see expert/cards/README.md): "
                   "what the cards show is not asked.")
@click.option("--enter-cards/--no-enter-cards", "enter_cards", default=None,
              help="Type the cards (contract, hands, talon, the play trick by trick) before the "
                   "questions. Without either flag the interview asks 'Do you have the cards?' when "
                   "the rulebook reads facts from the cards and none were given.")
@click.option("--tournament", default=None)
@click.option("--table", default=None)
@click.option("--deal", default=None)
@click.option("--referee", "referee_name", default=None)
@click.option("--player", "players", multiple=True, metavar="SEAT=NAME", help="A player's name, by seat.")
@FORMAT
@OUT
@REGISTER
@SAVE
@RECORD
@KNOWLEDGE
def interview(game, lang, resume, save, cards_file, enter_cards, tournament, table, deal, referee_name,
              players, fmt, out, register_path, no_register, record_path, knowledge):
    """Interview the referee about a disputed deal, then print the ruling.

    Answers are checked as they are typed; '?' shows help and the articles a question
    feeds, 'back' undoes the last answer. Answers are saved after each one: Ctrl-C or end
    of input leaves them in a case file to continue with --resume.
    """
    from referee.expert.console import prompt as console
    from referee.expert.language.answers import check_all
    from referee.expert.interview.casefile import read_case
    from referee.expert.interview.from_cards import answers_from_cards
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.yamlio import load_file, where
    book = _book(game, knowledge)
    answers, header, cards = {}, {}, None
    if resume:
        data = read_case(resume)
        if data["game"] != game:
            raise RefereeError(f"saved answers are for {data['game']!r}, not {game!r}", resume)
        answers = check_all(data.get("answers") or {}, book, resume, where(data.get("answers"))[1])
        header, cards = dict(data.get("header") or {}), data.get("cards")
    if cards_file:
        loaded = load_file(cards_file)
        cards = loaded.get("cards", loaded) if isinstance(loaded, dict) else loaded
    header.update({k: v for k, v in (("tournament", tournament), ("table", table), ("deal", deal),
                                     ("referee", referee_name)) if v})
    if players:
        header["players"] = dict(header.get("players") or {}, **_players(players, book))
    save_to = Path(save or resume or f"interview-{game}-{datetime.now():%Y%m%d-%H%M%S}.yaml")
    ask_lang = book.language if lang == "both" else lang

    def read(prompt: str, question=None) -> str:
        try:
            return click.prompt(prompt, default="", show_default=False, prompt_suffix="")
        except click.Abort:
            raise EOFError from None

    entered = _card_entry(book, enter_cards, cards, read, save_to, answers, header, ask_lang)
    if entered:
        cards, cards_file = entered, None
    derived = answers_from_cards(book, cards, cards_file or resume, where(cards)[1] if cards and not entered else None)
    if derived.answers:
        click.echo(console.words(ask_lang)["from_cards"].format(answers=", ".join(sorted(derived.answers))))

    times: dict = {}
    try:
        given = console.run(book, read, click.echo, save_to, answers, header, ask_lang, cards,
                            derived.answers, times)
    except console.Interrupted as stop:
        w = console.words(ask_lang)
        click.echo(f"\n{w['saved']} {stop.path}", err=True)
        click.echo(w["resume"].format(game=game, path=stop.path), err=True)
        sys.exit(130)
    sources = {q: s for q, s in derived.sources.items() if q not in answers}
    _publish(Ruler(book).rule(given, header, sources), book, fmt, lang, out, no_register, register_path,
             record_path, cards, times)


def _card_entry(book, enter_cards, cards, read, save_to, answers, header, lang):
    """Card entry before the questions: forced by --enter-cards, offered as a first question when
    the rulebook has a cards.yaml and no cards were given. The cards are saved at once."""
    from referee.expert.console import card_entry, prompt as console
    from referee.expert.interview.casefile import save_case
    if enter_cards and not book.cards_map:
        click.echo(f"The {book.game} rulebook reads no facts from the cards (no cards.yaml): "
                   "the questions follow.")
    if enter_cards is False or not book.cards_map or (enter_cards is None and cards):
        return None
    try:
        entered = (card_entry.enter_cards(book, read, click.echo, lang) if enter_cards
                   else card_entry.offer(book, read, click.echo, lang))
    except card_entry.Interrupted as stop:
        save_case(save_to, book.game, answers, header, "referee interview, interrupted during card entry",
                  stop.cards or cards)
        w = console.words(lang)
        click.echo(f"\n{w['saved']} {save_to}", err=True)
        click.echo(w["resume"].format(game=book.game, path=save_to), err=True)
        sys.exit(130)
    if entered:
        save_case(save_to, book.game, answers, header, "referee interview, cards entered", entered)
    return entered or None


def _players(pairs, book) -> dict:
    result = {}
    for pair in pairs:
        seat, sep, name = pair.partition("=")
        if not sep or seat not in book.seat_ids:
            raise RefereeError(f"--player {pair!r}: expected SEAT=NAME with SEAT one of "
                               f"{', '.join(book.seat_ids)}")
        result[seat] = name
    return result


@main.command()
@click.argument("game", required=False)
@click.option("-v", "--verbose", is_flag=True, help="List every case, not only failures.")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Per provision: the cases that apply it and those where it must not apply.")
@click.option("--update", is_flag=True,
              help="Rewrite the expect: of failing cases to the current rulings, asking for each.")
@KNOWLEDGE
def test(game, verbose, show_coverage, update, knowledge):
    """Run the casebooks and end with 'N passed, N failed'."""
    from referee.expert.authoring.casebook import run_casebook
    from referee.expert.language.rulebook import list_games
    passed = failed = updated = 0
    for g in [game] if game else list_games(knowledge):
        book = _book(g, knowledge)
        results = run_casebook(book)
        for result in results:
            where = f"{result.case.file}:{result.case.line}"
            if result.passed:
                passed += 1
                if verbose:
                    click.echo(f"PASS {g}: {result.case.name}")
            else:
                failed += 1
                click.echo(f"FAIL {g}: {result.case.name} ({where})")
                for d in result.differences:
                    click.echo(f"    {d}")
                if update and result.ruling is not None and _update_case(result):
                    updated += 1
        if show_coverage:
            from referee.expert.authoring.analysis.coverage import coverage_rows, render_coverage
            click.echo(render_coverage(g, coverage_rows(book, results)), nl=False)
    click.echo(f"{passed} passed, {failed} failed" + (f", {updated} updated" if update else ""))
    if failed - updated:
        sys.exit(1)


def _update_case(result) -> bool:
    from referee.expert.authoring.analysis.update import new_expect, show_change, write_expect
    case = result.case
    expect = new_expect(case.expect, result.ruling)
    click.echo(show_change(dict(case.expect), expect))
    if not click.confirm(f"Update the expect: of {case.name!r}?", default=False):
        return False
    how, path = write_expect(case, expect)
    click.echo(f"    updated {path}" if how == "in place" else
               f"    could not edit {case.file} safely: new expectations written to {path}")
    return how == "in place"


@main.command()
@click.argument("game", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--no-cache", is_flag=True,
              help="Compute every analysis again instead of reusing the results of earlier checks "
                   "for what did not change.")
@KNOWLEDGE
def check(game, fmt, knowledge, no_cache):
    """Validate knowledge: references, casebook coverage, and the rule-base analysis
    (conflicts, redundancy, unreachable productions, circularity, silent claims, unused
    knowledge, order dependence). Exit 1 when there are errors; warnings are allowed.
    Results of earlier checks are reused for whatever the edits since did not touch."""
    import time
    from referee.expert.authoring.checks import PROGRESS_STEPS, check_game, format_problem, problem_dict
    from referee.expert.language.rulebook import list_games
    games_ = [game] if game else list_games(knowledge)
    started = time.monotonic()
    results = {}
    if sys.stderr.isatty() and fmt == "text":
        with click.progressbar(length=len(games_) * PROGRESS_STEPS, label="checking", file=sys.stderr,
                               item_show_func=lambda x: x) as bar:
            for g in games_:
                results[g] = check_game(g, knowledge, lambda label, g=g: bar.update(1, f"{g}: {label}"),
                                        cache=not no_cache)
    else:
        results = {g: check_game(g, knowledge, cache=not no_cache) for g in games_}
    errors = sum(len(p.errors) for p in results.values())
    if fmt == "json":
        click.echo(json.dumps({g: [problem_dict(i) for i in p.items] for g, p in results.items()},
                              ensure_ascii=False, indent=2))
    else:
        for g, problems in results.items():
            for item in problems.items:
                click.echo(format_problem(item))
            click.echo(f"{g}: {len(problems.errors)} error(s), {len(problems.warnings)} warning(s)")
            for note in getattr(problems, "notes", []):
                click.echo(f"{g}: note: {note}", err=True)
        click.echo(f"checked {len(results)} rulebook(s) in {time.monotonic() - started:.1f} s", err=True)
    if errors:
        sys.exit(1)


@main.command()
@click.argument("case", type=click.Path(dir_okay=False))
@click.option("--set", "settings", multiple=True, required=True, metavar="QUESTION=VALUE",
              help="An answer to change (repeatable); QUESTION= leaves it unanswered.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@KNOWLEDGE
def whatif(case, settings, fmt, knowledge):
    """The ruling on a case file with some answers changed, as a diff against the original."""
    from referee.expert.authoring.analysis.whatif import changed_answers, diff, render_text
    from referee.expert.interview.casefile import case_answers, read_case
    from referee.expert.engine.ruler import Ruler
    data = read_case(case)
    book = _case_book(data, case, knowledge)
    answers, header = case_answers(data, book, case)
    new, dropped = changed_answers(book, answers, list(settings))
    ruler = Ruler(book)
    before = ruler.rule(answers, header)
    after = ruler.rule(new, header)
    d = diff(before, after)
    if fmt == "json":
        click.echo(json.dumps({"answers": {"before": answers, "after": new, "dropped": dropped},
                               "diff": d, "before": before.to_dict(), "after": after.to_dict()},
                              ensure_ascii=False, indent=2, default=str))
    else:
        click.echo(render_text(book, answers, new, dropped, d), nl=False)


@main.command()
@FORMAT
@click.option("--lang", type=click.Choice(["en", "sr"]), default="en", show_default=True)
def demo(fmt, lang):
    """Replay a built-in preferans dispute through the interview and print the ruling."""
    import tempfile
    from referee.expert.console import prompt as console
    from referee.expert.interview.casefile import case_answers, read_case
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.rulebook import DEFAULT_ROOT
    from referee.reports.render import render
    path = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
    data = read_case(path)
    book = _book(data["game"], None)
    answers, header = case_answers(data, book, path)
    script = _Script(answers)
    with tempfile.TemporaryDirectory() as tmp:
        given = console.run(book, script, click.echo, Path(tmp) / "demo.yaml", None, header, lang)
    click.echo("")
    click.echo(render(Ruler(book).rule(given, header), fmt), nl=False)


class _Script:
    """Answers the interview's questions from a case file, echoing them as if typed."""

    def __init__(self, answers: dict):
        self.answers = answers

    def __call__(self, prompt: str, question=None) -> str:
        if question is None:
            typed = ""                              # the summary: rule now
        elif question.id in self.answers:
            typed = _typed(self.answers[question.id])
        else:
            raise EOFError
        click.echo(f"{prompt}{typed}")
        return typed


def _typed(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _register(path, create=False):
    from referee.expert.records.register import Register
    try:
        return Register(path, create=create)
    except RefereeError:
        raise
    except Exception as exc:  # sqlite refusing the file: say so in one line
        raise RefereeError(f"cannot open the register: {exc}", str(path or "referee-register.sqlite")) from None


@main.command()
@click.argument("record_or_code")
@REGISTER
@KNOWLEDGE
def verify(record_or_code, register_path, knowledge):
    """Say whether a ruling record (JSON file) or a printed verification code matches the
    register, and name what differs when it does not."""
    from referee.expert.records.record import format_verification, load_record, looks_like_code, verify as check_it
    reg = None
    from referee.expert.records.register import default_register_path
    if default_register_path(register_path).exists():
        reg = _register(register_path)
    elif looks_like_code(record_or_code) and not Path(record_or_code).exists():
        raise RefereeError("no register to look the code up in, expected a register file "
                           "(--register or $REFEREE_REGISTER)", str(default_register_path(register_path)))
    book = None
    if Path(record_or_code).is_file():
        game = (load_record(record_or_code).get("rulebook") or {}).get("game")
        try:  # a record verifies even if its rulebook cannot be loaded here
            book = _book(game, knowledge) if game else None
        except RefereeError:
            book = None
    try:
        result = check_it(record_or_code, reg, book)
    finally:
        if reg is not None:
            reg.close()
    game = ((result.record or {}).get("rulebook") or {}).get("game")
    if book is None and game:  # a printed code: is the register's ruling on today's rulebook?
        from referee.expert.records.record import check_rulebook
        try:
            check_rulebook(result, _book(game, knowledge))
        except RefereeError:
            pass
    click.echo(format_verification(result), nl=False)
    if not result.ok:
        sys.exit(1)


@main.group()
def register():
    """The tournament's ruling register: list, show, search, stats."""


FILTERS = [
    click.option("--game"), click.option("--table"), click.option("--deal"),
    click.option("--player", help="Seat or name (part of it)."),
    click.option("--provision", help="An inventory id, e.g. preferans:7.out-of-turn."),
    click.option("--article"), click.option("--date", help="A date or its prefix: 2026-11."),
    click.option("--from", "date_from", metavar="DATE", help="Rulings on or after this date (2026-11-28)."),
    click.option("--to", "date_to", metavar="DATE", help="Rulings on or before this date (or month: 2026-11)."),
    click.option("--kind", type=click.Choice(["ruling", "appeal"]), help="Only rulings, or only appeal decisions."),
    click.option("--referee"),
]
LISTING = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                       help="Plain text for people, JSON for other programs.")


def _given(filters: dict) -> dict:
    """The filters given, with their dates checked (YYYY, YYYY-MM or YYYY-MM-DD)."""
    given = {k: v for k, v in filters.items() if v}
    for key, option in (("date", "--date"), ("date_from", "--from"), ("date_to", "--to")):
        if key in given and not _is_date_prefix(given[key]):
            raise RefereeError(f"{option} {given[key]!r}: expected a date YYYY-MM-DD, or a month YYYY-MM, or a year")
    return given


def _is_date_prefix(value: str) -> bool:
    for pattern in ("%Y-%m-%d", "%Y-%m", "%Y"):
        try:
            datetime.strptime(value, pattern)
            return True
        except ValueError:
            continue
    return False


def _listing(data, fmt: str, as_text) -> None:
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(as_text(data), nl=False)


def _filters(f):
    for option in reversed(FILTERS):
        f = option(f)
    return f


@register.command("list")
@_filters
@click.option("--limit", type=int, default=None)
@LISTING
@REGISTER
def register_list(register_path, limit, fmt, **filters):
    """List the rulings in the register (oldest first), optionally filtered."""
    from referee.expert.records.register_text import format_list
    given = _given(filters)
    with _register(register_path) as reg:
        _listing(reg.list(limit=limit, **given), fmt, format_list)


@register.command("search")
@_filters
@LISTING
@REGISTER
def register_search(register_path, fmt, **filters):
    """Find rulings by table, deal, player, provision, article, date or referee; with
    --provision, also how that provision was ruled before (precedents)."""
    from referee.expert.records.register_text import format_list, format_precedents
    given = _given(filters)
    if not given:
        raise RefereeError("search needs at least one of --game --table --deal --player --provision "
                           "--article --date --from --to --kind --referee")
    with _register(register_path) as reg:
        if given.get("provision"):
            provision = given.pop("provision")
            rows = reg.precedents(provision, **given)
            _listing(rows, fmt, lambda rows: format_precedents(provision, rows))
        else:
            _listing(reg.list(**given), fmt, format_list)


@register.command("show")
@click.argument("id_or_code")
@LISTING
@REGISTER
def register_show(register_path, id_or_code, fmt):
    """Show one ruling (by number or verification code) and its appeals."""
    from referee.expert.records.register_text import format_show
    with _register(register_path) as reg:
        _listing(reg.show(id_or_code), fmt, format_show)


@register.command("stats")
@_filters
@LISTING
@REGISTER
def register_stats(register_path, fmt, **filters):
    """Counts: rulings per referee and table, most-cited provisions and articles."""
    from referee.expert.records.register_text import format_stats
    given = _given(filters)
    with _register(register_path) as reg:
        _listing(reg.stats(**given), fmt, format_stats)


@main.command()
@click.argument("record_or_id")
@click.option("--set", "sets", multiple=True, required=True, metavar="QUESTION=VALUE",
              help="An amended fact (repeat for several); 'Q=' leaves Q unanswered.")
@click.option("--note", default=None, help="The committee's note, kept with the decision.")
@click.option("--referee", "committee", default=None, help="Who decides the appeal.")
@REGISTER
@KNOWLEDGE
def appeal(record_or_id, sets, note, committee, register_path, knowledge):
    """Re-rule on amended facts: prints the original ruling, the amended facts, the new ruling
    and the differences per player; saves the decision linked to the original, which is never
    altered."""
    from referee.expert.interview.appeal import file_appeal, format_appeal
    with _register(register_path, create=True) as reg:
        decision, aid, oid = file_appeal(record_or_id, list(sets), reg, note=note, root=knowledge,
                                         referee=committee)
    click.echo(format_appeal(decision), nl=False)
    click.echo(f"appeal #{aid} on ruling #{oid} saved in the register", err=True)
