"""The tipped-up face's outline (vision/dice/outline.py) and the direction of a die's
support (vision/dice/support.py lean_direction), on drawn windows."""

import math

import cv2
import numpy as np
import pytest

from tests.test_dice_pose import face_of, pip, straight_field
from vision.dice.faces import Face
from vision.dice.outline import OutlineConfig, tipped_outline
from vision.dice.pose import PoseConfig, assess, squash
from vision.dice.support import SupportConfig, lean_direction, lean_directions, supported
from vision.errors import ConfigError
from vision.profile import TOURNAMENT

FIELD_PIXELS = 40.0 / 0.03
"""The field's width in the window's pixels, for dice 40 px wide at 3 % of it."""


def window(band: float, side: tuple[int, int] = (-1, 0), board: int = 60,
           flank: int = 165, one: bool = False) -> np.ndarray:
    """A 200x200 window: a light die 40 px wide at (100, 100) with four dark pips
    (``face_of(4, 0)``; ``one``: a one's pip) on a darker board, and a side face of
    grey ``flank`` ``band`` die edges wide beyond its edge on ``side`` (a unit step in
    x or y)."""
    gray = np.full((200, 200), board, np.uint8)
    x0, y0, x1, y1 = 80, 80, 120, 120
    width = round(band * 40.0)
    if width > 0:
        sx, sy = side
        box = {(-1, 0): (x0 - width, y0, x0, y1), (1, 0): (x1, y0, x1 + width, y1),
               (0, -1): (x0, y0 - width, x1, y0), (0, 1): (x0, y1, x1, y1 + width)}[(sx, sy)]
        cv2.rectangle(gray, box[:2], (box[2] - 1, box[3] - 1), flank, -1)
    cv2.rectangle(gray, (x0, y0), (x1 - 1, y1 - 1), 225, -1)
    if one:
        cv2.circle(gray, (100, 100), 5, 30, -1)
    for dot in () if one else face_of(4, 0.0).pips:
        cv2.circle(gray, (round(dot.x), round(dot.y)), 4, 30, -1)
    return np.asarray(cv2.GaussianBlur(gray, (0, 0), 1.2), np.uint8)


DEFAULT = PoseConfig()


SLANT = 0.93
"""Pips this round: the four's squash 0.965, under ``outline_squash`` (0.98) but over
its ``supported_squash`` (0.96), so that the outline decides."""


def read(gray: np.ndarray, lean: tuple[float, float] | None, nadir: tuple[float, float],
         config: PoseConfig = DEFAULT, ratio: float = SLANT) -> tuple[bool, tuple[str, ...]]:
    face = face_of(4, 0.0, ratio=ratio)
    pose = assess(gray, face, 40.0, config, nadir=nadir, field_pixels=FIELD_PIXELS,
                  source_die=40.0, supported=True, lean=lean)
    return pose.flat, pose.reasons


# the nadir 0.3 field widths to the die's right: a flat die shows its right side,
# 0.3 / (1.3 - 0.03) = 0.24 die edges wide, and no other
RIGHT_NADIR = (100.0 + 0.3 * FIELD_PIXELS, 100.0)


def test_a_band_beyond_the_side_turned_from_the_support_calls_the_die_cocked() -> None:
    # leaning on something to its right, the die tipped up its left face (20 degrees:
    # 0.34 die edges)
    gray = window(0.34, (-1, 0))
    assert DEFAULT.supported_squash[3] < squash(face_of(4, 0.0, ratio=SLANT)) \
        < DEFAULT.outline_squash
    flat, reasons = read(gray, (1.0, 0.0), RIGHT_NADIR)
    assert not flat
    assert any("outline" in r for r in reasons)
    band = tipped_outline(gray, face_of(4, 0.0), (-1.0, 0.0), RIGHT_NADIR, 0.24)
    assert band is not None and band.normal == pytest.approx((-1.0, 0.0), abs=1e-6)
    assert band.edge == pytest.approx(0.5 + 0.34, abs=0.06)
    assert band.allowance == 0.0


def test_the_outline_needs_a_top_face_squashed_a_little_too() -> None:
    # the same band beside a die whose pips are round: flat (a flat die's top face is
    # round; the outline alone called twice as many flat dice cocked)
    gray = window(0.34, (-1, 0))
    assert squash(face_of(4, 0.0, ratio=0.99)) > DEFAULT.outline_squash
    assert read(gray, (1.0, 0.0), RIGHT_NADIR, ratio=0.99)[0]
    assert not read(gray, (1.0, 0.0), RIGHT_NADIR, PoseConfig(outline_squash=1.0), ratio=0.99)[0]
    with pytest.raises(ConfigError, match="outline_squash"):
        PoseConfig(outline_squash=1.5)


def test_no_band_or_one_on_the_supports_side_is_no_tipped_face() -> None:
    # the plain die: no edge past its top face's
    assert read(window(0.0), (1.0, 0.0), RIGHT_NADIR)[0]
    assert tipped_outline(window(0.0), face_of(4, 0.0), (-1.0, 0.0), RIGHT_NADIR, 0.24) is None
    # the same band with the support on that side: its edge (a checker's rim, the
    # rail) is not looked at
    assert read(window(0.34, (-1, 0)), (-1.0, 0.0), RIGHT_NADIR)[0]
    # without a direction (or support) the cue is not used
    assert read(window(0.34, (-1, 0)), None, RIGHT_NADIR)[0]


def test_a_band_toward_the_nadir_is_allowed_what_perspective_shows() -> None:
    # the right side faces the nadir: perspective shows 0.24 of it; a band of 0.25
    # is a flat die's, one of 0.6 is not
    assert read(window(0.25, (1, 0)), (-1.0, 0.0), RIGHT_NADIR)[0]
    flat, reasons = read(window(0.6, (1, 0)), (-1.0, 0.0), RIGHT_NADIR)
    assert not flat and any("perspective: 0.24" in r for r in reasons)


def test_the_outline_margin_and_the_sides_looked_at_are_configured() -> None:
    gray = window(0.34, (0, 1))  # a band below the die
    # the support above: the side below is turned from it
    assert not read(gray, (0.0, -1.0), RIGHT_NADIR)[0]
    # the support to the left and a little up: the band's side is turned 70 degrees
    # from the way away from it (cosine 0.34), looked at by default (away_cos 0.3),
    # not with away_cos 0.5
    turned = (-math.sin(math.radians(70.0)), -math.cos(math.radians(70.0)))
    assert not read(gray, turned, RIGHT_NADIR)[0]
    narrow = PoseConfig(outline=OutlineConfig(away_cos=0.5))
    assert read(gray, turned, RIGHT_NADIR, narrow)[0]
    # off
    assert read(gray, (0.0, -1.0), RIGHT_NADIR, PoseConfig(outline_margin=None))[0]
    # a margin wider than the band
    assert read(gray, (0.0, -1.0), RIGHT_NADIR, PoseConfig(outline_margin=0.4))[0]


def test_a_faint_step_is_no_silhouette() -> None:
    # a side face shaded within a few grey levels of the board: nothing to find
    gray = window(0.34, (-1, 0), board=60, flank=64)
    assert read(gray, (1.0, 0.0), RIGHT_NADIR)[0]


def test_a_side_face_shaded_near_the_boards_grey_is_found() -> None:
    # the tipped-up face's step to the board is 0.39 of the top face's (a grey side on a
    # dark board, as on renders of light dice whose tipped face is turned from the
    # light): found at ``relative`` 0.3, not at the 0.5 it was before
    gray = window(0.34, (-1, 0), board=60, flank=125)
    flat, reasons = read(gray, (1.0, 0.0), RIGHT_NADIR)
    assert not flat and any("outline" in r for r in reasons)
    band = tipped_outline(gray, face_of(4, 0.0), (-1.0, 0.0), RIGHT_NADIR, 0.24)
    assert band is not None and band.edge == pytest.approx(0.5 + 0.34, abs=0.06)
    assert tipped_outline(gray, face_of(4, 0.0), (-1.0, 0.0), RIGHT_NADIR, 0.24,
                          OutlineConfig(relative=0.5)) is None


def test_a_ones_sides_and_size_come_from_its_outline() -> None:
    # the face finder sizes a one by its pip, which blur swells: here 1.4 times the die
    one = Face((pip(100.0, 100.0),), "dark", (100.0, 100.0), 0.0, 56.0, 0.0)
    band = tipped_outline(window(0.34, (-1, 0), one=True), one, (-1.0, 0.0), RIGHT_NADIR, 0.24)
    assert band is not None and band.normal == pytest.approx((-1.0, 0.0), abs=0.05)
    # sized so that its top face's edge lies at top_edge (0.575): 20 px -> 34.8 px a die,
    # the band's outer edge (34 px out) 0.98 of that
    assert band.edge == pytest.approx(34.0 / (20.0 / 0.575), abs=0.05)
    assert band.excess > 0.3
    assert tipped_outline(window(0.0, one=True), one, (-1.0, 0.0), RIGHT_NADIR, 0.24) is None
    # turned 30 degrees: the sides are found along the outline
    turned = cv2.warpAffine(window(0.34, (-1, 0), one=True),
                            cv2.getRotationMatrix2D((100.0, 100.0), -30.0, 1.0), (200, 200),
                            borderMode=cv2.BORDER_REPLICATE)
    away = (-math.cos(math.radians(30.0)), -math.sin(math.radians(30.0)))
    band = tipped_outline(turned, one, away, RIGHT_NADIR, 0.24)
    assert band is not None and band.normal == pytest.approx(away, abs=0.05)
    assert tipped_outline(window(0.34, (-1, 0), one=True), one, (-1.0, 0.0), RIGHT_NADIR, 0.24,
                          OutlineConfig(ones=False)) is None


def test_bad_outline_configs_are_refused() -> None:
    with pytest.raises(ConfigError, match="top_edge"):
        OutlineConfig(start=0.5, top_edge=0.6)
    with pytest.raises(ConfigError, match="multiple of three"):
        OutlineConfig(samples=10)
    with pytest.raises(ConfigError, match="relative"):
        OutlineConfig(relative=1.5)
    with pytest.raises(ConfigError, match="outline_margin"):
        PoseConfig(outline_margin=-0.1)


# -- the support's direction -----------------------------------------------------------------

def test_the_lean_is_toward_the_nearest_support() -> None:
    field_map, die = straight_field()
    shape = (int(50 + 1000 / TOURNAMENT.field_aspect) + 60, 1200)
    empty = np.zeros(shape, np.uint8)
    middle = (0.25, 0.5)
    assert lean_direction(middle, die, field_map, TOURNAMENT, empty) is None
    # the rail to the left, the top rail
    assert lean_direction((0.6 * die, 0.5), die, field_map, TOURNAMENT, None) == (-1.0, 0.0)
    assert lean_direction((0.25, 0.6 * die * TOURNAMENT.field_aspect), die, field_map,
                          TOURNAMENT, None) == (0.0, -1.0)
    # the bar to the right of a die in the left half
    left, _ = TOURNAMENT.bar_span
    assert lean_direction((left - 0.6 * die, 0.5), die, field_map, TOURNAMENT, None) == (1.0, 0.0)
    # a checker below and to the right (30 degrees down), its rim 0.6 die edges away
    x, y = field_map.image_point(*middle)
    mask = empty.copy()
    turn = math.radians(30.0)
    reach = (0.6 + 1.1) * 30.0
    cv2.circle(mask, (round(x + reach * math.cos(turn)), round(y + reach * math.sin(turn))), 33,
               255, -1)
    direction = lean_direction(middle, die, field_map, TOURNAMENT, mask)
    assert direction is not None
    assert math.degrees(math.atan2(direction[1], direction[0])) == pytest.approx(30.0, abs=8.0)
    # the other die's centre 1.05 die edges above (its near face 0.55): nearer than the
    # checker's rim, first seen on the ring 0.65 die edges out; at 1.2 (0.7) it is not
    above = (0.25, 0.5 - 1.05 * die * TOURNAMENT.field_aspect)
    farther = (0.25, 0.5 - 1.2 * die * TOURNAMENT.field_aspect)
    assert lean_direction(middle, die, field_map, TOURNAMENT, mask, others=[farther]) == \
        direction
    assert lean_direction(middle, die, field_map, TOURNAMENT, mask, others=[above]) == \
        pytest.approx((0.0, -1.0))
    # whether there is one is what supported() says
    assert supported(middle, die, field_map, TOURNAMENT, mask)
    assert not supported(middle, die, field_map, TOURNAMENT, empty)


def test_every_support_within_reach_is_listed_nearest_first() -> None:
    field_map, die = straight_field()
    shape = (int(50 + 1000 / TOURNAMENT.field_aspect) + 60, 1200)
    # the left rail 0.6 die edges away, a checker to the right, its rim 0.65 away
    uv = (0.6 * die, 0.5)
    x, y = field_map.image_point(*uv)
    mask = np.zeros(shape, np.uint8)
    cv2.circle(mask, (round(x + (0.65 + 1.1) * 30.0), round(y)), 33, 255, -1)
    near = lean_directions(uv, die, field_map, TOURNAMENT, mask)
    assert [d for _, d in near] == [(-1.0, 0.0), pytest.approx((1.0, 0.0), abs=1e-6)]
    assert near[0][0] == pytest.approx(0.6) and near[1][0] == pytest.approx(0.65)
    assert lean_direction(uv, die, field_map, TOURNAMENT, mask) == (-1.0, 0.0)
    assert lean_directions((0.25, 0.5), die, field_map, TOURNAMENT, None) == []
    with pytest.raises(ConfigError, match="second_reach"):
        SupportConfig(second_reach=-0.1)


def test_the_sides_turned_from_a_second_support_are_looked_at_too() -> None:
    # the nearest support is to the left, but the die leans on the one below: the face it
    # tipped up shows above, turned from the second support only
    gray = window(0.34, (0, -1))
    face = face_of(4, 0.0, ratio=SLANT)
    def pose(leans: list[tuple[float, float]]) -> tuple[bool, tuple[str, ...]]:
        found = assess(gray, face, 40.0, DEFAULT, nadir=RIGHT_NADIR, field_pixels=FIELD_PIXELS,
                       source_die=40.0, supported=True, lean=(-1.0, 0.0), leans=leans)
        return found.flat, found.reasons

    assert pose([])[0]
    flat, reasons = pose([(0.0, 1.0)])
    assert not flat and any("outline" in r for r in reasons)
