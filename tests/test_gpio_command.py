"""`bgref gpio`: the mock demo prints what the pins really did."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from controller.cli import main
from tests.shared_data import missing

REPO = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["gpio", *args])
    return result.exit_code, result.output


def after(output: str, heading: str) -> str:
    """The pin line printed under a step of the demo."""
    lines = output.splitlines()
    index = next(i for i, line in enumerate(lines) if heading in line)
    return lines[index + 1].strip()


def test_the_mock_demo_shows_the_pin_states() -> None:
    code, out = run("--mock")
    assert code == 0, out
    # Light sits at the bottom and owns the cube at 2; dark to play.
    assert after(out, "cube 2 with light") == (
        "cube_2(GPIO17), owner_bottom(GPIO23), turn_top(GPIO15); buzzer off")
    # Players mode: light (the opponent) may call; a beep.
    assert after(out, "dark plays illegally") == (
        "cube_2(GPIO17), owner_bottom(GPIO23), turn_top(GPIO15), call_bottom(GPIO20); "
        "buzzer 4000 Hz")
    assert after(out, "the beep is over").endswith("call_bottom(GPIO20); buzzer off")
    assert "call_bottom" not in after(out, "the blink's dark half")
    assert after(out, "Crawford game") == "turn_top(GPIO15), status(GPIO26); buzzer off"


def test_the_mock_demo_reads_the_presses() -> None:
    code, out = run("--mock")
    assert code == 0, out
    gestures = [line.split("-> ")[1] for line in out.splitlines() if "-> " in line]
    assert gestures == [
        '{"t": 10.3, "button": "double", "seat": "bottom", "level": null, "player": "light"}',
        '{"t": 11.2, "button": "take", "seat": "top", "level": null, "player": "dark"}',
        '{"t": 14.7, "button": "resign", "seat": "top", "level": "gammon", "player": "dark"}',
        '{"t": 16.5, "button": "reject", "seat": "bottom", "level": null, "player": "light"}',
        '{"t": 19.5, "action": "undo"}',
    ]


def test_a_builders_pin_map_is_used(tmp_path: Path) -> None:
    own = tmp_path / "pins.toml"
    own.write_text((REPO / "hardware/pins.toml").read_text().replace("cube_2 = 17", "cube_2 = 3"))
    code, out = run("--mock", "--pins", str(own))
    assert code == 0, out
    assert after(out, "cube 2 with light").startswith("cube_2(GPIO3), ")


def test_a_broken_pin_map_is_a_clear_error(tmp_path: Path) -> None:
    own = tmp_path / "pins.toml"
    own.write_text((REPO / "hardware/pins.toml").read_text().replace("cube_2 = 17", "cube_2 = 9"))
    code, out = run("--mock", "--pins", str(own))
    assert code == 1
    assert "GPIO9 is given twice (lights.cube_2 and lights.cube_32)" in out


def test_without_lgpio_the_real_test_says_so(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # As on a machine without lgpio, whether or not this one has it.
    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setenv("LG_WD", "unset-by-the-test")  # restored afterwards, whatever the code sets
    before = os.getcwd()
    code, out = run()
    assert code == 1
    assert "no GPIO here (lgpio is not installed" in out
    assert "sudo apt install python3-lgpio); try bgref gpio --mock" in out
    assert "Traceback" not in out
    assert os.getcwd() == before
    assert (tmp_path / "state").is_dir()
    assert os.environ["LG_WD"] == str((tmp_path / "state").resolve())


def test_a_state_directory_that_cannot_be_made_is_named(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("STATE_DIRECTORY", str(blocker / "state"))
    code, out = run()
    assert code == 1
    assert f"lgpio needs a writable working directory; cannot make {blocker / 'state'}" in out


def lgpio_or_fail() -> None:
    """The real lgpio (scripts/test installs its wheel); skips locally, fails under CI.

    Looked for, not imported: importing lgpio makes its pipe in the current directory.
    """
    if importlib.util.find_spec("lgpio") is None:
        missing("lgpio is not installed: scripts/test installs it (pip install lgpio)")


def test_real_lgpio_keeps_its_pipe_in_the_state_directory(tmp_path: Path) -> None:
    """The real lgpio, imported by the real command in a process of its own, on a
    machine that is no Pi: its notification pipe lands in the state directory,
    never in the current directory, and the failure is one clear line."""
    lgpio_or_fail()
    state, cwd = tmp_path / "state", tmp_path / "cwd"
    cwd.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "LG_WD"}
    env["STATE_DIRECTORY"] = str(state)
    done = subprocess.run([sys.executable, "-m", "controller.cli", "gpio"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)
    # Not a Pi: gpiozero finds no board revision (on a Pi without access to the
    # chip, lgpio says "can not open gpiochip"); either way one line, no traceback.
    assert done.returncode == 1, done.stderr
    assert "Error: no GPIO here (the Pi's GPIO cannot be used: " in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in state.iterdir())[0].startswith(".lgd-nfy")
    assert list(cwd.iterdir()) == []


def test_pins_in_use_are_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import LED
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from controller.gpio import factory as factories
    from controller.gpio.pinmap import load_pin_map

    pins = load_pin_map()
    mock = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(factories, "lgpio_pin_factory", lambda: mock)
    taken = LED(pins.buttons["operator"], pin_factory=mock)  # as if the service held it
    code, out = run()
    assert code == 1
    assert "cannot read the buttons: " in out and "sudo systemctl stop bgref" in out
    # The lights were let go again: every light pin can be taken now.
    for gpio in pins.lights.values():
        LED(gpio, pin_factory=mock).close()
    taken.close()
    taken = LED(pins.lights["status"], pin_factory=mock)
    code, out = run()
    assert code == 1
    assert "cannot drive the lights: " in out
    taken.close()
