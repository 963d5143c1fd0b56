"""``bgref moves``: the plain and ``--json`` outputs, errors and help.

The expected plays are the sixteen ways to play an opening 3-1, as every
backgammon book lists them and as GNU Backgammon's ``hint`` shows them;
they are written out here, not taken from the engine.
"""

import json
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner

from controller.cli import main
from controller.rules import Player, Position
from tests.oracle import oracle_mover_ids, require_gnubg_nn

ROOT: Final = Path(__file__).resolve().parent.parent
START_ID: Final = "4HPwATDgc/ABMA"

OPENING_31: Final = sorted([
    "8/5 6/5", "24/23 13/10", "24/20", "24/23 24/21", "13/9", "24/21 6/5",
    "13/10 6/5", "24/23 6/3", "24/23 8/5", "24/21 8/7", "13/10 8/7", "8/4",
    "6/2", "6/5 6/3", "8/7 6/3", "8/7 8/5",
])


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_opening_3_1_lists_the_sixteen_plays_sorted() -> None:
    code, out, _ = _run("moves", START_ID, "3", "1")
    assert code == 0
    assert out.splitlines() == OPENING_31


def test_the_dice_order_does_not_matter() -> None:
    assert _run("moves", START_ID, "1", "3")[1].splitlines() == OPENING_31


def test_json_output_has_the_plays_and_sorted_ids() -> None:
    code, out, _ = _run("moves", START_ID, "3", "1", "--json")
    assert code == 0
    reply = json.loads(out)
    assert set(reply) == {"moves", "positions"}
    assert reply["moves"] == OPENING_31
    ids = reply["positions"]
    assert ids == sorted(ids) and len(set(ids)) == 16
    assert all(isinstance(pid, str) and len(pid) == 14 for pid in ids)


@pytest.mark.oracle
def test_json_positions_are_gnubgs_seen_from_the_mover() -> None:
    require_gnubg_nn()
    reply = json.loads(_run("moves", START_ID, "3", "1", "--json")[1])
    start = Position.from_position_id(START_ID, Player.ZERO)
    assert reply["positions"] == sorted(oracle_mover_ids(start, 3, 1))


def _opening_66() -> list[str]:
    """The opening 6-6 plays, worked out from the rules.

    From the start the mover's 1, 12, 17 and 19 are held by the opponent,
    so each checker can move one 6 at most: 24/18 (two checkers), 13/7
    (five), 8/2 (three); 18/12, 7/1 and bearing off are impossible.  A play
    is how many of the four 6s each of those three moves takes.
    """
    plays = []
    for back in range(3):
        for mid in range(5):
            deep = 4 - back - mid
            if not 0 <= deep <= 3:
                continue
            parts = [f"{text}({n})" if n > 1 else text
                     for text, n in (("24/18", back), ("13/7", mid), ("8/2", deep)) if n]
            plays.append(" ".join(parts))
    return sorted(plays)


def test_opening_6_6_lists_the_eleven_plays() -> None:
    expected = _opening_66()
    assert len(expected) == 11 and "24/18(2) 13/7(2)" in expected
    assert _run("moves", START_ID, "6", "6")[1].splitlines() == expected


def test_a_dance_prints_no_plays_and_says_so() -> None:
    closed = [0] * 26
    closed[1:7] = [2] * 6
    closed[13] = 3
    mover = [0] * 26
    mover[25] = 2
    mover[6] = 13
    position = Position.from_relative(mover, closed, Player.ZERO)
    code, out, err = _run("moves", position.position_id(), "6", "5")
    assert code == 0
    assert out == ""
    assert "no legal play" in err
    reply = json.loads(_run("moves", position.position_id(), "6", "5", "--json")[1])
    assert reply == {"moves": [], "positions": []}


@pytest.mark.parametrize(("args", "needle"), [
    (["nonsense", "3", "1"], "Position ID"),
    (["4HPwATDgc/ABM", "3", "1"], "Position ID"),
    (["//////////////", "3", "1"], "80 bits"),
    ([START_ID, "7", "1"], "1 to 6"),
    ([START_ID, "0", "3"], "1 to 6"),
])
def test_bad_input_is_a_clear_error(args: list[str], needle: str) -> None:
    code, out, err = _run("moves", *args)
    assert code != 0
    assert out == ""
    assert needle in err


@pytest.mark.parametrize("args", [
    [START_ID, "3"],
    [START_ID, "three", "1"],
    ["--batch", START_ID],
    [],
])
def test_malformed_command_lines_are_usage_errors(args: list[str]) -> None:
    code, out, err = _run("moves", *args)
    assert code == 2
    assert out == ""
    assert "Usage:" in err


def test_help_explains_the_command() -> None:
    code, out, _ = _run("moves", "--help")
    assert code == 0
    assert "POSITION_ID" in out and "--json" in out and "--batch" in out
    code, out, _ = _run("--help")
    assert code == 0 and "moves" in out


def test_the_installed_command_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "controller", "moves", START_ID, "3", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == OPENING_31
    bad = subprocess.run([sys.executable, "-m", "controller", "moves", "nonsense", "3", "1"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert bad.returncode != 0
    assert "Position ID" in bad.stderr
