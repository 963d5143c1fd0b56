"""The hand-over from the referee's thread to the web server's threads.

The session steps on the referee's own thread and tells its outputs there;
the server answers browsers on threads of its own.  :class:`KioskFeed` sits
between them: the session's side (:meth:`KioskFeed.panel`,
:meth:`KioskFeed.step`) builds the new snapshot at once, under a lock, from
the immutable referee it was given, and bumps a sequence number; the
server's side (:meth:`KioskFeed.current`, :meth:`KioskFeed.wait`) only ever
reads finished snapshots.  A browser that is slow to read simply skips
states: like the lights and the scoreboard, the page is level-triggered and
every snapshot is whole, so nothing queues up behind a slow client.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from controller.kiosk.snapshot import SCHEMA, referee_view
from controller.kiosk.wording import CALLS, describe
from controller.panel import PanelState

if TYPE_CHECKING:
    from controller.referee.events import RefereeEvent
    from controller.referee.machine import Referee
    from controller.referee.session import Session

LOG_SIZE: Final = 40
"""Events the page's log shows (the journal keeps them all)."""


class KioskFeed:
    """The latest snapshot for the page, and a way to wait for the next one."""

    def __init__(self, log_size: int = LOG_SIZE) -> None:
        self._cond = threading.Condition()
        self._seq = 0
        self._referee: Referee | None = None
        self._panel = PanelState()
        self._log: deque[dict[str, Any]] = deque(maxlen=log_size)
        self._events_seen = 0
        self._alert: dict[str, Any] | None = None
        self._outputs: dict[str, str] = {}
        self._text = ""
        self._rebuild()

    # -- the session's side ----------------------------------------------------

    def attach(self, session: Session) -> None:
        """Follow ``session``: its recent journalled events first, then every step."""
        try:
            recent = deque(session.journal.history(), maxlen=self._log.maxlen)
        except Exception as exc:  # a journal that cannot be read back is the session's problem
            recent = deque()
            self.note_output("log", f"earlier events unavailable: {exc}")
        with self._cond:
            self._add_events(recent)
        session.add_output(self.panel)
        session.add_watcher(self.step)

    def panel(self, panel: PanelState) -> None:
        """A panel output: the scores, cube, calls and camera as the lights show them."""
        with self._cond:
            self._panel = panel
            self._changed()

    def step(self, referee: Referee, events: tuple[RefereeEvent, ...]) -> None:
        """A step watcher: the referee after a step, and what it announced."""
        with self._cond:
            self._referee = referee
            self._add_events(e.to_json() for e in events)
            self._changed()

    def note_output(self, name: str, status: str) -> None:
        """How another output is doing ("up", "scoreboard unplugged"), for the page and /health."""
        with self._cond:
            if self._outputs.get(name) == status:
                return
            self._outputs[name] = status
            self._changed()

    def wake(self) -> None:
        """Wake every waiting reader to look at its ``stop`` (a server shutting down)."""
        with self._cond:
            self._cond.notify_all()

    # -- the server's side -----------------------------------------------------

    def current(self) -> tuple[int, str]:
        """The latest snapshot's sequence number and JSON text."""
        with self._cond:
            return self._seq, self._text

    def outputs(self) -> dict[str, str]:
        with self._cond:
            return dict(self._outputs)

    def wait(self, after: int, timeout: float,
             stop: Callable[[], bool] = lambda: False) -> tuple[int, str] | None:
        """The first snapshot newer than ``after``; None after ``timeout`` seconds, or
        when woken with ``stop()`` true."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._seq != after or stop(), timeout):
                return None
            if self._seq == after:
                return None
            return self._seq, self._text

    # -- inside ----------------------------------------------------------------

    def _add_events(self, events: Iterable[Mapping[str, Any]]) -> None:
        for event in events:
            self._events_seen += 1
            entry = dict(event)
            entry["seq"] = self._events_seen
            entry["text"] = describe(event)
            self._log.append(entry)
            if entry.get("event") in CALLS:
                self._alert = entry
            else:
                # The game moved on (a throw, a play, a restored position): the call is over.
                self._alert = None

    def _changed(self) -> None:
        self._seq += 1
        self._rebuild()
        self._cond.notify_all()

    def _rebuild(self) -> None:
        if self._referee is None:
            view: dict[str, Any] = {"schema": SCHEMA, "stage": None,
                                    "expecting": "waiting for the referee to start",
                                    "camera_ok": self._panel.camera_ok}
        else:
            view = referee_view(self._referee, self._panel)
        view["seq"] = self._seq
        view["alert"] = self._alert
        view["log"] = list(self._log)
        view["outputs"] = dict(self._outputs)
        self._text = json.dumps(view, separators=(",", ":"), allow_nan=False)
