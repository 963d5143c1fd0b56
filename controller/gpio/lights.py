"""The board's lights and buzzer on GPIO pins, driven by panel states.

``Lights.show(panel, now)`` is level-triggered like every panel output: it
sets every LED to what :func:`light_levels` says for that moment.  Whoever
owns the main loop calls it often (every 20-50 ms, see :class:`LightsLoop`)
so blinks and beeps keep their rhythm.

The device objects are kept in this object for its whole life: gpiozero
closes a device (and releases its pin) when it is garbage-collected, which
would switch a light off behind our back.
"""

from typing import Any

from gpiozero import LED, PWMOutputDevice

from controller.gpio.patterns import BeepSchedule, LightTiming, light_levels
from controller.gpio.pinmap import LIGHT_NAMES, PinMap
from controller.panel import PanelState

BUZZER_DUTY = 0.5
"""A square wave drives a piezo hardest; more or less duty is only quieter."""


class Lights:
    """Every LED of the pin map plus the piezo buzzer (PWM at its resonance)."""

    def __init__(self, pins: PinMap, *, pin_factory: Any = None,
                 timing: LightTiming | None = None) -> None:
        self._timing = timing or LightTiming()
        self._leds: dict[str, Any] = {}
        try:
            for name in LIGHT_NAMES:
                self._leds[name] = LED(pins.lights[name], pin_factory=pin_factory)
            self._buzzer: Any = PWMOutputDevice(
                pins.buzzer, frequency=pins.buzzer_frequency, pin_factory=pin_factory)
        except Exception:
            self._close_leds()
            raise
        self._beeps = BeepSchedule(self._timing)
        self._levels: dict[str, bool] = dict.fromkeys(LIGHT_NAMES, False)
        self._buzzing = False

    @property
    def levels(self) -> dict[str, bool]:
        """What the LEDs were last set to (a copy)."""
        return dict(self._levels)

    @property
    def buzzing(self) -> bool:
        return self._buzzing

    def show(self, panel: PanelState, now: float) -> None:
        """Set every light and the buzzer to what ``panel`` means at time ``now``."""
        levels = light_levels(panel, now, self._timing)
        for name, on in levels.items():
            led = self._leds[name]
            if on:
                led.on()
            else:
                led.off()
        self._levels = levels
        buzzing = self._beeps.on(panel.beeps, now)
        self._buzzer.value = BUZZER_DUTY if buzzing else 0.0
        self._buzzing = buzzing

    def off(self) -> None:
        """Everything dark and silent (the referee is not running)."""
        for led in self._leds.values():
            led.off()
        self._buzzer.value = 0.0
        self._levels = dict.fromkeys(LIGHT_NAMES, False)
        self._buzzing = False

    def only(self, name: str) -> None:
        """One LED on, every other one off (the lamp test of ``bgref gpio``)."""
        if name not in self._leds:
            raise KeyError(f"no light called {name!r}")
        for other, led in self._leds.items():
            if other != name:
                led.off()
        self._leds[name].on()
        self._levels = {other: other == name for other in LIGHT_NAMES}

    def _close_leds(self) -> None:
        for led in self._leds.values():
            led.close()

    def close(self) -> None:
        """Switch off and release the pins."""
        self.off()
        self._close_leds()
        self._buzzer.close()

    def __enter__(self) -> "Lights":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
