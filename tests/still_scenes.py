"""Rendered scenes read by the board's dice stage as the pipeline reads them live: from a
2x still, with the checker mask drawn from the truth.

Tests that pin a die a bench once missed take the scene (or, for the cocked-die scenes
``bench/dice_pose_accuracy.py`` draws, its seed and index) and read it under the config
under test.
"""

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.dice.board import BoardDiceConfig, BoardDie, read_board_dice_details
from vision.observation import Die
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.render import render
from vision.synth.scene import Scene
from vision.synth.truth import Truth

DEFAULTS = BoardDiceConfig()


def checker_mask(truth: Truth, shape: tuple[int, ...]) -> np.ndarray:
    """Non-zero where the truth's checkers lie, in a frame of ``shape``."""
    mask = np.zeros(shape[:2], np.uint8)
    for checker in truth.checkers:
        cv2.ellipse(mask, (checker.center, checker.axes, checker.angle_deg), 255, -1)
    return mask


@dataclass(frozen=True)
class StillScene:
    scene: Scene
    frame: np.ndarray
    still: np.ndarray
    truth: Truth
    field_map: FieldMap
    checker_mask: np.ndarray

    def cocked(self) -> list[Die]:
        return [d for d in self.truth.observation.dice if not d.flat]

    def read(self, config: BoardDiceConfig = DEFAULTS) -> list[BoardDie]:
        return read_board_dice_details(self.frame, self.field_map, self.scene.profile,
                                       hires=self.still, scale=2.0,
                                       checker_mask=self.checker_mask, config=config)


def still_scene(scene: Scene) -> StillScene:
    """``scene`` rendered as a frame and a 2x still."""
    frame, truth = render(scene)
    still, _ = render(scene, (frame.shape[1] * 2, frame.shape[0] * 2))
    assert truth.observation.corners is not None
    return StillScene(scene, frame, still, truth,
                      FieldMap.from_corners(truth.observation.corners),
                      checker_mask(truth, frame.shape))


def cocked_scene(seed: int, index: int) -> StillScene:
    """The ``index``-th (from 0) scene with a cocked die of ``seed``'s draw."""
    rng = np.random.default_rng(seed)
    for _ in range(index):
        random_scene(rng, dice=2, cocked=True)
    return still_scene(random_scene(rng, dice=2, cocked=True))


def live_cocked_scene(seed: int, index: int) -> StillScene:
    """:func:`cocked_scene` read with the checker mask the pipeline draws from the
    checkers it finds (as ``bench/dice_pose_accuracy.py --live-mask`` and the pose-fit
    benches read it), not the truth's."""
    from bench.dice_pose_accuracy import live_mask

    shot = cocked_scene(seed, index)
    corners = shot.truth.observation.corners
    assert corners is not None
    return replace(shot, checker_mask=live_mask(shot.frame, corners, shot.scene))
