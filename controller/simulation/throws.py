"""Where thrown dice come to rest: fairly in the thrower's half, or in one of the void ways.

A fair die lies flat on the field in the thrower's right half, clear of
checkers, the other dice and the cube.  The void throws of the etiquette
(``shared/rules/README.md``) are drawn the way they happen at a table:

* ``cocked``: one die leans against a checker, tilted 12-30 degrees;
* ``wrong_half``: both dice roll over the bar into the other half;
* ``on_checker``: one die rests flat on top of a checker;
* ``off_field``: one die bounced onto the rail just beyond the field's edge.

While dice tumble they show other numbers at other places, now and then on
an edge; :func:`tumbling` draws such in-flight frames.
"""

from __future__ import annotations

import math

import numpy as np

from controller.simulation.table import Half, Table
from controller.simulation.timeline import Board, VoidReason
from vision.synth.layout import CheckerSpot, footprint_clear
from vision.synth.scene import DiePlacement


class NoRoomError(Exception):
    """The dice found no free place (a crowded half): the director draws again."""


def _box(table: Table, half: Half, margin: float) -> tuple[float, float, float, float]:
    """x0, x1, y0, y1 in millimetres of a half, less a margin."""
    g = table.geometry
    left, right = g.profile.bar_span
    if half == "left":
        return margin, left * g.width - margin, margin, g.height - margin
    return right * g.width + margin, g.width - margin, margin, g.height - margin


def _clear(table: Table, spots: tuple[CheckerSpot, ...], placed: list[DiePlacement],
           x: float, y: float) -> bool:
    g = table.geometry
    if not footprint_clear(spots, x, y, g.die * 0.75, g.checker_radius):
        return False
    return all(math.hypot(d.u * g.width - x, d.v * g.height - y) > g.die * 1.8 for d in placed)


def _flat(rng: np.random.Generator, table: Table, spots: tuple[CheckerSpot, ...],
          placed: list[DiePlacement], half: Half, value: int) -> DiePlacement:
    g = table.geometry
    x0, x1, y0, y1 = _box(table, half, g.die * 0.9)
    for _ in range(400):
        x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        if _clear(table, spots, placed, x, y):
            return DiePlacement(value, x / g.width, y / g.height, float(rng.uniform(0.0, 90.0)))
    raise NoRoomError(f"no free place for a die in the {half} half")


def _cocked(rng: np.random.Generator, table: Table, spots: tuple[CheckerSpot, ...],
            placed: list[DiePlacement], half: Half, value: int) -> DiePlacement:
    """Leaning against a checker on the board's surface."""
    g = table.geometry
    x0, x1, y0, y1 = _box(table, half, g.die)
    ground = [s for s in spots if s.place == "point" and s.layer == 0 and x0 < s.x < x1]
    for _ in range(200):
        if not ground:
            break
        s = ground[int(rng.integers(len(ground)))]
        phi = float(rng.uniform(0.0, 2.0 * math.pi))
        x = s.x + math.cos(phi) * (g.checker_radius + g.die * 0.6)
        y = s.y + math.sin(phi) * (g.checker_radius + g.die * 0.6)
        if not (x0 < x < x1 and y0 < y < y1):
            continue
        others = tuple(o for o in spots if o is not s)
        if not footprint_clear(others, x, y, g.die * 0.75, g.checker_radius):
            continue
        if any(math.hypot(d.u * g.width - x, d.v * g.height - y) <= g.die * 1.8 for d in placed):
            continue
        lean = math.degrees(math.atan2(s.y - y, s.x - x))
        return DiePlacement(value, x / g.width, y / g.height, float(rng.uniform(0.0, 90.0)),
                            float(rng.uniform(14.0, 30.0)), lean)
    # No checker to lean on in this half: cocked against the rail.
    flat = _flat(rng, table, spots, placed, half, value)
    return DiePlacement(value, flat.u, flat.v, flat.yaw_deg, float(rng.uniform(14.0, 30.0)),
                        float(rng.uniform(0.0, 360.0)))


def _on_checker(rng: np.random.Generator, table: Table, spots: tuple[CheckerSpot, ...],
                placed: list[DiePlacement], half: Half, value: int) -> DiePlacement:
    g = table.geometry
    x0, x1, _, _ = _box(table, half, 0.0)
    tops = [s for s in spots if s.place == "point" and not s.on_edge and x0 < s.x < x1
            and not any(o.elevation > s.elevation and math.hypot(o.x - s.x, o.y - s.y)
                        < 2.0 * g.checker_radius for o in spots)]
    rng.shuffle(tops)
    for s in tops:
        x = s.x + float(rng.uniform(-0.15, 0.15)) * g.checker_radius
        y = s.y + float(rng.uniform(-0.15, 0.15)) * g.checker_radius
        if all(math.hypot(d.u * g.width - x, d.v * g.height - y) > g.die * 1.8 for d in placed):
            return DiePlacement(value, x / g.width, y / g.height, float(rng.uniform(0.0, 90.0)),
                                on_checker=True)
    raise NoRoomError(f"no checker to rest a die on in the {half} half")


def _off_field(rng: np.random.Generator, table: Table, half: Half,
               value: int) -> DiePlacement:
    """On the rail beyond the top or bottom edge, just past the field (as dice bounce)."""
    g = table.geometry
    x0, x1, _, _ = _box(table, half, g.die * 1.5)
    u = float(rng.uniform(x0, x1)) / g.width
    beyond = (g.die * 0.5 + float(rng.uniform(1.0, 3.0))) / g.height
    v = -beyond if rng.random() < 0.5 else 1.0 + beyond
    return DiePlacement(value, u, v, float(rng.uniform(0.0, 90.0)))


def other_half(half: Half) -> Half:
    return "left" if half == "right" else "right"


def land(rng: np.random.Generator, table: Table, board: Board, half: Half,
         values: tuple[int, ...], void: VoidReason | None = None,
         lying: tuple[DiePlacement, ...] = ()) -> tuple[DiePlacement, ...]:
    """Dice at rest showing ``values``, fairly or in the ``void`` way.

    ``lying``: dice already on the board (the opponent's, for an early throw),
    which the new ones must not touch.
    """
    spots = table.spots(board)
    placed = list(lying)
    out: list[DiePlacement] = []
    spoiled = int(rng.integers(len(values)))
    for i, value in enumerate(values):
        if void == "wrong_half":
            die = _flat(rng, table, spots, placed, other_half(half), value)
        elif void == "cocked" and i == spoiled:
            die = _cocked(rng, table, spots, placed, half, value)
        elif void == "on_checker" and i == spoiled:
            die = _on_checker(rng, table, spots, placed, half, value)
        elif void == "off_field" and i == spoiled:
            die = _off_field(rng, table, half, value)
        else:
            die = _flat(rng, table, spots, placed, half, value)
        placed.append(die)
        out.append(die)
    return tuple(out)


def tumbling(rng: np.random.Generator, table: Table, board: Board, half: Half, count: int,
             lying: tuple[DiePlacement, ...] = ()) -> tuple[DiePlacement, ...]:
    """Dice in mid-roll: random faces at random places of the half, one maybe on an edge."""
    spots = table.spots(board)
    placed = list(lying)
    out: list[DiePlacement] = []
    for _ in range(count):
        value = int(rng.integers(1, 7))
        if rng.random() < 0.3:
            flat = _flat(rng, table, spots, placed, half, value)
            die = DiePlacement(value, flat.u, flat.v, flat.yaw_deg,
                               float(rng.uniform(20.0, 40.0)), float(rng.uniform(0.0, 360.0)))
        else:
            die = _flat(rng, table, spots, placed, half, value)
        placed.append(die)
        out.append(die)
    return tuple(out)
