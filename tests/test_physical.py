"""The physical board mapping: camera indices to the rules' point numbers.

The expected index lists here are read off the board picture, not computed
with the module's formulas:

    top row     12 13 14 15 16 17 | 18 19 20 21 22 23
    bottom row  11 10  9  8  7  6 |  5  4  3  2  1  0

A player's home board is the quarter in their own row on the home side,
with their point 1 in the corner; points rise away from that corner along
their own row (1-12) and come back along the far row (13-24), so the 24-point
is the far corner on the home side.
"""

import json
import random

import pytest

from controller.rules import InvalidPositionError, Player, Position
from controller.rules.physical import (
    Colour,
    Counts,
    PhysicalBoard,
    Seating,
    SetUpError,
    Side,
    physical_index,
    point_number,
    recognise_start,
    start_differences,
    to_physical,
    to_position,
)
from tests.shared_data import shared_file

BOTTOM_RIGHT = Seating(Player.ZERO, Side.RIGHT)
BOTTOM_LEFT = Seating(Player.ZERO, Side.LEFT)
TOP_RIGHT = Seating(Player.ONE, Side.RIGHT)
TOP_LEFT = Seating(Player.ONE, Side.LEFT)

NONE = Counts()


def board_of(light: dict[int, int], dark: dict[int, int], *,
             bar: Counts = NONE, off: Counts = NONE) -> PhysicalBoard:
    """A physical board from ``{physical index: count}`` per colour."""
    return PhysicalBoard(
        tuple(Counts(light.get(i, 0), dark.get(i, 0)) for i in range(24)), bar, off
    )


# -- the four anchors and the layout of each seating ------------------------

# (seating, player, point) -> physical index, read off the picture.
ANCHORS = [
    # Home right: the bottom player's home is the bottom-right quarter, point 1
    # in the bottom-right corner (index 0); their 12 is bottom-left (11), 13
    # top-left (12), 24 top-right (23).
    (BOTTOM_RIGHT, Player.ZERO, 1, 0),
    (BOTTOM_RIGHT, Player.ZERO, 6, 5),
    (BOTTOM_RIGHT, Player.ZERO, 7, 6),
    (BOTTOM_RIGHT, Player.ZERO, 12, 11),
    (BOTTOM_RIGHT, Player.ZERO, 13, 12),
    (BOTTOM_RIGHT, Player.ZERO, 24, 23),
    # ... and the top player's home is top-right, point 1 in that corner (23),
    # their 24 in the bottom-right corner (0).
    (BOTTOM_RIGHT, Player.ONE, 1, 23),
    (BOTTOM_RIGHT, Player.ONE, 6, 18),
    (BOTTOM_RIGHT, Player.ONE, 12, 12),
    (BOTTOM_RIGHT, Player.ONE, 13, 11),
    (BOTTOM_RIGHT, Player.ONE, 24, 0),
    # Home left: bottom player's point 1 is the bottom-left corner (11), 6 is
    # next to the bar (6), 12 the bottom-right corner (0), 13 top-right (23),
    # 24 top-left (12).
    (BOTTOM_LEFT, Player.ZERO, 1, 11),
    (BOTTOM_LEFT, Player.ZERO, 6, 6),
    (BOTTOM_LEFT, Player.ZERO, 7, 5),
    (BOTTOM_LEFT, Player.ZERO, 12, 0),
    (BOTTOM_LEFT, Player.ZERO, 13, 23),
    (BOTTOM_LEFT, Player.ZERO, 24, 12),
    # ... top player's point 1 top-left (12), 24 bottom-left (11).
    (BOTTOM_LEFT, Player.ONE, 1, 12),
    (BOTTOM_LEFT, Player.ONE, 6, 17),
    (BOTTOM_LEFT, Player.ONE, 12, 23),
    (BOTTOM_LEFT, Player.ONE, 13, 0),
    (BOTTOM_LEFT, Player.ONE, 24, 11),
    # Same seatings with player ONE at the bottom: the roles swap.
    (TOP_RIGHT, Player.ONE, 1, 0),
    (TOP_RIGHT, Player.ZERO, 1, 23),
    (TOP_LEFT, Player.ONE, 1, 11),
    (TOP_LEFT, Player.ZERO, 1, 12),
]


@pytest.mark.parametrize(("seating", "player", "point", "index"), ANCHORS)
def test_anchor_points(seating: Seating, player: Player, point: int, index: int) -> None:
    assert physical_index(seating, player, point) == index
    assert point_number(seating, player, index) == point


@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("player", list(Player))
def test_mapping_is_a_bijection_and_inverse(seating: Seating, player: Player) -> None:
    indices = [physical_index(seating, player, p) for p in range(1, 25)]
    assert sorted(indices) == list(range(24))
    for index in range(24):
        assert physical_index(seating, player, point_number(seating, player, index)) == index


@pytest.mark.parametrize("seating", Seating.every())
def test_one_point_two_names(seating: Seating) -> None:
    """Player A's point p is player B's point 25 - p, on the real board too."""
    for point in range(1, 25):
        assert physical_index(seating, Player.ZERO, point) == physical_index(
            seating, Player.ONE, 25 - point
        )


@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("player", list(Player))
def test_home_board_is_in_own_row_on_home_side(seating: Seating, player: Player) -> None:
    """Points 1-6 of a player are the quarter in front of them on the home side."""
    bottom_row = range(0, 12)
    right_half = {0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23}
    for point in range(1, 7):
        index = physical_index(seating, player, point)
        assert (index in bottom_row) == (player == seating.bottom)
        assert (index in right_half) == (seating.home is Side.RIGHT)


@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("player", list(Player))
def test_consecutive_points_are_neighbours(seating: Seating, player: Player) -> None:
    """Moving one pip is moving to the next triangle (or round the far end, 12 -> 13)."""
    def place(index: int) -> tuple[int, int]:
        """(row, column from the left) of a physical index."""
        return (0, 11 - index) if index < 12 else (1, index - 12)

    for point in range(2, 25):
        (row1, col1) = place(physical_index(seating, player, point))
        (row0, col0) = place(physical_index(seating, player, point - 1))
        if point == 13:
            assert row1 != row0 and col1 == col0  # straight across the far end
            far_end = 0 if seating.home is Side.RIGHT else 11
            assert col0 == far_end
        else:
            assert row1 == row0 and abs(col1 - col0) == 1


def test_invalid_indices_and_points() -> None:
    with pytest.raises(ValueError, match="0-23"):
        point_number(BOTTOM_RIGHT, Player.ZERO, 24)
    with pytest.raises(ValueError, match="1-24"):
        physical_index(BOTTOM_RIGHT, Player.ZERO, 0)


# -- the starting position, rendered for each seating ---------------------

# Each colour's start, as {physical index: count}, derived from the picture:
#   home right, bottom player: 24 = 23 (top-right corner), 13 = 12 (top-left
#   corner), 8 = 7 (second from the bar, bottom-left), 6 = 5 (next to the bar,
#   bottom-right); top player: 24 = 0, 13 = 11, 8 = 16, 6 = 18.
#   home left is the same picture mirrored: bottom player 24 = 12, 13 = 23,
#   8 = 4, 6 = 6; top player 24 = 11, 13 = 0, 8 = 19, 6 = 17.
START_BOTTOM = {
    Side.RIGHT: {23: 2, 12: 5, 7: 3, 5: 5},
    Side.LEFT: {12: 2, 23: 5, 4: 3, 6: 5},
}
START_TOP = {
    Side.RIGHT: {0: 2, 11: 5, 16: 3, 18: 5},
    Side.LEFT: {11: 2, 0: 5, 19: 3, 17: 5},
}


@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("light", list(Player))
def test_start_rendered_physically(seating: Seating, light: Player) -> None:
    board = to_physical(Position.initial(), seating, light)
    bottom_colour = Colour.LIGHT if seating.bottom == light else Colour.DARK
    bottom = START_BOTTOM[seating.home]
    top = START_TOP[seating.home]
    for index in range(24):
        assert board.points[index].of(bottom_colour) == bottom.get(index, 0), index
        assert board.points[index].of(bottom_colour.other) == top.get(index, 0), index
    assert board.bar == Counts() and board.off == Counts()


@pytest.mark.parametrize("seating", Seating.every())
def test_norwegian_start_description(seating: Seating) -> None:
    """no: "På Svart side, plasser 2 hvite stykker på punkt 1, 5 svarte stykker
    på firkant 6, 3 svarte stykker på firkant 8 og fem hvite stykker på firkant
    12. Hvit side bør speile dette arrangementet nøyaktig."

    The Norwegian text numbers each row 1-12 from its inner-board corner:
    on each side's own row, 2 opposing checkers on 1, 5 own on 6, 3 own on 8,
    5 opposing on 12.
    """
    board = to_physical(Position.initial(), seating, Player.ZERO)
    bottom_colour = Colour.LIGHT if seating.bottom == Player.ZERO else Colour.DARK
    right = seating.home is Side.RIGHT

    def bottom_row(k: int) -> int:
        return k - 1 if right else 12 - k

    def top_row(k: int) -> int:
        return 24 - k if right else 11 + k

    for row, own in ((bottom_row, bottom_colour), (top_row, bottom_colour.other)):
        expected = {row(1): Counts.of_colour(own.other, 2), row(6): Counts.of_colour(own, 5),
                    row(8): Counts.of_colour(own, 3), row(12): Counts.of_colour(own.other, 5)}
        for k in range(1, 13):
            assert board.points[row(k)] == expected.get(row(k), Counts()), (row.__name__, k)


# -- round trips -------------------------------------------------------------

def random_position(rng: random.Random) -> Position:
    """A valid position with checkers anywhere, including bar and off."""
    rows = [[0] * 26, [0] * 26]
    owner: dict[int, int] = {}  # player 0's point -> owning player
    for player in (0, 1):
        for _ in range(rng.randint(0, 15)):
            place = rng.choice([0, 25, *range(1, 25)])
            if 1 <= place <= 24:
                mine = place if player == 0 else 25 - place
                if owner.setdefault(mine, player) != player:
                    continue
            rows[player][place] += 1
    return Position(rows[0], rows[1], Player(rng.randint(0, 1)))


@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("light", list(Player))
def test_round_trip_position_physical_position(seating: Seating, light: Player) -> None:
    rng = random.Random(f"{seating}/{light}")
    for _ in range(500):
        position = random_position(rng)
        board = to_physical(position, seating, light)
        assert to_position(board, seating, light, position.turn) == position


@pytest.mark.parametrize("seating", Seating.every())
def test_round_trip_physical_position_physical(seating: Seating) -> None:
    rng = random.Random(str(seating))
    for _ in range(300):
        counts = []
        for _ in range(24):
            colour = rng.choice(["light", "dark", None, None])
            n = rng.randint(1, 3) if colour else 0
            counts.append(Counts(n, 0) if colour == "light" else Counts(0, n))
        board = PhysicalBoard(tuple(counts), Counts(rng.randint(0, 1), rng.randint(0, 1)),
                              Counts(rng.randint(0, 2), rng.randint(0, 2)))
        if board.total(Colour.LIGHT) > 15 or board.total(Colour.DARK) > 15:
            continue
        assert to_physical(to_position(board, seating), seating) == board


def test_bar_and_off_follow_colour_not_seat() -> None:
    position = Position.from_relative(
        [3] + [0] * 5 + [11] + [0] * 18 + [1],  # player 0: 3 off, 11 on 6, 1 on bar
        [0] + [0] * 5 + [15] + [0] * 19,  # player 1: 15 on 6
    )
    board = to_physical(position, TOP_LEFT, light=Player.ONE)
    assert board.bar == Counts(light=0, dark=1)
    assert board.off == Counts(light=0, dark=3)
    # player 0 (dark) is on top with home left: their 6-point is index 17.
    assert board.points[17] == Counts(dark=11)
    # player 1 (light) at the bottom, home left: their 6-point is index 6.
    assert board.points[6] == Counts(light=15)


def test_both_colours_on_one_point_is_refused() -> None:
    board = board_of({4: 2}, {4: 1})
    with pytest.raises(InvalidPositionError, match="physical point 4 holds 2 light and 1 dark"):
        to_position(board, BOTTOM_RIGHT)


def test_too_many_checkers_is_refused() -> None:
    board = board_of({0: 15}, {}, bar=Counts(light=1))
    with pytest.raises(InvalidPositionError, match="16 light checkers"):
        to_position(board, BOTTOM_RIGHT)


def test_counts_refuse_negative_and_board_needs_24_points() -> None:
    with pytest.raises(InvalidPositionError):
        Counts(light=-1)
    with pytest.raises(InvalidPositionError, match="24 physical points"):
        PhysicalBoard((Counts(),) * 23)


# -- recognising the set-up ----------------------------------------------------

@pytest.mark.parametrize("seating", Seating.every())
@pytest.mark.parametrize("light", list(Player))
def test_recognise_each_seating(seating: Seating, light: Player) -> None:
    bottom = START_BOTTOM[seating.home]
    top = START_TOP[seating.home]
    light_at_bottom = seating.bottom == light
    board = board_of(bottom if light_at_bottom else top, top if light_at_bottom else bottom)
    assert recognise_start(board, light) == (seating,)


def test_recognise_light_bottom_home_right_by_hand() -> None:
    """Light at the bottom with its home bottom-right; dark's home top-right."""
    board = board_of({23: 2, 12: 5, 7: 3, 5: 5}, {0: 2, 11: 5, 16: 3, 18: 5})
    (found,) = recognise_start(board, light=Player.ZERO)
    assert found.bottom == Player.ZERO and found.home is Side.RIGHT
    assert found.describe(Player.ZERO) == "light at the bottom, home boards on the right"
    (found,) = recognise_start(board, light=Player.ONE)
    assert found.bottom == Player.ONE and found.home is Side.RIGHT


def test_one_checker_short_names_the_point() -> None:
    # Light at the bottom, home right, but only 4 on light's 13-point (index 12).
    board = board_of({23: 2, 12: 4, 7: 3, 5: 5}, {0: 2, 11: 5, 16: 3, 18: 5})
    with pytest.raises(SetUpError) as info:
        recognise_start(board)
    error = info.value
    assert error.closest == BOTTOM_RIGHT
    assert error.differences == ("light point 13 (physical 12): 4 checkers, expected 5",)
    assert "light at the bottom, home boards on the right" in str(error)
    assert "point 13 (physical 12): 4 checkers, expected 5" in str(error)


def test_misplaced_and_stray_checkers_are_all_listed() -> None:
    # Home left, dark at the bottom: dark {12: 2, 23: 5, 4: 3, 6: 5},
    # light {11: 2, 0: 5, 19: 3, 17: 5}.  One light checker moved from its
    # 8-point (index 19) to the bar, and a dark one from its 6 (index 6) to 7 (5).
    board = board_of({11: 2, 0: 5, 19: 2, 17: 5}, {12: 2, 23: 5, 4: 3, 6: 4, 5: 1},
                     bar=Counts(light=1))
    with pytest.raises(SetUpError) as info:
        recognise_start(board)
    assert info.value.closest == TOP_LEFT
    assert set(info.value.differences) == {
        "dark point 7 (physical 5): 1 checker, expected 0",
        "dark point 6 (physical 6): 4 checkers, expected 5",
        "light point 8 (physical 19): 2 checkers, expected 3",
        "light bar: 1 checker, expected 0",
    }


def test_start_differences_of_a_correct_board_are_empty() -> None:
    board = to_physical(Position.initial(), BOTTOM_LEFT)
    assert start_differences(board, BOTTOM_LEFT) == ()
    assert start_differences(board, BOTTOM_RIGHT) != ()


def test_empty_board_is_no_start() -> None:
    with pytest.raises(SetUpError, match="expected 2"):
        recognise_start(board_of({}, {}))


# -- real frames ---------------------------------------------------------------

def real_board(name: str) -> PhysicalBoard:
    path = shared_file("data", "real-boards", f"{name}.json")
    return PhysicalBoard.from_record(json.loads(path.read_text()))


LIGHT_BOTTOM_HOME_LEFT = BOTTOM_LEFT  # with light = player 0


def test_real_frame_bearing_off_shows_the_home_side() -> None:
    """frame3: about 6 light checkers are borne off, so all light ones left
    must be in light's home board; that holds only with light at the bottom
    and the home boards on the left (the broadcast board's seating)."""
    board = real_board("frame3")
    fits = []
    for seating in Seating.every():
        position = to_position(board, seating)
        row = position.layout(Player.ZERO)
        if sum(row[1:7]) == board.total(Colour.LIGHT) - board.off.light:
            fits.append(seating)
    assert fits == [LIGHT_BOTTOM_HOME_LEFT]


def test_real_frames_are_three_legal_plays_apart() -> None:
    """frame0 shows light's 5-3 in the thrower's right half (the image's right,
    so light sits at the bottom); light 10/7 10/5, dark 2-2 5/1(2), light 3-1
    7/3 leads to exactly what frame2 shows."""
    from controller.rules import parse_play

    before, after = real_board("frame0"), real_board("frame2")
    seating = LIGHT_BOTTOM_HOME_LEFT
    position = to_position(before, seating, turn=Player.ZERO)
    for text, d1, d2 in (("10/7 10/5", 5, 3), ("5/1(2)", 2, 2), ("7/3", 3, 1)):
        position = position.play(parse_play(position, text, d1, d2))
    assert to_physical(position, seating) == after
