"""Which of two overlapping checkers lies on top.

Where two checkers overlap, the upper one's rim runs across the lower one's
face, in plain view, while the lower one's rim under the upper one is
hidden.  So each circle's rim is looked at *inside the other's disc*
(clear of the other's own rim, where both edges mingle): the circle whose
rim shows there is on top.  The stack reading needs this to tell a third
layer lying right over the row (a shift of half a diameter, twice) from the
row checker beneath it.
"""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.checkers.rim import COS, SIN, EdgeMap, RimConfig, rim_evidence

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class OverlapConfig:
    """Thresholds of the z-order test."""

    overlap: float = 1.9
    """Circles closer than this many radii overlap."""
    inside: float = 0.85
    """A rim point counts as inside the other disc within this many of its radii."""
    min_points: int = 4
    """Rim points inside the other disc needed to judge by."""


def covered_shares(edges: EdgeMap, centres: Floats, radius: float, rim: RimConfig,
                   config: OverlapConfig) -> list[float]:
    """For each circle, the share of its rim lying under circles found to be on top of it;
    ``centres`` in the order they were found (an earlier circle wins a tie)."""
    n = len(centres)
    if n == 0:
        return []
    hit, seen = rim_evidence(edges, centres[:, 0], centres[:, 1], radius, rim)
    px = centres[:, 0, None] + radius * COS[None, :]
    py = centres[:, 1, None] + radius * SIN[None, :]
    above: list[list[int]] = [[] for _ in range(n)]
    apart = centres[:, None, :] - centres[None, :, :]
    close = np.hypot(apart[..., 0], apart[..., 1]) < config.overlap * radius
    # The pairs that overlap, in the order a nested loop meets them (a first, then b).
    for first, second in zip(*np.nonzero(np.triu(close, 1)), strict=True):
        a, b = int(first), int(second)
        a_shows = _showing(px[a], py[a], hit[a], seen[a], centres[b], radius, config)
        b_shows = _showing(px[b], py[b], hit[b], seen[b], centres[a], radius, config)
        if b_shows > a_shows:
            above[a].append(b)
        else:
            above[b].append(a)
    shares = []
    for i in range(n):
        if not above[i]:
            shares.append(0.0)
            continue
        tops = centres[above[i]]
        under = ((px[i][:, None] - tops[None, :, 0]) ** 2
                 + (py[i][:, None] - tops[None, :, 1]) ** 2 < radius ** 2).any(axis=1)
        shares.append(float(under.mean()))
    return shares


def _showing(px: Floats, py: Floats, hit: npt.NDArray[np.bool_], seen: npt.NDArray[np.bool_],
             other: Floats, radius: float, config: OverlapConfig) -> float:
    """Share of a rim's points inside the other disc that show an aligned edge."""
    inside = seen & ((px - other[0]) ** 2 + (py - other[1]) ** 2
                     < (config.inside * radius) ** 2)
    count = int(inside.sum())
    if count < config.min_points:
        return 0.0
    return float((hit & inside).sum()) / count
