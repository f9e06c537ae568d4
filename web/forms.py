"""What a submitted screen amounts to: the text the session's ``answer()`` reads, exactly what a
referee would type at the terminal ("yes", "2", "revoke, lead", "♠AK7 ♥QJ109", "+", "r", "",
"unknown"), so that the session checks and refuses a tap as it does a typed line.

A form says what was done in ``do``: ``answer`` (the fields below), ``skip`` (Enter: leave it
out, skip a card step, rule at the review), ``unknown``, ``back``, ``change`` (review row N),
``event`` ('+'), ``request`` ('r'), ``typed`` (the card notation typed instead of tapped).
A card step submitted with nothing tapped is refused with the reason ``nothing_tapped`` (the
page words it): it is not the same as skipping the step.
"""
from __future__ import annotations

from dataclasses import dataclass

from referee.expert.interview.session import AnswerRefused, Prompt
from referee.web.card_grid import GRID_KINDS, cards_text


@dataclass
class Action:
    kind: str          # answer | back
    raw: str = ""


def read(prompt: Prompt, form, game: str) -> Action:
    do = form.get("do", "answer")
    if do == "back":
        return Action("back")
    if do in ("skip", "rule"):
        return Action("answer", "")
    if do == "unknown":
        return Action("answer", "unknown")
    if do == "event":
        return Action("answer", "+")
    if do == "request":
        return Action("answer", "r")
    if do == "change":
        return Action("answer", str(form.get("row", "")).strip())
    if do == "typed":
        return Action("answer", str(form.get("typed", "")))
    if prompt.kind == "card":
        return Action("answer", _card_step(prompt, form, game))
    return Action("answer", _value(prompt, form))


def _value(prompt: Prompt, form) -> str:
    if prompt.type in ("multi", "order"):
        if prompt.type == "order" and form.get("order"):
            picked = [v for v in form["order"].split(",") if v]
        else:
            picked = form.getlist("value")
        return ", ".join(picked)
    return str(form.get("value", ""))


def _card_step(prompt: Prompt, form, game: str) -> str:
    kind = prompt.card_kind
    if kind in GRID_KINDS:
        ordered = kind == "trick"
        codes = [c for c in form.get("order", "").split(",") if c] if ordered and form.get("order") \
            else form.getlist("card")
        if not codes:
            raise AnswerRefused("", "nothing_tapped")
        return cards_text(game, codes, ordered)
    if kind == "seats":
        seats = [s for s in form.get("order", "").split(",") if s] or form.getlist("seat")
        if not seats:
            raise AnswerRefused("", "nothing_tapped")
        return " ".join(seats)
    if kind == "bids":
        bids = [(seat[4:], value) for seat, value in form.items() if seat.startswith("bid:") and value]
        return " ".join(f"{seat}={value}" for seat, value in bids)
    return str(form.get("value", ""))
