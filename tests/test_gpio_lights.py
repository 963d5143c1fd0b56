"""The lights and buzzer on gpiozero's own mock pins: exact pin histories.

Every assertion compares a pin's whole list of states (``MockPin.states``),
not a prefix, so a stray extra toggle fails the test.
"""

import gc
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.gpio import LightsLoop
from controller.gpio.lights import Lights
from controller.gpio.patterns import LightTiming
from controller.gpio.pinmap import load_pin_map
from controller.panel import PanelState

PINS = load_pin_map()
L = PINS.lights


def history(factory: Any, gpio: int) -> list[float]:
    return [float(state.state) for state in factory.pin(gpio).states]


@pytest.fixture
def factory() -> Any:
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def lights(factory: Any) -> Any:
    with Lights(PINS, pin_factory=factory) as devices:
        yield devices


def test_cube_value_and_owner_follow_the_panel(factory: Any, lights: Lights) -> None:
    lights.show(PanelState(bottom="light", cube_value=2, cube_owner="dark"), 0.0)
    lights.show(PanelState(bottom="light", cube_value=4, cube_owner="light"), 1.0)
    lights.show(PanelState(bottom="light"), 2.0)
    assert history(factory, L["cube_2"]) == [0, 1, 0]
    assert history(factory, L["cube_4"]) == [0, 1, 0]
    assert history(factory, L["owner_top"]) == [0, 1, 0]
    assert history(factory, L["owner_bottom"]) == [0, 1, 0]
    assert history(factory, L["owner_centre"]) == [0, 1]
    for value in (8, 16, 32, 64):
        assert history(factory, L[f"cube_{value}"]) == [0]


def test_the_cube_at_64_and_a_cube_out_of_play(factory: Any, lights: Lights) -> None:
    lights.show(PanelState(bottom="dark", cube_value=64, cube_owner="dark"), 0.0)
    lights.show(PanelState(bottom="dark", cube_in_play=False, crawford=True), 1.0)
    assert history(factory, L["cube_64"]) == [0, 1, 0]
    assert history(factory, L["owner_bottom"]) == [0, 1, 0]
    assert history(factory, L["owner_centre"]) == [0]
    assert history(factory, L["owner_top"]) == [0]


def test_seat_lights_follow_who_sits_at_the_bottom(factory: Any, lights: Lights) -> None:
    lights.show(PanelState(bottom="light", turn="light"), 0.0)
    lights.show(PanelState(bottom="light", turn="dark"), 1.0)
    lights.show(PanelState(bottom="dark", turn="dark"), 2.0)
    lights.show(PanelState(bottom=None, turn="dark"), 3.0)
    assert history(factory, L["turn_bottom"]) == [0, 1, 0, 1, 0]
    assert history(factory, L["turn_top"]) == [0, 1, 0]


def test_a_steady_call_light_and_a_blinking_one(factory: Any, lights: Lights) -> None:
    # Blink period 0.5 s: on for its first half.
    times = [0.0, 0.1, 0.3, 0.4, 0.55, 0.8]
    for t in times:
        lights.show(PanelState(bottom="light", call_steady=frozenset({"dark"}),
                               call_blink=frozenset({"light"})), t)
    lights.show(PanelState(bottom="light"), 1.0)
    assert history(factory, L["call_bottom"]) == [0, 1, 0, 1, 0]
    assert history(factory, L["call_top"]) == [0, 1, 0]


def test_status_heartbeat_then_fast_blink_without_camera(factory: Any, lights: Lights) -> None:
    # Heartbeat: on 0-0.1, off, on 0.25-0.35, off until 1.2.
    for t in (0.0, 0.05, 0.15, 0.3, 0.5, 1.0):
        lights.show(PanelState(), t)
    # Camera lost: 0.2 s period, on for the first 0.1 s.
    for t in (1.25, 1.35, 1.45, 1.55):
        lights.show(PanelState(camera_ok=False), t)
    assert history(factory, L["status"]) == [0, 1, 0, 1, 0, 1, 0, 1, 0]


def test_one_beep_per_step_of_the_counter(factory: Any, lights: Lights) -> None:
    buzzer = PINS.buzzer
    assert factory.pin(buzzer).frequency == 4000
    steps = [(0.0, 3), (0.5, 3), (1.0, 4), (1.05, 4), (1.2, 4),
             (2.0, 6), (2.1, 6), (2.15, 6), (2.3, 6), (2.5, 6), (3.0, 5), (3.05, 5)]
    heard = []
    for t, beeps in steps:
        lights.show(PanelState(beeps=beeps), t)
        heard.append(lights.buzzing)
    # The first counter seen is a baseline; 3 -> 4 is one beep; 4 -> 6 two,
    # one after the other (0.12 s on, 0.12 s gap); going down is a new session.
    assert heard == [False, False, True, True, False,
                     True, True, False, True, False, False, False]
    assert history(factory, buzzer) == [0, 0.5, 0, 0.5, 0, 0.5, 0]


def test_devices_stay_alive_while_the_lights_object_does(factory: Any) -> None:
    lights = Lights(PINS, pin_factory=factory)
    lights.show(PanelState(cube_value=8), 0.0)
    gc.collect()
    assert factory.pin(L["cube_8"]).state == 1
    assert factory.pin(L["cube_8"]).function == "output"
    lights.close()
    assert history(factory, L["cube_8"]) == [0, 1, 0]
    assert factory.pin(L["cube_8"]).function == "input"


def test_a_pin_already_taken_releases_the_others(factory: Any) -> None:
    from gpiozero import LED
    from gpiozero.exc import GPIOPinInUse

    taken = LED(PINS.buzzer, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        Lights(PINS, pin_factory=factory)
    again = LED(L["cube_2"], pin_factory=factory)
    again.close()
    taken.close()


def test_the_loop_redraws_blinks_between_panel_changes(factory: Any) -> None:
    now = [0.0]
    lights = Lights(PINS, pin_factory=factory)
    loop = LightsLoop(lights, clock=lambda: now[0])
    loop.set(PanelState(bottom="dark", call_blink=frozenset({"dark"})))
    for t in (0.3, 0.6, 0.9, 1.1):
        now[0] = t
        loop.step()
    loop.stop()
    # on at 0, off at 0.3, on at 0.6, off at 0.9, on at 1.1, dark when stopped.
    assert history(factory, L["call_bottom"]) == [0, 1, 0, 1, 0, 1, 0]
    lights.close()


def test_the_loop_thread_runs_and_stops_dark(factory: Any) -> None:
    lights = Lights(PINS, pin_factory=factory)
    loop = LightsLoop(lights, interval=0.005)
    loop.start()
    loop.set(PanelState(cube_value=16))
    with pytest.raises(RuntimeError):
        loop.start()
    loop.stop()
    assert history(factory, L["cube_16"]) == [0, 1, 0]
    assert lights.levels["cube_16"] is False
    lights.close()


def test_timing_that_cannot_work_is_refused() -> None:
    with pytest.raises(ValueError, match="blink_period must be positive"):
        LightTiming(blink_period=0)
    with pytest.raises(ValueError, match="must fit in its period"):
        LightTiming(heartbeat_period=0.3)
