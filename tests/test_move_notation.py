"""Move notation: formatting, parsing and judging plays written as text.

Expected strings are gnubg's (its ``hint`` output for the same plays) or
worked out by hand from the notation rules; expected positions are built by
hand from the starting layout.
"""

from __future__ import annotations

import random

import pytest

from controller.rules import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidMoveNotationError,
    Move,
    Play,
    Player,
    Position,
    format_play,
    parse_play,
)
from controller.rules.notation import parse_segments

ZERO = Player.ZERO
START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def moved(row: tuple[int, ...], *steps: tuple[int, int]) -> list[int]:
    """``row`` with one checker moved for each (from, to)."""
    out = list(row)
    for source, target in steps:
        out[source] -= 1
        out[target] += 1
    return out


def layout(places: dict[int, int]) -> list[int]:
    row = [0] * 26
    for place, count in places.items():
        row[place] = count
    row[0] = 15 - sum(row)
    return row


# -- formatting -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ([Move(24, 18), Move(13, 10)], "24/18 13/10"),
        ([Move(13, 10), Move(24, 18)], "24/18 13/10"),
        ([Move(25, 22, hit=True)], "bar/22*"),
        ([Move(6, 0)], "6/off"),
        ([Move(5, 0), Move(4, 0)], "5/off 4/off"),
        ([Move(3, 0), Move(3, 0)], "3/off(2)"),
        ([Move(8, 5), Move(8, 5)], "8/5(2)"),
        ([Move(8, 5), Move(8, 5), Move(6, 3), Move(6, 3)], "8/5(2) 6/3(2)"),
        ([Move(6, 2)] * 4, "6/2(4)"),
        ([Move(24, 22), Move(22, 20)], "24/20"),
        ([Move(24, 18, hit=True), Move(18, 13)], "24/18*/13"),
        ([Move(25, 20), Move(20, 15), Move(15, 10), Move(10, 5)], "bar/5"),
        ([Move(13, 7, hit=True), Move(8, 7)], "13/7* 8/7"),
        ([Move(8, 5, hit=True), Move(6, 5)], "8/5* 6/5"),
        ([Move(6, 5, hit=True), Move(5, 2)], "6/5*/2"),
        ([], ""),
    ],
)
def test_format_play(moves: list[Move], text: str) -> None:
    assert format_play(moves) == text


def test_str_of_a_play_is_its_notation() -> None:
    assert str(Play((Move(24, 18), Move(13, 10)), (6, 3))) == "24/18 13/10"
    assert str(Play((), (6, 6))) == ""


# gnubg's own strings for these plays (from its ``hint`` list: the opening
# 1-1 and 2-2 rolls and the position AAAIgM/BB8AAAA with 3-1).  Our formatter
# writes the same plays differently: it orders one point's checkers by where
# they end instead of by gnubg's move order, and it marks the hit on the
# checker that hit instead of on the first segment that reaches the hit
# point.  See the report of tests/test_notation_vs_gnubg.py.
GNUBG_WRITES = [  # (Position ID of the mover's board, dice, moves, gnubg's text)
    (
        "4HPwATDgc/ABMA",
        (1, 1),
        [Move(24, 23), Move(24, 23), Move(23, 22), Move(22, 21)],
        "24/21 24/23",
    ),
    ("4HPwATDgc/ABMA", (1, 1), [Move(6, 5), Move(6, 5), Move(6, 5), Move(5, 4)], "6/4 6/5(2)"),
    (
        "xHPwASjgc/ABMA",
        (2, 2),
        [Move(6, 4), Move(4, 2, hit=True), Move(6, 4), Move(4, 2)],
        "6/2*(2)",
    ),
    (
        "xHPwASjgc/ABMA",
        (2, 2),
        [Move(24, 22, hit=True), Move(22, 20), Move(24, 22), Move(22, 20)],
        "24/22*/20(2)",
    ),
    ("AAAIgM/BB8AAAA", (3, 1), [Move(6, 5, hit=True), Move(8, 5)], "8/5* 6/5"),
]


@pytest.mark.parametrize(("position_id", "dice", "moves", "text"), GNUBG_WRITES)
def test_format_play_like_gnubg(
    position_id: str, dice: tuple[int, int], moves: list[Move], text: str
) -> None:
    assert format_play(moves) == text


@pytest.mark.parametrize(("position_id", "dice", "moves", "text"), GNUBG_WRITES)
def test_gnubg_strings_parse_to_the_same_play(
    position_id: str, dice: tuple[int, int], moves: list[Move], text: str
) -> None:
    position = Position.from_position_id(position_id, ZERO)
    expected = position.result_of(Play(tuple(moves), dice))
    assert position.result_of(parse_play(position, text, *dice)) == expected


# -- parsing segments -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("24/18 13/10", [(24, 18, False), (13, 10, False)]),
        ("bar/22*", [(25, 22, True)]),
        ("BAR/22*", [(25, 22, True)]),
        ("Bar/20 6/Off", [(25, 20, False), (6, 0, False)]),
        ("6/off", [(6, 0, False)]),
        ("6/OFF", [(6, 0, False)]),
        ("25/22", [(25, 22, False)]),
        ("6/0", [(6, 0, False)]),
        ("8/5(2)", [(8, 5, False), (8, 5, False)]),
        ("24/18*/13", [(24, 18, True), (18, 13, False)]),
        ("24/20", [(24, 20, False)]),
        ("24/22*/20(2)", [(24, 22, True), (22, 20, False)] * 2),
        ("  24/18,13/10  ", [(24, 18, False), (13, 10, False)]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse_segments(text: str, segments: list[tuple[int, int, bool]]) -> None:
    assert parse_segments(text) == segments


@pytest.mark.parametrize(
    "text",
    [
        "24-18",
        "24/",
        "/18",
        "24//18",
        "24/18(5)",
        "24/18(0)",
        "24/18 13",
        "off/3",
        "6/off/3",
        "24/25",
        "26/20",
        "0/5",
        "24/18/20",
        "24/24",
        "6/bar",
        "bar/bar",
        "24/18x",
        "abc",
        "24/18 ; 13/10",
    ],
)
def test_malformed_notation_is_rejected(text: str) -> None:
    with pytest.raises(InvalidMoveNotationError):
        parse_segments(text)


# -- parsing plays --------------------------------------------------------------------


def test_one_checker_written_in_steps_or_at_once() -> None:
    start = Position.initial(ZERO)
    expected = Position(moved(START, (24, 13)), START, Player.ONE)
    for text in ("24/18 18/13", "24/13", "24/18/13"):
        play = parse_play(start, text, 6, 5)
        assert start.result_of(play) == expected, text
        assert str(play) == "24/13"


def test_points_made_and_doubles() -> None:
    start = Position.initial(ZERO)
    six_one = parse_play(start, "13/7 8/7", 6, 1)
    assert start.result_of(six_one) == Position(moved(START, (13, 7), (8, 7)), START, Player.ONE)
    threes = parse_play(start, "8/5(2) 6/3(2)", 3, 3)
    assert start.result_of(threes) == Position(
        moved(START, (8, 5), (8, 5), (6, 3), (6, 3)), START, Player.ONE
    )
    assert str(threes) == "8/5(2) 6/3(2)"


def test_entering_with_a_hit_in_any_case_and_as_25() -> None:
    # Mover on the bar; the opponent has a blot on its own 3-point, which is
    # the mover's 22-point.  The hit checker goes to the opponent's bar.
    mover = layout({25: 1, 6: 5, 13: 5})
    opponent = layout({3: 1, 6: 5, 8: 3, 13: 5})
    position = Position(mover, opponent, ZERO)
    after = Position(
        layout({22: 1, 6: 4, 13: 5, 2: 1}), layout({25: 1, 6: 5, 8: 3, 13: 5}), Player.ONE
    )
    for text in ("bar/22* 6/2", "BAR/22* 6/2", "25/22* 6/2", "bar/22 6/2"):
        play = parse_play(position, text, 3, 4)
        assert position.result_of(play) == after, text
        assert str(play) == "bar/22* 6/2"


def test_bearing_off_written_as_off_or_zero() -> None:
    position = Position(layout({6: 2, 5: 3, 1: 1}), layout({1: 2}), ZERO)
    after = Position(layout({6: 1, 5: 2, 1: 1}), layout({1: 2}), Player.ONE)
    for text in ("6/off 5/off", "6/0 5/0", "6/OFF 5/Off"):
        assert position.result_of(parse_play(position, text, 6, 5)) == after, text


def test_a_dance_is_the_empty_play() -> None:
    # All six home points of the opponent made: nothing enters.
    mover = layout({25: 2, 6: 5})
    opponent = layout({p: 2 for p in range(1, 7)})
    position = Position(mover, opponent, ZERO)
    play = parse_play(position, "", 6, 6)
    assert play.is_dance
    with pytest.raises(IllegalPlayError):
        parse_play(position, "bar/19", 6, 6)


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("24/18 13/10", (6, 5)),  # the 3 was not rolled
        ("6/off", (6, 5)),  # cannot bear off from the start
        ("24/18", (6, 5)),  # both dice must be played
        ("24/18* 8/7", (6, 1)),  # nothing to hit on 18
        ("24/13", (6, 6)),  # 11 pips is no use of 6-6
        ("6/1(4)", (5, 5)),  # the opponent holds the 1-point
        ("", (6, 5)),  # passing when a move exists
        ("24/18(2) 13/7(3)", (6, 6)),  # five moves for four dice
        ("13/7 13/7", (6, 1)),  # the 1 was not used and a second 6 not rolled
    ],
)
def test_well_formed_but_illegal_plays(text: str, dice: tuple[int, int]) -> None:
    with pytest.raises(IllegalPlayError):
        parse_play(Position.initial(ZERO), text, *dice)


def test_malformed_text_and_bad_dice_are_told_apart() -> None:
    start = Position.initial(ZERO)
    with pytest.raises(InvalidMoveNotationError):
        parse_play(start, "24-18 13-10", 6, 3)
    with pytest.raises(InvalidDiceError):
        parse_play(start, "24/18 13/10", 6, 7)


def test_every_legal_play_survives_a_round_trip_through_text() -> None:
    rng = random.Random(7)
    position = Position.initial(ZERO)
    checked = 0
    while checked < 2000:
        if position.winner() is not None:
            position = Position.initial(ZERO)
        roll = rng.randint(1, 6), rng.randint(1, 6)
        plays = position.legal_plays(*roll)
        for play in plays:
            again = parse_play(position, str(play), *roll)
            assert position.result_of(again) == position.result_of(play), str(play)
            checked += 1
        position = position.result_of(rng.choice(plays))
