"""Buttons on gpiozero's own mock pins, pressed with drive_low()/drive_high()
at times a hand-set clock gives: debounce, short and long presses, seats."""

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.gpio import ButtonPress, Buttons, ButtonTiming, OperatorAction, player_of
from controller.gpio.pinmap import load_pin_map

PINS = load_pin_map()
B = PINS.buttons


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Any:
    return MockFactory()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def buttons(factory: Any, clock: Clock) -> Any:
    with Buttons(PINS, pin_factory=factory, clock=clock) as devices:
        yield devices


def drive(factory: Any, clock: Clock, name: str, *steps: tuple[float, bool]) -> None:
    """Set the line of a button at each time: True = pressed (pulled low)."""
    pin = factory.pin(B[name])
    for t, pressed in steps:
        clock.now = t
        if pressed:
            pin.drive_low()
        else:
            pin.drive_high()


def press(factory: Any, clock: Clock, name: str, start: float, end: float) -> None:
    drive(factory, clock, name, (start, True), (end, False))


def test_buttons_are_pulled_up_and_read_low_when_pressed(factory: Any, clock: Clock,
                                                         buttons: Buttons) -> None:
    pin = factory.pin(B["bottom_double"])
    assert pin.pull == "up"
    press(factory, clock, "bottom_double", 1.0, 1.2)
    # Floating when the mock pin is made, high once the pull-up is on, then the press.
    assert [state.state for state in pin.states] == [False, True, False, True]


def test_a_short_press_is_known_once_the_release_held_still(factory: Any, clock: Clock,
                                                            buttons: Buttons) -> None:
    press(factory, clock, "bottom_double", 1.0, 1.2)
    assert buttons.poll(1.21) == []
    assert buttons.poll(1.25) == [ButtonPress(1.2, "double", "bottom")]
    assert buttons.poll(2.0) == []


def test_contact_bounce_makes_one_press(factory: Any, clock: Clock, buttons: Buttons) -> None:
    drive(factory, clock, "top_take",
          (1.000, True), (1.004, False), (1.009, True),     # closing chatter
          (1.500, False), (1.503, True), (1.507, False))    # opening chatter
    # The whole history: floating, pulled up, then every bounce as driven.
    assert [state.state for state in factory.pin(B["top_take"]).states] == [
        False, True, False, True, False, True, False, True]
    assert buttons.poll(2.0) == [ButtonPress(1.507, "take", "top")]


def test_a_spike_shorter_than_the_debounce_is_no_press(factory: Any, clock: Clock,
                                                       buttons: Buttons) -> None:
    press(factory, clock, "bottom_call", 1.0, 1.02)
    assert not buttons.pressed("bottom_call")
    assert buttons.poll(3.0) == []


def test_the_debounced_level_while_held(factory: Any, clock: Clock, buttons: Buttons) -> None:
    drive(factory, clock, "operator", (1.0, True))
    buttons.poll(1.01)
    assert not buttons.pressed("operator")
    buttons.poll(1.05)
    assert buttons.pressed("operator")


@pytest.mark.parametrize(("name", "held", "expected"), [
    ("bottom_double", 0.99, ButtonPress(10.99, "double", "bottom")),
    ("bottom_double", 1.0, ButtonPress(11.0, "resign", "bottom", "single")),
    ("bottom_double", 2.4, ButtonPress(12.4, "resign", "bottom", "single")),
    ("bottom_double", 2.6, ButtonPress(12.6, "resign", "bottom", "gammon")),
    ("top_double", 4.1, ButtonPress(14.1, "resign", "top", "backgammon")),
    ("top_double", 9.0, ButtonPress(19.0, "resign", "top", "backgammon")),
    ("bottom_take", 0.3, ButtonPress(10.3, "take", "bottom")),
    ("bottom_take", 1.5, ButtonPress(11.5, "accept", "bottom")),
    ("top_pass", 0.3, ButtonPress(10.3, "pass", "top")),
    ("top_pass", 1.5, ButtonPress(11.5, "reject", "top")),
    ("top_call", 0.2, ButtonPress(10.2, "call", "top")),
    ("top_call", 3.0, ButtonPress(13.0, "call", "top")),
    ("operator", 2.5, OperatorAction(12.5)),
])
def test_what_each_press_means(factory: Any, clock: Clock, buttons: Buttons,
                               name: str, held: float, expected: object) -> None:
    press(factory, clock, name, 10.0, 10.0 + held)
    assert buttons.poll(30.0) == [expected]


@pytest.mark.parametrize(("name", "held"), [
    ("operator", 0.5),       # a knock does not undo a play
    ("operator", 1.9),
    ("bottom_double", 10.5),  # something lying on the button
    ("operator", 12.0),
])
def test_presses_that_mean_nothing(factory: Any, clock: Clock, buttons: Buttons,
                                   name: str, held: float) -> None:
    press(factory, clock, name, 10.0, 10.0 + held)
    assert buttons.poll(30.0) == []


def test_presses_on_several_buttons_come_out_in_order(factory: Any, clock: Clock,
                                                      buttons: Buttons) -> None:
    press(factory, clock, "bottom_double", 1.0, 1.3)
    press(factory, clock, "top_take", 2.0, 2.2)
    # The double's release settled when the take's first edge came? No: edges
    # settle only their own button, so both wait for the poll.
    assert buttons.poll(3.0) == [ButtonPress(1.3, "double", "bottom"),
                                 ButtonPress(2.2, "take", "top")]


def test_the_next_edge_settles_a_press_without_a_poll(factory: Any, clock: Clock) -> None:
    heard: list[object] = []
    with Buttons(PINS, pin_factory=factory, clock=clock, on_event=heard.append) as buttons:
        press(factory, clock, "bottom_pass", 1.0, 1.2)
        assert heard == []
        press(factory, clock, "bottom_pass", 2.0, 2.1)
        assert heard == [ButtonPress(1.2, "pass", "bottom")]
        assert buttons.poll(3.0) == []
        assert heard == [ButtonPress(1.2, "pass", "bottom"), ButtonPress(2.1, "pass", "bottom")]


def test_seat_to_player_follows_who_sits_at_the_bottom() -> None:
    bottom = ButtonPress(1.0, "double", "bottom")
    top = ButtonPress(1.0, "take", "top")
    assert (player_of(bottom, "light"), player_of(top, "light")) == ("light", "dark")
    assert (player_of(bottom, "dark"), player_of(top, "dark")) == ("dark", "light")
    assert player_of(top, None) is None


def test_closing_releases_every_pin(factory: Any, clock: Clock) -> None:
    buttons = Buttons(PINS, pin_factory=factory, clock=clock)
    buttons.close()
    from gpiozero import LED

    for gpio in B.values():
        LED(gpio, pin_factory=factory).close()


def test_timing_that_cannot_work_is_refused() -> None:
    with pytest.raises(ValueError, match="debounce"):
        ButtonTiming(debounce=2.0)
    with pytest.raises(ValueError, match="max_press"):
        ButtonTiming(max_press=3.0)


def test_a_press_is_the_referees_button_input_field_for_field() -> None:
    from dataclasses import fields
    from typing import get_args

    from controller.gpio.gestures import GESTURES, RESIGN_LEVELS, ButtonName, ResignLevel
    from controller.referee import inputs

    assert set(get_args(ButtonName)) == set(get_args(inputs.Button))
    assert {g for pair in GESTURES.values() for g in pair} == set(get_args(inputs.Button))
    assert RESIGN_LEVELS == get_args(ResignLevel) == get_args(inputs.ResignLevelName)
    assert "undo" in get_args(inputs.OperatorAction)
    press = ButtonPress(12.6, "resign", "top", "gammon")
    given = inputs.ButtonInput(press.t, press.button, player_of(press, "light") or "light",
                               press.level)
    assert [f.name for f in fields(inputs.ButtonInput)] == ["t", "button", "player", "level"]
    assert (given.t, given.button, given.player, given.level) == (12.6, "resign", "dark", "gammon")
