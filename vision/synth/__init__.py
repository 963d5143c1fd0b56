"""Synthetic boards: a board state rendered to a camera frame, with its ground truth.

The tests, the accuracy benchmark and the demo's synthetic camera need
frames whose answer is known.  :func:`random_scene` draws a plausible
:class:`Scene` (a legal-looking position, dice, cube, hands, style, camera,
light) from a numpy generator; :func:`render` turns a scene into a BGR frame
and a :class:`Truth` holding the schema-1 observation a perfect reader would
report, plus per-checker ellipses and visibility.

    rng = np.random.default_rng(7)
    frame, truth = render(random_scene(rng, hands=0))

Nothing here is downloaded or read from disk: every texture is procedural.
"""

from vision.synth.camera import CameraPose
from vision.synth.generate import SynthConfig, random_scene
from vision.synth.positions import start_position
from vision.synth.render import DEFAULT_SIZE, HIRES_SIZE, RenderConfig, render
from vision.synth.scene import (
    CubePlacement,
    DiePlacement,
    Dimensions,
    Glare,
    HandPose,
    Lighting,
    Scene,
    SceneError,
    Stacking,
)
from vision.synth.styles import BOARD_STYLES, CHECKER_STYLES, DICE_STYLES, Style
from vision.synth.truth import CheckerTruth, Truth

__all__ = [
    "BOARD_STYLES",
    "CHECKER_STYLES",
    "DEFAULT_SIZE",
    "DICE_STYLES",
    "HIRES_SIZE",
    "CameraPose",
    "CheckerTruth",
    "CubePlacement",
    "DiePlacement",
    "Dimensions",
    "Glare",
    "HandPose",
    "Lighting",
    "RenderConfig",
    "Scene",
    "SceneError",
    "Stacking",
    "Style",
    "SynthConfig",
    "Truth",
    "random_scene",
    "render",
    "start_position",
]
