"""A stream whose very first frames already object (a region at the rail the colour test
does not explain, and no clear frame ever to compare it with) learns that region as the
board once it has stayed put over ``TrackerConfig.first_clear_frames`` still reads
(referee stream seed 59: a whole session read occluded); once a stream has seen a clear
frame the rule is off, and a region that moves is never learned."""

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.errors import ConfigError
from vision.occlusion import detect_occlusion
from vision.occlusion.tracker import OcclusionTracker, TrackerConfig
from vision.profile import BoardProfile
from vision.rectify import FieldMap
from vision.synth import random_scene, render

READS = 12


def _board() -> tuple[np.ndarray, FieldMap, BoardProfile]:
    scene = random_scene(np.random.default_rng(3), hands=0, dice=0)
    clear, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    calibration = Calibration(corners, "manual", (clear.shape[1], clear.shape[0]),
                              profile=scene.profile)
    return clear, calibration.field_map(), scene.profile


def _patched(clear: np.ndarray, field_map: FieldMap, u: float) -> np.ndarray:
    """A green-grey patch on the field at the bottom rail (a stain, a sticker, light the
    colour test cannot explain): about four checker areas."""
    out = clear.copy()
    corners = ((u, 0.80), (u + 0.10, 0.80), (u + 0.10, 1.0), (u, 1.0))
    polygon = np.array([field_map.image_point(a, b) for a, b in corners], np.int32)
    cv2.fillPoly(out, [polygon], (90, 160, 120))
    return out


def _noisy(frame: np.ndarray, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, 1.5, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def board() -> tuple[np.ndarray, FieldMap, BoardProfile]:
    return _board()


def test_the_patch_objects_alone_and_reaches_the_rail(board) -> None:  # type: ignore[no-untyped-def]
    clear, field_map, profile = board
    assert not detect_occlusion(clear, field_map, profile).occluded
    result = detect_occlusion(_patched(clear, field_map, 0.62), field_map, profile)
    assert result.occluded
    assert any(r.at_rail for r in result.regions if r.occluding)


def test_a_region_there_from_the_start_is_learned(board) -> None:  # type: ignore[no-untyped-def]
    clear, field_map, profile = board
    frame = _patched(clear, field_map, 0.62)
    config = TrackerConfig()
    assert config.first_clear_frames is not None
    tracker = OcclusionTracker(field_map, profile, config)
    seen = [tracker.update(_noisy(frame, k)).occluded for k in range(READS)]
    assert all(seen[:config.first_clear_frames])
    assert not any(seen[config.first_clear_frames + config.release_frames:])
    # and then a hand-sized change elsewhere still counts
    moved = _patched(frame, field_map, 0.20)
    assert tracker.update(_noisy(moved, 99)).occluded


def test_without_the_rule_it_stays_occluded(board) -> None:  # type: ignore[no-untyped-def]
    clear, field_map, profile = board
    frame = _patched(clear, field_map, 0.62)
    tracker = OcclusionTracker(field_map, profile, TrackerConfig(first_clear_frames=None))
    assert all(tracker.update(_noisy(frame, k)).occluded for k in range(READS))


def test_not_after_a_clear_frame(board) -> None:  # type: ignore[no-untyped-def]
    clear, field_map, profile = board
    tracker = OcclusionTracker(field_map, profile)
    assert not tracker.update(_noisy(clear, 50)).occluded
    frame = _patched(clear, field_map, 0.62)
    assert all(tracker.update(_noisy(frame, k)).occluded for k in range(READS))


def test_a_region_that_moves_is_not_learned(board) -> None:  # type: ignore[no-untyped-def]
    clear, field_map, profile = board
    tracker = OcclusionTracker(field_map, profile)
    places = (0.05, 0.62, 0.30, 0.75)
    seen = [tracker.update(_noisy(_patched(clear, field_map, places[k % 4]), k)).occluded
            for k in range(READS)]
    assert all(seen)


def test_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="first_clear_frames"):
        TrackerConfig(first_clear_frames=0)
    with pytest.raises(ConfigError, match="first_overlap"):
        TrackerConfig(first_overlap=0.0)
