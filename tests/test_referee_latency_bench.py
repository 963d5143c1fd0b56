"""The latency benches' own helpers: the vision's habits put into truth-built frames
(``bench/referee_latency.py``) and the per-frame verdicts behind ``--causes``
(``bench/referee_stream_latency.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bench.referee_latency import _Starts, as_vision
from bench.referee_stream_latency import (
    _changed_after_right,
    _checkers_right,
    _dice_verdict,
    _pickup_unseen,
)
from controller.referee.inputs import ButtonInput, OperatorInput
from vision.observation import Die, Observation

DICE = (Die(3, (500.0, 300.0), True, False, "right"), Die(5, (600.0, 300.0), True, False,
                                                               "right"))


def _stream(starts: _Starts) -> Iterator[Observation | ButtonInput | OperatorInput]:
    """A hand (three frames), then a state with two dice for five frames."""
    t = 0.0
    for _ in range(3):
        t += 0.1
        yield Observation(board_found=True, occluded=True, t=round(t, 3))
    for number in range(5):
        t += 0.1
        frame = Observation(board_found=True, dice=DICE, t=round(t, 3))
        if number == 0:
            starts[Observation(board_found=True, dice=DICE)] = frame.t or 0.0
        yield frame


def test_as_vision_flags_the_frames_after_a_hand_and_drops_a_die_until_the_still() -> None:
    starts = _Starts()
    frames = [f for f in as_vision(_stream(starts), starts, 2, 1.0, random.Random(1))
              if isinstance(f, Observation)]
    after = frames[3:]
    assert [f.occluded for f in after] == [True, True, False, False, False]
    assert [len(f.dice) for f in after] == [1, 1, 2, 2, 2]
    # Without the habits the stream is as it was.
    starts = _Starts()
    plain = [f for f in as_vision(_stream(starts), starts, 0, 0.0, random.Random(1))
             if isinstance(f, Observation)]
    assert [f.occluded for f in plain[3:]] == [False] * 5
    assert [len(f.dice) for f in plain[3:]] == [2] * 5


def test_dice_verdicts() -> None:
    truth = [[3, True, False, "right"], [5, True, False, "right"]]
    assert _dice_verdict([(5, True, False, "right"), (3, True, False, "right")], truth) \
        == "right"
    assert _dice_verdict([(3, True, False, "right")], truth) == "missed"
    assert _dice_verdict([(3, True, False, "right"), (5, False, False, "right")], truth) \
        == "cocked"
    assert _dice_verdict([(3, True, False, "right"), (6, True, False, "right")], truth) \
        == "value"
    assert _dice_verdict([(3, True, False, "right"), (5, True, False, "left")], truth) \
        == "half"
    assert _dice_verdict([(3, True, False, "right"), (5, True, False, "right"),
                          (1, True, False, None)], truth) == "extra"


def test_checkers_right_compares_points_bar_and_tray() -> None:
    frame = {"points": [{"light": 2, "dark": 0}] + [{"light": 0, "dark": 0}] * 23,
             "bar": {"light": 0, "dark": 1}, "off": {"light": 3, "dark": 0}}
    moment = {"points": [[2, 0]] + [[0, 0]] * 23, "bar": [0, 1], "off": [3, 0]}
    assert _checkers_right(frame, moment)
    assert not _checkers_right(frame, {**moment, "off": [2, 0]})
    assert not _checkers_right(frame, {**moment, "bar": [0, 0]})
    assert not _checkers_right(frame, {**moment, "points": [[1, 0]] + [[0, 0]] * 23})
    assert _checkers_right({**frame, "off": None}, {**moment, "off": [2, 0]})


def test_a_pick_up_is_unseen_when_the_frames_before_it_already_read_the_board_after() -> None:
    moment = {"points": [[2, 0]] + [[0, 0]] * 23, "bar": [0, 0], "off": [0, 0]}
    plain = {"points": [{"light": 2, "dark": 0}] + [{"light": 0, "dark": 0}] * 23,
             "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0},
             "dice": [], "occluded": False, "board_found": True}
    with_dice = {**plain, "dice": [{"value": 3, "flat": True, "on_checker": False,
                                    "side": "right"}]}
    assert _pickup_unseen([with_dice, plain, plain, plain], [], moment)
    # The dice read in one of the three frames before: the pick-up was seen.
    assert not _pickup_unseen([plain, with_dice, plain, plain], [], moment)
    # A hand in them, or too few frames: nothing to say.
    assert not _pickup_unseen([plain, {**plain, "occluded": True}, plain], [], moment)
    assert not _pickup_unseen([plain, plain], [], moment)


def test_a_reading_changed_after_the_right_one_is_the_vision_s_when_read_wrongly() -> None:
    assert _changed_after_right(["extra", "extra", "right", "extra"]) \
        == "vision: read wrongly after the right reading (extra)"
    assert _changed_after_right(["right", "hand", "right"]) \
        == "stabiliser: the reading changed after it was right"
