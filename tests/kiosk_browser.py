"""A real headless Chromium for the kiosk page's tests, over the DevTools protocol.

No driver and no download: Chromium's own ``--remote-debugging-pipe`` speaks
the protocol as NUL-terminated JSON on file descriptors 3 (commands in) and
4 (answers out), so the standard library is enough.  The browser is Debian's
``chromium`` (``/usr/bin/chromium``); without it the tests skip locally with
the reason and fail under ``CI=true`` (as :mod:`tests.shared_data` does for data).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.shared_data import missing

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> str:
    """The browser's path; skips (locally) or fails (CI) when there is none."""
    given = os.environ.get("BGREF_CHROMIUM")
    for name in ((given,) if given else CHROMIUM_NAMES):
        found = shutil.which(name)
        if found:
            return found
    message = "chromium is not installed (apt-get install chromium, or set BGREF_CHROMIUM)"
    missing(message)


def _high(fds: tuple[int, int]) -> tuple[int, int]:
    """The pipe moved above descriptor 9, clear of the 3 and 4 it is moved onto."""
    moved = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in fds)
    for fd in fds:
        os.close(fd)
    return moved[0], moved[1]


class BrowserError(Exception):
    """The browser did not answer as the protocol says."""


class Browser:
    """One headless Chromium process, driven through its DevTools pipe."""

    def __init__(self, profile: Path, width: int = 1024, height: int = 600) -> None:
        commands_r, self._commands = _high(os.pipe())
        self._answers, answers_w = _high(os.pipe())
        chromium = chromium_path()
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                "--disable-dev-shm-usage", "--remote-debugging-pipe",
                f"--user-data-dir={profile}", f"--window-size={width},{height}",
                "about:blank"]
        # bash moves our pipe ends to the descriptors Chromium expects.
        script = f'exec "$@" 3<&{commands_r} 4>&{answers_w} {commands_r}<&- {answers_w}>&-'
        self._process = subprocess.Popen(["bash", "-c", script, "bash", *args],
                                         pass_fds=(commands_r, answers_w),
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
        os.close(commands_r)
        os.close(answers_w)
        self._buffer = b""
        self._next_id = 0

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._next_id += 1
        ident = self._next_id
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == ident:
                    if "error" in answer:
                        raise BrowserError(f"{method}: {answer['error']}")
                    result: dict[str, Any] = answer.get("result", {})
                    return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"{method}: no answer in {timeout} s")
            ready, _, _ = select.select([self._answers], [], [], left)
            if ready:
                chunk = os.read(self._answers, 1 << 16)
                if not chunk:
                    raise BrowserError(f"{method}: the browser closed its pipe")
                self._buffer += chunk

    def open(self, url: str) -> str:
        """A new tab showing ``url``; returns its session id for :meth:`evaluate`."""
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        session: str = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        return session

    def evaluate(self, session: str, expression: str) -> Any:
        """The value of a JavaScript expression in the tab (promises awaited)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, session: str, expression: str, timeout: float = 20.0) -> Any:
        """Poll until ``expression`` is truthy; its value, or :class:`BrowserError`."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            try:
                last = self.evaluate(session, expression)
            except BrowserError as exc:  # the page is still loading
                last = exc
            else:
                if last:
                    return last
            time.sleep(0.1)
        raise BrowserError(f"{expression} stayed false for {timeout} s (last: {last!r})")

    def close(self) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close", timeout=5)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._commands)
        os.close(self._answers)
