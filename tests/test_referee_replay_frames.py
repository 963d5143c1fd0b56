"""A dense replay file is fed frame for frame: a lone misread frame stays a lone frame.

Frame times are rounded (4 decimals in the streams), so two frames 0.1 s
apart can differ by a hair more than 0.1 in floating point.  The replay
feeder must not take that for a gap and repeat the previous frame: after a
misread frame, the repeat made two misread frames in a row, which the
stabiliser rightly takes for a change (and restarts its hold).
"""

import dataclasses
import json

import pytest

from controller.referee.events import RefereeEvent
from controller.referee.inputs import StableInput, input_to_json
from controller.referee.journal import MEMORY, Journal
from controller.referee.replay import ReplayFeeder
from controller.referee.session import Session
from controller.rules.position import Position
from tests.referee_streams import SEATINGS, observe
from vision.observation import Counts, Observation


def _misread(seen: Observation) -> Observation:
    """``seen`` with one checker of its first occupied point missed."""
    points = list(seen.points)
    index = next(i for i, c in enumerate(points) if c.light or c.dark)
    c = points[index]
    points[index] = Counts(max(c.light - 1, 0), c.dark if c.light else c.dark - 1)
    return dataclasses.replace(seen, points=tuple(points))


def _shown(times: list[float], misread: set[float]) -> list[RefereeEvent]:
    """The events of a dense file showing the set-up, misread at the times ``misread``."""
    start = observe(Position.initial(), SEATINGS[0])
    lines = []
    for t in times:
        frame = _misread(start) if t in misread else start
        lines.append(json.dumps(input_to_json(StableInput(t, dataclasses.replace(frame, t=t)))))
    shown: list[RefereeEvent] = []
    with Journal.open(MEMORY) as journal:
        session = Session(journal, emit=shown.append)
        feeder = ReplayFeeder(session, lambda number, problem: pytest.fail(problem))
        for number, line in enumerate(lines, 1):
            feeder.feed_line(number, line)
    return shown


def test_a_lone_misread_frame_of_a_dense_file_does_not_delay_the_state() -> None:
    times = [round(29.3 + 0.1 * i, 4) for i in range(10)]
    assert times[3] - times[2] > 0.1          # 29.6 - 29.5: a hair over a frame interval
    clean = _shown(times, set())
    assert [(e.event, e.t) for e in clean] == [("game_start", pytest.approx(29.6))]
    # The misread frame at 29.5 lies alone between frames of the set-up: forgiven.
    flickered = _shown(times, {29.5})
    assert [(e.event, e.t) for e in flickered] == [("game_start", pytest.approx(29.6))]


def test_two_misread_frames_in_a_row_still_restart_the_hold() -> None:
    times = [round(29.3 + 0.1 * i, 4) for i in range(12)]
    shown = _shown(times, {29.5, 29.6})
    # The set-up holds again from 29.7: announced at 30.0.
    assert [(e.event, e.t) for e in shown] == [("game_start", pytest.approx(30.0))]
