"""Rim evidence: does the image show a checker's edge all around a circle?

Around a real checker the image gradient on the rim points along the
radius, whatever the colours: the disc's edge, its outline, its shadow, its
bevel.  How *strong* that gradient is says little (a black checker on green
felt has a faint edge, a wood grain a strong one); how well it is *aligned*
with the radius says a lot, once it stands above the noise.  So the evidence
is counted per direction: of 64 directions around a circle, in how many is
there, within a narrow band about the radius, a gradient above a low
threshold that points along the radius within a few degrees.  The edges of
point triangles, rails and wood grain cross a circle instead and are seldom
aligned all around.

To keep this cheap, each frame's gradient is turned once into a *direction
code* image (the gradient's axis in 32 steps of 5.6 degrees, or "too weak"),
and a circle's evidence is a gather of codes at fixed integer offsets and a
table lookup.  Directions whose rim point lies inside another checker's disc
(a higher checker covering this one) can be left out: see
:func:`covered_directions`.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

Plane = npt.NDArray[np.float32]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

DIRECTIONS: Final = 64
"""Directions around a circle at which the rim is looked at."""
AXIS_STEPS: Final = 32
"""Steps of a gradient's axis over 180 degrees in the direction code."""
WEAK: Final = 255
"""Direction code of a gradient too weak to count."""
OUTSIDE: Final = 254
"""Direction code of the padding around the image (not seen)."""

_ANGLES = np.linspace(0.0, 2.0 * np.pi, DIRECTIONS, endpoint=False)
COS: Final = np.cos(_ANGLES)
SIN: Final = np.sin(_ANGLES)


@dataclass(frozen=True, slots=True)
class RimConfig:
    """What counts as rim evidence."""

    gradient: float = 2.0
    """Least gradient (grey levels per pixel, Sobel/8 of the blurred image) that counts:
    just above the noise of a flat surface, so faint edges count too."""
    alignment: float = 0.95
    """Least |cos| between the gradient and the radius (18 degrees): random texture is
    seldom this well aligned, a rim nearly always is."""
    inner: float = 0.92
    outer: float = 1.08
    """The band about the radius (fractions of it) in which an edge is looked for."""
    samples: int = 5
    """Samples across the band."""
    sigma: float = 1.0
    """Blur before the gradient, pixels."""


@dataclass(frozen=True)
class EdgeMap:
    """One frame's gradient, ready for rim tests and centre votes."""

    blurred: npt.NDArray[np.uint8]
    gx: Plane
    gy: Plane
    magnitude: Plane
    codes: npt.NDArray[np.uint8]
    """Direction codes, padded by ``pad`` pixels of :data:`OUTSIDE` on every side."""
    pad: int
    width: int
    height: int
    axes: npt.NDArray[np.uint8]
    """The gradient's axis in :data:`AXIS_STEPS` steps at every pixel, however weak (not
    padded): another threshold's codes need only this and the magnitude."""

    @classmethod
    def of(cls, gray: npt.NDArray[np.uint8], radius: float, config: RimConfig,
           blurred: bool = False) -> "EdgeMap":
        """The edge map of a grey image in which checkers have ``radius`` pixels (already
        blurred by ``config.sigma`` when ``blurred``)."""
        if not blurred and config.sigma > 0:
            gray = np.asarray(cv2.GaussianBlur(gray, (0, 0), config.sigma), dtype=np.uint8)
        blurred_gray = np.asarray(gray, dtype=np.uint8)
        gx = np.asarray(cv2.Sobel(blurred_gray, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32)
        gy = np.asarray(cv2.Sobel(blurred_gray, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32)
        gx *= 0.125
        gy *= 0.125
        magnitude = np.asarray(cv2.magnitude(gx, gy), dtype=np.float32)
        pad = int(np.ceil(radius * config.outer)) + 2
        axes = _axes(gx, gy)
        codes = _codes(axes, magnitude, config.gradient, pad)
        height, width = gray.shape
        return cls(blurred_gray, gx, gy, magnitude, codes, pad, width, height, axes)

    def columns(self, left: int, right: int, gradient: float) -> "EdgeMap":
        """The edge map of columns ``left`` to ``right`` (exclusive) alone, with another
        least gradient that counts: the same gradient as :meth:`of` on those columns
        finds, except in the outermost column on each side, where this one saw the
        image's pixels beyond and :meth:`of` would mirror the strip's own."""
        blurred = np.ascontiguousarray(self.blurred[:, left:right])
        gx = np.ascontiguousarray(self.gx[:, left:right])
        gy = np.ascontiguousarray(self.gy[:, left:right])
        magnitude = np.ascontiguousarray(self.magnitude[:, left:right])
        axes = np.ascontiguousarray(self.axes[:, left:right])
        return EdgeMap(blurred, gx, gy, magnitude, _codes(axes, magnitude, gradient, self.pad),
                       self.pad, right - left, self.height, axes)

    def with_gradient(self, gradient: float) -> "EdgeMap":
        """The same gradient with another least gradient that counts (a second look with
        a lower threshold where faint rims are expected)."""
        return EdgeMap(self.blurred, self.gx, self.gy, self.magnitude,
                       _codes(self.axes, self.magnitude, gradient, self.pad), self.pad,
                       self.width, self.height, self.axes)


def _axes(gx: Plane, gy: Plane) -> npt.NDArray[np.uint8]:
    """The gradient's axis in :data:`AXIS_STEPS` steps (0 and 2 pi, 32 and 0 alike)."""
    phase = cv2.phase(gx, gy)  # 0..2 pi
    axis = np.asarray(cv2.convertScaleAbs(phase, alpha=AXIS_STEPS / np.pi),  # rounded, 0..64
                      dtype=np.uint8)
    return np.asarray(axis & (AXIS_STEPS - 1), dtype=np.uint8)


def _codes(axes: npt.NDArray[np.uint8], magnitude: Plane, gradient: float,
           pad: int) -> npt.NDArray[np.uint8]:
    """Direction codes (the gradient's axis, :data:`WEAK` under ``gradient``), padded by
    ``pad`` pixels of :data:`OUTSIDE`.  OpenCV's saturating 8-bit conversions do the
    rounding and the thresholding: a few times faster than the same in numpy, and this
    runs on every frame."""
    _, under = cv2.threshold(magnitude, gradient, 255.0, cv2.THRESH_BINARY_INV)
    weak = np.asarray(under, dtype=np.uint8)  # 255 where too weak
    codes = axes | weak
    padded = cv2.copyMakeBorder(codes, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=OUTSIDE)
    return np.ascontiguousarray(padded, dtype=np.uint8)


@lru_cache(maxsize=32)
def _offsets(radius: float, inner: float, outer: float, samples: int,
             row: int) -> tuple[Ints, int]:
    """Flat offsets (samples x directions) of the rim band in a padded image with ``row``
    pixels a row, and the index of the middle sample."""
    scales = np.linspace(inner, outer, samples)
    dx = np.rint(radius * scales[:, None] * COS[None, :]).astype(np.int64)
    dy = np.rint(radius * scales[:, None] * SIN[None, :]).astype(np.int64)
    return dy * row + dx, samples // 2


@lru_cache(maxsize=8)
def _aligned_lut(alignment: float) -> npt.NDArray[np.uint8]:
    """:func:`_aligned` as an OpenCV lookup table with a channel a direction (1 x 256 x
    64: entry [0, code, direction]), 1 where aligned (read only)."""
    lut = np.ascontiguousarray(_aligned(alignment).T.astype(np.uint8)[None])
    lut.flags.writeable = False
    return lut


@lru_cache(maxsize=8)
def _aligned(alignment: float) -> npt.NDArray[np.bool_]:
    """Table [direction, code] -> the code's axis is within the alignment of the direction."""
    table = np.zeros((DIRECTIONS, 256), dtype=bool)
    axes = np.arange(AXIS_STEPS) * (np.pi / AXIS_STEPS)
    for j, angle in enumerate(_ANGLES):
        table[j, :AXIS_STEPS] = np.abs(np.cos(axes - angle)) >= alignment
    return table


def rim_evidence(edges: EdgeMap, xs: Floats, ys: Floats, radius: float,
                 config: RimConfig) -> tuple[Bools, Bools]:
    """For circles centred at (xs, ys): which of the 64 directions show an aligned edge,
    and which directions' rim points lie inside the image (n x 64 each)."""
    row = edges.codes.shape[1]
    offsets, middle = _offsets(round(radius, 2), config.inner, config.outer, config.samples,
                               row)
    # (np.minimum and np.maximum: the same integers as np.clip, without its wrappers)
    cx = np.minimum(np.maximum(np.rint(xs).astype(np.int64), -1), edges.width) + edges.pad
    cy = np.minimum(np.maximum(np.rint(ys).astype(np.int64), -1), edges.height) + edges.pad
    base = cy * row + cx
    codes = edges.codes.ravel()[base[:, None, None] + offsets[None, :, :]]
    if len(codes):
        # The codes as an image of n rows, a sample a column and a direction a channel:
        # one lookup table a direction, one call (twice as fast as indexing the table by
        # direction and code, which made an index array eight times the codes' size).
        looked_up = np.asarray(cv2.LUT(codes, _aligned_lut(config.alignment)), dtype=np.uint8)
        hit: Bools = np.asarray(looked_up.any(axis=1), dtype=np.bool_)
    else:
        hit = np.zeros((0, DIRECTIONS), dtype=bool)
    seen = codes[:, middle, :] != OUTSIDE
    return hit, seen


def covered_directions(xs: Floats, ys: Floats, radius: float,
                       covers: npt.NDArray[np.float64], margin: float) -> Bools:
    """Which rim directions of circles at (xs, ys) lie inside one of the ``covers``
    (rows x, y, r), grown by ``margin`` of their radius (n x 64)."""
    if len(covers) == 0 or len(xs) == 0:
        return np.zeros((len(xs), DIRECTIONS), dtype=bool)
    px = xs[:, None] + radius * COS[None, :]
    py = ys[:, None] + radius * SIN[None, :]
    out = np.zeros((len(xs), DIRECTIONS), dtype=bool)
    for x, y, r in covers:
        reach = (r * (1.0 + margin)) ** 2
        out |= (px - x) ** 2 + (py - y) ** 2 < reach
    return out


def rim_scores(hit: Bools, seen: Bools, covered: Bools | None, min_seen: int) -> Floats:
    """The share of the seen, uncovered directions that show an aligned edge (0 when fewer
    than ``min_seen`` directions are left to judge by)."""
    usable = seen if covered is None else seen & ~covered
    count = usable.sum(axis=1)
    score = (hit & usable).sum(axis=1) / np.maximum(count, 1)
    return np.where(count >= min_seen, score, 0.0)
