"""Checkers in the rectified field: circles of the known radius with a rim all round.

In the rectified image every checker is a circle of (nearly) the same,
known diameter: a point's width times the profile's ``checker_diameter``.
Candidates come from centre votes (:mod:`.votes`), each is moved to where
its rim evidence (:mod:`.rim`) is best, and it is kept when enough of its
rim shows an aligned edge.

Checkers in a second or third layer cover part of those under them, so a
covered checker shows only part of its rim.  Detection therefore runs in
rounds: first the circles whose rim is (nearly) complete, the top of every
stack; then candidates beside them are judged on the part of their rim
that no accepted circle covers, with a stricter share and a least number
of directions left to judge by.  A covered checker must lie *under* its
cover, so its uncovered rim is where the evidence must be; the shadow or
outline of a checker, which imitates a circle slightly offset from it, is
only trusted when the rule is met on enough directions.
"""

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.fit import FitConfig, fit_centres
from vision.checkers.overlap import OverlapConfig, covered_shares
from vision.checkers.rim import (
    DIRECTIONS,
    EdgeMap,
    RimConfig,
    covered_directions,
    rim_evidence,
    rim_scores,
)
from vision.checkers.votes import VoteConfig, centre_votes, vote_peaks
from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class DetectConfig:
    """Thresholds of the circle search (distances in expected radii)."""

    rim: RimConfig = field(default_factory=RimConfig)
    votes: VoteConfig = field(default_factory=VoteConfig)
    accumulator: float = 5.0
    """Votes a candidate centre needs: lower finds fainter circles (and costs time)."""
    rim_score: float = 0.8
    """Share of the rim directions with an aligned edge that a whole circle needs.  Fully
    visible checkers score 0.85-1.0 on the renders, everything else under 0.8."""
    refine_steps: tuple[float, ...] = (0.16, 0.08)
    """Steps of the 3 x 3 searches around a candidate, in radii, one pass each: a vote
    peak can lie a few pixels off the centre."""
    edge_margin: float = 0.5
    """A centre lies at least this far inside the image (radii): checkers lie on the field,
    and a circle cut by the border is judged on too little.  Not more: on the outer
    points a checker's centre lies about one radius from the border, and a higher layer,
    standing above the board, is seen further out (0.7 missed such checkers in the
    field's corners on the tune renders; 0.35-0.5 read the same)."""
    border_score: float = 0.7
    """``rim_score`` for a circle whose rim runs past the image's border (its centre
    within a radius of it): a checker in a corner of the field has its rim against the
    rail's edge and the border on a quarter of its directions, where the edge map is
    weak (such checkers, one half under a die, scored 0.77-0.78 on the tune renders and
    were missed).  Only for circles clear of a stack's checkers (``border_clear``).  On
    the tune renders (seed 21, 1,000) 0.6-0.72 read the same, with no circle more; 0.75
    still missed one."""
    border_clear: float = 2.2
    """... when no circle accepted in line with it along its point lies closer than this
    (radii): on an outer point a stack's checkers lie a radius from the border too, and a
    higher layer's outline among them scored as high (a drawn stack of eight read nine).
    Two touching checkers are 2.06 radii apart; 2.2 leaves room for the cover's edge
    (``cover_margin``).  A neighbouring point's checker, beside it, does not count: in
    the field's corners they came within 1.9 radii (tune seed 21, scene 674)."""
    min_distance: float = 0.35
    """Least distance between two centres: a checker on a second layer sits at least this
    far along from the one under it (players shift layers)."""
    partial_score: float = 0.8
    """Share of its *uncovered* rim directions a partly covered circle needs."""
    partial_seen: int = 24
    """Uncovered directions (of 64) a partly covered circle needs to be judged at all."""
    partial_reach: float = 2.05
    """A candidate this close to an accepted circle may be partly covered by it."""
    cover_margin: float = 0.1
    """A cover hides rim points out to this fraction of its radius beyond its own rim (its
    own edge and shadow lie there)."""
    partial_rounds: int = 3
    glare_width: float = 0.42
    """A whole circle whose rim's edge is this wide (radii; the median over its directions
    of the summed step along the ray, 0.6-1.4 radii, over its largest step) and whose
    inside keeps rising towards its centre (``glare_rise``) is a lamp's reflection on the
    field, no checker (see :func:`glare_spots`): a soft bright spot has aligned gradients
    all round and passes the rim test, but a checker's rim is a step, however blurred, and
    its face is flat.  Checker bench tune seeds 90 and 92: spots on a blue field made a
    stack of five on an empty point (90/153, 0.46 wide, rise 2.9) and a row of four a
    sixth checker past an empty slot (92/78, 0.60, rise 4.8); a third lay among the
    points' tips (bear-off seed 111, scene 97: 0.56, 4.1; dropped as a stray anyway).  Of
    the 16,964 circles found on seeds 90-91 the widest rims that were checkers stood at
    0.39 (a black checker on a red point in a blurred render, rise 0.25) and 0.38; on
    tune seeds 90-93 and bear-off 111 (36,191 whole and covered circles) the rule drops
    those three spots and nothing else.  0: off."""
    glare_rise: float = 1.0
    """... its grey falling from 0.15 to 0.65 radii by at least this share of the rim's
    largest step, in the rim's sense (the spots 2.9-4.8; the checkers whose rims are
    wider than 0.35 radii at most 0.25)."""
    glare_clear: float = 2.6
    """... judged only for circles with no other whole circle within this many radii (two
    touching checkers lie 2.06 apart, ``CountConfig.link`` 2.6): a lamp's spot lies on
    the open field (the three above 4.3 radii or more from any checker), and most
    checkers lie in stacks, so most frames judge a few lone checkers only."""
    glare_step: float = 1.0
    """... the grey read along each ray this many pixels apart (a pixel at the field's
    reference width, ``CheckerConfig.reference_width``): the rim's edge width is the
    number of steps its grey changes over, and a step of 2 grey levels or more counts
    (scaled with the field's width: see ``CheckerConfig.at_width``)."""
    fit: FitConfig = field(default_factory=FitConfig)
    overlap: OverlapConfig = field(default_factory=OverlapConfig)


@dataclass(frozen=True, slots=True)
class Circle:
    """A checker seen from above, in rectified-image pixels."""

    x: float
    y: float
    radius: float
    covered: float = 0.0
    """Share of its rim under checkers lying on top of it (0 for a checker on top)."""


def expected_radius(profile: BoardProfile, width: int) -> float:
    """A checker's radius in a rectified field image ``width`` pixels wide."""
    return 0.5 * profile.point_width * profile.checker_diameter * width


def edge_map(field_image: Image, profile: BoardProfile,
             config: DetectConfig | None = None) -> EdgeMap:
    """The edge map of a rectified field image (BGR), for :func:`find_circles`."""
    config = config or DetectConfig()
    gray = np.asarray(cv2.cvtColor(field_image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    return EdgeMap.of(gray, expected_radius(profile, field_image.shape[1]), config.rim)


def find_circles(field_image: Image, profile: BoardProfile,
                 config: DetectConfig | None = None,
                 edges: EdgeMap | None = None) -> list[Circle]:
    """Checker circles in a rectified field image (BGR): whole ones first, then partly
    covered ones, in the order they were accepted."""
    config = config or DetectConfig()
    radius = expected_radius(profile, field_image.shape[1])
    edges = edges or edge_map(field_image, profile, config)
    grid = centre_votes(edges, radius, config.votes)
    candidates = vote_peaks(grid, config.accumulator, config.votes)[:, :2]
    if len(candidates) == 0:
        return []
    centres = candidates
    scores = np.zeros(len(centres))
    for step in config.refine_steps:
        scores, centres = refine(edges, centres, radius, None, config, step)
    accepted: list[tuple[float, float]] = []
    _accept(accepted, scores, centres, config.rim_score, config.min_distance * radius)
    if config.border_score < config.rim_score:
        _accept_at_border(accepted, scores, centres, radius, edges, config)
    if config.glare_width > 0.0 and accepted:
        soft = glare_spots(edges.blurred, np.array(accepted, dtype=np.float64), radius,
                           config)
        accepted = [c for c, drop in zip(accepted, soft, strict=True) if not drop]
    whole = len(accepted)
    for _ in range(config.partial_rounds):
        if not _partial_round(edges, accepted, centres, radius, config):
            break
    fitted = _fitted(edges, accepted, whole, radius, config)
    shares = covered_shares(edges, fitted, radius, config.rim, config.overlap)
    return [Circle(float(x), float(y), radius, share)
            for (x, y), share in zip(fitted, shares, strict=True)]


_SPOT_ANGLES = np.linspace(0.0, 2.0 * np.pi, DIRECTIONS, endpoint=False)


def glare_spots(blurred: npt.NDArray[np.uint8], centres: Floats, radius: float,
                config: DetectConfig) -> npt.NDArray[np.bool_]:
    """Which circles (centres, n x 2) are a lamp's soft reflection rather than a checker
    (see ``DetectConfig.glare_width``): along each direction the grey from 0.6 to 1.4
    radii, ``glare_step`` pixels a step; the rim's edge width (pixels) is the summed step
    over the largest, times the step (directions whose largest step is under 2 grey
    levels, or that leave the image, are not judged; a circle needs 16 judged), and the
    rise the grey's fall from 0.15 to 0.65 radii over the largest step, signed as the
    rim's step.

    Only circles with no other within ``glare_clear`` radii are judged: a spot lies on the
    open field, and most checkers lie in stacks.  A positive ``glare_rise`` needs a fall
    of at least that many times the largest step (2 grey levels or more), in the rim's
    sense (the grey at the ray's ends), in half the judged directions, 8 at least: the
    rims of the circles whose grey falls so in fewer directions are not read (the same
    answer for less: most checkers' faces are flat or shaded the other way)."""
    n = len(centres)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    gaps = np.hypot(centres[:, None, 0] - centres[None, :, 0],
                    centres[:, None, 1] - centres[None, :, 1])
    np.fill_diagonal(gaps, np.inf)
    alone = np.flatnonzero(gaps.min(axis=1) >= config.glare_clear * radius)
    height, width = blurred.shape[:2]
    cos, sin = np.cos(_SPOT_ANGLES), np.sin(_SPOT_ANGLES)
    along = np.arange(0.6 * radius, 1.4 * radius + 1e-9, config.glare_step)
    reach = int(np.ceil(1.4 * radius)) + 2
    for i in alone:
        x, y = float(centres[i, 0]), float(centres[i, 1])
        x0, y0 = max(int(x) - reach, 0), max(int(y) - reach, 0)
        patch = blurred[y0:min(int(y) + reach + 1, height),
                        x0:min(int(x) + reach + 1, width)].astype(np.float32)

        def ray(steps: Floats, cx: float = x, cy: float = y, px: int = x0, py: int = y0,
                grey: npt.NDArray[np.float32] = patch) -> tuple[Floats, npt.NDArray[np.bool_]]:
            """The grey at ``steps`` pixels along every direction, and which directions
            stay inside the image."""
            xs = cx + steps[None, :] * cos[:, None]
            ys = cy + steps[None, :] * sin[:, None]
            inside = ((xs >= 0.0) & (xs <= width - 1) & (ys >= 0.0)
                      & (ys <= height - 1)).all(axis=1)
            values = cv2.remap(grey, (xs - px).astype(np.float32), (ys - py).astype(np.float32),
                               cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            return np.asarray(values, dtype=np.float64), inside

        ends, _ = ray(np.array([0.15 * radius, 0.65 * radius, along[0], along[-1]]))
        fall = ends[:, 0] - ends[:, 1]
        if config.glare_rise > 0.0 and int(np.count_nonzero(
                fall * np.sign(ends[:, 2] - ends[:, 3]) >= 2.0 * config.glare_rise)) < 8:
            continue
        values, inside_image = ray(along)
        step = np.abs(np.diff(values, axis=1))
        largest = step.max(axis=1)
        judged = inside_image & (largest >= 2.0)
        if int(judged.sum()) < 16:
            continue
        safe = np.maximum(largest[judged], 1e-9)
        edge = step[judged].sum(axis=1) / safe
        rise = fall[judged] / safe * np.sign(values[judged, 0] - values[judged, -1])
        out[i] = bool(float(np.median(edge)) * config.glare_step >= config.glare_width * radius
                      and float(np.median(rise)) >= config.glare_rise)
    return out


def _fitted(edges: EdgeMap, accepted: list[tuple[float, float]], whole: int, radius: float,
            config: DetectConfig) -> Floats:
    """The fitted centres of the accepted circles: a whole circle on all its rim, a partly
    covered one on the rim outside the circles accepted before it."""
    centres = np.array(accepted, dtype=np.float64)
    covered = np.zeros((len(centres), DIRECTIONS), dtype=bool)
    for i in range(whole, len(centres)):
        covers = np.column_stack([centres[:i], np.full(i, radius)])
        covered[i] = covered_directions(centres[i:i + 1, 0], centres[i:i + 1, 1], radius,
                                        covers, config.cover_margin)[0]
    return fit_centres(edges, centres, radius, covered, config.fit)


def refine(edges: EdgeMap, centres: Floats, radius: float, covers: Floats | None,
           config: DetectConfig, step: float | None = None) -> tuple[Floats, Floats]:
    """The best rim score in a 3 x 3 neighbourhood of each centre (``step`` radii apart,
    the last of ``refine_steps`` when not given), and where it is.

    With ``covers`` (rows x, y, r) the score counts only uncovered directions, and
    needs ``partial_seen`` of them."""
    step = (config.refine_steps[-1] if step is None else step) * radius
    grid = np.array([(dx, dy) for dx in (-step, 0.0, step) for dy in (-step, 0.0, step)])
    xs = (centres[:, 0:1] + grid[None, :, 0]).ravel()
    ys = (centres[:, 1:2] + grid[None, :, 1]).ravel()
    hit, seen = rim_evidence(edges, xs, ys, radius, config.rim)
    margin = config.edge_margin * radius
    seen &= ((xs >= margin) & (xs <= edges.width - 1 - margin)
             & (ys >= margin) & (ys <= edges.height - 1 - margin))[:, None]
    if covers is None:
        scores = rim_scores(hit, seen, None, 1)
    else:
        covered = covered_directions(xs, ys, radius, covers, config.cover_margin)
        scores = rim_scores(hit, seen, covered, config.partial_seen)
    table = scores.reshape(len(centres), len(grid))
    best = table.argmax(axis=1)
    index = np.arange(len(centres)) * len(grid) + best
    return table[np.arange(len(centres)), best], np.column_stack([xs[index], ys[index]])


def _accept_at_border(accepted: list[tuple[float, float]], scores: Floats, centres: Floats,
                      radius: float, edges: EdgeMap, config: DetectConfig) -> int:
    """Accept circles cut by the image's border on ``config.border_score``: centres
    within a radius of the border, with no circle accepted in line along the point (within
    a radius sideways) closer than ``border_clear`` radii: no outline of a higher layer
    among its stack's checkers, on an outer point."""
    cut = ((centres[:, 0] < radius) | (centres[:, 0] > edges.width - 1 - radius)
           | (centres[:, 1] < radius) | (centres[:, 1] > edges.height - 1 - radius))
    if accepted:
        taken = np.array(accepted)
        along = np.abs(centres[:, None, 1] - taken[None, :, 1]) < config.border_clear * radius
        in_line = np.abs(centres[:, None, 0] - taken[None, :, 0]) < radius
        cut &= ~(along & in_line).any(axis=1)
    if not cut.any():
        return 0
    return _accept(accepted, np.where(cut, scores, 0.0), centres, config.border_score,
                   config.min_distance * radius)


def _accept(accepted: list[tuple[float, float]], scores: Floats, centres: Floats,
            threshold: float, distance: float) -> int:
    """Accept centres scoring at least ``threshold``, best first, none closer than
    ``distance`` to an accepted one; returns how many were added."""
    added = 0
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < threshold:
            break
        x, y = float(centres[i, 0]), float(centres[i, 1])
        if any((x - ax) ** 2 + (y - ay) ** 2 < distance ** 2 for ax, ay in accepted):
            continue
        accepted.append((x, y))
        added += 1
    return added


def _partial_round(edges: EdgeMap, accepted: list[tuple[float, float]], centres: Floats,
                   radius: float, config: DetectConfig) -> int:
    """One round of partly covered circles near the accepted ones; returns how many."""
    if not accepted:
        return 0
    taken = np.array(accepted)
    d2 = ((centres[:, None, :] - taken[None, :, :]) ** 2).sum(axis=2)
    near = d2.min(axis=1)
    pick = (near >= (config.min_distance * radius) ** 2) & (near < (config.partial_reach
                                                                    * radius) ** 2)
    if not pick.any():
        return 0
    rest = centres[pick]
    close = d2[pick] < (2.0 * radius * (1.0 + config.cover_margin)) ** 2
    users = np.nonzero(close.any(axis=0))[0]
    covers = np.column_stack([taken[users], np.full(len(users), radius)])
    scores, moved = refine(edges, rest, radius, covers, config)
    return _accept(accepted, scores, moved, config.partial_score,
                   config.min_distance * radius)
