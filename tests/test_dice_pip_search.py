"""The pip search of one window remembered (vision.dice.pips.PipSearch): a window is
searched several times (the first offset, the split offset with bigger pips, the whole
layout off the field), and each later search must give exactly what a search of its own
gives, while running only the threshold passes no earlier search ran."""

from dataclasses import replace

import cv2
import numpy as np

from vision.dice.board import BoardDiceConfig, read_window
from vision.dice.detect import find_dice
from vision.dice.pips import PipConfig, PipSearch, find_pips
from vision.dice.propose import Window
from vision.dice.sides import SideConfig
from vision.observation import Corners
from vision.rectify import FieldMap

BOARD = BoardDiceConfig()
PIPS = BOARD.detect.pips
SPLIT = replace(PIPS, split_offset=22.0)
RETRY = replace(SPLIT, max_diameter=16.0, octaves_to=PIPS.max_diameter)


def dice_window(seed: int) -> np.ndarray:
    """A grey window of a board: two light 40-pixel dice (a five, and a six of pips
    blurred nearly together), a big dark blob, dark marks and noise (seeded)."""
    rng = np.random.default_rng(seed)
    image = rng.normal(90.0, 12.0, (140, 160)).clip(0, 255).astype(np.uint8)
    cv2.rectangle(image, (15, 20), (54, 59), 215, -1)
    for dx, dy in ((-10, -10), (10, -10), (0, 0), (-10, 10), (10, 10)):
        cv2.circle(image, (35 + dx, 40 + dy), 4, 35, -1)
    cv2.rectangle(image, (90, 70), (129, 109), 205, -1)
    for dx in (-9, 9):
        for dy in (-8, 0, 8):
            cv2.circle(image, (110 + dx, 90 + dy), 4, 40, -1)
    cv2.circle(image, (60, 110), 7, 20, -1)  # a pip too big for the first search
    for _ in range(12):
        x, y = (int(v) for v in rng.integers(5, 135, 2))
        cv2.circle(image, (x, y), int(rng.integers(1, 4)), int(rng.integers(0, 60)), -1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8)


def test_each_search_gives_what_a_search_of_its_own_gives() -> None:
    for seed in range(6):
        image = dice_window(seed)
        search = PipSearch(image)
        for polarity in ("dark", "light"):
            # the side faces' search tests outlines otherwise (contrast, ring, slant):
            # an outline tested under one setting is tested again under another
            for config in (PIPS, SPLIT, RETRY, SideConfig().pips, PipConfig(), PIPS):
                assert search.find(polarity, config) == find_pips(image, polarity, config)


def test_later_searches_run_only_the_passes_not_yet_run() -> None:
    image = dice_window(0)
    search = PipSearch(image)
    search.find("dark", PIPS)
    first = dict(search._passes)
    assert len(first) == 2  # two octaves at the first offset
    search.find("dark", RETRY)
    assert len(search._passes) == 4  # the split offset's two passes added
    assert all(search._passes[key] is done for key, done in first.items())
    outlines = search._passes[next(iter(first))]
    tested = dict(outlines.shapes)
    search.find("dark", RETRY)  # the same search again tests nothing again
    assert outlines.shapes == tested


def test_a_search_of_another_image_is_refused() -> None:
    image = dice_window(1)
    try:
        find_dice(image, BOARD.detect, search=PipSearch(image.copy()))
    except ValueError:
        return
    raise AssertionError("find_dice took the pip search of another image")


def test_a_window_read_with_one_search_finds_the_same_dice() -> None:
    image = cv2.cvtColor(dice_window(2), cv2.COLOR_GRAY2BGR)
    height, width = image.shape[:2]
    field = FieldMap.from_corners(Corners((0.0, 0.0), (width - 1.0, 0.0),
                                          (width - 1.0, height - 1.0), (0.0, height - 1.0)))
    window = Window((0.0, 0.0), (1.0, 1.0), (0.0, 0.0), (1.0, 1.0), ("dark", "light"))
    read = read_window(image, field, window, (width, height), (width / 2.0, height / 2.0),
                       BOARD)
    assert read.search is not None and read.search.gray is read.gray
    alone = find_dice(read.gray, read.detect, read.nadir, BOARD.die_pixels)
    assert read.faces == alone
    assert 5 in [f.value for f in read.faces]
