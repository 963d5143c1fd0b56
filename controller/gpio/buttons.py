"""The players' and the operator's buttons on GPIO pins.

gpiozero calls us from its own thread on every edge; we timestamp the edge
with our clock and hand it to that button's :class:`Debouncer`.  Finished
gestures become plain values (:class:`ButtonPress`, :class:`OperatorAction`)
in a queue the referee drains with :meth:`Buttons.poll`, or go straight to
an ``on_event`` callback.  ``poll`` also settles levels that have held still
since their last edge, so the main loop must call it (every frame is plenty).

Buttons are wired between the GPIO and ground and use the Pi's internal
pull-ups: pressed reads low.  They are gpiozero ``DigitalInputDevice``
objects rather than ``Button`` ones: the gestures need no hold thread per button.
"""

import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice

from controller.gpio.gestures import (
    ButtonEvent,
    ButtonTiming,
    Debouncer,
    operator_gesture,
    seat_gesture,
)
from controller.gpio.pinmap import BUTTON_NAMES, PinMap, Seat


class Buttons:
    """Every button of the pin map, debounced, as a stream of gestures."""

    def __init__(self, pins: PinMap, *, pin_factory: Any = None,
                 timing: ButtonTiming | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_event: Callable[[ButtonEvent], None] | None = None) -> None:
        self._timing = timing or ButtonTiming()
        self._clock = clock
        self._on_event = on_event
        self._lock = threading.Lock()
        self._queue: list[ButtonEvent] = []
        self._debouncers = {name: Debouncer(self._timing.debounce) for name in BUTTON_NAMES}
        self._devices: dict[str, Any] = {}
        try:
            for name in BUTTON_NAMES:
                device = DigitalInputDevice(pins.buttons[name], pull_up=True,
                                            bounce_time=None, pin_factory=pin_factory)
                device.when_activated = self._edge_handler(name, True)
                device.when_deactivated = self._edge_handler(name, False)
                self._devices[name] = device
        except Exception:
            self.close()
            raise

    def _edge_handler(self, name: str, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            self.edge(name, pressed, self._clock())
        return handler

    def edge(self, name: str, pressed: bool, t: float) -> None:
        """A raw level change of one button at time ``t`` (gpiozero's thread)."""
        with self._lock:
            finished = self._debouncers[name].edge(t, pressed)
            events = self._interpret(name, finished)
        self._deliver(events)

    def poll(self, now: float | None = None) -> list[ButtonEvent]:
        """Settle every button at ``now`` and take the gestures waiting, oldest first."""
        t = self._clock() if now is None else now
        with self._lock:
            events: list[ButtonEvent] = []
            for name, debouncer in self._debouncers.items():
                events.extend(self._interpret(name, debouncer.settle(t)))
        self._deliver(events)
        with self._lock:
            taken, self._queue = self._queue, []
        return taken

    def pressed(self, name: str) -> bool:
        """The debounced level of one button (by pin map name)."""
        with self._lock:
            return self._debouncers[name].pressed

    def _interpret(self, name: str, finished: list[tuple[float, float]]) -> list[ButtonEvent]:
        events: list[ButtonEvent] = []
        for start, end in finished:
            event: ButtonEvent | None
            if name == "operator":
                event = operator_gesture(start, end, self._timing)
            else:
                seat_name, button = name.split("_", 1)
                seat: Seat = "bottom" if seat_name == "bottom" else "top"
                event = seat_gesture(button, seat, start, end, self._timing)
            if event is not None:
                events.append(event)
        return events

    def _deliver(self, events: list[ButtonEvent]) -> None:
        for event in events:
            if self._on_event is not None:
                self._on_event(event)
            else:
                with self._lock:
                    self._queue.append(event)

    def close(self) -> None:
        """Release the pins."""
        for device in self._devices.values():
            device.close()
        self._devices.clear()

    def __enter__(self) -> "Buttons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
