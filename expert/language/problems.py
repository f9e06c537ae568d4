"""Collects what is wrong with knowledge or input, so a checker can list all of it at once."""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.expert.language.errors import RefereeError


@dataclass
class Problem:
    severity: str          # error | warning
    message: str
    file: str | None = None
    line: int | None = None
    category: str = "invalid"

    def __str__(self) -> str:
        return str(RefereeError(f"{self.severity}: {self.message}", self.file, self.line))


@dataclass
class Problems:
    items: list[Problem] = field(default_factory=list)

    def error(self, message, file=None, line=None, category="invalid"):
        self.items.append(Problem("error", message, file, line, category))

    def warning(self, message, file=None, line=None, category="invalid"):
        self.items.append(Problem("warning", message, file, line, category))

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]

    def raise_first(self) -> None:
        if self.errors:
            first = self.errors[0]
            raise RefereeError(first.message, first.file, first.line)
