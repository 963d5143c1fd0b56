"""A cocked three's squashed top face: the stray-mark disc reaches past it.

A three's corner pips lie a third of a die edge from its centre along the diagonal,
and the stray-mark disc just past them; a die cocked 25-35 degrees shows its top face
squashed across the lean to 0.8-0.9 of its edge, and the disc then takes in a strip of
what lies past that edge (the board, the side face).  Those marks reach in from the
disc's rim and stay outside the pips: they are not marks on the face.
"""

from dataclasses import replace

import cv2
import numpy as np

from vision.dice.board import BoardDiceConfig
from vision.dice.detect import clean_face
from vision.dice.faces import Face, layout_face
from vision.dice.pips import find_pips

BOARD = BoardDiceConfig()


def squashed_three(height: int) -> tuple[np.ndarray, Face]:
    """A light 40-pixel die face ``height`` pixels tall on a dark board, with a three's
    dark pips on its diagonal."""
    image = np.full((100, 100), 60, np.uint8)
    top = 50 - height // 2
    cv2.rectangle(image, (30, top), (69, top + height - 1), 220, -1)
    step_x, step_y = 10.0, 10.0 * height / 40.0
    for k in (-1, 0, 1):
        cv2.ellipse(image, (round(49.5 + k * step_x), round(49.5 + k * step_y)), (4, 3), 0,
                    0, 360, 40, -1)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    pips = find_pips(image, "dark", BOARD.detect.pips)
    face = layout_face(pips, "dark", BOARD.detect.faces)
    assert face is not None and face.value == 3
    return image, face


def test_a_squashed_three_is_clean_on_the_board() -> None:
    image, face = squashed_three(30)
    counted = replace(BOARD.detect, rim_strays_from=4)
    assert not clean_face(image, face, counted, 40.0)  # the board past its edges counted
    assert clean_face(image, face, BOARD.detect, 40.0)


def test_a_mark_on_a_squashed_three_still_counts() -> None:
    image, face = squashed_three(30)
    cv2.rectangle(image, (52, 40), (58, 43), 40, -1)  # a mark between the pips
    assert not clean_face(image, face, BOARD.detect, 40.0)


def test_twos_and_ones_still_count_marks_from_the_rim() -> None:
    assert BOARD.detect.rim_strays_from == 3


def test_a_six_column_read_as_a_three_still_counts_marks_from_the_rim() -> None:
    # a cocked six's column (pips a quarter die apart: a die 0.78 of 40 pixels by a
    # three's layout) whose other column did not join it: that column marks the disc
    # from its rim, and for so tight a three such marks still count
    image = np.full((100, 100), 220, np.uint8)
    for y in (40, 50, 60):
        cv2.circle(image, (45, y), 3, 40, -1)
        cv2.circle(image, (58, y), 3, 110, -1)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    pips = find_pips(image, "dark", BOARD.detect.pips)
    face = layout_face([p for p in pips if p.x < 51], "dark", BOARD.detect.faces)
    assert face is not None and face.value == 3
    assert face.die_size < BOARD.detect.rim_three_least * 40.0
    assert not clean_face(image, face, BOARD.detect, 40.0)
    loose = replace(BOARD.detect, rim_three_least=0.0)
    assert clean_face(image, face, loose, 40.0)
