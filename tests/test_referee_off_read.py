"""The tray's own reading (``off_read``) as a second opinion on a miscounted stack.

The vision holds the tray's count to what the board leaves off (fifteen a side,
``vision.checkers.totals.consistent_off``), so a stack of five read as six
shows a checker missing from the tray too: exactly the board of a die left
unplayed (a checker moved onto the stack instead of borne off, the planted
``one_die`` mistakes).  The observation now also carries the tray's reading
before it was made to agree (``"off_read"``, written only when a tray is in
view).  When the board is a legal play but for one checker more on a stack
and one fewer borne off, and the tray's own reading is the legal play's
borne-off count, the camera disagrees with itself: a look, never a call.
The tray's own reading one short too (what a real mistake shows) is still
called, and an observation without ``off_read`` (old streams) is judged as
before.
"""

import dataclasses
import json

import numpy as np
import pytest

from vision.calibration import Calibration
from vision.checkers.totals import consistent_off, tray_colours
from vision.config import VisionConfig
from vision.observation import Counts, Observation, ObservationError
from vision.pipeline import BoardReader
from vision.synth.generate import random_scene
from vision.synth.render import render

SIZE = (1280, 720)


def _board() -> Observation:
    points = tuple(Counts(2, 0) if i == 0 else Counts() for i in range(24))
    return Observation(board_found=True, points=points, off=Counts(13, 15))


# -- the observation's JSON ----------------------------------------------------------


def test_off_read_is_written_only_when_known_and_reads_back() -> None:
    plain = _board()
    assert "off_read" not in plain.to_json()
    assert Observation.from_json(plain.to_json()) == plain
    read = dataclasses.replace(plain, off_read=Counts(12, 15))
    data = json.loads(json.dumps(read.to_json()))
    assert data["off_read"] == {"light": 12, "dark": 15}
    assert data["off"] == {"light": 13, "dark": 15}
    assert Observation.from_json(data) == read


def test_json_without_off_read_loads_as_not_read() -> None:
    data = _board().to_json()
    assert Observation.from_json(data).off_read is None
    data["off_read"] = None
    assert Observation.from_json(data).off_read is None


def test_off_read_without_a_tray_in_view_is_refused() -> None:
    with pytest.raises(ObservationError, match="off_read"):
        dataclasses.replace(_board(), off=None, off_read=Counts(1, 0))
    data = _board().to_json()
    data["off_read"] = {"light": 16, "dark": 0}
    with pytest.raises(ObservationError, match=r"off_read\.light"):
        Observation.from_json(data)


def test_tray_colours_keeps_the_trays_counts_and_only_chooses_the_colours() -> None:
    # Board: 14 light and 15 dark on it.  The tray read 0 light, 2 dark (a lone block's
    # colour guessed wrong, and one too many): the colours are turned, the count kept,
    # while the consistent count follows the board.
    on_board = Counts(14, 15)
    assert tray_colours(on_board, Counts(0, 2)) == Counts(2, 0)
    assert consistent_off(on_board, Counts(0, 2)) == Counts(1, 0)
    # A stack read one too many (13 on the board, two borne off): the tray's own two
    # stay two, the consistent count drops to one.
    assert tray_colours(Counts(14, 15), Counts(2, 0)) == Counts(2, 0)
    assert consistent_off(Counts(14, 15), Counts(2, 0)) == Counts(1, 0)


@pytest.mark.parametrize("tray", ["right", "none"])
def test_the_pipeline_writes_the_trays_own_reading_when_a_tray_is_in_view(tray: str) -> None:
    # Seed 0 with the tray on the right: 15 light and 11 dark borne off, read right.
    scene = random_scene(np.random.default_rng(0), dice=0, cocked=False, on_checker=False,
                         hands=0, cube=False, tray=tray)  # type: ignore[arg-type]
    frame, truth = render(scene, SIZE)
    assert truth.observation.corners is not None
    calibration = Calibration(truth.observation.corners, "manual", SIZE, profile=scene.profile)
    seen = BoardReader(VisionConfig(), calibration).read(frame)
    if tray == "none":
        assert seen.off is None and seen.off_read is None
    else:
        assert seen.off == Counts(15, 11)
        assert seen.off_read == Counts(15, 11)
