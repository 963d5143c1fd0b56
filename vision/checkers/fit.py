"""Where exactly a checker's centre is: a least-squares fit of its rim.

The stack reading (:mod:`.stacks`) tells a checker on a higher layer from
one in the row by a shift of a tenth of a diameter or more, two or three
pixels, so centres must be known to a pixel or better.  The rim search
only knows them to its step, and on a stack the edges of two checkers lie
close together and pull a coarse search sideways.  So each accepted circle
is fitted: along each uncovered direction the strongest gradient within
the band about the radius is located to a fraction of a pixel (a parabola
through the peak), and the centre moves to where those edge points are
best one radius away.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.rim import COS, SIN, EdgeMap

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class FitConfig:
    """Thresholds of the centre fit."""

    enabled: bool = True
    inner: float = 0.86
    outer: float = 1.14
    """Band about the radius searched for the edge (fractions of the radius)."""
    samples: int = 15
    gradient: float = 2.0
    alignment: float = 0.9
    """An edge point counts when its gradient is this strong and this well aligned."""
    min_points: int = 12
    """Edge points a fit needs (else the centre stays)."""
    max_move: float = 0.15
    """The fit may move a centre by at most this many radii."""
    iterations: int = 2
    damping: float = 2.0
    """Added to the normal equations: with edge points on one side only, the centre moves
    little across them."""


def fit_centres(edges: EdgeMap, centres: Floats, radius: float,
                covered: npt.NDArray[np.bool_], config: FitConfig) -> Floats:
    """The fitted centres (n x 2) of circles near ``centres``; ``covered`` (n x 64) marks
    the directions whose rim lies under another checker."""
    if not config.enabled or len(centres) == 0:
        return centres
    scales = np.linspace(config.inner, config.outer, config.samples)
    ring_x = radius * scales[:, None] * COS[None, :]
    ring_y = radius * scales[:, None] * SIN[None, :]
    step = (scales[1] - scales[0]) * radius
    fitted = centres.astype(np.float64).copy()
    rows = np.arange(len(centres))[:, None]
    cols = np.arange(len(COS))[None, :]
    for _ in range(config.iterations):
        px = fitted[:, 0, None, None] + ring_x[None]
        py = fitted[:, 1, None, None] + ring_y[None]
        gx = _bilinear(edges.gx, px, py)
        gy = _bilinear(edges.gy, px, py)
        radial = np.abs(gx * COS + gy * SIN)
        peak = radial.argmax(axis=1)
        best = radial[rows, peak, cols]
        magnitude = np.hypot(gx[rows, peak, cols], gy[rows, peak, cols])  # at the peaks only
        ok = ((best >= config.gradient) & (best >= config.alignment * magnitude)
              & ~covered & (peak > 0) & (peak < config.samples - 1))
        below = radial[rows, np.maximum(peak - 1, 0), cols]
        above = radial[rows, np.minimum(peak + 1, config.samples - 1), cols]
        curve = below - 2.0 * best + above
        sub = np.where(curve < 0, 0.5 * (below - above) / np.where(curve < 0, curve, -1.0), 0.0)
        residual = np.where(ok, scales[peak] * radius + sub * step - radius, 0.0)
        w = ok.astype(np.float64)
        a = (w * COS * COS).sum(axis=1) + config.damping
        b = (w * COS * SIN).sum(axis=1)
        d = (w * SIN * SIN).sum(axis=1) + config.damping
        ex = (residual * COS).sum(axis=1)
        ey = (residual * SIN).sum(axis=1)
        det = a * d - b * b
        move = np.column_stack([(d * ex - b * ey) / det, (a * ey - b * ex) / det])
        move[ok.sum(axis=1) < config.min_points] = 0.0
        fitted += move
    shift = fitted - centres
    length = np.hypot(shift[:, 0], shift[:, 1])
    limit = config.max_move * radius
    scale = np.where(length > limit, limit / np.maximum(length, 1e-9), 1.0)
    return np.asarray(centres + shift * scale[:, None], dtype=np.float64)


def _bilinear(plane: npt.NDArray[np.float32], xs: Floats, ys: Floats) -> Floats:
    """Bilinear samples of a plane (clamped at its border)."""
    shape = xs.shape
    # Maps as rows of the last axis (64 directions): OpenCV remaps such a map three times
    # faster than a single column of the same points, with the same values.
    columns = shape[-1] if xs.ndim > 1 else 1
    sampled = cv2.remap(plane, xs.reshape(-1, columns).astype(np.float32),
                        ys.reshape(-1, columns).astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(sampled, dtype=np.float64).reshape(shape)
