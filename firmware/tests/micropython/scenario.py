"""Runs the firmware through a scripted scenario and prints what it did, as
one JSON line after "RESULT ": the same script under MicroPython and CPython,
so the test can demand identical behaviour, byte for byte.

The scenario (/scenario.json, or the path in the SCENARIO variable under
CPython) is {"epoch": E, "steps": [[t_ms, "hex bytes from the host"], ...]}.
"""

import json

import machine  # type: ignore[import-not-found]  # the shim beside this file

from firmware import main


def scenario_path() -> str:
    try:
        import os

        return os.environ.get("SCENARIO", "/scenario.json")
    except (ImportError, AttributeError):
        return "/scenario.json"


class Clock:
    def __init__(self) -> None:
        self.t = 0

    def now(self) -> int:
        return self.t


class Port:
    def __init__(self) -> None:
        self.inbox = b""
        self.sent = b""

    def read(self) -> bytes:
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data


with open(scenario_path()) as handle:
    scenario = json.loads(handle.read())

display = main.make_display(machine)
clock = Clock()
port = Port()
firmware = main.Firmware(port, display, clock, epoch=scenario["epoch"])
shown: "list[str | None]" = []
for t, data in scenario["steps"]:
    clock.t = t
    port.inbox += bytes.fromhex(data)
    firmware.step()
    shown.append(firmware.shown)

board = firmware.board
print("RESULT " + json.dumps({
    "events": machine.EVENTS,
    "sent": port.sent.hex(),
    "shown": shown,
    "board": None if board is None else [board.match_length, board.score_light,
                                         board.score_dark, board.message],
}))
