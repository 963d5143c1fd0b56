"""Dice values the board stage read wrong (issue 4, values): a two read as a one, once
because a faint blob past the die's corner was taken for the two's top face (the two
dropped as its side), once because only one of its pips was found.  A misread is worse
than an unread value (the referee then waits instead of judging a wrong roll): a one
whose pip does not sit amid an even face is reported unread.  Drawn cases test each
cause alone; rendered frames (bench/vision_accuracy.py's numbering, tune seed 25, read
from a 2x still as vision/stills.py reads a settled throw) test the whole stage."""

import math
from dataclasses import replace

import cv2
import numpy as np

from tests.test_dice_recall import live_read, still_read
from vision.dice.board import BoardDiceConfig
from vision.dice.detect import DetectConfig, find_dice
from vision.dice.faces import layout_face, top_faces
from vision.dice.pips import Pip
from vision.synth.generate import random_scene

BOARD = BoardDiceConfig()


def pip(x: float, y: float, contrast: float, size: float = 9.0) -> Pip:
    return Pip(x, y, size, size, size * 0.95, 0.0, contrast, 200.0, 0.9)


def test_a_faint_face_beside_a_die_is_its_side_not_its_top() -> None:
    # a two's pips (contrast 100) and, past its corner and farther from the nadir, a
    # faint round blob (contrast 42) read as a one
    two = layout_face([pip(50.0, 60.0, 100.0), pip(64.0, 74.0, 104.0)], "light",
                      BOARD.detect.faces)
    one = layout_face([pip(80.0, 40.0, 42.0)], "light", BOARD.detect.faces)
    assert two is not None and one is not None
    nadir = (-300.0, 500.0)
    kept = top_faces([two, one], BOARD.detect.faces, nadir)
    assert [f.value for f in kept] == [2]
    before = replace(BOARD.detect.faces, side_contrast=None)
    assert [f.value for f in top_faces([two, one], before, nadir)] == [1]


def test_a_side_face_as_contrasted_as_its_top_is_still_told_by_the_nadir() -> None:
    two = layout_face([pip(50.0, 60.0, 100.0), pip(64.0, 74.0, 90.0)], "light",
                      BOARD.detect.faces)
    one = layout_face([pip(80.0, 40.0, 80.0)], "light", BOARD.detect.faces)
    assert two is not None and one is not None
    nadir = (-300.0, 500.0)
    assert top_faces([two, one], BOARD.detect.faces, nadir) == top_faces(
        [two, one], replace(BOARD.detect.faces, side_contrast=None), nadir)


def light_pips_die(spots: list[tuple[float, float]], *, board: int = 20, body: int = 120,
                   ink: int = 240, die: float = 40.0, size: int = 120) -> np.ndarray:
    """A flat dark-bodied die (light pips) ``die`` pixels wide in the middle of a grey
    image of a darker board; ``spots``: pip centres in die edges from its centre.  Drawn
    8 times larger, then shrunk and blurred."""
    k = 8
    canvas = np.full((size * k, size * k), board, np.uint8)
    c = size * k / 2.0
    h = die * k / 2.0
    cv2.rectangle(canvas, (round(c - h), round(c - h)), (round(c + h), round(c + h)), body, -1)
    for x, y in spots:
        centre = (round(c + x * die * k), round(c + y * die * k))
        cv2.circle(canvas, centre, round(0.11 * die * k), ink, -1)
    small = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (0, 0), 0.8), np.uint8)


def test_a_one_whose_pip_is_off_its_face_centre_is_unsure() -> None:
    # only one pip of a two found: it lies a quarter die from two edges, and the disc
    # around it takes in the board past them
    gray = light_pips_die([(0.26, 0.26)])
    faces = find_dice(gray, BOARD.detect, None, BOARD.die_pixels)
    assert [(f.value, f.unsure) for f in faces] == [(1, True)]
    assert [f.unsure for f in find_dice(gray, replace(BOARD.detect, one_surround=None), None,
                                        BOARD.die_pixels)] == [False]
    # a one, its pip amid its face, is sure
    centred = light_pips_die([(0.0, 0.0)])
    faces = find_dice(centred, BOARD.detect, None, BOARD.die_pixels)
    assert [(f.value, f.unsure) for f in faces] == [(1, False)]


def test_the_photo_reader_does_not_judge_ones_so() -> None:
    assert BOARD.detect.one_surround == 0.4
    gray = light_pips_die([(0.26, 0.26)])
    assert all(not f.unsure for f in find_dice(gray, DetectConfig()))


def test_a_rendered_two_beside_a_faint_blob_is_read_as_a_two() -> None:
    expected, read = live_read(25_000_257)
    assert read == [value for value, _ in expected]


def test_a_rendered_two_with_one_pip_found_is_not_read_as_a_one() -> None:
    # live_read's dice (value, centre); a die reported unread is read None there too
    scene = random_scene(np.random.default_rng(25_000_214))
    truth, dice = still_read(scene)
    assert [d.value for d in truth.observation.dice] == [4, 2]
    read = [[d.value for d in dice if math.dist(d.center, t.center) <= 15.0]
            for t in truth.observation.dice]
    assert read[0] == [4]
    assert read[1] in ([2], [None])
    assert len(dice) == 2


def swapped_read(seed: int, k: int) -> tuple[list[int], list[list[int | None]]]:
    """Scene ``seed`` with each die showing (v - 1 + k) mod 6 + 1 (the same placements,
    poses and lighting): the values shown, and those read within 15 pixels of each from
    a 2x still (the checker mask drawn from the truth)."""
    scene = random_scene(np.random.default_rng(seed))
    scene = replace(scene, dice=tuple(replace(d, value=(d.value - 1 + k) % 6 + 1)
                                      for d in scene.dice))
    truth, dice = still_read(scene)
    return ([d.value or 0 for d in truth.observation.dice],
            [[d.value for d in dice if math.dist(d.center, t.center) <= 15.0]
             for t in truth.observation.dice])


def test_two_adjacent_pips_of_a_four_are_not_read_as_a_two() -> None:
    # a red four on a black point: two of its pips' rings cross into the point and only
    # the stricter threshold finds them; the other two, an edge, made a tight "two"
    shown, read = swapped_read(25_000_214, 2)
    assert shown == [6, 4]
    assert read[1] == [4]


def test_a_column_of_a_cocked_six_is_not_read_as_a_three() -> None:
    shown, read = swapped_read(25_000_070, 4)
    assert shown[1] == 6
    assert read[1] == [6]


def test_a_tight_two_takes_a_bigger_face_holding_its_pips() -> None:
    from vision.dice.board import _grown, _tight

    two = layout_face([pip(64.0, 57.0, 78.0), pip(79.0, 65.0, 79.0)], "light",
                      BOARD.detect.faces)
    four = layout_face([pip(64.0, 57.0, 78.0), pip(79.0, 65.0, 79.0), pip(71.0, 81.0, 74.0),
                        pip(56.0, 72.0, 80.0)], "light", BOARD.detect.faces)
    other = layout_face([pip(20.0, 20.0, 78.0), pip(35.0, 28.0, 79.0), pip(27.0, 44.0, 74.0),
                         pip(12.0, 35.0, 80.0)], "light", BOARD.detect.faces)
    assert two is not None and four is not None and other is not None
    assert _tight(two, BOARD)
    assert not _tight(two, replace(BOARD, tight_face=None))
    assert _grown(two, [other, four]).value == 4
    assert _grown(two, [other]) is two


def test_a_two_of_unlike_pips_is_unsure() -> None:
    from vision.dice.detect import _unlike_two

    def slanted(x: float, y: float, size: float, ratio: float) -> Pip:
        return Pip(x, y, size, size, size * ratio, 0.0, 100.0, 200.0, 0.9)

    # a cocked one's big pip and a smaller, slanter pip of its side face
    unlike = layout_face([slanted(57.0, 71.0, 10.4, 0.78), slanted(81.0, 71.0, 6.9, 0.55)],
                         "light", BOARD.detect.faces)
    alike = layout_face([slanted(57.0, 71.0, 8.0, 0.93), slanted(76.0, 88.0, 7.4, 0.9)],
                        "light", BOARD.detect.faces)
    assert unlike is not None and alike is not None
    assert _unlike_two(unlike, BOARD.detect)
    assert not _unlike_two(alike, BOARD.detect)
    assert not _unlike_two(unlike, DetectConfig())  # the photo reader: never


def test_a_rendered_cocked_one_linked_with_its_side_is_not_read_as_a_two() -> None:
    shown, read = swapped_read(25_000_063, 2)
    assert shown == [5, 1]
    assert read[0] == [5]
    assert read[1] in ([1], [None])
