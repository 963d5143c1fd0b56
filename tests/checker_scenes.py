"""One point of a ``bench/vision_accuracy.py`` scene, read by the checker stage.

Tests that pin a board the bench once read wrong take the scene by its number (the seed
times a million plus its index, as the bench draws them), rectify it with its true
corners at the checker stage's width, and read one point under several configs: the
config under test and the same with the rule switched off.
"""

import numpy as np

from vision.checkers.reader import CheckerConfig, read_checkers
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import random_scene, render

WIDTH = 640
"""The rectified field's width the pipeline reads checkers at."""


def read_point(scene_seed: int, point: int,
               configs: list[CheckerConfig]) -> tuple[Counts, list[Counts]]:
    """The truth on ``point`` and its reading under each of ``configs``."""
    scene = random_scene(np.random.default_rng(scene_seed))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field = FieldMap.from_corners(corners).rectify(frame, scene.profile, WIDTH)
    return (truth.observation.points[point],
            [read_checkers(field, scene.profile, config=c).points[point] for c in configs])
