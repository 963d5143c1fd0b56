"""Positions: construction, validation, reading, value semantics."""

import pytest

from controller.rules import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    InvalidPositionIdError,
    Move,
    Play,
    Player,
    Position,
)


def layout(points: dict[int, int], bar: int = 0, off: int | None = None) -> list[int]:
    """26 counts from {point: count}; borne off is the rest of 15 unless given."""
    row = [0] * 26
    for point, count in points.items():
        row[point] = count
    row[25] = bar
    row[0] = 15 - sum(row) if off is None else off
    return row


START = {6: 5, 8: 3, 13: 5, 24: 2}


def test_initial_position_has_the_standard_setup_for_both_players() -> None:
    start = Position.initial()
    for player in Player:
        assert [start.checkers(player, p) for p in (6, 8, 13, 24)] == [5, 3, 5, 2]
        assert start.bar(player) == 0
        assert start.off(player) == 0
        assert start.pip_count(player) == 167
    assert start.turn == Player.ZERO


def test_initial_position_id_is_gnubgs() -> None:
    # gnubg's documentation and every gnubg session start from this ID.
    assert Position.initial().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()


def test_points_are_mirrored_between_players() -> None:
    position = Position(layout({6: 15}), layout({1: 15}))
    # Player 1's 1-point is player 0's 24-point: no overlap with player 0's 6-point.
    assert position.checkers(Player.ONE, 1) == 15
    with pytest.raises(InvalidPositionError, match="both players"):
        Position(layout({6: 15}), layout({19: 15}))


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ([0] * 25, "26 counts"),
        ([16] + [0] * 25, "at most 15"),
        ([-1] + [0] * 24 + [16], "count -1"),
    ],
)
def test_invalid_layouts_are_rejected_with_a_reason(row: list[int], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position(row, layout(START))


def test_fewer_than_fifteen_checkers_are_in_hand() -> None:
    position = Position(layout({}, off=0), layout(START))
    assert position.in_hand(Player.ZERO) == 15
    assert position.in_hand(Player.ONE) == 0


def test_positions_are_values() -> None:
    a = Position.initial(Player.ONE)
    b = Position.from_position_id("4HPwATDgc/ABMA", Player.ONE)
    assert a == b and hash(a) == hash(b)
    assert a != Position.initial(Player.ZERO)
    assert {a, b} == {a}
    with pytest.raises(AttributeError):
        a.foo = 1  # type: ignore[attr-defined]


def test_contact_is_broken_only_when_every_checker_has_passed() -> None:
    assert Position.initial().is_contact()
    race = Position(layout({1: 5, 2: 5, 3: 5}), layout({1: 5, 2: 5, 3: 5}))
    assert not race.is_contact()
    # Player 0 on their 20-point is behind player 1's checker on their 6-point
    # (player 0's 19-point).
    touching = Position(layout({20: 1, 1: 14}), layout({6: 1, 1: 14}))
    assert touching.is_contact()
    # A checker on the bar is always in contact while the opponent is on the board.
    bar = Position(layout({1: 14}, bar=1), layout({1: 15}))
    assert bar.is_contact()


def test_winner_is_the_player_with_everything_off() -> None:
    position = Position(layout({}, off=15), layout({1: 2}))
    assert position.winner() == Player.ZERO
    assert Position.initial().winner() is None


def test_dice_outside_one_to_six_are_rejected() -> None:
    with pytest.raises(InvalidDiceError):
        Position.initial().legal_plays(0, 3)
    with pytest.raises(InvalidDiceError):
        Position.initial().legal_positions(7, 3)


def test_play_applies_a_legal_play_and_passes_the_turn() -> None:
    start = Position.initial(Player.ZERO)
    after = start.play(Play((Move(8, 5), Move(6, 5)), (3, 1)))
    assert after.turn == Player.ONE
    assert after.checkers(Player.ZERO, 5) == 2
    assert after.checkers(Player.ZERO, 8) == 2
    assert after.checkers(Player.ZERO, 6) == 4


def test_play_rejects_an_illegal_play() -> None:
    start = Position.initial()
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        start.play(Play((Move(8, 5),), (3, 1)))  # the 1 was not played
    with pytest.raises(IllegalPlayError, match="no checker"):
        start.play(Play((Move(7, 4), Move(6, 5)), (3, 1)))
    with pytest.raises(IllegalPlayError, match="blocked"):
        start.play(Play((Move(24, 19), Move(6, 5)), (5, 1)))  # opponent's 6-point


def test_hits_send_the_blot_to_the_bar() -> None:
    # Player 1 has a blot on their 20-point = player 0's 5-point.
    before = Position(layout(START), layout({20: 1, 6: 5, 8: 3, 13: 5, 24: 1}), Player.ZERO)
    after = before.play(Play((Move(8, 5, hit=True), Move(6, 5)), (3, 1)))
    assert after.bar(Player.ONE) == 1
    assert after.checkers(Player.ONE, 20) == 0


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/AB", "4HPwATDgc/ABM!", "//////////////"])
def test_malformed_position_ids_are_rejected(bad: str) -> None:
    with pytest.raises(InvalidPositionIdError):
        Position.from_position_id(bad)
