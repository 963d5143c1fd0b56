"""Dice first seen in the vision's still: the quiet time the motion gate vouches for
(``Observation.settled_since``) counts in the stabiliser's hold (``still_credit``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.test_stabiliser import board, die, every, run, stable_times
from tests.test_stills import SIZE, _reader
from vision.camera.base import Still
from vision.errors import ConfigError, ObservationError
from vision.observation import Observation
from vision.stabiliser import Stabiliser, StabiliserConfig
from vision.stills import DiceStills, StillConfig
from vision.synth.generate import random_scene
from vision.synth.render import render
from vision.synth.styles import DICE_STYLES

TRANSLUCENT = next(style for style in DICE_STYLES if style.translucent)

THROW = board(0, (die(3, 500), die(5, 600)))


def _still(t: float, since: float | None, state: Observation = THROW) -> Observation:
    return replace(state, t=t, settled_since=since)


def _after(frames: list[Observation], config: StabiliserConfig | None = None) -> list[float]:
    """The times of the states reported from 0 on, board 0 without dice having been
    reported before (frames from -1.0 to -0.1)."""
    lead = every(board(0), -1.0, -0.1)
    return [t for t in stable_times(run(Stabiliser(config), [*lead, *frames])) if t >= 0]


def _thrown(since: float | None, *, quiet: list[Observation] | None = None) -> list[Observation]:
    """The dice come to rest at 0.0, the frames at 0.0 and 0.1 miss them (the board as
    before), the still at 0.2 reads them; the frames after carry its reading."""
    lead = quiet if quiet is not None else every(board(0), 0.0, 0.1)
    return [*lead, _still(0.2, since), *every(THROW, 0.3, 1.0)]


def test_dice_first_read_from_the_still_count_the_gate_s_quiet_frames() -> None:
    # 7e15fdd04acc: 156 rolls read "m m r~ r r r", decided 0.5 s after the dice came
    # to rest; with the credit 0.3 s, as dice the frames read.
    assert _after(_thrown(0.0)) == [0.3]
    assert _after(_thrown(0.0), StabiliserConfig(still_credit=0)) == [0.5]
    assert _after(_thrown(None)) == [0.5]
    # Dice the frames read from their first frame at rest: the same 0.3 s.
    assert _after(every(THROW, 0.0, 1.0)) == [0.3]


def test_the_credit_starts_no_earlier_than_the_gate_s_last_motion() -> None:
    # The gate saw a change at 0.1 (the dice's last bounce): only 0.1 counts.
    assert _after(_thrown(0.1)) == [0.4]
    assert _after(_thrown(0.2)) == [0.5]


def test_at_most_still_credit_frames_and_never_the_first_frame_alone() -> None:
    quiet = every(board(0), -0.5, 0.1)
    assert _after(_thrown(-0.5, quiet=quiet)) == [0.3]
    assert _after(_thrown(-0.5, quiet=quiet), StabiliserConfig(still_credit=1)) == [0.4]
    # However many frames are allowed, the state's own frames must still show it: the
    # first alone never completes the hold.
    assert _after(_thrown(-0.5, quiet=quiet), StabiliserConfig(still_credit=5)) == [0.3]
    assert _after(_thrown(-0.5, quiet=quiet),
                  StabiliserConfig(still_credit=5, hold=0.2)) == [0.3]


def test_no_credit_across_a_hand_or_a_gap() -> None:
    # A frame the vision flagged occluded stops the credit of the clear frames before it.
    assert _after(_thrown(0.0, quiet=[board(0, occluded=True, t=0.0), board(0, t=0.1)])) \
        == [0.4]
    # Flagged before the gate's last motion (a hand still moving at 0.1, the still's
    # own frame the first quiet one): no credit for it either.
    assert _after(_thrown(0.2, quiet=[board(0, t=0.0), board(0, occluded=True, t=0.1)])) \
        == [0.5]
    # A gap in the stream (frames dropped from 0.0 to 0.2) stops it too.
    short = StabiliserConfig(max_gap=0.15)
    assert _after([board(0, t=0.0), *_thrown(0.0, quiet=[])], short) == [0.5]
    assert _after(_thrown(0.0), short) == [0.3]


def test_no_credit_for_frames_reading_other_checkers() -> None:
    quiet = [board(3, t=0.0), board(0, t=0.1)]
    assert _after(_thrown(0.0, quiet=quiet)) == [0.4]


def test_no_credit_for_a_still_that_found_no_die() -> None:
    # A pick-up: the frames read a die, the still (the board settling) none.
    lying = board(0, (THROW.dice[0],))
    frames = [*every(lying, 0.0, 1.0), _still(1.1, 0.9, board(0)), *every(board(0), 1.2, 2.0)]
    lead = every(board(0), -1.0, -0.1)
    times = stable_times(run(Stabiliser(), [*lead, *frames]))
    assert times[-1] == pytest.approx(1.4)


def test_still_credit_is_checked() -> None:
    with pytest.raises(ConfigError, match="still_credit"):
        StabiliserConfig(still_credit=-1)


def test_settled_since_in_json() -> None:
    seen = _still(0.2, 0.05)
    data = seen.to_json()
    assert data["settled_since"] == 0.05
    assert Observation.from_json(data) == seen
    assert "settled_since" not in THROW.to_json()
    assert Observation.from_json(THROW.to_json()).settled_since is None
    with pytest.raises(ObservationError, match="settled_since"):
        Observation.from_json({**data, "settled_since": "soon"})
    with pytest.raises(ObservationError, match="settled_since"):
        _still(0.2, 0.3)


def test_the_still_says_since_when_the_scene_was_quiet() -> None:
    # Rendered frames: the board without dice, then (frame 3 on) two red translucent
    # dice at rest, which the gate sees arrive but the frame does not read; the still,
    # taken after two unchanged frames, reads them.
    scene = random_scene(np.random.default_rng(4), dice=2, cocked=False, on_checker=False,
                         hands=0, cube=False)
    scene = replace(scene, style=replace(scene.style, dice=TRANSLUCENT))
    bare = replace(scene, dice=())
    frames = [render(bare, SIZE)[0]] * 3 + [render(scene, SIZE)[0]] * 8
    size = (SIZE[0] * 2, SIZE[1] * 2)
    big = [render(bare, size)[0], render(scene, size)[0]]
    shown = [0]
    stills = DiceStills(_reader(scene),
                        lambda: Still(big[shown[0]], (0, 0, *SIZE), (2.0, 2.0), 0.0),
                        StillConfig(settle_frames=2))
    seen = []
    for i, frame in enumerate(frames):
        shown[0] = int(i >= 3)
        seen.append(stills.read(frame.copy(), t=round(i / 10, 4)))
    assert [sorted(d.value or 0 for d in o.dice) for o in seen] == \
        [[]] * 5 + [sorted(d.value for d in scene.dice)] * 6
    # The still without dice at frame 2 (the scene quiet since frame 0), the one with
    # them at frame 5 (quiet since they arrived at frame 3); the frames carried over
    # after a still say nothing.
    assert [o.settled_since for o in seen] == [None, None, 0.0, None, None,
                                               pytest.approx(0.3)] + [None] * 5
    # The stabiliser reports the throw 0.3 s after the dice came to rest (0.6), not
    # 0.5 s (0.8).
    assert [t for t in stable_times(run(Stabiliser(), seen)) if t > 0.3] == [0.6]
    plain = [replace(o, settled_since=None) for o in seen]
    assert [t for t in stable_times(run(Stabiliser(), plain)) if t > 0.3] == [0.8]


def test_the_trackers_last_hand_frames_after_the_gate_s_last_motion_count() -> None:
    # da5e5e6d489c seed 83 t=452.6: the hand left at 0.0 (the gate's last motion), the
    # tracker flagged 0.0 and 0.1 occluded (its hysteresis), reading no die, and the
    # still at 0.2 read the throw: decided at 0.3, as dice the frames read, not 0.5.
    hand = [board(0, occluded=True, t=0.0), board(0, occluded=True, t=0.1)]
    assert _after(_thrown(0.0, quiet=hand)) == [0.3]
    assert _after(_thrown(0.0, quiet=hand), StabiliserConfig(still_credit=1)) == [0.4]
    assert _after(_thrown(0.0, quiet=hand), StabiliserConfig(still_credit=0)) == [0.5]
    # Not without the gate's word, nor for frames reading other checkers.
    assert _after(_thrown(None, quiet=hand)) == [0.5]
    other = [board(3, occluded=True, t=0.0), board(3, occluded=True, t=0.1)]
    assert _after(_thrown(0.0, quiet=other)) == [0.5]
    # The first clear frame alone never completes the hold.
    assert _after(_thrown(-0.5, quiet=hand), StabiliserConfig(still_credit=5)) == [0.3]
