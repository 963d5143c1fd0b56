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

A single frame that differs from the state around it (a checker read on the
wrong point, a die missed for one frame: the reader's flicker) does not
restart the hold: the state holds when it was seen at the start and at the
end of ``hold`` seconds and every frame in between that differs from it is a
lone frame, between two frames showing the state, and at most
``outlier_share`` of the frames (see :class:`StabiliserConfig`).  Two
differing frames in a row are a change, and the new state's hold starts at
the first of them, so a real change costs no extra time; a reading that
alternates (a die read 3, 5, 3, 5, ...) never holds.  Occluded frames and
frames without a board are never forgiven: each restarts the hold.

Credits shorten the wait where the scene has not moved but the
vision's reading of it has just changed (``StabiliserConfig``): the frames
the vision still flags as occluded after a hand has gone (its hysteresis),
when they read the state that follows (``occluded_credit``;
``vanished_credit`` for a pick-up, ``changed_credit`` when the checkers
differ from those reported before the hand), and a re-read of dice lying
still (the vision's still, two frames after they settled:
``reread_within``, ``reread_frames``).  A third is the vision's own word
that nothing moved: dice first read from its still, which the frames
before it missed, count the clear frames since the motion gate last saw a
change (``still_credit``, ``Observation.settled_since``).  All count in the
hold; none ever lets a state's first clear frame alone complete it.

Dice need no special case (on the field or off it): a rolling die changes
value or position from frame to frame, so a state with dice can only hold
once they have come to rest (optionally for longer, ``dice_hold``).  Pixel
positions (dice, cube) are compared with a tolerance, because detections
jitter by a pixel or two; the counts are compared exactly.

The stabiliser is pure: observations in (each with its time ``t``), events
out, no clock, no threads.  It never emits an occluded frame, a frame without
a board, or a state it has not watched continuously: a gap longer than
``max_gap`` between frames (a dropped camera) starts the hold again.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from vision.errors import ConfigError, ObservationError
from vision.observation import Cube, Die, Observation, Pixel

Condition = Literal["stable", "settling", "occluded", "no_board"]
TIME_EPSILON = 1e-9
"""Slack on the hold comparison, so 0.1 s frames make 0.3 s despite rounding."""
SHARE_EPSILON = 1e-9
"""Slack on the outlier share, so one frame in four is a quarter despite rounding."""


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
    outlier_share: float = 0.25
    """Largest share of the frames over a hold that may differ from the state
    and still let it hold, each such frame alone between two frames showing
    the state.  A reader flickers on single frames (a checker missed in a
    stack, a die lost for a frame, 1-5 % of frames): restarting the hold on
    each made decisions late (1.3 s instead of 0.3 s at 5 % flicker).  A
    quarter forgives one lone frame in the four frames of a 0.3 s hold at
    10 frames/s, but not a reading that alternates every other frame (a die
    read 3, 5, 3, 5: not settled) nor any two differing frames in a row (a
    change).  0 restarts the hold on any differing frame."""

    occluded_credit: int = 2
    """Occluded frames just before a state's first clear frame that read exactly that
    state, counted in its hold (the latest ones, at most this many; never so many
    that the first clear frame alone completes the hold).  The vision's occlusion
    tracker reports a hand for ``release_frames`` (2) clear frames after it has gone
    (``vision/occlusion/tracker.py``: hysteresis, so that the frame the fingers leave
    in is never read), with the board read in full; the hold on top of that made
    every decision after a hand wait two frames more (0.5 s instead of 0.3 s: 632 of
    6002 rolls and plays on 68 rendered sessions of 28de820384cd).  A frame under a
    hand that reads the board other than the clear frames after it gets no credit,
    so a checker or a die the hand hid or still held is never part of the hold; one
    that reads the dice otherwise where they lie is a re-read (``reread_within``: the
    still is taken only once the hand is reported gone, so its reading comes on the
    first clear frame).  The full credit is for a state whose checkers and cube are
    those of the latest state reported before the hand (dice thrown or picked up
    under it); a board read otherwise between two hands may be the hands' own
    misreading (28de820384cd seed 16: nine checkers read borne off in two clear
    frames between two hands, a planted illegal play then left uncalled), and gets
    ``changed_credit`` only.  Nothing reported before the hand: no credit.  0 counts
    no occluded frame."""
    vanished_credit: int = 1
    """At most this many of ``occluded_credit``'s frames for a state with fewer dice
    than the latest state reported before the hand (dice picked up under it).  The
    frame's reading may miss every die after a hand until the vision's still, taken
    once the scene has settled with no die read (``StillConfig.without_dice``), finds
    them on the third clear frame: with two frames of credit that was too late, and a
    throw made as the mover's dice still lay, read without any die for two frames, was
    taken for the pick-up (28de820384cd seed 17 t=116.6: an early throw not voided).
    One frame still decides a pick-up within 0.4 s."""
    changed_credit: int = 1
    """At most this many of ``occluded_credit``'s frames for a state whose checkers or
    cube differ from the latest state reported before the hand (a play made and the
    dice picked up under one hand: the usual way a turn ends).  Such a state got no
    credit at all, so the play waited out the tracker's two frames of hysteresis and
    then the whole hold: 0.5 s from the hand leaving (rendered 7e15fdd04acc, seeds
    0-29: 45 plays and 8 rolls of 279 decisions of 0.5 s or more).  A board read
    otherwise after a hand may be the hand's own misreading (28de820384cd seed 16:
    nine checkers read borne off in two clear frames between two hands), so it gets
    less than a throw or a pick-up does: with one frame the hold still needs three
    clear frames in a row reading it (two did in seed 16, not three), and the play is
    decided 0.4 s after the hand left.  0: no credit for such a state."""
    checkers_per_side: int = 15
    """Checkers each side has.  A state whose checkers differ from those before the hand
    gets ``changed_credit`` only when it accounts for every checker: on the points, the
    bar and the tray, this many of each colour (with no tray read, at most this many on
    the points and the bar), and only for hand frames that read it exactly (no dice
    re-read among them).  A hand over the tray that the tracker has stopped flagging
    leaves clear frames reading the tray short or long while the points are unchanged
    (rendered 7e15fdd04acc seed 72 t=187.7: light's eleven borne off read as none for
    three clear frames, reported with the credit and an illegal play then missed; 28de
    seed 16: nine read borne off); a board read mid-play that adds up (seed 83 t=181.9:
    three dark checkers in the tray, the hand still bearing off) had a die missed in the
    hand frame before it, the re-read that gave it the credit."""
    unread_cube_credit: bool = True
    """Whether a frame under the hand still counts in ``occluded_credit`` when it and the
    clear frames differ only in a cube one of them did not read: not found, or found
    where it lies without a value (the cube then taken as the clear frames read it).
    The hand's last frames, flagged occluded by the tracker's hysteresis, often miss
    the cube's value (a shadow, the fingers' last frame), or the clear frames miss a
    cube the hand frame read; the credit then stopped at that frame, and most of the
    plays still decided only 0.5 s after the hand left had it (rendered 7e15fdd04acc,
    seeds 0-29: 26 of 53; seeds 3, 19, 29: the cube read 64 in the clear frames, no
    value in the last hand frame; seeds 15, 27: the cube in the hand frame only).  A
    frame that reads the cube elsewhere or with another value still stops the credit:
    that is the cube handled, not unread."""
    reread_within: float | None = None
    """A *re-read*: a change in which only the dice's readings differ (a die's value,
    flat or cocked, on a checker, or a die found; never a die lost) while every die
    read before lies where it lay, the checkers and the cube the same, and coming
    within this many seconds of the first frame of the state it replaces (None:
    ``hold``), gets that state's start for its hold.  Once dice have settled the
    vision reads them again from a high-resolution still two frames later
    (``vision/stills.py``, ``settle_frames``) and its reading stands from then on;
    when it differs from the frame's (a die the frame missed, a 3 read as a 5) the
    hold started again on it, so the roll waited 0.5 s instead of 0.3 s (329 of 2937
    rolls on the rendered streams of 28de820384cd).  The scene did not move: only the
    reading changed.  Only the first re-read of a state gets the credit (a reading
    that keeps changing holds on its own), and only after ``reread_frames`` frames
    of the state before, so a tumbling die that comes to rest where it last bounced
    does not take the bounce's start."""
    reread_frames: int = 2
    """Frames in a row, from its start, that must have read the state before alike for
    a re-read of its dice to take its start (``reread_within``).  A tumbling die changes
    face or place from one frame to the next, so two frames alike are dice at rest:
    the vision asks for its still after as many unchanged frames (``settle_frames``)."""
    still_credit: int = 2
    """At most this many clear frames just before a state's first frame count in its
    hold when that frame carries dice read from the vision's still and the time since
    which the motion gate saw nothing change (``Observation.settled_since``), the frames
    at or after that time that read the state's checkers and cube (their dice may be
    read otherwise or not at all), and never so many that the first frame alone
    completes the hold.  Dice the video frame misses altogether (small or translucent
    dice) were first seen at the still, taken after ``StillConfig.settle_frames`` (2)
    unchanged frames, and the hold started again there: the roll waited 0.5 s from the
    dice coming to rest instead of 0.3 s (rendered 7e15fdd04acc: 156 rolls, the
    largest group of slow decisions left).  The gate compares every frame with the
    latest one in which it saw a change, so those frames showed the very picture the
    still was taken of: the dice lay there, at rest, as for dice the frames read, whose
    hold starts on their first frame at rest.  Two frames: what ``settle_frames`` leaves
    between the dice coming to rest and the still, so such a throw is decided 0.3 s
    after, as one the frames read.  Not across a hand, a frame without a board or a
    gap (only the current run of clear frames counts), not for a still that found no
    die (a pick-up's board settling), and not for frames reading other checkers or
    cube.  0: no credit.

    The frames the occlusion tracker still flags after the hand has gone (its
    hysteresis, ``occluded_credit``) count too when the still's state follows them at
    once and they lie at or after that time: the gate vouches they are the picture of
    the clear frames, hand gone, and the still is only taken once the hand is reported
    gone, so the throw's dice came two frames late and the roll 0.5 s after they came
    to rest (rendered da5e5e6d489c, 28 strict sessions: 12 of the 51 decisions of 0.5 s
    or more, read "O O r r r r").  A frame flagged before the gate's last motion (a
    hand still moving) never counts."""

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
        if not (math.isfinite(self.outlier_share) and 0 <= self.outlier_share < 0.5):
            raise ConfigError("stabiliser outlier_share must be from 0 up to (not including) 0.5")
        if self.reread_frames < 1:
            raise ConfigError("stabiliser reread_frames must be 1 or more")
        if self.checkers_per_side < 1:
            raise ConfigError("stabiliser checkers_per_side must be 1 or more")
        if (self.occluded_credit < 0 or self.vanished_credit < 0 or self.changed_credit < 0
                or self.still_credit < 0):
            raise ConfigError("stabiliser occluded_credit, vanished_credit, "
                              "changed_credit and still_credit must be 0 or more frames")
        if self.reread_within is not None and not (math.isfinite(self.reread_within)
                                                   and self.reread_within >= 0):
            raise ConfigError("stabiliser reread_within must be 0 or more seconds")

    @property
    def reread_window(self) -> float:
        """Seconds after a state's first frame within which a re-read keeps its start."""
        return self.hold if self.reread_within is None else self.reread_within

    def hold_for(self, observation: Observation) -> float:
        """The hold time that applies to a state."""
        if (observation.dice or observation.dice_off_field) and self.dice_hold is not None:
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
        """The state being watched: its first frame."""
        self._pending: Observation | None = None
        """The latest frame when it differed from the anchor: a lone outlier or
        the first frame of a change (the next frame tells)."""
        self._frames: deque[tuple[float, bool]] = deque()
        """(time, shows the anchor's state) of the anchor's frames, from the
        latest one that can still start a hold."""
        self._start: float | None = None
        """When the anchor's hold may start: its first frame's time, or earlier with a
        credit (``occluded_credit``, ``reread_within``)."""
        self._credited = False
        """The anchor's state got a re-read's credit (no second one)."""
        self._hidden: deque[Observation] = deque()
        """The occluded frames since the latest frame that was not (a hand's run)."""
        self._clear: deque[Observation] = deque(maxlen=self._config.still_credit + 3)
        """The latest clear frames with a board, since the latest occluded frame, frame
        without a board or gap (``still_credit``: the anchor, up to two frames after it
        and the frames it may credit)."""
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
        self._hidden.clear()
        self._clear.clear()
        self._restart(None)

    def push(self, observation: Observation) -> list[Event]:
        """Take the next frame's observation; returns the events it causes, in order."""
        t = observation.t
        if t is None or not math.isfinite(t):
            raise ObservationError("the stabiliser needs observations with a time t")
        last_t, self._last_t = self._last_t, t
        if last_t is not None and not 0 <= t - last_t <= self._config.max_gap:
            # A gap (or time going backwards): nothing is known about the meantime.
            self._restart(None)
            self._hidden.clear()
            self._clear.clear()
        if observation.occluded:
            self._restart(None)
            self._clear.clear()
            if observation.board_found:
                self._hidden.append(observation)
                while len(self._hidden) > self._config.occluded_credit:
                    self._hidden.popleft()
            else:
                self._hidden.clear()
            return self._enter("occluded", t)
        hidden = tuple(self._hidden)
        self._hidden.clear()
        if not observation.board_found:
            self._restart(None)
            self._clear.clear()
            return self._enter("no_board", t)
        self._clear.append(observation)
        tolerance = self._config.position_tolerance
        anchor, pending = self._anchor, self._pending
        if anchor is not None and same_state(anchor, observation, tolerance):
            self._pending = None            # a lone differing frame before, if any, is forgiven
            self._frames.append((t, True))
        elif anchor is not None and pending is None and self._config.outlier_share > 0:
            # An outlier or the start of a change: nothing is decided on this frame.
            self._pending = observation
            self._frames.append((t, False))
            return []
        elif pending is not None and same_state(pending, observation, tolerance):
            # Two frames in a row show something else: a change, since the first.
            credit = self._reread_start(pending)
            self._restart(pending)
            if credit is not None:
                # Only the dice were read again, where they lay: the scene has not
                # moved since the state before began (see ``reread_within``).
                self._frames.appendleft((credit, True))
                self._start, self._credited = credit, True
            self._credit_still()
            self._frames.append((t, True))
        elif pending is not None:
            # Two frames in a row differ from the state, and from each other: a
            # change since the first of them, of which this frame may be a lone
            # outlier (the next frame tells).
            assert pending.t is not None
            self._restart(pending)
            self._credit_still()
            self._pending = observation
            self._frames.append((t, False))
            return self._enter("settling", pending.t)
        else:
            self._restart(observation)
            self._credit_hidden(hidden)
            self._credit_still()
        anchor = self._anchor
        assert anchor is not None and anchor.t is not None
        if not self._held(t, self._config.hold_for(anchor)):
            return self._enter("settling", anchor.t)
        events: list[Event] = []
        if self._emitted is None or not same_state(self._emitted, observation, tolerance):
            self._emitted = observation
            events.append(StableState(observation, anchor.t))
        events.extend(self._enter("stable", anchor.t))
        return events

    def _restart(self, first: Observation | None) -> None:
        """Watch a new state from its first frame (None: nothing to watch)."""
        self._anchor, self._pending = first, None
        self._start, self._credited = (None if first is None else first.t), False
        self._frames.clear()
        if first is not None:
            assert first.t is not None
            self._frames.append((first.t, True))

    def _credit_hidden(self, hidden: tuple[Observation, ...]) -> None:
        """Count in the new anchor's hold the occluded frames just before it that read
        its state (see ``occluded_credit``); never so many that its first clear frame
        alone completes the hold."""
        anchor, before = self._anchor, self._emitted
        if anchor is None or anchor.t is None or not hidden:
            return
        tolerance = self._config.position_tolerance
        if before is None:
            return  # nothing to tell a throw under the hand from the hand's misreading
        hold = self._config.hold_for(anchor)
        limit = self._config.occluded_credit
        changed = not same_checkers(before, anchor, tolerance)
        if changed:
            # Checkers moved under the hand (a play), or misread: a board read otherwise
            # after a hand may be the hand's own misreading (rendered 28de820384cd seed
            # 16: a hand passing twice, nine checkers read borne off in the frames
            # between), so less credit, and only for a board that accounts for every
            # checker (``changed_credit``, ``checkers_per_side``).
            if not _all_checkers(anchor, self._config.checkers_per_side):
                return
            limit = min(limit, self._config.changed_credit)
        if _count_dice(anchor) < _count_dice(before):
            limit = min(limit, self._config.vanished_credit)
        credited: list[float] = []
        reread = False
        # Dice first read from the vision's still: the hand's last frames, flagged by the
        # tracker's hysteresis after the gate last saw motion, showed the very picture
        # the still was taken of (``still_credit``, as for clear frames).
        quiet = anchor.settled_since if _count_dice(anchor) else None
        stills = 0
        for frame in reversed(hidden[len(hidden) - limit:] if limit else ()):
            assert frame.t is not None
            if anchor.t - frame.t >= hold - TIME_EPSILON:
                break
            seen = frame
            if self._config.unread_cube_credit and _cube_unread(frame.cube, anchor.cube,
                                                                tolerance):
                seen = replace(frame, cube=anchor.cube)
            same = same_state(seen, anchor, tolerance)
            if not same and quiet is not None and not changed \
                    and stills < self._config.still_credit \
                    and frame.t >= quiet - TIME_EPSILON \
                    and same_checkers(seen, anchor, tolerance):
                stills += 1
                credited.append(frame.t)
                continue
            if not same:
                # The dice read otherwise where they lie: the vision's still comes only
                # once the hand is reported gone, so its reading replaces the frame's
                # on the first clear frame.  The one re-read credit (``reread_within``).
                if changed or self._config.reread_window <= 0 or \
                        not dice_reread(seen, anchor, tolerance):
                    break
                reread = True
            credited.append(frame.t)
        if credited:
            self._frames.extendleft((when, True) for when in credited)
            self._start, self._credited = credited[-1], reread

    def _credit_still(self) -> None:
        """Count in the new anchor's hold the clear frames just before it since which the
        motion gate saw nothing change, when its dice were read from the vision's still
        (see ``still_credit``); never so many that its first frame alone completes the
        hold."""
        anchor, frames = self._anchor, self._frames
        limit = self._config.still_credit
        if (anchor is None or anchor.t is None or anchor.settled_since is None or not limit
                or not _count_dice(anchor) or not frames):
            return
        tolerance = self._config.position_tolerance
        hold = self._config.hold_for(anchor)
        first = frames[0][0]  # the anchor's, or an earlier start a credit gave it
        credited: list[float] = []
        for frame in reversed(self._clear):
            assert frame.t is not None
            if frame.t >= anchor.t - TIME_EPSILON:
                continue  # the anchor itself and the frames after it
            if (len(credited) >= limit or frame.t < anchor.settled_since - TIME_EPSILON
                    or anchor.t - frame.t >= hold - TIME_EPSILON
                    or not same_checkers(frame, anchor, tolerance)):
                break
            credited.append(frame.t)
        earlier = [when for when in credited if when < first - TIME_EPSILON]
        if earlier:
            self._frames.extendleft((when, True) for when in earlier)
            self._start = earlier[-1]

    def _reread_start(self, new: Observation) -> float | None:
        """The start the state ``new`` (a change confirmed now) takes over from the
        anchor when it is the anchor's dice read again (see ``reread_within``), else
        None."""
        anchor, start = self._anchor, self._start
        if anchor is None or start is None or self._credited or new.t is None:
            return None
        if new.t - start > self._config.reread_window + TIME_EPSILON:
            return None
        before = [agrees for when, agrees in self._frames if when < new.t - TIME_EPSILON]
        if not all(before) or len(before) < self._config.reread_frames:
            return None  # the state before was not read steadily itself
        if not dice_reread(anchor, new, self._config.position_tolerance):
            return None
        return start

    def _held(self, t: float, hold: float) -> bool:
        """True when the anchor's state, seen at ``t``, has held for ``hold`` seconds.

        The hold runs from the latest frame showing the state at least
        ``hold`` before ``t``; the frames from there to ``t`` may differ from
        the state only in lone frames (kept out of :attr:`_frames` otherwise),
        and in at most ``outlier_share`` of them.  Frames before that start
        are dropped: a later ``t`` never needs an earlier start.
        """
        frames = self._frames
        start = None
        for index in range(len(frames) - 1, -1, -1):
            when, agrees = frames[index]
            if agrees and t - when >= hold - TIME_EPSILON:
                start = index
                break
        if start is None:
            return False
        for _ in range(start):
            frames.popleft()
        outliers = sum(1 for _, agrees in frames if not agrees)
        return outliers <= self._config.outlier_share * len(frames) + SHARE_EPSILON

    def _enter(self, condition: Condition, since: float) -> list[Event]:
        if condition == self._condition:
            return []
        self._condition, self._since = condition, since
        return [StatusChange(condition, since)]


def same_state(a: Observation, b: Observation, tolerance: float) -> bool:
    """True when two observations show the same board state.

    Counts must be equal; dice are matched as a set (detectors list them in
    any order) with equal readings and centres within ``tolerance`` pixels,
    those on the field and those off it (``dice_off_field``) each apart;
    the cube likewise.  Corners and occlusion are not part of the state.
    """
    if a.points != b.points or a.bar != b.bar or a.off != b.off:
        return False
    if not _same_cube(a.cube, b.cube, tolerance):
        return False
    return (_same_dice(a.dice, b.dice, tolerance)
            and _same_dice(a.dice_off_field, b.dice_off_field, tolerance))


def _count_dice(observation: Observation) -> int:
    return len(observation.dice) + len(observation.dice_off_field)


def same_checkers(a: Observation, b: Observation, tolerance: float) -> bool:
    """True when two observations show the same checkers (points, bar, tray) and cube,
    whatever their dice."""
    return (a.points == b.points and a.bar == b.bar and a.off == b.off
            and _same_cube(a.cube, b.cube, tolerance))


def dice_reread(a: Observation, b: Observation, tolerance: float) -> bool:
    """True when ``b`` differs from the earlier ``a`` at most in how the dice are read:
    the same counts and cube, and on the field and off it alike, every die of ``a``
    lies where a die of ``b`` lies (within ``tolerance``, one to one), whatever either
    reads on it, ``b`` perhaps with dice more (found), never with fewer: a die lost
    for two frames (the reader's flicker, or a die picked up) is no re-read (on
    synthetic streams, seed 38 of ``bench/referee_synthetic.py``: a die missed in two
    frames in a row reported at once, four planted faults then missed).  Dice found
    where ``a`` read none are no re-read either: nothing showed the scene still."""
    if not same_checkers(a, b, tolerance):
        return False
    return (_same_places(a.dice, b.dice, tolerance)
            and _same_places(a.dice_off_field, b.dice_off_field, tolerance))


def _same_places(before: tuple[Die, ...], after: tuple[Die, ...], tolerance: float) -> bool:
    if len(after) < len(before):
        return False
    if not before:
        return not after  # dice found where none were read: no sign the scene was still
    return _matched(before, after, tolerance, lambda x, y: True) == len(before)


def _all_checkers(observation: Observation, per_side: int) -> bool:
    """True when the observation accounts for ``per_side`` checkers of each colour on the
    points, the bar and the tray (with no tray read: no more than that)."""
    for colour in ("light", "dark"):
        seen = sum(getattr(c, colour) for c in observation.points) \
            + getattr(observation.bar, colour)
        if observation.off is None:
            if seen > per_side:
                return False
        elif seen + getattr(observation.off, colour) != per_side:
            return False
    return True


def _cube_unread(seen: Cube | None, clear: Cube | None, tolerance: float) -> bool:
    """True when a hand frame's cube ``seen`` and the clear frames' cube ``clear`` do not
    contradict each other: one of them not found at all, or both where the cube lies
    and one without a value (see ``StabiliserConfig.unread_cube_credit``)."""
    if seen is None or clear is None:
        return True
    return ((seen.value is None or clear.value is None) and seen.position == clear.position
            and _distance(seen.center, clear.center) <= tolerance)


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
    return _matched(a, b, tolerance, lambda x, y: (x.value, x.flat, x.on_checker, x.side)
                    == (y.value, y.flat, y.on_checker, y.side)) == len(a)


def _matched(a: tuple[Die, ...], b: tuple[Die, ...], tolerance: float,
             alike: Callable[[Die, Die], bool]) -> int:
    """How many dice of ``a`` pair one-to-one with dice of ``b`` that are ``alike`` and
    within ``tolerance``, closest pairs first."""
    pairs = sorted((_distance(x.center, y.center), i, j)
                   for i, x in enumerate(a) for j, y in enumerate(b)
                   if alike(x, y) and _distance(x.center, y.center) <= tolerance)
    used_a: set[int] = set()
    used_b: set[int] = set()
    for _, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
    return len(used_a)


def _distance(p: Pixel, q: Pixel) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])
