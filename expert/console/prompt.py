"""The interview at the table: prompts, help, back, a summary before ruling, autosave."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from referee.expert.language import prompt_words
from referee.expert.language.answers import allowed_values, describe_allowed, parse_typed, question_text, show_value
from referee.expert.interview.casefile import save_case
from referee.expert.language.errors import RefereeError
from referee.expert.interview.relevance import Interview, articles_fed, prune
from referee.expert.language.model import Question, Rulebook, text

Reader = Callable[..., str]   # read(prompt, question=None) -> what was typed
Writer = Callable[[str], None]


class Interrupted(Exception):
    def __init__(self, path: Path):
        super().__init__(str(path))
        self.path = path


def words(lang: str) -> dict:
    return prompt_words.words(prompt_words.INTERVIEW, lang)


def run(book: Rulebook, read: Reader, write: Writer, save_to: Path, answers: dict | None = None,
        header: dict | None = None, lang: str = "en", cards: dict | None = None,
        known: dict | None = None, times: dict | None = None) -> dict:
    """Ask until nothing can change the ruling; return the answers. Saves after every answer.

    ``read`` raises EOFError or KeyboardInterrupt when the referee stops; the answers so far are
    then saved and ``Interrupted`` is raised with the file's path.
    """
    w = words(lang)
    names = dict((header or {}).get("players") or {})
    interview = Interview(book, dict(known or {}, **(answers or {})))
    interview.history = [q for q in interview.history if q not in (known or {})]

    def save(note: str) -> None:
        # what the cards answer is not saved as the referee's answer: the cards are saved
        given = {q: v for q, v in interview.answers.items() if q not in (known or {}) or q in (answers or {})}
        save_case(save_to, book.game, given, header, note, cards)
    try:
        while True:
            q = interview.next_question()
            if q is None:
                if not _review(book, interview, read, write, lang, names):
                    break
                continue
            _ask(book, interview, q, read, write, lang, names)
            interview.answers = _pruned(book, interview)
            save("referee interview, in progress")
    except (EOFError, KeyboardInterrupt):
        save("referee interview, interrupted")
        raise Interrupted(save_to) from None
    save("referee interview, complete")
    if times is not None:
        times.update(interview.times)
    write(f"{w['saved']} {save_to}")
    return interview.answers


def _pruned(book: Rulebook, interview: Interview) -> dict:
    kept = prune(book, interview.answers)
    interview.history = [q for q in interview.history if q in kept]
    return kept


def _ask(book: Rulebook, interview: Interview, q: Question, read: Reader, write: Writer, lang: str,
         names: dict) -> None:
    """``names``: the players' names by seat, shown beside the seats offered."""
    w = words(lang)
    while True:
        write("")
        write(question_text(q, lang))
        values = allowed_values(q, book, interview.answers)
        if values is not None and q.type != "yesno":
            for i, v in enumerate(values, 1):
                label = book.seat_label(v, lang) if q.type == "seat" else _label(book, q, v, lang)
                named = f" — {names[v]}" if q.type == "seat" and names.get(v) else ""
                write(f"  {i}. {label} [{v}]{named}")
        allowed = describe_allowed(q, book, interview.answers, lang)
        skip = f" {w['text_skip']}" if q.type == "text" else ""
        write(f"  {allowed}{skip} {w['hint']}")
        raw = read("> ", q).strip()
        if not raw and q.type == "text":
            interview.skip(q.id)          # a description for the record; Enter leaves it out
            return
        if raw == "?":
            _help(book, q, write, lang)
            continue
        if raw.lower() in prompt_words.BACK_WORDS:
            undone = interview.back()
            write(f"{w['undone']} {undone!r}." if undone else w["nothing"])
            if undone:
                return
            continue
        try:
            value = parse_typed(q, raw, book, interview.answers, lang)
        except RefereeError:
            write("  ! " + w["refused"].format(raw=raw, allowed=allowed))
            continue
        interview.give(q.id, value)
        return


def _label(book: Rulebook, q: Question, value, lang: str) -> str:
    if q.type == "order" and q.values_from in book.questions:
        return book.questions[q.values_from].label(value, lang)
    return q.label(value, lang)


def _help(book: Rulebook, q: Question, write: Writer, lang: str) -> None:
    help_text = text(q.help, lang)
    if help_text:
        write(help_text)
    for pid in articles_fed(book, q.id):
        prov = book.provisions.get(pid)
        if prov:
            write(f"  {prov.label} [{pid}]: \"{prov.quote}\"")
            write(f"    {words(lang)['in_english']}: {prov.english}")


def _review(book: Rulebook, interview: Interview, read: Reader, write: Writer, lang: str,
            names: dict) -> bool:
    """Show every answer; return True if the referee changed one (ask again), else False."""
    w = words(lang)
    rows = [qid for qid in book.questions if qid in interview.answers]
    write("")
    write(w["summary"])
    for i, qid in enumerate(rows, 1):
        q = book.questions[qid]
        write(f"  {i}. {question_text(q, lang)} {show_value(q, interview.answers[qid], book, lang)}")
    while True:
        raw = read(w["change"] + " ").strip()
        if not raw:
            return False
        if raw.isdecimal() and raw.isascii() and 1 <= int(raw) <= len(rows):
            q = book.questions[rows[int(raw) - 1]]
            _ask(book, interview, q, read, write, lang, names)
            interview.answers = _pruned(book, interview)
            return True
        write("  ! " + w["pick"].format(n=len(rows)))
