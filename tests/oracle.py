"""GNU Backgammon as the oracle: gnubg-nn (its C move generator) and the gnubg program.

gnubg-nn works on boards ``[[25 ints], [25 ints]]``: index 1 is the player
on roll, each list holds that player's points 1-24 counted from their own
side and then the bar.  Its ``moves`` returns the resulting boards still
seen from the player who moved.  Our engine hands back positions with the
opponent on roll, so :func:`oracle_results` turns gnubg's boards around
before encoding; getting this wrong would make every comparison fail, and
the orientation tests use deliberately lopsided positions to prove it right.
"""

import itertools
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

from controller.rules import Player, Position

Board = list[list[int]]

GNUBG_PROGRAM: Final = Path("/usr/games/gnubg")


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set (to anything but empty/false/0)."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def _unavailable(reason: str) -> None:
    """Skip locally, fail in CI: a CI run without the oracle proves nothing."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so the oracle tests must run)")
    pytest.skip(reason)


def gnubg_nn_or_none() -> ModuleType | None:
    """The gnubg-nn module, or None when it is not installed."""
    try:
        import gnubg_nn
    except ImportError:
        return None
    module: ModuleType = gnubg_nn
    return module


def require_gnubg_nn() -> ModuleType:
    """gnubg-nn, or skip (fail under CI) when it is missing."""
    module = gnubg_nn_or_none()
    if module is None:
        _unavailable("gnubg-nn is not installed: pip install -e '.[dev]'")
    assert module is not None
    return module


def gnubg_program() -> Path | None:
    """The path of the gnubg program, if present."""
    if GNUBG_PROGRAM.exists():
        return GNUBG_PROGRAM
    found = shutil.which("gnubg")
    return Path(found) if found else None


def require_gnubg_program() -> Path:
    """The gnubg program, or skip (fail under CI) when it is missing."""
    program = gnubg_program()
    if program is None:
        _unavailable("the gnubg program is not installed: apt-get install gnubg")
    assert program is not None
    return program


# -- conversions -------------------------------------------------------------


def to_board(position: Position) -> Board:
    """gnubg's board of ``position``: opponent first, player on roll second."""
    mover = position.layout(position.turn)
    opponent = position.layout(position.turn.opponent)
    return [list(opponent[1:26]), list(mover[1:26])]


def from_board(board: Sequence[Sequence[int]], turn: Player) -> Position:
    """Our position of a gnubg board whose second side is ``turn``, on roll."""
    rows = []
    for side in (board[1], board[0]):
        counts = [int(c) for c in side]
        rows.append([15 - sum(counts), *counts])
    return Position.from_relative(rows[0], rows[1], turn)


def _mover_boards(position: Position, die1: int, die2: int) -> list[Board]:
    gnubg = require_gnubg_nn()
    keys = gnubg.moves(to_board(position), die1, die2, 0)
    return [[list(side) for side in gnubg.boardfromkey(key)] for key in keys]


def oracle_results(position: Position, die1: int, die2: int) -> set[str]:
    """Position IDs of gnubg's results, opponent on roll (as ``legal_positions`` gives them)."""
    gnubg = require_gnubg_nn()
    return {gnubg.position_id([b[1], b[0]]) for b in _mover_boards(position, die1, die2)}


def oracle_mover_ids(position: Position, die1: int, die2: int) -> set[str]:
    """Position IDs of gnubg's results with the mover still second (``bgref moves --batch``)."""
    gnubg = require_gnubg_nn()
    return {gnubg.position_id(b) for b in _mover_boards(position, die1, die2)}


def oracle_plays(position: Position, die1: int, die2: int) -> dict[str, str]:
    """gnubg's moves for each result ID (opponent on roll), as ``24/18 18/13`` steps."""
    gnubg = require_gnubg_nn()
    out: dict[str, str] = {}
    for key, steps in gnubg.moves(to_board(position), die1, die2, 1):
        board = [list(side) for side in gnubg.boardfromkey(key)]
        text = " ".join(f"{_place(a)}/{_place(b)}" for a, b in steps)
        out[gnubg.position_id([board[1], board[0]])] = text
    return out


def oracle_step_counts(position: Position, die1: int, die2: int) -> set[int]:
    """How many single moves each of gnubg's plays has (empty set: no play)."""
    gnubg = require_gnubg_nn()
    return {len(steps) for _, steps in gnubg.moves(to_board(position), die1, die2, 1)}


def oracle_dice_played(position: Position, die1: int, die2: int) -> set[tuple[int, ...]]:
    """The pip distance of each single move of each of gnubg's plays."""
    gnubg = require_gnubg_nn()
    return {
        tuple(sorted(a - b for a, b in steps))
        for _, steps in gnubg.moves(to_board(position), die1, die2, 1)
    }


def _place(point: int) -> str:
    return {25: "bar", 0: "off"}.get(point, str(point))


# -- the real gnubg program ---------------------------------------------------

_HINT_LINE: Final = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(?P<play>.+?)\s+Eq\.:")
_DICE_SET: Final = re.compile(r"The dice have been set to (\d) and (\d)\.")
_NO_MOVE: Final = "There are no legal moves."


def program_results(queries: Sequence[tuple[Position, int, int]],
                    timeout: float = 120.0) -> list[set[str]]:
    """Each query's result IDs (opponent on roll) according to the gnubg program.

    One gnubg process answers all queries: for each it sets the board and
    dice and asks for every play (``hint``) at 0 ply, which is quick.  The
    plays come back as notation, which is applied here by
    :func:`apply_gnubg_notation`, a few lines independent of the engine.
    """
    program = require_gnubg_program()
    gnubg = require_gnubg_nn()
    lines = [
        "set automatic roll off", "set automatic move off", "set automatic bearoff off",
        "set player 0 human", "set player 1 human", "new game",
        "set evaluation chequerplay evaluation plies 0",
    ]
    for position, die1, die2 in queries:
        lines += [f"set board {position.position_id()}", f"set dice {die1} {die2}", "hint 1000"]
    script = "\n".join(lines) + "\n"
    done = subprocess.run([str(program), "-t", "-q"], input=script, capture_output=True,
                          text=True, timeout=timeout, check=False)
    blocks: list[list[str]] = []
    for line in done.stdout.splitlines():
        if _DICE_SET.search(line):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    if len(blocks) != len(queries):
        raise AssertionError(
            f"gnubg answered {len(blocks)} of {len(queries)} queries:\n{done.stdout[-3000:]}"
            f"\n{done.stderr[-2000:]}"
        )
    results: list[set[str]] = []
    for (position, _, _), block in zip(queries, blocks, strict=True):
        plays = [m.group("play") for line in block if (m := _HINT_LINE.match(line))]
        if not plays and not any(_NO_MOVE in line for line in block):
            raise AssertionError(f"no hint for {position.position_id()}:\n" + "\n".join(block))
        board = to_board(position)
        ids = set()
        for play in plays:
            after = apply_gnubg_notation(board, play)
            ids.add(gnubg.position_id([after[1], after[0]]))
        results.append(ids)
    return results


_TOKEN: Final = re.compile(r"^(?P<path>[0-9a-z/*]+?)(?:\((?P<count>\d)\))?$")


def apply_gnubg_notation(board: Board, play: str) -> Board:
    """The gnubg board (mover second) after the play ``play`` in gnubg notation.

    Understands ``bar/22*``, ``24/18*/13``, ``6/off(2)``: each token is one
    checker's path, hits are seen on the board (a lone opposing checker on a
    landing point goes to the bar), so the stars are only decoration here.
    """
    opponent, mover = list(board[0]), list(board[1])
    for token in play.split():
        match = _TOKEN.match(token)
        if not match:
            raise ValueError(f"cannot read gnubg move {token!r} in {play!r}")
        stops = [_number(s.rstrip("*")) for s in match.group("path").split("/")]
        for _ in range(int(match.group("count") or 1)):
            for source, target in itertools.pairwise(stops):
                mover[source - 1] -= 1
                if mover[source - 1] < 0:
                    raise ValueError(f"{play!r}: no checker on {source}")
                if target == 0:
                    continue
                if opponent[24 - target] == 1:
                    opponent[24 - target] = 0
                    opponent[24] += 1
                mover[target - 1] += 1
    return [opponent, mover]


def _number(text: str) -> int:
    named = {"bar": 25, "off": 0}
    return named[text] if text in named else int(text)
