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
