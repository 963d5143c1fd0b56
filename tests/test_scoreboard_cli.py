"""``bgref scoreboard``: --port against a simulated board on a pty, --simulate
drawing the display, and the errors."""

import re
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from controller.cli import main
from controller.scoreboard.simulator import SimulatedBoard
from tests.interrupts import hearing_ctrl_c, stop_with_ctrl_c


def test_port_check_against_a_board_on_a_pty(tmp_path: Path) -> None:
    with SimulatedBoard(link=tmp_path / "scoreboard") as board:
        board.plug()
        board.start()
        result = CliRunner().invoke(main, ["scoreboard", "--port", str(tmp_path / "scoreboard"),
                                           "--message", "HI THERE", "--timeout", "5"])
        assert result.exit_code == 0, result.output
        assert re.search(r"link up, firmware protocol version 1, test state acknowledged",
                         result.output)
        assert board.firmware is not None and board.firmware.board is not None
        assert board.firmware.board.message == "HI THERE"
        assert board.firmware.board.score_light == 3 and board.firmware.board.score_dark == 5


def test_port_check_reports_a_missing_board(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["scoreboard", "--port", str(tmp_path / "nothing"),
                                       "--timeout", "0.3"])
    assert result.exit_code == 1
    assert "disconnected: cannot open the scoreboard on" in result.output


def test_port_check_refuses_a_message_it_cannot_show(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["scoreboard", "--port", str(tmp_path / "x"),
                                       "--message", "MUCH TOO LONG A MESSAGE"])
    assert result.exit_code == 2
    assert "longer than 16 characters" in result.output


def test_simulate_or_port_not_both() -> None:
    result = CliRunner().invoke(main, ["scoreboard"])
    assert result.exit_code == 2
    assert "either --simulate or --port" in result.output


def test_simulate_demo_draws_the_display(tmp_path: Path) -> None:
    link = tmp_path / "sim"
    result = CliRunner().invoke(main, ["scoreboard", "--simulate", "--demo", "--link", str(link),
                                       "--duration", "4"])
    assert result.exit_code == 0, result.output
    assert f"scoreboard simulator on {link} -> /dev/pts/" in result.output
    # the first demo state: 0-0 to 7 with ROLL, in turns with the score
    assert "[L  0d  0P 7 -  1]" in result.output
    assert "[      ROLL      ]" in result.output
    # the digits drawn from the SPI bytes: "0" is a closed box, "7" a hook
    lines = result.output.splitlines()
    index = lines.index("[L  0d  0P 7 -  1]")
    top, middle, bottom = lines[index - 3:index]
    assert top.startswith(" " * 13 + "_ ")  # only the 0 has a top bar
    assert middle.startswith("|           | |") and bottom.startswith("|_          |_|")
    assert not link.exists()  # the symlink goes with the simulator


def test_two_processes_simulator_and_port_check(tmp_path: Path) -> None:
    """The user's way: one shell runs the simulator, another checks it."""
    link = tmp_path / "scoreboard"
    simulator = subprocess.Popen(
        hearing_ctrl_c([sys.executable, "-m", "controller", "scoreboard", "--simulate",
                        "--link", str(link)]),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not link.exists():
            assert simulator.poll() is None, simulator.communicate()
            assert time.monotonic() < deadline, "the simulator made no pty"
            time.sleep(0.05)
        check = subprocess.run(
            [sys.executable, "-m", "controller", "scoreboard", "--port", str(link),
             "--message", "HI", "--timeout", "20"],
            capture_output=True, text=True, timeout=60, check=False)
        assert check.returncode == 0, check.stderr
        assert "test state acknowledged" in check.stdout
        time.sleep(3.5)  # the message page comes round, then NO LINK
    finally:
        out, err = stop_with_ctrl_c(simulator)
    assert simulator.returncode == 0, err
    shown = [line for line in out.splitlines() if line.startswith("[")]
    assert "[L.  3d  5P 7 d  2]" in shown
    assert "[       HI       ]" in shown
    assert not link.exists()
