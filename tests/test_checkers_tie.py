"""A point whose circles were told light and dark in equal numbers takes the colour its
circles lean to together (CountConfig.tie_lean), not light by default."""

from tests.test_checkers_tray import WIDTH, _row_circles
from vision.checkers.colours import colour_leans, split_colours
from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import expected_radius
from vision.profile import TOURNAMENT

WHITE = (200.0, 125.0, 138.0)
GREY_WHITE = (150.0, 128.0, 128.0)
"""A white checker whose glare was taken off too much (the same scene: 144-150)."""
BLACK = (30.0, 128.0, 130.0)
LIT_BLACK = (116.0, 128.0, 130.0)
"""A black checker's face under a lamp's glare on an outermost point (vision_accuracy's
tune seed 27, scene 47): nearer the white's lightness than before, still nearer black."""


def _two_black_one_lit() -> tuple[list[bool], list[float], list[int]]:
    """White on points 12-14, black on 0-2, and point 23 with two black checkers, the one
    at the rail lit so that it is told light: the colours, their leans, the circles'
    points."""
    stacks = {12: [0.0, 1.0], 13: [0.0, 1.0, 2.0], 14: [0.0], 0: [0.0, 1.0],
              1: [0.0, 1.0, 2.0], 2: [0.0], 23: [0.0, 1.0]}
    points = [p for p, slots in stacks.items() for _ in slots]
    colours = [LIT_BLACK if (p, k) == (23, 0) else BLACK if p < 12 or p == 23
               else GREY_WHITE if k % 2 else WHITE
               for p, slots in stacks.items() for k in range(len(slots))]
    light = split_colours(colours)
    return light, colour_leans(colours, light), points


def test_an_even_split_on_a_point_takes_the_colour_its_circles_lean_to() -> None:
    light, lean, points = _two_black_one_lit()
    at23 = [f for f, p in zip(light, points, strict=True) if p == 23]
    assert sorted(at23) == [False, True]  # the lit black one is told light: a tie
    stacks = {12: [0.0, 1.0], 13: [0.0, 1.0, 2.0], 14: [0.0], 0: [0.0, 1.0],
              1: [0.0, 1.0, 2.0], 2: [0.0], 23: [0.0, 1.0]}
    circles, _ = _row_circles(stacks)
    size = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    read = count_checkers(circles, light, TOURNAMENT, size, CountConfig(), radius, lean=lean)
    assert (read.points[23].light, read.points[23].dark) == (0, 2)
    assert read.points[13].light == 3 and read.points[1].dark == 3
    before = count_checkers(circles, light, TOURNAMENT, size, CountConfig(tie_lean=False),
                            radius, lean=lean)
    assert (before.points[23].light, before.points[23].dark) == (2, 0)


def test_leans_follow_the_split_and_a_model_free_single_colour() -> None:
    light = split_colours([WHITE, BLACK, LIT_BLACK, WHITE])
    lean = colour_leans([WHITE, BLACK, LIT_BLACK, WHITE], light)
    assert lean[0] > 0.0 and lean[1] < 0.0 and lean[3] > 0.0
    # One colour only: the lightness against ColourConfig.lightness decides the sign.
    assert colour_leans([BLACK, BLACK], [False, False]) == [(30.0 - 128.0) * 0.3] * 2
