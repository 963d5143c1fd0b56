"""Cocked-die scenes as ``bench/dice_pose_accuracy.py`` draws them, read by the board stage.

Tests that pin a die the bench once missed take the scene by its seed and index, render
it with a 2x still, and read it with the truth's checker mask and the configured die
size, as the bench does; only the config under test changes.
"""

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.board import BoardDiceConfig, BoardDie, read_board_dice_details
from vision.observation import Die
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.render import render
from vision.synth.scene import Scene
from vision.synth.truth import Truth


@dataclass(frozen=True)
class CockedScene:
    scene: Scene
    frame: np.ndarray
    still: np.ndarray
    truth: Truth
    field_map: FieldMap
    checker_mask: np.ndarray

    def cocked(self) -> list[Die]:
        return [d for d in self.truth.observation.dice if not d.flat]

    def read(self, config: BoardDiceConfig) -> list[BoardDie]:
        return read_board_dice_details(self.frame, self.field_map, self.scene.profile,
                                       hires=self.still, scale=2.0,
                                       checker_mask=self.checker_mask, config=config)


def cocked_scene(seed: int, index: int) -> CockedScene:
    """The ``index``-th (from 0) scene with a cocked die of ``seed``'s draw."""
    rng = np.random.default_rng(seed)
    for _ in range(index):
        random_scene(rng, dice=2, cocked=True)
    scene = random_scene(rng, dice=2, cocked=True)
    frame, truth = render(scene)
    still, _ = render(scene, (frame.shape[1] * 2, frame.shape[0] * 2))
    assert truth.observation.corners is not None
    mask = np.zeros(frame.shape[:2], np.uint8)
    for checker in truth.checkers:
        cv2.ellipse(mask, (checker.center, checker.axes, checker.angle_deg), 255, -1)
    return CockedScene(scene, frame, still, truth,
                       FieldMap.from_corners(truth.observation.corners), mask)
