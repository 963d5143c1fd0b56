"""A white checker on a white point under a lamp's glare, where face and point both clip
to the sensor's ceiling: its rim shows only where its outline's shadow falls, so a slot
whose inner disc is clipped white needs a lower rim score (``SlotConfig.glare_score``)."""

import numpy as np

from tests.checker_scenes import read_point
from vision.checkers.reader import CheckerConfig
from vision.checkers.slots import SlotConfig, _clipped
from vision.observation import Counts

OFF = CheckerConfig(slots=SlotConfig(glare_score=1.0))
"""The glare rule switched off (no rim score reaches 1.0 below ``score`` 0.85)."""


def test_a_clipped_white_checker_on_a_white_point_is_found() -> None:
    """Tune seed 24, scene 267 of bench/vision_accuracy.py: one white checker on the
    white point 22 (top right) under the lamp; its rim scores 0.84 at the slot, its disc
    is clipped white all over.  Missed without the glare rule."""
    want, (read, without) = read_point(24_000_267, 22, [CheckerConfig(), OFF])
    assert want == Counts(1, 0)
    assert read == want
    assert without == Counts(0, 0)


def test_a_white_checker_beside_a_stack_under_glare_is_found() -> None:
    """Tune seed 33, scene 88: a white checker alone on the white point 10 beside a white
    stack, under the lamp (0.77 at its slot)."""
    want, (read, without) = read_point(33_000_088, 10, [CheckerConfig(), OFF])
    assert want == Counts(1, 0)
    assert read == want
    assert without == Counts(0, 0)


def test_only_a_disc_clipped_all_over_counts() -> None:
    config = SlotConfig()
    gray = np.full((100, 100), 200, dtype=np.uint8)
    gray[30:70, 30:70] = 255
    assert _clipped(gray, 50.0, 50.0, 20.0, config)  # 16 px disc inside the white square
    assert not _clipped(gray, 40.0, 50.0, 20.0, config)  # a fifth of it off the square
    gray[50, 50] = 249  # one pixel below the ceiling of ~800: still clipped
    assert _clipped(gray, 50.0, 50.0, 20.0, config)
    assert not _clipped(gray, -50.0, 50.0, 20.0, config)  # off the image
