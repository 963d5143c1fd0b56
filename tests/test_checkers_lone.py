"""A side read short of its sure total, with one full row where a layer could hide; a
point's lone circle between its slots."""

from tests.test_checkers_tray import WIDTH, _row_circles
from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import expected_radius
from vision.checkers.stacks import StackConfig
from vision.profile import TOURNAMENT

ROW6 = [-0.02, 1.0, 2.02, 3.0, 4.02, 5.01]
"""A row of six whose first slot holds a second checker on it, shifted too little to
show (perspective pulls it back onto the slot): seven checkers, six circles."""


def _counts(stacks: dict[int, list[float]], config: CountConfig | None = None) -> list[int]:
    circles, light = _row_circles(stacks)
    size = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    result = count_checkers(circles, light, TOURNAMENT, size, config or CountConfig(), radius)
    return [result.points[i].light + result.points[i].dark for i in range(24)]


def test_the_one_full_row_takes_what_a_sure_total_misses() -> None:
    """Light spread over three quarters (so fifteen on the board), read as fourteen: the
    only full row (six) holds the fifteenth, a layer nothing in the image shows.  Off,
    the row stays six."""
    stacks = {23: ROW6, 20: [0.0, 1.0, 2.0, 3.0], 14: [0.0, 1.0], 12: [0.0, 1.0],
              0: [0.0, 1.0]}
    read = _counts(stacks)
    assert read[23] == 7 and read[20] == 4 and read[14] == 2
    off = CountConfig(stacks=StackConfig(lone_room=0))
    assert _counts(stacks, off)[23] == 6


def test_two_full_rows_leave_the_short_total_as_read() -> None:
    """The same side short by one with two full rows (five and six) that could hold it:
    nothing says which, and both stay as read."""
    stacks = {23: ROW6, 20: [-0.01, 1.0, 2.0, 3.0, 4.01], 14: [0.0, 1.0, 2.0], 0: [0.0]}
    read = _counts(stacks)
    assert (read[23], read[20]) == (6, 5)


def test_a_side_in_one_quarter_has_no_sure_total() -> None:
    """Light all in its home quarter with no tray in view: its total is not known (it may
    be bearing off), and the full row stays six."""
    stacks = {23: ROW6, 20: [0.0, 1.0, 2.0, 3.0], 19: [0.0, 1.0], 0: [0.0, 1.0]}
    assert _counts(stacks)[23] == 6


def test_a_lone_circle_between_two_slots_is_no_checker() -> None:
    """A point's only circle 0.45 slots from its first slot (a rim in a white point's
    base under glare) is no checker at rest; one 0.15 slots off is (a checker set a
    little off the rail).  Off (``lone_phase`` 0) the first counts, as two by the row's
    extent."""
    stacks = {23: [0.0, 1.0, 2.0], 20: [0.0, 1.0], 14: [0.0], 0: [0.0, 1.0], 5: [0.0]}
    assert _counts({**stacks, 17: [0.45]})[17] == 0
    assert _counts({**stacks, 17: [0.15]})[17] == 1
    assert _counts({**stacks, 17: [0.55]}, CountConfig(lone_phase=0.0))[17] == 2


def test_a_short_side_with_no_full_row_stays_as_read() -> None:
    """Fourteen light spread over two quarters, as a side hit after it began bearing off
    is (the real frame test8: fourteen white, one on the bar, the fifteenth borne off out
    of view): the rules' fifteen asks for one more, but no stack is a full row with room
    for a layer nothing shows, so none is given one.  The same side with one of its rows
    full (five) would be: the limit of ``StackConfig.lone_room``, which only the caller's
    totals or a tray in view showing its colour lift."""
    stacks = {23: [0.0, 1.0, 2.0], 20: [0.0, 1.0, 2.0, 3.0], 14: [0.0, 1.0, 2.0, 3.0],
              12: [0.0, 1.0, 2.0], 0: [0.0, 1.0]}
    read = _counts(stacks)
    assert [read[p] for p in (23, 20, 14, 12)] == [3, 4, 4, 3]
    full = {**stacks, 20: [0.0, 1.0, 2.0, 3.0, 4.0], 14: [0.0, 1.0, 2.0]}
    assert _counts(full)[20] == 6
    assert _counts(full, CountConfig(stacks=StackConfig(lone_room=0)))[20] == 5
