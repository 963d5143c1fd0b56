"""How much a lamp's reflection lifts the colours around each checker.

A glossy board under a lamp shows a bright reflection that adds grey to
everything in it: a black checker there reads as mid-grey and can pass for
a light one.  The board itself says how much: its surfaces (the field and
the two point colours of each row) each have one colour, known from the
whole frame, so where a surface is brighter than its own median, light has
been added there.  The profile says which surface every pixel belongs to
(the points are triangles from the rails), so each checker's lift is the
median excess of the board surface around it, and its colour is read with
that much grey taken off.  Only lifts count: darkening (vignetting, a
shadow) scales colours rather than adding to them, and taking it off would
turn dark checkers grey.
"""

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.detect import Circle
from vision.checkers.medians import row_medians
from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int8]
UNUSED = -1
"""Label of pixels no surface median is taken over: the bar, edges between surfaces."""


@dataclass(frozen=True, slots=True)
class SurfaceConfig:
    """Thresholds of the glare estimate (distances in checker radii)."""

    enabled: bool = True
    point_base: float = 0.96
    """Width of a point's base as a fraction of a point's width."""
    edge: float = 0.12
    """Pixels this close to the border between two surfaces are left out (blur, outlines,
    a few pixels of calibration error)."""
    clearance: float = 1.2
    """Pixels within this of a checker's centre are not board."""
    inner: float = 1.2
    outer: float = 2.4
    """The ring around a checker whose board surface sets its lift."""
    step: int = 2
    """Subsampling of the frame when the surfaces' medians are taken."""
    min_pixels: int = 30
    """Board pixels a ring needs to say anything (else no lift)."""
    saturated: float = 250.0
    """Board pixels this bright (grey, as blurred for the edges) or brighter are left out
    of a ring's lift when enough others remain (``min_pixels``): a surface at the sensor's
    ceiling shows no more than the ceiling, so its excess says only that the lift is at
    least that much.  A white point (median 237) under a lamp's glare showed an excess of
    18 where the field beside it showed 75, and the black checkers on it were read as
    light (tune seed 31, scene 42).  256 leaves every pixel in."""


def glare_lifts(field_image: Image, circles: list[Circle], profile: BoardProfile,
                radius: float, config: SurfaceConfig | None = None,
                gray: npt.NDArray[np.uint8] | None = None) -> list[float]:
    """The grey level a reflection adds around each circle (0 where none); ``gray`` is
    the field in grey, when already at hand (slightly blurred is as good)."""
    config = config or SurfaceConfig()
    if not config.enabled or not circles:
        return [0.0] * len(circles)
    height, width = field_image.shape[:2]
    if gray is None:
        gray = np.asarray(cv2.cvtColor(field_image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    dx, dy = _ring(round(radius, 1), config.inner, config.outer)
    cx = np.array([round(c.x) for c in circles], dtype=np.int64)
    cy = np.array([round(c.y) for c in circles], dtype=np.int64)
    # The images padded so that every ring lies inside: a ring pixel off the field is on
    # no surface (the padding's label), without a test per pixel.
    reach = int(dx.max(initial=0))
    pad = reach + max(0, int(-cx.min()), int(cx.max()) - width + 1, int(-cy.min()),
                      int(cy.max()) - height + 1)
    board = _padded(profile, width, height, round(config.edge * radius), config.point_base,
                    pad)
    occupied = np.zeros(board.shape, dtype=np.uint8)
    for c in circles:
        cv2.circle(occupied, (round(c.x) + pad, round(c.y) + pad),
                   round(c.radius * config.clearance), 1, -1)
    step = config.step
    inner = (slice(pad, pad + height, step), slice(pad, pad + width, step))
    medians = _medians(board[inner], occupied[inner], gray[::step, ::step], config.min_pixels)
    row = board.shape[1]
    at = ((cy + pad) * row + cx + pad)[:, None] + (dy * row + dx)[None, :]
    k = np.where(occupied.ravel()[at] > 0, UNUSED, board.ravel()[at])
    grey = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    values = np.asarray(grey, dtype=np.uint8).ravel()[at].astype(np.int64)
    # Every circle's ring at once (rows): the board surface under each ring pixel, its
    # grey and its excess over the surface's median; a median per row.
    median = medians[np.maximum(k, 0)]
    usable = (k >= 0) & np.isfinite(median)
    unclipped = usable & (values < config.saturated)
    usable = np.where((unclipped.sum(axis=1) >= config.min_pixels)[:, None], unclipped, usable)
    excess = values - np.where(usable, median, 0.0).astype(np.int64)
    lift, count = row_medians(excess, usable, -255, 255)
    return [max(float(m), 0.0) if n >= config.min_pixels else 0.0
            for m, n in zip(lift, count, strict=True)]


def _medians(labels: Labels, occupied: npt.NDArray[np.uint8], gray: npt.NDArray[np.uint8],
             min_pixels: int) -> npt.NDArray[np.float32]:
    """The median grey of each surface (NaN for one with too few pixels), from 256-bin
    histograms, leaving out the ``occupied`` pixels (and those on no surface)."""
    # One histogram of (surface + 1) * 256 + grey over every pixel: the pixels on no
    # surface, or occupied, fall in the first 256 bins, which are dropped (cheaper than
    # picking the used pixels out first).
    codes = labels.astype(np.intp)
    codes[occupied > 0] = UNUSED
    surfaces_count = int(codes.max()) + 1
    codes += 1
    codes *= 256
    codes += gray
    histograms = np.bincount(codes.ravel(), minlength=(surfaces_count + 1) * 256)[256:]
    histograms = histograms.reshape(-1, 256)
    medians = np.full(surfaces_count, np.nan, dtype=np.float32)
    for k, histogram in enumerate(histograms[:surfaces_count]):
        total = int(histogram.sum())
        if total >= min_pixels:
            medians[k] = float(np.searchsorted(np.cumsum(histogram), (total + 1) / 2.0))
    return medians


@lru_cache(maxsize=8)
def _padded(profile: BoardProfile, width: int, height: int, edge: int, point_base: float,
            pad: int) -> Labels:
    """:func:`surfaces` with ``pad`` pixels of :data:`UNUSED` on every side."""
    labels = surfaces(profile, width, height, edge, point_base)
    padded = np.asarray(cv2.copyMakeBorder(labels, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                           value=UNUSED), dtype=np.int8)
    padded.flags.writeable = False
    return padded


@lru_cache(maxsize=8)
def surfaces(profile: BoardProfile, width: int, height: int, edge: int,
             point_base: float) -> Labels:
    """Which surface each pixel of a rectified field shows: 0 the field, 1-4 the points
    (top or bottom row, even or odd index: the two colours of each row), UNUSED for the
    bar and the pixels within ``edge`` of a border between surfaces."""
    labels = np.zeros((height, width), dtype=np.int8)
    half = profile.point_width * width * point_base / 2.0
    length = profile.point_length * height
    for index in range(24):
        x = profile.point_u(index) * width
        top = profile.is_top(index)
        rail, tip = (0.0, length) if top else (float(height), height - length)
        triangle = np.array([[x - half, rail], [x + half, rail], [x, tip]])
        cv2.fillConvexPoly(labels, np.round(triangle).astype(np.int32),
                           1 + index % 2 + (2 if top else 0))
    left, right = profile.bar_span
    labels[:, max(int(left * width) - edge, 0):int(right * width) + edge + 1] = UNUSED
    if edge > 0:
        kernel = np.ones((2 * edge + 1, 2 * edge + 1), dtype=np.uint8)
        as_float = labels.astype(np.float32)
        mixed = cv2.dilate(as_float, kernel) != cv2.erode(as_float, kernel)
        labels[mixed] = UNUSED
        labels[:edge] = UNUSED
        labels[-edge:] = UNUSED
        labels[:, :edge] = UNUSED
        labels[:, -edge:] = UNUSED
    labels.flags.writeable = False
    return labels


@lru_cache(maxsize=8)
def _ring(radius: float, inner: float, outer: float) -> tuple[npt.NDArray[np.int64],
                                                               npt.NDArray[np.int64]]:
    """Pixel offsets of the ring between ``inner`` and ``outer`` radii (every other
    pixel: plenty for a median)."""
    reach = int(np.ceil(outer * radius))
    ys, xs = np.mgrid[-reach:reach + 1:2, -reach:reach + 1:2]
    d = np.hypot(xs, ys)
    ring = (d >= inner * radius) & (d <= outer * radius)
    return xs[ring].astype(np.int64), ys[ring].astype(np.int64)
