"""Is a die resting on a checker?

A die on a checker is surrounded by checker on every side; a die beside a
checker touches it on one side only.  So the test looks at a ring just
outside the die: the caller's checker mask (any image in which checker
pixels are non-zero, e.g. drawn from the checker stage's circles) must cover
most of it.  With circles instead of a mask, the die's centre must lie well
inside one of them.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Pixel = tuple[float, float]


@dataclass(frozen=True, slots=True)
class CheckerTestConfig:
    """Thresholds of the on-checker test."""

    ring_inner: float = 0.75
    """Inner radius of the tested ring, in die edges from the die's centre
    (past the die's corners, 0.71, so the die itself is not tested)."""
    ring_outer: float = 0.95
    min_cover: float = 0.7
    """Least fraction of the ring that must be checker."""
    inside: float = 0.85
    """With circles: the die's centre within this fraction of a radius."""
    gap_reach: float = 0.45
    """A lone pip off the checkers with checker this many die edges from it on two
    opposite sides is the board showing between two checkers, not a one: a die
    cannot lie there (its centre stays at least 0.7 die edges from two checkers it
    touches both of); renders: the wedges where two checkers of a point meet, lit,
    read as ones once the quick look also proposed fainter blobs."""
    waist: float = 0.35
    """A one or two whose centre lies on the checkers but within this many die edges
    of their edge is the board showing where two checkers of a point touch, not a die:
    the checker mask, drawn from the circles found, closes that gap, so the wedge of
    board there lies on the mask, a lone light blob (a one) or two of them either side
    of the touching point (a two); checker lies on two opposite sides of it.  A die
    resting on a checker lies well inside it (renders: its centre within 0.15 radii of
    the checker's, a die edge or more from the rim), and one leaning on a checker from
    beside it has checker on one side only.  Renders of tune seeds 21 and 22 (800
    scenes): all four false dice left were such wedges.  Flat or not: the pose test
    (:mod:`.pose`) calls such a wedge cocked when its "top face" is squashed with nothing
    to lean on (a7eeb76: two of them back as false dice on tune seeds 21 and 22); on tune
    seeds 21-24 as the pipeline reads them (899 dice, 118 cocked) applying the rule
    whatever the pose took both out and lost no die."""


def on_checker(center: Pixel, die_size: float, mask: npt.NDArray[np.generic],
               config: CheckerTestConfig = CheckerTestConfig()) -> bool:
    """True when the checker mask covers the ring around the die."""
    if mask.ndim != 2:
        raise ValueError("the checker mask is a 2-D image (non-zero = checker)")
    if die_size <= 0:
        raise ValueError("die_size must be positive")
    outer = max(1, round(config.ring_outer * die_size))
    cx, cy = round(center[0]), round(center[1])
    # the ring drawn only over the mask's part that can hold it (as over the whole mask)
    height, width = mask.shape
    x0, y0 = max(0, cx - outer - 1), max(0, cy - outer - 1)
    x1, y1 = min(width, cx + outer + 2), min(height, cy + outer + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
    centre = (cx - x0, cy - y0)
    cv2.circle(ring, centre, outer, 255, -1)
    cv2.circle(ring, centre, max(0, round(config.ring_inner * die_size)), 0, -1)
    total = int(np.count_nonzero(ring))
    if total == 0:
        return False
    covered = int(np.count_nonzero((ring > 0) & (mask[y0:y1, x0:x1] != 0)))
    return covered >= config.min_cover * total


def on_checker_circles(center: Pixel, circles: Iterable[tuple[float, float, float]],
                       config: CheckerTestConfig = CheckerTestConfig()) -> bool:
    """True when the die's centre lies well inside a checker circle (x, y, r)."""
    return any(math.dist(center, (x, y)) <= config.inside * r for x, y, r in circles)


def between_checkers(center: Pixel, die_size: float, mask: npt.NDArray[np.generic],
                     config: CheckerTestConfig = CheckerTestConfig()) -> bool:
    """True when ``center`` lies off the checkers with checker on two opposite sides of
    it, ``config.gap_reach`` die edges away (any of four opposite pairs of eight points)."""
    if mask.ndim != 2:
        raise ValueError("the checker mask is a 2-D image (non-zero = checker)")
    height, width = mask.shape

    def on(x: float, y: float) -> bool:
        col, row = round(x), round(y)
        return 0 <= col < width and 0 <= row < height and bool(mask[row, col] != 0)

    if on(*center):
        return False
    return _opposite_sides(center, die_size, mask, config)


def in_a_waist(center: Pixel, die_size: float, mask: npt.NDArray[np.generic],
               config: CheckerTestConfig = CheckerTestConfig()) -> bool:
    """True when ``center`` lies on the checker mask but within ``config.waist`` die
    edges of a pixel off it (or of the mask's border), with checker ``config.gap_reach``
    die edges from it on two opposite sides."""
    if mask.ndim != 2:
        raise ValueError("the checker mask is a 2-D image (non-zero = checker)")
    height, width = mask.shape
    cx, cy = round(center[0]), round(center[1])
    if not (0 <= cx < width and 0 <= cy < height) or mask[cy, cx] == 0:
        return False
    reach = config.waist * die_size
    r = math.ceil(reach)
    x0, y0, x1, y1 = cx - r, cy - r, cx + r + 1, cy + r + 1
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return True
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    disc = dx * dx + dy * dy <= reach * reach
    if not np.any((mask[y0:y1, x0:x1] == 0) & disc):
        return False
    # ... with checker on two opposite sides (the two that touch), as a die leaning on
    # one checker from beside it has not
    return _opposite_sides(center, die_size, mask, config)


def _opposite_sides(center: Pixel, die_size: float, mask: npt.NDArray[np.generic],
                    config: CheckerTestConfig) -> bool:
    """True when checker lies ``config.gap_reach`` die edges from ``center`` on two
    opposite sides (any of four opposite pairs of eight points)."""
    height, width = mask.shape[:2]

    def on(x: float, y: float) -> bool:
        col, row = round(x), round(y)
        return 0 <= col < width and 0 <= row < height and bool(mask[row, col] != 0)

    reach = config.gap_reach * die_size
    around = [on(center[0] + reach * math.cos(a), center[1] + reach * math.sin(a))
              for a in np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)]
    return any(around[i] and around[i + 4] for i in range(4))
