"""A small driver for the real GNU Backgammon program, shared by the tests.

The tests use gnubg itself as the oracle for IDs and move lists, so one
process is started per test module and fed many commands: starting gnubg
costs about a second, a command a few milliseconds.

gnubg answers each command on stdout and flushes, but never says when it is
done; so after each batch of commands the driver sends a word gnubg does not
know and reads until gnubg complains about it (``Unknown keyword `word'.``).
Everything before that complaint is the batch's output.

When the program is missing, tests fail if the ``CI`` environment variable
is set (a CI image without gnubg must not pass silently) and are skipped
otherwise, so a developer without gnubg can still run the rest.
"""

from __future__ import annotations

import itertools
import os
import re
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import pytest

DEFAULT_PATH: Final = "/usr/games/gnubg"
TIMEOUT: Final = 60.0

_POSITION_ID: Final = re.compile(r"Position ID:\s*([A-Za-z0-9+/]{14})")
_MATCH_ID: Final = re.compile(r"Match ID\s*:\s*([A-Za-z0-9+/]{12})")


class GnubgError(RuntimeError):
    """gnubg died, hung, or printed something the driver cannot read."""


def executable() -> str | None:
    """Path of the gnubg program: ``$GNUBG`` if set, else ``gnubg`` on ``PATH`` or the Debian path.

    An explicit ``$GNUBG`` is never second-guessed, so pointing it at a
    missing file shows what a machine without gnubg does.
    """
    explicit = os.environ.get("GNUBG")
    candidates = [explicit] if explicit else [shutil.which("gnubg"), DEFAULT_PATH]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def in_ci() -> bool:
    """True when ``$CI`` is set to anything but empty, 0, false or no."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def require_executable() -> str:
    """The gnubg path, or fail (under CI) / skip (locally) the calling test."""
    path = executable()
    if path is None:
        reason = f"GNU Backgammon not found (set $GNUBG or install it at {DEFAULT_PATH})"
        if in_ci():
            pytest.fail(f"{reason}; CI is set, so the gnubg tests must run")
        pytest.skip(reason)
    return path


class Gnubg:
    """One running ``gnubg -t -q``: send commands, get their printed output."""

    def __init__(self, path: str) -> None:
        # Both players human: gnubg must never move by itself while we set up
        # positions.  Its console output is plain text on stdout and stderr.
        self._process = subprocess.Popen(
            [path, "-t", "-q"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "LANG": "C", "LC_ALL": "C"},
        )
        self._pending = b""
        self._sentinels = itertools.count()
        self.run("set player 0 human", "set player 1 human")

    def run(self, *commands: str) -> str:
        """Send ``commands`` and return everything gnubg printed for them."""
        for command in commands:
            if "\n" in command:
                raise ValueError(f"one command per line: {command!r}")
        word = f"bgrefsync{next(self._sentinels)}"
        marker = f"Unknown keyword `{word}'.".encode()
        self._write("".join(f"{c}\n" for c in (*commands, word)))
        data = self._read_until(marker)
        return data.decode("utf-8", errors="replace")

    def ids(self, *commands: str) -> tuple[str, str]:
        """Run ``commands`` then ``show board``; the Position ID and Match ID shown."""
        text = self.run(*commands, "show board")
        positions = _POSITION_ID.findall(text)
        matches = _MATCH_ID.findall(text)
        if not positions or not matches:
            raise GnubgError(f"no IDs in gnubg's output:\n{text}")
        return positions[-1], matches[-1]

    def close(self) -> None:
        """Ask gnubg to quit, then make sure it is gone."""
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()

    def _write(self, text: str) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(text.encode())
            stdin.flush()
        except BrokenPipeError as exc:
            raise GnubgError(f"gnubg exited with code {self._process.poll()}") from exc

    def _read_until(self, marker: bytes) -> bytes:
        stdout = self._process.stdout
        assert stdout is not None
        deadline = time.monotonic() + TIMEOUT
        while marker not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise GnubgError(f"gnubg gave no answer within {TIMEOUT} s")
            ready, _, _ = select.select([stdout], [], [], left)
            if ready:
                chunk = os.read(stdout.fileno(), 1 << 16)
                if not chunk:
                    raise GnubgError(
                        f"gnubg exited (code {self._process.poll()}); it printed:\n"
                        + self._pending.decode(errors="replace")
                    )
                self._pending += chunk
        before, _, after = self._pending.partition(marker)
        self._pending = after.lstrip(b"\n")
        return before


@contextmanager
def running_gnubg() -> Iterator[Gnubg]:
    """A gnubg session for a test module (fails or skips when gnubg is missing)."""
    gnubg = Gnubg(require_executable())
    try:
        yield gnubg
    finally:
        gnubg.close()
