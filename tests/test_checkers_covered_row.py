"""A checker off its slot by a layer's shift whose rim lies under the row checkers beside
it is a row checker, not a layer (``StackConfig.covered_row``)."""

from dataclasses import replace

import numpy as np

from vision.checkers.count import CountConfig
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.stacks import StackConfig, StackFrame, read_stack
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import random_scene, render

WIDTH = 640
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
    scene = random_scene(np.random.default_rng(41_000_941))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field = FieldMap.from_corners(corners).rectify(frame, scene.profile, WIDTH)
    assert truth.observation.points[6] == Counts(5, 0)
    assert read_checkers(field, scene.profile).points[6] == Counts(5, 0)
    assert read_checkers(field, scene.profile, config=OFF).points[6] == Counts(6, 0)


def test_only_a_covered_checker_between_uncovered_ones_is_taken_back_into_the_row() -> None:
    """The drawn row of five with its fourth checker 0.17 out: covered 0.16 beside
    uncovered neighbours it is the row's (five); uncovered it is a layer of one (six);
    covered while its neighbours are covered too it lies on them, a layer (six, as tune
    seed 31 scene 282's layer at 0.40 covered 0.11 over row checkers covered 0.28-0.36)."""
    slots = [0.0, 1.0, 2.0, 3.17, 4.0]
    assert _stack(slots, [0.0, 0.0, 0.0, 0.16, 0.0]) == 5
    assert _stack(slots, [0.0, 0.0, 0.0, 0.16, 0.0], replace(StackConfig(),
                                                             covered_row=0.0)) == 6
    assert _stack(slots, [0.0, 0.0, 0.0, 0.0, 0.0]) > 5
    assert _stack(slots, [0.0, 0.0, 0.3, 0.16, 0.3]) > 5
