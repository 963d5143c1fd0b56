"""A tray block cut short by its colour hovering at the colour test's threshold is taken on
to the sharp edge past it (``TrayConfig.soft_extend``)."""

from dataclasses import replace

import numpy as np

from bench.checker_accuracy import WIDTH, draw_scene
from vision.checkers.tray import TrayConfig, read_tray_reading, tray_image
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import render
from vision.synth.scene import Scene


def _checker_bench_scene(seed: int, index: int) -> Scene:
    """Scene ``index`` of ``bench/checker_accuracy.py --seed SEED --split tune``."""
    rng = np.random.default_rng(seed)
    scene = draw_scene(rng, "tune", "random")
    for _ in range(index):
        scene = draw_scene(rng, "tune", "random")
    return scene


def test_a_block_cut_short_by_its_colour_is_read_to_its_edge() -> None:
    """Checker bench tune seed 62, scene 104: fifteen dark checkers borne off on a blue
    floor, their rows 25.0-25.5 from the floor's colour (the threshold 25), the run cut at
    51 rows of 172 and then dropped as a soft end: the tray read empty, and the board's
    one colour was turned by it.  Taken on to the block's sharp edge: fifteen (the stripes
    then measure the thickness)."""
    scene = _checker_bench_scene(62, 104)
    assert scene.off == Counts(0, 15)
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    tray = tray_image(frame, FieldMap.from_corners(corners), scene.profile, WIDTH)
    assert tray is not None
    reading = read_tray_reading(tray, scene.profile)
    assert reading.counts == Counts(0, 15)
    assert reading.measured
    cut = read_tray_reading(tray, scene.profile,
                            config=replace(TrayConfig(), soft_extend=False))
    assert cut.counts == Counts(0, 0)
