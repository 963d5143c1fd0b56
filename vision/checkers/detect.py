"""Checker candidates: circles of the expected size in the rectified field.

In the rectified image every checker is a circle of (nearly) the same,
known diameter: a point's width times the profile's ``checker_diameter``.
Knowing the size makes a Hough circle search reliable, and a second look
at each circle throws out dice, the cube and arcs the Hough vote invents.

That second look is the *rim score*: around a real checker, the image
gradient on the rim points along the radius (the disc's edge, its shadow,
its bevel), even where the checker has the same colour as the point under
it and the edge is faint.  The edges of the point triangles and the rail
cross a circle instead, so they score low however strong they are.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Plane = npt.NDArray[np.float32]


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
    rim_score: float = 0.5
    """Share of the rim whose gradient must point along the radius for a Hough circle."""
    rim_gradient: float = 6.0
    """Gradient magnitude (grey levels per pixel, Sobel/8) that counts on the rim."""
    rim_alignment: float = 0.85
    """|cos| between the gradient and the radius for a rim sample to count."""


@dataclass(frozen=True, slots=True)
class Circle:
    """A checker seen from above, in rectified-image pixels."""

    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Gradients:
    """The rectified field's gradient, computed once per frame for every rim test."""

    gx: Plane
    gy: Plane
    magnitude: Plane

    @classmethod
    def of(cls, gray: npt.NDArray[np.uint8], sigma: float) -> "Gradients":
        blurred = cv2.GaussianBlur(gray, (0, 0), sigma) if sigma > 0 else gray
        gx = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32) / 8.0
        gy = np.asarray(cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32) / 8.0
        return cls(gx, gy, np.asarray(cv2.magnitude(gx, gy), dtype=np.float32))


_ANGLES = np.linspace(0.0, 2.0 * np.pi, 64, endpoint=False)
_COS = np.cos(_ANGLES)
_SIN = np.sin(_ANGLES)


def expected_radius(profile: BoardProfile, width: int) -> float:
    """A checker's radius in a rectified field image ``width`` pixels wide."""
    return 0.5 * profile.point_width * profile.checker_diameter * width


_SCALES = np.array([0.94, 1.0, 1.06])


def rim_scores(grad: Gradients, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64],
               radii: npt.NDArray[np.float64], config: "DetectConfig") -> npt.NDArray[np.float64]:
    """The rim score of many circles at once (arrays of centres and radii).

    Each of 64 directions counts when, within 6 % of the radius, the gradient
    is strong enough and points along the radius.  Samples outside the image
    do not count either way (a checker cut by the image edge is judged on
    what is visible).
    """
    h, w = grad.magnitude.shape
    r = radii[:, None, None] * _SCALES[None, :, None]
    px = np.rint(xs[:, None, None] + r * _COS[None, None, :]).astype(np.int64)
    py = np.rint(ys[:, None, None] + r * _SIN[None, None, :]).astype(np.int64)
    inside = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    pxc = np.clip(px, 0, w - 1)
    pyc = np.clip(py, 0, h - 1)
    gx = grad.gx[pyc, pxc]
    gy = grad.gy[pyc, pxc]
    mag = grad.magnitude[pyc, pxc]
    along = np.abs(gx * _COS + gy * _SIN) / np.maximum(mag, 1e-6)
    hit = ((mag >= config.rim_gradient) & (along >= config.rim_alignment) & inside).any(axis=1)
    seen = inside[:, 1, :].sum(axis=1)
    return np.where(seen > 16, hit.sum(axis=1) / np.maximum(seen, 1), 0.0)


def best_rim(grad: Gradients, x: float, y: float, radius: float, reach: float,
             config: "DetectConfig") -> tuple[float, Circle]:
    """The best-scoring circle near (x, y): centres within ``reach`` pixels,
    radii within 5 % of ``radius``."""
    offsets = np.linspace(-reach, reach, 5)
    dx, dy, scale = np.meshgrid(offsets, offsets, np.array([0.95, 1.0, 1.05]), indexing="ij")
    xs = (x + dx).ravel()
    ys = (y + dy).ravel()
    radii = (radius * scale).ravel()
    scores = rim_scores(grad, xs, ys, radii, config)
    best = int(np.argmax(scores))
    return float(scores[best]), Circle(float(xs[best]), float(ys[best]), float(radii[best]))


def find_circles(field: Image, profile: BoardProfile, config: DetectConfig | None = None,
                 grad: Gradients | None = None) -> list[Circle]:
    """Circles of checker size in a rectified field image (BGR) that pass the rim test."""
    config = config or DetectConfig()
    width = field.shape[1]
    radius = expected_radius(profile, width)
    gray = np.asarray(cv2.cvtColor(field, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    blurred = np.asarray(cv2.GaussianBlur(gray, (0, 0), config.blur_sigma), dtype=np.uint8)
    found = cv2.HoughCircles(
        blurred, cv2.HOUGH_GRADIENT, dp=1, minDist=radius * config.min_distance,
        param1=config.canny_high, param2=config.accumulator,
        minRadius=int(radius * config.min_radius), maxRadius=round(radius * config.max_radius),
    )
    if found is None:
        return []
    grad = grad or Gradients.of(gray, 1.0)
    candidates = found[0].astype(np.float64)
    scores = rim_scores(grad, candidates[:, 0], candidates[:, 1], candidates[:, 2], config)
    return [Circle(float(x), float(y), float(r))
            for (x, y, r), score in zip(candidates, scores, strict=True)
            if score >= config.rim_score]
