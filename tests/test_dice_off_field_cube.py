"""The off-field stage opens no window for the cube's marks when it is given the cube
(OffFieldConfig.cube_blobs): whatever such a window found, merge_off_field drops it."""

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.cube import find_cube
from vision.dice import off_field
from vision.dice.board import read_window
from vision.dice.off_field import OffFieldConfig, read_off_field_dice
from vision.dice.propose import Blob, Window
from vision.observation import Corners, Cube
from vision.rectify import FieldMap
from vision.synth.generate import random_scene
from vision.synth.render import render

FIELD = FieldMap.from_corners(Corners((100.0, 100.0), (700.0, 100.0), (700.0, 660.0),
                                      (100.0, 660.0)))


def test_blobs_within_reach_of_the_cube_are_left_out() -> None:
    # a die edge is 0.03 of the 600-pixel field: 18 pixels; the cube at (730, 380)
    cube = Cube(None, (730.0, 380.0), "centre")
    found = [Blob(1.05, 0.5, "light"),                      # on the cube (0.0 die edges)
             Blob(1.05, 0.5 + 1.4 * 18.0 / 560.0, "light"),  # its side face (1.4)
             Blob(1.05 + 1.6 * 18.0 / 600.0, 0.5, "dark"),   # a die's pip beside it (1.6)
             Blob(-0.05, 0.2, "dark")]
    assert off_field._off_the_cube(found, FIELD, cube, 0.03, OffFieldConfig()) == found[2:]
    assert off_field._off_the_cube(found, FIELD, None, 0.03, OffFieldConfig()) == found
    assert off_field._off_the_cube(found, FIELD, cube, 0.03,
                                   OffFieldConfig(cube_blobs=None)) == found


def _read(monkeypatch: pytest.MonkeyPatch, cube: Cube | None,
          ) -> tuple[tuple[object, ...], list[Window], Cube | None, FieldMap]:
    # render seed 3's seventh scene (tune styles): the cube on the right rail, centred
    rng = np.random.default_rng(3)
    for _ in range(6):
        random_scene(rng)
    scene = random_scene(rng)
    frame, truth = render(scene)
    assert truth.observation.corners is not None
    field_map = FieldMap.from_corners(truth.observation.corners)
    found = find_cube(frame, field_map, scene.profile)
    read: list[Window] = []

    def recording(*args: object, **kwargs: object) -> object:
        read.append(args[2])  # type: ignore[arg-type]
        return read_window(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(off_field, "read_window", recording)
    dice = read_off_field_dice(frame, field_map, scene.profile,
                               cube=found if cube is None else cube)
    return dice, read, found, field_map


def test_the_cube_on_a_rail_opens_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    dice, read, cube, field_map = _read(monkeypatch, None)
    assert cube is not None and cube.position == "centre"
    die = 0.03 * math.dist(field_map.image_point(0.0, 0.5), field_map.image_point(1.0, 0.5))

    def at_the_cube(window: Window) -> bool:
        u = (window.core_low[0] + window.core_high[0]) / 2.0
        v = (window.core_low[1] + window.core_high[1]) / 2.0
        return math.dist(field_map.image_point(u, v), cube.center) < 1.5 * die

    assert dice == () and not any(at_the_cube(w) for w in read)
    # given a cube elsewhere, its marks open a window, which finds nothing
    far = replace(cube, center=(cube.center[0], cube.center[1] - 10.0 * die))
    dice, read, _, _ = _read(monkeypatch, far)
    assert dice == () and any(at_the_cube(w) for w in read)
