"""The interview in a terminal: a front end over ``interview.session.Session``.

It only shows prompts and reads lines: '?' for help (one screen; '??' for the articles' full
texts; '? 8' for an article by its label), 'back' to undo, Enter to skip what may be skipped.
A refused answer prints its reason under the prompt without printing the menu again. The
session is saved after every step; end of input or Ctrl-C saves it and raises ``Interrupted``.
"""
from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path
from typing import Callable

from referee.expert.interview import request_words
from referee.expert.interview.casefile import save_session
from referee.expert.interview.session import AnswerRefused, Prompt, Session
from referee.expert.language import prompt_words
from referee.expert.language.model import Rulebook, scope_label

Reader = Callable[..., str]   # read(prompt, question=None) -> what was typed
Writer = Callable[[str], None]


class Interrupted(Exception):
    def __init__(self, path: Path):
        super().__init__(str(path))
        self.path = path


def words(lang: str) -> dict:
    return prompt_words.words(prompt_words.INTERVIEW, lang)


def run(session: Session, read: Reader, write: Writer, save_to: Path | None) -> Session:
    """Ask until the referee asks for the ruling. Saves after every step (when ``save_to``)."""
    lang = session.lang
    w = words(lang)

    def save(note: str) -> None:
        if save_to is not None:
            save_session(save_to, session, note)

    shown: tuple | None = None
    stage = session.stage
    try:
        while True:
            prompt = session.next()
            if session.stage != stage:
                _stage_changed(session, stage, write)
                stage = session.stage
            if prompt is None:
                break
            ident = (prompt.kind, prompt.id, prompt.event, len(prompt.rows))
            if ident != shown:
                _show(session, prompt, write)
                shown = ident
            raw = read(_line(prompt), _question_of(session, prompt))
            raw = (raw if isinstance(raw, str) else "").strip()
            if raw.startswith("?"):
                _help(session, prompt, raw[1:].strip(), write)
                continue
            if raw.lower() in prompt_words.BACK_WORDS:
                undone = session.back()
                if undone is None:
                    write(w["nothing"])
                else:
                    write(f"{w['undone']} {undone!r}." if prompt.kind != "card" else f"  {undone}")
                    save("referee interview, in progress")
                shown = None
                continue
            try:
                note = session.answer(raw)
            except AnswerRefused as exc:
                write("  ! " + _refusal(session, prompt, exc, w))
                continue
            if note:
                write("  " + note)
            save("referee interview, in progress")
    except (EOFError, KeyboardInterrupt):
        save("referee interview, interrupted")
        raise Interrupted(save_to) from None
    save("referee interview, complete")
    if save_to is not None:
        write(f"{w['saved']} {save_to}")
    return session


def _refusal(session: Session, prompt: Prompt, exc: AnswerRefused, w: dict) -> str:
    """Why an answer was refused, with what is expected (a menu's numbers named) and, for a value
    close to an allowed one, a did-you-mean."""
    if prompt.kind in ("card", "offer", "review", "request_text", "request_provision", "request_on",
                       "request_event") or exc.conflict or prompt.type == "cards":
        return exc.reason        # cards: what is wrong with the card says more than the format
    if _compact(prompt):
        # the menu above names the values: say the numbers, not the whole list again
        aw = prompt_words.words(prompt_words.ALLOWED, session.lang)
        said = w["refused"].format(raw=exc.raw, allowed=aw["menu_nums"].format(n=len(prompt.options)))
    else:
        said = w["refused"].format(raw=exc.raw, allowed=prompt.allowed or exc.allowed)
        if prompt.options:
            said += f" ({_numbers(prompt, session.lang)})"
    q = session.book.questions.get(prompt.id) if prompt.kind == "question" else None
    if q is not None:
        from referee.expert.language.answers import value_hint
        said += value_hint(q, exc.raw, session.book, session.answers_for(session.current), session.lang)
    return said


def _compact(prompt: Prompt) -> bool:
    """A menu long enough that listing its values again would push it off a 24-line screen."""
    return len(prompt.options or []) > 6 and prompt.type not in ("yesno", "order")


def _menu_hint(prompt: Prompt, lang: str) -> str:
    """What a numbered menu accepts, in one short line (an 80-column terminal keeps the question
    and the menu on screen): its numbers, or the names shown in brackets."""
    aw = prompt_words.words(prompt_words.ALLOWED, lang)
    return aw["menu_some" if prompt.type == "multi" else "menu_one"].format(n=len(prompt.options))


def _numbers(prompt: Prompt, lang: str) -> str:
    n = len(prompt.options)
    return {"sr": f"ili broj od 1 do {n}", "pl": f"lub numer od 1 do {n}", "ru": f"или номер от 1 до {n}",
            "hu": f"vagy egy szám 1 és {n} között"}.get(lang, f"or a number from 1 to {n}")


def _stage_changed(session: Session, before: str, write: Writer) -> None:
    if session.stage == "cards" and before != "cards":
        write("")
        write(prompt_words.words(prompt_words.CARDS, session.lang)["intro"])
    if before == "cards" and session.stage != "cards":
        note = session.from_cards_note()
        if note:
            write(note)


def _question_of(session: Session, prompt: Prompt):
    return session.book.questions.get(prompt.id) if prompt.kind == "question" else None


def _line(prompt: Prompt) -> str:
    if prompt.kind in ("offer", "card", "review", "name"):
        return prompt.text + " "
    return "> "


def _show(session: Session, prompt: Prompt, write: Writer) -> None:
    lang = session.lang
    w, ws = words(lang), prompt_words.words(prompt_words.SESSION, lang)
    if prompt.kind == "card":
        if prompt.heading:
            write(prompt.heading)
        return
    if prompt.kind in ("offer", "name"):
        return
    if prompt.kind == "review":
        _review(session, prompt, write)
        return
    long_menu = len(prompt.options or []) > 12
    if not long_menu:
        write("")                  # a long menu needs every line of a 24-line terminal
    if prompt.heading:
        write(prompt.heading)      # a request's follow-ups, announced before the first
    write(prompt.text)
    if prompt.conditional_on:
        # each unknown fact with the value the question is asked for
        write("  " + ws["conditional"].format(facts=prompt.conditional_note or ", ".join(
            _fact_name(session, q) for q in prompt.conditional_on)))
    if prompt.options and prompt.type != "yesno":
        width = shutil.get_terminal_size((80, 24)).columns
        for i, o in enumerate(prompt.options, 1):
            named = f" — {o.name}" if o.name else ""
            # a request the claims made can give is marked where it stands: the numbers stay put
            mark = "* " if o.likely else ""
            # whom a request names is a player, not a number (a number there is an amount typed
            # ahead): that menu is not numbered
            num = "-" if prompt.kind == "request_on" else f"{i}."
            line = f"  {num} {mark}{o.label} [{o.value}]{named}"
            bare = f"  {num} {mark}{o.label}{named}"
            # a value's [name] is a second way to answer; where it alone would wrap the line,
            # the number is enough and the menu stays on one screen
            write(line if len(line) <= width else bare)
        if any(o.likely for o in prompt.options):
            write("  " + ws["request_likely"])
    if prompt.kind == "question":
        skip = f" {w['text_skip']}" if prompt.type in ("text", "cards") else ""
        unknown = f"; {ws['unknown_hint']}" if prompt.type not in ("text", "cards") else ""
        if _compact(prompt):
            # one line under a long menu: its numbers, 'unknown', help and back
            aw = prompt_words.words(prompt_words.ALLOWED, lang)
            write(f"  {_menu_hint(prompt, lang)}; \u201c{aw['unknown']}\u201d · {w['hint_short']}")
        else:
            write(f"  {prompt.allowed}{unknown}{skip} {w['hint']}")
    elif prompt.can_skip and "Enter" not in prompt.text:
        # a prompt that says what Enter gives ("Enter: event 2", "Enter: the other side") is not
        # also told that Enter leaves it out
        write(f"  {w['text_skip']}")


def _fact_name(session: Session, qid: str) -> str:
    from referee.expert.language.answers import question_text
    q = session.book.questions.get(qid)
    return question_text(q, session.lang) if q else qid


def _review(session: Session, prompt: Prompt, write: Writer) -> None:
    w, ws = words(session.lang), prompt_words.words(prompt_words.SESSION, session.lang)
    write("")
    write(w["summary"])
    several = len(session.events) > 1
    heading = object()
    for i, row in enumerate(prompt.rows, 1):
        if several and row["event"] != heading:
            heading = row["event"]
            write("  " + (ws["shared_heading"] if heading is None else ws["event"].format(n=heading + 1) + ":"))
        write(f"  {i}. {row['text']} {row['shown']}")
    if session.requests:
        rw = request_words.words(session.lang)
        write("  " + ws["requests_heading"])
        names = session.header.get("players") or {}
        options = {o.value: o.label for o in session.request_options()}
        for r in session.requests:
            who = names.get(r.party) or session.book.seat_label(r.party, session.lang)
            said = f" — \u201c{r.text}\u201d" if r.text else ""
            how_long = (", " + scope_label(session.book, r.asks.partition(":")[2], r.scope, session.lang)
                        if r.scope else "")
            # whom and how much, as recorded: a misplaced answer shows here, before the ruling
            on = f", {rw['on_short']}: {names.get(r.on) or session.book.seat_label(r.on, session.lang)}" \
                if r.on else ""
            much = f", {rw['amount_short']}: {r.amount:g}" if r.amount is not None else ""
            event = f" ({ws['event'].format(n=r.event)})" if r.event is not None and several else ""
            write(f"    - {who}{event}: {options.get(r.asks, r.asks)}{on}{much}{how_long}{said}")


def _help(session: Session, prompt: Prompt, arg: str, write: Writer) -> None:
    """'?': the prompt's help and the articles it feeds by label; '??': their full texts;
    '? LABEL': one article by its label or id."""
    w = words(session.lang)
    book = session.book
    if arg and arg != "?":
        from referee.expert.language.lookup import lookup
        found = lookup(book, arg)
        if not found:
            write("  ! " + prompt_words.words(prompt_words.SESSION, session.lang)["no_article"].format(raw=arg))
            return
        for prov in found:
            _article(book, prov.id, write, w)
        return
    info = session.help(prompt)
    if info["help"]:
        write(info["help"])
    if info.get("unknown"):
        write(f"  ({info['unknown']})")
    full = arg == "?"
    order = {pid: n for n, pid in enumerate(book.provisions)}
    articles = sorted(info["articles"], key=lambda a: order.get(a["id"], len(order)))
    if full:
        for a in articles:
            _article(book, a["id"], write, w)
    elif len(articles) <= SHORT_LIST:
        for a in articles:
            write(_gist(a["label"], book.provisions[a["id"]].english))
    else:
        # a question that feeds most of the rulebook (the claim, the offender): the articles by
        # number, wrapped, so '?' still fits one screen ('? LABEL' shows one)
        for line in textwrap.wrap(_by_number([a["label"] for a in articles]), 76):
            write("  " + line)
    if info["articles"] and not full:
        write("  (?? " + _full_texts(session.lang) + "; ? LABEL: " + _one_article(session.lang) + ")")


SHORT_LIST = 12         # articles '?' lists one per line; more are listed by label, wrapped


def _by_number(labels: list[str]) -> str:
    """Labels cut to their article's number, once each, a word said once for its run of numbers:
    "Правило 11A", "Правило 11B", "Правило 12A" -> "Правило 11, 12"; "Član 7, stav 6" -> "Član 7";
    labels that are numbers alone ("4.1.3") as they are."""
    runs: list[tuple[str, list[str]]] = []
    for label in labels:
        m = re.match(r"^(\D+?)\s*(\d+)", label)
        if m and "," not in m.group(1):
            word, number = m.group(1).strip(), m.group(2)
        elif m:
            word, number = label.split(",")[0].strip(), ""       # "Mondások, 1. mondat": no number
        else:
            word, number = "", label.split(",")[0]               # "4.1.3"
        if runs and runs[-1][0] == word:
            if number and number not in runs[-1][1]:
                runs[-1][1].append(number)
        else:
            runs.append((word, [number] if number else []))
    return ", ".join(f"{word} {', '.join(nums)}".strip() for word, nums in runs)


def _gist(label: str, english: str, width: int = 78) -> str:
    """One line of '?': an article's label and the start of what it says (in English), cut to
    fit a terminal line; the ids are for rule authors ('??' and the ruling's technical record
    show them), not for the referee at the table."""
    line = f"  {label} \u2014 " + " ".join((english or "").split())
    return line if len(line) <= width else line[:width - 1].rstrip() + "\u2026"


def _article(book: Rulebook, pid: str, write: Writer, w: dict) -> None:
    prov = book.provisions[pid]
    write(f"  {prov.label} [{pid}]: \u201c{prov.quote}\u201d")
    write(f"    {w['in_english']}: {prov.english}")


def _full_texts(lang: str) -> str:
    return {"sr": "pune tekstove članova", "pl": "pełne teksty przepisów", "ru": "полные тексты правил",
            "hu": "a szabályok teljes szövege"}.get(lang, "the articles' full texts")


def _one_article(lang: str) -> str:
    return {"sr": "jedan član po oznaci", "pl": "jeden przepis po oznaczeniu", "ru": "одно правило по номеру",
            "hu": "egy szabály a jelölése szerint"}.get(lang, "one article by its label")
