"""A circle the checker stage found where the dice stage found a die off the checkers, its
ring not of its side's colour, is the die: the field is counted without it
(``DiceCirclesConfig``, :mod:`vision.checkers.dice_circles`)."""

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.checkers.detect import Circle
from vision.checkers.dice_circles import DiceCirclesConfig, dice_circles
from vision.checkers.reader import CheckerConfig
from vision.config import VisionConfig
from vision.observation import Corners, Counts, Die
from vision.pipeline import BoardReader, _field_dice
from vision.rectify import FieldMap
from vision.synth import random_scene, render

OFF = VisionConfig(checkers=CheckerConfig(dice=DiceCirclesConfig(reach=0.0)))
"""The rule switched off."""

RADIUS = 24.0
WHITE = (240.0, 128.0, 128.0)
BLACK = (30.0, 128.0, 128.0)
BOARD = (180.0, 140.0, 160.0)
"""Lab colours: a white and a black checker's rings, and a tan board's."""


def _read(scene_seed: int, point: int, config: VisionConfig | None) -> tuple[Counts, Counts]:
    """The truth on ``point`` of a vision_accuracy scene and the pipeline's reading (the
    scene's true corners, dice read from the frame)."""
    scene = random_scene(np.random.default_rng(scene_seed))
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    calibration = Calibration(corners, "manual", (frame.shape[1], frame.shape[0]),
                              profile=scene.profile)
    seen = BoardReader(config, calibration=calibration).read(frame)
    return truth.observation.points[point], seen.points[point]


@pytest.mark.parametrize(("scene_seed", "point", "without"), [
    (41_000_770, 14, Counts(0, 9)),
    (43_000_757, 15, Counts(5, 0)),
])
def test_a_die_off_the_checkers_is_no_checker_on_the_render(scene_seed: int, point: int,
                                                            without: Counts) -> None:
    """Fresh tune seed 41, scene 770: a black die beside a stack of four blacks on p14 made
    a circle overlapping the fourth, read as a layer (ten; nine since
    ``StackConfig.under_layer``: the checker the die's circle covers, before its slot,
    stays in the row).  Seed 43, scene 757: a white die on the empty part of p15 made a
    circle far out along a point holding one white at the rail (read five).  Without the
    rule both read so."""
    want, read = _read(scene_seed, point, None)
    assert read == want
    assert _read(scene_seed, point, OFF)[1] == without


def _circles() -> tuple[list[Circle], list[bool], tuple[tuple[float, float, float], ...]]:
    """Three white and three black checkers along two rails, and one more circle at
    (300, 300) whose ring is the board's."""
    circles = [Circle(30.0 + 50.0 * i, 24.0, RADIUS) for i in range(3)]
    circles += [Circle(30.0 + 50.0 * i, 570.0, RADIUS) for i in range(3)]
    circles.append(Circle(300.0, 300.0, RADIUS))
    light = [True] * 3 + [False] * 3 + [True]
    colours = (WHITE,) * 3 + (BLACK,) * 3 + (BOARD,)
    return circles, light, colours


def _found(dice: list[tuple[float, float]], config: DiceCirclesConfig | None = None,
           colours: tuple[tuple[float, float, float], ...] | None = None) -> list[int]:
    circles, light, own = _circles()
    return dice_circles(circles, light, own if colours is None else colours, RADIUS, dice,
                        0.3, config or DiceCirclesConfig())


def test_only_a_circle_near_a_die_whose_ring_is_not_its_sides_colour_is_the_die() -> None:
    """A die 0.5 radii from the lone circle whose ring shows the board: the die.  The
    same die 1.1 radii away (beside a checker), or the circle's ring white as its side's
    (a checker the die leans on), or the rule off: a checker."""
    assert _found([(312.0, 300.0)]) == [6]
    assert _found([(300.0 + 1.1 * RADIUS, 300.0)]) == []
    colours = _circles()[2]
    assert _found([(312.0, 300.0)], colours=(*colours[:6], WHITE)) == []
    assert _found([(312.0, 300.0)], DiceCirclesConfig(reach=0.0)) == []
    assert _found([]) == []


def test_a_side_of_too_few_other_circles_tells_no_colour() -> None:
    """With ``least`` more than the three other whites, the circle is kept whatever its
    ring."""
    assert _found([(312.0, 300.0)], DiceCirclesConfig(least=4)) == []
    assert _found([(312.0, 300.0)], DiceCirclesConfig(least=3)) == [6]


def test_only_the_dice_found_off_the_checkers_are_asked_about() -> None:
    """A die the dice stage found on a checker lies on a real one: only the die off the
    checkers goes to the checker stage, at its place in the rectified field (a field
    of 1,000 x 800 camera pixels from (100, 50), read at 640 x 512)."""
    field_map = FieldMap.from_corners(Corners((100.0, 50.0), (1100.0, 50.0),
                                              (1100.0, 850.0), (100.0, 850.0)))
    dice = (Die(3, (600.0, 450.0), on_checker=True), Die(5, (350.0, 250.0)))
    (x, y), = _field_dice(dice, field_map, (640, 512))
    assert x == pytest.approx(160.0)
    assert y == pytest.approx(128.0)
