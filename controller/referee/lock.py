"""One referee feeding a journal at a time.

The journal lets an operator's one-shot correction run beside the live
referee (:class:`~controller.referee.journal.Journal` refuses a stale append
and the session catches up), but two referees *following games* into one
journal would interleave two streams of play into one match.  That happens
easily: ``bgref.service`` is running and someone starts ``bgref referee
--camera`` by hand.  :class:`FeedLock` takes an exclusive ``flock`` on
``JOURNAL.lock`` for as long as a replay or a camera feeds the journal; the
second one is refused with the first one's process id.

``flock`` locks die with their process, so a ``kill -9`` or a power cut
never leaves a stale lock behind; the file itself may stay and is harmless.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from controller.referee.journal import JournalError


class JournalInUseError(JournalError):
    """Another process is feeding this journal."""


class FeedLock:
    """An exclusive lock beside a journal file; use it with ``with``."""

    def __init__(self, journal: str | Path) -> None:
        self._path = Path(f"{journal}.lock")
        self._fd: int | None = None

    def __enter__(self) -> FeedLock:
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise JournalInUseError(
                f"{str(self._path)[:-len('.lock')]}: another referee (pid {holder}) is "
                "following a game into this journal; stop it first (systemctl stop bgref), "
                "or give another --journal") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None
