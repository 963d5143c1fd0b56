"""The engine against GNU Backgammon, position by position.

gnubg-nn is GNU Backgammon's own C move generator; for every corpus entry
the set of positions a legal play can leave must be exactly gnubg's.  The
real gnubg program then vouches for gnubg-nn on bear-offs, and the
``bgref moves --batch`` contract is checked line by line the same way.

Locally these tests skip when the oracle is missing; with ``CI`` set they fail.
"""

import json
import select
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Final

import pytest

from controller.rules import Player, Position
from tests.corpus import (
    KINDS,
    Entry,
    corpus,
    labelled_corpus,
    most_dice_playable,
    playable_alone,
)
from tests.oracle import (
    oracle_dice_played,
    oracle_mover_ids,
    oracle_plays,
    oracle_results,
    oracle_step_counts,
    program_results,
    require_gnubg_nn,
)

pytestmark = pytest.mark.oracle

ROOT: Final = Path(__file__).resolve().parent.parent
SEED: Final = 20240
SIZE: Final = 20_000

# Worked out by hand from the Position ID format (see test_orientation_*):
# the opponent has two checkers on their 3-point, the player on roll one on
# their 24-point and one on the bar; everything else is borne off.
LOPSIDED_ID: Final = "DAAAAAAAFAAAAA"


@pytest.fixture(scope="module")
def gnubg() -> ModuleType:
    return require_gnubg_nn()


def _describe(position: Position, die1: int, die2: int, ours: set[str],
              theirs: set[str]) -> str:
    """A mismatch spelled out: ID, dice and both sides' extra results as plays."""
    our_plays = {
        position.result_of(play).position_id(): str(play)
        for play in position.legal_plays(die1, die2)
    }
    gnubg_plays = oracle_plays(position, die1, die2)
    only_ours = [f"{pid} ({our_plays.get(pid, '?')})" for pid in sorted(ours - theirs)]
    only_gnubg = [f"{pid} ({gnubg_plays.get(pid, '?')})" for pid in sorted(theirs - ours)]
    return (
        f"Position ID {position.position_id()} (player {position.turn.value} on roll), "
        f"dice {die1}-{die2}:\n  only the engine: {only_ours or '-'}\n"
        f"  only gnubg:      {only_gnubg or '-'}"
    )


def _compare(entries: list[Entry]) -> list[str]:
    mismatches = []
    for position, die1, die2 in entries:
        ours = {p.position_id() for p in position.legal_positions(die1, die2)}
        theirs = oracle_results(position, die1, die2)
        if ours != theirs:
            mismatches.append(_describe(position, die1, die2, ours, theirs))
    return mismatches


# -- the conversions are oriented right ----------------------------------------


def test_orientation_of_boards_and_ids_matches_a_hand_encoded_id(gnubg: ModuleType) -> None:
    # Bits, least significant first: opponent 0,0,110 then 22 zeros (27 bits);
    # player on roll 23 zeros, 10 (24-point), 10 (bar): bits 2, 3, 50, 52 set,
    # bytes 0C 00 00 00 00 00 14 00 00 00, base64 "DAAAAAAAFAAAAA".
    board = gnubg.board_from_position_id(LOPSIDED_ID)
    expected = [[0] * 25, [0] * 25]
    expected[0][2] = 2
    expected[1][23] = 1
    expected[1][24] = 1
    assert [list(side) for side in board] == expected
    for turn in Player:
        position = Position.from_position_id(LOPSIDED_ID, turn)
        assert position.layout(turn)[24:] == (1, 1)
        assert position.layout(turn.opponent)[3] == 2
        assert position.position_id() == LOPSIDED_ID
        assert gnubg.position_id(expected) == LOPSIDED_ID


def test_orientation_of_results_matches_a_hand_worked_roll(gnubg: ModuleType) -> None:
    # 6-5 from the lopsided position: the bar checker must enter first, on
    # the 19 (6) or the 20 (5).  Then bar/19 24/19, bar/20 24/18, or one
    # checker all the way, bar/14.  The opponent's point 3 is untouched.
    def after(mover_points: dict[int, int]) -> list[list[int]]:
        opponent = [0] * 25
        opponent[2] = 2
        mover = [0] * 25
        for point, count in mover_points.items():
            mover[point - 1] = count
        return [opponent, mover]

    boards = [after({19: 2}), after({20: 1, 18: 1}), after({24: 1, 14: 1})]
    mover_view = {gnubg.position_id(b) for b in boards}
    opponent_view = {gnubg.position_id([b[1], b[0]]) for b in boards}
    for turn in Player:
        position = Position.from_position_id(LOPSIDED_ID, turn)
        assert oracle_mover_ids(position, 6, 5) == mover_view
        assert oracle_results(position, 6, 5) == opponent_view
        assert {p.position_id() for p in position.legal_positions(6, 5)} == opponent_view
        assert {p.turn for p in position.legal_positions(6, 5)} == {turn.opponent}


# -- the engine against gnubg-nn ----------------------------------------------


def test_engine_matches_gnubg_nn_on_the_corpus(gnubg: ModuleType) -> None:
    entries = labelled_corpus(SEED, SIZE)
    kinds = Counter(kind for kind, _ in entries)
    assert len(entries) >= 20_000
    assert set(kinds) == set(KINDS), "every kind of position is in the mix"
    mismatches = _compare([entry for _, entry in entries])
    print(f"{len(entries)} corpus entries compared with gnubg-nn, {len(mismatches)} differ; "
          f"kinds: {dict(kinds)}")
    assert not mismatches, "\n".join(mismatches[:20])


def test_engine_matches_gnubg_nn_for_every_roll(gnubg: ModuleType) -> None:
    """Every one of the 21 rolls (both orders of non-doubles) on 300 positions."""
    positions = [position for position, _, _ in corpus(SEED + 1, 300)]
    entries = [(p, d1, d2) for p in positions for d1 in range(1, 7) for d2 in range(1, 7)]
    mismatches = _compare(entries)
    assert not mismatches, "\n".join(mismatches[:20])


# -- the corpus generators make what they say --------------------------------


def _kind(name: str, n: int, seed: int = 7) -> list[Entry]:
    return [entry for kind, entry in labelled_corpus(seed, 40 * n) if kind == name][:n]


def test_one_die_generators_leave_exactly_one_die_to_play(gnubg: ModuleType) -> None:
    for name in ("one_die_entry", "only_lower_die", "one_die_blocked"):
        entries = _kind(name, 60)
        assert len(entries) == 60
        for position, die1, die2 in entries:
            assert die1 != die2
            assert oracle_step_counts(position, die1, die2) == {1}, (name, position, die1, die2)
            assert most_dice_playable(position, die1, die2) == 1


def test_only_lower_die_generator_leaves_only_the_lower_die(gnubg: ModuleType) -> None:
    for position, die1, die2 in _kind("only_lower_die", 60):
        low, high = sorted((die1, die2))
        assert oracle_dice_played(position, die1, die2) == {(low,)}
        assert not playable_alone(position, high)


def test_partial_doubles_generator_leaves_some_but_not_all_four(gnubg: ModuleType) -> None:
    seen = set()
    for position, die1, die2 in _kind("partial_doubles", 80):
        assert die1 == die2
        counts = oracle_step_counts(position, die1, die2)
        assert len(counts) == 1 and counts <= {1, 2, 3}
        seen |= counts
    assert seen == {1, 2, 3}


def test_closed_board_generator_always_dances(gnubg: ModuleType) -> None:
    for position, die1, die2 in _kind("closed_board", 50):
        assert position.bar(position.turn) >= 1
        assert oracle_results(position, die1, die2) == set()


def test_naive_dice_count_agrees_with_gnubg_on_the_corpus(gnubg: ModuleType) -> None:
    """The corpus's own playable-dice count (used to pick entries) is right."""
    for position, die1, die2 in corpus(SEED + 2, 2000):
        counts = oracle_step_counts(position, die1, die2) or {0}
        assert counts == {most_dice_playable(position, die1, die2)}, (position, die1, die2)


# -- the real gnubg program vouches for gnubg-nn on bear-offs -------------------


def test_gnubg_program_agrees_with_gnubg_nn_on_bearoffs(gnubg: ModuleType) -> None:
    queries: list[Entry] = []
    for name in ("bearoff_race", "bearoff_contact", "bearoff_overshoot"):
        queries += _kind(name, 16, seed=11)
    queries.append((Position.from_position_id(LOPSIDED_ID, Player.ZERO), 6, 5))
    assert len(queries) == 49
    started = time.perf_counter()
    answers = program_results(queries)
    elapsed = time.perf_counter() - started
    differ = [
        f"{p.position_id()} {d1}-{d2}: program {sorted(a)}, "
        f"gnubg-nn {sorted(oracle_results(p, d1, d2))}"
        for (p, d1, d2), a in zip(queries, answers, strict=True)
        if a != oracle_results(p, d1, d2)
    ]
    assert not differ, "\n".join(differ)
    assert sum(len(a) for a in answers) > len(queries), "the program listed real plays"
    print(f"gnubg program: {len(queries)} bear-off queries in {elapsed:.2f} s, all agree")


# -- the bgref moves --batch contract -------------------------------------------

MALFORMED: Final = [
    "hello",
    "4HPwATDgc/ABMA 3",
    "4HPwATDgc/ABMA 3 1 2",
    "4HPwATDgc/ABMA 7 1",
    "4HPwATDgc/ABMA 0 0",
    "4HPwATDgc/ABMA x 1",
    "4HPwATDgc/ABM 3 1",
    "4HPwATDgc/AB#A 3 1",
    "////////////// 3 1",
    # Both players on one point: the opponent's 1-point is the mover's 24.
    "AQAAAAAAAgAAAA 3 1",
]


def _batch_command() -> list[str]:
    return [sys.executable, "-m", "controller", "moves", "--batch"]


def test_cli_batch_matches_gnubg_nn_line_by_line(gnubg: ModuleType) -> None:
    entries = corpus(SEED + 3, 3000)
    lines: list[str] = []
    expected: list[dict[str, object]] = []
    for i, (position, die1, die2) in enumerate(entries):
        if i % 100 == 50:
            bad = MALFORMED[(i // 100) % len(MALFORMED)]
            lines.append(bad)
            expected.append({"error": bad})
        lines.append(f"{position.position_id()} {die1} {die2}")
        expected.append({"positions": sorted(oracle_mover_ids(position, die1, die2))})
    assert sum("error" in e for e in expected) == 30
    done = subprocess.run(_batch_command(), input="\n".join(lines) + "\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    replies = done.stdout.splitlines()
    assert len(replies) == len(expected)
    wrong = []
    for line, reply_text, want in zip(lines, replies, expected, strict=True):
        reply = json.loads(reply_text)
        if "error" in want:
            ok = set(reply) == {"error"} and isinstance(reply["error"], str) and reply["error"]
        else:
            ok = reply == want
        if not ok:
            wrong.append(f"{line!r}: got {reply_text}, want {json.dumps(want)}")
    assert not wrong, "\n".join(wrong[:20])


def test_cli_batch_answers_each_line_before_reading_the_next() -> None:
    """A tool driving the batch as a co-process gets each reply without closing stdin."""
    start = Position.initial()
    process = subprocess.Popen(_batch_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None
    try:
        for query in (f"{start.position_id()} 3 1", "nonsense", f"{start.position_id()} 6 6"):
            process.stdin.write(query + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 30)
            assert ready, f"no reply to {query!r} within 30 s: output is not flushed"
            reply = json.loads(process.stdout.readline())
            assert set(reply) == ({"error"} if query == "nonsense" else {"positions"})
            if query.endswith(" 3 1"):
                assert len(reply["positions"]) == 16  # the sixteen 3-1 opening plays
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0
