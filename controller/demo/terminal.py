"""What the demo prints: referee events, the scoreboard's digits, the lights, its own notes.

Two forms.  For people, one readable line per referee event (the kiosk's
own wording, so the terminal and the page say the same thing), the
scoreboard drawn as seven-segment art when its digits change, and the
lights in one compact line when they settle into something new.  With
``--json``, one JSON object a line: referee events exactly as ``bgref
referee`` prints them (``t``, ``event``, ...), and the demo's own lines
with a ``demo`` key instead (``scoreboard`` with the segment bytes the
display's chips latched, ``lights`` with each light's mode, ``kiosk``,
``press``, ``end``).  Lines come from several threads; each is written
whole.

:class:`OutputWatch` is the thread that looks at the outputs as a player
would: it samples the scoreboard simulator's display and the mock pins a
few dozen times a second and reports what changed.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from controller.demo.lights import LightWatch, Mode, describe
from controller.gpio.pinmap import LIGHT_NAMES
from controller.kiosk.wording import describe as describe_event

if TYPE_CHECKING:
    from controller.gpio.pinmap import PinMap
    from controller.referee.events import RefereeEvent
    from controller.scoreboard.simulator import SimulatedBoard

SAMPLE_S: Final = 0.02
"""Seconds between two looks at the pins and the display (the lights redraw every 20 ms)."""


def _stdout(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class Terminal:
    """Writes the demo's lines, whole, from any thread."""

    def __init__(self, json_lines: bool = False,
                 write: Callable[[str], None] = _stdout) -> None:
        self.json_lines = json_lines
        self._write = write
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        """Every referee event printed, as JSON objects (for the demo's summary)."""

    def line(self, text: str) -> None:
        with self._lock:
            self._write(text)

    def event(self, event: RefereeEvent) -> None:
        """A referee event, as it is journalled and shown."""
        body = event.to_json()
        self.events.append(body)
        if self.json_lines:
            self.line(json.dumps(body))
        else:
            self.line(f"{event.t:8.1f} s  {describe_event(body)}")

    def note(self, kind: str, human: str, **fields: Any) -> None:
        """One of the demo's own lines: ``human`` for people, ``fields`` in JSON."""
        if self.json_lines:
            self.line(json.dumps({"demo": kind, **fields}))
        else:
            self.line(f"           {human}" if kind == "press" else human)

    def scoreboard(self, digits: list[int], art: list[str], text: str) -> None:
        if self.json_lines:
            self.line(json.dumps({"demo": "scoreboard", "digits": digits, "text": text}))
        else:
            with self._lock:
                self._write(f"           scoreboard [{text:<16}]")
                for row in art:
                    self._write(f"           {row}")

    def lights(self, modes: Mapping[str, Mode]) -> None:
        if self.json_lines:
            self.line(json.dumps({"demo": "lights", "lights": dict(modes)}))
        else:
            self.line(f"           lights: {describe(modes)}")


class OutputWatch:
    """Samples the simulated scoreboard and the mock pins; tells the terminal of changes."""

    def __init__(self, terminal: Terminal, board: SimulatedBoard | None,
                 pin_factory: Any = None, pins: PinMap | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.terminal = terminal
        self.board = board
        self.pin_factory = pin_factory
        self.pins = pins
        self.clock = clock
        self.lights = LightWatch()
        self.digits: list[int] | None = None
        """The scoreboard's segment bytes as last sampled."""
        self.text = ""
        self._recent_pages: deque[list[int]] = deque(maxlen=2)
        """The last pages printed: the board turns between a message and the score every
        1.5 s, which is shown once, not at every turn."""
        self.modes: dict[str, Mode] | None = None
        """The lights' settled modes as last shown."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="bgref-demo-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            try:
                self.look()
            except Exception as exc:  # a display glitch must not end the demo silently
                self.terminal.note("problem", f"watching the outputs failed: {exc}",
                                   problem=str(exc))
                return

    def look(self) -> None:
        """One sample of every output; changes are printed."""
        now = self.clock()
        if self.board is not None:
            art, text = self.board.snapshot()
            digits = self.board.chain.digit_bytes()
            if digits != self.digits:
                self.digits, self.text = digits, text
                if digits not in self._recent_pages:
                    self._recent_pages.append(digits)
                    self.terminal.scoreboard(digits, art, text)
        if self.pin_factory is not None and self.pins is not None:
            levels = {name: bool(self.pin_factory.pin(self.pins.lights[name]).state)
                      for name in LIGHT_NAMES}
            beeps = self.lights.beeps
            self.lights.sample(now, levels, bool(self.pin_factory.pin(self.pins.buzzer).state))
            if self.lights.beeps > beeps:
                self.terminal.note("beep", "           buzzer: beep", beeps=self.lights.beeps)
            settled = self.lights.settled(now)
            if settled is not None:
                self.modes = settled
                self.terminal.lights(settled)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
