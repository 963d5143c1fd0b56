"""Parallax at the field's side edges, where the camera sees stacks from the side: a
second layer shifted too little along its point to show stands further out sideways than
the row (``StackConfig.lateral_gap``), and a checker in a corner lies further out than
its slot (``SlotConfig.outer_shift``)."""

import numpy as np

from vision.checkers.count import CountConfig
from vision.checkers.detect import expected_radius
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.slots import SlotConfig
from vision.checkers.stacks import StackConfig, read_stack, stack_frame
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap
from vision.synth import random_scene, render

WIDTH = 640
RADIUS = expected_radius(TOURNAMENT, WIDTH)
SPACING = 2.06 * RADIUS


def _distances(phases: list[float]) -> list[float]:
    """Distances from the rail of checkers on slots 0, 1, ... off by ``phases``."""
    return [RADIUS + (k + p) * SPACING for k, p in enumerate(phases)]


def test_a_run_from_the_rail_standing_out_sideways_is_a_layer() -> None:
    frame = stack_frame([(False, _distances([0.0] * 5))] * 3, RADIUS, StackConfig())
    distances = _distances([0.05, 0.06, 0.04, 0.0, 0.0])
    outward = [6.5, 7.0, 5.5, -1.0, 0.5]
    on = StackConfig(lateral_gap=0.06)
    assert read_stack(distances, False, frame, on).count == 5
    assert read_stack(distances, False, frame, on, None, outward).count == 8
    off = StackConfig(lateral_gap=0.0)
    assert read_stack(distances, False, frame, off, None, outward).count == 5


def test_a_row_jittered_sideways_or_a_run_not_from_the_rail_is_no_layer() -> None:
    frame = stack_frame([(False, _distances([0.0] * 5))] * 3, RADIUS, StackConfig())
    distances = _distances([0.05, 0.06, 0.04, 0.0, 0.0])
    on = StackConfig(lateral_gap=0.06)
    jittered = [3.0, 2.5, 2.0, 1.0, 0.5]  # parts from the rest by less than 3 pixels
    assert read_stack(distances, False, frame, on, None, jittered).count == 5
    inward = [-6.5, -7.0, -5.5, 1.0, 0.5]  # towards the middle: no parallax does that
    assert read_stack(distances, False, frame, on, None, inward).count == 5
    behind = _distances([-0.05, -0.06, -0.04, 0.0, 0.0])  # nearer the rail than the row
    outward = [6.5, 7.0, 5.5, -1.0, 0.5]
    assert read_stack(behind, False, frame, on, None, outward).count == 5
    later = [0.0, 7.0, 5.5, -1.0, 0.5]  # the rail's checker is in line with the row
    assert read_stack(distances, False, frame, on, None, later).count == 5


def test_a_rendered_layer_at_the_right_edge_seen_by_parallax_is_counted() -> None:
    """Tune seed 22, scene 160 of bench/vision_accuracy.py (the pipeline's renders): on
    point 23, at the field's right edge, a row of five with three on top shifted too
    little along the point to show; the layer's faces stand 3-7 pixels further out than
    the row's last two checkers.  Read as five without ``lateral_gap`` (on by default
    since round eleven, on the outermost points: ``CountConfig.lateral_points``)."""
    scene = random_scene(np.random.default_rng(22_000_160))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field = FieldMap.from_corners(corners).rectify(frame, scene.profile, WIDTH)
    want = truth.observation.points[23]
    assert (want.light, want.dark) == (0, 8)
    on = CheckerConfig(count=CountConfig(stacks=StackConfig(lateral_gap=0.06)))
    assert read_checkers(field, scene.profile, config=on).points[23] == want
    assert read_checkers(field, scene.profile).points[23] == want  # the default
    off = CheckerConfig(count=CountConfig(stacks=StackConfig(lateral_gap=0.0)))
    assert read_checkers(field, scene.profile, config=off).points[23].dark == 5


def test_a_dark_checker_pushed_out_in_a_dark_corner_is_found_beside_its_slot() -> None:
    """Tune seed 22, scene 354 of bench/vision_accuracy.py: a black checker on the black
    point 23 in the top right corner, its face 10 pixels further out than its slot
    (parallax and the player's hand); its rim scores 0.38 at the slot and 0.91 where it
    lies, so the slot search looks at the outermost points' slots further out too
    (``SlotConfig.outer_shift``)."""
    scene = random_scene(np.random.default_rng(22_000_354))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field = FieldMap.from_corners(corners).rectify(frame, scene.profile, WIDTH)
    want = truth.observation.points[23]
    assert (want.light, want.dark) == (0, 1)
    assert read_checkers(field, scene.profile).points[23] == want
    plain = CheckerConfig(slots=SlotConfig(outer_shift=0.0))
    assert read_checkers(field, scene.profile, config=plain).points[23].dark == 0
