"""The demo's players press the board's buttons, on gpiozero's mock pins.

A staged press (``double`` by light, ``resign`` at gammon by dark, ...)
becomes what a hand would do to the real buttons: the seat's button pin
held low for as long as the gesture needs (a short press, or a long one for
the rarer answers, see :mod:`controller.gpio.gestures`), then let go.  The
press then travels the referee's own way: gpiozero's edge callbacks, the
debouncer, the gesture, the seat turned into a colour, the live loop's
inbox.  So the demo shows the buttons working, not a shortcut around them.

Holding a pin takes real time (the debouncer and the long presses are
measured on the wall clock), so :meth:`ButtonPlayer.press` blocks the film
until the press has reached the inbox: a press can never fall behind the
frames that follow it, however fast the film runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from controller.gpio.gestures import RESIGN_LEVELS, ButtonTiming
from controller.referee.inputs import ButtonInput, RefereeInput

if TYPE_CHECKING:
    import queue

    from controller.gpio.pinmap import PinMap
    from controller.simulation.timeline import Colour, Press

SHORT_HOLD: Final = 0.12
"""Seconds a short press holds the button: well past the debounce, well short of long."""
LONG_MARGIN: Final = 0.4
"""Seconds a long press holds past the threshold of the gesture it means."""
DELIVERY_TIMEOUT: Final = 2.0
"""Seconds to wait for a released button's gesture to reach the inbox."""

SEAT_BUTTON: Final[dict[str, tuple[str, bool]]] = {
    "double": ("double", False), "take": ("take", False), "pass": ("pass", False),
    "call": ("call", False), "resign": ("double", True), "accept": ("take", True),
    "reject": ("pass", True),
}
"""The referee's button -> (the seat's physical button, held long)."""


def hold_seconds(button: str, level: str | None, timing: ButtonTiming) -> float:
    """How long a hand holds the physical button to mean ``button`` (at ``level``)."""
    _, long = SEAT_BUTTON[button]
    if not long:
        return SHORT_HOLD
    steps = 0
    if button == "resign":
        steps = next((i for i, name in enumerate(RESIGN_LEVELS) if name == level), 0)
    return timing.long_press + steps * timing.resign_step + LONG_MARGIN


class ButtonPlayer:
    """Presses staged by the director, made on the mock pins (or, without buttons,
    handed to the inbox as the buttons would have)."""

    def __init__(self, bottom: Colour, inbox: queue.SimpleQueue[RefereeInput], *,
                 pin_factory: Any = None, pins: PinMap | None = None,
                 timing: ButtonTiming | None = None,
                 tell: Callable[[str], None] = lambda text: None,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``pin_factory`` and ``pins`` None: no buttons, presses go straight to ``inbox``."""
        self.bottom = bottom
        self.inbox = inbox
        self.pin_factory = pin_factory
        self.pins = pins
        self.timing = timing or ButtonTiming()
        self.tell = tell
        self.sleep = sleep
        self.clock = clock
        self.lost: list[Press] = []
        """Presses whose gesture never reached the inbox (reported as they happen)."""

    def seat(self, colour: Colour) -> str:
        return "bottom" if colour == self.bottom else "top"

    def __call__(self, press: Press) -> None:
        self.press(press)

    def press(self, press: Press) -> None:
        """Make ``press`` and return once the referee's inbox holds it."""
        seat = self.seat(press.player)
        button, _ = SEAT_BUTTON[press.button]
        hold = hold_seconds(press.button, press.level, self.timing)
        level = f" ({press.level})" if press.level else ""
        if self.pin_factory is None or self.pins is None:
            self.tell(f"{press.player} ({seat}) presses {press.button}{level}")
            self.inbox.put(ButtonInput(0.0, press.button, press.player, press.level))
            return
        pin = self.pin_factory.pin(self.pins.buttons[f"{seat}_{button}"])
        self.tell(f"{press.player} ({seat}) holds {seat}_{button} {hold:.2f} s: "
                  f"{press.button}{level}")
        waiting = self.inbox.qsize()
        pin.drive_low()
        try:
            self.sleep(hold)
        finally:
            pin.drive_high()
        deadline = self.clock() + DELIVERY_TIMEOUT
        while self.inbox.qsize() <= waiting:
            if self.clock() >= deadline:
                self.lost.append(press)
                self.tell(f"the {seat}_{button} press never reached the referee")
                return
            self.sleep(0.005)
