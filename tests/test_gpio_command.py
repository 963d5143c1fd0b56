"""`bgref gpio`: the mock demo prints what the pins really did."""

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from controller.cli import main

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


def test_without_gpio_hardware_the_real_test_says_so(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("lgpio is installed here: this checks a machine without it")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setenv("LG_WD", "unset-by-the-test")  # restored afterwards, whatever the code sets
    before = os.getcwd()
    code, out = run()
    assert code == 1
    assert "no GPIO here" in out and "try bgref gpio --mock" in out
    assert os.getcwd() == before
    assert (tmp_path / "state").is_dir()
    assert os.environ["LG_WD"] == str((tmp_path / "state").resolve())
