"""The checker stage's pixel settings restated for a field of another width
(``CheckerConfig.reference_width``, ``CheckerConfig.at_width``)."""

from dataclasses import replace

import numpy as np

from vision.checkers.detect import DetectConfig, glare_spots
from vision.checkers.reader import CheckerConfig, measure_checkers
from vision.rectify import FieldMap
from vision.synth import random_scene, render


def test_reference_width_is_the_config_itself() -> None:
    config = CheckerConfig()
    assert config.at_width(config.reference_width) is config


def test_other_width_restates_the_pixel_settings() -> None:
    config = CheckerConfig()
    at = config.at_width(480)
    s = 0.75
    assert at.reference_width == 480
    assert at.at_width(480) is at
    assert at.detect.rim.sigma == config.detect.rim.sigma * s
    assert at.detect.votes.cell == config.detect.votes.cell * s
    assert at.detect.glare_step == config.detect.glare_step * s
    assert at.detect.accumulator == config.detect.accumulator * s
    assert at.detect.rim.gradient == config.detect.rim.gradient / s
    assert at.detect.votes.gradient == config.detect.votes.gradient / s
    assert at.detect.fit.gradient == config.detect.fit.gradient / s
    assert at.slots.gradient == config.slots.gradient / s
    assert at.bar.gradient == config.bar.gradient / s
    assert at.slots.silhouette_pixels == 4  # 6 * 0.5625 = 3.375, rounded up
    assert at.slots.hidden_pixels == 23  # 40 * 0.5625 = 22.5
    assert at.surface.min_pixels == 17  # 30 * 0.5625 = 16.875
    # Settings in radii stay.
    assert at.detect.rim.inner == config.detect.rim.inner
    assert at.slots.spacing == config.slots.spacing
    assert at.count == config.count


def test_glare_step_in_pixels_reads_the_same_edge_width() -> None:
    """A soft spot judged with rays sampled every pixel and every half pixel: the edge
    width is in pixels either way (the steps counted times the step)."""
    size = 121
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    d = np.hypot(xx - 60.0, yy - 60.0)
    spot = np.clip(240.0 - 6.0 * d, 60.0, 255.0).astype(np.uint8)
    centres = np.array([[60.0, 60.0]])
    config = DetectConfig()
    one = glare_spots(spot, centres, 20.0, config)
    half = glare_spots(spot, centres, 20.0, replace(config, glare_step=0.5))
    assert one.tolist() == half.tolist() == [True]
    sharp = np.where(d < 20.0, 240, 60).astype(np.uint8)
    assert glare_spots(sharp, centres, 20.0, replace(config, glare_step=0.5)).tolist() == [False]


def test_reading_at_three_quarters_width_finds_the_checkers() -> None:
    """A rendered board read at 640 and at 480 pixels wide: the same circles (in field
    fractions, within a tenth of a radius) and the same counts."""
    scene = random_scene(np.random.default_rng(240_000_007))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field_map = FieldMap.from_corners(corners)
    wide = measure_checkers(field_map.rectify(frame, scene.profile, 640), scene.profile)
    narrow = measure_checkers(field_map.rectify(frame, scene.profile, 480), scene.profile)
    assert narrow.config.reference_width == 480
    assert narrow.count().points == wide.count().points
    assert narrow.count().points == truth.observation.points
    assert len(narrow.circles) == len(wide.circles)
    for c in wide.circles:
        # (pixel centres: x at 640 is 0.75 (x + 0.5) - 0.5 at 480)
        x, y = 0.75 * c.x - 0.125, 0.75 * c.y - 0.125
        near = min(np.hypot(x - n.x, y - n.y) for n in narrow.circles)
        assert near < 0.1 * narrow.radius

