"""Circles the dice make: a die on the field taken for a checker.

The checker stage finds circles of a checker's size by their rims and by the points'
slots; a die lying on the field beside a stack or on an empty point can make one
(its outline and shadow give part of a rim, a row's slot asks for a checker there).  The
checker stage alone cannot tell such a circle from a checker with a die on it.  The dice
stage can: it finds the die and says whether a checker lies under it (the checker mask
covering the ring round the die, ``CheckerTestConfig``).  So, once the dice are read, a
circle centred near a die the dice stage found *off* the checkers, whose ring does not
show its side's colour, is the die and not a checker: it is left out and the field
counted again (:meth:`.reader.CheckerEvidence.without_circles`).
"""

from dataclasses import dataclass

import numpy as np

from vision.checkers.colours import Lab
from vision.checkers.detect import Circle


@dataclass(frozen=True, slots=True)
class DiceCirclesConfig:
    """When a circle is a die the dice stage found, not a checker."""

    reach: float = 0.8
    """A circle whose centre lies within this many checker radii of the centre of a die
    found on the field (in the rectified field) may be that die.  A die is about 0.4
    checker diameters across: one lying wholly on a checker has its centre within about
    0.45 radii of the checker's; the circles dice made on the tune renders were centred
    0.47-0.58 radii from them (pipeline tune seeds 41 scene 770, 43/757, 44/77, 44/471),
    and the checkers a die lay *beside* 1.04-1.19 radii (seeds 44 and 45).  0.6-1.1 read
    the same there; 1.3 took checkers beside dice (two boards lost).  0: off."""
    colour: float = 10.0
    """... and whose ring's colour (:func:`.colours.circle_colours`, the ring outside a die
    lying on a checker) lies at least this far (Lab, lightness weighted by
    ``ColourConfig.lightness_weight``) from the median of the other circles of its side:
    a die's circle rings the board round the die (17.0, 17.0, 41.7 and 16.7 on the four
    tune renders above), a checker under a die its own face (at most 13.1 over the 79
    circles within 1.2 radii of a die on tune seeds 44 and 45, at most 3.4 over the six
    under a die the dice stage called off the checkers, a die on a checker's edge).  5-15
    read the same there; 20 kept the dice's circles."""
    least: int = 2
    """The other circles of its side needed to tell its colour by (fewer: kept)."""


def dice_circles(circles: list[Circle], light: list[bool], colours: tuple[Lab, ...],
                 radius: float, dice: list[tuple[float, float]], lightness_weight: float,
                 config: DiceCirclesConfig) -> list[int]:
    """The indices of the circles that are dice, not checkers (see the module).

    ``dice``: the centres, in the circles' rectified pixels, of the dice found on the field
    that the dice stage found off the checkers; ``colours``: each circle's ring colour."""
    if config.reach <= 0.0 or not dice or not circles or len(colours) != len(circles):
        return []
    xs = np.array([c.x for c in circles])
    ys = np.array([c.y for c in circles])
    centres = np.array(dice, dtype=np.float64).reshape(-1, 2)
    near = np.hypot(xs[:, None] - centres[None, :, 0], ys[:, None] - centres[None, :, 1])
    candidates = np.flatnonzero((near <= config.reach * radius).any(axis=1))
    if len(candidates) == 0:
        return []
    weights = np.array([lightness_weight, 1.0, 1.0])
    lab = np.array(colours, dtype=np.float64) * weights
    sides = np.array(light, dtype=bool)
    found = []
    for i in candidates:
        others = sides == sides[i]
        others[i] = False
        if int(others.sum()) < config.least:
            continue
        middle = np.median(lab[others], axis=0)
        if float(np.linalg.norm(lab[i] - middle)) >= config.colour:
            found.append(int(i))
    return found
