"""The occlusion stage: the real frames, hands drawn over a drawn board, the stream tracker,
and a rendered stream through the stabiliser."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.test_cube import CORNERS, camera_frame, draw_cube, drawn_field, real
from vision.calibration import Calibration
from vision.errors import ConfigError
from vision.occlusion import AppearanceConfig, OcclusionConfig, OcclusionResult, detect_occlusion
from vision.occlusion.appearance import (
    explained,
    lab8,
    learn_appearance,
    lit,
    surface_geometry,
    weighted,
)
from vision.occlusion.tracker import OcclusionTracker, TrackerConfig
from vision.pipeline import BoardReader
from vision.profile import TOURNAMENT, BoardProfile
from vision.rectify import FieldMap
from vision.stabiliser import Stabiliser, StabiliserConfig, StableState
from vision.synth import random_scene, render
from vision.synth.scene import HandPose

REAL = {"frame0": False, "frame1": False, "test8": False, "test9": False,
        "frame2": True, "frame3": True, "frame4": True, "frame5": True}
"""The labels' ``hands_or_occlusion`` (frame0, frame1 and test9 have a hand at the image's
bottom edge, outside the field: not occluded)."""

SKIN = (120, 150, 205)
NAVY = (70, 35, 25)


def with_arm(field: np.ndarray, colour: tuple[int, int, int], *, tip: tuple[float, float],
             from_bottom: bool = True, width: float = 0.11) -> np.ndarray:
    """An arm (a thick line ending in a palm) reaching in over the rail to ``tip`` (u, v)."""
    out = field.copy()
    h, w = out.shape[:2]
    start = (round(tip[0] * w + 0.1 * w), h + 50 if from_bottom else -50)
    end = (round(tip[0] * w), round(tip[1] * h))
    cv2.line(out, start, end, colour, round(width * w), cv2.LINE_AA)
    cv2.circle(out, end, round(0.07 * w), colour, -1, cv2.LINE_AA)
    return out


def field_map() -> FieldMap:
    return FieldMap.from_corners(CORNERS)


@pytest.mark.parametrize(("name", "hand"), REAL.items())
def test_real_frames_match_their_labels(name: str, hand: bool) -> None:
    image, fmap, _ = real(name)
    result = detect_occlusion(image, fmap, TOURNAMENT)
    assert result.occluded is hand, result.reason
    assert (result.score >= 1.0) is hand
    assert bool(result.boxes) is hand


def test_real_hand_box_is_where_the_notes_say() -> None:
    # frame5: "Hand (holding the dice cup) covers the top of points 12 and 13".
    image, fmap, _ = real("frame5")
    result = detect_occlusion(image, fmap, TOURNAMENT)
    hand = max((r for r in result.regions if r.occluding), key=lambda r: r.area)
    assert {12, 13} <= set(hand.points)
    x, y, w, _ = hand.box
    assert x < 300 and y < 100 and x + w > 250


@pytest.mark.parametrize("colour", [SKIN, NAVY, (90, 200, 90)])
def test_drawn_arm_over_the_field_is_found(colour: tuple[int, int, int]) -> None:
    frame = camera_frame(with_arm(drawn_field(), colour, tip=(0.3, 0.6)))
    result = detect_occlusion(frame, field_map(), TOURNAMENT)
    assert result.occluded, result.reason
    x, y, w, h = result.boxes[0]
    tip = field_map().image_point(0.3, 0.6)
    assert x - 20 <= tip[0] <= x + w + 20 and y - 20 <= tip[1] <= y + h + 20


def test_drawn_fingertips_from_the_top_rail_are_found() -> None:
    frame = camera_frame(with_arm(drawn_field(), SKIN, tip=(0.7, 0.02), from_bottom=False,
                                  width=0.05))
    assert detect_occlusion(frame, field_map(), TOURNAMENT).occluded


def test_clear_drawn_board_with_a_cube_on_the_bar_is_clear() -> None:
    field = drawn_field()
    draw_cube(field, 4, 0.5, 0.5)
    result = detect_occlusion(camera_frame(field), field_map(), TOURNAMENT)
    assert not result.occluded, result.reason
    assert result.score < 0.5


def test_hand_outside_the_field_is_not_occlusion() -> None:
    frame = camera_frame(drawn_field())
    cv2.ellipse(frame, (640, 712), (120, 40), 0, 0, 360, SKIN, -1)  # below the bottom rail
    cv2.ellipse(frame, (1100, 360), (60, 120), 0, 0, 360, SKIN, -1)  # beside the board
    assert not detect_occlusion(frame, field_map(), TOURNAMENT).occluded


def test_tracker_on_real_frames() -> None:
    frames = {name: real(name)[0] for name in ("frame1", "frame2", "test9")}
    fmap = real("frame1")[1]
    tracker = OcclusionTracker(fmap, TOURNAMENT)
    verdicts = [tracker.update(frames[name]).occluded
                for name in ("frame1", "frame1", "frame1", "frame1")]
    assert verdicts == [False] * 4 and tracker.has_background
    assert tracker.update(frames["frame2"]).occluded
    # The hand has gone: the next frame waits out the release, then the field is clear.
    after = [tracker.update(frames["frame1"]) for _ in range(3)]
    assert after[0].occluded and not after[-1].occluded
    assert any("after" in r.reason for r in after if r.occluded)
    # Same checkers, the dice rolled elsewhere: clear.
    assert not tracker.update(frames["test9"]).occluded


def test_tracker_learns_a_still_interior_mark_but_never_a_hand() -> None:
    field = drawn_field()
    h, w = field.shape[:2]
    cv2.rectangle(field, (round(0.16 * w), round(0.44 * h)), (round(0.32 * w), round(0.56 * h)),
                  (160, 90, 40), -1)  # a logo printed mid-field: unexplained, never moves
    fmap = field_map()
    config = TrackerConfig(stubborn_frames=5)
    tracker = OcclusionTracker(fmap, TOURNAMENT, config)
    clear = camera_frame(field, seed=1)
    verdicts = [tracker.update(clear).occluded for _ in range(9)]
    assert verdicts[0] and not verdicts[-1]
    arm = camera_frame(with_arm(field, NAVY, tip=(0.75, 0.5)), seed=2)
    assert all(tracker.update(arm).occluded for _ in range(8))  # a still arm stays a hand


def test_tracker_ignores_exposure_changes() -> None:
    fmap = field_map()
    tracker = OcclusionTracker(fmap, TOURNAMENT)
    frame = camera_frame(drawn_field())
    for _ in range(4):
        assert not tracker.update(frame).occluded
    darker = np.clip(frame.astype(np.float32) * 0.8, 0, 255).astype(np.uint8)
    tracker.update(darker)  # the change itself is motion
    assert not tracker.update(darker).occluded


def test_bad_configs_are_refused() -> None:
    with pytest.raises(ConfigError):
        OcclusionConfig(width=10)
    with pytest.raises(ConfigError):
        OcclusionConfig(min_area=0.0)
    with pytest.raises(ConfigError):
        TrackerConfig(release_frames=0)


def _bottom_point_u(profile: BoardProfile, point: int) -> float:
    """The field u of the centre of physical bottom-row point ``point`` (0 = bottom right)."""
    column = 11 - point
    left_end, right_start = profile.bar_span
    start = column * profile.point_width if column < 6 else (
        right_start + (column - 6) * profile.point_width)
    assert start + profile.point_width <= 1.0 and (column >= 6 or start < left_end)
    return start + profile.point_width / 2.0


def test_stabiliser_never_emits_a_state_while_a_hand_passes_over_a_rendered_board() -> None:
    """A stream of renders: the board alone, then an arm reaching in from the near side
    and hovering over the tallest bottom-row stack for longer than the hold time, then
    leaving.  The stream reader must flag every frame the arm covers, and the stabiliser
    must emit the board once, before the arm, and nothing while it is there (a missed
    frame would show the stack short of checkers, a new state, once it held 0.3 s)."""
    rng = np.random.default_rng(20261130)
    scene = random_scene(rng, hands=0, dice=0, cube=False, moves=0, tray="none")
    bottom = [scene.points[i].light + scene.points[i].dark for i in range(12)]
    target = int(np.argmax(bottom))
    u = _bottom_point_u(scene.profile, target)
    # The palm's depth into the field from the near (bottom) edge, frame by frame: out
    # of the field, reaching in, hovering over the stack, pulling back out.
    depths = [None] * 4 + [-0.1, 0.15, 0.3, 0.35, 0.35, 0.36, 0.34, 0.2, 0.0] + [None] * 6
    reader: BoardReader | None = None
    stabiliser = Stabiliser(StabiliserConfig(hold=0.3))
    stable: list[tuple[int, StableState]] = []
    covered: list[int] = []
    for index, depth in enumerate(depths):
        hands = () if depth is None else (HandPose(
            u=u, v=1.0 - depth, from_side="bottom", angle_deg=8.0, elevation_mm=60.0,
            skin=(115, 150, 205), sleeve=(120, 90, 60), curl=0.6, spread=0.4),)
        frame, truth = render(replace(scene, hands=hands))
        if reader is None:
            corners = truth.observation.corners
            assert corners is not None
            reader = BoardReader(calibration=Calibration(
                corners, "manual", (frame.shape[1], frame.shape[0]), profile=scene.profile),
                stream=True)
        observation = reader.read(frame, t=0.1 * index)
        if truth.observation.occluded:
            covered.append(index)
            # Fingertips just over the rail, inside the analysed margin or on a checker's
            # disc, may go unseen for a frame; a hand reaching in may not.
            assert observation.occluded or truth.hand_cover < 0.02, (
                f"frame {index}: {truth.hand_cover:.1%} of the field under the arm, missed")
        stable += [(index, e) for e in stabiliser.push(observation) if isinstance(e, StableState)]
    assert len(covered) >= 6 and covered == list(range(covered[0], covered[-1] + 1))
    assert [index for index, _ in stable] == [3]  # 0.0 .. 0.3 s held; nothing new after
    state = stable[0][1].observation
    assert not state.occluded
    assert state.points[target] == scene.points[target]
    # ... and once the arm has gone, the still board is clear and stable again.
    assert not observation.occluded and stabiliser.condition == "stable"


def with_glare(field: np.ndarray, centre: tuple[float, float], strength: float,
               sigma: float) -> np.ndarray:
    """A lamp's reflection: ``strength`` grey levels added at ``centre`` (u, v), falling off
    as a Gaussian ``sigma`` field widths wide, clipped as a sensor clips."""
    h, w = field.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d2 = (xs - centre[0] * w) ** 2 + (ys - centre[1] * h) ** 2
    glare = strength * np.exp(-d2 / (2.0 * (sigma * w) ** 2))
    return np.clip(field.astype(np.float32) + glare[..., None], 0, 255).astype(np.uint8)


def _lit_share(field: np.ndarray, where: np.ndarray, config: AppearanceConfig) -> float:
    """The share of the pixels in ``where`` that the Lab test leaves over and the lit-surface
    test explains, on a rectified field drawn at 256 pixels."""
    size = (field.shape[1], field.shape[0])
    geometry = surface_geometry(TOURNAMENT, size, config)
    lab = lab8(field)
    appearance = learn_appearance(lab, geometry, np.zeros(field.shape[:2], bool), config)
    known = explained(weighted(lab, config), geometry, appearance, config)
    left = ~known & where
    assert left.sum() > 100  # the Lab test alone must leave enough to judge
    glare = lit(field, left, known, geometry, appearance, config)
    return float(glare[left].mean())


def test_glare_is_explained_but_a_step_of_glare_is_not() -> None:
    field = drawn_field(256)
    red = np.all(np.abs(field.astype(int) - (40, 30, 190)) < 8, axis=2)
    # A lamp's soft reflection over the top-left points: washed out, continuous.
    lamp = with_glare(field, (0.2, 0.15), 130.0, 0.08)
    assert _lit_share(lamp, red, AppearanceConfig()) > 0.8
    # The same washed-out red with hard edges inside the red points (a pink sleeve).
    sleeve = field.copy()
    h, w = field.shape[:2]
    rows, columns = np.arange(h)[:, None], np.arange(w)[None, :]
    patch = red & (rows > 0.12 * h) & (rows < 0.3 * h) & (columns < 0.3 * w)
    sleeve[patch] = np.clip(0.9 * sleeve[patch].astype(float) + 130, 0, 255).astype(np.uint8)
    assert _lit_share(sleeve, patch, AppearanceConfig()) < 0.1
    # Colour alone would take it for glare: it is the continuity that refuses it.
    assert _lit_share(sleeve, patch, AppearanceConfig(lit_glare_jump=1e6)) > 0.8


def _largest(result: OcclusionResult) -> float:
    return max((r.area for r in result.regions), default=0.0)


def test_an_arm_nearly_the_colour_of_the_field_is_followed_over_it() -> None:
    # Pale skin a little darker than the cream field: explained over the field, plain
    # over the red and black points; the strips over the points lend it their colour.
    pale = (178, 205, 222)
    frame = camera_frame(with_arm(drawn_field(), pale, tip=(0.72, 0.45), width=0.14))
    grown = detect_occlusion(frame, field_map(), TOURNAMENT)
    alone = detect_occlusion(frame, field_map(), TOURNAMENT,
                             config=OcclusionConfig(grow_seeds=0))
    assert grown.occluded, grown.reason
    assert _largest(grown) > 1.3 * _largest(alone)
