"""Checkers a lamp's glare hides: black ones on a white point whose grey is at the
sensor's ceiling (the glare's lift measured beside the point), white ones on a white
point with no rim at all (found by the field they cover); and two stacks' alternatives
taken together to make a colour's total add up."""

import cv2
import numpy as np

from vision.checkers.count import CountConfig
from vision.checkers.detect import Circle, expected_radius
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.slots import SlotConfig
from vision.checkers.stacks import StackConfig
from vision.checkers.surface import SurfaceConfig, glare_lifts, surfaces
from vision.checkers.totals import choose_alternatives
from vision.observation import Counts
from vision.profile import TOURNAMENT

WIDTH = 640
FIELD = (150, 90, 40)
"""A blue field (BGR)."""
WHITE = (250, 250, 250)
BLACK = (40, 40, 40)


def _board(odd: tuple[int, int, int] = BLACK,
           field: tuple[int, int, int] = FIELD) -> np.ndarray:
    """A rectified field of colour ``field``, with white points of even index and points
    of colour ``odd`` of odd index (as the profile draws them)."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    labels = surfaces(TOURNAMENT, w, h, 0, 0.96)
    board = np.empty((h, w, 3), dtype=np.uint8)
    board[:] = field
    board[(labels == 1) | (labels == 3)] = WHITE
    board[(labels == 2) | (labels == 4)] = odd
    board[labels == -1] = (30, 30, 30)
    return board


def _slot(point: int, k: int) -> tuple[float, float]:
    """The centre of slot ``k`` of ``point`` in the rectified field."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    along = radius * 1.08 + k * 2.06 * radius
    y = along if TOURNAMENT.is_top(point) else h - along
    return TOURNAMENT.point_u(point) * w, y


def _checker(board: np.ndarray, centre: tuple[float, float], face: tuple[int, int, int],
             rim: tuple[int, int, int] | None) -> None:
    radius = expected_radius(TOURNAMENT, WIDTH)
    x, y = round(centre[0]), round(centre[1])
    cv2.circle(board, (x, y), round(radius) - 1, face, -1, cv2.LINE_AA)
    if rim is not None:
        cv2.circle(board, (x, y), round(radius) - 1, rim, 2, cv2.LINE_AA)


def _glare(board: np.ndarray, centre: tuple[float, float], size: float, lift: float) -> None:
    """A lamp's reflection: ``lift`` grey levels added within ``size`` pixels of
    ``centre``, fading out beyond, clipped at 255."""
    h, w = board.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    d = np.hypot(xs - centre[0], ys - centre[1])
    add = lift * np.clip(1.5 - d / size, 0.0, 1.0)
    board[:] = np.clip(board.astype(np.float64) + add[:, :, None], 0, 255).astype(np.uint8)


def test_the_glare_on_a_white_point_is_measured_beside_it() -> None:
    """Three black checkers on a white point (2; all points white here, so that most of
    the board around them is white) under a glare lifting the grey by 110, three black
    ones out of it (point 15) and three white ones (point 9): the white points are at
    the ceiling and show a lift of 5 grey levels, the blue field beside them the whole
    lift; the checkers' lift is taken from the field (``SurfaceConfig.saturated``), and
    they read dark.  Taking the white pixels too, the lift came out at 5 for two of them
    and the stack read light (as on tune seed 31, scene 42)."""
    board = _board(WHITE)
    centres = [_slot(2, k) for k in range(3)]
    for centre in centres:
        _checker(board, centre, BLACK, (90, 90, 90))
    _glare(board, centres[1], 110.0, 110.0)
    for k in range(3):
        _checker(board, _slot(9, k), WHITE, (170, 170, 170))
        _checker(board, _slot(15, k), BLACK, (90, 90, 90))
    radius = expected_radius(TOURNAMENT, WIDTH)
    circles = [Circle(x, y, radius) for x, y in centres]
    assert min(glare_lifts(board, circles, TOURNAMENT, radius)) > 75.0
    before = SurfaceConfig(saturated=256.0)
    assert sorted(glare_lifts(board, circles, TOURNAMENT, radius, before))[1] < 10.0
    counted = read_checkers(board, TOURNAMENT)
    assert (counted.points[2], counted.points[9], counted.points[15]) \
        == (Counts(0, 3), Counts(3, 0), Counts(0, 3))
    unclipped = read_checkers(board, TOURNAMENT, config=CheckerConfig(surface=before))
    assert unclipped.points[2] == Counts(3, 0)


def test_white_checkers_with_no_rim_on_a_white_point_are_found_by_their_silhouette() -> None:
    """Three white checkers on a white point (12) the same white, with no rim: they show
    only where they cover the blue field beside the narrowing point.  Found by their
    silhouette, the stack reads three; without (``SlotConfig.silhouette`` off) it read
    fewer.  A point of three rimmed black checkers beside them is unchanged."""
    board = _board()
    for k in range(3):
        _checker(board, _slot(12, k), WHITE, None)
        _checker(board, _slot(15, k), BLACK, (110, 110, 110))
    counted = read_checkers(board, TOURNAMENT)
    assert counted.points[12] == Counts(3, 0)
    assert counted.points[15] == Counts(0, 3)
    plain = CheckerConfig(slots=SlotConfig(silhouette=False))
    assert read_checkers(board, TOURNAMENT, config=plain).points[12].light < 3


def test_white_checkers_on_a_white_point_show_by_colour_on_a_pale_wood_field() -> None:
    """The same three white checkers with no rim on a white point (12), the field a pale
    wood (a light wood under glare) whose grey is within 20 levels of the checkers':
    the grey tells nothing, the colour does (the wood is yellow, the checkers are not).
    Found with ``SlotConfig.silhouette_chroma``; the grey alone read fewer (tune seed
    41, scene 66: three read as one)."""
    board = _board(field=(170, 232, 248))
    for k in range(3):
        _checker(board, _slot(12, k), WHITE, None)
        _checker(board, _slot(15, k), BLACK, (110, 110, 110))
    counted = read_checkers(board, TOURNAMENT)
    assert counted.points[12] == Counts(3, 0)
    assert counted.points[15] == Counts(0, 3)
    grey = CheckerConfig(slots=SlotConfig(silhouette_chroma=0.0))
    assert read_checkers(board, TOURNAMENT, config=grey).points[12].light < 3


def test_a_die_beside_a_point_is_no_silhouette() -> None:
    """A black die on the blue field beside the second slot of an empty black point next
    to the bar (5), away from the bar: the field beside the point there shows only on
    that side (the bar's edge takes the other), and the die covers it all.  No checker:
    a checker straddles its point, and the side by the bar shows nothing (judged on the
    two sides pooled, the die was read as a stack of two; tune seed 41, scene 443)."""
    board = _board()
    x, y = _slot(5, 1)
    radius = expected_radius(TOURNAMENT, WIDTH)
    side = round(0.8 * radius)
    right = round(x + 0.95 * radius)
    cv2.rectangle(board, (right - side, round(y) - side // 2), (right, round(y) + side // 2),
                  (30, 30, 30), -1)
    for k in range(2):
        _checker(board, _slot(9, k), WHITE, (170, 170, 170))
        _checker(board, _slot(20, k), BLACK, (110, 110, 110))
    counted = read_checkers(board, TOURNAMENT)
    assert counted.points[5] == Counts(0, 0)
    assert counted.points[9] == Counts(2, 0)
    assert counted.points[20] == Counts(0, 2)


def test_two_stacks_alternatives_together_make_a_colour_add_up() -> None:
    """Two stacks of six read as five, each offering six (a tiny-shift layer, 0.065 and
    0.085 plausible), two checkers short of the total: both take their six.  One
    alternative alone closes no gap of two; with ``pairs`` off the counts stay; a half
    under ``pair_floor`` is not taken; nor is a pair when one stack alone closes the gap."""
    counts = [5, 5, 3]
    options = [[(6, 0.065)], [(6, 0.085)], []]
    assert choose_alternatives(counts, options, 15, StackConfig()) == [6, 6, 3]
    assert choose_alternatives(counts, options, 15, StackConfig(pairs=False)) == [5, 5, 3]
    weak = [[(6, 0.065)], [(6, 0.02)], []]
    assert choose_alternatives(counts, weak, 15, StackConfig()) == [5, 5, 3]
    single = [[(6, 0.065)], [(6, 0.085)], [(5, 0.01)]]
    assert choose_alternatives(counts, single, 15, StackConfig()) == [5, 5, 5]
    assert choose_alternatives(counts, options, 14, StackConfig()) == [5, 6, 3]



def test_white_checkers_on_a_cream_field_are_found_by_the_point_they_hide() -> None:
    """Cream-white checkers with no rim on a cream field (the tournament board's, under a
    lamp): they differ from the field beside them by a few grey levels, so neither a rim
    nor a silhouette shows, but they hide their points: two on a red point (20, from
    the rail), three on a black one (9).  Found by the point's colour missing where they
    lie (``SlotConfig.hidden``), the stacks read two and three; without, fewer.  Empty
    red and black points stay empty, and a rimmed dark stack (4) is unchanged."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    labels = surfaces(TOURNAMENT, w, h, 0, 0.96)
    board = np.empty((h, w, 3), dtype=np.uint8)
    board[:] = (216, 232, 240)
    board[(labels == 1) | (labels == 3)] = (25, 18, 180)
    board[(labels == 2) | (labels == 4)] = (24, 21, 20)
    board[labels == -1] = (30, 30, 30)
    for k in range(2):
        _checker(board, _slot(20, k), (226, 236, 242), None)
    for k in range(3):
        _checker(board, _slot(9, k), (226, 236, 242), None)
        _checker(board, _slot(4, k), (60, 60, 150), (30, 30, 90))
    noise = np.random.default_rng(5).normal(0.0, 1.5, board.shape)
    board = np.clip(board + noise, 0, 255).astype(np.uint8)
    image_only = CountConfig(presume_totals=False)
    counted = read_checkers(board, TOURNAMENT, config=CheckerConfig(count=image_only))
    assert counted.points[20] == Counts(2, 0)
    assert counted.points[9] == Counts(3, 0)
    assert counted.points[4] == Counts(0, 3)
    assert sum(p.light + p.dark for p in counted.points) == 8
    plain = CheckerConfig(slots=SlotConfig(hidden=False), count=image_only)
    without = read_checkers(board, TOURNAMENT, config=plain)
    assert without.points[20].light + without.points[9].light < 5
