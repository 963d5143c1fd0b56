"""From a button's raw edges to what its press means, on timestamps alone.

Debouncing is done here rather than by gpiozero's ``bounce_time``: gpiozero's
mock pins do not simulate bounce, and the kernel's filter differs between
pin backends, so the one place that decides what a press is must be code
the tests reach.  A level counts once it has held still for ``debounce``
seconds (a spike shorter than that, from a long wire near the camera's
power lead, is ignored); a press is judged when it ends, by how long it lasted.

Each seat has four buttons; long presses give the rarer answers, so that a
game-ending choice is never made by a brush of the hand:

========  =============  ==========================================
button    short press    long press (held >= ``long_press``)
========  =============  ==========================================
double    double         resign: single, held longer gammon, longer
                         still backgammon (``resign_step`` apart)
take      take           accept (the opponent's resignation)
pass      pass           reject (the opponent's resignation)
call      call           call
========  =============  ==========================================

The operator button does only one thing: held for ``operator_hold``
seconds, undo the last play; a short press is ignored.  A press longer than
``max_press`` (something lying on the button) is ignored too.
"""

from dataclasses import dataclass
from typing import Literal

from controller.gpio.pinmap import Seat
from controller.panel import Colour

ButtonName = Literal["double", "take", "pass", "call", "resign", "accept", "reject"]
"""The referee's button names (``ButtonInput.button``), one per gesture."""

GESTURES: dict[str, tuple[ButtonName, ButtonName]] = {
    "double": ("double", "resign"),
    "take": ("take", "accept"),
    "pass": ("pass", "reject"),
    "call": ("call", "call"),
}
"""Physical seat button -> (short press, long press)."""

ResignLevel = Literal["single", "gammon", "backgammon"]
"""What a resigning player offers to lose (``ButtonInput.level``)."""
RESIGN_LEVELS: tuple[ResignLevel, ...] = ("single", "gammon", "backgammon")


@dataclass(frozen=True, slots=True)
class ButtonTiming:
    """Seconds."""

    debounce: float = 0.03
    long_press: float = 1.0
    resign_step: float = 1.5
    operator_hold: float = 2.0
    max_press: float = 10.0

    def __post_init__(self) -> None:
        if not 0 < self.debounce < self.long_press:
            raise ValueError("debounce must be positive and shorter than a long press")
        if self.resign_step <= 0 or self.operator_hold <= 0:
            raise ValueError("resign_step and operator_hold must be positive")
        if self.max_press <= max(self.long_press + 2 * self.resign_step, self.operator_hold):
            raise ValueError("max_press must be longer than every meaningful hold")


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A player's button gesture, by seat: ``player_of`` names the player.

    Field for field the referee's ``ButtonInput`` once the seat is a
    colour: ``ButtonInput(p.t, p.button, player_of(p, panel.bottom), p.level)``.
    """

    t: float
    """When the press ended (the moment it was understood)."""
    button: ButtonName
    seat: Seat
    level: ResignLevel | None = None
    """For ``resign``: by how long the button was held; None otherwise."""


@dataclass(frozen=True, slots=True)
class OperatorAction:
    """The operator button was held: undo the last play."""

    t: float
    action: Literal["undo"] = "undo"


ButtonEvent = ButtonPress | OperatorAction


def player_of(press: ButtonPress, bottom: Colour | None) -> Colour | None:
    """The colour of the player who pressed, from who sits at the bottom
    (``PanelState.bottom``); None until the set-up has shown it."""
    if bottom is None:
        return None
    top: Colour = "dark" if bottom == "light" else "light"
    return bottom if press.seat == "bottom" else top


class Debouncer:
    """One button's level, trusted only after it has held still."""

    def __init__(self, debounce: float) -> None:
        self._debounce = debounce
        self._raw = False
        self._raw_since = float("-inf")
        self._pressed = False
        self._pressed_at = 0.0

    def edge(self, t: float, pressed: bool) -> list[tuple[float, float]]:
        """The raw level changed at ``t``; returns presses this completes."""
        done = self.settle(t)
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = t
        return done

    def settle(self, now: float) -> list[tuple[float, float]]:
        """Accept a level that has held still long enough by ``now``;
        returns the finished press as ``(start, end)``, if one finished."""
        if self._raw == self._pressed or now - self._raw_since < self._debounce:
            return []
        self._pressed = self._raw
        if self._pressed:
            self._pressed_at = self._raw_since
            return []
        return [(self._pressed_at, self._raw_since)]

    @property
    def pressed(self) -> bool:
        """The debounced level."""
        return self._pressed


def seat_gesture(button: str, seat: Seat, start: float, end: float,
                 timing: ButtonTiming) -> ButtonPress | None:
    """What a finished press of a seat button means; None when it means nothing."""
    duration = end - start
    if duration > timing.max_press:
        return None
    short, long = GESTURES[button]
    if duration < timing.long_press:
        return ButtonPress(end, short, seat)
    if long == "resign":
        step = int((duration - timing.long_press) // timing.resign_step)
        return ButtonPress(end, long, seat, RESIGN_LEVELS[min(step, len(RESIGN_LEVELS) - 1)])
    return ButtonPress(end, long, seat)


def operator_gesture(start: float, end: float, timing: ButtonTiming) -> OperatorAction | None:
    """Only a deliberate hold undoes a play."""
    duration = end - start
    if timing.operator_hold <= duration <= timing.max_press:
        return OperatorAction(end)
    return None
