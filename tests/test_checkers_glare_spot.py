"""A lamp's soft reflection on the field is no checker (``DetectConfig.glare_width``)."""

from dataclasses import replace

import cv2
import numpy as np

from bench.checker_accuracy import WIDTH, draw_scene
from vision.checkers.detect import DetectConfig, glare_spots
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.tray import TrayConfig, read_tray_reading, tray_image
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import render
from vision.synth.scene import Scene

RADIUS = 24.0


def _checker_bench_scene(seed: int, index: int) -> Scene:
    """Scene ``index`` of ``bench/checker_accuracy.py --seed SEED --split tune``."""
    rng = np.random.default_rng(seed)
    scene = draw_scene(rng, "tune", "random")
    for _ in range(index):
        scene = draw_scene(rng, "tune", "random")
    return scene


def _drawn() -> tuple[np.ndarray, np.ndarray]:
    """A grey field (blurred as the edge map blurs it) with a soft bright spot at (80, 80)
    and three checkers, one of them blurred as a soft-focus render blurs it, and the
    centres (spot first)."""
    rng = np.random.default_rng(7)
    field = np.full((200, 400), 70.0)
    yy, xx = np.mgrid[0:200, 0:400]
    field += 110.0 * np.exp(-((xx - 80.0) ** 2 + (yy - 80.0) ** 2) / (2.0 * 14.0 ** 2))
    sharp = field.copy()
    for x, grey in ((170.0, 215.0), (250.0, 25.0)):
        sharp[(xx - x) ** 2 + (yy - 80.0) ** 2 <= RADIUS ** 2] = grey
    soft = field.copy()
    soft[(xx - 330.0) ** 2 + (yy - 80.0) ** 2 <= RADIUS ** 2] = 20.0
    soft = cv2.GaussianBlur(soft, (0, 0), 2.5)
    image = np.where(xx >= 300, soft, sharp) + rng.normal(0.0, 2.0, field.shape)
    image = cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (0, 0), 1.0)
    centres = np.array([(80.0, 80.0), (170.0, 80.0), (250.0, 80.0), (330.0, 80.0)])
    return np.asarray(image, dtype=np.uint8), centres


def test_a_soft_spot_is_told_from_checkers() -> None:
    """The spot's 'rim' is a slope, and its grey keeps rising to its centre: dropped.  A
    white and a black checker with sharp rims, and one blurred, are kept."""
    image, centres = _drawn()
    spots = glare_spots(image, centres, RADIUS, DetectConfig())
    assert spots.tolist() == [True, False, False, False]
    # The rise alone does not make a spot: a checker's face may be shaded too.
    steep = replace(DetectConfig(), glare_rise=100.0)
    assert not glare_spots(image, centres, RADIUS, steep).any()


def test_a_lamps_spot_makes_no_row_checker() -> None:
    """Checker bench tune seed 92, scene 78: four dark checkers on p13 and a lamp's spot
    on the blue field beyond them, at the row's sixth slot: with the spot taken for a
    checker the row ran to it (six).  Without it, four."""
    scene = _checker_bench_scene(92, 78)
    assert scene.points[13] == Counts(0, 4)
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field_map = FieldMap.from_corners(corners)
    field = field_map.rectify(frame, scene.profile, WIDTH)
    tray = tray_image(frame, field_map, scene.profile, TrayConfig().width)
    reading = None if tray is None else read_tray_reading(tray, scene.profile)
    read = read_checkers(field, scene.profile, off=reading)
    assert read.points[13] == Counts(0, 4)
    off = replace(CheckerConfig(), detect=replace(DetectConfig(), glare_width=0.0))
    before = read_checkers(field, scene.profile, off=reading, config=off)
    assert before.points[13] == Counts(0, 6)
