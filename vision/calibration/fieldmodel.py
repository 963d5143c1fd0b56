"""Does a quadrilateral hold a backgammon field?  A score from the board profile.

Lines in an image are cheap; a bright rectangle on a dark table has four of
them too.  What only a board has is the pattern inside: a bar down the middle
in the rails' colour, two rows of twelve points whose two colours alternate
(or, if both are alike, field-coloured gaps between them), bare field between
the point tips, and rails just outside the edges.  The profile says where each
of these lies in field coordinates, so a fixed set of sample positions, mapped
into the image through the candidate corners, measures all of it at once.

Nothing is assumed about the colours: the candidate's own field colour
(median of the bare field) and frame colour (median of the rails just outside
and the bar) define a line in colour space, and every sample is measured
along it, 0 at the frame and 1 at the field.  A cream field on dark rails, a
dark leather field on darker rails, green felt on brown wood and a field
darker than its rails all score alike, whatever the exposure.  Checkers,
dice and hands spoil some samples, which is why each part is a mean over
many; the outside and the edge step are judged side by side, since a wrong
candidate usually has three good sides and one that is not a side at all.
"""

import warnings
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.observation import Corners
from vision.profile import BoardProfile

Floats = npt.NDArray[np.float64]
Plane = npt.NDArray[np.float32]
_RAMP = 0.6
"""Width of the soft cut between frame and field levels (on the 0..1 frame-to-field line)."""
_OUTSIDE_KEPT = 0.6
"""Part of each side's outside samples judged (the most frame-like): an arm or a die on a
rail hides the rest."""
_POINT_CONTRAST = 0.15
"""Least distance, relative to the field-to-frame contrast, between a point colour and the
field (else those points are not checked), and between the two point colours (else they
count as one)."""
"""Width of the soft cut between frame and field levels (on the 0..1 frame-to-field line)."""


@dataclass(frozen=True, slots=True)
class FieldScore:
    """How much a quadrilateral looks like the profile's field (each part 0..1)."""

    light: float
    """Mean level where the field is bare (between the tips, beside the outer points, in
    the gaps between points): near 1 when the bare field is all of one colour."""
    outside: float
    """Mean level in thin bands just outside an edge (the rails), on the worst of the four
    sides, of the 60 % of samples nearest the frame colour: near 0."""
    bar: float
    """Mean level of the half of the bar's samples nearest the frame colour: near 0, and
    still near 0 with checkers on the bar or an arm across half of it."""
    points: float
    """The part of a row's 12 points seen where and as the profile draws them (colours
    alternating, field beside them and beyond their tips, rail beyond their bases), in
    the worse of the two rows."""
    edges: float
    """Mean step from field (or point) just inside a side to frame just outside it, in how
    much further from the frame colour the inside is than the outside, on the weakest of
    the four sides and the bar's two edges: high along the whole length of a true side,
    low on a line that only grazes a point's flank."""
    contrast: float
    """Distance between the candidate's field and frame colours (levels of the image)."""
    step: tuple[float, ...] = ()
    """The field's colour minus the frame's (one value per channel of the image)."""

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
    points: Floats
    """All point samples (``colour_a`` then ``colour_b``), with ``point_ids`` saying whose."""
    point_ids: npt.NDArray[np.int64]
    point_a: npt.NDArray[np.bool_]
    """Per point (0-23 in the order of ``point_ids``): True where it takes colour a."""
    beside: Floats
    """Field beside each point, towards its tip, with ``beside_ids`` saying whose."""
    beside_ids: npt.NDArray[np.int64]
    tip_in: Floats
    """On each point's axis just short of its tip (point colour)."""
    tip_in_ids: npt.NDArray[np.int64]
    tip_out: Floats
    """On each point's axis just beyond its tip (field colour)."""
    tip_out_ids: npt.NDArray[np.int64]
    base_out: Floats
    """On the rail just beyond each point's base (frame colour)."""
    base_out_ids: npt.NDArray[np.int64]
    outside_side: npt.NDArray[np.int64]
    """Which side (0 top, 1 right, 2 bottom, 3 left) each ``outside`` sample is beyond."""
    rim_in: Floats
    """Just inside the four sides, paired one to one with ``rim_out``."""
    rim_out: Floats
    rim_side: npt.NDArray[np.int64]
    """0-3 as for ``outside_side``, then 4 and 5 for the bar's left and right edge."""
    inside: Floats
    """Spread over the whole field, to find the candidate's dark and light levels."""


def score_field(image: Plane, corners: Corners, profile: BoardProfile) -> FieldScore:
    """Score the quadrilateral ``corners`` in ``image`` (float32, grey or colour).

    The candidate's own field colour ``F`` (median of the bare field) and frame
    colour ``R`` (median of the rails just outside and the bar) set the scale:
    every sample is projected on the line from ``R`` (level 0) to ``F`` (level
    1), so the field may be lighter or darker than the rails, or differ only in
    hue, and the parts below mean the same on every board.
    """
    samples = _samples(profile)
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    dst = np.array(corners.as_list(), dtype=np.float32)
    homography = np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)

    def read(uv: Floats) -> Floats:
        raw = _read(image, homography, uv)
        return raw[np.isfinite(raw).all(axis=1)]

    inside = read(samples.inside)
    if len(inside) < 0.5 * len(samples.inside):
        return FieldScore(0.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    bare, frame = read(samples.light), read(np.concatenate([samples.outside, samples.bar]))
    if len(bare) == 0 or len(frame) == 0:
        return FieldScore(0.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    field_colour, frame_colour = np.median(bare, axis=0), np.median(frame, axis=0)
    axis = field_colour - frame_colour
    contrast = float(np.linalg.norm(axis))
    if contrast <= 1.0:
        return FieldScore(0.0, 1.0, 1.0, 0.0, 0.0, contrast)
    axis /= contrast * contrast

    def norm(raw: Floats) -> Floats:
        """Levels on the frame-to-field line, 0 at the frame, 1 at the field, softly cut."""
        level = (raw - frame_colour) @ axis
        return np.asarray(np.clip((level - 0.5) / _RAMP + 0.5, 0.0, 1.0), dtype=np.float64)

    def level(uv: Floats, part: float = 1.0) -> float:
        """Mean normalised level (of the darkest ``part`` of the samples)."""
        raw = read(uv)
        if len(raw) == 0:
            return 0.5
        levels = np.sort(norm(raw))
        return float(levels[:max(1, round(part * len(levels)))].mean())

    def colour(uv: Floats) -> Floats:
        raw = read(uv)
        return np.asarray(np.median(raw, axis=0) if len(raw) else field_colour,
                          dtype=np.float64)

    light = level(np.concatenate([samples.light, samples.gaps]))
    a, b = colour(samples.colour_a), colour(samples.colour_b)
    points = _points(_read(image, homography, samples.points),
                     _read(image, homography, samples.beside),
                     _read(image, homography, samples.tip_in),
                     _read(image, homography, samples.tip_out),
                     _read(image, homography, samples.base_out), samples, a, b,
                     np.asarray(field_colour, dtype=np.float64),
                     np.asarray(frame_colour, dtype=np.float64), contrast)
    bar = level(samples.bar, 0.5) if len(samples.bar) else 0.0
    rim_in = _read(image, homography, samples.rim_in)
    rim_out = _read(image, homography, samples.rim_out)
    both = np.isfinite(rim_in).all(axis=1) & np.isfinite(rim_out).all(axis=1)
    # Field or point just inside, frame just outside: the step is how much further the
    # inside is from the frame colour than the outside (points of any colour count).
    away_in = np.linalg.norm(rim_in[both] - frame_colour, axis=1)
    away_out = np.linalg.norm(rim_out[both] - frame_colour, axis=1)
    steps = np.clip((away_in - away_out) / contrast, 0.0, 1.0)
    edges = min(_side_mean(steps, samples.rim_side[both], 0.0,
                           int(samples.rim_side.max()) + 1))
    out = _read(image, homography, samples.outside)
    seen = np.isfinite(out).all(axis=1)
    outside = max(_side_mean(norm(out[seen]), samples.outside_side[seen], 0.5,
                             keep=_OUTSIDE_KEPT))
    return FieldScore(light, outside, bar, points, edges, contrast,
                      tuple(float(c) for c in field_colour - frame_colour))


def _points(raw: Floats, beside: Floats, tip_in: Floats, tip_out: Floats, base_out: Floats,
            samples: "_Samples", a: Floats, b: Floats, field: Floats, frame: Floats,
            contrast: float) -> float:
    """The part of a row's points seen where and as the profile says, in the worse row.

    A point counts when its median colour is nearer to its own colour than to the
    field's (and, if the two point colours differ, than to the other one), the field
    beside it is nearer to the field's colour than to the point's, and so is the field
    just beyond its tip, while its axis just short of the tip is the point's colour and
    the rail just beyond its base is nearer to the frame's colour than to the point's
    (unless the two are alike, as black points on black rails): a
    candidate off by a point, half a point, a tray or a row of checkers gets that wrong.
    """
    least = _POINT_CONTRAST * contrast
    visible = (float(np.linalg.norm(a - field)) >= least, float(np.linalg.norm(b - field)) >= least)
    if not any(visible):
        return 0.0
    distinct = float(np.linalg.norm(a - b)) >= least

    def medians(values: Floats, ids: npt.NDArray[np.int64]) -> Floats:
        """Per point (rows 0-23), the median of its samples; NaN where none is seen.
        Every point has as many samples as any other in each set."""
        grouped = values[np.argsort(ids, kind="stable")].reshape(len(samples.point_a), -1,
                                                                  values.shape[1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a point with none seen
            return np.asarray(np.nanmedian(grouped, axis=1), dtype=np.float64)

    body = medians(raw, samples.point_ids)
    side = medians(beside, samples.beside_ids)
    short = medians(tip_in, samples.tip_in_ids)
    beyond = medians(tip_out, samples.tip_out_ids)
    rail = medians(base_out, samples.base_out_ids)

    def near(colour: Floats, own: Floats, other: Floats) -> bool:
        return float(np.linalg.norm(colour - own)) < float(np.linalg.norm(colour - other))

    good = np.zeros(2)
    checked = np.zeros(2)
    for point, is_a in enumerate(samples.point_a):
        if not visible[0 if is_a else 1]:
            continue  # points of a colour too near the field's cannot be checked
        row = point % 2
        checked[row] += 1
        if not all(np.isfinite(m[point]).all() for m in (body, side, short, beyond, rail)):
            continue
        own, other = (a, b) if is_a else (b, a)
        m = body[point]
        if (near(m, own, field) and (not distinct or near(m, own, other))
                and near(side[point], field, own) and near(short[point], own, field)
                and near(beyond[point], field, own)
                and (float(np.linalg.norm(own - frame)) < least
                     or near(rail[point], frame, own))):
            good[row] += 1
    # Each row on its own: a wrong top or bottom edge spoils only one of them.
    return float(min(good / np.maximum(checked, 1.0)))


def _side_mean(values: Floats, sides: npt.NDArray[np.int64], empty: float,
               count: int = 4, keep: float = 1.0) -> list[float]:
    """The mean of the lowest ``keep`` part of ``values`` on each side (``empty`` for a side
    with none)."""
    out = []
    for side in range(count):
        mine = np.sort(values[sides == side])
        mine = mine[:max(1, round(keep * len(mine)))] if len(mine) else mine
        out.append(float(mine.mean()) if len(mine) else empty)
    return out


def _read(image: Plane, homography: npt.NDArray[np.float64], uv: Floats) -> Floats:
    """Bilinear samples at field coordinates, one row per sample; NaN outside the image."""
    pts = np.concatenate([uv, np.ones((len(uv), 1))], axis=1) @ np.asarray(homography).T
    xy = (pts[:, :2] / pts[:, 2:3]).astype(np.float32)
    nan = float("nan")
    out = cv2.remap(image, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=(nan, nan, nan, nan))
    return np.asarray(out, dtype=np.float64).reshape(len(uv), -1)


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
    for d in (0.007, 0.009):  # within the narrowest rail: between the field and a tray
        outside += [pairs(along, np.array([-d])), pairs(np.array([1 + d]), along),
                    pairs(along, np.array([1 + d])), pairs(np.array([-d]), along)]

    halves = np.concatenate([np.linspace(0.01, bar_left - 0.01, 40),
                             np.linspace(bar_right + 0.01, 0.99, 40)])
    # The middle of the field, between the tips of the two rows.
    light = [pairs(halves, np.linspace(reach + 0.02, 1.0 - reach - 0.02, 5)
                   if reach < 0.48 else np.array([0.5]))]
    gaps: list[Floats] = []
    colour_a: list[Floats] = []
    colour_b: list[Floats] = []
    ids_a: list[int] = []
    ids_b: list[int] = []
    beside: list[Floats] = []
    beside_ids: list[int] = []
    tip_in: list[Floats] = []
    tip_in_ids: list[int] = []
    tip_out: list[Floats] = []
    tip_out_ids: list[int] = []
    base_out: list[Floats] = []
    base_out_ids: list[int] = []
    for k in range(12):
        left = column_left(k)
        middle = left + 0.5 * pw
        for top in (True, False):
            point = 2 * k + (0 if top else 1)
            for v in (0.02, 0.06, 0.12, 0.2, 0.28):
                if v >= reach * 0.8:
                    continue
                half = 0.5 * pw * (1.0 - v / reach)
                us = middle + np.array([-0.4, 0.0, 0.4]) * half
                vs = np.full(3, v if top else 1.0 - v)
                # Facing points differ in colour, and colours alternate along a row.
                is_a = (k + (0 if top else 1)) % 2 == 0
                (colour_a if is_a else colour_b).append(np.stack([us, vs], axis=1))
                (ids_a if is_a else ids_b).extend([point] * 3)
            for v in (0.55, 0.75, 0.9):  # fractions of the reach: the gaps widen
                depth = v * reach
                gap = 0.5 * pw * (depth / reach)
                at = depth if top else 1.0 - depth
                # Beside the point, on both sides: field (rails and bar kept clear of).
                u_left = left + 0.5 * gap if k in (0, 6) else left
                u_right = left + pw - 0.5 * gap if k in (5, 11) else left + pw
                beside.append(np.array([[u_left, at], [u_right, at]]))
                beside_ids.extend([point] * 2)
                if k not in (0, 6):  # the gap between this point and the one on its left
                    gaps.append(np.array([[left, at]]))
                if k in (0, 11):  # between the outer point and the side rail
                    u = 0.5 * gap if k == 0 else 1.0 - 0.5 * gap
                    light.append(np.array([[u, at]]))
            # The tip: point colour on the axis just short of it, field just beyond it.
            for short_of, target, ids in ((0.06, tip_in, tip_in_ids), (0.1, tip_in, tip_in_ids),
                                          (-0.03, tip_out, tip_out_ids)):
                v = reach - short_of
                target.append(np.array([[middle, v if top else 1.0 - v]]))
                ids.append(point)
            # The base: the rail just beyond it (a line along a row of checkers has the
            # points going on beyond it).
            beyond = -0.012 if top else 1.012
            base_out.append(np.array([[middle - 0.25 * pw, beyond], [middle, beyond],
                                      [middle + 0.25 * pw, beyond]]))
            base_out_ids.extend([point] * 3)
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
        if profile.bar_width >= 0.02:  # the bar's edges: field outside, frame inside
            target += [pairs(np.array([bar_left - d]), rim),
                       pairs(np.array([bar_right + d]), rim)]
    sides = np.arange(4, dtype=np.int64)
    point_a = np.array([(k + p) % 2 == 0 for k in range(12) for p in (0, 1)])
    return _Samples(np.concatenate(light), np.concatenate(outside), bar,
                    np.concatenate(gaps), np.concatenate(colour_a), np.concatenate(colour_b),
                    np.concatenate(colour_a + colour_b), np.array(ids_a + ids_b, np.int64),
                    point_a, np.concatenate(beside), np.array(beside_ids, np.int64),
                    np.concatenate(tip_in), np.array(tip_in_ids, np.int64),
                    np.concatenate(tip_out), np.array(tip_out_ids, np.int64),
                    np.concatenate(base_out), np.array(base_out_ids, np.int64),
                    np.tile(np.repeat(sides, len(along)), 2),
                    np.concatenate(rim_in), np.concatenate(rim_out),
                    np.repeat(np.arange(len(rim_in), dtype=np.int64), len(rim)), inside)
