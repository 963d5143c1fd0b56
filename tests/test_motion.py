"""Motion gating: still frames reuse the last full read, any change is read again."""

import numpy as np

from vision.motion import MotionConfig, MotionGate


def frame(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (120, 200, 3), dtype=np.uint8)


def test_still_frames_are_skipped_and_changes_are_not() -> None:
    gate = MotionGate()
    still = frame()
    assert gate.changed(still)          # the first frame is always read
    assert not gate.changed(still.copy())
    moved = still.copy()
    moved[40:80, 60:120] = 255          # a hand, a die: a clear change
    assert gate.changed(moved)
    assert not gate.changed(moved)


def test_sensor_noise_is_not_motion() -> None:
    gate = MotionGate()
    base = frame().astype(np.int16)
    assert gate.changed(base.astype(np.uint8))
    noise = np.random.default_rng(1).integers(-3, 4, base.shape)
    assert not gate.changed(np.clip(base + noise, 0, 255).astype(np.uint8))


def test_a_full_read_comes_at_least_every_max_skipped_frames() -> None:
    gate = MotionGate(MotionConfig(max_skipped=3))
    still = frame()
    answers = [gate.changed(still) for _ in range(9)]
    assert answers == [True, False, False, False, True, False, False, False, True]


def test_a_disabled_gate_reads_every_frame() -> None:
    gate = MotionGate(MotionConfig(enabled=False))
    assert all(gate.changed(frame()) for _ in range(3))


def test_a_stream_without_a_board_looks_for_it_only_every_few_seconds() -> None:
    from unittest import mock

    from vision.errors import BoardNotFoundError
    from vision.pipeline import BoardReader

    reader = BoardReader(stream=True)
    blank = np.zeros((120, 160, 3), dtype=np.uint8)
    with mock.patch("vision.pipeline.calibrate",
                    side_effect=BoardNotFoundError("board not found")) as calibrate:
        for i in range(10):  # 0.0 .. 2.7 s at 3 1/3 frames a second, all different
            frame = blank.copy()
            frame[:, : 10 * (i + 1)] = 255
            assert not reader.read(frame, t=i * 0.3).board_found
    assert calibrate.call_count == 2  # at 0.0 s and at 2.1 s (retry every 2 s)


def _rendered(dice: int, noise_seed: int) -> np.ndarray:
    """A 720p render of one scene, with or without its dice, plus sensor noise."""
    from dataclasses import replace

    from vision.synth.generate import random_scene
    from vision.synth.render import render

    scene = random_scene(np.random.default_rng(5), dice=2, hands=0, cube=False)
    image, _ = render(replace(scene, dice=scene.dice[:dice]))
    noise = np.random.default_rng(noise_seed).normal(0.0, 3.0, image.shape)
    return np.clip(image.astype(np.float64) + noise, 0, 255).astype(np.uint8)


def test_one_die_landing_on_a_still_board_is_motion() -> None:
    # At the former default (0.2 % of the thumbnail) a throw onto a still
    # board went unread for max_skipped frames.
    gate = MotionGate()
    assert gate.changed(_rendered(0, noise_seed=1))
    assert not gate.changed(_rendered(0, noise_seed=2))   # the same board, new noise
    assert gate.changed(_rendered(1, noise_seed=3))        # one die came to rest
    assert not gate.changed(_rendered(1, noise_seed=4))
    assert gate.changed(_rendered(2, noise_seed=5))        # and the second one
