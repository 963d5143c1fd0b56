"""A board of one coloured side is a weak guess whatever its lightness
(``ColourConfig.weak_chroma``): the tray in view may turn it."""

from dataclasses import replace

import numpy as np
import pytest

from bench.checker_accuracy import WIDTH, draw_scene
from vision.checkers.colours import ColourConfig, weak_guess
from vision.checkers.reader import CheckerConfig, read_checkers
from vision.checkers.tray import TrayConfig, read_tray_reading, tray_image
from vision.rectify import FieldMap
from vision.synth import render
from vision.synth.scene import Scene


def _checker_bench_scene(seed: int, index: int) -> Scene:
    """Scene ``index`` of ``bench/checker_accuracy.py --seed SEED --split tune``."""
    rng = np.random.default_rng(seed)
    scene = draw_scene(rng, "tune", "random")
    for _ in range(index):
        scene = draw_scene(rng, "tune", "random")
    return scene


def test_coloured_faces_are_a_weak_guess_at_any_lightness() -> None:
    """Red faces as dark as a black set's lit faces (lightness 79, chroma 54) are a weak
    guess; black and white faces (chroma under 20) at the same lightnesses are not."""
    red = [(79.0, 174.0, 156.0)] * 5
    assert weak_guess(red, [False] * 5)
    assert not weak_guess(red, [False] * 5, ColourConfig(weak_chroma=0.0))
    black = [(40.0, 130.0, 127.0)] * 5
    white = [(230.0, 126.0, 140.0)] * 5
    assert not weak_guess(black, [False] * 5)
    assert not weak_guess(white, [True] * 5)
    # Lightness alone still makes a mid-grey face a weak guess.
    assert weak_guess([(120.0, 128.0, 128.0)] * 5, [True] * 5)
    # Two colours: never a guess.
    assert not weak_guess(red + white, [False] * 5 + [True] * 5)


@pytest.mark.parametrize(("seed", "index", "points"), [(90, 115, 4), (92, 250, 15)])
def test_a_red_side_alone_is_turned_by_the_tray(seed: int, index: int, points: int) -> None:
    """Checker bench tune seed 90, scene 115 (four red checkers on p0, eleven red and
    fifteen black in the tray) and seed 92, scene 250 (fifteen red on the board, fifteen
    black in the tray): a red-black set's red read 79 and 80 in lightness, under
    ``weak_guess``, so the board was taken for black with the tray saying otherwise.  As a
    coloured face it is a weak guess, and the tray's black block turns it."""
    scene = _checker_bench_scene(seed, index)
    assert scene.style.checkers.name == "red-black"
    assert sum(p.light for p in scene.points) + scene.bar.light == points
    assert sum(p.dark for p in scene.points) + scene.bar.dark == 0
    frame, truth = render(scene)
    corners = truth.observation.corners
    assert corners is not None
    field_map = FieldMap.from_corners(corners)
    field = field_map.rectify(frame, scene.profile, WIDTH)
    tray = tray_image(frame, field_map, scene.profile, TrayConfig().width)
    assert tray is not None
    reading = read_tray_reading(tray, scene.profile)
    read = read_checkers(field, scene.profile, off=reading)
    assert read.points == truth.observation.points
    lightness_only = replace(CheckerConfig(), colours=ColourConfig(weak_chroma=0.0))
    before = read_checkers(field, scene.profile, off=reading, config=lightness_only)
    assert sum(p.dark for p in before.points) == points
    assert sum(p.light for p in before.points) == 0
