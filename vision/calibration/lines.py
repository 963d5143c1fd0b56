"""Straight edges of one polarity: thin edge pixels, a slope-limited Hough vote, line fits.

The field's outline, the bar and the rails are long straight edges of known
direction (a camera above the board sees them within a few degrees of the
image axes) and known *polarity* (the field is bright, the rails and the bar
dark).  Sorting edge pixels by polarity before voting keeps the left edge of
the field from being confused with the right edge of the bar, and voting
only over small slopes keeps the cost to a few numpy passes.

A line is stored in the orientation it was found in: an *upright* line as
``x = offset + slope * (y - centre)``, a *lying* one as
``y = offset + slope * (x - centre)``, ``centre`` being the middle of the
image along the other axis.
"""

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Plane = npt.NDArray[np.float32]
Orientation = Literal["upright", "lying"]


@dataclass(frozen=True, slots=True)
class EdgePixels:
    """Thin edge pixels of one orientation and polarity, with sub-pixel offsets."""

    along: Floats
    """Coordinate along the line (y for upright edges, x for lying ones)."""
    across: Floats
    """Sub-pixel coordinate across the line (x for upright edges)."""
    strength: Floats
    """Grey levels per pixel."""

    def __len__(self) -> int:
        return len(self.along)

    def select(self, keep: npt.NDArray[np.bool_]) -> "EdgePixels":
        return EdgePixels(self.along[keep], self.across[keep], self.strength[keep])


@dataclass(frozen=True, slots=True)
class Line:
    """An upright or lying image line (see the module docstring)."""

    orientation: Orientation
    offset: float
    slope: float
    centre: float
    votes: float = 0.0

    def across_at(self, along: Floats | float) -> Floats:
        """The line's across-coordinate at ``along`` (x at a y for an upright line)."""
        return np.asarray(self.offset + self.slope * (np.asarray(along) - self.centre),
                          dtype=np.float64)

    def homogeneous(self) -> Floats:
        """(a, b, c) with a*x + b*y + c = 0."""
        c = -(self.offset - self.slope * self.centre)
        if self.orientation == "upright":
            return np.array([1.0, -self.slope, c])
        return np.array([-self.slope, 1.0, c])


def edge_pixels(value: Plane, orientation: Orientation, rising: bool,
                min_strength: float) -> EdgePixels:
    """Edge pixels where ``value`` steps across an upright (or lying) line.

    ``rising`` means brighter on the right (upright) or below (lying).  Pixels
    are thinned to the local maximum across the line, must step at least
    ``min_strength`` grey levels per pixel, and must step more across the line
    than along it.
    """
    axis = 1 if orientation == "upright" else 0
    dx, dy = (1, 0) if axis == 1 else (0, 1)
    grad = cv2.Sobel(value, cv2.CV_32F, dx, dy, ksize=3) / 8.0
    other = cv2.Sobel(value, cv2.CV_32F, dy, dx, ksize=3) / 8.0
    signed = grad if rising else -grad
    before = np.roll(signed, 1, axis=axis)
    after = np.roll(signed, -1, axis=axis)
    keep = ((signed >= before) & (signed > after) & (signed > min_strength)
            & (signed > np.abs(other)))
    # np.roll wraps around: the first and last line across the axis are not edges.
    if axis == 1:
        keep[:, 0] = keep[:, -1] = False
    else:
        keep[0, :] = keep[-1, :] = False
    rows, cols = np.nonzero(keep)
    peak = signed[rows, cols].astype(np.float64)
    lo = before[rows, cols].astype(np.float64)
    hi = after[rows, cols].astype(np.float64)
    curvature = lo - 2.0 * peak + hi
    shift = np.where(curvature < 0, 0.5 * (lo - hi) / np.where(curvature < 0, curvature, -1.0),
                     0.0)
    shift = np.clip(shift, -0.5, 0.5)
    if axis == 1:
        return EdgePixels(rows.astype(np.float64), cols.astype(np.float64) + shift, peak)
    return EdgePixels(cols.astype(np.float64), rows.astype(np.float64) + shift, peak)


def hough(edges: EdgePixels, size: int, centre: float, max_slope: float,
          steps: int) -> tuple[Plane, Floats]:
    """Votes for lines ``across = offset + slope * (along - centre)``.

    Returns the accumulator (slopes x integer offsets 0..size) and the slopes.
    Each edge pixel votes once per slope, split between the two nearest
    offsets, and the accumulator is smoothed a little so a line that bends by
    a pixel (lens distortion) still gathers its votes in one peak.
    """
    slopes = np.linspace(-max_slope, max_slope, steps)
    acc = np.zeros((steps, size + 2), dtype=np.float32)
    if len(edges) == 0:
        return acc, slopes
    along = edges.along - centre
    for i, slope in enumerate(slopes):
        offset = edges.across - slope * along
        base = np.floor(offset)
        frac = offset - base
        idx = base.astype(np.int64)
        ok = (idx >= 0) & (idx < size + 1)
        acc[i] += np.bincount(idx[ok], weights=1.0 - frac[ok], minlength=size + 2)[:size + 2]
        acc[i] += np.bincount(idx[ok] + 1, weights=frac[ok], minlength=size + 2)[:size + 2]
    smoothed = cv2.GaussianBlur(acc, (5, 3), 0.8)
    return np.asarray(smoothed, dtype=np.float32), slopes


def peaks(acc: Plane, slopes: Floats, centre: float, orientation: Orientation, count: int,
          separation: int) -> list[Line]:
    """The ``count`` strongest lines, at least ``separation`` pixels apart (offset)."""
    work = acc.copy()
    found: list[Line] = []
    for _ in range(count):
        i, j = np.unravel_index(int(np.argmax(work)), work.shape)
        votes = float(work[i, j])
        if votes <= 0.0:
            break
        found.append(Line(orientation, float(j), float(slopes[i]), centre, votes))
        work[:, max(0, j - separation):j + separation + 1] = 0.0
    return found


def near(edges: EdgePixels, line: Line, band: float) -> npt.NDArray[np.bool_]:
    """Which edge pixels lie within ``band`` pixels (across) of ``line``."""
    return np.asarray(np.abs(edges.across - line.across_at(edges.along)) <= band,
                      dtype=np.bool_)


def fit(edges: EdgePixels, line: Line, band: float, rounds: int = 3) -> Line | None:
    """``line`` refitted by least squares to the edge pixels near it.

    Each round keeps the pixels within ``band`` of the current fit and halves
    the band (down to half a pixel), so clutter beside the edge drops out.
    None when fewer than ten pixels support the line.
    """
    current = line
    for _ in range(rounds):
        keep = near(edges, current, band)
        if int(keep.sum()) < 10:
            return None
        along = edges.along[keep] - line.centre
        across = edges.across[keep]
        design = np.stack([np.ones_like(along), along], axis=1)
        weights = np.sqrt(edges.strength[keep])
        solution, *_ = np.linalg.lstsq(design * weights[:, None], across * weights, rcond=None)
        current = Line(line.orientation, float(solution[0]), float(solution[1]), line.centre,
                       float(keep.sum()))
        band = max(0.5, band / 2.0)
    return current


def intersect(a: Line, b: Line) -> tuple[float, float] | None:
    """Where two lines cross, None if they are (nearly) parallel."""
    x, y, w = np.cross(a.homogeneous(), b.homogeneous())
    if abs(w) < 1e-9:
        return None
    return (float(x / w), float(y / w))


@dataclass(frozen=True, slots=True)
class ColourEdges:
    """Thin upright edge pixels of a colour image, of either polarity, with their steps."""

    pixels: EdgePixels
    steps: Floats
    """N x 3: the colour step across each pixel, left to right (per pixel)."""


def colour_edges(colour: Plane, min_strength: float) -> ColourEdges:
    """Edge pixels where ``colour`` (H x W x 3) steps across an upright line, whatever the
    sign or hue of the step: thinned to the local maximum of the step's length across the
    line, which must exceed ``min_strength`` and the step along the line."""
    grad = np.asarray(cv2.Sobel(colour, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32) / 8.0
    other = np.asarray(cv2.Sobel(colour, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32) / 8.0
    size = np.sqrt((grad * grad).sum(axis=2))
    across = np.sqrt((other * other).sum(axis=2))
    before = np.roll(size, 1, axis=1)
    after = np.roll(size, -1, axis=1)
    keep = (size >= before) & (size > after) & (size > min_strength) & (size > across)
    keep[:, 0] = keep[:, -1] = False
    rows, cols = np.nonzero(keep)
    peak = size[rows, cols].astype(np.float64)
    lo = before[rows, cols].astype(np.float64)
    hi = after[rows, cols].astype(np.float64)
    curvature = lo - 2.0 * peak + hi
    shift = np.where(curvature < 0, 0.5 * (lo - hi) / np.where(curvature < 0, curvature, -1.0),
                     0.0)
    shift = np.clip(shift, -0.5, 0.5)
    pixels = EdgePixels(rows.astype(np.float64), cols.astype(np.float64) + shift, peak)
    return ColourEdges(pixels, grad[rows, cols].astype(np.float64))
