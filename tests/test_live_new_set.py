"""The live loop forgets the learned checker colours at a game's end (a set may change)."""

from dataclasses import replace

import numpy as np

from controller.referee.events import RefereeEvent
from controller.referee.live import after_events
from vision.calibration import Calibration
from vision.config import VisionConfig
from vision.motion import MotionConfig
from vision.observation import Counts
from vision.pipeline import BoardReader
from vision.synth.generate import random_scene
from vision.synth.positions import start_position
from vision.synth.render import render
from vision.synth.styles import BOARD_STYLES, CHECKER_STYLES, DICE_STYLES, Style

SIZE = (1280, 720)
CONFIG = VisionConfig(motion=MotionConfig(enabled=False))
"""Every frame read in full (the gate would answer a repeated frame with the last)."""


def _learned_reader() -> BoardReader:
    """A stream reader that has learned a red-black set's colours from its start."""
    style = Style(BOARD_STYLES[0], next(c for c in CHECKER_STYLES if c.name == "red-black"),
                  DICE_STYLES[0])
    scene = random_scene(np.random.default_rng(2), style=style, dice=0, hands=0, cube=False,
                         tray="none")
    start = replace(scene, points=start_position("bottom-right"), bar=Counts(), off=Counts())
    frame, truth = render(start, SIZE)
    corners = truth.observation.corners
    assert corners is not None
    reader = BoardReader(CONFIG, Calibration(corners, "manual", SIZE, profile=scene.profile),
                         stream=True)
    for k in range(CONFIG.checkers.learn.frames):
        reader.read(frame, t=0.1 * k)
    assert reader.colours is not None
    return reader


def test_the_colours_learned_stay_through_a_game_and_go_at_its_end() -> None:
    reader = _learned_reader()
    learned = reader.colours
    after_events(reader, [RefereeEvent(1.0, "roll", "light", {"dice": [3, 1]}),
                          RefereeEvent(2.0, "play", "light", {"move": "8/5 6/5", "legal": True})])
    assert reader.colours == learned
    after_events(reader, [RefereeEvent(3.0, "game_over", "light",
                                       {"winner": "light", "points": 1, "result": "resign"})])
    assert reader.colours is None
