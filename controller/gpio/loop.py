"""Keeps the lights showing the latest panel state, on a thread of its own.

The referee hands over a new :class:`PanelState` whenever something
changes; blinks, the heartbeat and beeps still need the lights redrawn
every few tens of milliseconds in between.  This thread does that, so the
referee's main loop can block on the camera without the lights stalling.
"""

import threading
import time
from collections.abc import Callable

from controller.gpio.lights import Lights
from controller.panel import PanelState


class LightsLoop:
    """Redraws ``lights`` with the latest panel state every ``interval`` seconds."""

    def __init__(self, lights: Lights, *, interval: float = 0.02,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if interval <= 0:
            raise ValueError("interval must be positive")
        self._lights = lights
        self._interval = interval
        self._clock = clock
        self._panel = PanelState()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def set(self, panel: PanelState) -> None:
        """Show this state from now on (shown at once, not at the next tick)."""
        with self._lock:
            self._panel = panel
            self._lights.show(panel, self._clock())

    def step(self) -> None:
        """One redraw with the current state."""
        with self._lock:
            self._lights.show(self._panel, self._clock())

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.step()

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the lights loop is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bgref-lights", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop redrawing and switch the lights off."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._lights.off()
