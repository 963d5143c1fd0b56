"""A coloured die's tipped-up face found by its colour (vision/dice/chroma.py) where the
grey window shows no edge: a red die whose shaded side face has the board's grey."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.dice.board import BoardDiceConfig, read_window
from vision.dice.chroma import ChromaConfig, chroma_contrast
from vision.dice.faces import Face
from vision.dice.pips import find_pips
from vision.dice.pose import PoseConfig, assess
from vision.dice.propose import Window
from vision.errors import ConfigError
from vision.observation import Corners
from vision.rectify import FieldMap

RED = (50, 50, 210)  # BGR, grey 98
SHADED = (30, 30, 126)  # the same red at 0.6 of the light, grey 59
BOARD = (40, 70, 45)  # an olive board, grey 59 too
WHITE = (235, 235, 235)


def die_window(top: tuple[int, int, int] = RED, side: tuple[int, int, int] | None = SHADED,
               board: tuple[int, int, int] = BOARD) -> tuple[np.ndarray, Face]:
    """A 200 px window: a two 40 px wide at (100, 100), a tipped-up face 14 px wide on its
    right (``side``, None for none), and the face the pip finder reads."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = board
    if side is not None:
        image[80:120, 120:134] = side
    image[80:120, 80:120] = top
    for x, y in ((90.0, 90.0), (110.0, 110.0)):
        cv2.circle(image, (round(x), round(y)), 4, WHITE, -1)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    pips = find_pips(gray, "light")
    assert len(pips) == 2
    return image, Face(tuple(pips), "light", (100.0, 100.0), 10.5, 40.0, 0.0)


def test_the_whole_die_is_near_in_chroma_and_the_board_far() -> None:
    image, face = die_window()
    contrast = chroma_contrast(image, face)
    assert contrast is not None
    top, side, board = int(contrast[100, 100]), int(contrast[100, 127]), int(contrast[100, 170])
    assert top < 10 and side < 10  # shading keeps the chromaticity
    assert board > 100
    # in grey the side face and the board are alike
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert abs(int(gray[100, 127]) - int(gray[100, 170])) <= 2


def test_grey_and_dark_dice_are_not_read_by_colour() -> None:
    image, face = die_window(top=(150, 150, 150), side=(90, 90, 90))
    assert chroma_contrast(image, face) is None
    dark, face = die_window(top=(20, 20, 45), side=(12, 12, 27))
    assert chroma_contrast(dark, face) is None
    assert chroma_contrast(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), face) is None


def test_a_tipped_up_face_of_the_boards_grey_is_found_by_its_colour() -> None:
    # the learned cue's veto off: the drawn die is no render
    config = replace(PoseConfig(), lean_squash=None, outline_squash=1.0, learned_veto=None)
    field_pixels = 40.0 / 0.03
    nadir = (100.0, 101.0)  # below the camera: perspective shows no side

    def read(image: np.ndarray, face: Face, colour: bool, lean: tuple[float, float] = (-1.0, 0.0),
             cfg: PoseConfig = config) -> tuple[str, ...]:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return assess(gray, face, 40.0, cfg, nadir=nadir, field_pixels=field_pixels,
                      pips=[], source_die=40.0, supported=True, lean=lean,
                      colour=image if colour else None).reasons

    image, face = die_window()
    assert read(image, face, colour=False) == ()  # no edge in grey
    found = read(image, face, colour=True)
    assert any("by its colour" in r for r in found)
    # the side turned toward the support is not looked at
    assert read(image, face, colour=True, lean=(1.0, 0.0)) == ()
    # a flat die: no band, nothing found
    flat, face = die_window(side=None)
    assert read(flat, face, colour=True) == ()
    # off, or a round top face (outline_squash): not read
    assert read(image, face, colour=True, cfg=replace(config, chroma_margin=None)) == ()
    assert read(image, face, colour=True, cfg=replace(config, outline_squash=0.5)) == ()


def test_bad_chroma_configs_are_refused() -> None:
    with pytest.raises(ConfigError, match="chroma"):
        ChromaConfig(min_saturation=2.0)
    with pytest.raises(ConfigError, match="chroma"):
        ChromaConfig(gain=0.0)
    with pytest.raises(ConfigError, match="chroma_margin"):
        PoseConfig(chroma_margin=-0.1)


def test_the_board_stage_keeps_the_windows_colour_for_the_pose_test() -> None:
    image, _ = die_window()
    field = FieldMap.from_corners(Corners((0.0, 0.0), (200.0, 0.0), (200.0, 200.0),
                                          (0.0, 200.0)))
    window = Window((0.0, 0.0), (1.0, 1.0), (0.0, 0.0), (1.0, 1.0), ("light",))
    read = read_window(image, field, window, (200, 200), (100.0, -500.0), BoardDiceConfig())
    assert read.colour is not None and read.colour.shape == (200, 200, 3)
    # the grey window is the colour window's grey, pixel for pixel
    assert np.array_equal(read.gray, cv2.cvtColor(read.colour, cv2.COLOR_BGR2GRAY))
    grey = read_window(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), field, window, (200, 200),
                       (100.0, -500.0), BoardDiceConfig())
    assert grey.colour is None and np.array_equal(grey.gray, read.gray)
