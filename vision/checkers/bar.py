"""A second look along the bar, where checkers are dark on dark.

The bar is usually the frame's colour: dark wood, leather, black.  A dark
checker there has a faint rim, and the general search (which must hold its
threshold everywhere on the field) can miss it.  But checkers on the bar
lie on one line, its middle, so that line alone is searched again with a
lower threshold: where a whole rim is expected and nothing else is, even a
faint one means a checker.  Empty bars score far lower along that line
(hinges and the cube do not look round).
"""

from dataclasses import dataclass, replace

import numpy as np

from vision.checkers.detect import Circle, DetectConfig, refine
from vision.checkers.rim import EdgeMap, rim_evidence, rim_scores
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class BarConfig:
    """Thresholds of the bar search (distances in checker radii)."""

    enabled: bool = True
    score: float = 0.85
    """Rim score (with the bar's fainter edges counted) a circle on the bar's middle line
    needs."""
    step: float = 0.3
    """Step along the bar between places looked at."""
    clear: float = 1.6
    """Places this close to a circle already found are not looked at."""
    refinements: int = 3
    promising: float = 0.5
    """Places scoring this before any refinement are refined (the rest are empty bar)."""
    strip: float = 2.3
    """Half the width of the strip along the bar looked at (a checker and its rim band)."""
    gradient: float = 1.0
    """Least gradient that counts on the bar (grey levels per pixel): the bar is plain, so
    fainter edges than on a textured field stand out."""
    rail_clear: float = 1.5
    """Centres this close to the field's border (top or bottom) are not looked for here:
    the bar's ends hold the rail's edge and shadow, hinges and a cube on the rail, which
    the lowered threshold takes for faint rims; bar checkers line up from the middle, and
    one out at the rail (the sixth of a side) shows a whole rim to the general search.
    Two phantoms at the bar's ends on renders outside the benches' seeds; 0 looks
    everywhere."""


def find_bar_circles(edges: EdgeMap, circles: list[Circle], profile: BoardProfile,
                     radius: float, detect: DetectConfig,
                     config: BarConfig | None = None) -> list[Circle]:
    """Circles on the bar's middle line that the general search missed."""
    config = config or BarConfig()
    if not config.enabled or profile.bar_width <= 0.0:
        return []
    detect = replace(detect, rim=replace(detect.rim, gradient=config.gradient))
    left = max(int(0.5 * edges.width - config.strip * radius), 0)
    right = min(int(0.5 * edges.width + config.strip * radius) + 1, edges.width)
    # The frame's gradient on the strip, thresholded lower: the strip's outermost columns
    # are never looked at (the rims reach 1.4 radii out at most).
    strip = edges.columns(left, right, detect.rim.gradient)
    x = 0.5 * edges.width
    end = max(config.rail_clear, 1.0) * radius
    ys = np.arange(end, edges.height - end + 1e-9, config.step * radius)
    known = np.array([(c.x, c.y) for c in circles]) if circles else np.zeros((0, 2))
    if len(known):
        far = np.hypot(known[None, :, 0] - x, known[None, :, 1] - ys[:, None]).min(axis=1)
        ys = ys[far >= config.clear * radius]
    if len(ys) == 0:
        return []
    centres = np.column_stack([np.full(len(ys), x - left), ys])
    hit, seen = rim_evidence(strip, centres[:, 0], centres[:, 1], radius, detect.rim)
    promising = rim_scores(hit, seen, None, 1) >= config.promising
    centres = centres[promising]
    if len(centres) == 0:
        return []
    scores = np.zeros(len(centres))
    for _ in range(config.refinements):
        scores, centres = refine(strip, centres, radius, None, detect)
    centres[:, 0] += left
    found: list[Circle] = []
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < config.score:
            break
        cx, cy = float(centres[i, 0]), float(centres[i, 1])
        if min(cy, edges.height - cy) < config.rail_clear * radius:
            continue
        others = [*((c.x, c.y) for c in found), *map(tuple, known)]
        if any(np.hypot(cx - ox, cy - oy) < config.clear * radius for ox, oy in others):
            continue
        found.append(Circle(cx, cy, radius))
    return found
