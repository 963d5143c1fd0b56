"""Checker candidates: circles of the expected size in the rectified field.

In the rectified image every checker is a circle of (nearly) the same,
known diameter: a point's width times the profile's ``checker_diameter``.
Knowing the size makes a Hough circle search reliable, and a second look
at each circle (enough edge all around its rim) throws out dice, the cube,
and arcs the Hough vote invents between touching checkers.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class DetectConfig:
    """Thresholds of the circle search (radii relative to the expected radius)."""

    min_radius: float = 0.8
    max_radius: float = 1.15
    min_distance: float = 1.45
    """Minimum distance between centres, in radii: touching checkers are two radii apart;
    a second-layer checker sits about one and a half radii from those under it."""
    canny_high: float = 120.0
    accumulator: float = 22.0
    """Hough accumulator threshold: lower finds fainter circles and more false ones."""
    blur_sigma: float = 1.2
    rim_support: float = 0.45
    """Fraction of the rim that must show an edge for a circle to count."""
    rim_gradient: float = 18.0
    """Gradient magnitude that counts as an edge on the rim."""


@dataclass(frozen=True, slots=True)
class Circle:
    """A checker seen from above, in rectified-image pixels."""

    x: float
    y: float
    radius: float


def expected_radius(profile: BoardProfile, width: int) -> float:
    """A checker's radius in a rectified field image ``width`` pixels wide."""
    return 0.5 * profile.point_width * profile.checker_diameter * width


def find_circles(field: Image, profile: BoardProfile,
                 config: DetectConfig | None = None) -> list[Circle]:
    """Circles of checker size in a rectified field image (BGR)."""
    config = config or DetectConfig()
    width = field.shape[1]
    radius = expected_radius(profile, width)
    gray = np.asarray(cv2.GaussianBlur(cv2.cvtColor(field, cv2.COLOR_BGR2GRAY), (0, 0),
                                       config.blur_sigma), dtype=np.uint8)
    found = cv2.HoughCircles(
        gray, cv2.HOUGH_GRADIENT, dp=1, minDist=radius * config.min_distance,
        param1=config.canny_high, param2=config.accumulator,
        minRadius=int(radius * config.min_radius), maxRadius=round(radius * config.max_radius),
    )
    if found is None:
        return []
    magnitude = _gradient(gray)
    circles = [Circle(float(x), float(y), float(r)) for x, y, r in found[0]]
    return [c for c in circles if rim_support(magnitude, c, config.rim_gradient)
            >= config.rim_support]


def _gradient(gray: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(cv2.magnitude(gx, gy), dtype=np.float32)


_ANGLES = np.linspace(0.0, 2.0 * np.pi, 48, endpoint=False)
_SCALES = np.array([0.92, 1.0, 1.08])


def rim_support(magnitude: npt.NDArray[np.float32], circle: Circle, threshold: float) -> float:
    """Share of 48 rim directions (within a few percent of the radius) that show an edge."""
    h, w = magnitude.shape
    radii = circle.radius * _SCALES[:, None]
    xs = np.rint(circle.x + radii * np.cos(_ANGLES)).astype(np.int64)
    ys = np.rint(circle.y + radii * np.sin(_ANGLES)).astype(np.int64)
    valid = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    values = np.zeros(xs.shape, dtype=np.float32)
    values[valid] = magnitude[ys[valid], xs[valid]]
    seen = valid[1]
    if not seen.any():
        return 0.0
    strong = values.max(axis=0) >= threshold
    return float(np.count_nonzero(strong & seen)) / float(np.count_nonzero(seen))
