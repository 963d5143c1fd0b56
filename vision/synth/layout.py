"""Where each checker of a scene physically lies, as players actually place them.

On a point, a row of up to ``stacking.row`` checkers runs from the rail
along the point; the next checkers go on top as a second layer, starting a
little further along (``stacking.shift`` diameters), one fewer per layer,
then a third layer, and so on.  Bar checkers line up along the bar from its
middle outward, light in one half and dark in the other.  Borne-off
checkers stand on edge in the tray in rows from its ends, light from the
bottom end, dark from the top.  Hand placement is sloppy: every checker
gets a small random offset and a random turn of its face pattern.

The layout is a pure function of the scene (its seed drives the jitter),
so the scene generator can keep dice clear of checkers and the renderer
draws the very same spots.
"""

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.synth.geometry import BoardGeometry
from vision.synth.scene import Scene

Colour = Literal["light", "dark"]
Place = Literal["point", "bar", "off"]
JITTER_STREAM = 1


@dataclass(frozen=True, slots=True)
class CheckerSpot:
    """One checker in world millimetres."""

    colour: Colour
    place: Place
    point: int | None
    """The physical point for ``place == "point"``."""
    layer: int
    """0 on the board, 1 on top of the first row, ... (0 for tray checkers)."""
    x: float
    y: float
    """Middle of the footprint (for a checker on edge: of its contact line)."""
    elevation: float
    """Height of its underside above the board."""
    spin_deg: float
    """Turn of the face pattern (matters only for marbled checkers)."""
    on_edge: bool = False
    """Standing on edge in the tray, its faces toward the tray's ends."""


def checker_spots(scene: Scene, geometry: BoardGeometry | None = None) -> tuple[CheckerSpot, ...]:
    """Every visible checker's spot; borne-off checkers only when the board has a tray."""
    geo = geometry or BoardGeometry.of(scene)
    rng = np.random.default_rng([scene.seed, JITTER_STREAM])
    spots: list[CheckerSpot] = []
    for index, counts in enumerate(scene.points):
        start = 0
        for colour, n in _colours(counts.light, counts.dark):
            spots.extend(_point_stack(scene, geo, rng, index, colour, n, start))
            start += n
    spots.extend(_bar(scene, geo, rng))
    spots.extend(_tray(scene, geo, rng))
    return tuple(spots)


def _colours(light: int, dark: int) -> tuple[tuple[Colour, int], tuple[Colour, int]]:
    return ("light", light), ("dark", dark)


def _slots(row: int, n: int, shift: float) -> list[tuple[int, float]]:
    """(layer, offset in diameters from the first position) for ``n`` checkers."""
    out: list[tuple[int, float]] = []
    layer = 0
    while len(out) < n:
        capacity = max(row - layer, 1)
        for k in range(capacity):
            if len(out) == n:
                break
            out.append((layer, k + layer * shift))
        layer += 1
    return out


def _point_stack(scene: Scene, geo: BoardGeometry, rng: np.random.Generator, index: int,
                 colour: Colour, n: int, start: int) -> list[CheckerSpot]:
    stacking = scene.stacking
    r, t = geo.checker_radius, geo.checker_thickness
    d = 2.0 * r * stacking.spacing
    top = scene.profile.is_top(index)
    edge, direction = (0.0, 1.0) if top else (geo.height, -1.0)
    x0 = scene.profile.point_u(index) * geo.width
    out = []
    for layer, along in _slots(stacking.row, start + n, stacking.shift)[start:]:
        jx, jy = rng.normal(0.0, stacking.jitter_mm, 2)
        y = edge + direction * (r + 1.0 + along * d + abs(float(jy)))
        out.append(CheckerSpot(colour, "point", index, layer, x0 + float(jx), y, layer * t,
                               float(rng.uniform(0.0, 360.0))))
    return out


def _bar(scene: Scene, geo: BoardGeometry, rng: np.random.Generator) -> list[CheckerSpot]:
    r, t = geo.checker_radius, geo.checker_thickness
    d = 2.0 * r * scene.stacking.spacing
    cube_centre = scene.cube is not None and scene.cube.position == "centre" \
        and abs(scene.cube.u - 0.5) < 0.05
    clear = (geo.cube / 2.0 + 3.0) if cube_centre else 2.0
    row = max(int((geo.height / 2.0 - clear - 2.0) / d), 1)
    out = []
    x0 = 0.5 * geo.width
    for colour, n in _colours(scene.bar.light, scene.bar.dark):
        bottom = scene.stacking.light_bar_bottom == (colour == "light")
        direction = 1.0 if bottom else -1.0
        for layer, along in _slots(row, n, scene.stacking.shift):
            jx, jy = rng.normal(0.0, scene.stacking.jitter_mm, 2)
            y = geo.height / 2.0 + direction * (clear + r + along * d + abs(float(jy)))
            out.append(CheckerSpot(colour, "bar", None, layer, x0 + float(jx), y, layer * t,
                                   float(rng.uniform(0.0, 360.0))))
    return out


def _tray(scene: Scene, geo: BoardGeometry, rng: np.random.Generator) -> list[CheckerSpot]:
    tray = geo.tray
    if tray is None:
        return []
    t = geo.checker_thickness
    pitch = t * 1.04
    out = []
    for colour, n in _colours(scene.off.light, scene.off.dark):
        from_bottom = colour == "light"
        for k in range(n):
            jx = float(rng.normal(0.0, scene.stacking.jitter_mm))
            along = 2.0 + t / 2.0 + k * pitch
            y = tray.y1 - along if from_bottom else tray.y0 + along
            out.append(CheckerSpot(colour, "off", None, 0, tray.centre_x + jx, y, 0.0,
                                   float(rng.uniform(0.0, 360.0)), on_edge=True))
    return out


def footprint_clear(spots: tuple[CheckerSpot, ...], x: float, y: float, radius: float,
                    checker_radius: float) -> bool:
    """True when a disc of ``radius`` at (x, y) touches no checker's footprint."""
    return all(math.hypot(s.x - x, s.y - y) >= radius + checker_radius
               for s in spots if not s.on_edge)
