"""A side spread over the board, with the tray in view showing none of its colour, has
fifteen on the board: a gap no alternative closes goes to its one tall stack
(``CountConfig.sure_gap``)."""

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
OFF = CheckerConfig(count=replace(CountConfig(), sure_gap=0))
"""The rule switched off."""


def _read(scene_seed: int, point: int, tray: bool = True) -> tuple[Counts, Counts, Counts]:
    """The truth on ``point``, its reading with the rule and without it, the tray's
    reading given to the count (as the pipeline does) when ``tray``."""
    scene = random_scene(np.random.default_rng(scene_seed))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field_map = FieldMap.from_corners(corners)
    off = read_off_reading(frame, field_map, scene.profile) if tray else None
    assert not tray or off is not None
    field = field_map.rectify(frame, scene.profile, WIDTH)
    on, without = (read_checkers(field, scene.profile, config=c, off=off).points[point]
                   for c in (CheckerConfig(), OFF))
    return truth.observation.points[point], on, without


def test_a_tall_stack_read_short_takes_the_sides_missing_checkers() -> None:
    """Fresh tune seed 46, scene 273 of bench/vision_accuracy.py: eleven white on p12 (a
    row of five, layers of four and two seen as one row), the tray in view and empty,
    white on three quarters: read five without the rule, the side nine."""
    want, on, without = _read(46_000_273, 12)
    assert want == Counts(11, 0)
    assert on == want
    assert without == Counts(5, 0)


def test_a_row_read_with_a_phantom_layer_gives_back_the_sides_extra_checkers() -> None:
    """Fresh tune seed 47, scene 677: a row of five black on p12, two row checkers taken
    for a layer by their phases, read eight without the rule (black then eighteen)."""
    want, on, without = _read(47_000_677, 12)
    assert want == Counts(0, 5)
    assert on == want
    assert without == Counts(0, 8)


def test_without_a_tray_in_view_the_total_is_not_sure() -> None:
    """The same field as the first test with no tray reading: a side spread over the
    board may have been hit after it began bearing off, its borne-off checkers out of
    view, so its fifteen are not taken (five, as read)."""
    want, on, _ = _read(46_000_273, 12, tray=False)
    assert want == Counts(11, 0)
    assert on == Counts(5, 0)
