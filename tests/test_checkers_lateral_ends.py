"""A second layer shifted too little along the point to show, on an outermost point: the
camera sees its faces pushed out sideways towards the field's edge by their height
(``StackConfig.lateral_gap``), a test made on the outermost points only
(``CountConfig.lateral_points``)."""

from dataclasses import replace

from tests.checker_scenes import WIDTH, read_point
from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import Circle, expected_radius
from vision.checkers.reader import CheckerConfig
from vision.checkers.stacks import StackConfig
from vision.observation import Counts
from vision.profile import TOURNAMENT

NOWHERE = CheckerConfig(count=CountConfig(lateral_points=0))
"""The sideways test made on no point."""
OFF = CheckerConfig(count=CountConfig(stacks=StackConfig(lateral_gap=0.0)))
"""The sideways test switched off."""


def test_a_layer_seen_sideways_on_the_outermost_point() -> None:
    """Tune seed 27, scene 209 of bench/vision_accuracy.py: six black on p23 (top right),
    a row of five and a layer of one whose face lies on the first slot (phase 0.07) but
    stands 5-6 pixels further out towards the field's right edge than the row's.  Read
    five without the sideways test (no total asks for the sixth: the tray's block of
    seven black stands past the tray's end and is read empty)."""
    want, (read, nowhere, off) = read_point(27_000_209, 23, [CheckerConfig(), NOWHERE, OFF])
    assert want == Counts(0, 6)
    assert read == want
    assert nowhere == Counts(0, 5)
    assert off == Counts(0, 5)


def _row_with_a_layer_out(point: int, out: float) -> list[Circle]:
    """A row of five from the top rail on ``point``, its first checker (a layer of one
    shifted 0.06 slots along the point) ``out`` pixels further out towards the nearer side
    edge than the row's."""
    w, _ = TOURNAMENT.rectified_size(WIDTH)
    r = expected_radius(TOURNAMENT, WIDTH)
    x = TOURNAMENT.point_u(point) * w
    side = 1.0 if x >= 0.5 * w else -1.0
    spacing = 2.06 * r
    return [Circle(x + (side * out if k == 0 else 0.0), r + spacing * (k + (0.06 if k == 0
                                                                            else 0.0)), r)
            for k in range(5)]


def test_the_sideways_test_is_made_on_the_outermost_points_only() -> None:
    """The same stack (a row of five, the checker on its first slot 6 pixels out towards
    the nearer side edge and 0.06 slots along) is six on the outermost point p23 and five
    on p21, two points in from the edge, where parallax does not push a face that way
    and a checker out sideways is the players' jitter.  Made on every point, p21 reads
    six too; switched off, p23 reads five."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    r = expected_radius(TOURNAMENT, WIDTH)
    config = CountConfig(presume_totals=False)
    for point, want, everywhere in ((23, 6, 6), (21, 5, 6)):
        circles = _row_with_a_layer_out(point, 6.0)
        light = [True] * len(circles)
        assert count_checkers(circles, light, TOURNAMENT, (w, h), config,
                              r).points[point] == Counts(want, 0)
        assert count_checkers(circles, light, TOURNAMENT, (w, h),
                              replace(config, lateral_points=6),
                              r).points[point] == Counts(everywhere, 0)
    circles = _row_with_a_layer_out(23, 6.0)
    assert count_checkers(circles, [True] * 5, TOURNAMENT, (w, h),
                          replace(config, lateral_points=0), r).points[23] == Counts(5, 0)
    # 2 pixels out is the players' jitter, not a layer, on the outermost point too.
    circles = _row_with_a_layer_out(23, 2.0)
    assert count_checkers(circles, [True] * 5, TOURNAMENT, (w, h), config,
                          r).points[23] == Counts(5, 0)
