"""Flat or cocked: the camera recovered from the calibration, the side
directions of a face, the fine thresholds for sharp dice, and rendered dice
read from a 2x capture."""

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.shared_data import shared_file
from tests.test_dice import rendered_poses
from vision.dice.faces import Face
from vision.dice.pips import Pip
from vision.dice.pose import PoseConfig, assess, calibrated_height, squash
from vision.dice.sides import grid_angle
from vision.dice.support import SupportConfig, supported
from vision.dice.viewpoint import ViewpointConfig, viewpoint
from vision.errors import ConfigError
from vision.observation import Corners
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap
from vision.synth.camera import Camera, CameraPose


def camera_corners(pose: CameraPose, field_mm: tuple[float, float] = (500.0, 467.0),
                   board_mm: float = 560.0, size: tuple[int, int] = (1280, 720)
                   ) -> tuple[Camera, FieldMap]:
    """A renderer's camera over a field and the field map of its corners."""
    camera = Camera.build(pose, field_mm, board_mm, size)
    w, h = field_mm
    corners = camera.project(np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, h, 0.0],
                                       [0.0, h, 0.0]]))
    return camera, FieldMap.from_corners(Corners(*(tuple(p) for p in corners.tolist())))


@pytest.mark.parametrize("pose", [
    CameraPose(height_mm=700.0, tilt_x_deg=3.0, tilt_y_deg=-2.0, roll_deg=2.0, fill=0.9),
    CameraPose(height_mm=1100.0, tilt_x_deg=-4.0, tilt_y_deg=4.0, aim=(0.47, 0.52), fill=0.8),
    CameraPose(height_mm=900.0)])
def test_the_viewpoint_is_the_cameras_with_its_field_of_view(pose: CameraPose) -> None:
    field_mm = (500.0, 467.0)
    camera, field_map = camera_corners(pose, field_mm)
    fov = math.degrees(2.0 * math.atan(640.0 / camera.matrix[0, 0]))
    view = viewpoint(field_map, (1280, 720), field_mm[0] / field_mm[1],
                     ViewpointConfig(horizontal_fov=fov))
    assert view.height == pytest.approx(pose.height_mm / field_mm[0], rel=1e-3)
    assert view.nadir[0] == pytest.approx(camera.centre[0] / field_mm[0], abs=1e-3)
    assert view.nadir[1] == pytest.approx(camera.centre[1] / field_mm[0], abs=1e-3)
    assert view.nadir_uv(field_mm[0] / field_mm[1])[1] == pytest.approx(
        camera.centre[1] / field_mm[1], abs=1e-3)
    assert view.fit_error < 0.5
    assert view.fits(1280, ViewpointConfig())


def test_a_wrong_field_of_view_scales_the_height() -> None:
    # the renderer's camera 900 mm up, its field of view whatever fills the frame
    field_mm = (500.0, 467.0)
    camera, field_map = camera_corners(CameraPose(height_mm=900.0, tilt_x_deg=2.0), field_mm)
    focal = float(camera.matrix[0, 0])
    for fov in (55.0, 66.0, 80.0):
        view = viewpoint(field_map, (1280, 720), field_mm[0] / field_mm[1],
                         ViewpointConfig(horizontal_fov=fov))
        assumed = 640.0 / math.tan(math.radians(fov) / 2.0)
        # near fronto-parallel the height follows the assumed focal length
        assert view.height == pytest.approx(1.8 * assumed / focal, rel=0.03)


def test_corners_no_pinhole_fits_give_no_height() -> None:
    # a field drawn as a kite: no camera looking down at a rectangle sees that
    kite = FieldMap.from_corners(Corners((300.0, 100.0), (900.0, 60.0), (1000.0, 650.0),
                                         (200.0, 500.0)))
    view = viewpoint(kite, (1280, 720), TOURNAMENT.field_aspect)
    assert not view.fits(1280, ViewpointConfig())
    assert calibrated_height(kite, (1280, 720), TOURNAMENT.field_aspect) is None
    _, straight = camera_corners(CameraPose(height_mm=900.0))
    height = calibrated_height(straight, (1280, 720), 500.0 / 467.0)
    assert height is not None and 1.3 < height < 2.4


def test_the_real_broadcast_frames_do_not_fit_a_pi_camera() -> None:
    label = json.loads(shared_file("data", "real-boards", "frame0.json").read_text())
    c = label["corners"]
    field_map = FieldMap.from_corners(Corners(*(tuple(c[k]) for k in (
        "top_left", "top_right", "bottom_right", "bottom_left"))))
    assert calibrated_height(field_map, (1280, 720), TOURNAMENT.field_aspect) is None


def pip(x: float, y: float, ratio: float = 1.0) -> Pip:
    return Pip(x, y, 8.0 * math.sqrt(ratio), 8.0, 8.0 * ratio, 0.0, 120.0, 230.0)


def face_of(value: int, turn_deg: float, ratio: float = 1.0) -> Face:
    """A face 40 px wide at (100, 100), its sides turned ``turn_deg``."""
    layout = {4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
              5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)],
              6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}[value]
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    pips = tuple(pip(100.0 + 10.5 * (c * x - s * y), 100.0 + 10.5 * (s * x + c * y), ratio)
                 for x, y in layout)
    return Face(pips, "dark", (100.0, 100.0), 10.5, 40.0, 0.0)


@pytest.mark.parametrize("value", [4, 5, 6])
@pytest.mark.parametrize("turn", [0.0, 10.0, 30.0, 44.0])
def test_the_sides_of_a_face_run_along_its_grid(value: int, turn: float) -> None:
    # a five's middle pip makes four diagonal pairs with its corners: the sides must
    # still come out along the grid, not along the diagonals
    angle = grid_angle(face_of(value, turn))
    assert angle is not None
    off = (math.degrees(angle) - turn) % 90.0
    assert min(off, 90.0 - off) < 1.0


def test_squash_pools_the_pips_and_a_fours_corners() -> None:
    assert squash(face_of(4, 20.0)) == pytest.approx(1.0)
    # pips squashed to 0.8 along x on a square grid: the unit tensors averaged
    pips_x, pips_y = 0.64 / 1.64, 1.0 / 1.64
    assert squash(face_of(4, 0.0, ratio=0.8)) == pytest.approx(
        math.sqrt((pips_x + 0.5) / (pips_y + 0.5)), abs=1e-6)
    # a four squashed along x by 0.9, pips and corners alike
    tilted = face_of(4, 0.0, ratio=0.9)
    pips = tuple(replace(p, x=100.0 + 0.9 * (p.x - 100.0)) for p in tilted.pips)
    assert squash(replace(tilted, pips=pips)) == pytest.approx(0.9, abs=1e-6)
    # a six's pips alone count (its grid is not square)
    assert squash(face_of(6, 0.0, ratio=0.8)) == pytest.approx(0.8, abs=1e-6)


def test_squashed_pips_call_a_sharp_die_cocked_and_a_blurred_one_flat() -> None:
    gray = np.full((200, 200), 200, np.uint8)
    face = face_of(4, 0.0, ratio=0.8)
    config = PoseConfig(cocked_needs_support=False)  # the cues alone, as in open space
    sharp = assess(gray, face, 40.0, config, source_die=config.fine_die_pixels)
    small = assess(gray, face, 40.0, config, source_die=config.fine_die_pixels - 1.0)
    unknown = assess(gray, face, 40.0, config)
    assert not sharp.flat and any("squashed" in r for r in sharp.reasons)
    assert small.flat and unknown.flat
    # round pips are flat at any size
    assert assess(gray, face_of(4, 0.0), 40.0, config, source_die=50.0).flat
    # a die much smaller than configured is read from few window pixels: lenient
    small_face = replace(face, die_size=0.75 * 40.0)
    assert assess(gray, small_face, 40.0, config, source_die=50.0).flat


def test_a_small_sharp_die_keeps_the_lenient_band_margin() -> None:
    # a four 40 px wide in the window, the nadir 0.3 field widths to its right: a
    # flat die's right side may show 0.236 die edges wide (camera 1.3 fields up)
    gray = np.full((200, 200), 200, np.uint8)
    face = face_of(4, 0.0)
    config = PoseConfig(fine_die_pixels=28.0, cocked_needs_support=False)
    field_pixels = 40.0 / 0.03
    nadir = (100.0 + 0.3 * field_pixels, 100.0)
    # a sliver 0.84 die edges right of the centre: a band of 0.45, 0.21 too wide
    sliver = Pip(133.5, 100.0, 5.0, 8.0, 3.0, 0.0, 120.0, 230.0)

    def read(source_die: float) -> bool:
        return assess(gray, face, 40.0, config, nadir=nadir, field_pixels=field_pixels,
                      pips=[sliver], source_die=source_die).flat

    assert not read(config.fine_band_pixels)  # fine_band_margin 0.15
    assert read(config.fine_band_pixels - 1.0)  # band_margin 0.25
    assert config.fine_die_pixels < config.fine_band_pixels - 1.0


def test_bad_pose_and_viewpoint_configs_are_refused() -> None:
    with pytest.raises(ConfigError, match="horizontal_fov"):
        ViewpointConfig(horizontal_fov=5.0)
    with pytest.raises(ConfigError, match="max_fit_error"):
        ViewpointConfig(max_fit_error=0.0)
    with pytest.raises(ConfigError, match="fine_away_min_pips"):
        PoseConfig(fine_away_min_pips=0)
    with pytest.raises(ConfigError, match="fine_min_size"):
        PoseConfig(fine_min_size=-0.1)
    with pytest.raises(ConfigError, match="fine_squash"):
        PoseConfig(fine_squash=(0.9, 0.9, 0.9, 0.9, 0.9, 1.5))


# -- rendered dice read from a 2x capture ----------------------------------------------

def rendered_hires(tilt: float, leans: tuple[float, ...]) -> tuple[int, int]:
    """(dice read, dice read as cocked) over 2x renders of six dice a frame, every dice
    style, each die tilted ``tilt`` degrees toward each of ``leans``; the camera a
    little tilted and 80 cm up."""
    camera = CameraPose(height_mm=800.0, tilt_x_deg=2.0, tilt_y_deg=-1.5, roll_deg=1.0)
    return rendered_poses(tilt, leans, camera=camera, still_scale=2.0)


def test_rendered_flat_dice_read_from_a_2x_capture_are_flat() -> None:
    read, cocked = rendered_hires(0.0, (0.0,))
    assert read >= 27  # of 30
    assert cocked == 0


def test_rendered_dice_cocked_15_and_25_degrees_read_from_a_2x_capture_are_cocked() -> None:
    # leaning along a die's axes, every way; without the fine thresholds (read as
    # the frame's 20-30 px dice are) 10 of 120 at 15 degrees and 61 of 120 at 25
    # were called cocked, with them 40 and 95 of 120: a 15-degree tilt squashes the
    # top pips by only 3 %, so there the tipped-up face's slivers of pips must show
    read, cocked = rendered_hires(15.0, (0.0, 180.0, 90.0, 270.0))
    assert read >= 100  # of 120
    assert cocked >= 0.25 * read
    read, cocked = rendered_hires(25.0, (0.0, 180.0, 90.0, 270.0))
    assert read >= 100  # of 120
    assert cocked >= 0.7 * read


def test_two_rows_of_side_pips_bound_the_band_from_their_spread() -> None:
    from vision.dice.sides import side_faces

    face = face_of(4, 0.0)
    # slivers across the right-hand edge (short axis along x), 0.58 and 0.83 die
    # edges right of the centre: the farther alone says 0.44, the two rows 0.48
    near = Pip(123.2, 104.0, 5.0, 8.0, 3.0, 0.0, 120.0, 230.0)
    far = Pip(133.2, 96.0, 5.0, 8.0, 3.0, 0.0, 120.0, 230.0)
    (one,) = side_faces(face, [far])
    (both,) = side_faces(face, [near, far])
    assert one.band == pytest.approx((0.83 - 0.5) / 0.75)
    assert both.band == pytest.approx((0.83 - 0.58) / 0.52)
    assert both.pips == 2


# -- support: something to lean on ---------------------------------------------------------

def straight_field() -> tuple[FieldMap, float]:
    """A field seen straight on, 1000 px wide (its depth by the tournament profile), and
    the die's size (field widths) whose edge is 30 px."""
    depth = 1000.0 / TOURNAMENT.field_aspect
    corners = Corners((100.0, 50.0), (1100.0, 50.0), (1100.0, 50.0 + depth), (100.0, 50.0 + depth))
    return FieldMap.from_corners(corners), 0.03


def test_a_die_in_open_space_has_no_support_and_one_by_a_checker_rail_or_bar_has() -> None:
    field_map, die = straight_field()
    shape = (int(50 + 1000 / TOURNAMENT.field_aspect) + 60, 1200)
    empty = np.zeros(shape, np.uint8)
    middle = (0.25, 0.5)  # a quarter across: the left half's middle, far from the bar
    assert not supported(middle, die, field_map, TOURNAMENT, empty)
    assert not supported(middle, die, field_map, TOURNAMENT, None)
    # the rail: a die 0.6 die edges from the field's left edge or its top edge
    assert supported((0.6 * die, 0.5), die, field_map, TOURNAMENT, None)
    assert supported((0.25, 0.6 * die * TOURNAMENT.field_aspect), die, field_map, TOURNAMENT,
                     None)
    # the bar's edge
    left, _ = TOURNAMENT.bar_span
    assert supported((left - 0.6 * die, 0.5), die, field_map, TOURNAMENT, None)
    # a checker (radius 1.1 die edges) whose rim is 0.6 die edges from the die's centre,
    # and the same checker 2 die edges away
    x, y = field_map.image_point(*middle)
    for gap, expected in ((0.6, True), (2.0, False)):
        mask = empty.copy()
        cv2.circle(mask, (round(x + (gap + 1.1) * 30.0), round(y)), 33, 255, -1)
        assert supported(middle, die, field_map, TOURNAMENT, mask) is expected
    with pytest.raises(ConfigError, match="reach"):
        SupportConfig(reach=0.0)


def test_a_slight_squash_calls_a_supported_die_cocked_and_one_in_open_space_flat() -> None:
    gray = np.full((200, 200), 200, np.uint8)
    config = PoseConfig(supported_squash=(0.905, 0.92, 0.92, 0.96, 0.96, 0.905),
                        use_support=True)
    face = face_of(4, 0.0, ratio=0.9)  # pips 0.9 round: pooled with the square, 0.949
    assert config.fine_squash[3] < squash(face) < config.supported_squash[3]
    alone = assess(gray, face, 40.0, config, source_die=40.0)
    leaning = assess(gray, face, 40.0, config, source_die=40.0, supported=True)
    assert alone.flat
    assert not leaning.flat and any("squashed" in r for r in leaning.reasons)
    # a round four is flat with support too
    assert assess(gray, face_of(4, 0.0), 40.0, config, source_die=40.0, supported=True).flat
    with pytest.raises(ConfigError, match="supported_squash"):
        PoseConfig(supported_squash=(0.9, 0.9, 0.9, 0.9, 0.9))  # type: ignore[arg-type]


def test_a_one_leaning_shows_a_single_sliver_on_a_side_turned_away() -> None:
    # a one 40 px wide, the nadir to its right; one sliver on its left side, which
    # no flat die shows: enough with something to lean on, not in open space
    gray = np.full((200, 200), 200, np.uint8)
    one = Face((pip(100.0, 100.0),), "dark", (100.0, 100.0), 0.0, 40.0, 0.0)
    sliver = Pip(72.0, 100.0, 5.0, 8.0, 3.0, 0.0, 120.0, 230.0)
    config = PoseConfig(use_support=True)
    field_pixels = 40.0 / 0.03
    nadir = (100.0 + 0.3 * field_pixels, 100.0)

    def read(leaning: bool) -> bool:
        return assess(gray, one, 40.0, config, nadir=nadir, field_pixels=field_pixels,
                      pips=[sliver], source_die=40.0, supported=leaning).flat

    assert read(False)
    assert not read(True)


def test_a_die_in_open_space_is_flat_whatever_its_cues() -> None:
    gray = np.full((200, 200), 200, np.uint8)
    face = face_of(4, 0.0, ratio=0.8)  # squashed well past every bound
    config = PoseConfig()
    assert config.use_support and config.cocked_needs_support
    alone = assess(gray, face, 40.0, config, source_die=40.0)
    assert alone.flat and alone.reasons == ()
    assert alone.pip_ratio == pytest.approx(0.8)  # measured all the same
    leaning = assess(gray, face, 40.0, config, source_die=40.0, supported=True)
    assert not leaning.flat
    # the rule off, or support not looked at: the cues decide in open space too
    assert not assess(gray, face, 40.0, replace(config, cocked_needs_support=False),
                      source_die=40.0).flat
    assert not assess(gray, face, 40.0, replace(config, use_support=False),
                      source_die=40.0).flat


def test_a_die_lying_on_a_checker_is_not_held_by_it() -> None:
    field_map, die = straight_field()
    shape = (int(50 + 1000 / TOURNAMENT.field_aspect) + 60, 1200)
    middle = (0.25, 0.5)
    x, y = field_map.image_point(*middle)
    under = np.zeros(shape, np.uint8)
    cv2.circle(under, (round(x + 5.0), round(y)), 33, 255, -1)  # the die on its top face
    assert not supported(middle, die, field_map, TOURNAMENT, under)
    assert supported(middle, die, field_map, TOURNAMENT, under,
                     SupportConfig(below_counts=True))
    # the rail still holds a die lying on a checker by it
    u, v = 0.6 * die, 0.5
    x, y = field_map.image_point(u, v)
    rail = np.zeros(shape, np.uint8)
    cv2.circle(rail, (round(x), round(y)), 33, 255, -1)
    assert supported((u, v), die, field_map, TOURNAMENT, rail)


def test_the_other_die_beside_holds_a_die() -> None:
    field_map, die = straight_field()
    middle = (0.25, 0.5)
    beside = (0.25 + 1.2 * die, 0.5)  # centres 1.2 die edges apart: one leans on the other
    below = (0.25, 0.5 + 1.2 * die * TOURNAMENT.field_aspect)
    far = (0.25 + 2.0 * die, 0.5)
    for other, expected in ((beside, True), (below, True), (far, False)):
        assert supported(middle, die, field_map, TOURNAMENT, None,
                         others=[middle, other]) is expected  # itself is no support
    assert not supported(middle, die, field_map, TOURNAMENT, None, SupportConfig(die_reach=1.0),
                         others=[beside])
    with pytest.raises(ConfigError, match="die_reach"):
        SupportConfig(die_reach=-1.0)
