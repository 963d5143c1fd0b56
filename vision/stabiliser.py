"""From a stream of per-frame observations to board states worth judging.

A single frame is not to be trusted: a hand may be halfway over the board,
a checker may be sliding, the dice may still be tumbling.  The referee should
only ever judge a state that has *held*: the same checkers on every point,
bar and tray, the same dice (values, flat or cocked, on a checker or not,
which half) in the same places, the same cube, unoccluded, for ``hold``
seconds.  :class:`Stabiliser` watches the stream and emits:

* :class:`StableState` once for each distinct stable state (not every frame,
  and not again when the same state settles again after a hand passed over);
* :class:`StatusChange` whenever the stream's condition changes between
  ``stable``, ``settling`` (something changed, or the dice are still moving),
  ``occluded`` (a hand over the board) and ``no_board``, with the time it
  started, so the referee can ask the players to wait and for how long.

Dice need no special case: a rolling die changes value or position from frame
to frame, so a state with dice can only hold once they have come to rest
(optionally for longer, ``dice_hold``).  Pixel positions (dice, cube) are
compared with a tolerance, because detections jitter by a pixel or two; the
counts are compared exactly.

The stabiliser is pure: observations in (each with its time ``t``), events
out, no clock, no threads.  It never emits an occluded frame, a frame without
a board, or a state it has not watched continuously: a gap longer than
``max_gap`` between frames (a dropped camera) starts the hold again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from vision.errors import ConfigError, ObservationError
from vision.observation import Cube, Die, Observation, Pixel

Condition = Literal["stable", "settling", "occluded", "no_board"]
TIME_EPSILON = 1e-9
"""Slack on the hold comparison, so 0.1 s frames make 0.3 s despite rounding."""


@dataclass(frozen=True, slots=True)
class StabiliserConfig:
    """Thresholds of the stabiliser."""

    hold: float = 0.3
    """Seconds a state must stay the same, unoccluded, to count as stable.
    Long enough to skip the frames of a checker being put down, short enough
    that players do not notice the wait."""
    dice_hold: float | None = None
    """Seconds a state *with dice* must hold; None means ``hold``.  Raise it if
    dice that rock after landing are reported too early."""
    position_tolerance: float = 6.0
    """Pixels a die or the cube may move between frames and still count as the
    same die in the same place (detection jitter is 1-2 px at 720p, a die is
    about 25 px wide)."""
    max_gap: float = 1.0
    """Longest gap between two frames over which a state still counts as
    watched; after a longer gap (frames dropped, camera reconnected) the hold
    starts again."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.hold) and self.hold >= 0):
            raise ConfigError("stabiliser hold must be 0 or more seconds")
        if self.dice_hold is not None and not (math.isfinite(self.dice_hold)
                                               and self.dice_hold >= 0):
            raise ConfigError("stabiliser dice_hold must be 0 or more seconds")
        if not (math.isfinite(self.position_tolerance) and self.position_tolerance >= 0):
            raise ConfigError("stabiliser position_tolerance must be 0 or more pixels")
        if not self.max_gap > 0:
            raise ConfigError("stabiliser max_gap must be positive seconds")

    def hold_for(self, observation: Observation) -> float:
        """The hold time that applies to a state."""
        if observation.dice and self.dice_hold is not None:
            return self.dice_hold
        return self.hold


@dataclass(frozen=True, slots=True)
class StableState:
    """A board state that has held; emitted once per distinct state."""

    observation: Observation
    """The frame that completed the hold (its ``t`` is when the state was confirmed)."""
    since: float
    """Time of the first frame showing this state."""


@dataclass(frozen=True, slots=True)
class StatusChange:
    """The stream's condition changed."""

    condition: Condition
    since: float
    """Time of the first frame in this condition."""


Event = StableState | StatusChange


class Stabiliser:
    """Feed it observations in time order with :meth:`push`; act on the events it returns."""

    def __init__(self, config: StabiliserConfig | None = None) -> None:
        self._config = config or StabiliserConfig()
        self._anchor: Observation | None = None
        self._last_t: float | None = None
        self._emitted: Observation | None = None
        self._condition: Condition | None = None
        self._since: float | None = None

    @property
    def config(self) -> StabiliserConfig:
        return self._config

    @property
    def condition(self) -> Condition | None:
        """The stream's condition after the latest frame (None before any)."""
        return self._condition

    @property
    def since(self) -> float | None:
        """When the current condition began."""
        return self._since

    @property
    def last_stable(self) -> Observation | None:
        """The latest state emitted."""
        return self._emitted

    def reset(self) -> None:
        """Forget everything, including the last state emitted (a new game, a new board)."""
        self._anchor = self._last_t = self._emitted = None
        self._condition = self._since = None

    def push(self, observation: Observation) -> list[Event]:
        """Take the next frame's observation; returns the events it causes, in order."""
        t = observation.t
        if t is None or not math.isfinite(t):
            raise ObservationError("the stabiliser needs observations with a time t")
        last_t, self._last_t = self._last_t, t
        if last_t is not None and not 0 <= t - last_t <= self._config.max_gap:
            # A gap (or time going backwards): nothing is known about the meantime.
            self._anchor = None
        if observation.occluded:
            self._anchor = None
            return self._enter("occluded", t)
        if not observation.board_found:
            self._anchor = None
            return self._enter("no_board", t)
        anchor = self._anchor
        if anchor is None or not same_state(anchor, observation,
                                            self._config.position_tolerance):
            self._anchor = anchor = observation
        assert anchor.t is not None
        if t - anchor.t < self._config.hold_for(observation) - TIME_EPSILON:
            return self._enter("settling", anchor.t)
        events: list[Event] = []
        if self._emitted is None or not same_state(self._emitted, observation,
                                                   self._config.position_tolerance):
            self._emitted = observation
            events.append(StableState(observation, anchor.t))
        events.extend(self._enter("stable", anchor.t))
        return events

    def _enter(self, condition: Condition, since: float) -> list[Event]:
        if condition == self._condition:
            return []
        self._condition, self._since = condition, since
        return [StatusChange(condition, since)]


def same_state(a: Observation, b: Observation, tolerance: float) -> bool:
    """True when two observations show the same board state.

    Counts must be equal; dice are matched as a set (detectors list them in
    any order) with equal readings and centres within ``tolerance`` pixels;
    the cube likewise.  Corners and occlusion are not part of the state.
    """
    if a.points != b.points or a.bar != b.bar or a.off != b.off:
        return False
    if not _same_cube(a.cube, b.cube, tolerance):
        return False
    return _same_dice(a.dice, b.dice, tolerance)


def _same_cube(a: Cube | None, b: Cube | None, tolerance: float) -> bool:
    if a is None or b is None:
        return a is b
    return (a.value == b.value and a.position == b.position
            and _distance(a.center, b.center) <= tolerance)


def _same_dice(a: tuple[Die, ...], b: tuple[Die, ...], tolerance: float) -> bool:
    """A one-to-one matching of equal readings within ``tolerance``, closest pairs first.

    Greedy is enough: two dice cannot lie within a few pixels of each other.
    """
    if len(a) != len(b):
        return False
    pairs = sorted(
        (_distance(x.center, y.center), i, j)
        for i, x in enumerate(a) for j, y in enumerate(b)
        if (x.value, x.flat, x.on_checker, x.side) == (y.value, y.flat, y.on_checker, y.side)
        and _distance(x.center, y.center) <= tolerance
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    for _, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
    return len(used_a) == len(a)


def _distance(p: Pixel, q: Pixel) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])
