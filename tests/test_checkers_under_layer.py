"""A checker taken for a higher one by its phase that lies under a layer checker is a row
checker (``StackConfig.under_layer``)."""

from dataclasses import replace

import numpy as np

from vision.checkers.count import CountConfig
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.stacks import StackConfig, StackFrame, read_stack
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import random_scene, render

WIDTH = 640
"""The rectified field's width the pipeline reads checkers at."""
OFF = CheckerConfig(count=replace(CountConfig(), stacks=replace(StackConfig(), under_layer=0.0)))
"""The rule switched off."""
FRAME = StackFrame(spacing=40.0, radius=19.0, offset=(0.0, 0.0))


def _read(scene_seed: int, point: int) -> tuple[Counts, Counts, Counts]:
    """The truth on ``point`` of a scene of bench/vision_accuracy.py (no tray in view), its
    reading with the rule and without it."""
    scene = random_scene(np.random.default_rng(scene_seed))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field = FieldMap.from_corners(corners).rectify(frame, scene.profile, WIDTH)
    on, without = (read_checkers(field, scene.profile, config=c).points[point]
                   for c in (CheckerConfig(), OFF))
    return truth.observation.points[point], on, without


def test_the_row_checker_found_under_a_layer_checker_stays_in_the_row() -> None:
    """Fresh tune seed 62, scene 457: six black on p5 (a row of five, one on it at 0.24
    slots); the row checker under that one was found too, at 0.20, its rim covered 0.47:
    read as a second layer checker on the same place, seven."""
    want, on, without = _read(62_000_457, 5)
    assert want == Counts(0, 6)
    assert on == want
    assert without == Counts(0, 7)


def test_a_covered_checker_before_its_slot_is_no_layer_checker() -> None:
    """Fresh tune seed 62, scene 684: eight black on p11 (a row of five, a layer of three);
    the row checker on slot 3, covered 0.27 by the layer's last checker (2.22), found at
    2.87: 0.13 before its slot, taken for higher by its phase, nine."""
    want, on, without = _read(62_000_684, 11)
    assert want == Counts(0, 8)
    assert on == want
    assert without == Counts(0, 9)


def _distances(slots: list[float]) -> list[float]:
    return [FRAME.distance(s, True) for s in slots]


def test_a_third_layer_over_the_second_keeps_both() -> None:
    """A row of five, a second layer shifted 0.25 (its checkers covered by the third's) and
    a third at 0.5, a quarter slot from the second's: not the same place, and beyond its
    slot, so both layers stand (five, four, three: twelve), with the rule as without."""
    slots = [0.5, 1.5, 2.5, 0.25, 1.25, 2.25, 3.25, 3.0, 4.0]
    covered = [0.0, 0.0, 0.0, 0.3, 0.3, 0.3, 0.0, 0.3, 0.0]
    on = read_stack(_distances(slots), True, FRAME, StackConfig(), covered)
    off = read_stack(_distances(slots), True, FRAME, replace(StackConfig(), under_layer=0.0),
                     covered)
    assert on.count == off.count == 12


def test_a_covered_checker_beside_no_layer_checker_is_left_alone() -> None:
    """A row of six with a layer of two at 0.3 and a covered checker at 4.8 (0.2 before
    slot 5) that no uncovered higher checker overlaps: the rule does not apply (the count
    as without it)."""
    slots = [0.3, 1.3, 1.0, 2.0, 3.0, 4.8, 5.0]
    covered = [0.0, 0.0, 0.3, 0.3, 0.0, 0.3, 0.0]
    on = read_stack(_distances(slots), True, FRAME, StackConfig(), covered)
    off = read_stack(_distances(slots), True, FRAME, replace(StackConfig(), under_layer=0.0),
                     covered)
    assert on.count == off.count
