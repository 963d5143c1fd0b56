"""The live referee's outputs wired together: mock GPIO pins, the scoreboard on a pty, the page.

A real :class:`Session` (SQLite journal in memory) is fed a short stream;
buttons are pressed on gpiozero's mock pins and must reach the referee
through the inbox as ``run_live`` drains it; the panel must reach the LEDs,
the simulated scoreboard's firmware and the kiosk page.  Each output that
cannot be built is reported and the others still work.
"""

import dataclasses
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.gpio.pinmap import load_pin_map
from controller.outputs import (
    KioskAddress,
    OutputOptionError,
    OutputOptions,
    Outputs,
    build_outputs,
    parse_gpio,
    parse_kiosk,
    parse_scoreboard,
)
from controller.referee.events import RefereeEvent
from controller.referee.inputs import OperatorInput
from controller.referee.journal import MEMORY, Journal
from controller.referee.session import Session
from controller.referee.settings import RefereeSettings
from controller.rules.position import Position
from controller.scoreboard.simulator import SimulatedBoard
from tests.interrupts import hearing_ctrl_c, stop_with_ctrl_c
from tests.referee_streams import SEATINGS, Script

START = Position.initial()
PINS = load_pin_map()
ANY_PORT = KioskAddress("127.0.0.1", 0)


def _until(condition: Callable[[], bool], what: str, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {limit} s"
        time.sleep(0.02)


class Table:
    """A session with every output on: what the demo and the Pi's service run."""

    def __init__(self, tmp: Path) -> None:
        self.board = SimulatedBoard(link=tmp / "scoreboard")
        self.board.plug()
        self.board.start()
        self.reports: list[str] = []
        self.outputs: Outputs = build_outputs(
            OutputOptions(gpio="mock", scoreboard=str(tmp / "scoreboard"), kiosk=ANY_PORT),
            report=self.reports.append)
        self.session = Session(Journal.open(MEMORY, create=True),
                               RefereeSettings(match_length=5))
        self.outputs.attach(self.session)

    def feed(self, script: Script) -> None:
        for inp in script.inputs:
            self.session.step(inp)

    def press(self, button: str, hold: float = 0.1) -> None:
        """Press and release a button on its mock pin (pressed reads low)."""
        pin = self.outputs.pin_factory.pin(PINS.buttons[button])
        pin.drive_low()
        time.sleep(hold)
        pin.drive_high()

    def take_input(self) -> tuple[RefereeEvent, ...]:
        """The next input from the inbox, stepped as ``run_live`` does (at the referee's time)."""
        inp = self.outputs.inbox.get(timeout=5)
        return self.session.step(dataclasses.replace(inp, t=self.session.last_t + 0.5))

    def led(self, name: str) -> bool:
        return bool(self.outputs.pin_factory.pin(PINS.lights[name]).state)

    def page(self) -> dict[str, Any]:
        assert self.outputs.kiosk is not None
        with urllib.request.urlopen(self.outputs.kiosk.url + "api/state", timeout=5) as answer:
            state: dict[str, Any] = json.load(answer)
        return state

    def close(self) -> None:
        self.outputs.close()
        self.board.stop()

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path)
    try:
        yield table
    finally:
        table.close()


def _opened(seating_index: int = 0) -> Script:
    """Set-up, opening roll 3-1, light plays 8/5 6/5 and picks up: dark to roll."""
    script = Script(SEATINGS[seating_index]).setup()
    dice = script.opening(3, 1)
    after = START.result_of(next(p for p in START.legal_plays(3, 1) if str(p) == "8/5 6/5"))
    script.stable(after, dice)
    script.stable(after)
    return script


def test_buttons_reach_the_referee_and_the_panel_reaches_lights_scoreboard_and_page(
        table: Table) -> None:
    table.feed(_opened())  # light sits at the bottom: dark's buttons are the top seat's
    assert table.outputs.problems == []
    _until(lambda: table.led("turn_top") and not table.led("turn_bottom"), "dark's turn light")
    assert table.led("owner_centre") and not table.led("cube_2")

    table.press("top_double")
    events = table.take_input()
    assert [(e.event, e.player) for e in events] == [("double", "dark")]
    table.press("bottom_take")
    events = table.take_input()
    assert [(e.event, e.player, e.data["cube"]) for e in events] == [("take", "light", 2)]

    # The lights: cube 2, owned by light at the bottom.
    _until(lambda: table.led("cube_2") and table.led("owner_bottom"), "the cube's lights")
    assert not table.led("owner_centre") and not table.led("owner_top")
    assert not any(table.led(f"cube_{v}") for v in (4, 8, 16, 32, 64))
    # The scoreboard: the firmware draws the match length and light's cube at 2.
    link = table.outputs.scoreboard
    assert link is not None
    _until(lambda: link.acknowledged, "the scoreboard's acknowledgement")
    _until(lambda: "P 5" in table.board.text() and table.board.text().endswith("L  2"),
           f"the scoreboard's page (shows {table.board.text()!r})")
    # The page: the cube, the log, and every output up.
    state = table.page()
    assert state["cube"] == {"value": 2, "owner": "light", "in_play": True, "place": "bottom"}
    assert [e["text"] for e in state["log"]][-2:] == ["Dark doubles to 2",
                                                     "Light takes; the cube is at 2"]
    assert state["outputs"] == {"gpio": "up", "scoreboard": "up"}
    assert any("scoreboard on" in r and "is up" in r for r in table.reports)


def test_seats_become_colours_by_who_sits_at_the_bottom(table: Table) -> None:
    table.feed(_opened(seating_index=2))  # dark sits at the bottom
    table.press("bottom_double")
    assert [(e.event, e.player) for e in table.take_input()] == [("double", "dark")]
    _until(lambda: table.led("turn_bottom"), "dark's turn light at the bottom")


def test_the_operators_long_press_undoes_the_last_play(table: Table) -> None:
    table.feed(_opened())
    table.press("operator", hold=0.3)  # too short: nothing
    table.press("operator", hold=2.2)
    inp = table.outputs.inbox.get(timeout=5)
    assert isinstance(inp, OperatorInput) and inp.action == "undo"
    assert table.outputs.inbox.empty()
    events = table.session.step(dataclasses.replace(inp, t=table.session.last_t + 0.5))
    assert [e.event for e in events] == ["correction"]
    assert events[0].data["action"] == "undo"
    assert table.page()["log"][-1]["event"] == "correction"


def test_a_press_before_the_set_up_is_reported_and_dropped(table: Table) -> None:
    table.press("bottom_double")
    _until(lambda: any("before the set-up" in r for r in table.reports), "the report")
    assert table.outputs.inbox.empty()


def test_each_output_failing_is_reported_and_the_rest_still_work(tmp_path: Path,
                                                                  table: Table) -> None:
    assert table.outputs.kiosk is not None
    host, port = table.outputs.kiosk.address  # a port in use
    reports: list[str] = []
    outputs = build_outputs(OutputOptions(gpio="mock", pins=str(tmp_path / "missing.toml"),
                                          scoreboard=str(tmp_path / "scoreboard-later"),
                                          kiosk=KioskAddress(host, port)),
                            report=reports.append)
    board = SimulatedBoard(link=tmp_path / "scoreboard-later")
    try:
        assert outputs.kiosk is None and outputs.feed is None
        assert outputs.lights is None and outputs.buttons is None
        assert [p.split(":")[0] for p in outputs.problems] == ["the kiosk page off",
                                                              "the lights and buttons off"]
        assert f"cannot listen on {host}:{port}" in outputs.problems[0]
        assert "missing.toml" in outputs.problems[1]
        assert outputs.problems == reports[:2]
        _until(lambda: any(r.startswith("scoreboard: ") and "scoreboard-later" in r
                           for r in reports), "the unplugged scoreboard's report")
        session = Session(Journal.open(MEMORY, create=True))
        outputs.attach(session)
        for inp in _opened().inputs:  # the referee goes on regardless
            session.step(inp)
        assert session.referee.expecting() == "dark to roll"
        # The scoreboard plugged in later just appears, showing the game as it stands.
        board.plug()
        board.start()
        link = outputs.scoreboard
        assert link is not None
        _until(lambda: link.acknowledged, "the late scoreboard's acknowledgement")
        # Money play (no match length), dark to roll (the dot), the cube centred at 1.
        _until(lambda: board.text() == "L  0d.  0    -  1",
               f"the late scoreboard's page (shows {board.text()!r})")
    finally:
        outputs.close()
        board.stop()


@pytest.mark.parametrize(("text", "address"), [
    ("8080", KioskAddress("127.0.0.1", 8080)),
    ("0.0.0.0:80", KioskAddress("0.0.0.0", 80)),
    ("[::1]:8081", KioskAddress("::1", 8081)),
    ("none", None),
    ("", None),
    (None, None),
])
def test_kiosk_addresses(text: str | None, address: KioskAddress | None) -> None:
    assert parse_kiosk(text) == address


@pytest.mark.parametrize("text", ["eighty", "70000", "-1", "host:"])
def test_bad_kiosk_addresses_say_what_is_wanted(text: str) -> None:
    with pytest.raises(OutputOptionError, match="kiosk: "):
        parse_kiosk(text)


def test_gpio_and_scoreboard_words() -> None:
    assert [parse_gpio(t) for t in ("lgpio", "MOCK", "none", "", None)] == \
        ["lgpio", "mock", "none", "none", "none"]
    with pytest.raises(OutputOptionError, match="gpio: one of lgpio, mock, none"):
        parse_gpio("pigpio")
    assert parse_scoreboard(" /dev/scoreboard ") == "/dev/scoreboard"
    assert parse_scoreboard("none") is None and parse_scoreboard(None) is None


def _lines(stream: Any, into: "queue.SimpleQueue[str]") -> None:
    for line in stream:
        into.put(line)


def test_the_live_command_drives_the_outputs_and_survives_their_failures(
        tmp_path: Path) -> None:
    """``bgref referee --camera`` with mock pins, a scoreboard that is not there and the page:
    the camera is lost too, and the referee keeps waiting, showing so on the page."""
    env = {**os.environ, "BGREF_KIOSK": "127.0.0.1:0"}  # the service's way of giving it
    process = subprocess.Popen(
        hearing_ctrl_c([sys.executable, "-m", "controller", "referee", "--camera",
         f"file:{tmp_path / 'unplugged.mp4'}", "--journal", str(tmp_path / "j.sqlite"),
         "--gpio", "mock", "--scoreboard", str(tmp_path / "no-scoreboard")]),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    errors: queue.SimpleQueue[str] = queue.SimpleQueue()
    reader = threading.Thread(target=_lines, args=(process.stderr, errors), daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None:
            line = errors.get(timeout=max(0.1, deadline - time.monotonic()))
            seen.append(line)
            if "kiosk page on " in line:
                url = line.split("kiosk page on ", 1)[1].strip()
        state: dict[str, Any] = {}
        while not state.get("log"):
            assert time.monotonic() < deadline, seen
            with urllib.request.urlopen(url + "api/state", timeout=5) as answer:
                state = json.load(answer)
            time.sleep(0.1)
        assert state["camera_ok"] is False
        assert state["alert"]["reason"] == "camera_lost"
        assert "unplugged.mp4" in state["alert"]["text"]
        assert state["outputs"]["gpio"] == "up"
        assert "no-scoreboard" in state["outputs"]["scoreboard"]
        assert process.poll() is None  # still refereeing
    finally:
        out, _ = stop_with_ctrl_c(process)
        reader.join(timeout=5)
    while not errors.empty():
        seen.append(errors.get())
    assert process.returncode == 0, seen
    assert any("scoreboard: " in line and "no-scoreboard" in line for line in seen), seen
    assert json.loads(out.splitlines()[0])["reason"] == "camera_lost"
