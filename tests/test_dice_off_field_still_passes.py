"""The band's quick look with the stills' extra passes (OffFieldConfig.still_propose): a
die off the field that the frame's passes propose no blob for is read from the still.

The scenes are bench/dice_off_field.py's tune seed 92 (boards 1 and 17), read as that
bench reads them (the pipeline, calibration given, dice from a 2x still).
"""

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.shared_data import shared_file
from vision.calibration import Calibration
from vision.camera.base import Still
from vision.config import VisionConfig
from vision.dice.off_field import OffFieldConfig
from vision.observation import Corners, Observation
from vision.synth.render import render
from vision.synth.scene import DiePlacement, Scene


def _bench_scene(seed: int, board: int) -> tuple[Scene, DiePlacement]:
    from bench.dice_off_field import off_field_die
    from vision.synth.generate import random_scene

    rng = np.random.default_rng(seed)
    for _ in range(board + 1):
        scene = random_scene(rng)
        extra, _where = off_field_die(rng, scene)
    assert isinstance(extra, DiePlacement)
    return scene, extra


def _read(scene: Scene, config: VisionConfig) -> Observation:
    from vision.pipeline import BoardReader

    frame, truth = render(scene)
    assert truth.observation.corners is not None
    size = (frame.shape[1], frame.shape[0])
    calibration = Calibration(truth.observation.corners, "manual", size, profile=scene.profile)
    config = replace(config, dice=replace(config.dice, die_size=scene.dimensions.die_mm
                                          / scene.dimensions.field_width_mm))
    big = render(scene, (2 * size[0], 2 * size[1]))[0]
    shot = Still(big, (0, 0, *size), (2.0, 2.0), 0.0)
    return BoardReader(config, calibration).read(frame, still=shot)


@pytest.mark.parametrize(("board", "value", "why"), [
    (1, 1, "a red translucent one on the top rail: its dim pip under the frame's thresholds"),
    (17, 3, "a three of the light checkers' colour just past the top edge"),
])
def test_a_die_off_the_field_only_the_still_passes_propose_is_read(
        board: int, value: int, why: str) -> None:
    scene, extra = _bench_scene(92, board)
    assert extra.value == value and (extra.v < 0.0 or extra.v > 1.0), why
    shown = replace(scene, dice=(*scene.dice, extra))
    read = _read(shown, VisionConfig())
    assert [d.value for d in read.dice_off_field] == [value]
    frame_passes = VisionConfig(off_field=OffFieldConfig(still_propose=None))
    assert _read(shown, frame_passes).dice_off_field == ()
    # the board without it: no die off the field
    assert _read(scene, VisionConfig()).dice_off_field == ()


def test_the_still_passes_are_for_stills_only() -> None:
    config = OffFieldConfig()
    assert config.still_propose is not None
    frame = config.propose
    assert (frame.faint_response, frame.strict_response, frame.wide_hat) == (None, None, None)
    still = config.still_propose
    assert still.faint_response is not None and still.wide_hat is not None
    assert still.max_ring_spread == frame.max_ring_spread


def test_real_board_frames_read_with_a_still_report_no_die_off_the_field() -> None:
    # no real 2x capture of these frames exists: each enlarged twice stands for its still
    from vision.pipeline import BoardReader

    labels = sorted(shared_file("data", "real-boards").glob("*.json"))
    assert labels
    for label in labels:
        data = json.loads(label.read_text())
        image = cv2.imread(str(label.with_suffix(".jpg")))
        assert image is not None, label
        height, width = image.shape[:2]
        calibration = Calibration(Corners.from_json(data["corners"]), "manual", (width, height))
        big = np.asarray(cv2.resize(image, (2 * width, 2 * height),
                                    interpolation=cv2.INTER_LINEAR), np.uint8)
        still = Still(big, (0, 0, width, height), (2.0, 2.0), 0.0)
        read = BoardReader(VisionConfig(), calibration).read(image, still=still)
        assert read.dice_off_field == (), label
