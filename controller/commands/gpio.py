"""``bgref gpio``: the lights and buttons, on mock pins or on the Pi.

``--mock`` plays a short game's worth of panel states through the lights on
gpiozero's mock pins, and a few button presses through the buttons, on a
simulated clock, and prints what the pins did: the demo, and a check that
needs no hardware.  Without ``--mock`` it tests the real board: each LED in
turn, a beep, then every button gesture as a JSON line until Ctrl-C.
"""

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import click

from controller.gpio.buttons import Buttons
from controller.gpio.gestures import ButtonPress
from controller.gpio.lights import Lights
from controller.gpio.pinmap import LIGHT_NAMES, PinMap, PinMapError, load_pin_map
from controller.panel import PanelState

SCRIPT: tuple[tuple[float, str, PanelState], ...] = (
    (0.0, "set-up seen: light sits at the bottom",
     PanelState(match_length=5, bottom="light")),
    (1.0, "light to play, cube centred",
     PanelState(match_length=5, bottom="light", turn="light")),
    (2.0, "dark doubles, light takes: cube 2 with light",
     PanelState(match_length=5, bottom="light", turn="dark", cube_value=2, cube_owner="light")),
    (3.0, "dark plays illegally: light may call (beep)",
     PanelState(match_length=5, bottom="light", turn="dark", cube_value=2, cube_owner="light",
                call_steady=frozenset({"light"}), beeps=1)),
    (3.2, "the beep is over",
     PanelState(match_length=5, bottom="light", turn="dark", cube_value=2, cube_owner="light",
                call_steady=frozenset({"light"}), beeps=1)),
    (4.0, "light's throw is void: light's call light blinks (beep)",
     PanelState(match_length=5, bottom="light", turn="light", cube_value=2, cube_owner="light",
                call_blink=frozenset({"light"}), beeps=2)),
    (4.3, "the blink's dark half",
     PanelState(match_length=5, bottom="light", turn="light", cube_value=2, cube_owner="light",
                call_blink=frozenset({"light"}), beeps=2)),
    (5.05, "camera lost: status blinks fast",
     PanelState(match_length=5, bottom="light", turn="light", cube_value=2, cube_owner="light",
                camera_ok=False, beeps=2)),
    (5.15, "camera still lost",
     PanelState(match_length=5, bottom="light", turn="light", cube_value=2, cube_owner="light",
                camera_ok=False, beeps=2)),
    (6.0, "Crawford game: no cube",
     PanelState(match_length=5, score_light=4, bottom="light", turn="dark",
                cube_in_play=False, crawford=True, beeps=2)),
)
"""(time, what happens, panel state): the demo's panel states."""

PRESSES: tuple[tuple[str, float, float], ...] = (
    ("bottom_double", 10.0, 10.3),
    ("top_take", 11.0, 11.2),
    ("top_double", 12.0, 14.7),
    ("bottom_pass", 15.0, 16.5),
    ("operator", 17.0, 19.5),
)
"""(button, pressed at, released at): the demo's presses."""


def _pins(path: str | None) -> PinMap:
    try:
        return load_pin_map(path)
    except PinMapError as exc:
        raise click.ClickException(str(exc)) from exc


def _pin_line(factory: Any, pins: PinMap) -> str:
    lit = [f"{name}(GPIO{pins.lights[name]})" for name in LIGHT_NAMES
           if factory.pin(pins.lights[name]).state]
    buzzer = factory.pin(pins.buzzer).state
    sound = f"buzzer {pins.buzzer_frequency} Hz" if buzzer else "buzzer off"
    return f"{', '.join(lit) or 'all dark'}; {sound}"


def run_mock(pin_map: str | None, echo: Callable[[str], None]) -> None:
    """Drive the lights and buttons on mock pins and print what the pins show."""
    from controller.gpio.factory import mock_pin_factory
    from controller.gpio.gestures import player_of

    pins = _pins(pin_map)
    factory = mock_pin_factory()
    now = [0.0]
    with Lights(pins, pin_factory=factory) as lights, \
            Buttons(pins, pin_factory=factory, clock=lambda: now[0]) as buttons:
        echo(f"lights on mock pins ({pins.source})")
        for t, what, panel in SCRIPT:
            lights.show(panel, t)
            echo(f"t={t:5.2f}  {what}")
            echo(f"         {_pin_line(factory, pins)}")
        echo("buttons on mock pins (light sits at the bottom)")
        for name, down, up in PRESSES:
            pin = factory.pin(pins.buttons[name])
            now[0] = down
            pin.drive_low()
            now[0] = up
            pin.drive_high()
            for event in buttons.poll(up + 0.1):
                fields = asdict(event)
                if isinstance(event, ButtonPress):
                    fields["player"] = player_of(event, "light")
                echo(f"t={down:5.2f}-{up:5.2f}  {name:<14} -> {json.dumps(fields)}")


def run_pi(pin_map: str | None, seconds: float | None, echo: Callable[[str], None]) -> None:
    """Lamp test on the real pins, then print button gestures as JSON lines."""
    from controller.gpio.factory import NoGpioError, lgpio_pin_factory

    pins = _pins(pin_map)
    try:
        factory = lgpio_pin_factory()
    except NoGpioError as exc:
        raise click.ClickException(f"no GPIO here ({exc}); try bgref gpio --mock") from exc
    try:
        lights = Lights(pins, pin_factory=factory)
    except Exception as exc:  # a pin in use (the service), a pin the chip refuses
        raise click.ClickException(f"cannot drive the lights: {exc} (is bgref.service "
                                   "running? sudo systemctl stop bgref)") from exc
    try:
        buttons = Buttons(pins, pin_factory=factory)
    except Exception as exc:
        lights.close()
        raise click.ClickException(f"cannot read the buttons: {exc} (is bgref.service "
                                   "running? sudo systemctl stop bgref)") from exc
    with lights, buttons:
        for name in LIGHT_NAMES:
            echo(f"{name} (GPIO{pins.lights[name]})")
            lights.only(name)
            time.sleep(0.4)
        lights.off()
        echo(f"buzzer (GPIO{pins.buzzer})")
        start = time.monotonic()
        lights.show(PanelState(beeps=0), start)
        while time.monotonic() - start < 0.3:
            lights.show(PanelState(beeps=1), time.monotonic())
            time.sleep(0.02)
        lights.off()
        echo("press buttons (Ctrl-C to stop)")
        end = None if seconds is None else time.monotonic() + seconds
        try:
            while end is None or time.monotonic() < end:
                for event in buttons.poll():
                    echo(json.dumps(asdict(event)))
                time.sleep(0.02)
        except KeyboardInterrupt:
            pass
