"""The checker stage's faster paths give the same answers as the plain ones."""

import cv2
import numpy as np
import pytest

from vision.checkers.colours import ColourConfig, circle_colours
from vision.checkers.detect import Circle
from vision.checkers.fit import _bilinear
from vision.checkers.medians import row_medians
from vision.checkers.rim import EdgeMap, RimConfig
from vision.checkers.votes import VoteConfig, centre_votes


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


def _drawn_field() -> np.ndarray:
    """A grey field with discs of radius 12, some cut by the border, and noise."""
    rng = np.random.default_rng(4)
    gray = np.full((100, 150), 90, dtype=np.uint8)
    for x, y, shade in ((20, 20, 200), (75, 50, 30), (146, 60, 220), (60, 97, 160),
                        (2, 3, 10)):
        cv2.circle(gray, (x, y), 12, shade, -1)
    noise = rng.integers(-3, 4, size=gray.shape)
    return np.clip(gray.astype(np.int64) + noise, 0, 255).astype(np.uint8)


def test_a_second_threshold_gives_the_codes_of_a_fresh_edge_map() -> None:
    gray = _drawn_field()
    edges = EdgeMap.of(gray, 12.0, RimConfig())
    again = EdgeMap.of(gray, 12.0, RimConfig(gradient=1.2))
    assert not np.array_equal(edges.codes, again.codes)
    assert np.array_equal(edges.with_gradient(1.2).codes, again.codes)


def test_centre_votes_count_every_vote_inside_the_grid_and_none_outside() -> None:
    edges = EdgeMap.of(_drawn_field(), 12.0, RimConfig())
    config = VoteConfig(sigma=0.0001)
    grid = centre_votes(edges, 12.0, config)
    # The same votes cast the plain way, the ones off the grid dropped.
    thin = cv2.Canny(edges.blurred, 16.0, 16.0, L2gradient=True)
    ys, xs = np.nonzero(thin)
    keep = edges.magnitude[ys, xs] > 0
    ys, xs = ys[keep], xs[keep]
    ux = edges.gx[ys, xs] * (12.0 / edges.magnitude[ys, xs])
    uy = edges.gy[ys, xs] * (12.0 / edges.magnitude[ys, xs])
    want = np.zeros(grid.shape)
    for sign in (1.0, -1.0):
        cx = ((xs + sign * ux) * 0.5 + 0.5).astype(np.int64)
        cy = ((ys + sign * uy) * 0.5 + 0.5).astype(np.int64)
        ok = (cx >= 0) & (cx < grid.shape[1]) & (cy >= 0) & (cy < grid.shape[0])
        np.add.at(want, (cy[ok], cx[ok]), 1.0)
    assert want.sum() > 100
    assert np.allclose(grid, want, atol=1e-3)


def test_a_strips_edge_map_is_the_frames_inside_its_outermost_columns() -> None:
    gray = _drawn_field()
    edges = EdgeMap.of(gray, 12.0, RimConfig())
    strip = edges.columns(40, 110, 1.0)
    alone = EdgeMap.of(np.ascontiguousarray(edges.blurred[:, 40:110]), 12.0,
                       RimConfig(gradient=1.0), blurred=True)
    assert strip.width == alone.width == 70 and strip.height == alone.height
    pad = edges.pad
    inner = (slice(None), slice(pad + 1, pad + 69))
    assert np.array_equal(strip.codes[inner], alone.codes[inner])
    assert not np.array_equal(strip.codes, edges.with_gradient(1.0).codes[:, 40:110 + 2 * pad])
    assert np.array_equal(strip.codes[:, pad:pad + 70],
                          edges.with_gradient(1.0).codes[:, pad + 40:pad + 110])
