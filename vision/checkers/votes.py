"""Where checkers may be: every edge pixel votes for the centres it could belong to.

A checker's radius is known in the rectified field, so an edge pixel on a
rim lies one radius from the centre, along its gradient (inward or outward,
depending on which side is darker).  Each pixel whose gradient stands above
the noise casts one vote at each of the two places; votes pile up at the
centres of circles of that radius.  A vote counts the same however strong
the edge is, so a faint black-on-felt rim votes as loudly as a crisp
white-on-black one: contrast decides nothing here, the rim test
(:mod:`.rim`) judges the candidates afterwards.  The votes are cast on a
grid of ``cell`` pixels, which is fine enough for candidates and keeps the
peak search cheap.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.rim import EdgeMap

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class VoteConfig:
    """Thresholds of the centre vote."""

    gradient: float = 2.0
    """Least gradient (as in :class:`~.rim.RimConfig`) of a voting pixel."""
    thin: bool = True
    """Only pixels on the crest of an edge vote (Canny's thinning): a third of the votes,
    sharper peaks."""
    cell: float = 2.0
    """Pixels per vote cell (at the field's reference width,
    ``CheckerConfig.reference_width``; need not be whole)."""
    sigma: float = 1.0
    """Smoothing of the vote grid, in cells (radius and centre tolerance)."""
    window: int = 5
    """A peak is the largest value in a window this many cells wide."""


def centre_votes(edges: EdgeMap, radius: float, config: VoteConfig) -> npt.NDArray[np.float32]:
    """The smoothed vote grid (cells of ``config.cell`` pixels)."""
    if config.thin:
        # Sobel on 8-bit images is 8 times the gradient in grey levels per pixel.
        thin = cv2.Canny(edges.blurred, 8.0 * config.gradient, 8.0 * config.gradient,
                         L2gradient=True)
    else:
        thin = (edges.magnitude >= config.gradient).astype(np.uint8)
    # OpenCV lists the set pixels in the order np.nonzero does, three times faster.
    found = cv2.findNonZero(thin)
    points = (np.zeros((0, 2), dtype=np.int32) if found is None
              else np.asarray(found, dtype=np.int32).reshape(-1, 2))
    xs, ys = points[:, 0], points[:, 1]
    at = ys.astype(np.intp) * edges.width + xs
    magnitude = edges.magnitude.ravel()[at]
    keep = magnitude > 0
    if not keep.all():  # a thin pixel at the border, where Canny's derivatives differ
        at, magnitude, xs, ys = at[keep], magnitude[keep], xs[keep], ys[keep]
    step = radius / magnitude
    ux = edges.gx.ravel()[at] * step
    uy = edges.gy.ravel()[at] * step
    cell = config.cell
    rows = int(np.ceil(edges.height / cell))
    cols = int(np.ceil(edges.width / cell))
    # Votes land at most a radius outside the image: they are cast on a grid with that
    # margin, in one count, and the margin is cut off (cheaper than dropping them first).
    margin = int(np.ceil(radius / cell)) + 2
    wide = cols + 2 * margin
    # (the coordinates are whole pixels plus float32 steps: exact in float64 either way)
    inverse = 1.0 / cell
    cells = []
    for cast in (np.add, np.subtract):  # one vote inward, one outward; in place: the same
        x, y = cast(xs, ux), cast(ys, uy)  # values with fewer arrays made
        x *= inverse
        x += 0.5
        y *= inverse
        y += 0.5
        cell_of = y.astype(np.int64)
        cell_of += margin
        cell_of *= wide
        cell_of += x.astype(np.int64)
        cell_of += margin
        cells.append(cell_of)
    votes = np.bincount(np.concatenate(cells), minlength=(rows + 2 * margin) * wide)
    grid = votes[:(rows + 2 * margin) * wide].reshape(rows + 2 * margin, wide)[
        margin:margin + rows, margin:margin + cols]
    smooth = cv2.GaussianBlur(grid.astype(np.float32), (0, 0), config.sigma)
    return np.asarray(smooth, dtype=np.float32)


def vote_peaks(grid: npt.NDArray[np.float32], threshold: float,
               config: VoteConfig) -> npt.NDArray[np.float64]:
    """Local maxima of the vote grid at or above ``threshold``: rows x, y (pixels), votes,
    strongest first."""
    kernel = np.ones((config.window, config.window), dtype=np.uint8)
    biggest = cv2.dilate(grid, kernel)
    rows, cols = np.nonzero((grid >= biggest) & (grid >= threshold))
    votes = grid[rows, cols].astype(np.float64)
    order = np.argsort(-votes, kind="stable")
    cell = float(config.cell)
    return np.column_stack([cols[order] * cell, rows[order] * cell, votes[order]])
