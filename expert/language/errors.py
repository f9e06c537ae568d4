"""Errors a user can fix: the CLI reports them as one line and exits 2."""


class RefereeError(Exception):
    """Bad input: a file, a line where known, what is wrong and what was expected."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}{self.message}"
