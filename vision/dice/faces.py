"""From pips to faces: which pips belong to one face, and is it a top face.

Pips of one face lie on one plane, so they share size and slant (seen at an
angle a round pip is an ellipse, the same ellipse for every pip of that
face), and they sit on the fixed layouts of a die: one centre pip, a
diagonal of two or three, the four corners, corners and centre, two rows of
three.  Candidate pips are linked when close and alike, linked groups that
do not form a die layout are split at their longest link, and every group
that does is a face.  A die seen from above shows its top face square-on and
perhaps parts of one or two side faces, whose pips are slanted and smaller:
a face next to a clearly more frontal one is taken as its side and dropped.
"""

import itertools
import math
import statistics
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.dice.pips import Pip, Polarity
from vision.errors import ConfigError

Points = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class FaceConfig:
    """Thresholds of the grouping; distances are in pip diameters (major axes)."""

    link_distance: float = 5.0
    """Farthest two pips of one face can be, in pip diameters (of the circle of
    the same area, which motion blur changes least): the diagonal of a two is
    about four and a half on common dice."""
    max_link: float | None = None
    """Farthest two pips of one face can be in pixels, None for no limit but
    ``link_distance``: set from the die size when the caller knows it (see
    :class:`~vision.dice.detect.DetectConfig` ``link_die``)."""
    max_size_ratio: float = 1.7
    """Largest ratio of the major axes of two linked pips."""
    max_slant_difference: float = 0.25
    """Largest difference of minor/major axis ratios of two linked pips."""
    round_enough: float | None = None
    """Axis ratio at which two pips both this round are alike in slant however their
    ratios differ, None for never.  Small blurred pips of a flat die read 0.70-0.99
    (renders: a six's corner pip at 0.72 beside one at 0.99, a four's pip merged with
    glare at 0.70: the die was lost, or its edge read as a two), while the slant test is
    there to tell a cocked die's side pips (axis ratio the sine of its tilt, under 0.7
    below 44 degrees) from its top's."""
    max_angle_difference: float = 35.0
    """Degrees between the long axes of two slanted pips to be linked."""
    slanted_below: float = 0.75
    """Axis ratio under which a pip counts as slanted (its angle is meaningful)."""
    min_span: float = 1.8
    """Shortest diagonal (two, three) in pip diameters: closer pips are not a face."""
    layout_tolerance: float = 0.08
    """Largest layout misfit as a fraction of the face's span: middle pips off
    their midpoint, diagonals not halving each other."""
    die_per_spacing: float = 3.8
    """Die edge over the spacing of neighbouring pip rows."""
    die_per_pip: float = 4.4
    """Die edge over the pip diameter (the long axis, which slant does not
    shorten): the size of a one, and the least size of any face, since a
    slanted face's spacing understates it."""
    side_face_reach: float = 1.0
    """A face whose centre lies within this many die edges of a more frontal
    face is that face's side."""
    slanted_side: float = 0.2
    """A face this much less round (axis ratio) than a neighbour is surely a
    side face, and is looked for farther, ``slanted_side_reach`` die edges."""
    slanted_side_reach: float = 1.5
    side_contrast: float | None = None
    """A face whose pips contrast less than this fraction of a neighbouring face's (within
    the side reach) is that face's side, never its top, whatever the roundness and the
    nadir say; None for no such rule.  A side face is turned from the light and contrasts
    half to two thirds as much as its top (see ``max_contrast_ratio``); a faint blob past a
    die's corner (the tip of a point, a checker's edge), farther from the nadir, was taken
    for the top face of a two and the two dropped as its side (renders, tune seed 25: a
    blob of contrast 42 beside a two's pips of 102-104, the two read as a one)."""
    away_weight: float = 0.5
    """Weight of "farther from the nadir" against pip roundness when telling
    a die's top face from its side: a die edge farther counts as this much
    more axis ratio."""
    neighbours: int = 7
    """Nearest alike pips tried with each pip when looking for a face."""
    max_contrast_ratio: float | None = None
    """Largest ratio of the contrasts of two linked pips, None for any.  The pips of
    one face are lit alike; a cocked die's side face, turned away from the light and
    seen at a slant, contrasts half to two thirds as much (renders: top pips 70-135
    grey levels, their side's 37-64), and linked with the top face its pips made a
    wrong layout or failed the stray-mark check.  Photos need no such limit: a pip
    under a lamp's reflection contrasts less than the others of its face."""

    def __post_init__(self) -> None:
        if not 0.0 < self.layout_tolerance < 0.5:
            raise ConfigError("layout_tolerance must be between 0 and 0.5")
        if self.link_distance <= self.min_span:
            raise ConfigError("link_distance must exceed min_span")


@dataclass(frozen=True, slots=True)
class Face:
    """A group of pips in a die layout."""

    pips: tuple[Pip, ...]
    polarity: Polarity
    center: tuple[float, float]
    spacing: float
    """Distance between neighbouring pip rows, pixels (0 for a one)."""
    die_size: float
    """Estimated die edge, pixels."""
    misfit: float
    """Layout misfit, as a fraction of the span (0 = perfect)."""
    unsure: bool = False
    """The pips were found but what they say is doubtful: the die's value is to be
    reported unread (None) rather than as ``value`` (see :class:`~vision.dice.detect.
    DetectConfig` ``one_surround``)."""

    @property
    def value(self) -> int:
        return len(self.pips)

    @property
    def frontality(self) -> float:
        """Median minor/major ratio of the pips: 1 when the face looks at the camera."""
        return statistics.median([p.ratio for p in self.pips])

    @property
    def pip_size(self) -> float:
        return statistics.median([p.major for p in self.pips])


def find_faces(pips: list[Pip], polarity: Polarity, config: FaceConfig = FaceConfig(),
               nadir: tuple[float, float] | None = None) -> list[Face]:
    """The top face of every die these pips show.

    ``nadir`` is the image point straight below the camera: side faces are
    seen between a top face and it.  None means an upright camera tilted
    down at the table, whose nadir is far below the image.
    """
    faces: list[Face] = []
    for members in _components(pips, config):
        faces.extend(_extract(members, pips, polarity, config))
    return top_faces(faces, config, nadir)


def top_faces(faces: list[Face], config: FaceConfig = FaceConfig(),
              nadir: tuple[float, float] | None = None) -> list[Face]:
    """Faces that are not the side of a die whose top face is next to them.

    Two faces closer than a die edge are taken as faces of one die; its top
    face is the one farther from the nadir, unless the other is clearly more
    frontal (a camera straight above sees side faces only as slivers).
    """
    ordered = sorted(faces, key=lambda f: (-f.value, f.misfit))
    side: set[int] = set()
    for i, face in enumerate(ordered):
        for j, other in enumerate(ordered):
            if i == j or j in side:
                continue
            slanted = other.frontality - face.frontality >= config.slanted_side
            reach = (config.slanted_side_reach if slanted else config.side_face_reach) * max(
                face.die_size, other.die_size)
            if math.dist(face.center, other.center) > reach:
                continue
            fainter = _fainter(face, other, config)
            if fainter == 0 or (fainter is None and _top_score(other, face, config, nadir) > 0):
                side.add(i)
                break
    return [f for i, f in enumerate(ordered) if i not in side]


def _fainter(one: Face, other: Face, config: FaceConfig) -> int | None:
    """0 when ``one``'s pips contrast less than ``side_contrast`` times ``other``'s, 1 when
    ``other``'s do than ``one``'s, None when neither (or no such rule)."""
    if config.side_contrast is None:
        return None
    a = statistics.median([p.contrast for p in one.pips])
    b = statistics.median([p.contrast for p in other.pips])
    if a < config.side_contrast * b:
        return 0
    if b < config.side_contrast * a:
        return 1
    return None


def _top_score(top: Face, below: Face, config: FaceConfig,
               nadir: tuple[float, float] | None) -> float:
    """Positive when ``top`` is rather the top face than ``below`` of one die."""
    dx, dy = top.center[0] - below.center[0], top.center[1] - below.center[1]
    if nadir is None:
        away = (0.0, -1.0)
    else:
        ax, ay = below.center[0] - nadir[0], below.center[1] - nadir[1]
        norm = math.hypot(ax, ay) or 1.0
        away = (ax / norm, ay / norm)
    size = max(top.die_size, below.die_size)
    farther = (dx * away[0] + dy * away[1]) / size
    return (top.frontality - below.frontality) + config.away_weight * farther


def layout_face(pips: list[Pip], polarity: Polarity,
                config: FaceConfig = FaceConfig()) -> Face | None:
    """The face these pips make, or None when they are not in a die layout."""
    n = len(pips)
    if not 1 <= n <= 6:
        return None
    points = np.array([(p.x, p.y) for p in pips], dtype=np.float64)
    size = statistics.median([p.diameter for p in pips])
    fit = _LAYOUTS[n](points, size, config)
    if fit is None:
        return None
    spacing, misfit = fit
    centre = points.mean(axis=0)
    by_pips = config.die_per_pip * statistics.median([p.major for p in pips])
    die = max(by_pips, config.die_per_spacing * spacing)
    return Face(tuple(pips), polarity, (float(centre[0]), float(centre[1])), spacing, die,
                misfit)


# -- grouping -----------------------------------------------------------------

def _alike(a: Pip, b: Pip, config: FaceConfig) -> bool:
    reach = config.link_distance * max(a.diameter, b.diameter)
    if config.max_link is not None:
        reach = min(reach, config.max_link)
    if (a.x - b.x) ** 2 + (a.y - b.y) ** 2 > reach**2:
        return False
    if max(a.major, b.major) > config.max_size_ratio * min(a.major, b.major):
        return False
    if abs(a.ratio - b.ratio) > config.max_slant_difference and (
            config.round_enough is None or min(a.ratio, b.ratio) < config.round_enough):
        return False
    if (config.max_contrast_ratio is not None
            and max(a.contrast, b.contrast) > config.max_contrast_ratio * min(a.contrast,
                                                                              b.contrast)):
        return False
    if a.ratio < config.slanted_below and b.ratio < config.slanted_below:
        turn = abs(a.angle - b.angle) % 180.0
        if min(turn, 180.0 - turn) > config.max_angle_difference:
            return False
    return True


def _components(pips: list[Pip], config: FaceConfig) -> list[list[int]]:
    """Groups of pips linked by closeness and likeness."""
    parent = list(range(len(pips)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(pips)), 2):
        if _alike(pips[i], pips[j], config):
            parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(pips)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _extract(members: list[int], pips: list[Pip], polarity: Polarity,
             config: FaceConfig) -> list[Face]:
    """Faces taken out of one linked group, the largest layout first (a six
    is not three twos), each from a pip and its nearest alike neighbours."""
    remaining = list(members)
    faces: list[Face] = []
    while remaining:
        best = _largest_face(remaining, pips, polarity, config)
        faces.append(best)
        taken = {id(p) for p in best.pips}
        remaining = [i for i in remaining if id(pips[i]) not in taken]
    return faces


def _worse(one: Face, other: Face) -> bool:
    """Of two layouts with as many pips, the less frontal or worse-fitting one."""
    return one.misfit - one.frontality > other.misfit - other.frontality


def _largest_face(members: list[int], pips: list[Pip], polarity: Polarity,
                  config: FaceConfig) -> Face:
    for n in range(min(6, len(members)), 1, -1):
        best: Face | None = None
        for seed in members:
            here = pips[seed]
            near = sorted((i for i in members if i != seed
                           and _alike(here, pips[i], config)),
                          key=lambda i: (pips[i].x - here.x) ** 2 + (pips[i].y - here.y) ** 2)
            for rest in itertools.combinations(near[:config.neighbours], n - 1):
                if not all(_alike(pips[i], pips[j], config)
                           for i, j in itertools.combinations(rest, 2)):
                    continue
                face = layout_face([here, *(pips[i] for i in rest)], polarity, config)
                if face is not None and (best is None or _worse(best, face)):
                    best = face
        if best is not None:
            return best
    largest = max(members, key=lambda i: pips[i].diameter * pips[i].ratio)
    face = layout_face([pips[largest]], polarity, config)
    assert face is not None  # a single pip is always a one
    return face


# -- layouts ------------------------------------------------------------------

def _one(points: Points, size: float, config: FaceConfig) -> tuple[float, float] | None:
    return 0.0, 0.0


def _diagonal(points: Points, size: float, config: FaceConfig) -> tuple[float, float] | None:
    """Two or three pips on a line, equally spaced (the two and the three)."""
    along, across = _projections(points.tolist())
    span = max(along) - min(along)
    if span < config.min_span * size or span > config.link_distance * size:
        return None
    misfit = max(abs(a) for a in across) / span
    if len(along) == 3:
        middle = sorted(along)[1]
        misfit = max(misfit, abs(middle) / span)
    if misfit > config.layout_tolerance:
        return None
    return span / (2.0 * math.sqrt(2.0)), misfit


def _projections(points: list[list[float]]) -> tuple[list[float], list[float]]:
    """The points' offsets from their mean along and across their principal axis.

    The axis is the scatter matrix's main eigenvector in closed form (half the angle
    whose tangent is 2 sxy / (sxx - syy)), the direction a singular value decomposition
    gives, at a fraction of its cost for two or three points (the six-pip layout tries
    hundreds of rows)."""
    n = len(points)
    cx = sum(p[0] for p in points) / n
    cy = sum(p[1] for p in points) / n
    dx = [p[0] - cx for p in points]
    dy = [p[1] - cy for p in points]
    sxx = sum(x * x for x in dx)
    syy = sum(y * y for y in dy)
    sxy = sum(x * y for x, y in zip(dx, dy, strict=True))
    angle = 0.5 * math.atan2(2.0 * sxy, sxx - syy)
    c, s = math.cos(angle), math.sin(angle)
    return ([x * c + y * s for x, y in zip(dx, dy, strict=True)],
            [y * c - x * s for x, y in zip(dx, dy, strict=True)])


def _corners(points: Points, size: float, config: FaceConfig) -> tuple[float, float] | None:
    """Four pips whose diagonals halve each other (a square seen at any angle)."""
    best: tuple[float, float] | None = None
    for a, b, c, d in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
        first, second = points[a] - points[b], points[c] - points[d]
        la, lb = float(np.hypot(*first)), float(np.hypot(*second))
        if min(la, lb) < config.min_span * size or min(la, lb) < 0.45 * max(la, lb):
            continue
        gap = float(np.hypot(*((points[a] + points[b]) - (points[c] + points[d])) / 2.0))
        misfit = gap / max(la, lb)
        spacing = (la + lb) / (4.0 * math.sqrt(2.0))
        if misfit <= config.layout_tolerance and (best is None or misfit < best[1]):
            best = (spacing, misfit)
    return best


def _five(points: Points, size: float, config: FaceConfig) -> tuple[float, float] | None:
    """Four corners and the centre pip where their diagonals cross."""
    centre = points.mean(axis=0)
    middle = int(np.argmin(np.hypot(*(points - centre).T)))
    corners = np.delete(points, middle, axis=0)
    fit = _corners(corners, size, config)
    if fit is None:
        return None
    spacing, misfit = fit
    off = float(np.hypot(*(points[middle] - corners.mean(axis=0)))) / (2.0 * math.sqrt(2.0)
                                                                       * spacing)
    misfit = max(misfit, off)
    return (spacing, misfit) if misfit <= config.layout_tolerance else None


def _six(points: Points, size: float, config: FaceConfig) -> tuple[float, float] | None:
    """Two parallel rows of three equally spaced pips."""
    best: tuple[float, float] | None = None
    xy = points.tolist()
    for row in itertools.combinations(range(1, 6), 2):
        rest = [i for i in range(1, 6) if i not in row]
        if not (_nearly_straight([xy[0], xy[row[0]], xy[row[1]]], config.layout_tolerance)
                and _nearly_straight([xy[i] for i in rest], config.layout_tolerance)):
            continue
        first = points[[0, *row]]
        second = points[rest]
        one, two = _diagonal(first, size, config), _diagonal(second, size, config)
        if one is None or two is None:
            continue
        ends = [_ends(first), _ends(second)]
        a = ends[0][1] - ends[0][0]
        b = ends[1][1] - ends[1][0]
        if float(a @ b) < 0:
            b = -b
        length = max(float(np.hypot(*a)), float(np.hypot(*b)))
        skew = float(np.hypot(*(a - b))) / length
        gap = float(np.hypot(*(first.mean(axis=0) - second.mean(axis=0))))
        if gap < 0.5 * size * config.min_span / 2.0:
            continue
        misfit = max(one[1], two[1], skew / 2.0)
        # rows are 2 spacings apart, pips in a row one spacing apart
        spacing = (gap / 2.0 + length / 2.0) / 2.0
        if misfit <= config.layout_tolerance and (best is None or misfit < best[1]):
            best = (spacing, misfit)
    return best


def _nearly_straight(points: list[list[float]], tolerance: float) -> bool:
    """A quick necessary condition for three points to pass :func:`_diagonal`: their
    triangle's height over its longest side is at most 4 ``tolerance`` times that side
    (points within d of a line make a triangle at most 4 d high), so most of the rows
    a six is tried with are refused without the full fit."""
    (ax, ay), (bx, by), (cx, cy) = points
    cross = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
    longest = max((bx - ax) ** 2 + (by - ay) ** 2, (cx - ax) ** 2 + (cy - ay) ** 2,
                  (cx - bx) ** 2 + (cy - by) ** 2)
    return cross <= 4.0 * tolerance * longest


def _ends(points: Points) -> tuple[Points, Points]:
    along, _ = _projections(points.tolist())
    return points[along.index(min(along))], points[along.index(max(along))]


_LAYOUTS = {1: _one, 2: _diagonal, 3: _diagonal, 4: _corners, 5: _five, 6: _six}
