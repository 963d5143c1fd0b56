"""The tipped-up face's outline: how far a die's silhouette reaches past its top face.

A die tilted ``t`` shows the face it tipped up beyond its top face's edge, on
the side away from what it leans on: a band ``sin(t)`` die edges wide whose
outer edge is the die's silhouette there, a straight edge parallel to the top
face's side and about a die edge long (the side face's bottom edge; with a
tilt about a diagonal, two such faces show, each narrower).  A flat die shows
such a band only toward the nadir, as wide as perspective allows there (see
:func:`vision.dice.pose.perspective_reach`).  At 13-23 degrees the top face is
squashed by only 2-8 %, which blurred pips hardly show, while the band is a
quarter to two fifths of a die edge: ten pixels or more in the rectified
window, whatever grey the side face is shaded (darker or lighter than the top
face or the board: the edge between it and the board is what is found).

The silhouette is found along each side's outward normal: the gradient across
the side, averaged over a segment parallel to it (so that an edge at a slant
to the die's sides, such as a point's stripe, or a curved one, a checker's
rim, averages away), at distances out to about a die edge past the top face's
edge.  The outermost peak at least a fraction of the die's strongest edge,
and even along the segment (its thirds alike), is the silhouette's edge on
that side.  Only the sides turned away from what the die leans on are looked
at: a leaning die tips up the face away from its support, and the support's
own edge (a checker's rim, the rail) lies on the other side.
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import Face
from vision.dice.pips import Gray
from vision.dice.sides import grid_angle
from vision.errors import ConfigError


@dataclass(frozen=True, slots=True)
class OutlineConfig:
    """Where and how the silhouette's edge is looked for (lengths in die edges of
    the face's estimated size, from its centre)."""

    top_edge: float = 0.575
    """Where a flat die's top face edge shows, from its centre: the face's size is
    estimated from its pips' spacing, and the top face is raised by a die edge
    (magnified a few per cent in the rectified field) with rounded, darkened
    edges; the gradient across a flat die's side peaks at 0.55-0.6 on renders
    from the 2x still (tuned styles, seed 21)."""
    start: float = 0.62
    """The nearest an outer edge is looked for: past the top face's own edge
    (its gradient peak is about 0.1 die edges wide)."""
    stop: float = 1.1
    """The farthest: a tilt of 35 degrees shows a band 0.57 wide, and the top face's
    edge lies at ``top_edge``."""
    step: float = 0.025
    """Distance between samples along the normal (a pixel at 40 pixels a die)."""
    half_length: float = 0.3
    """Half the segment averaged across, along the side: within the side face's edge
    (a die edge long) for tilts about a diagonal too, whose faces are shifted."""
    samples: int = 15
    """Points on the segment (a multiple of three: its thirds are compared)."""
    blur: float = 1.0
    """Gaussian sigma (pixels) before the gradient: pixel noise."""
    relative: float = 0.3
    """The outer edge's gradient, at least this fraction of the strongest edge of the
    die (any side, past 0.45 die edges; and at least ``floor``): fainter steps are
    the board's texture, shadows' soft edges and the like.  The tipped-up face is
    shaded by the light, often to within a few tens of grey levels of the board,
    so its step to the board can be a third of the top face's: 0.5 missed such
    faces plainly seen in crops (a grey side on a dark board, a light die's shaded
    side on a light board).  Renders of ``bench/dice_pose_accuracy.py``'s scenes
    (seeds 21, 300 scenes, and 22, 250; tuned styles, 2x still, the scene's die
    size): 0.5 -> 0.3 found 187 -> 195 of 215 and 156 -> 160 of 185 cocked dice,
    flat dice called cocked 0/190 and 0/158 both, and as if every flat die had
    support (``--any-support``) 4/190 and 10/158 both; 0.2 and 0.25 the same as 0.3
    (``floor`` decides there), 0.35 one fewer cocked die on each seed."""
    floor: float = 6.0
    """... and at least this many grey levels a pixel (noise on an even board)."""
    straight: float = 0.4
    """Each third of the segment at least this fraction of the strongest third, with
    the same sign: an edge crossing the segment at a slant or a curved one shows
    in one third only.  First trials (seed 21, 200 scenes, tuned, flat dice
    judged as if supported): 8 of 91 flat dice called cocked without it, 4 with
    it, the same 12 more cocked dice found."""
    away_cos: float = 0.3
    """Sides whose outward normal is turned from the direction away from the support
    by less than this cosine's angle (72 degrees) are looked at: a die leaning on a
    checker tips up the face turned from it, and when it is turned about a
    diagonal, two faces each about 45 degrees from there.  The support's own edge
    (a checker's rim, the rail) lies on the other side: in the first trials
    (seed 21, 200 scenes, without ``straight``) looking at every side called 19
    of 91 flat dice judged as if supported cocked, these sides 8."""
    reach_slack: float = 1.0
    """The perspective allowance toward the nadir is multiplied by this: the lens
    height it comes from is known to about a quarter (the field of view is
    configured, not measured), and the nadir is taken below the image centre.
    Renders (seeds 21-22, tuned styles, with ``ends``): 1.5 called 3 fewer of 348
    flat dice judged as if supported cocked, and found 5 fewer of 385 cocked ones."""
    ends: float | None = 0.5
    """An edge that goes on past the side's ends (at ``end_span`` across, both ends
    at least this fraction of its middle's gradient) is the board's (a point's
    stripe, the rail), not the die's silhouette, which ends with the side face;
    None for no such test.  Renders (seeds 21-22, tuned styles): 4 fewer of 348
    flat dice judged as if supported called cocked, one fewer of 385 cocked dice
    found."""
    ones: bool = True
    """Look at ones too, whose sides are taken from the gradients around the pip
    (the top face's outline, fourfold), their size from the pip alone."""
    end_span: tuple[float, float] = (0.65, 0.95)
    """Where the side's ends are looked at, die edges across from its middle line."""
    ends_shift: float = 0.15
    """... and how far along the normal (die edges, either way) the edge may lie there
    from where it lies at the side's middle: a point's edge or the rail crossing the
    side at a slant, or a checker's rim, lies nearer or farther at the ends, where an
    edge at the very same distance was looked for.  At each point of the ends the
    strongest gradient of the middle's sign within this shift counts.  Flat dice read
    as the pipeline reads them (``bench/dice_pose_accuracy.py``'s cocked-die scenes of
    tune seeds 64-67, 120 scenes each, 2x still, the configured die size, the
    pipeline's checker mask; tuned styles) were called cocked by a point's edge 0.85-1.1
    die edges out at 8-23 degrees to the side: 0.15 called 4 -> 2 of 298 flat dice
    cocked with their support, 22 -> 17 as if every die had some (``--any-support``),
    and found the same 312 of 345 cocked dice; 0.25 and 0.35 two and four cocked dice
    fewer.  Checked on tune seeds 74-77 (120 scenes each, never looked at before):
    flat with support 1 -> 1 of 299, as if supported 23 -> 19, cocked 330 -> 329 of 358
    (a six whose tipped-up face ends where a point's thin outline crosses)."""

    ends_line: float | None = 0.05
    """... and, when set, the ends' edges must lie on one straight line with the middle's
    (die edges along the normal, the largest residual of the line through the middle
    fitted to where the strongest gradient lies at each end point): a board edge or a
    point's edge is straight, while a tipped-up face's silhouette ends with the side and
    what lies past its ends (a point's thin outline crossing) lies anywhere.  None for
    no such test.  On by default since the whole pipeline read the same with it
    (``vision_accuracy.py --n 150 --seed 86``, and report seeds 8 and 9 at ``--n 1000``:
    every line identical with None and with 0.05).  0.05 with
    ``ends_shift`` 0.15 on the cocked-die scenes read as the pipeline reads them (tuned
    styles, real support, 120 scenes a seed): tune seeds 64-67 nothing changed (cocked
    312/345, flat 2/298, as if supported 17/298), fresh seeds 82-85 cocked 316 -> 318 of
    351 (83/85 and 84/93, sixes cocked 15-19 degrees), flat 2/288 and as if supported
    16/288 both; it recovers tune
    seed 76/97's cocked six too (doc: round thirteen)."""

    def __post_init__(self) -> None:
        if self.ends_line is not None and self.ends_line < 0.0:
            raise ConfigError(f"dice outline: ends_line at least 0, not {self.ends_line}")
        if not 0.0 < self.top_edge < self.start < self.stop or self.step <= 0.0:
            raise ConfigError("dice outline: 0 < top_edge < start < stop, and a positive step")
        if self.samples < 3 or self.samples % 3 != 0 or self.half_length <= 0.0:
            raise ConfigError("dice outline: samples a multiple of three, half_length positive")
        if self.ends_shift < 0.0:
            raise ConfigError(f"dice outline: ends_shift at least 0, not {self.ends_shift}")
        if not 0.0 <= self.relative <= 1.0 or not 0.0 <= self.straight <= 1.0 \
                or not -1.0 <= self.away_cos <= 1.0:
            raise ConfigError("dice outline: relative and straight 0-1, away_cos -1..1")


@dataclass(frozen=True, slots=True)
class OutlineBand:
    """The side whose silhouette reaches farthest past what a flat die would show."""

    excess: float
    """Die edges past the top face's edge beyond the perspective allowance."""
    edge: float
    """Where the silhouette's edge lies, die edges from the face's centre."""
    allowance: float
    """What perspective lets a flat die show on that side, die edges."""
    normal: tuple[float, float]
    """The side's outward direction (pixels of the window)."""


def tipped_outline(gray: Gray, face: Face, away: tuple[float, float],
                   nadir: tuple[float, float] | None, reach: float,
                   config: OutlineConfig = OutlineConfig()) -> OutlineBand | None:
    """The side of ``face`` (a two to six, in the rectified window ``gray``) turned
    from its support (``away``: unit direction away from it, pixels of ``gray``)
    whose silhouette reaches farthest past the top face beyond what a flat die
    shows there (``reach``: the perspective reach at the die in die edges,
    ``nadir``: the point below the camera, pixels of ``gray``; None for none),
    or None when no side has an edge out there."""
    size = face.die_size
    if size <= 0.0 or (face.value == 1 and not config.ones):
        return None
    cx, cy = face.center
    margin = math.ceil(size * (config.stop + config.half_length) + 3.0 * config.blur + 3.0)
    h, w = gray.shape
    x0, y0 = max(0, int(cx) - margin), max(0, int(cy) - margin)
    x1, y1 = min(w, int(cx) + margin + 1), min(h, int(cy) + margin + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    patch = cv2.GaussianBlur(gray[y0:y1, x0:x1].astype(np.float32), (0, 0), config.blur)
    gx = np.asarray(cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), np.float32) / 8.0
    gy = np.asarray(cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3), np.float32) / 8.0
    centre = (cx - x0, cy - y0)
    angle = grid_angle(face)
    if angle is None:  # a one: its sides and size from the top face's outline
        angle = _outline_angle(gx, gy, centre, size, 0.2)
        measured = _one_size(gx, gy, centre, angle, size, config)
        if measured is None:
            return None
        size = measured
        angle = _outline_angle(gx, gy, centre, size, 0.35)
    distances = np.arange(0.3, config.stop + config.step / 2.0, config.step)
    across = np.linspace(-config.half_length, config.half_length, config.samples)
    normals = [(math.cos(angle + k * math.pi / 2.0), math.sin(angle + k * math.pi / 2.0))
               for k in range(4)]
    # every side's gradient across it at every distance, in one remap
    along = np.array([_segment(gx, gy, centre, n, distances, across, size) for n in normals])
    means = along.mean(axis=2)  # sides x distances
    strongest = float(np.max(np.abs(means[:, distances >= 0.45]))) if means.size else 0.0
    bound = max(config.floor, config.relative * strongest)
    if nadir is not None:
        nx, ny = nadir[0] - cx, nadir[1] - cy
        norm = math.hypot(nx, ny)
        toward = (nx / norm, ny / norm) if norm > 0.0 else (0.0, 0.0)
    else:
        toward = (0.0, 0.0)
    best: OutlineBand | None = None
    third = config.samples // 3
    for k, normal in enumerate(normals):
        if normal[0] * away[0] + normal[1] * away[1] < config.away_cos:
            continue
        strength = np.abs(means[k])
        allowance = max(normal[0] * toward[0] + normal[1] * toward[1], 0.0) * reach \
            * config.reach_slack
        last = len(distances) - 1
        for i in range(last, 0, -1):
            if distances[i] < config.start:
                break
            if strength[i] < bound or strength[i] < strength[i - 1] or (
                    i < last and strength[i] < strength[i + 1]):
                continue
            parts = along[k, i].reshape(3, third).mean(axis=1) * math.copysign(1.0, means[k, i])
            if float(parts.min()) < config.straight * float(parts.max()):
                continue
            if config.ends is not None and _goes_on(gx, gy, centre, normal, float(distances[i]),
                                                    size, float(means[k, i]), config):
                continue
            edge = float(distances[i])
            excess = edge - config.top_edge - allowance
            if best is None or excess > best.excess:
                best = OutlineBand(excess, edge, allowance, normal)
            break
    return best


def _segment(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
             centre: tuple[float, float], normal: tuple[float, float],
             distances: npt.NDArray[np.float64], across: npt.NDArray[np.float64],
             size: float) -> npt.NDArray[np.float32]:
    """The gradient along ``normal`` at each distance (rows) and each point across
    the side (columns), bilinear."""
    nx, ny = normal
    d = distances[:, None] * size
    a = across[None, :] * size
    xs = (centre[0] + d * nx - a * ny).astype(np.float32)
    ys = (centre[1] + d * ny + a * nx).astype(np.float32)
    vx = cv2.remap(gx, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    vy = cv2.remap(gy, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(vx * nx + vy * ny, np.float32)


def _goes_on(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
             centre: tuple[float, float], normal: tuple[float, float], distance: float,
             size: float, middle: float, config: OutlineConfig) -> bool:
    """Whether the edge found at ``distance`` on the side ``normal`` (its middle's mean
    gradient ``middle``, signed outward as found) goes on past both ends of the side."""
    low, high = config.end_span
    count = max(config.samples // 3, 2)
    span = np.linspace(low, high, count)
    sign = 1.0 if middle >= 0.0 else -1.0
    shifts = np.arange(-config.ends_shift, config.ends_shift + config.step / 2.0, config.step) \
        if config.ends_shift > 0.0 else np.zeros(1)
    # distances x end points: at each point the strongest of the middle's sign in reach
    found = _segment(gx, gy, centre, normal, distance + shifts,
                     np.concatenate([-span, span]), size) * sign
    ends = found.max(axis=0).reshape(2, count).mean(axis=1)
    assert config.ends is not None
    if not np.all(ends >= config.ends * abs(middle)):
        return False
    if config.ends_line is None or len(shifts) < 2:
        return True
    # where the edge lies at each end point, on one line through the middle's
    at = np.concatenate([-span, span])
    lies = shifts[np.argmax(found, axis=0)]
    slope = float((at * lies).sum() / (at * at).sum())
    return bool(np.max(np.abs(lies - slope * at)) <= config.ends_line)


def _outline_angle(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
                   centre: tuple[float, float], size: float, inner: float) -> float:
    """The direction of a face's sides (radians, modulo a right angle) from the
    gradients on a ring around its centre, ``inner`` to 0.75 die edges out, where
    its outline lies: each gradient's angle four times over, weighed by its
    strength."""
    h, w = gx.shape
    ys, xs = np.mgrid[0:h, 0:w]
    r = np.hypot(xs - centre[0], ys - centre[1]) / size
    ring = (r >= inner) & (r <= 0.75)
    mag = np.hypot(gx[ring], gy[ring])
    theta = np.arctan2(gy[ring], gx[ring])
    return float(math.atan2(float((mag * np.sin(4.0 * theta)).sum()),
                            float((mag * np.cos(4.0 * theta)).sum())) / 4.0)


def _one_size(gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
              centre: tuple[float, float], angle: float, size: float,
              config: OutlineConfig) -> float | None:
    """A one's die edge in pixels, from where its top face's edge lies on its four
    sides (the median of each side's first gradient peak, taken as ``top_edge``):
    the face finder sizes a one by its pip, which blur swells (2x renders: 1.2-1.5
    times the die), so its ``die_size`` serves only to look within.  Sides with no
    edge (against something of the die's grey) are left out; None when fewer than
    two show one."""
    distances = np.arange(0.18, 0.9, config.step)
    across = np.linspace(-config.half_length, config.half_length, config.samples)
    found = []
    for k in range(4):
        normal = (math.cos(angle + k * math.pi / 2.0), math.sin(angle + k * math.pi / 2.0))
        strength = np.abs(_segment(gx, gy, centre, normal, distances, across, size).mean(axis=1))
        peak = float(strength.max())
        if peak < config.floor:
            continue  # a side against something of its grey (a checker, the board)
        first = next(i for i in range(len(distances)) if strength[i] >= 0.5 * peak and (
            i == len(distances) - 1 or strength[i] >= strength[i + 1]))
        found.append(float(distances[first]) * size)
    if len(found) < 2:
        return None
    return float(np.median(found)) / config.top_edge
