"""`bgref judge`: the referee's verdict from the command line."""

import json
import subprocess
import sys

from controller.rules import Player, Position


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller", *args],
                          check=False, capture_output=True, text=True, timeout=60)


def start_with(moved: dict[int, int]) -> str:
    """The start position with player 0's counts changed by hand, as an ID
    from player 0's point of view (player 0 second)."""
    row = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    for point, change in moved.items():
        row[point] += change
    theirs = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    return Position(row, theirs, Player.ZERO).position_id()


def test_the_point_making_3_1_is_legal() -> None:
    after = start_with({8: -1, 6: -1, 5: 2})
    result = bgref("judge", "4HPwATDgc/ABMA", after, "3", "1", "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["legal"] is True
    assert verdict["play"] == "8/5 6/5"
    assert verdict["reasons"] == []


def test_playing_only_one_die_is_illegal_with_a_reason() -> None:
    after = start_with({8: -1, 5: 1})  # 8/5 and the 1 not played
    result = bgref("judge", "4HPwATDgc/ABMA", after, "3", "1")
    assert result.returncode == 1
    assert result.stdout.startswith("illegal: ")
    assert "1" in result.stdout
    assert "closest legal plays:" in result.stdout


def test_a_malformed_id_is_a_clear_error() -> None:
    result = bgref("judge", "nonsense", "4HPwATDgc/ABMA", "3", "1")
    assert result.returncode not in (0, 1)
    assert "Position ID" in result.stderr
