"""More checkers of a colour than a side has: the discs that do not fit are not taken as
checkers by the occlusion stage (a sleeve or a palm read as checkers must not explain
away the hand)."""

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.checkers.detect import Circle
from vision.checkers.reader import read_checkers
from vision.errors import ConfigError
from vision.occlusion import OcclusionConfig, detect_occlusion
from vision.occlusion.single import accountable
from vision.synth import random_scene, render


def _lab_with_discs(colours: list[tuple[int, int, int]]) -> tuple[np.ndarray, list[Circle]]:
    """A Lab image with one disc of each colour on a grey ground, in a row."""
    lab = np.full((40, 30 * len(colours) + 10, 3), (120, 128, 128), dtype=np.uint8)
    circles = []
    for i, colour in enumerate(colours):
        x, y = 20 + 30 * i, 20
        cv2.circle(lab, (x, y), 12, colour, -1)
        circles.append(Circle(float(x), float(y), 12.0))
    return lab, circles


def test_a_colour_within_its_fifteen_keeps_every_disc() -> None:
    rng = np.random.default_rng(3)
    colours = [(200 + int(rng.integers(-8, 9)), 128, 128) for _ in range(15)]
    lab, circles = _lab_with_discs(colours)
    assert accountable(circles, [True] * 15, lab, 15) == circles


def test_the_excess_that_fits_its_colour_worst_is_dropped() -> None:
    rng = np.random.default_rng(4)
    colours = [(40 + int(rng.integers(-6, 7)), 128, 128) for _ in range(15)]
    sleeve = (90, 140, 90)  # a blue sleeve among black checkers
    colours.insert(6, sleeve)
    lab, circles = _lab_with_discs(colours)
    kept = accountable(circles, [False] * 16, lab, 15)
    assert len(kept) == 15
    assert circles[6] not in kept


def test_only_the_colour_over_its_count_loses_discs() -> None:
    light = [(210, 128, 128)] * 14 + [(200, 150, 160)]  # 15 light, one odd: all kept
    dark = [(40, 128, 128)] * 16 + [(120, 150, 160)]  # 17 dark: two dropped, the odd first
    lab, circles = _lab_with_discs(light + dark)
    kept = accountable(circles, [True] * 15 + [False] * 17, lab, 15)
    assert circles[14] in kept
    assert circles[15 + 16] not in kept
    assert len(kept) == len(circles) - 2


def test_most_per_colour_must_be_positive() -> None:
    with pytest.raises(ConfigError):
        OcclusionConfig(most_per_colour=0)


@pytest.mark.parametrize("seed", [8000382, 8000939])
def test_a_hand_the_checker_stage_reads_as_checkers_is_still_a_hand(seed: int) -> None:
    # Two renders (vision_accuracy seed 8) where the silhouette search placed discs on a
    # sleeve and a palm: 17 and 18 checkers of one colour on a board of fifteen each.
    scene = random_scene(np.random.default_rng(seed))
    frame, truth = render(scene)
    assert truth.observation.occluded
    corners = truth.observation.corners
    assert corners is not None
    field_map = Calibration(corners, "manual", (frame.shape[1], frame.shape[0]),
                            profile=scene.profile).field_map()
    checkers = read_checkers(field_map.rectify(frame, scene.profile, 640), scene.profile)
    assert detect_occlusion(frame, field_map, scene.profile, checkers).occluded
