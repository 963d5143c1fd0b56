"""Does a quadrilateral hold a backgammon field?  A score from the board profile.

Lines in an image are cheap; a bright rectangle on a dark table has four of
them too.  What only a board has is the pattern inside: a dark bar down the
middle, two rows of twelve points whose two colours alternate (or, if both
are dark, light gaps between them), light field between the point tips, and
dark rails just outside the edges.  The profile says where each of these lies
in field coordinates, so a fixed set of sample positions, mapped into the
image through the candidate corners, measures all of it at once.

Brightness is normalised per candidate (its own dark and light levels), so
the score does not depend on the exposure.  Checkers, dice and hands spoil
some samples, which is why each part is a mean over many.
"""

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.observation import Corners
from vision.profile import BoardProfile

Floats = npt.NDArray[np.float64]
Plane = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class FieldScore:
    """How much a quadrilateral looks like the profile's field (each part 0..1)."""

    light: float
    """Mean normalised brightness where the field is bare (between the tips, beside the
    outer points, in the gaps between points): should be near 1."""
    outside: float
    """Mean brightness in thin bands just outside the four edges (the rails): near 0."""
    bar: float
    """Mean brightness of the darker half of the bar's samples: near 0, and still near 0
    with checkers on the bar or an arm across half of it."""
    points: float
    """Contrast of the points' pattern: the two point colours against each other, or
    the points against the light gaps, whichever is larger."""
    edges: float
    """Mean step from light just inside each side to dark just outside it: high along
    the whole length of a true side, low on a line that only grazes a point's flank."""
    contrast: float
    """Grey levels between the candidate's dark and light levels."""

    @property
    def total(self) -> float:
        """The five parts combined, 0..1."""
        return (self.light + (1.0 - self.outside) + (1.0 - self.bar) + self.points
                + self.edges) / 5.0

    def as_dict(self) -> dict[str, float]:
        return {"total": round(self.total, 3), "light": round(self.light, 3),
                "outside": round(self.outside, 3), "bar": round(self.bar, 3),
                "points": round(self.points, 3), "edges": round(self.edges, 3),
                "contrast": round(self.contrast, 1)}


@dataclass(frozen=True, slots=True)
class _Samples:
    light: Floats
    outside: Floats
    bar: Floats
    gaps: Floats
    colour_a: Floats
    colour_b: Floats
    rim_in: Floats
    """Just inside the four sides, paired one to one with ``rim_out``."""
    rim_out: Floats
    inside: Floats
    """Spread over the whole field, to find the candidate's dark and light levels."""


def score_field(value: Plane, corners: Corners, profile: BoardProfile) -> FieldScore:
    """Score the quadrilateral ``corners`` in a grey image ``value`` (float32)."""
    samples = _samples(profile)
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    dst = np.array(corners.as_list(), dtype=np.float32)
    homography = np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)

    def read(uv: Floats) -> Floats:
        return _read(value, homography, uv)

    inside = read(samples.inside)
    valid = inside[np.isfinite(inside)]
    if len(valid) < 0.5 * len(inside):
        return FieldScore(0.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    dark, bright = (float(v) for v in np.percentile(valid, [10.0, 90.0]))
    contrast = bright - dark
    if contrast <= 1.0:
        return FieldScore(0.0, 1.0, 1.0, 0.0, 0.0, contrast)
    middle, ramp = 0.5 * (dark + bright), 0.3 * contrast

    def norm(raw: Floats) -> Floats:
        return np.asarray(np.clip((raw - middle) / ramp + 0.5, 0.0, 1.0), dtype=np.float64)

    def level(uv: Floats, part: float = 1.0) -> float:
        """Mean normalised level (of the darkest ``part`` of the samples)."""
        raw = read(uv)
        raw = raw[np.isfinite(raw)]
        if len(raw) == 0:
            return 0.5
        levels = np.sort(norm(raw))
        return float(levels[:max(1, round(part * len(levels)))].mean())

    light, gaps = level(samples.light), level(samples.gaps)
    a, b = level(samples.colour_a), level(samples.colour_b)
    bar = level(samples.bar, 0.5) if len(samples.bar) else 0.0
    points = max(abs(a - b), gaps - 0.5 * (a + b), 0.0)
    rim_in, rim_out = read(samples.rim_in), read(samples.rim_out)
    both = np.isfinite(rim_in) & np.isfinite(rim_out)
    steps = norm(rim_in[both]) - norm(rim_out[both])
    edges = float(np.clip(steps, 0.0, 1.0).mean()) if len(steps) else 0.0
    return FieldScore(light, level(samples.outside), bar, points, edges, contrast)


def _read(value: Plane, homography: npt.NDArray[np.float64], uv: Floats) -> Floats:
    """Bilinear samples at field coordinates; NaN outside the image."""
    pts = np.concatenate([uv, np.ones((len(uv), 1))], axis=1) @ np.asarray(homography).T
    xy = (pts[:, :2] / pts[:, 2:3]).astype(np.float32)
    out = cv2.remap(value, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))
    return np.asarray(out, dtype=np.float64).ravel()


@lru_cache(maxsize=8)
def _samples(profile: BoardProfile) -> _Samples:
    """Sample positions (u, v) of each part of the field, from the profile."""
    pw, reach = profile.point_width, profile.point_length
    bar_left, bar_right = profile.bar_span

    def column_left(k: int) -> float:
        """Left edge of the k-th point column counted left to right (0-11)."""
        return k * pw if k < 6 else bar_right + (k - 6) * pw

    def pairs(us: Floats, vs: Floats) -> Floats:
        uu, vv = np.meshgrid(us, vs)
        return np.stack([uu.ravel(), vv.ravel()], axis=1)

    along = np.linspace(0.01, 0.99, 90)
    outside: list[Floats] = []
    for d in (0.008, 0.016):
        outside += [pairs(along, np.array([-d])), pairs(along, np.array([1 + d])),
                    pairs(np.array([-d]), along), pairs(np.array([1 + d]), along)]

    halves = np.concatenate([np.linspace(0.01, bar_left - 0.01, 40),
                             np.linspace(bar_right + 0.01, 0.99, 40)])
    # The middle of the field, between the tips of the two rows.
    light = [pairs(halves, np.linspace(reach + 0.02, 1.0 - reach - 0.02, 5)
                   if reach < 0.48 else np.array([0.5]))]
    gaps: list[Floats] = []
    colour_a: list[Floats] = []
    colour_b: list[Floats] = []
    for k in range(12):
        left = column_left(k)
        middle = left + 0.5 * pw
        for top in (True, False):
            for v in (0.02, 0.06, 0.12, 0.2, 0.28):
                if v >= reach * 0.8:
                    continue
                half = 0.5 * pw * (1.0 - v / reach)
                us = middle + np.array([-0.4, 0.0, 0.4]) * half
                vs = np.full(3, v if top else 1.0 - v)
                # Facing points differ in colour, and colours alternate along a row.
                target = colour_a if (k + (0 if top else 1)) % 2 == 0 else colour_b
                target.append(np.stack([us, vs], axis=1))
            for v in (0.55, 0.75, 0.9):  # fractions of the reach: the gaps widen
                depth = v * reach
                gap = 0.5 * pw * (depth / reach)
                at = depth if top else 1.0 - depth
                if k not in (0, 6):  # the gap between this point and the one on its left
                    gaps.append(np.array([[left, at]]))
                if k in (0, 11):  # between the outer point and the side rail
                    u = 0.5 * gap if k == 0 else 1.0 - 0.5 * gap
                    light.append(np.array([[u, at]]))
    bar = (pairs(np.linspace(0.5 - profile.bar_width / 3, 0.5 + profile.bar_width / 3, 3),
                 np.linspace(0.02, 0.98, 40)) if profile.bar_width >= 0.02
           else np.zeros((0, 2)))
    inside = pairs(np.linspace(0.02, 0.98, 30), np.linspace(0.02, 0.98, 30))
    rim = np.linspace(0.03, 0.97, 60)
    rim_in: list[Floats] = []
    rim_out: list[Floats] = []
    for d, target in ((0.006, rim_in), (-0.006, rim_out)):
        target += [pairs(rim, np.array([d])), pairs(np.array([1.0 - d]), rim),
                   pairs(rim, np.array([1.0 - d])), pairs(np.array([d]), rim)]
    return _Samples(np.concatenate(light), np.concatenate(outside), bar,
                    np.concatenate(gaps), np.concatenate(colour_a), np.concatenate(colour_b),
                    np.concatenate(rim_in), np.concatenate(rim_out), inside)
