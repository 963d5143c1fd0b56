"""bench/vision_accuracy.py's per-frame score: how dice values are counted.

A cocked die reported with no value (tipped too far for its pips) counts against
"dice val" (every die found) but not against "flat val" (the dice whose values a
referee counts); "cocked null" counts it.  A flat die misread counts against both.
"""

from bench.vision_accuracy import Tally, score
from vision.observation import Die, Observation


def _frame(*dice: Die) -> Observation:
    return Observation(board_found=True, dice=dice)


def test_cocked_die_without_value_is_counted_apart() -> None:
    truth = _frame(Die(3, (100.0, 100.0), flat=True), Die(5, (200.0, 100.0), flat=False))
    seen = _frame(Die(3, (101.0, 100.0), flat=True), Die(None, (199.0, 101.0), flat=False))
    t = score(seen, truth)
    assert (t.dice, t.dice_found, t.dice_value_right) == (2, 2, 1)
    assert (t.flat_found, t.flat_value_right) == (1, 1)
    assert (t.cocked, t.cocked_found, t.cocked_unread) == (1, 1, 1)


def test_flat_die_misread_counts_against_both() -> None:
    truth = _frame(Die(6, (100.0, 100.0)), Die(2, (300.0, 100.0), flat=False))
    seen = _frame(Die(5, (100.0, 100.0)), Die(2, (300.0, 100.0), flat=True))
    t = score(seen, truth)
    assert (t.dice_value_right, t.flat_found, t.flat_value_right) == (1, 1, 0)
    assert (t.cocked_found, t.cocked_unread) == (0, 0)


def test_tallies_add_the_new_counts() -> None:
    a, b = Tally(flat_found=2, flat_value_right=1, cocked_unread=1), Tally(flat_found=3)
    a.add(b)
    assert (a.flat_found, a.flat_value_right, a.cocked_unread) == (5, 1, 1)
