"""The cube on a rail while big dice lie on the field: the cube-sized face wins
(``LocateConfig.prefer_side``), though a die's top face seen from above is squarer."""

import math
from dataclasses import replace

import numpy as np

from vision.calibration import Calibration
from vision.cube import CubeConfig, find_cube
from vision.cube.locate import LocateConfig
from vision.synth import random_scene, render
from vision.synth.camera import CameraPose
from vision.synth.scene import CubePlacement, DiePlacement
from vision.synth.styles import Style, by_name


def _frame() -> tuple[np.ndarray, Calibration, tuple[float, float]]:
    """Referee stream seed 0 at t=118 s: a black 1 and 4 of 16.6 mm on a maple field, the
    cube (4) turned and put on the bottom rail."""
    style = Style(by_name("maple-walnut"), by_name("red-black"),  # type: ignore[arg-type]
                  by_name("black"))  # type: ignore[arg-type]
    scene = random_scene(np.random.default_rng(11), style=style, dice=2, cube=True, hands=0)
    scene = replace(
        scene,
        dice=(DiePlacement(1, 0.611, 0.551, 86.5), DiePlacement(4, 0.800, 0.568, 8.5)),
        cube=CubePlacement(4, "bottom", 0.68, 1.0318, 8.0),
        dimensions=replace(scene.dimensions, die_mm=16.6, field_width_mm=471.0),
        camera=CameraPose(height_mm=740.0, tilt_x_deg=1.3, tilt_y_deg=2.8, roll_deg=4.0,
                          aim=(0.472, 0.472), fill=0.92))
    frame, truth = render(scene)
    corners = truth.observation.corners
    cube = truth.observation.cube
    assert corners is not None and cube is not None
    calibration = Calibration(corners, "manual", (frame.shape[1], frame.shape[0]),
                              profile=scene.profile)
    return frame, calibration, cube.center


def test_the_cube_on_the_rail_beats_a_big_die() -> None:
    frame, calibration, centre = _frame()
    cube = find_cube(frame, calibration.field_map(), calibration.profile)
    assert cube is not None
    assert cube.position == "bottom"
    assert math.dist(cube.center, centre) < 12.0


def test_by_squareness_alone_a_die_is_taken_for_it() -> None:
    # what prefer_side is for: with it out of reach, the squarer die face wins
    frame, calibration, centre = _frame()
    config = CubeConfig(locate=LocateConfig(prefer_side=1.0))
    cube = find_cube(frame, calibration.field_map(), calibration.profile, config)
    assert cube is not None
    assert math.dist(cube.center, centre) > 50.0
