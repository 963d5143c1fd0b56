"""A checker off its slot by a layer's shift whose rim lies under the row checkers beside
it is a row checker, not a layer (``StackConfig.covered_row``)."""

from dataclasses import replace

from tests.checker_scenes import read_point
from vision.checkers.count import CountConfig
from vision.checkers.reader import CheckerConfig
from vision.checkers.stacks import StackConfig, StackFrame, read_stack
from vision.observation import Counts

OFF = CheckerConfig(count=CountConfig(stacks=StackConfig(covered_row=0.0)))
"""The rule switched off."""
FRAME = StackFrame(49.0, 24.0, (0.0, 0.0))


def _stack(slots: list[float], covered: list[float],
           config: StackConfig | None = None) -> int:
    """The count of a drawn stack along the bottom rail with these slots and covers."""
    distances = [FRAME.distance(s, False) for s in slots]
    return read_stack(distances, False, FRAME, config or StackConfig(), covered).count


def test_a_row_checker_under_its_neighbour_is_no_layer_on_the_render() -> None:
    """Fresh tune seed 41, scene 941 of bench/vision_accuracy.py: five white on p6, the
    fourth 0.17 slots out from its slot with 0.16 of its rim under the fifth's, read six
    without the rule (a layer of one over a row of five)."""
    want, (read, off) = read_point(41_000_941, 6, [CheckerConfig(), OFF])
    assert want == Counts(5, 0)
    assert read == want
    assert off == Counts(6, 0)


def test_only_a_covered_checker_between_uncovered_ones_is_taken_back_into_the_row() -> None:
    """The drawn row of five with its fourth checker 0.17 out: covered 0.16 beside
    uncovered neighbours it is the row's (five); uncovered it stays higher (more than
    five); covered while its neighbours are covered too it lies on them and stays higher
    (as tune seed 31 scene 282's layer at 0.40, covered 0.11 over row checkers covered
    0.28-0.36)."""
    slots = [0.0, 1.0, 2.0, 3.17, 4.0]
    assert _stack(slots, [0.0, 0.0, 0.0, 0.16, 0.0]) == 5
    assert _stack(slots, [0.0, 0.0, 0.0, 0.16, 0.0], replace(StackConfig(),
                                                             covered_row=0.0)) == 6
    assert _stack(slots, [0.0, 0.0, 0.0, 0.0, 0.0]) > 5
    assert _stack(slots, [0.0, 0.0, 0.3, 0.16, 0.3]) > 5
