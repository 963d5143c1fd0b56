"""A bear-off's tall stack read short or long, set right by the totals the caller knows
(``CountConfig.tall_gap``)."""

from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import Circle, expected_radius
from vision.observation import Counts
from vision.profile import TOURNAMENT

WIDTH = 640
ROW = [0.0, 1.0, 2.0, 3.0, 4.0]


def _dark(stacks: dict[int, list[float]], on_board: Counts | None,
          config: CountConfig | None = None) -> list[int]:
    """The dark counts of points 0-11 read from dark circles at the given slots (checker
    spacings from the bottom rail) of each point, with ``on_board`` the caller's totals."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    spacing = 2.06 * radius
    circles = [Circle(TOURNAMENT.point_u(point) * w, h - (slot * spacing + radius), radius)
               for point, slots in stacks.items() for slot in slots]
    result = count_checkers(circles, [False] * len(circles), TOURNAMENT, (w, h), config,
                            radius, on_board=on_board)
    return [result.points[p].dark for p in range(12)]


def test_a_tall_stack_read_short_takes_what_the_known_total_leaves() -> None:
    """Ten dark checkers, all on point 2 (a row of five, a second layer shifted too little
    to show and one more checker seen half a slot out), one on point 5: the stack reads
    six, and the caller knows eleven are on the board.  No alternative of the stack makes
    eleven; it is the side's one tall stack, so it holds the four missing."""
    stacks = {2: [*ROW, 0.5], 5: [0.0]}
    assert _dark(stacks, None)[2] == 6
    assert _dark(stacks, Counts(0, 11))[2] == 10
    assert _dark(stacks, Counts(0, 11), CountConfig(tall_gap=0))[2] == 6
    # More missing than the gap allows, or more than the row could carry: as read.
    assert _dark(stacks, Counts(0, 13), CountConfig(tall_gap=5))[2] == 6
    assert _dark({2: ROW}, Counts(0, 17), CountConfig(tall_gap=20))[2] == 5


def test_a_tall_stack_read_long_gives_back_down_to_its_row() -> None:
    """A stack of seven read as nine (a second layer's phases taken for two layers) with
    the caller's seven: the surplus comes off its one tall stack, never below its row."""
    stacks = {3: [*ROW, 0.5, 1.5, 2.5, 3.5]}
    assert _dark(stacks, None)[3] == 9
    assert _dark(stacks, Counts(0, 7))[3] == 7
    assert _dark(stacks, Counts(0, 4))[3] == 9


def test_two_tall_stacks_leave_the_gap_open() -> None:
    """Two full rows of the colour short of the known total: which holds the missing
    checkers is not known, so both stay as read (a wrong board either way, but no stack
    made up)."""
    stacks = {1: ROW, 4: [*ROW, 0.5]}
    assert _dark(stacks, Counts(0, 14))[1:5] == [5, 0, 0, 6]
