"""A tray whose floor is the colour of a side's checkers says nothing of that side's
borne-off checkers (``CountConfig.tray_blind``)."""

from dataclasses import replace

import numpy as np

from vision.checkers.count import CountConfig
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.tray import read_off_reading
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import random_scene, render

WIDTH = 640
"""The rectified field's width the pipeline reads checkers at."""
OFF = CheckerConfig(count=replace(CountConfig(), tray_blind=0.0))
"""The rule switched off."""


def test_a_black_checker_unseen_in_a_black_tray_asks_no_stack_for_it() -> None:
    """Fresh tune seed 62, scene 566 of bench/vision_accuracy.py: a tournament board's
    black tray holding one black checker, read empty; black (14 on the board, p12 and
    p13 only) was then taken as fifteen less none, and the row of five on p13 given its
    tiny-shift alternative: six.  The black faces lie about 4 from the floor: the tray
    cannot show them, the total is not known, five as read."""
    scene = random_scene(np.random.default_rng(62_000_566))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field_map = FieldMap.from_corners(corners)
    tray = read_off_reading(frame, field_map, scene.profile)
    assert tray is not None and tray.floor is not None
    assert truth.observation.off == Counts(0, 1)
    assert tray.counts == Counts(0, 0)
    field = field_map.rectify(frame, scene.profile, WIDTH)
    on, without = (read_checkers(field, scene.profile, config=c, off=tray).points[13]
                   for c in (CheckerConfig(), OFF))
    assert truth.observation.points[13] == Counts(0, 5)
    assert on == Counts(0, 5)
    assert without == Counts(0, 6)
