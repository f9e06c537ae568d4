"""The rulebooks a server rules with, each loaded once (with the tournament's parameter values),
and one engine per rulebook that rules one dispute at a time (an Experta engine is reset and
run per ruling, so two rulings on it at once would mix)."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from referee.expert.engine.ruler import Ruler
from referee.expert.language.model import Rulebook
from referee.expert.language.rulebook import list_games, load_rulebook
from referee.expert.language.tournament import Tournament, apply


class Rulebooks:
    def __init__(self, tournament: Tournament, knowledge: str | None = None):
        self.tournament, self.knowledge = tournament, knowledge
        self.games = list_games(knowledge)
        self._books: dict[str, Rulebook] = {}
        self._rulers: dict[str, Ruler] = {}
        self._locks: dict[str, threading.Lock] = {g: threading.Lock() for g in self.games}
        self._loading = threading.Lock()

    def book(self, game: str) -> Rulebook:
        if game not in self.games:
            raise KeyError(game)
        with self._loading:
            if game not in self._books:
                self._books[game] = apply(load_rulebook(game, self.knowledge), self.tournament)
            return self._books[game]

    @contextmanager
    def ruler(self, game: str):
        """The rulebook's engine, held for one ruling."""
        book = self.book(game)
        with self._locks[game]:
            if game not in self._rulers:
                self._rulers[game] = Ruler(book)
            yield self._rulers[game]

    def warm(self) -> None:
        """Load every rulebook and build its engine now (a server calls this in the background
        at start-up), so that the first ruling of each game does not wait for it."""
        for game in self.games:
            try:
                with self.ruler(game):
                    pass
            except Exception:            # a rulebook that does not load says so when it is used
                continue
        try:                             # the front sheet's template, parsed once now
            from referee.reports.render import _env
            _env("html").get_template("ruling.html.j2")
        except Exception:                # a warm-up only: the first ruling parses it otherwise
            pass
