"""Replay files: JSON lines of observations, button presses and corrections, into a session.

A line is one of

* an observation: the ``bgref read-image`` object plus ``"t"``, recognised by
  its ``schema`` key; it goes through the session's stabiliser, as a camera
  frame would;
* a button press ``{"t", "button", "player"}`` (``"level"`` for a resignation);
* an operator correction ``{"t", "operator": "undo"|"set_position"|"adjust_score",
  "args": {...}}``;
* a stabiliser status ``{"t", "status"}``, handed to the referee as it is.

Button presses, corrections and statuses go to the referee directly.  Times
must not decrease; a line that does not parse, or goes back in time, is
reported with its line number and skipped, and the replay goes on.

Files may be *dense* (every camera frame, 10-30 a second) or *sparse* (one
line per change, each state holding until the next line's ``t``).  Both are
read the same way: before a line that comes more than :data:`FRAME_INTERVAL`
after the previous frame, the previous observation is given to the stabiliser
again, as the frames a camera would have taken meanwhile: once when it has
held for the stabiliser's hold time, every half ``max_gap`` (so
the stabiliser sees no gap in the watching), and :data:`JUST_BEFORE` before
the new line.  At the end of the input the last observation is taken to hold
for its hold time (:meth:`ReplayFeeder.finish`), so a sparse file's last state
is judged too.  A dense file's frames are never more than a frame interval
apart, so it is fed exactly as the camera would feed it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from typing import Final

from controller.referee.events import RefereeEvent
from controller.referee.inputs import RefereeInput, RefereeInputError, input_from_json
from controller.referee.session import Session
from vision.errors import ObservationError
from vision.observation import Observation

FRAME_INTERVAL: Final = 0.1
"""Longest gap between two lines of a dense file (10 frames a second, the
slowest camera setting): a longer gap means the previous state held."""
FRAME_SLACK: Final = 0.0005
"""How much more than :data:`FRAME_INTERVAL` two lines may lie apart and still be
consecutive frames: times are rounded (to 0.1 ms in the journal, to 4 decimals
in streams), so 29.6 - 29.5 is 0.10000000000000142 in floating point.  Taken
for a gap, it had the previous frame repeated just before the next line, which
turned a single misread frame into two in a row (a change, for the
stabiliser)."""
JUST_BEFORE: Final = 0.001
"""How long before a new line the held state is last repeated (a millisecond:
well above the 0.1 ms the journal keeps of a time)."""

Reporter = Callable[[int, str], None]
"""Told the line number and what is wrong with a line that is skipped."""


def parse_line(text: str) -> Observation | RefereeInput:
    """One replay line; raises ``ValueError`` (with a readable message) for a bad one."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise ValueError(f"a JSON object expected, not {type(obj).__name__}")
    if "schema" in obj:
        if "t" not in obj:
            raise ValueError("an observation line needs its time t")
        try:
            observation = Observation.from_json(obj)
        except ObservationError as exc:
            raise ValueError(f"observation: {exc}") from None
        return observation
    try:
        return input_from_json(obj)
    except RefereeInputError as exc:
        raise ValueError(str(exc)) from None


class ReplayFeeder:
    """Feeds replay lines to a session, filling the gaps of sparse files."""

    def __init__(self, session: Session, report: Reporter) -> None:
        self._session = session
        self._report = report
        self._held: Observation | None = None
        """The latest observation line: the state the board is in."""
        self._held_since = 0.0
        self._pushed: float | None = None
        """Time of the latest frame given to the stabiliser."""
        self._latest: float | None = None
        """Time of the latest line taken."""

    def feed_lines(self, lines: Iterable[str], first: int = 1) -> None:
        """Every line, numbered from ``first``; then :meth:`finish`."""
        for number, line in enumerate(lines, first):
            self.feed_line(number, line)
        self.finish()

    def feed_line(self, number: int, text: str) -> tuple[RefereeEvent, ...]:
        """One line; a bad one is reported and skipped."""
        if not text.strip():
            return ()
        try:
            item = parse_line(text)
        except ValueError as exc:
            self._report(number, str(exc))
            return ()
        t = item.t
        assert t is not None  # parse_line checked it
        if self._latest is not None and t < self._latest:
            self._report(number, f"t={t} goes back in time (the line before was at "
                                 f"t={self._latest}); skipped")
            return ()
        self._latest = t
        events = self._advance(t)
        if isinstance(item, Observation):
            self._held, self._held_since = item, t
            self._pushed = t
            return events + self._session.observe(item)
        return events + self._session.step(item)

    def finish(self) -> tuple[RefereeEvent, ...]:
        """The end of the input: the last observation holds for its hold time."""
        if self._held is None or self._pushed is None:
            return ()
        hold = self._session.stabiliser.config.hold_for(self._held)
        end = self._held_since + hold + JUST_BEFORE
        if end <= self._pushed:
            return ()
        return self._advance(end)

    def _advance(self, t: float) -> tuple[RefereeEvent, ...]:
        """Repeat the held observation up to just before ``t`` when the gap is long."""
        held, pushed = self._held, self._pushed
        if held is None or pushed is None or t - pushed <= FRAME_INTERVAL + FRAME_SLACK:
            return ()
        config = self._session.stabiliser.config
        step = config.max_gap / 2
        times = {self._held_since + config.hold_for(held), t - JUST_BEFORE}
        mark = pushed + step
        while mark < t - JUST_BEFORE:
            times.add(mark)
            mark += step
        events: tuple[RefereeEvent, ...] = ()
        for when in sorted(x for x in times if pushed < x < t):
            self._pushed = when
            events += self._session.observe(dataclasses.replace(held, t=when))
        return events
