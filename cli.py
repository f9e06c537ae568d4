"""referee: the command line. Thin commands over the library in expert/ and reports/."""
from __future__ import annotations

import json
import sys
import textwrap
from datetime import datetime
from pathlib import Path

import click
from click.shell_completion import _SOURCE_BASH, BashComplete, add_completion_class

from referee.expert.language.errors import RefereeError

LANGS = ["en", "sr", "pl", "ru", "hu"]


def _format_seen(ctx, _param, value):
    """Remember the output format: with --format json an error is also printed as JSON on
    stdout, so a program reading stdout always gets JSON."""
    ctx.meta["referee.format"] = value
    return value


def format_option(choices=("text", "json"), help="Plain text for people, JSON for other programs."):
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default="text", show_default=True,
                        callback=_format_seen, help=help)


def _complete_game(ctx, _param, incomplete):
    """Shell completion of a GAME argument: the rulebooks under --knowledge (or the built-in)."""
    from referee.expert.language.rulebook import list_games
    try:
        return [g for g in list_games(ctx.params.get("knowledge")) if g.startswith(incomplete)]
    except RefereeError:
        return []


KNOWLEDGE = click.option("--knowledge", "knowledge", type=click.Path(file_okay=False), default=None,
                         envvar="REFEREE_KNOWLEDGE",
                         help="Knowledge root holding <game>/rulebook.yaml "
                              "(default: $REFEREE_KNOWLEDGE, else the built-in rulebooks).")
GAME = click.argument("game", shell_complete=_complete_game)
FORMAT = format_option(["text", "md", "html", "json", "pdf"], "Output format of the ruling (pdf needs --out "
                                                              "and the system's Chromium).")
# --out and --record are checked by expert/language/fileio.py (one line, never replacing a special
# file), not by click, whose refusals are several lines of usage
OUT = click.option("--out", type=click.Path(), default=None,
                   help="Write the ruling to this file instead of standard output.")


REGISTER = click.option("--register", "register_path", type=click.Path(dir_okay=False), default=None,
                        envvar="REFEREE_REGISTER",
                        help="The tournament's ruling register, one SQLite file "
                             "(default: $REFEREE_REGISTER, else ./referee-register.sqlite).")
SAVE = click.option("--no-register", "no_register", is_flag=True,
                    help="Do not save the ruling in the register (it then has no verification code).")
RECORD = click.option("--record", "record_path", type=click.Path(), default=None,
                      help="Also write the ruling record (JSON) to this file.")


def example(*lines: str) -> str:
    """A command's help epilog: examples, kept on their own lines ('\\b' stops click rewrapping)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


class Referee(click.Group):
    """Bad input ends in one line on stderr and exit code 2, never a traceback; with --format
    json the same error is also a JSON object on stdout ({"error": ..., "file": ..., "line": ...})."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except RefereeError as exc:
            from referee.expert.language.safe_text import one_line
            click.echo(f"error: {one_line(str(exc))}", err=True)   # nothing typed can forge lines or
            if ctx.meta.get("referee.format") == "json":             # send terminal escapes
                click.echo(json.dumps({"error": exc.message, "file": exc.file, "line": exc.line},
                                      ensure_ascii=False))
            ctx.exit(2)


@click.group(cls=Referee, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=example("referee games", "referee interview preferans", "referee rule case.yaml",
                            "referee articles preferans 8", "referee COMMAND -h    (help on one command)"))
@click.version_option(package_name="referee")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="The tournament's configuration (default: $REFEREE_CONFIG, else ./referee.toml): "
                   "its name, chief referee, register, language and rulebook parameter values.")
def main(config_file):
    """Settle disputes at card-game tournaments: interview, rule, explain, check.

    Rulebooks: preferans, skat, bridge, ulti (see `referee games`).
    """
    global _CONFIG_FILE
    _CONFIG_FILE = config_file


_CONFIG_FILE: str | None = None


def _tournament():
    from referee.expert.language.tournament import load_config
    return load_config(_CONFIG_FILE)


def _book(game: str, knowledge):
    """The rulebook, with the tournament's parameter values (referee.toml) applied."""
    from referee.expert.language.rulebook import load_rulebook
    from referee.expert.language.tournament import apply
    return apply(load_rulebook(game, knowledge), _tournament())


def _case_book(data: dict, path: str, knowledge):
    """The rulebook a case file names; an unknown game is the case file's error."""
    from referee.expert.language.rulebook import list_games
    if data["game"] not in list_games(knowledge):
        raise RefereeError(f"unknown game {data['game']!r}, expected one of: "
                           f"{', '.join(list_games(knowledge))}", path, getattr(data, "line", None))
    return _book(data["game"], knowledge)


def _check_lang(book, lang: str, both: bool = True) -> None:
    from referee.reports.render import check_language
    check_language(book, lang, both)


def _publish(ruling, book, fmt, lang, out, no_register, register_path, record_path, cards=None,
             times=None):
    """Save the ruling's record in the register (unless told not to), then print it with its
    verification code."""
    from referee.reports.render import check_language, render
    check_language(book, lang)
    if fmt == "pdf" and not out:
        raise RefereeError("--format pdf needs --out FILE.pdf")
    if out:                 # a target that cannot be written stops us before anything is registered
        from referee.expert.language.fileio import check_target
        check_target(out)
    from referee.expert.interview.publish import publish, stamp
    from referee.reports.document import stored_views
    tournament = _tournament()
    code = None
    if no_register:
        stamp(ruling, tournament)
    else:
        code, rid = publish(ruling, book, tournament, register=register_path, record_path=record_path,
                            cards=cards, times=times, document=stored_views)
        click.echo(f"ruling #{rid} saved in the register, verification code {code}", err=True)
    _emit(render(ruling, fmt, lang, code=code, tournament=tournament), out, fmt)


def ruling_time(ruling) -> str:
    return getattr(ruling, "ruled_at", "") or ""


def _emit(text: str, out: str | None, fmt: str = "text") -> None:
    if fmt == "pdf":
        from referee.reports.pdf import html_to_pdf
        from referee.expert.language.fileio import write_atomic
        write_atomic(out, html_to_pdf(text))
        click.echo(f"ruling written to {out}", err=True)
        return
    if out:
        from referee.expert.language.fileio import write_atomic
        write_atomic(out, text)
        click.echo(f"ruling written to {out}", err=True)
    else:
        click.echo(text, nl=False)


@main.command(epilog=example("referee games", "referee games --format json"))
@format_option()
@KNOWLEDGE
def games(fmt, knowledge):
    """List the installed rulebooks with language, source and counts."""
    from referee.expert.language.rulebook import list_games
    rows = []
    for game in list_games(knowledge):
        book = _book(game, knowledge)
        rows.append({"game": game, "language": book.language, "title": book.title,
                     "edition": book.edition, "source": book.source.get("document", ""),
                     "provisions": len(book.provisions),
                     "penalty_bearing": sum(1 for p in book.provisions.values() if p.penalty_bearing),
                     "productions": len(book.productions), "questions": len(book.questions),
                     "cases": len(book.cases)})
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for r in rows:
        click.echo(f"{r['game']:10} {r['language']}  {r['source']:28} "
                   f"{r['provisions']:4} provisions ({r['penalty_bearing']} penalty-bearing), "
                   f"{r['productions']} productions, {r['questions']} questions, "
                   f"{r['cases']} cases")


def _complete_article(ctx, _param, incomplete):
    """Shell completion of an ARTICLE: the rulebook's labels that start with what was typed."""
    from referee.expert.language.answers import fold
    from referee.expert.language.lookup import labels
    try:
        book = _book(ctx.params["game"], ctx.params.get("knowledge"))
    except (RefereeError, KeyError):
        return []
    return [label for label in labels(book) if fold(label).startswith(fold(incomplete))]


@main.command(epilog=example("referee articles preferans               # every provision, with its use in cases",
                             "referee articles preferans 8             # Član 8",
                             "referee articles preferans 'Član 8, stav 2'",
                             "referee articles bridge 64A1             # Правило 64 A1",
                             "referee articles skat 4.1.3",
                             "referee articles ulti 'Renonszok 2' --format json"))
@GAME
@click.argument("article", required=False, shell_complete=_complete_article)
@format_option()
@KNOWLEDGE
def articles(game, article, fmt, knowledge):
    """List a rulebook's encoded provisions (id, label, quote, English, use in cases), or show
    one ARTICLE by the rulebook's own label.

    ARTICLE is read as the rulebook writes it, without minding case or diacritics: "8" or
    "Član 8" (all of Član 8), "Član 8, stav 2", "64A1", "4.1" (4.1.1 to 4.1.11), "Renonszok 2",
    an article's name ("Član 17-21") or an inventory id ("preferans:8.ruled-fall").
    """
    book = _book(game, knowledge)
    if article is not None:
        _show_article(book, article, fmt)
        return
    from referee.expert.authoring.casebook import coverage, run_casebook
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


def _show_article(book, ref: str, fmt: str) -> None:
    from referee.expert.language.lookup import applied_by, article_lines, lookup_or_fail, provision_dict
    found = lookup_or_fail(book, ref)
    if fmt == "json":
        cited = applied_by(book)
        click.echo(json.dumps([dict(provision_dict(p), productions=cited.get(p.id, [])) for p in found],
                              ensure_ascii=False, indent=2))
        return
    for line in article_lines(book, found):
        click.echo(line)


@main.command(epilog=example("referee search kontra                     # in every rulebook",
                             "referee search revoke --game bridge",
                             "referee search 'lead out of turn' --format json"))
@click.argument("words", nargs=-1, required=True)
@click.option("--game", default=None, shell_complete=_complete_game,
              help="Search only this rulebook (default: every rulebook).")
@format_option()
@KNOWLEDGE
def search(words, game, fmt, knowledge):
    """Find provisions by the words of their text: the quote in the rulebook's language, the
    English rendering, the label and the notes. Every word must occur (as the start of a word:
    "renons" finds "renonsa"); case and diacritics do not count. Lists provision ids and labels,
    most occurrences first; exit code 1 when nothing is found."""
    from referee.expert.language.lookup import search as find
    from referee.expert.language.rulebook import list_games
    query = " ".join(words)
    rows = []
    for g in [game] if game else list_games(knowledge):
        for hit in find(_book(g, knowledge), query):
            p = hit.provision
            rows.append({"game": g, "id": p.id, "label": p.label, "kind": p.kind,
                         "penalty_bearing": p.penalty_bearing, "score": hit.score, "found_in": hit.fields,
                         "quote": p.quote, "english": p.english})
    if fmt == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for r in rows:
            click.echo(f"{r['id']}  [{r['label']}]  ({', '.join(r['found_in'])})")
            click.echo(f"    {_clip(r['english'])}")
        click.echo(f"{len(rows)} provision(s) mention {query!r}", err=True)
    if not rows:
        sys.exit(1)


def _clip(line: str, width: int = 110) -> str:
    line = " ".join(line.split())
    return line if len(line) <= width else line[:width - 1] + "…"


@main.command(epilog=example("referee schema article > article.schema.json",
                             "referee schema --list",
                             "referee schema rulebook --path      # where the installed file is"))
@click.argument("kind", required=False,
                shell_complete=lambda ctx, param, inc: [k for k in _schema_kinds() if k.startswith(inc)])
@click.option("--list", "list_kinds", is_flag=True, help="List the kinds of knowledge file and their files.")
@click.option("--path", "show_path", is_flag=True, help="Print the schema file's path instead of its content.")
def schema(kind, list_kinds, show_path):
    """Print the JSON Schema of a kind of knowledge file: rulebook, questions, article, cards or
    case. Point an editor at it to have keys and types checked as you type
    (knowledge/README.md, "Editor support")."""
    from referee.expert.language.knowledge_schema import KINDS, schema_path
    if list_kinds or kind is None:
        where = {"rulebook": "knowledge/<game>/rulebook.yaml", "questions": "knowledge/<game>/questions.yaml",
                 "article": "knowledge/<game>/articles/*.yaml", "cards": "knowledge/<game>/cards.yaml",
                 "case": "case files (referee rule, whatif, interview --resume)"}
        if kind is None and not list_kinds:
            raise RefereeError(f"which kind? expected one of {', '.join(KINDS)} (or --list)")
        for k in KINDS:
            click.echo(f"{k:10} {where[k]}")
        return
    path = schema_path(kind)
    click.echo(str(path) if show_path else path.read_text(encoding="utf-8"), nl=show_path)


def _schema_kinds():
    from referee.expert.language.knowledge_schema import KINDS
    return KINDS


@main.command(epilog=example("referee questions preferans", "referee questions bridge --lang ru",
                             "referee questions ulti --format json"))
@GAME
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Language of the question texts.")
@format_option()
@KNOWLEDGE
def questions(game, lang, fmt, knowledge):
    """List a rulebook's questions: id, type, allowed values (for case files and --set)."""
    from referee.expert.language.answers import allowed_values, describe_allowed, question_text
    from referee.expert.language.model import text
    book = _book(game, knowledge)
    _check_lang(book, lang, both=False)
    if fmt == "json":
        rows = []
        for q in book.questions.values():
            values = allowed_values(q, book)
            rows.append({"id": q.id, "type": q.type, "text": question_text(q, lang),
                         "help": text(q.help, lang) or None,
                         "values": None if values is None or q.type == "yesno" else [
                             {"value": v, "label": book.seat_label(v, lang) if q.type == "seat" else q.label(v, lang)}
                             for v in values],
                         "min": q.min, "max": q.max, "values_from": q.values_from,
                         "asked_always": q.when is None and q.from_earlier is None,
                         "from_earlier": q.from_earlier is not None, "file": q.file, "line": q.line})
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for q in book.questions.values():
        click.echo(f"{q.id} ({q.type}): {question_text(q, lang)}")
        if q.from_earlier is not None:       # knowledge/README.md, "What an earlier event establishes"
            click.echo("    never asked: answered from what the earlier events of the dispute established")
            continue
        click.echo(f"    {describe_allowed(q, book, lang=lang)}")


LANG = click.option("--lang", type=click.Choice([*LANGS, "both"]), default="en",
                    show_default=True,
                    help="Language of the ruling; 'both' prints English and the rulebook's language "
                         "side by side. Article quotes are always in the original.")


INCOMPLETE = click.option("--allow-incomplete", is_flag=True,
                          help="Rule even when the interview would still ask questions; the ruling "
                               "then says it is incomplete and names them.")


def _read_case(case: str) -> tuple[dict, str]:
    """A case file, or with '-' standard input; and the name its messages give."""
    from referee.expert.interview.casefile import read_case
    if case == "-":
        from referee.expert.language.yamlio import MAX_BYTES
        return read_case("<stdin>", sys.stdin.read(MAX_BYTES + 1)), "<stdin>"   # bounded like a file
    return read_case(case), case


@main.command(epilog=example("referee rule case.yaml", "referee rule case.yaml --format html --out ruling.html",
                             "referee rule case.yaml --lang both --no-register",
                             "cat case.yaml | referee rule - --format json"))
@click.argument("case", type=click.Path())   # checked when read: one line
@FORMAT
@LANG
@OUT
@REGISTER
@SAVE
@RECORD
@INCOMPLETE
@KNOWLEDGE
def rule(case, fmt, lang, out, register_path, no_register, record_path, allow_incomplete, knowledge):
    """Rule on a case file (game, header, answers, events, requests, cards) without asking
    anything; CASE '-' reads the case from standard input.

    The ruling is saved in the register and printed with its verification code. When the
    interview would still ask questions, they are listed and no ruling is printed (exit 3)
    unless --allow-incomplete."""
    from referee.expert.engine.ruler import Ruler
    from referee.expert.interview.adjudicate import drop_unaskable, rule_dispute
    from referee.expert.interview.casefile import case_dispute
    data, case = _read_case(case)
    book = _case_book(data, case, knowledge)
    dispute, header, sources = case_dispute(data, book, case)
    for where, qid in drop_unaskable(book, dispute, sources):
        at = "" if where is None else f" (event {where + 1})"
        click.echo(f"warning: {case}: the answer to {qid!r}{at} is ignored: the interview does not ask "
                   "it with the other answers (its when does not hold)", err=True)
    ruling = rule_dispute(Ruler(book), dispute, header, sources)
    _refuse_incomplete(ruling, case, allow_incomplete)
    _publish(ruling, book, fmt, lang, out, no_register, register_path, record_path, data.get("cards"))


def _refuse_incomplete(ruling, where: str, allowed: bool) -> None:
    """The questions the interview would still ask: without --allow-incomplete, name them and
    exit 3 before any ruling is printed or saved."""
    if not ruling.open_questions:
        return
    listed = ", ".join(ruling.open_questions)
    if allowed:
        click.echo(f"warning: {where}: the ruling is incomplete: the interview would still ask {listed}",
                   err=True)
        return
    click.echo(f"error: {where}: the interview would still ask: {listed}; answer them (or rule with "
               "--allow-incomplete, and the ruling says it is incomplete)", err=True)
    sys.exit(3)


@main.command(epilog=example("referee interview preferans",
                             "referee interview preferans --lang sr --table 4 --deal 12 --player declarer=Marko",
                             "referee interview bridge --enter-cards",
                             "referee interview preferans --resume interview-preferans-20261129-1510.yaml"))
@GAME
@click.option("--lang", type=click.Choice(["en", "sr", "pl", "ru", "hu", "both"]), default="en",
              show_default=True, help="Language of the questions and the ruling ('both': questions in "
                                      "the rulebook's language, ruling side by side).")
@click.option("--resume", type=click.Path(dir_okay=False, exists=False), default=None,
              help="Continue from answers saved by an interrupted interview.")
@click.option("--save", type=click.Path(), default=None,
              help="Where answers are saved as they are given (default: interview-GAME-TIME.yaml).")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False), default=None,
              help="A YAML file with the deal record (hands, contract, play; see expert/cards/README.md): "
                   "what the cards show is not asked.")
@click.option("--enter-cards/--no-enter-cards", "enter_cards", default=None,
              help="Type the cards (contract, hands, talon, the play trick by trick) before the "
                   "questions. Without either flag the interview asks 'Do you have the cards?' when "
                   "the rulebook reads facts from the cards and none were given.")
@click.option("--tournament", default=None, help="The tournament's name, for the ruling's header.")
@click.option("--table", default=None, help="The table number, for the ruling's header and the register.")
@click.option("--deal", default=None, help="The deal (board) number, for the ruling's header and the register.")
@click.option("--referee", "referee_name", default=None, help="Your name: the referee who rules.")
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
    feeds, 'back' undoes the last answer, 'unknown' answers a fact nobody can establish.
    At the review, '+' adds another event of the same deal and 'r' records what a player
    asks for. Answers are saved after each one: Ctrl-C or end of input leaves them in a
    case file to continue with --resume.
    """
    from referee.expert.console import prompt as console
    from referee.expert.interview.casefile import case_dispute, read_case
    from referee.expert.interview.session import Session
    from referee.expert.language.yamlio import load_file
    book = _book(game, knowledge)
    _check_lang(book, lang)           # before the first question, not after the last
    header_flags = {k: v for k, v in (("tournament", tournament), ("table", table), ("deal", deal),
                                      ("referee", referee_name)) if v}
    cards = None
    if cards_file:
        loaded = load_file(cards_file)
        cards = loaded.get("cards", loaded) if isinstance(loaded, dict) else loaded
    if resume:
        data = read_case(resume)
        if data["game"] != game:
            raise RefereeError(f"saved answers are for {data['game']!r}, not {game!r}", resume)
        case_dispute({k: v for k, v in data.items() if k != "session"}, book, resume)  # checked like any case
        session = Session.resume(book, data, lang, source=resume)
        if cards is not None:
            session.cards = cards
            session._derive_from_cards()
    else:
        session = Session(book, lang=lang, cards=cards, enter_cards=enter_cards, cards_source=cards_file)
        if enter_cards and not book.cards_map:
            click.echo(f"The {book.game} rulebook reads no facts from the cards (no cards.yaml): "
                       "the questions follow.")
    session.header.update(header_flags)
    if players:
        session.header["players"] = dict(session.header.get("players") or {}, **_players(players, book))
    save_to = Path(save or resume or f"interview-{game}-{datetime.now():%Y%m%d-%H%M%S}.yaml")
    if session.stage == "questions" and session.from_cards_note():
        click.echo(session.from_cards_note())

    to_stderr = fmt == "json" or out is not None     # stdout then holds the ruling alone

    def read(prompt: str, question=None) -> str:
        try:
            return click.prompt(prompt, default="", show_default=False, prompt_suffix="", err=to_stderr)
        except click.Abort:
            raise EOFError from None

    def write(line: str = "") -> None:
        click.echo(line, err=to_stderr)

    try:
        console.run(session, read, write, save_to)
    except console.Interrupted as stop:
        w = console.words(session.lang)
        click.echo(f"\n{w['saved']} {stop.path}", err=True)
        click.echo(w["resume"].format(game=game, path=stop.path), err=True)
        sys.exit(130)
    _publish(session.rule(), book, fmt, lang, out, no_register, register_path, record_path, session.cards,
             session.answer_times())


@main.command(epilog=example("referee serve                             # this laptop: http://127.0.0.1:8000",
                             "referee serve --host 0.0.0.0             # phones on the venue's network, with a code",
                             "referee serve --port 8080 --interviews disputes/"))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on. A loopback address asks no code; any other (0.0.0.0: every "
                   "network of this laptop) prints an access code and a QR code, and refuses whoever has not "
                   "given the code.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--interviews", type=click.Path(file_okay=False), default=None,
              help="Where the disputes are kept, a case file each, saved after every answer (default: "
                   "referee.toml's interviews, else ./interviews).")
@REGISTER
@KNOWLEDGE
def serve(host, port, interviews, register_path, knowledge):
    """The interview as a web page, for a phone or a tablet at the table.

    The same interview as `referee interview`: one question per screen, the cards tapped on a
    grid, help one tap away, back, the review, and the ruling as the signed front sheet
    (printable, HTML or PDF), saved in the register with its verification code. Nothing is
    fetched from the internet.
    """
    from referee.web.serve import serve as run
    tournament = _tournament()
    folder = Path(interviews or tournament.get("interviews") or "interviews")
    run(host, port, folder, register=register_path, knowledge=knowledge, tournament=tournament, echo=click.echo)


def _players(pairs, book) -> dict:
    result = {}
    for pair in pairs:
        seat, sep, name = pair.partition("=")
        if not sep or seat not in book.seat_ids:
            from referee.expert.language.answers import hint
            raise RefereeError(f"--player {pair!r}{hint(seat, book.seat_ids) if sep else ''}: expected "
                               f"SEAT=NAME with SEAT one of {', '.join(book.seat_ids)}")
        result[seat] = name
    return result


@main.command(epilog=example("referee test                              # every casebook",
                             "referee test skat -k revoke -v            # the cases named ...revoke...",
                             "referee test -k 'first defender*' --format json",
                             "referee test --format junit > casebooks.xml",
                             "referee test preferans --watch            # re-run on every save"))
@click.argument("game", required=False, shell_complete=_complete_game)
@click.option("-k", "patterns", multiple=True, metavar="PATTERN",
              help="Run only the cases whose name contains PATTERN (case-insensitive), or matches it "
                   "as a glob such as 'revoke*'; repeat for several (a case matching any runs).")
@click.option("-v", "--verbose", is_flag=True, help="List every case, not only failures.")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Per provision: the cases that apply it and those where it must not apply; per "
                   "production: the cases that reach it; per override: the cases that exercise it; per "
                   "threshold and `in:` value: the cases that decide it.")
@click.option("--update", is_flag=True,
              help="Rewrite the expect: of failing cases to the current rulings, asking for each.")
@format_option(["text", "json", "junit"], "text for people; json, or JUnit XML for CI systems and editors.")
@click.option("--watch", is_flag=True,
              help="Keep running: each time a knowledge file of a rulebook changes, run that rulebook's "
                   "casebook again (Ctrl-C stops).")
@KNOWLEDGE
@click.pass_context
def test(ctx, game, patterns, verbose, show_coverage, update, fmt, watch, knowledge):
    """Run the casebooks and end with 'N passed, N failed'; exit code 1 when a case fails."""
    from referee.expert.authoring.casebook import run_casebook
    from referee.expert.authoring.test_report import run_selected, select
    from referee.expert.engine.ruler import Ruler
    from referee.expert.language.rulebook import list_games
    from referee.reports.authoring_views import case_text, coverage_text, total_text
    games_ = [game] if game else list_games(knowledge)
    if fmt != "text" or watch:
        return _test_report_or_watch(ctx, games_, patterns, fmt, watch, verbose, show_coverage, update, knowledge)
    books = _test_books(games_, patterns, knowledge)
    passed = failed = updated = 0
    for g, book in books.items():
        ruler = Ruler(book)
        results = (run_selected(book, select(book, patterns), ruler).results if patterns
                   else run_casebook(book, ruler))
        for result in results:
            if result.passed:
                passed += 1
            else:
                failed += 1
            if verbose or not result.passed:
                click.echo(case_text(g, result), nl=False)
            if update and not result.passed and result.ruling is not None and _update_case(result):
                updated += 1
        if show_coverage:
            from referee.expert.authoring.analysis.coverage import (add_examples, boundary_rows, coverage_rows,
                                                                    override_rows, production_rows)
            from referee.expert.authoring.casebook import flow
            from referee.reports.authoring_views import boundaries_text, productions_text
            click.echo(coverage_text(g, coverage_rows(book, results)), nl=False)
            prows, orows = production_rows(book, results), override_rows(book, results)
            add_examples(book, ruler, prows, orows)
            click.echo(productions_text(g, prows, orows, flow), nl=False)
            click.echo(boundaries_text(g, boundary_rows(book, results), flow), nl=False)
    click.echo(total_text(passed, failed, updated if update else None), nl=False)
    if failed - updated:
        sys.exit(1)


def _test_books(games_, patterns, knowledge) -> dict:
    """The rulebooks to test; with -k only those with a case whose name matches (or an error
    naming the closest case names when none does)."""
    from referee.expert.authoring.test_report import no_case_matches, select
    books = {g: _book(g, knowledge) for g in games_}
    if patterns:
        chosen = {g: b for g, b in books.items() if select(b, patterns)}
        if not chosen:
            raise no_case_matches(patterns, [c.name for b in books.values() for c in b.cases])
        books = chosen
    return books


def _test_report_or_watch(ctx, games_, patterns, fmt, watch, verbose, show_coverage, update, knowledge):
    from referee.expert.authoring.test_report import run_selected, select, to_json, to_junit
    if update and (watch or fmt != "text"):
        raise RefereeError("--update asks about each failing case: use it alone, without --watch "
                           "or --format json|junit")
    if watch and fmt != "text":
        raise RefereeError(f"--watch prints a report after each change, as text: drop --format {fmt}")
    if show_coverage and fmt != "text":
        raise RefereeError(f"--coverage is a text report: drop --format {fmt}")
    if watch:
        return _watch_tests(ctx, games_, patterns, verbose, show_coverage, knowledge)
    runs = [run_selected(book, select(book, patterns)) for book in _test_books(games_, patterns, knowledge).values()]
    if fmt == "json":
        report = to_json(runs)
        click.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        click.echo(to_junit(runs), nl=False)
        report = to_json(runs)
    if report["failed"]:
        sys.exit(1)


def _watch_tests(ctx, games_, patterns, verbose, show_coverage, knowledge):
    from referee.expert.authoring import watch as watching
    from referee.expert.language.rulebook import knowledge_root
    root = knowledge_root(knowledge)

    def run(game: str) -> None:
        try:
            ctx.invoke(test, game=game, patterns=patterns, verbose=verbose, show_coverage=show_coverage,
                       update=False, fmt="text", watch=False, knowledge=knowledge)
        except SystemExit:          # a failing case: report it and keep watching
            pass
        except RefereeError as exc:  # a file half-edited: say what is wrong, wait for the next save
            click.echo(f"error: {exc}", err=True)

    def on_change(changed: dict) -> None:
        for game, paths in changed.items():
            names = ", ".join(str(p.relative_to(root / game)) for p in paths)
            click.echo(f"\n-- {datetime.now():%H:%M:%S} {game}: {names} changed")
            run(game)

    for game in games_:
        run(game)
    click.echo(f"watching {', '.join(games_)} under {root} (Ctrl-C stops)", err=True)
    try:
        watching.watch(root, games_, on_change)
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


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


@main.command(epilog=example("referee check", "referee check skat --strict",
                             "referee check mini --knowledge draft --format json"))
@click.argument("game", required=False, shell_complete=_complete_game)
@format_option()
@click.option("--strict", is_flag=True, help="Warnings fail too (exit 1), as errors do: for CI.")
@click.option("--no-cache", is_flag=True,
              help="Compute every analysis again instead of reusing the results of earlier checks "
                   "for what did not change.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: one per CPU; 1: everything in this process). "
                   "Each rulebook's casebook and its analyses are separate jobs.")
@KNOWLEDGE
def check(game, fmt, strict, no_cache, jobs, knowledge):
    """Validate knowledge: references, casebook coverage, and the rule-base analysis
    (conflicts, redundancy, unreachable productions, circularity, silent claims, unused
    knowledge, order dependence). Exit 1 when there are errors (with --strict, also when
    there are warnings); warnings alone are allowed. Results of earlier checks are reused for
    whatever the edits since did not touch."""
    import time
    from referee.expert.authoring.check_jobs import check_games
    from referee.expert.authoring.checks import PROGRESS_STEPS, problem_dict
    from referee.expert.language.rulebook import list_games
    games_ = [game] if game else list_games(knowledge)
    started = time.monotonic()
    if sys.stderr.isatty() and fmt == "text":
        # a bar narrow enough that the line, with "preferans: conflicts", fits 80 columns (a
        # line that wraps is redrawn below itself at every step)
        with click.progressbar(length=len(games_) * PROGRESS_STEPS, label="checking", file=sys.stderr, width=20,
                               item_show_func=lambda x: x) as bar:
            results = check_games(games_, knowledge, lambda g, label: bar.update(1, f"{g}: {label}"),
                                  cache=not no_cache, jobs=jobs)
    else:
        results = check_games(games_, knowledge, cache=not no_cache, jobs=jobs)
    errors = sum(len(p.errors) for p in results.values())
    if fmt == "json":
        click.echo(json.dumps({g: [problem_dict(i) for i in p.items] for g, p in results.items()},
                              ensure_ascii=False, indent=2))
    else:
        from referee.reports.authoring_views import check_text
        for g, problems in results.items():
            click.echo(check_text(g, problems), nl=False)
            for note in getattr(problems, "notes", []):
                click.echo(f"{g}: note: {note}", err=True)
        click.echo(f"checked {len(results)} rulebook(s) in {time.monotonic() - started:.1f} s", err=True)
    warnings = sum(len(p.warnings) for p in results.values())
    if strict and warnings and not errors:
        click.echo(f"--strict: {warnings} warning(s) fail the check", err=True)
    if errors or (strict and warnings):
        sys.exit(1)


def _complete_setting(book, incomplete: str) -> list:
    """QUESTION= for a question id being typed; QUESTION=VALUE for its values after the '='."""
    from click.shell_completion import CompletionItem
    from referee.expert.language.answers import allowed_values
    qid, sep, typed = incomplete.partition("=")
    if not sep:
        return [CompletionItem(f"{q.id}=", help=q.type) for q in book.questions.values() if q.id.startswith(qid)]
    q = book.questions.get(qid)
    values = allowed_values(q, book) if q is not None else None
    if values is None:
        return []
    words = ["yes", "no"] if q.type == "yesno" else [str(v) for v in values]
    return [CompletionItem(f"{qid}={w}") for w in words if w.startswith(typed)]


class _BashComplete(BashComplete):
    """bash splits 'QUESTION=VALUE' at '=' (it is in COMP_WORDBREAKS): the words are joined back
    before completing, and what bash replaces (the part after '=') is all that is offered.
    After 'QUESTION=' no space is added, so the value can follow at once."""

    source_template = _SOURCE_BASH.replace(
        "            COMPREPLY+=($value)",
        "            COMPREPLY+=($value)\n            [[ $value == *= ]] && compopt -o nospace")

    def get_completion_args(self):
        args, incomplete = super().get_completion_args()
        self.before = ""
        if incomplete == "=" and args:                       # cursor right after 'QUESTION='
            self.before, args, incomplete = args[-1] + "=", args[:-1], args[-1] + "="
        elif len(args) >= 2 and args[-1] == "=":             # 'QUESTION=' and part of a value
            self.before, args, incomplete = args[-2] + "=", args[:-2], args[-2] + "=" + incomplete
        return args, incomplete

    def format_completion(self, item):
        value = item.value
        if self.before and isinstance(value, str) and value.startswith(self.before):
            value = value[len(self.before):]
        if isinstance(value, str) and " " in value:       # an article label: one word for bash
            import shlex
            value = shlex.quote(value)
        return f"{item.type},{value}"


add_completion_class(_BashComplete)


class KeepsArgs(click.Command):
    """Keeps the words it was given: completing an option's value ('--set <TAB>'), click stops
    parsing at that option, so an argument before it (the case file) is not in ctx.params."""

    def parse_args(self, ctx, args):
        ctx.meta["referee.args"] = list(args)
        return super().parse_args(ctx, args)


def _argument(ctx, name: str):
    """An argument's value, parsed or (while completing) read from the words typed so far."""
    if ctx.params.get(name) is not None:
        return ctx.params[name]
    takes_value = {o for p in ctx.command.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
    words, skip = [], False
    for word in ctx.meta.get("referee.args", []):
        if skip:
            skip = False
        elif word.startswith("-") and word != "-":
            skip = word in takes_value
        else:
            words.append(word)
    names = [p.name for p in ctx.command.params if isinstance(p, click.Argument)]
    index = names.index(name)
    return words[index] if index < len(words) else None


def _complete_case_setting(ctx, _param, incomplete):
    """--set completion for a command on a case file: the case names its rulebook."""
    case = _argument(ctx, "case")
    if case in (None, "-"):             # standard input is the terminal here: nothing to read
        return []
    try:
        data, _ = _read_case(case)
        return _complete_setting(_book(data["game"], ctx.params.get("knowledge")), incomplete)
    except (RefereeError, KeyError, TypeError):
        return []


def _complete_appeal_setting(ctx, _param, incomplete):
    """--set completion for an appeal: the register's ruling names its rulebook."""
    try:
        with _register(ctx.params.get("register_path")) as reg:
            game = (reg.show(_argument(ctx, "record_or_id")).get("record") or {}).get("rulebook", {}).get("game")
        return _complete_setting(_book(game, ctx.params.get("knowledge")), incomplete) if game else []
    except Exception:   # completion must never fail loudly; no completion is the answer
        return []


@main.command(cls=KeepsArgs, epilog=example("referee whatif case.yaml --set partner_fell=no",
                             "referee whatif case.yaml --set game=herc --set contra_level= --format json",
                             "cat case.yaml | referee whatif - --set offender=defender_1"))
@click.argument("case", type=click.Path())   # checked when read: one line
@click.option("--set", "settings", multiple=True, required=True, metavar="QUESTION=VALUE",
              shell_complete=_complete_case_setting,
              help="An answer to change (repeatable), read as at the interview's prompt; "
                   "QUESTION= leaves it unanswered.")
@format_option(help="text: the changes as a diff; json: both rulings and the diff, for other programs.")
@INCOMPLETE
@KNOWLEDGE
def whatif(case, settings, fmt, allow_incomplete, knowledge):
    """The ruling on a case file with some facts changed, against the original; CASE '-'
    reads the case from standard input. N:QUESTION=VALUE changes event N's answer. When the
    changed facts open questions the interview would ask, they are named and nothing is ruled
    (exit 3) unless --allow-incomplete."""
    from referee.expert.engine.diff import ruling_diff
    from referee.expert.engine.ruler import Ruler
    from referee.expert.interview.adjudicate import rule_dispute
    from referee.expert.interview.amend import amend
    from referee.expert.interview.casefile import case_dispute
    from referee.reports.changes import whatif_view
    from referee.reports.render import render_template
    data, case = _read_case(case)
    book = _case_book(data, case, knowledge)
    dispute, header, sources = case_dispute(data, book, case)
    amendment = amend(book, dispute, list(settings))
    ruler = Ruler(book)
    before = rule_dispute(ruler, dispute, header, sources, ask=False)
    after = rule_dispute(ruler, amendment.dispute, header, sources)
    if amendment.opened and not allow_incomplete:
        click.echo(f"error: {case}: the changed facts open questions the interview would ask: "
                   f"{', '.join(amendment.opened)}; answer them with --set too (or --allow-incomplete)", err=True)
        sys.exit(3)
    if fmt == "json":
        click.echo(json.dumps({"answers": {"before": dispute.to_case(), "after": amendment.dispute.to_case()},
                               "changed": [c.to_dict() for c in amendment.changed],
                               "dropped": [c.to_dict() for c in amendment.dropped],
                               "opened": amendment.opened,
                               "diff": ruling_diff(before.to_dict(), after.to_dict()),
                               "before": before.to_dict(), "after": after.to_dict()},
                              ensure_ascii=False, indent=2, default=str))
    else:
        click.echo(render_template("whatif.txt.j2", **whatif_view(book, amendment, before, after)), nl=False)


@main.command(epilog=example("referee demo", "referee demo --lang sr --format html --out demo.html"))
@FORMAT
@click.option("--lang", type=click.Choice([*LANGS, "both"]), default="en", show_default=True,
              help="Language of the interview and the ruling (the preferans rulebook has en and sr; "
                   "'both': the ruling in the two side by side).")
@OUT
def demo(fmt, lang, out):
    """Replay a built-in preferans dispute through the interview and print the ruling (with
    --format json the replayed interview goes to stderr, the ruling alone to stdout)."""
    from referee.expert.console import prompt as console
    from referee.expert.interview.casefile import case_answers, read_case
    from referee.expert.interview.session import Session
    from referee.expert.language.rulebook import DEFAULT_ROOT
    from referee.reports.render import render
    path = DEFAULT_ROOT / "preferans" / "examples" / "demo.yaml"
    data = read_case(path)
    book = _book(data["game"], None)
    _check_lang(book, lang)
    answers, header = case_answers(data, book, path)
    to_stderr = fmt == "json" or out is not None     # stdout then holds the ruling alone

    def write(line: str = "") -> None:
        click.echo(line, err=to_stderr)
    session = Session(book, lang=lang, header=header, enter_cards=False)
    console.run(session, _Script(answers, write, session), write, None)
    write("")
    if fmt == "pdf" and not out:
        raise RefereeError("--format pdf needs --out FILE.pdf")
    _emit(render(session.rule(), fmt, lang, tournament=_tournament()), out, fmt)


class _Script:
    """Answers the interview's questions from a case file, echoing them as if typed."""

    def __init__(self, answers: dict, write=click.echo, session=None):
        self.answers = answers
        self.write = write
        self.session = session

    def __call__(self, prompt: str, question=None) -> str:
        if question is None:
            # the summary rules only on the word; other prompts without a question take Enter
            from referee.expert.interview.request_words import RULE_WORDS
            review = self.session is not None and self.session.stage == "review"
            typed = RULE_WORDS.get(self.session.lang, "rule") if review else ""
        elif question.id in self.answers:
            typed = _typed(self.answers[question.id])
        else:
            raise EOFError
        self.write(f"{prompt}{typed}")
        return typed


def _typed(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _register(path, create=False, readonly=False):
    from referee.expert.records.register import Register
    try:
        return Register(path, create=create, readonly=readonly)
    except RefereeError:
        raise
    except Exception as exc:  # sqlite refusing the file: say so in one line
        raise RefereeError(f"cannot open the register: {exc}", str(path or "referee-register.sqlite")) from None


def _fresh_book(game, knowledge):
    """The rulebook parsed from its files, not from the parse cache: whether a ruling was made
    with today's rulebook is decided by the files, never by the cache's word."""
    from referee.expert.language.rulebook import load_rulebook
    return load_rulebook(game, knowledge, cached=False)


@main.command(epilog=example("referee verify SHTIK-IYCP2", "referee verify record.json --format json"))
@click.argument("record_or_code")
@format_option(help="text for people; json: ok, status, code, differences … for other programs.")
@REGISTER
@KNOWLEDGE
def verify(record_or_code, fmt, register_path, knowledge):
    """Say whether a ruling record (JSON file) or a printed verification code matches the
    register, and name what differs when it does not. Exit code 1 when it does not match."""
    from referee.expert.records.record import load_record, looks_like_code, verify as check_it
    reg = None
    from referee.expert.records.register import default_register_path
    if default_register_path(register_path).exists():
        reg = _register(register_path, readonly=True)
    elif looks_like_code(record_or_code) and not Path(record_or_code).exists():
        raise RefereeError("no register to look the code up in, expected a register file "
                           "(--register or $REFEREE_REGISTER)", str(default_register_path(register_path)))
    book = None
    if Path(record_or_code).is_file():
        game = (load_record(record_or_code).get("rulebook") or {}).get("game")
        try:  # a record verifies even if its rulebook cannot be loaded here
            book = _fresh_book(game, knowledge) if game else None
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
            check_rulebook(result, _fresh_book(game, knowledge))
        except RefereeError:
            pass
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        from referee.reports.register_views import verification_text
        click.echo(verification_text(result), nl=False)
    if not result.ok:
        sys.exit(1)


@main.group(epilog=example("referee register list --from 2026-11-28", "referee register show 3",
                           "referee register search --table 4 --deal 12", "referee register stats --format json"))
def register():
    """The tournament's ruling register: list, show, search, stats, verify."""


def _trust(reg) -> None:
    """After a query: say on stderr which rulings failed their seal (left out), and exit 1."""
    note = reg.trust_note()
    if note:
        click.echo(f"warning: {note}", err=True)
        if getattr(reg, "seal_failures", None):
            sys.exit(1)


FILTERS = [
    click.option("--game", shell_complete=_complete_game, help="Only rulings under this rulebook."),
    click.option("--table", help="Only rulings at this table."),
    click.option("--deal", help="Only rulings on this deal (board)."),
    click.option("--player", help="Seat or name (part of it)."),
    click.option("--provision", help="An inventory id, e.g. preferans:7.out-of-turn."),
    click.option("--article", help="Only rulings citing this article, as the ruling names it (Član 7)."),
    click.option("--date", help="A date or its prefix: 2026-11."),
    click.option("--from", "date_from", metavar="DATE", help="Rulings on or after this date (2026-11-28)."),
    click.option("--to", "date_to", metavar="DATE", help="Rulings on or before this date (or month: 2026-11)."),
    click.option("--kind", type=click.Choice(["ruling", "appeal"]), help="Only rulings, or only appeal decisions."),
    click.option("--referee", help="Only rulings by this referee (part of the name)."),
]
LISTING = format_option()


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


@register.command("list", epilog=example("referee register list", "referee register list --referee Ana --limit 10",
                                          "referee register list --from 2026-11-28 --to 2026-11-29 --format json"))
@_filters
@click.option("--limit", type=int, default=None, help="At most this many rulings.")
@LISTING
@REGISTER
def register_list(register_path, limit, fmt, **filters):
    """List the rulings in the register (oldest first), optionally filtered."""
    from referee.reports.register_views import list_text
    given = _given(filters)
    with _register(register_path, readonly=True) as reg:
        _listing(reg.list(limit=limit, **given), fmt, list_text)
        _trust(reg)


@register.command("search", epilog=example("referee register search --table 4 --deal 12",
                                            "referee register search --provision preferans:8.ruled-fall"))
@_filters
@LISTING
@REGISTER
def register_search(register_path, fmt, **filters):
    """Find rulings by table, deal, player, provision, article, date or referee; with
    --provision, also how that provision was ruled before (precedents)."""
    from referee.reports.register_views import list_text, precedents_text
    given = _given(filters)
    if not given:
        raise RefereeError("search needs at least one of --game --table --deal --player --provision "
                           "--article --date --from --to --kind --referee")
    with _register(register_path, readonly=True) as reg:
        if given.get("provision"):
            provision = given.pop("provision")
            rows = reg.precedents(provision, **given)
            _listing(rows, fmt, lambda rows: precedents_text(provision, rows))
        else:
            _listing(reg.list(**given), fmt, list_text)
        _trust(reg)


@register.command("show", epilog=example("referee register show 3", "referee register show SHTIK-IYCP2 --format json",
                                         "referee register show 3 --format pdf --out ruling-3.pdf --lang both"))
@click.argument("id_or_code")
@format_option(["text", "json", "md", "html", "pdf"],
               "text: the register's summary (and its appeals); json: the sealed record; md, html, pdf: the "
               "ruling or appeal decision reprinted exactly as decided.")
@click.option("--lang", type=click.Choice([*LANGS, "both"]), default="en", show_default=True,
              help="Language of a reprinted document (md, html, pdf).")
@OUT
@REGISTER
def register_show(register_path, id_or_code, fmt, lang, out):
    """Show one ruling (by number or verification code) and its appeals; with --format
    md|html|pdf, reprint it."""
    from referee.reports.register_views import show_text
    with _register(register_path, readonly=True) as reg:
        shown = reg.show(id_or_code)
        _check_record_lang(shown["record"], lang)
        if fmt in ("md", "html", "pdf"):
            _reprint(shown["record"], fmt, lang, out)
        else:
            _listing(shown, fmt, show_text)
        _trust(reg)


@main.command(epilog=example("referee reprint ZEBQH-RZGN5", "referee reprint 3 --format pdf --out ruling-3.pdf",
                             "referee reprint 3 --lang sr --format html --out odluka.html"))
@click.argument("id_or_code")
@format_option(["text", "md", "html", "pdf"], "Format of the reprinted document.")
@click.option("--lang", type=click.Choice([*LANGS, "both"]), default="en", show_default=True,
              help="Language of the document: English, the rulebook's language, or both.")
@OUT
@REGISTER
def reprint(id_or_code, fmt, lang, out, register_path):
    """Reprint a registered ruling or appeal decision exactly as it was decided, from its sealed
    record (it is not ruled again)."""
    with _register(register_path, readonly=True) as reg:
        shown = reg.show(id_or_code)
        _reprint(shown["record"], fmt, lang, out)
        _trust(reg)


def _reprint(record: dict, fmt: str, lang: str, out) -> None:
    from referee.expert.records.record import format_code
    from referee.reports.render import render_stored
    stored = record.get("document")
    if not stored:
        raise RefereeError(f"ruling {format_code(record.get('code', ''))} was registered before rulings kept "
                           "their printed document; print it again with `referee rule` on its answers")
    _check_record_lang(record, lang)
    if fmt == "pdf" and not out:
        raise RefereeError("--format pdf needs --out FILE.pdf")
    _emit(render_stored(stored, fmt, lang, format_code(record["code"])), out, fmt)


def _check_record_lang(record: dict, lang: str) -> None:
    """A registered document is reprinted in the languages its record holds, refused otherwise as
    every --lang is."""
    from referee.reports.render import refuse_language
    have = list(record.get("document") or {}) or ["en"]
    refuse_language((record.get("rulebook") or {}).get("game") or "registered", have, lang)


@register.command("stats", epilog=example("referee register stats", "referee register stats --game bridge --format json"))
@_filters
@LISTING
@REGISTER
def register_stats(register_path, fmt, **filters):
    """Counts: rulings per referee and table, most-cited provisions and articles."""
    from referee.reports.register_views import stats_text
    given = _given(filters)
    with _register(register_path, readonly=True) as reg:
        _listing(reg.stats(**given), fmt, stats_text)
        _trust(reg)


@register.command("verify", epilog=example("referee register verify",
                                            "referee register verify --register day2.sqlite --format json"))
@LISTING
@REGISTER
def register_verify(register_path, fmt):
    """Re-check every ruling's seal (and the chain between them), every record, every indexed
    column and every index row (citations, penalties, players, appeals) against the sealed
    records; name each difference. Exit 1 when anything differs. Prints the head (the last
    seal, short): written down, it shows later whether rulings were cut off the end."""
    from referee.expert.records.register_check import check_register
    with _register(register_path, readonly=True) as reg:
        result = check_register(reg)
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        from referee.reports.register_views import register_check_text
        click.echo(register_check_text(result, reg.path), nl=False)
    if not result.ok:
        sys.exit(1)


@main.command(cls=KeepsArgs, epilog=example("referee appeal 1 --set partner_fell=no --note \"the partner did not fall\"",
                             "referee appeal SHTIK-IYCP2 --set offender=defender_1 --referee \"Appeals committee\"",
                             "referee appeal 3 --set 2:lead_followed=yes --format pdf --out appeal-3.pdf --lang both"))
@click.argument("record_or_id")
@click.option("--set", "sets", multiple=True, required=True, metavar="QUESTION=VALUE",
              shell_complete=_complete_appeal_setting,
              help="An amended fact (repeat for several); N:QUESTION=VALUE for event N; 'Q=' leaves Q unanswered.")
@click.option("--note", default=None, help="The committee's note, kept with the decision.")
@click.option("--referee", "committee", default=None, help="Who decides the appeal (the committee).")
@FORMAT
@LANG
@OUT
@INCOMPLETE
@REGISTER
@KNOWLEDGE
def appeal(record_or_id, sets, note, committee, fmt, lang, out, allow_incomplete, register_path, knowledge):
    """Re-rule on amended facts: the ruling appealed, the amended facts, the new decision and the
    change per player by name, with the committee's signature lines; saved in the register linked
    to the original, which is never altered. When the amended facts open questions, they are
    named and nothing is decided (exit 3) unless --allow-incomplete."""
    from referee.expert.interview.appeal import decide_appeal, load_original
    from referee.expert.records.record import format_code
    from referee.reports.render import check_language, render_appeal, stored_appeal
    tournament = _tournament()
    if fmt == "pdf" and not out:
        raise RefereeError("--format pdf needs --out FILE.pdf")
    with _register(register_path or tournament.get("register")) as reg:
        original, oid = load_original(record_or_id, reg)
        book = _book((original.get("rulebook") or {}).get("game") or "", knowledge)
        check_language(book, lang)

        def document(ruling, amendment, original_):
            return stored_appeal(book, original_, ruling, amendment, tournament, note, committee)
        decision, ruling, amendment = decide_appeal(original, list(sets), book, note=note, referee=committee,
                                                    document=document)
        _refuse_opened(amendment, record_or_id, allow_incomplete)
        aid = reg.save_appeal(decision, original)
    code = format_code(decision["code"])
    click.echo(f"appeal #{aid} on ruling #{oid} saved in the register, verification code {code}", err=True)
    if fmt == "json":
        _emit(json.dumps(decision, ensure_ascii=False, indent=2) + "\n", out)
        return
    _emit(render_appeal(book, original, ruling, amendment, fmt, lang, code, tournament, note, committee), out, fmt)


def _refuse_opened(amendment, where: str, allowed: bool) -> None:
    if amendment.opened and not allowed:
        click.echo(f"error: {where}: the amended facts open questions the interview would ask: "
                   f"{', '.join(amendment.opened)}; amend them too (or --allow-incomplete)", err=True)
        sys.exit(3)
