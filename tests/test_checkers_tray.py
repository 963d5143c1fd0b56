"""The tray's blocks found by their far edge when their colour is near the floor's."""

from dataclasses import replace
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tests.test_checkers import guessed
from vision.checkers.count import CountConfig, count_checkers
from vision.checkers.detect import Circle, expected_radius
from vision.checkers.totals import tray_range
from vision.checkers.tray import TrayConfig, TrayReading, _period, read_tray, read_tray_reading
from vision.observation import Counts
from vision.profile import TOURNAMENT, TrayProfile

PROFILE = replace(TOURNAMENT, tray=TrayProfile("right"))
WIDTH = 640


def _tray(light: int, dark: int, block_bgr: tuple[int, int, int],
          gradient: float = 0.0) -> npt.NDArray[np.uint8]:
    """A tray image warped upright: a beige floor (brighter towards the top by
    ``gradient`` grey levels over its length), ``light`` slabs from the bottom end and
    ``dark`` dark grey ones from the top, each a checker's typical thickness, with no
    stripes to measure it by."""
    _, height = PROFILE.rectified_size(WIDTH)
    width = max(round(0.095 * WIDTH), 8)
    radius = 0.5 * PROFILE.point_width * PROFILE.checker_diameter * WIDTH
    pitch = 2.0 * radius * TrayConfig().thickness
    rng = np.random.default_rng(3)
    floor = np.array([120.0, 165.0, 185.0])
    ramp = np.linspace(gradient, 0.0, height)[:, None, None]
    image = np.broadcast_to(floor, (height, width, 3)) + ramp
    x0, x1 = round(0.1 * width), round(0.9 * width)
    for n, colour, from_bottom in ((light, block_bgr, True), (dark, (60, 60, 60), False)):
        for k in range(n):
            a, b = round(2 + k * pitch), round(2 + (k + 1) * pitch)
            rows = slice(height - b, height - a) if from_bottom else slice(a, b)
            image[rows, x0:x1] = colour
    image = image + rng.normal(0.0, 1.5, image.shape)
    return np.asarray(cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0),
                      dtype=np.uint8)


@pytest.mark.parametrize("light", [3, 10, 14])
def test_a_block_near_the_floors_colour_is_found_by_its_edge(light: int) -> None:
    """Light slabs a little greyer than the beige floor (under the colour threshold, the
    stripes too faint): the colour test alone finds no block, the edge search the
    whole one."""
    block = (150, 170, 175)
    image = _tray(light, 0, block)
    assert read_tray(image, PROFILE) == Counts(light, 0)
    assert read_tray(image, PROFILE, config=TrayConfig(step=0.0)) == Counts(0, 0)


def test_a_lamps_gradient_along_an_empty_tray_is_no_block() -> None:
    """The floor brightening by 40 grey levels along the tray: no block at either end."""
    assert read_tray(_tray(0, 0, (0, 0, 0), gradient=40.0), PROFILE) == Counts(0, 0)


def test_the_edge_search_leaves_a_block_the_colour_test_found() -> None:
    """A near-floor light block at the bottom, a dark one at the top: the edge search
    adds the light block and leaves the dark one as the colour test read it."""
    image = _tray(7, 5, (150, 170, 175))
    alone = read_tray(image, PROFILE, config=TrayConfig(step=0.0))
    assert alone.light == 0 and alone.dark > 0
    assert read_tray(image, PROFILE) == Counts(7, alone.dark)


def test_the_stacks_orient_a_trays_lone_block_before_it_settles_a_total() -> None:
    """Dark bearing off in one quarter (eleven on the board: six and five), light spread
    over three quarters, and the tray's lone block of four read as light (its lightness
    guessed wrong).  Taken as read, the tray leaves dark fifteen on the board and asks a
    dark stack for four more; oriented by the stacks' counts first, it leaves eleven,
    which the board shows."""
    from tests.test_checkers import layered_board
    from vision.checkers.count import CountConfig
    from vision.checkers.reader import CheckerConfig, read_checkers

    stacks = {12: (5, True), 13: (5, True), 19: (5, True), 0: (6, False), 2: (5, False)}
    board = layered_board(stacks, shift=0.5)
    want = [(n, 0) if light else (0, n)
            for n, light in (stacks.get(i, (0, True)) for i in range(24))]
    read = read_checkers(board, TOURNAMENT, off=guessed(Counts(4, 0)))
    assert [(p.light, p.dark) for p in read.points] == want
    as_read = read_checkers(board, TOURNAMENT, off=guessed(Counts(4, 0)),
                            config=CheckerConfig(count=CountConfig(orient_tray=False)))
    assert [(p.light, p.dark) for p in as_read.points] != want


def _row_circles(stacks: dict[int, list[float]]) -> tuple[list[Circle], list[bool]]:
    """Circles at the given slots (in checker spacings from the rail) of each point's
    stack, light on points 12-23 and dark on points 0-11, in a field 640 pixels wide."""
    w, h = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    spacing = 2.06 * radius
    circles, light = [], []
    for point, slots in stacks.items():
        x = TOURNAMENT.point_u(point) * w
        for slot in slots:
            d = slot * spacing + radius
            circles.append(Circle(x, d if point >= 12 else h - d, radius))
            light.append(point >= 12)
    return circles, light


def test_a_tray_read_by_a_guessed_thickness_gives_a_range_of_totals() -> None:
    """Dark bearing off in one quarter with ten on the board (two rows of five, the first
    checker of one set a little out, as hands leave it) and five in the tray, read as
    four by a guessed thickness.  Taken as exact, the tray leaves eleven on the board and
    the row that stands a little out is read as six; a block read as four may hold three
    to six, so ten on the board is within what it leaves and the rows stay five.  With
    the thickness measured by the stripes the count is taken as exact again."""
    row = [0.0, 1.0, 2.0, 3.0, 4.0]
    circles, light = _row_circles({0: [0.06, 1.0, 2.0, 3.0, 4.0], 2: row,
                                   12: row, 14: row, 19: row})
    size = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)
    def dark(config: CountConfig, off: TrayReading) -> list[int]:
        result = count_checkers(circles, light, TOURNAMENT, size, config, radius, off=off)
        return [result.points[i].dark for i in (0, 2)]

    by_guess = guessed(Counts(0, 4))
    assert dark(CountConfig(), by_guess) == [5, 5]
    assert dark(CountConfig(tray_spread=None), by_guess) == [6, 5]
    assert dark(CountConfig(), TrayReading(Counts(0, 4), measured=True, thickness=0.2)) \
        == [6, 5]
    # The range is reckoned from the thickness the tray counted with: a block of four by a
    # guess of 0.14 (the thinnest set) holds four at the least, and ten are too few.
    assert dark(CountConfig(), TrayReading(Counts(0, 4), measured=False, thickness=0.14)) \
        == [6, 5]
    assert tray_range(4, 0.2, (0.14, 0.27)) == (3, 6)
    assert tray_range(1, 0.2, (0.14, 0.27)) == (1, 2)
    assert tray_range(0, 0.2, (0.14, 0.27)) == (0, 0)


def _lamp_tray(dark: int) -> npt.NDArray[np.uint8]:
    """A tray under a lamp over its middle: the floor 70 grey levels darker at the ends
    than in the lit middle (where the floor's colour is taken), smoothly; ``dark`` dark
    slabs from the top end."""
    _, height = PROFILE.rectified_size(WIDTH)
    width = max(round(0.095 * WIDTH), 8)
    radius = 0.5 * PROFILE.point_width * PROFILE.checker_diameter * WIDTH
    pitch = 2.0 * radius * TrayConfig().thickness
    along = np.linspace(-1.0, 1.0, height)
    light = 70.0 * (np.cos(np.pi * along) - 1.0) / 2.0
    image = np.broadcast_to(np.array([150.0, 175.0, 195.0]), (height, width, 3)) \
        + light[:, None, None]
    image = np.array(image)
    x0, x1 = round(0.1 * width), round(0.9 * width)
    for k in range(dark):
        image[round(2 + k * pitch):round(2 + (k + 1) * pitch), x0:x1] = (45, 45, 50)
    image = image + np.random.default_rng(4).normal(0.0, 1.5, image.shape)
    return np.asarray(cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0),
                      dtype=np.uint8)


def test_an_empty_trays_ends_darkened_by_a_lamp_are_no_blocks() -> None:
    """The ends differ from the lit middle by more than the colour test's threshold, but
    change slowly, with no edge: no block (without the test of a sharp end, both ends
    read as blocks).  Dark slabs at one end of the same tray end in an edge: still a
    block (read long here: the darkened floor past it passes the colour test too); the
    other end's soft block then stands too, as before (TrayConfig.sharp_end: a block that
    ends sharply at one end says the floor is not lit the lamp's way)."""
    empty = _lamp_tray(0)
    assert read_tray(empty, PROFILE) == Counts(0, 0)
    assert read_tray(empty, PROFILE, config=TrayConfig(sharp_end=False)) != Counts(0, 0)
    slabs = read_tray(_lamp_tray(6), PROFILE)
    assert slabs.dark >= 6


def test_a_tray_reading_carries_the_thickness_it_counted_with() -> None:
    """By a guess, the reading carries ``TrayConfig.thickness`` (changed, the range of
    totals follows it); measured, the stripes' period (a share of the diameter); a
    guessed count that does not say its thickness is refused."""
    image = _tray(5, 0, (150, 170, 175))
    reading = read_tray_reading(image, PROFILE)
    assert reading == guessed(Counts(5, 0))
    thin = read_tray_reading(image, PROFILE, config=TrayConfig(thickness=0.15))
    assert not thin.measured and thin.thickness == 0.15
    with pytest.raises(ValueError):
        TrayReading(Counts(1, 0), measured=False)
    with pytest.raises(ValueError):
        TrayReading(Counts(1, 0), measured=True, thickness=0.0)


def test_a_spread_side_the_tray_shows_may_have_been_hit_after_bearing_off() -> None:
    """Light with fourteen on the board, thirteen of them home (among them a row of five
    whose first checker stands a little out, as hands leave it) and one in the quarter
    before, and one in the tray: it was hit after it began bearing off.  Presumed
    fifteen, the row that stands out would be read as six; with the tray's one its total
    is fourteen or fifteen, and fourteen as read stands (CountConfig.spread_off)."""
    row = [0.0, 1.0, 2.0, 3.0, 4.0]
    home = {19: [0.06, 1.0, 2.0, 3.0, 4.0], 21: [0.0, 1.0, 2.0, 3.0],
            22: [0.0, 1.0, 2.0, 3.0], 0: row, 2: row, 5: row}
    size = TOURNAMENT.rectified_size(WIDTH)
    radius = expected_radius(TOURNAMENT, WIDTH)

    def light_counts(config: CountConfig) -> list[int]:
        circles, light = _row_circles({12: [0.0], **home})
        result = count_checkers(circles, light, TOURNAMENT, size, config, radius,
                                off=guessed(Counts(1, 0)))
        return [result.points[i].light for i in (12, 19, 21, 22)]

    assert light_counts(CountConfig()) == [1, 5, 4, 4]
    assert light_counts(CountConfig(spread_off=False)) == [1, 6, 4, 4]



@pytest.mark.parametrize("period", [7.0, 9.0, 12.5])
def test_the_stripes_period_is_the_periodogram_peak(period: float) -> None:
    """Slabs' stripes under noise and a lamp's slope: the period found is the stripes'
    (the autocorrelation's highest peak for thin checkers was twice theirs: 14 for 7)."""
    rng = np.random.default_rng(11)
    rows = np.arange(120, dtype=np.float64)
    profile = 120.0 + 8.0 * np.cos(2.0 * np.pi * rows / period) + rng.normal(0.0, 4.0, 120) \
        + 0.3 * rows
    found = _period(profile, 24.0, TrayConfig())
    assert found is not None
    assert found[0] == pytest.approx(period, rel=0.03)

def _red_board(told_light: bool, off: TrayReading, face: tuple[float, float, float],
               config: CountConfig | None = None) -> Counts:
    """A board of one colour (three red stacks in one quarter, told light or dark by a
    lightness that said little) counted with a tray reading: (light, dark) on it."""
    circles, light = _row_circles({0: [0.0, 1.0], 2: [0.0, 1.0, 2.0], 4: [0.0]})
    light = [told_light] * len(light)
    size = TOURNAMENT.rectified_size(WIDTH)
    result = count_checkers(circles, light, TOURNAMENT, size, config,
                            expected_radius(TOURNAMENT, WIDTH), off=off, turnable=True,
                            face=face)
    return Counts(sum(p.light for p in result.points), sum(p.dark for p in result.points))


RED_FACE: Final = (100.0, 185.0, 165.0)
"""A red face's Lab (OpenCV's 0-255 scale)."""


def test_a_red_board_is_light_against_a_black_block_and_dark_against_a_white_one() -> None:
    """A board of red checkers only: a red-black set's light side or a white-red set's
    dark side, which its lightness cannot tell.  The tray in view holds the other side's
    block: black slabs say the red is light, white ones that it is dark, whatever the
    counts (here the tray's counts alone would turn nothing: six on the board and the
    block's count add up either way)."""
    black = TrayReading(Counts(0, 9), measured=False, thickness=0.2,
                        colours=(None, (45.0, 128.0, 130.0)))
    white = TrayReading(Counts(9, 0), measured=False, thickness=0.2,
                        colours=((225.0, 128.0, 133.0), None))
    for told_light in (True, False):
        assert _red_board(told_light, black, RED_FACE) == Counts(6, 0)
        assert _red_board(told_light, white, RED_FACE) == Counts(0, 6)
    # Off, the colour the lightness gave stays.
    off = CountConfig(tray_face=0.0)
    assert _red_board(False, black, RED_FACE, off) == Counts(0, 6)
    assert _red_board(True, white, RED_FACE, off) == Counts(6, 0)


def test_a_block_of_the_boards_own_colour_decides_nothing() -> None:
    """A red block (its edges darker than the faces, as slabs in shade are) is the board's
    own side: it is no other colour to compare with, so the board keeps its colour."""
    red = TrayReading(Counts(0, 4), measured=False, thickness=0.2,
                      colours=(None, (70.0, 175.0, 155.0)))
    assert _red_board(True, red, RED_FACE) == Counts(6, 0)
    assert _red_board(False, red, RED_FACE) == Counts(0, 6)
