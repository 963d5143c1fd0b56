"""The synthetic board renderer: determinism, a consistent truth, every style, real geometry."""

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np
import pytest

from vision.observation import Counts, Observation
from vision.profile import TOURNAMENT, TrayProfile
from vision.rectify import FieldMap
from vision.synth import (
    BOARD_STYLES,
    CHECKER_STYLES,
    DICE_STYLES,
    CameraPose,
    CubePlacement,
    DiePlacement,
    HandPose,
    Lighting,
    Scene,
    SceneError,
    Stacking,
    Style,
    Truth,
    random_scene,
    render,
    start_position,
)
from vision.synth.__main__ import main
from vision.synth.camera import Camera
from vision.synth.dice import DIE_FACES, Box
from vision.synth.geometry import BoardGeometry
from vision.synth.layout import checker_spots
from vision.synth.positions import SEATINGS, Seating, physical, random_position
from vision.synth.styles import BoardStyle, CheckerStyle, DiceStyle

Named = TypeVar("Named", BoardStyle, CheckerStyle)
SMALL = (640, 360)
CLEAN = Lighting(noise=0.0, vignette=0.0, shadow=0.2)
"""No noise or vignetting: colours stay close to the style's, for colour checks."""


def _scene(seed: int, **knobs: Any) -> Scene:
    return random_scene(np.random.default_rng(seed), **knobs)


def _field(truth: Truth) -> FieldMap:
    assert truth.observation.corners is not None
    return FieldMap.from_corners(truth.observation.corners)


def _named(catalogue: tuple[Named, ...], name: str) -> Named:
    return next(style for style in catalogue if style.name == name)


# -- determinism ------------------------------------------------------------


def test_same_seed_renders_the_same_image_bit_for_bit() -> None:
    a, truth_a = render(_scene(11, hands=1, dice=2), SMALL)
    b, truth_b = render(_scene(11, hands=1, dice=2), SMALL)
    assert np.array_equal(a, b)
    assert truth_a == truth_b
    c, _ = render(_scene(12, hands=1, dice=2), SMALL)
    assert not np.array_equal(a, c)


def test_scene_seed_drives_noise_only_through_the_scene() -> None:
    scene = _scene(3, hands=0)
    a, _ = render(scene, SMALL)
    b, _ = render(replace(scene, seed=scene.seed + 1), SMALL)
    assert a.shape == b.shape
    assert not np.array_equal(a, b)  # jitter, textures and noise follow the seed


# -- the scene's truth --------------------------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_random_scenes_account_for_15_checkers_a_side(seed: int) -> None:
    scene = _scene(seed)
    light = sum(p.light for p in scene.points) + scene.bar.light + scene.off.light
    dark = sum(p.dark for p in scene.points) + scene.bar.dark + scene.off.dark
    assert (light, dark) == (15, 15)
    assert all(p.light == 0 or p.dark == 0 for p in scene.points)  # one colour a point


def test_scene_rejects_what_no_board_can_show() -> None:
    points = list(start_position())
    points[0] = Counts(dark=1)
    with pytest.raises(SceneError, match="15 checkers"):
        Scene(points=tuple(points))
    with pytest.raises(SceneError, match="24 points"):
        Scene(points=start_position()[:23])
    with pytest.raises(SceneError, match="1-6"):
        DiePlacement(7, 0.7, 0.5)
    with pytest.raises(SceneError, match="2-64"):
        CubePlacement(3, "top", 0.5, -0.02)
    with pytest.raises(SceneError, match="hovers"):
        HandPose(0.5, 0.5, elevation_mm=2.0)


def test_start_position_matches_the_seating() -> None:
    points = start_position("bottom-right")
    # Light's home board is bottom right: its 6-point is physical 5, its 24-point physical 23.
    assert points[5] == Counts(light=5) and points[23] == Counts(light=2)
    assert points[0] == Counts(dark=2) and points[18] == Counts(dark=5)
    assert points[11] == Counts(dark=5) and points[12] == Counts(light=5)
    mirrored = start_position("bottom-left")
    assert mirrored[6] == Counts(light=5) and mirrored[11] == Counts(dark=2)


@pytest.mark.parametrize("seating", SEATINGS)
def test_each_side_walks_around_the_board_through_neighbouring_points(seating: Seating) -> None:
    for light in (True, False):
        path = [physical(p, seating, light) for p in range(24, 0, -1)]
        assert sorted(path) == list(range(24))
        for a, b in itertools.pairwise(path):
            u_a, u_b = TOURNAMENT.point_u(a), TOURNAMENT.point_u(b)
            same_row = TOURNAMENT.is_top(a) == TOURNAMENT.is_top(b)
            # Next point along the row (maybe across the bar), or across the end to the other row.
            assert (same_row and abs(u_a - u_b) < 0.15) or (not same_row and abs(u_a - u_b) < 1e-9)


def test_random_walk_reaches_bear_offs_and_hits() -> None:
    rng = np.random.default_rng(5)
    offs, bars = 0, 0
    for _ in range(60):
        points, bar, off = random_position(rng, 170, "top-left")
        assert all(p.light == 0 or p.dark == 0 for p in points)
        offs += off.light + off.dark
        bars += bar.light + bar.dark
    assert offs > 0 and bars > 0


def test_truth_lists_every_checker_in_view() -> None:
    with_tray = _scene(4, tray="right", hands=0)
    _, truth = render(with_tray, SMALL)
    assert len(truth.checkers) == 30
    assert truth.observation.off == with_tray.off
    without = _scene(4, tray="none", hands=0)
    _, truth = render(without, SMALL)
    assert len(truth.checkers) == 30 - without.off.light - without.off.dark
    assert truth.observation.off is None


def test_truth_corners_project_the_field_and_checkers_sit_in_their_columns() -> None:
    scene = _scene(8, hands=0, camera=CameraPose(height_mm=720.0, tilt_x_deg=4.0,
                                                 tilt_y_deg=-3.5, roll_deg=3.0))
    _, truth = render(scene)
    field = _field(truth)
    counted = [Counts() for _ in range(24)]
    for checker in truth.checkers:
        if checker.point is None or checker.layer > 0:
            continue
        u, v = field.field_point(checker.center)
        # Parallax of a 7 mm-high face seen from 72 cm: well under a point's width.
        assert scene.profile.point_at(u, v) == checker.point
        assert math.dist((u, v), checker.field) < 0.015
        c = counted[checker.point]
        counted[checker.point] = Counts(c.light + (checker.colour == "light"),
                                        c.dark + (checker.colour == "dark"))
    for index, counts in enumerate(scene.points):
        assert (counted[index].light > 0) == (counts.light > 0)
        assert (counted[index].dark > 0) == (counts.dark > 0)


def test_rectified_start_position_shows_the_stacks_in_their_point_columns() -> None:
    """An independent check through vision.rectify: colours where the first checkers lie."""
    style = Style(_named(BOARD_STYLES, "maple-walnut"), _named(CHECKER_STYLES, "red-black"),
                  DICE_STYLES[0])
    scene = Scene(style=style, lighting=CLEAN,
                  camera=CameraPose(height_mm=800.0, tilt_x_deg=-3.0, roll_deg=2.5))
    frame, truth = render(scene)
    profile = scene.profile
    width = 1070
    rect = _field(truth).rectify(frame, profile, width)
    h = rect.shape[0]
    pw = profile.point_width
    radius_v = profile.checker_diameter * pw * profile.field_aspect / 2.0  # in v units
    board = style.board
    for index, counts in enumerate(scene.points):
        u = profile.point_u(index)
        top = profile.is_top(index)
        v = radius_v + 0.004 if top else 1.0 - radius_v - 0.004
        x0, x1 = round((u - 0.3 * pw) * width), round((u + 0.3 * pw) * width)
        y0, y1 = round((v - 0.4 * radius_v) * h), round((v + 0.4 * radius_v) * h)
        mean = rect[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)
        column = index - 12 if top else 11 - index
        point_colour = board.points[(column + (0 if top else 1)) % 2]
        candidates = {"light": style.checkers.light.face, "dark": style.checkers.dark.face,
                      "empty": point_colour}
        nearest = min(candidates, key=lambda k: float(np.linalg.norm(mean - candidates[k])))
        expected = "light" if counts.light else "dark" if counts.dark else "empty"
        assert nearest == expected, f"point {index}: {mean} looks {nearest}, not {expected}"


# -- dice, cube and hands ----------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_dice_centres_lie_where_the_dice_were_placed(seed: int) -> None:
    scene = _scene(40 + seed, dice=2, hands=0)
    _, truth = render(scene, SMALL)
    field = _field(truth)
    assert len(truth.observation.dice) == len(scene.dice) >= 1
    for placed, die in zip(scene.dice, truth.observation.dice, strict=True):
        u, v = field.field_point(die.center)
        assert 0.0 < u < 1.0 and 0.0 < v < 1.0
        assert math.dist((u, v), (placed.u, placed.v)) < 0.03
        assert die.side == scene.profile.half(placed.u)
        assert die.value == placed.value and die.flat == placed.flat
        assert die.box is not None
        x, y, w, h = die.box
        assert x <= die.center[0] <= x + w and y <= die.center[1] <= y + h


def test_cocked_dice_are_flagged_and_show_more_than_their_top() -> None:
    scene = _scene(7, dice=2, cocked=True, hands=0)
    cocked = scene.dice[0]
    assert not cocked.flat and 10.0 <= cocked.tilt_deg <= 40.0
    _, truth = render(scene, SMALL)
    assert truth.observation.dice[0].flat is False
    assert truth.observation.dice[0].value == cocked.value
    # Its box seen straight down is wider than a flat die of the same size at its yaw.
    flat = replace(scene, dice=(replace(cocked, tilt_deg=0.0), *scene.dice[1:]))
    _, flat_truth = render(flat, SMALL)
    box, flat_box = truth.observation.dice[0].box, flat_truth.observation.dice[0].box
    assert box is not None and flat_box is not None
    assert box[2] * box[3] > flat_box[2] * flat_box[3]


@pytest.mark.parametrize("value", range(1, 7))
def test_a_box_keeps_the_chosen_face_up_when_turned_and_tilted(value: int) -> None:
    for yaw, tilt, lean in ((0.0, 0.0, 0.0), (37.0, 30.0, 120.0), (80.0, 40.0, 250.0)):
        box = Box.resting(100.0, 100.0, 0.0, 15.0, DIE_FACES.index(value), yaw, tilt, lean)
        assert DIE_FACES[box.up_face()] == value
        assert min(-box.corners()[:, 2]) == pytest.approx(0.0, abs=1e-9)  # rests on the board


def test_die_on_a_checker_rests_on_its_top() -> None:
    scene = _scene(21, dice=1, on_checker=True, cocked=False, hands=0)
    die = scene.dice[0]
    assert die.on_checker and die.flat
    _, truth = render(scene, SMALL)
    assert truth.observation.dice[0].on_checker
    from vision.synth.render import die_box

    geo = BoardGeometry.of(scene)
    box = die_box(die, geo, checker_spots(scene, geo))
    assert min(-box.corners()[:, 2]) >= geo.checker_thickness - 1e-9


def test_cube_truth_reports_the_printed_face_and_its_place() -> None:
    scene = replace(_scene(2, hands=0, cube=False), cube=CubePlacement(1, "centre", 0.5, 0.5))
    _, truth = render(scene, SMALL)
    cube = truth.observation.cube
    assert cube is not None and cube.value == 64 and cube.position == "centre"
    assert math.dist(_field(truth).field_point(cube.center), (0.5, 0.5)) < 0.03
    owned = replace(scene, cube=CubePlacement(8, "bottom", 0.3, 1.03))
    _, truth = render(owned, SMALL)
    assert truth.observation.cube is not None and truth.observation.cube.value == 8


@pytest.mark.parametrize("seed", range(4))
def test_hands_over_the_field_are_flagged_occluded(seed: int) -> None:
    scene = _scene(60 + seed, hands=1)
    _, truth = render(scene, SMALL)
    assert truth.observation.occluded
    assert truth.hand_cover > 0.002
    assert any(c.visible < 1.0 for c in truth.checkers) or truth.hand_cover < 0.05
    clear = replace(scene, hands=())
    _, truth = render(clear, SMALL)
    assert not truth.observation.occluded and truth.hand_cover == 0.0


def test_a_hand_beside_the_board_does_not_occlude() -> None:
    scene = replace(_scene(9, hands=0), hands=(HandPose(-0.35, 0.5, from_side="left",
                                                        elevation_mm=60.0),))
    frame, truth = render(scene, SMALL)
    assert not truth.observation.occluded
    plain, _ = render(replace(scene, hands=()), SMALL)
    assert not np.array_equal(frame, plain)  # the hand is in the picture, just not over the field


def test_hidden_checkers_have_lower_visibility() -> None:
    scene = _scene(5, hands=0)
    # A second-layer checker partly covers the one below it.
    points = tuple(Counts(dark=15) if i == 0 else Counts() for i in range(24))
    stacked = replace(scene, points=points, bar=Counts(light=15), off=Counts(), dice=(), cube=None,
                      stacking=Stacking(row=5, shift=0.5))
    _, truth = render(stacked, SMALL)
    layers = [c for c in truth.checkers if c.point == 0]
    assert [sum(1 for c in layers if c.layer == k) for k in range(5)] == [5, 4, 3, 2, 1]
    assert min(c.visible for c in layers if c.layer == 0) < 0.9
    assert max(c.visible for c in layers if c.layer == 4) > 0.95


# -- styles and sizes --------------------------------------------------------


@pytest.mark.parametrize("board", BOARD_STYLES, ids=lambda s: s.name)
def test_every_board_style_renders(board: BoardStyle) -> None:
    scene = replace(_scene(31, hands=0), style=Style(board, CHECKER_STYLES[0], DICE_STYLES[0]))
    frame, truth = render(scene, SMALL)
    assert frame.shape == (360, 640, 3) and frame.dtype == np.uint8
    assert float(frame.std()) > 10.0
    assert truth.observation.board_found


@pytest.mark.parametrize("checkers", CHECKER_STYLES, ids=lambda s: s.name)
def test_every_checker_style_renders_light_and_dark_apart(checkers: CheckerStyle) -> None:
    scene = replace(_scene(32, hands=0), style=Style(BOARD_STYLES[2], checkers, DICE_STYLES[0]),
                    lighting=CLEAN)
    frame, truth = render(scene, SMALL)
    means: dict[str, list[float]] = {"light": [], "dark": []}
    for c in truth.checkers:
        if c.visible > 0.9 and c.place == "point":
            x, y = (round(v) for v in c.center)
            means[c.colour].append(float(frame[y - 2:y + 3, x - 2:x + 3].mean()))
    assert means["light"] and means["dark"]
    assert np.mean(means["light"]) > np.mean(means["dark"]) + 20.0


@pytest.mark.parametrize("dice", DICE_STYLES, ids=lambda s: s.name)
def test_every_dice_style_renders(dice: DiceStyle) -> None:
    style = Style(BOARD_STYLES[0], CHECKER_STYLES[1], dice)
    scene = replace(_scene(33, dice=2, hands=0), style=style)
    frame, truth = render(scene, SMALL)
    assert truth.observation.dice
    for die in truth.observation.dice:
        assert die.box is not None
        x, y, w, h = (round(v) for v in die.box)
        assert float(frame[y:y + h, x:x + w].std()) > 8.0  # pips on a body, not a blank


def test_high_resolution_mode_frames_the_board_the_same() -> None:
    scene = _scene(13, hands=0)
    _, low = render(scene, (1280, 720))
    _, high = render(scene, (2560, 1440))
    assert low.observation.corners is not None and high.observation.corners is not None
    for a, b in zip(low.observation.corners.as_list(), high.observation.corners.as_list(),
                    strict=True):
        assert math.dist((a[0] * 2.0, a[1] * 2.0), b) < 2.0


def test_lens_distortion_moves_the_truth_with_the_picture() -> None:
    style = Style(_named(BOARD_STYLES, "maple-walnut"), _named(CHECKER_STYLES, "red-black"),
                  DICE_STYLES[0])
    scene = replace(_scene(14, hands=0, dice=0, cube=False), lighting=CLEAN, style=style)
    bowed = replace(scene, camera=replace(scene.camera, barrel=0.05))
    frame, truth = render(bowed)
    _, ideal = render(scene)
    assert truth.observation.corners != ideal.observation.corners
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    checked = 0
    for checker, straight in zip(truth.checkers, ideal.checkers, strict=True):
        shift = math.dist(checker.center, straight.center)
        if checker.colour != "dark" or checker.visible < 0.98 or shift < 3.0:
            continue
        # The dark checker's centroid is where the truth says, not where a pinhole puts it.
        x, y = (round(v) for v in checker.center)
        reach = round(checker.axes[0])
        window = (grey[y - reach:y + reach, x - reach:x + reach] < 50).astype(np.uint8)
        # Eroded, touching checkers of a stack part at their narrow neck.
        core = cv2.erode(window, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
        _, labels = cv2.connectedComponents(core)
        blob = np.argwhere(labels == labels[reach, reach])
        cy, cx = blob.mean(axis=0) + np.array([y - reach, x - reach])
        assert math.dist((cx, cy), checker.center) < 1.5
        assert math.dist((cx, cy), straight.center) > 2.0
        checked += 1
    assert checked >= 3


def test_camera_tilts_the_way_its_pose_says() -> None:
    field = (500.0, 467.0)
    straight = Camera.build(CameraPose(), field, 530.0, (1280, 720))
    centre = straight.project(np.array([[250.0, 233.5, 0.0]]))[0]
    assert np.allclose(centre, (640.0, 360.0))
    down = Camera.build(CameraPose(tilt_x_deg=4.0), field, 530.0, (1280, 720))
    right = Camera.build(CameraPose(tilt_y_deg=4.0), field, 530.0, (1280, 720))
    # Tilted toward the bottom rail, the lens sits above the top half of the field, and so on.
    assert down.centre[1] < 233.5 - 40.0 and abs(down.centre[0] - 250.0) < 1.0
    assert right.centre[0] < 250.0 - 40.0
    homography = down.plane_homography(20.0)
    x, y, w = homography @ np.array([100.0, 50.0, 1.0])
    assert np.allclose((x / w, y / w), down.project(np.array([[100.0, 50.0, -20.0]]))[0])


def test_stacks_follow_the_players_habit() -> None:
    points = [Counts() for _ in range(24)]
    points[3] = Counts(light=7)
    points[20] = Counts(dark=15)
    scene = Scene(points=tuple(points), off=Counts(light=8),
                  profile=replace(TOURNAMENT, tray=TrayProfile("left")),
                  stacking=Stacking(row=6, shift=0.3, jitter_mm=0.0))
    geo = BoardGeometry.of(scene)
    spots = checker_spots(scene, geo)
    own = [s for s in spots if s.point == 3]
    assert [s.layer for s in own] == [0] * 6 + [1]
    # The second layer starts 0.3 diameters further from the rail than the first.
    first, second = own[0], own[6]
    assert second.y < first.y  # the bottom row runs upward from the bottom rail
    assert (first.y - second.y) / (2.0 * geo.checker_radius) == pytest.approx(0.3, abs=0.05)
    assert second.elevation == pytest.approx(geo.checker_thickness)
    tray = [s for s in spots if s.place == "off"]
    assert len(tray) == 8 and all(s.on_edge and s.x < 0.0 for s in tray)


# -- command line ------------------------------------------------------------


def test_command_line_writes_a_frame_and_its_truth(tmp_path: Path) -> None:
    out, truth = tmp_path / "frame.png", tmp_path / "truth.json"
    assert main(["--seed", "4", "--out", str(out), "--truth", str(truth),
                 "--size", "320x180", "--hands", "0"]) == 0
    image = cv2.imread(str(out))
    assert image is not None and image.shape == (180, 320, 3)
    record = json.loads(truth.read_text())
    observation = Observation.from_json(record["observation"])
    assert observation.board_found and observation.corners is not None
    assert len(record["checkers"]) >= 15 and record["scene"]["seed"] >= 0


def test_command_line_rejects_a_bad_size(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--seed", "1", "--out", str(tmp_path / "f.png"), "--size", "big"])
    assert exit_info.value.code == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
