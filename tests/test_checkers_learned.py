"""A stream learns its set's checker colours from the starting position (issue 4)."""

from dataclasses import replace

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.checkers.colours import ColourConfig, ColourModel, LearnConfig, learnable
from vision.checkers.reader import ColourLearner, measure_checkers
from vision.config import VisionConfig
from vision.image_io import Image
from vision.motion import MotionConfig
from vision.observation import Counts, Observation
from vision.pipeline import BoardReader
from vision.synth.generate import random_scene
from vision.synth.positions import physical, start_position
from vision.synth.render import render
from vision.synth.styles import BOARD_STYLES, CHECKER_STYLES, DICE_STYLES, Style

SIZE = (1280, 720)
STREAM = VisionConfig(motion=MotionConfig(enabled=False))
"""Every frame read in full (the gate would answer a repeated frame with the last)."""


def _frames(style_name: str, seed: int) -> tuple[Image, Observation, Image, Observation,
                                                 Calibration]:
    """The starting position and a late one with the red side alone on the board (its
    home points, no tray in view), rendered with one style, camera and light."""
    checkers = next(c for c in CHECKER_STYLES if c.name == style_name)
    style = Style(BOARD_STYLES[0], checkers, DICE_STYLES[0])
    red_light = style_name == "red-black"
    scene = random_scene(np.random.default_rng(seed), style=style, dice=0, hands=0,
                         cube=False, tray="none")
    start = replace(scene, points=start_position("bottom-right"), bar=Counts(), off=Counts())
    points = [Counts()] * 24
    for point, n in ((1, 4), (2, 3), (4, 5)):
        points[physical(point, "bottom-right", red_light)] = (
            Counts(n, 0) if red_light else Counts(0, n))
    late = replace(scene, points=tuple(points), bar=Counts(),
                   off=Counts(3, 15) if red_light else Counts(15, 3))
    first, first_truth = render(start, SIZE)
    second, second_truth = render(late, SIZE)
    corners = first_truth.observation.corners
    assert corners is not None
    calibration = Calibration(corners, "manual", SIZE, profile=scene.profile)
    return first, first_truth.observation, second, second_truth.observation, calibration


@pytest.mark.parametrize("seed", [2, 3])
def test_a_red_side_alone_is_read_right_with_the_colours_learned_at_the_start(
        seed: int) -> None:
    # Red-black seeds 2 and 3: the red side alone reads dark by its lightness, frame by
    # frame; the set's red learned from the start is its light side.
    start, start_truth, late, late_truth, calibration = _frames("red-black", seed)
    alone = BoardReader(STREAM, calibration).read(late)
    assert alone.points != late_truth.points
    reader = BoardReader(STREAM, calibration, stream=True)
    for k in range(STREAM.checkers.learn.frames):
        assert reader.colours is None
        assert reader.read(start, t=0.1 * k).points == start_truth.points
    assert reader.colours is not None
    assert reader.read(late, t=1.0).points == late_truth.points


def test_a_white_red_set_reads_its_red_side_alone_right_with_or_without_the_model() -> None:
    start, _, late, late_truth, calibration = _frames("white-red", 2)
    assert BoardReader(STREAM, calibration).read(late).points == late_truth.points
    reader = BoardReader(STREAM, calibration, stream=True)
    for k in range(STREAM.checkers.learn.frames):
        reader.read(start, t=0.1 * k)
    assert reader.colours is not None
    assert reader.read(late, t=1.0).points == late_truth.points


def test_no_model_from_occluded_frames_late_positions_or_too_few_frames() -> None:
    start, _, late, _, calibration = _frames("red-black", 2)
    field_map = calibration.field_map()
    profile = calibration.profile
    first = measure_checkers(field_map.rectify(start, profile, 640), profile)
    second = measure_checkers(field_map.rectify(late, profile, 640), profile)
    learner = ColourLearner()
    frames = learner.config.learn.frames
    for _ in range(3 * frames):
        assert learner.offer(first, first.count(), occluded=True) is None
        assert learner.offer(second, second.count(), occluded=False) is None
    # A run broken by a frame that does not pass starts again.
    for _ in range(frames - 1):
        assert learner.offer(first, first.count(), occluded=False) is None
    assert learner.offer(first, first.count(), occluded=True) is None
    for _ in range(frames - 1):
        assert learner.offer(first, first.count(), occluded=False) is None
    model = learner.offer(first, first.count(), occluded=False)
    assert model is not None and model.light[2] > model.dark[2]  # red is the light side
    learner.reset()
    assert learner.model is None


def test_the_model_is_forgotten_on_a_new_calibration_and_a_given_model_kept() -> None:
    start, _, late, _, calibration = _frames("red-black", 2)
    reader = BoardReader(STREAM, calibration, stream=True)
    for k in range(STREAM.checkers.learn.frames):
        reader.read(start, t=0.1 * k)
    learned = reader.colours
    assert learned is not None
    reader.read(late, t=1.0)
    assert reader.colours == learned
    reader.calibration = replace(calibration)
    reader.read(start, t=2.0)
    assert reader.colours is None
    reader.reset()
    assert reader.colours is None

    given = ColourModel((200.0, 128.0, 128.0), (40.0, 128.0, 128.0))
    kept = BoardReader(STREAM, calibration, stream=True, colours=given)
    for k in range(STREAM.checkers.learn.frames + 1):
        kept.read(start, t=0.1 * k)
    kept.calibration = replace(calibration)
    kept.read(start, t=2.0)
    kept.reset()
    assert kept.colours == given


def test_learning_asks_for_two_colours_well_apart_and_the_light_one_lighter() -> None:
    rng = np.random.default_rng(4)
    red = [(120.0 + rng.normal(0, 4), 190.0 + rng.normal(0, 3), 165.0) for _ in range(15)]
    black = [(32.0 + rng.normal(0, 4), 130.0 + rng.normal(0, 3), 127.0) for _ in range(15)]
    flags = [True] * 15 + [False] * 15
    model = learnable(red + black, flags)
    assert model is not None and model.light[0] > model.dark[0]
    assert learnable(red + black, [not f for f in flags]) is None  # swapped
    assert learnable(red + black, [True] * 30) is None  # one colour
    near = [(c[0] + 30.0, c[1] + 8.0, c[2] + 8.0) for c in black]  # a brown against a black
    assert learnable(near + black, flags) is None
    few = learnable(red[:5] + black, [True] * 5 + [False] * 15)
    assert few is None and LearnConfig().min_seen > 5


def test_a_black_checker_in_a_glare_stays_dark_with_a_red_black_model() -> None:
    # A lamp's reflection lifts a black face's lightness to a red face's and more; the
    # model weighs lightness down as the split does, so the chroma decides.
    model = ColourModel(light=(120.0, 190.0, 165.0), dark=(32.0, 130.0, 127.0))
    weight = ColourConfig().lightness_weight
    assert not model.classify((140.0, 131.0, 128.0), weight)
    assert model.classify((60.0, 185.0, 160.0), weight)  # a red face in shadow
    assert model.classify((140.0, 131.0, 128.0))  # unweighted, the glare would win
