"""A side whose stacks add up inside the range of totals the tray leaves takes a full
row's most plausible hidden layer when it still lands in the range
(``CountConfig.range_layer``)."""

from dataclasses import replace

import numpy as np
import pytest

from bench.checker_accuracy import WIDTH, draw_scene
from vision.checkers.count import CountConfig, _layer_in_range
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.stacks import Stack
from vision.checkers.tray import TrayConfig, read_tray_reading, tray_image
from vision.observation import Counts
from vision.rectify import FieldMap
from vision.synth import render
from vision.synth.scene import Scene

OFF = CheckerConfig(count=replace(CountConfig(), range_layer=0.0))
"""The rule switched off."""


def _checker_bench_scene(seed: int, index: int) -> Scene:
    """Scene ``index`` of ``bench/checker_accuracy.py --seed SEED --split tune``."""
    rng = np.random.default_rng(seed)
    scene = draw_scene(rng, "tune", "random")
    for _ in range(index):
        scene = draw_scene(rng, "tune", "random")
    return scene


@pytest.mark.parametrize(("seed", "index", "point", "truth", "without"), [
    (256, 139, 12, Counts(6, 0), Counts(5, 0)),
    (255, 119, 10, Counts(0, 7), Counts(0, 6)),
])
def test_a_hidden_layer_inside_the_trays_range_is_taken(seed: int, index: int, point: int,
                                                        truth: Counts, without: Counts) -> None:
    """Checker bench tune seed 256, scene 139: the tray (its thickness guessed) read six
    white of five, so white's total on the board lay anywhere in 6-10 and the board's nine
    was asked nothing; p12's row of five hid a layer of one (its alternative of six 0.076
    plausible).  Seed 255, scene 119: black on the bar and seven in the tray, a total of
    5-15, read seven; p10's row of six hid one (0.080)."""
    scene = _checker_bench_scene(seed, index)
    frame, rendered = render(scene)
    corners = rendered.observation.corners
    assert corners is not None
    assert rendered.observation.points[point] == truth
    field_map = FieldMap.from_corners(corners)
    field = field_map.rectify(frame, scene.profile, WIDTH)
    tray = tray_image(frame, field_map, scene.profile, TrayConfig().width)
    assert tray is not None
    off = read_tray_reading(tray, scene.profile)
    assert off is not None and not off.measured
    on = read_checkers(field, scene.profile, off=off).points[point]
    assert on == truth
    assert read_checkers(field, scene.profile, config=OFF, off=off).points[point] == without


def _row(count: int, alternatives: tuple[tuple[int, float], ...]) -> Stack:
    """A full row read as ``count`` with no layer seen (room for one fewer)."""
    return Stack(count, count, (False,) * count, (), alternatives, count - 1)


def test_the_range_and_the_floor_bound_the_layer() -> None:
    """Two stacks of light, one of dark; the light read nine, in its range 8-11."""
    stacks = {0: (_row(5, ((6, 0.03), (7, 0.08), (9, 0.09))), True),
              5: (_row(4, ()), True),
              20: (_row(5, ((6, 0.07),)), False)}
    bar = [0, 0]
    # The most plausible alternative inside the range: seven (eleven), not nine (thirteen).
    assert _layer_in_range(stacks, bar, (None, None), ((8, 11), None), 0.05) == (11, None)
    # Under the floor: nothing asked.
    assert _layer_in_range(stacks, bar, (None, None), ((8, 11), None), 0.085) == (None, None)
    # A range of one total (a measured block) or a colour already asked: as given.
    assert _layer_in_range(stacks, bar, (None, None), ((9, 9), None), 0.05) == (None, None)
    assert _layer_in_range(stacks, bar, (12, None), ((10, 12), None), 0.05) == (12, None)
    # Dark (five, range 5-6): six.
    assert _layer_in_range(stacks, bar, (None, None), (None, (5, 6)), 0.05) == (None, 6)
    # A stack with no room (a layer seen) offers nothing.
    seen = Stack(5, 5, (False,) * 5, (), ((6, 0.07),), 0)
    assert _layer_in_range({20: (seen, False)}, bar, (None, None), (None, (5, 6)),
                           0.05) == (None, None)
