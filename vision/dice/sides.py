"""The side faces a die shows beside its top face, found by their pips.

Every face of a die carries pips, so a side face the camera sees shows them
too: squashed across the face (it is seen at a slant) and lying in a band
along one edge of the top face.  Which edge, and how wide the band is, tell
a flat die from a cocked one in the rectified field:

- a flat die shows only the sides turned toward the nadir (the board point
  below the lens), each in a band ``reach * cos`` die edges wide, ``reach``
  being the perspective reach at the die's place (see
  :func:`vision.dice.pose.perspective_reach`) and ``cos`` the cosine between
  the side's outward normal and the direction to the nadir;
- a cocked die also shows the face it tipped up, on the side away from the
  way it leans, ``sin(tilt)`` die edges wide whatever the camera: turned away
  from the nadir (a side no flat die shows) or wider than perspective allows.

The top face's sides are along the pip grid's axes (a one has no grid: its
side is taken along the line from its pip to the side pip).  A side pip sits
at most three quarters of the way across its band, so the band is at least
its distance past the top face's edge over three quarters.  A pip's short
axis lies along OpenCV's ellipse angle (:attr:`Pip.angle`), across the edge.
"""

import math
import statistics
from dataclasses import dataclass, field, replace

from vision.dice.faces import Face
from vision.dice.pips import Gray, Pip, PipConfig, find_pips
from vision.errors import ConfigError


def _side_pip_search() -> PipConfig:
    """Pips on a side face are slivers on a narrow band: the ring of face a pip
    search checks around a blob there crosses onto the top face and the board,
    so it is uneven, and the slant takes some of the contrast.  A sliver's
    equal-area diameter is at most about that of a top pip (5-12 pixels at the
    board stage's 40 pixels a die) times the square root of its axis ratio:
    two octaves up to 8 pixels (the dice stage's time grows by a fifth)."""
    return PipConfig(min_diameter=3.0, max_diameter=8.0, min_contrast=20.0,
                     max_ring_spread=2.0, min_axis_ratio=0.2)


@dataclass(frozen=True, slots=True)
class SideConfig:
    """Which pips beside a top face count as a side face's (sizes in die edges)."""

    max_ratio: float = 0.8
    """A side pip is seen at a slant: its minor/major axis ratio is below this."""
    size: tuple[float, float] = (0.5, 1.6)
    """Its long axis (which the slant does not shorten) within these multiples
    of the top face's pips'."""
    along: tuple[float, float] = (0.5, 1.1)
    """Its distance past the top face's centre along the side's normal: past the
    top face's edge (0.5), at most a whole face beyond it."""
    across: float = 0.35
    """Its distance from the side's middle line along the edge: on the face
    (pips lie within 0.25 of the middle; a corner of the top face is not a pip)."""
    max_turn: float = 35.0
    """Degrees between its short axis and the side's normal: the slant shortens a
    side pip across the edge, so a blob shortened along it is something else (the
    tip of a point, a checker's rim)."""
    pips: PipConfig = field(default_factory=_side_pip_search)
    """The search for side pips around a top face."""
    far_row: float = 0.75
    """The farthest a pip lies across its face, as a fraction of the face (the
    rows of a four, five or six): a pip ``d`` past the top face's edge shows a
    band at least ``d / far_row`` wide."""
    row_span: float = 0.52
    """The farthest apart two rows of pips lie across a face, as a fraction of
    the face (a six's outer rows): two pips of one side face ``s`` apart across
    its edge show a band at least ``s / row_span`` wide, which is more than
    the farther pip alone says when the face is turned toward the camera."""

    def __post_init__(self) -> None:
        if not 0.0 < self.max_ratio <= 1.0:
            raise ConfigError("dice sides: max_ratio between 0 and 1")
        if not 0.0 < self.size[0] < self.size[1] or not 0.0 < self.along[0] < self.along[1]:
            raise ConfigError("dice sides: size and along are increasing (low, high) pairs")


@dataclass(frozen=True, slots=True)
class Side:
    """A side face seen beside the top face."""

    normal: tuple[float, float]
    """Its outward direction in the image (unit vector)."""
    band: float
    """How wide it looks, in die edges."""
    pips: int


def grid_angle(face: Face) -> float | None:
    """The direction of the top face's sides (radians, modulo a right angle)
    from its pips; None for a one."""
    pips = face.pips
    if len(pips) < 2:
        return None
    if len(pips) <= 3:
        # a diagonal: the sides are at 45 degrees to it
        ends = max(((a, b) for i, a in enumerate(pips) for b in pips[i + 1:]),
                   key=lambda ab: math.dist((ab[0].x, ab[0].y), (ab[1].x, ab[1].y)))
        a, b = ends
        return math.atan2(b.y - a.y, b.x - a.x) - math.pi / 4.0
    # fours, fives and sixes: pairs of pips run along the sides (and the
    # diagonals, which the fourfold average weighs less than the many sides).
    # A five's middle pip makes four more diagonal pairs, which would outweigh
    # the sides (six diagonals against four sides turn the answer by 45
    # degrees): its corners alone are a four.
    if len(pips) == 5:
        mx = statistics.fmean(p.x for p in pips)
        my = statistics.fmean(p.y for p in pips)
        middle = min(pips, key=lambda p: math.dist((p.x, p.y), (mx, my)))
        pips = tuple(p for p in pips if p is not middle)
    sx = sy = 0.0
    for i, a in enumerate(pips):
        for b in pips[i + 1:]:
            angle = 4.0 * math.atan2(b.y - a.y, b.x - a.x)
            sx += math.cos(angle)
            sy += math.sin(angle)
    return math.atan2(sy, sx) / 4.0


def side_pips(gray: Gray, face: Face, config: SideConfig = SideConfig()) -> list[Pip]:
    """Pip candidates of the face's polarity around it (pixels of ``gray``), found
    with the side faces' search."""
    reach = math.ceil(face.die_size * (config.along[1] + 0.3))
    h, w = gray.shape
    cx, cy = round(face.center[0]), round(face.center[1])
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    x1, y1 = min(w, cx + reach + 1), min(h, cy + reach + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    found = find_pips(gray[y0:y1, x0:x1], face.polarity, config.pips)
    return [replace(p, x=p.x + x0, y=p.y + y0) for p in found]


def side_faces(face: Face, pips: list[Pip], config: SideConfig = SideConfig()) -> list[Side]:
    """The side faces whose pips show beside ``face`` (``pips``: the candidates of
    the face's polarity found around it, the face's own among them or not).  A
    band is bounded from its pips' places: measuring it across the side face
    overshoots wherever the board beyond is as dark as the side (on renders it
    called flat dice cocked five times as often)."""
    size = face.die_size
    if size <= 0.0:
        return []
    major = statistics.median([p.major for p in face.pips])
    own = {(p.x, p.y) for p in face.pips}
    angle = grid_angle(face)
    cx, cy = face.center
    bands: dict[tuple[float, float], list[float]] = {}
    for pip in pips:
        if pip.ratio > config.max_ratio or any(
                math.dist((pip.x, pip.y), xy) < 0.1 * size for xy in own):
            continue
        if not config.size[0] * major <= pip.major <= config.size[1] * major:
            continue
        dx, dy = (pip.x - cx) / size, (pip.y - cy) / size
        if angle is None:
            reach = math.hypot(dx, dy)
            if reach == 0.0:
                continue
            normal = (dx / reach, dy / reach)
        else:
            normal = max(((math.cos(angle + k * math.pi / 2.0),
                           math.sin(angle + k * math.pi / 2.0)) for k in range(4)),
                         key=lambda n: n[0] * dx + n[1] * dy)
        along = normal[0] * dx + normal[1] * dy
        across = normal[0] * dy - normal[1] * dx
        if not config.along[0] <= along <= config.along[1] or abs(across) > config.across:
            continue
        if _turn(pip.angle, math.degrees(math.atan2(normal[1], normal[0]))) > config.max_turn:
            continue
        key = (round(normal[0], 6), round(normal[1], 6))
        bands.setdefault(key, []).append(along)
    return [Side(normal, max((max(found) - 0.5) / config.far_row,
                             (max(found) - min(found)) / config.row_span), len(found))
            for normal, found in bands.items()]


def _turn(a: float, b: float) -> float:
    """Degrees between two undirected lines at angles ``a`` and ``b`` (degrees)."""
    turn = abs(a - b) % 180.0
    return min(turn, 180.0 - turn)
