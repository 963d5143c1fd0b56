"""A second look at the places a missed checker must be: the slots along each point.

The general search holds one gradient threshold over the whole field, and
some checkers show less than that all round: a black checker on a black
point, a white one on a white point under a lamp, a checker pressed against
the rail whose rim the field's border cuts.  But a checker on a point is
never just anywhere: its stack starts at the rail, on the point's middle
line, and every further checker lies one spacing on.  So those few places
are looked at again with a lower threshold (as :mod:`.bar` does on the
bar): the first slot of every point, and the slots of a stack up to one past
its farthest checker, where no circle was found.  At a place where a whole
rim is expected and nothing else stands, even a faint one means a checker;
an empty point's base shows a rim only where the triangle's sides and the
border run along it, far less than a checker's.
"""

from dataclasses import dataclass, replace

import numpy as np

from vision.checkers.detect import Circle, DetectConfig, Floats, refine
from vision.checkers.rim import EdgeMap, rim_evidence, rim_scores
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class SlotConfig:
    """Thresholds of the slot search (distances in checker radii)."""

    enabled: bool = True
    score: float = 0.85
    """Rim score (with the fainter edges counted) a circle on a slot needs."""
    gradient: float = 1.2
    """Least gradient that counts here (grey levels per pixel; 2.0 on the whole field)."""
    min_seen: int = 44
    """Rim directions (of 64) inside the image a circle on a slot needs: one against the
    rail may lose a little to the border, not more."""
    gap: float = 0.08
    """Where the first slot's centre is expected: this far from the rail beyond one
    radius."""
    spacing: float = 2.06
    """Distance of slots along a point, when the frame's own stacks cannot say."""
    clear: float = 1.5
    """Slots this close to a circle already found are not looked at."""
    beyond: int = 1
    """Slots looked at past a stack's farthest checker."""
    most: int = 6
    """Slots looked at along a point at most."""
    promising: float = 0.45
    """Places scoring this before any refinement are refined (the rest are empty)."""
    refine_steps: tuple[float, ...] = (0.16, 0.08)
    """Steps of the 3 x 3 searches about a slot, in radii: a slot's checker may lie a
    little off its place."""
    rounds: int = 3
    """Rounds of the search: a checker found on a slot opens the slot beyond it."""
    rail_margin: float = 0.55
    """A centre on a slot lies at least this far from the field's border."""


def find_slot_circles(edges: EdgeMap, circles: list[Circle], profile: BoardProfile,
                      radius: float, detect: DetectConfig,
                      config: SlotConfig | None = None) -> list[Circle]:
    """Circles on the points' slots that the general search missed."""
    config = config or SlotConfig()
    if not config.enabled:
        return []
    found: list[Circle] = []
    faint: EdgeMap | None = None
    for top in (True, False):
        for _ in range(config.rounds):
            places = _places(circles + found, profile, edges.width, edges.height, radius,
                             top, config)
            if len(places) == 0:
                break
            faint = faint or edges.with_gradient(config.gradient)
            new = _accepted(faint, places, radius, detect, config)
            found += [Circle(x, y, radius) for x, y in new]
            if not new:
                break
    return found


def _places(circles: list[Circle], profile: BoardProfile, width: int, height: int,
            radius: float, top: bool, config: SlotConfig) -> Floats:
    """The slot centres along the points of one row (x, y in field pixels) not near a
    circle found already."""
    step = config.spacing * radius
    known = np.array([(c.x, c.y) for c in circles]) if circles else np.zeros((0, 2))
    rail = known[:, 1] if top else height - known[:, 1]
    xs = np.array([profile.point_u(i) * width for i in (range(12, 24) if top else range(12))])
    on_point = (np.abs(known[None, :, 0] - xs[:, None]) < radius) \
        & (rail[None, :] < 0.5 * height)
    slot = np.floor((rail - radius) / step + 0.5)
    farthest = np.where(on_point, slot[None, :], -1.0).max(axis=1, initial=-1.0)
    last = np.clip(farthest + config.beyond, 0, config.most - 1).astype(int)
    ks = np.arange(config.most)
    pick = ks[None, :] <= last[:, None]
    along = radius * (1.0 + config.gap) + ks * step
    px = np.broadcast_to(xs[:, None], pick.shape)[pick]
    py = np.broadcast_to((along if top else height - along)[None, :], pick.shape)[pick]
    places = np.column_stack([px, py])
    if len(known):
        d2 = ((places[:, None, :] - known[None, :, :]) ** 2).sum(axis=2).min(axis=1)
        places = places[d2 >= (config.clear * radius) ** 2]
    return places


def _accepted(edges: EdgeMap, places: Floats, radius: float, detect: DetectConfig,
              config: SlotConfig) -> list[tuple[float, float]]:
    """The places (in the band's pixels) where a whole faint rim shows."""
    hit, seen = rim_evidence(edges, places[:, 0], places[:, 1], radius, detect.rim)
    promising = rim_scores(hit, seen, None, config.min_seen) >= config.promising
    centres = places[promising]
    if len(centres) == 0:
        return []
    search = replace(detect, edge_margin=config.rail_margin)
    for step in config.refine_steps:
        _, centres = refine(edges, centres, radius, None, search, step)
    hit, seen = rim_evidence(edges, centres[:, 0], centres[:, 1], radius, detect.rim)
    scores = rim_scores(hit, seen, None, config.min_seen)
    out: list[tuple[float, float]] = []
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < config.score:
            break
        x, y = float(centres[i, 0]), float(centres[i, 1])
        if any(np.hypot(x - ox, y - oy) < config.clear * radius for ox, oy in out):
            continue
        out.append((x, y))
    return out
