"""Writing the files a user names (--save, --record, --out): atomically, and never over a special file.

A file is written to a temporary file in the same folder, flushed to disk, then renamed over the
target: a crash leaves the old file or the new one, never half of one. The rename replaces the
directory entry, so it must never land on anything but a regular file: `--save /dev/null` run as
root would otherwise replace the device node with a file (and break the system), and a FIFO or a
socket would be destroyed. Symbolic links are refused too: following one would let a planted link
(in a shared /tmp) aim the write at any file; replacing it would surprise whoever made it.

Every failure is a ``RefereeError`` naming the path (one line, exit 2 at the command line);
nothing is left behind (the temporary file is removed).
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from referee.expert.language.errors import RefereeError

_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_target(path: str | os.PathLike) -> Path:
    """The path, if a regular file may be written there (absent or a regular file); else RefereeError."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise RefereeError(f"cannot write: {exc.strerror}", str(path)) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise RefereeError(f"is {kind}, not a regular file: refusing to replace it; "
                           "expected the path of a regular file", str(path))
    folder = path.parent
    if not folder.is_dir():
        raise RefereeError(f"no such folder {str(folder)!r}, expected an existing folder to write into",
                           str(path))
    return path


class Pending:
    """A file written in full beside its target, not yet in place: ``commit()`` renames it over the
    target, ``discard()`` removes it. Lets a command prepare every output before it records anything."""

    def __init__(self, path: Path, tmp: str, mode: int):
        self.path, self._tmp, self._mode = path, tmp, mode

    def commit(self) -> Path:
        try:
            check_target(self.path)       # still not a special file (it may have changed meanwhile)
            os.chmod(self._tmp, self._mode)
            os.replace(self._tmp, self.path)
        except OSError as exc:
            self.discard()
            raise RefereeError(f"cannot write: {exc.strerror}", str(self.path)) from None
        except RefereeError:
            self.discard()
            raise
        self._tmp = None
        _sync_folder(self.path.parent)
        return self.path

    def discard(self) -> None:
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None


def prepare(path: str | os.PathLike, data: str | bytes) -> Pending:
    """Write ``data`` to a temporary file beside ``path`` (refused for a special target)."""
    path = check_target(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)       # an existing file keeps its mode
    except OSError:
        mode = 0o666 & ~_umask()
    body = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise RefereeError(f"cannot write: {exc.strerror}", str(path)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(body)
            out.flush()
            os.fsync(out.fileno())
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise RefereeError(f"cannot write: {exc.strerror}", str(path)) from None
        raise
    return Pending(path, tmp, mode)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> Path:
    """Write ``data`` (text is UTF-8) to ``path`` atomically; refuse anything but a regular file."""
    return prepare(path, data).commit()


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
