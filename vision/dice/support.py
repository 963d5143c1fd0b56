"""Whether a die has something to lean on: a checker, the rail or the bar.

A die cannot stay tilted in open space: a cocked die rests against a checker,
the rail (the field's edge), the bar or the other die.  So a die with nothing
of that within reach gets the strict flat test, and a die with support may be
called cocked on slighter evidence (see ``PoseConfig.supported_squash``).
This only ever loosens the test where a lean is possible: it keeps false
alarms down in open space and finds no cocked die by itself.

Support is judged in the field: checkers from the caller's checker mask (in
frame pixels, the one :func:`vision.dice.checker.on_checker` reads), sampled
on a circle around the die's centre; the rail and the bar from the board
profile; the other dice from their centres as the board stage found them.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ConfigError
from vision.profile import BoardProfile
from vision.rectify import FieldMap


@dataclass(frozen=True, slots=True)
class SupportConfig:
    """How near a die's support must be (die edges, from the die's centre)."""

    reach: float = 0.8
    """A checker, the rail or the bar this near the die's centre can hold it
    tilted.  A die leaning on something has its centre about half a die edge
    from it, a little more as it tilts: on renders (``vision/synth/generate.py``
    leans dice on a checker's rim, the rail and the bar) every cocked die had
    its support within 0.5-0.69 die edges in the rectified field (a checker's
    top face is seen shifted outward by perspective), and 5-10 % of flat dice
    had one within 0.8."""
    samples: int = 24
    """Points on the circle looked at in the checker mask."""
    below_counts: bool = False
    """Whether checkers count when the die's centre lies on one.  A die whose
    centre is on a checker lies on its flat top face: it cannot lean on that
    checker (a die cocked partly onto a checker has its centre off it), and the
    checker's rim within reach on every side is no sign of a lean."""

    die_reach: float = 1.45
    """Another die whose centre is this near (die edges) can hold the die
    tilted: two dice side by side have their centres one edge apart, one
    leaning on the other up to about 1.4.  The renderer lays flat dice more
    than 1.5 apart (``vision/synth/generate.py``) and leans none on another, so
    the renders do not measure this: it keeps a die leaning on the other die
    from being called flat by ``PoseConfig.cocked_needs_support``."""

    rings: tuple[float, ...] = (0.55, 0.65)
    """Smaller circles (die edges) also looked at for checkers, to tell how near one is
    (only the nearest support's direction is used, see :func:`lean_direction`): a
    die leaning on a checker has its rim 0.5-0.69 die edges from its centre in the
    rectified field, a flat die's neighbours lie farther."""

    second_reach: float = 0.7
    """Other supports this near (die edges, as :func:`lean_directions` measures them)
    may be what the die leans on too: the sides turned from them are looked at for
    the tipped-up face as well as those turned from the nearest
    (``PoseConfig.outline_margin``).  A die leaning on a checker by the rail is
    often nearer the rail, whose direction then points the wrong way.  Renders of
    ``bench/dice_pose_accuracy.py``'s scenes, tune seeds 21 (300 scenes) and 22
    (250), tuned styles, 2x still: cocked found 195 -> 195 of 215 and 160 -> 163
    of 185 (0.8 the same, 0.6 162), flat called cocked 0/190 and 0/158 before and
    after, as if every flat die had support (``--any-support``) 4/190 and 10/158
    before and after."""

    def __post_init__(self) -> None:
        if not self.reach > 0.0 or self.samples < 4 or self.die_reach < 0.0 \
                or self.second_reach < 0.0:
            raise ConfigError("dice support: reach is positive, samples at least 4, "
                              "die_reach and second_reach at least 0")


def supported(uv: tuple[float, float], die: float, field_map: FieldMap, profile: BoardProfile,
              checker_mask: npt.NDArray[np.generic] | None,
              config: SupportConfig = SupportConfig(),
              others: Sequence[tuple[float, float]] = ()) -> bool:
    """Whether the die at field point ``uv``, ``die`` field widths wide, has a
    checker (non-zero in ``checker_mask``, frame pixels of ``field_map``), the
    field's edge or the bar within ``config.reach`` die edges of its centre, or
    another die (``others``: their centres, field points) within
    ``config.die_reach``."""
    return lean_direction(uv, die, field_map, profile, checker_mask, config, others) is not None


def lean_direction(uv: tuple[float, float], die: float, field_map: FieldMap,
                   profile: BoardProfile, checker_mask: npt.NDArray[np.generic] | None,
                   config: SupportConfig = SupportConfig(),
                   others: Sequence[tuple[float, float]] = ()) -> tuple[float, float] | None:
    """The direction from the die toward the nearest thing it could lean on, as a
    unit vector in the rectified field (u to the right, v down, both at the
    field width's scale), or None when nothing is within reach (the die is not
    :func:`supported`; the arguments are as there).  A checker's distance is the
    least of ``config.rings`` (and ``reach``) at which the mask holds one, its
    direction the mean of that ring's points on it; another die's is its
    centre's less half a die edge (its near face)."""
    near = lean_directions(uv, die, field_map, profile, checker_mask, config, others)
    return near[0][1] if near else None


def lean_directions(uv: tuple[float, float], die: float, field_map: FieldMap,
                    profile: BoardProfile, checker_mask: npt.NDArray[np.generic] | None,
                    config: SupportConfig = SupportConfig(),
                    others: Sequence[tuple[float, float]] = ()
                    ) -> list[tuple[float, tuple[float, float]]]:
    """Every thing within reach the die could lean on, nearest first, as (distance in
    die edges, unit direction in the rectified field) (see :func:`lean_direction`;
    checkers give one entry, the nearest ring's)."""
    u, v = uv
    found: list[tuple[float, tuple[float, float]]] = []  # (die edges, direction)
    for ou, ov in others:
        du, dv = (ou - u) / die, (ov - v) / (die * profile.field_aspect)
        apart = math.hypot(du, dv)
        if 0.0 < apart <= config.die_reach:
            found.append((apart - 0.5, (du / apart, dv / apart)))
    reach_u = config.reach * die
    aspect = profile.field_aspect  # v runs over the field's depth
    for distance, direction in ((u / die, (-1.0, 0.0)), ((1.0 - u) / die, (1.0, 0.0)),
                                (v / aspect / die, (0.0, -1.0)),
                                ((1.0 - v) / aspect / die, (0.0, 1.0))):
        if distance <= config.reach:
            found.append((distance, direction))
    left, right = profile.bar_span
    if left - reach_u <= u <= right + reach_u:
        if u < left:
            found.append(((left - u) / die, (1.0, 0.0)))
        elif u > right:
            found.append(((u - right) / die, (-1.0, 0.0)))
        else:  # on the bar: toward its nearer edge
            found.append((0.0, (-1.0, 0.0) if u - left < right - u else (1.0, 0.0)))
    checker = _checker_direction(uv, die, field_map, profile, checker_mask, config)
    if checker is not None:
        found.append(checker)
    return sorted(found, key=lambda f: f[0])


def _checker_direction(uv: tuple[float, float], die: float, field_map: FieldMap,
                       profile: BoardProfile, checker_mask: npt.NDArray[np.generic] | None,
                       config: SupportConfig) -> tuple[float, tuple[float, float]] | None:
    """(die edges, direction) of the nearest checker within reach, None for none (or
    one under the die's centre, unless ``config.below_counts``)."""
    if checker_mask is None:
        return None
    if checker_mask.ndim != 2:
        raise ValueError("the checker mask is a 2-D image (non-zero = checker)")
    u, v = uv
    height, width = checker_mask.shape
    if not config.below_counts:
        x, y = field_map.image_point(u, v)
        col, row = round(x), round(y)
        if 0 <= col < width and 0 <= row < height and checker_mask[row, col] != 0:
            return None
    # the circles' points mapped at once (the frame path reads every die's support)
    radii = sorted({*(r for r in config.rings if r < config.reach), config.reach})
    angles = np.linspace(0.0, 2.0 * math.pi, config.samples, endpoint=False)
    reach_u = np.repeat(np.array(radii) * die, config.samples)
    turns = np.tile(angles, len(radii))
    ring = np.stack([u + reach_u * np.cos(turns),
                     v + reach_u * profile.field_aspect * np.sin(turns)], axis=-1)
    image = cv2.perspectiveTransform(ring.reshape(-1, 1, 2), field_map.to_image).reshape(-1, 2)
    cols, rows = np.rint(image[:, 0]).astype(np.int64), np.rint(image[:, 1]).astype(np.int64)
    inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
    on = np.zeros(len(cols), bool)
    on[inside] = checker_mask[rows[inside], cols[inside]] != 0
    hit = on.reshape(len(radii), config.samples)
    if not hit[-1].any():  # the outer ring (reach) decides whether a checker holds it
        return None
    first = int(np.argmax(hit.any(axis=1)))
    dx = float(np.cos(angles[hit[first]]).sum())
    dy = float(np.sin(angles[hit[first]]).sum())
    norm = math.hypot(dx, dy)
    if norm == 0.0:  # all round: no way to tell
        return radii[first], (0.0, 0.0)
    return radii[first], (dx / norm, dy / norm)
