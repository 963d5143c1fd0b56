"""A window's retry skipped when it could find nothing new (issue 4, speed): the board's
read of a window with no face found reads it again with bigger pips and the split
offset (``BoardDiceConfig.retry_max_pip``); where that search finds the same pip
candidates as the first, the faces are not sought again (``detect.same_candidates``).
The reading must be what the full retry gives, on seeded windows with and without dice."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.dice.detect as detect_module
from vision.dice.board import BoardDiceConfig, _window_detects, read_window
from vision.dice.detect import find_dice, same_candidates
from vision.dice.pips import PipSearch
from vision.dice.propose import Window
from vision.observation import Corners
from vision.rectify import FieldMap

BOARD = BoardDiceConfig()


def _window(seed: int, die: bool, big_pip: bool) -> np.ndarray:
    """A grey board window (seeded noise, grain lines, dark dots on short lines: pip
    candidates on no clean face), with a light die showing a four when ``die``, and a
    lone dark blob only the retry's bigger pips take when ``big_pip``."""
    rng = np.random.default_rng(seed)
    image = rng.normal(100.0, 10.0, (120, 150)).clip(0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(6, 12))):
        y = int(rng.integers(5, 115))
        cv2.line(image, (0, y), (149, y + int(rng.integers(-15, 16))),
                 int(rng.integers(30, 70)), 1)
    for _ in range(int(rng.integers(4, 10))):
        x, y = (int(v) for v in rng.integers(8, 112, 2))
        cv2.line(image, (x - 12, y + int(rng.integers(-6, 7))), (x + 12, y), 40, 1)
        cv2.circle(image, (x, y), int(rng.integers(2, 6)), int(rng.integers(0, 50)), -1)
    if die:
        cv2.rectangle(image, (20, 30), (59, 69), 210, -1)
        for dx in (-9, 9):
            for dy in (-9, 9):
                cv2.circle(image, (40 + dx, 50 + dy), 4, 40, -1)
    if big_pip:
        cv2.rectangle(image, (85, 35), (134, 84), 215, -1)
        cv2.circle(image, (110, 60), 7, 25, -1)  # 15 wide: past the first search's 13.5
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8)


def _read(gray: np.ndarray) -> tuple[list[object], list[object]]:
    """The window read by read_window, and by the full reading (the retry always run)."""
    image = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    height, width = gray.shape
    field = FieldMap.from_corners(Corners((0.0, 0.0), (width - 1.0, 0.0),
                                          (width - 1.0, height - 1.0), (0.0, height - 1.0)))
    window = Window((0.0, 0.0), (1.0, 1.0), (0.0, 0.0), (1.0, 1.0), ("dark", "light"))
    nadir = (width / 2.0, -400.0)
    read = read_window(image, field, window, (width, height), nadir, BOARD)
    detect, _, retry = _window_detects(BOARD, window.polarities)
    assert retry is not None
    full = find_dice(read.gray, detect, read.nadir, BOARD.die_pixels)
    if not full:
        full = find_dice(read.gray, retry, read.nadir, BOARD.die_pixels)
        assert read.detect == retry
    return list(read.faces), list(full)


def test_the_retry_differs_from_the_first_reading_in_its_pips_alone() -> None:
    # what same_candidates's caller vouches for
    for polarities in (("dark",), ("light",), ("dark", "light")):
        detect, _, retry = _window_detects(BOARD, polarities)
        assert retry is not None and retry.pips != detect.pips
        assert replace(detect, pips=retry.pips) == retry


@pytest.mark.parametrize("die,big_pip", [(False, False), (True, False), (False, True)])
def test_a_window_reads_as_with_the_full_retry(die: bool, big_pip: bool) -> None:
    for seed in range(12):
        faces, full = _read(_window(seed, die, big_pip))
        assert faces == full
        if die:
            assert 4 in [f.value for f in faces]  # type: ignore[attr-defined]


def test_bigger_pips_are_new_candidates() -> None:
    gray = _window(4, False, True)
    detect, _, retry = _window_detects(BOARD, ("dark", "light"))
    assert retry is not None
    assert not same_candidates(PipSearch(gray), detect, retry)
    assert not same_candidates(PipSearch(gray), retry, detect)
    # the first reading finds no face and the retry's bigger pips a one: kept
    assert find_dice(gray, detect, None, BOARD.die_pixels) == []
    faces, full = _read(gray)
    assert faces == full and [f.value for f in faces] == [1]  # type: ignore[attr-defined]
    # a window whose retry finds the first reading's candidates (and no face)
    quiet = _window(6, False, False)
    assert PipSearch(quiet).find("dark", detect.pips)
    assert same_candidates(PipSearch(quiet), detect, retry)


def test_a_window_with_nothing_new_seeks_no_faces_again(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    calls: list[str] = []
    original = detect_module.find_faces

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(str(args[1]))
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detect_module, "find_faces", counted)
    gray = _window(6, False, False)
    faces, _ = _read(gray)
    assert faces == []
    calls.clear()
    image = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
    height, width = gray.shape
    field = FieldMap.from_corners(Corners((0.0, 0.0), (width - 1.0, 0.0),
                                          (width - 1.0, height - 1.0), (0.0, height - 1.0)))
    window = Window((0.0, 0.0), (1.0, 1.0), (0.0, 0.0), (1.0, 1.0), ("dark", "light"))
    read_window(image, field, window, (width, height), (width / 2.0, -400.0), BOARD)
    assert calls == ["dark", "light"]  # the first reading's search alone, not the retry's
