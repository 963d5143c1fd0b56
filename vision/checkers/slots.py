"""The slot walk: looking for checkers exactly where a stack would put them.

The Hough search misses checkers that hardly stand out, a red checker on a
red point above all.  But a point's first checkers always lie in a row from
the rail, one diameter apart, so each next place can be looked at closely:
the best rim score near the expected spot, with a stricter threshold than
for Hough circles because there is no other evidence.  The walk stops at the
first empty place; second layers stay the Hough search's job.
"""

from dataclasses import dataclass, replace

from vision.checkers.detect import Circle, DetectConfig, Gradients, best_rim
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class SlotConfig:
    """Thresholds of the slot walk."""

    enabled: bool = True
    score: float = 0.72
    """Rim score a place needs without a Hough circle there."""
    gradient: float = 4.0
    alignment: float = 0.9
    reach: float = 0.35
    """How far (in radii) the checker may lie from its expected place."""
    spacing: float = 1.03
    """Centre-to-centre distance of stacked checkers, in diameters."""
    match: float = 0.6
    """A Hough circle within this many radii of the place is the checker there."""
    max_slots: int = 8


def walk_slots(grad: Gradients, circles: list[Circle], profile: BoardProfile, radius: float,
               config: SlotConfig, detect: DetectConfig) -> list[Circle]:
    """Circles the slot walk adds to ``circles`` (never one already there)."""
    if not config.enabled:
        return []
    rim = replace(detect, rim_gradient=config.gradient, rim_alignment=config.alignment)
    height, width = grad.magnitude.shape
    known = list(circles)
    added: list[Circle] = []
    step = 2.0 * radius * config.spacing
    for index in range(24):
        x0 = profile.point_u(index) * width
        down = index >= 12
        x, y = x0, (radius if down else height - radius)
        for _ in range(config.max_slots):
            here = _near(known, x, y, config.match * radius)
            if here is None:
                score, circle = best_rim(grad, x, y, radius, config.reach * radius, rim)
                if score < config.score:
                    break
                known.append(circle)
                added.append(circle)
                here = circle
            x = 0.5 * (here.x + x0)
            y = here.y + (step if down else -step)
            if not 0.0 <= y <= height:
                break
    return added


def _near(circles: list[Circle], x: float, y: float, distance: float) -> Circle | None:
    best: Circle | None = None
    best_d = distance
    for c in circles:
        d = ((c.x - x) ** 2 + (c.y - y) ** 2) ** 0.5
        if d <= best_d:
            best, best_d = c, d
    return best
