"""The board's lights, buzzer and buttons on the Raspberry Pi's GPIO header.

Devices take a gpiozero ``pin_factory`` (the Pi's lgpio pins, or gpiozero's
``MockFactory`` in tests and ``bgref gpio --mock``); the pins come from the
one pin map, ``hardware/pins.toml``.  Importing this package needs gpiozero
but no hardware.
"""

from controller.gpio.buttons import Buttons
from controller.gpio.gestures import (
    ButtonEvent,
    ButtonPress,
    ButtonTiming,
    OperatorAction,
    player_of,
)
from controller.gpio.lights import Lights
from controller.gpio.loop import LightsLoop
from controller.gpio.patterns import LightTiming, light_levels
from controller.gpio.pinmap import PinMap, PinMapError, load_pin_map

__all__ = [
    "ButtonEvent",
    "ButtonPress",
    "ButtonTiming",
    "Buttons",
    "LightTiming",
    "Lights",
    "LightsLoop",
    "OperatorAction",
    "PinMap",
    "PinMapError",
    "light_levels",
    "load_pin_map",
    "player_of",
]
