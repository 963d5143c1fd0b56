"""The checker stage's faster paths give the same answers as the plain ones."""

import cv2
import numpy as np
import pytest

from vision.checkers.colours import ColourConfig, circle_colours
from vision.checkers.detect import Circle
from vision.checkers.fit import _bilinear
from vision.checkers.medians import row_medians


def test_row_medians_equal_numpy_medians_of_each_rows_valid_values() -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(-40, 41, size=(200, 37))
    valid = rng.random((200, 37)) < rng.random((200, 1))  # some rows nearly empty
    valid[0] = False
    valid[1] = True
    medians, counts = row_medians(values, valid, -40, 40)
    assert np.isnan(medians[0]) and counts[0] == 0
    for row, (median, count) in enumerate(zip(medians[1:], counts[1:], strict=True), 1):
        picked = values[row][valid[row]]
        assert count == len(picked)
        if len(picked):
            assert median == np.median(picked), row


def test_row_medians_ignore_invalid_values_out_of_range_and_refuse_valid_ones() -> None:
    values = np.array([[1, 2, 999], [3, -999, 4]])
    medians, counts = row_medians(values, values.__abs__() < 100, 0, 10)
    assert medians.tolist() == [1.5, 3.5] and counts.tolist() == [2, 2]
    with pytest.raises(ValueError):
        row_medians(values, np.ones_like(values, dtype=bool), 0, 10)


def test_circle_colours_are_each_rings_median_less_its_lift() -> None:
    rng = np.random.default_rng(11)
    field = rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    circles = [Circle(10.4, 5.0, 12.0), Circle(80.0, 60.0, 12.0), Circle(158.0, 118.6, 9.5),
               Circle(40.0, 100.0, 9.5)]
    lifts = [0.0, 30.0, 7.5, 300.0]
    got = circle_colours(field, circles, ColourConfig(), lifts)
    config = ColourConfig()
    for circle, lift, lab in zip(circles, lifts, got, strict=True):
        ys, xs = np.mgrid[0:120, 0:160]
        d = np.hypot(xs - round(circle.x), ys - round(circle.y))
        ring = (d >= config.inner * round(circle.radius, 1)) \
            & (d <= config.outer * round(circle.radius, 1))
        bgr = np.clip(np.median(field[ring], axis=0) - lift, 0, 255).round().astype(np.uint8)
        want = cv2.cvtColor(bgr.reshape(1, 1, 3), cv2.COLOR_BGR2LAB).reshape(3)
        assert lab == tuple(float(v) for v in want)


def test_bilinear_samples_do_not_depend_on_the_maps_shape() -> None:
    rng = np.random.default_rng(2)
    plane = rng.random((50, 70)).astype(np.float32)
    xs = rng.uniform(-3, 73, size=(4, 5, 64))
    ys = rng.uniform(-3, 53, size=(4, 5, 64))
    grid = _bilinear(plane, xs, ys)
    one_by_one = np.array([_bilinear(plane, np.array([x]), np.array([y]))[0]
                           for x, y in zip(xs.ravel(), ys.ravel(), strict=True)])
    assert np.array_equal(grid.ravel(), one_by_one)
