"""One high-resolution still per settled throw, and the dice read from it.

A die in a 1280x720 frame of the whole board is 20-25 pixels wide and a pip
3-4 (docs/vision.md, "Small dice").  The video stream stays at that size,
cheap enough for every frame; once dice have come to rest (the motion gate
has seen no change for ``settle_frames`` frames) the camera is asked for
one still of the whole view at its higher resolution, and the dice are read
again from it.  The still's reading then stands for as long as the same dice
lie there (on the field, and off it: dice on the rails are read from the
still too): the stream reader carries it over unchanged frames, and any later
full read (the gate's periodic one, or after checkers moved while the dice
lay) that finds the same dice, reading the same faces in the same places as
when the still was taken, gets the still's values back, so the reported dice
do not flicker between the two readings.  Other dice (picked up, thrown
again, moved, or turned over) get a still of their own once they settle.
A scene that settles after motion with no die read in the frame gets a
still too (``StillConfig.without_dice``): small or translucent dice the
frame misses entirely are found in it; such a still's reading stands until
the scene moves again.

The observation that carries a still's reading also says since when the scene
has not moved (``Observation.settled_since``: the latest frame in which the
motion gate saw a change): the dice lay there from then on, even when the
frames before the still did not read them, and the stabiliser may count that
time in its hold (``StabiliserConfig.still_credit``).

Why once per throw and not per frame: a still needs a sensor mode switch on
the Pi cameras (a few tenths of a second, frames are lost meanwhile), and the
referee only needs the dice once they have settled.  A camera without
stills (an OpenCV webcam, a video file) simply returns none, and the frame's
own reading stands.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from vision.camera.base import Still
from vision.errors import CameraError, ConfigError
from vision.observation import Die, Observation

if TYPE_CHECKING:  # the pipeline's config tree holds StillConfig: no import cycle at run time
    from vision.pipeline import BoardReader

Image = npt.NDArray[np.uint8]

StillSource = Callable[[], Still | None]
"""Takes a still of the whole view now (``Camera.capture_high_res``), or None."""


@dataclass(frozen=True, slots=True)
class StillConfig:
    """When to take a still for the dice."""

    enabled: bool = True
    settle_frames: int = 2
    """Unchanged frames (by the motion gate) with dice in view before the still:
    a die still rolling or spinning changes the frame, and one frame of rest can
    be a die between two bounces."""
    same_die: float = 12.0
    """Pixels (video frame) within which a die read again is the same die the
    still read: then the still's value stands."""
    without_dice: bool = True
    """Also take a still when the scene settles after motion with no die read in the
    frame.  A throw of dice the frame misses altogether (a small die's pips merge at
    20 pixels a die, red translucent dice fade into the field: docs/vision.md "Small
    dice") would otherwise never be read from a still, which finds most of them.  It
    costs about one more still a turn (the board settling after the dice are picked
    up); off, a camera's mode switches are spent on dice already seen only."""

    def __post_init__(self) -> None:
        if self.settle_frames < 1:
            raise ConfigError(f"stills: settle_frames at least 1, not {self.settle_frames}")
        if self.same_die <= 0:
            raise ConfigError(f"stills: same_die must be positive, not {self.same_die}")


class DiceStills:
    """Wraps a stream :class:`BoardReader`: frames in, observations out, with the
    dice of settled throws read from one high-resolution still."""

    def __init__(self, reader: BoardReader, take_still: StillSource,
                 config: StillConfig | None = None) -> None:
        if not reader.stream:
            raise ConfigError("stills are for stream readers (BoardReader(stream=True))")
        self.reader = reader
        self.config = config or StillConfig()
        self._take_still = take_still
        self._quiet = 0
        self._moved_at: float | None = None
        """The time of the latest frame in which the motion gate saw the scene change."""
        self._asked_for: tuple[Die, ...] | None = None
        """The frame's own reading of the dice (on the field and off it) a still was last
        asked for."""
        self._still_dice: tuple[tuple[Die, ...], tuple[Die, ...]] | None = None
        """The still's dice on the field and off it."""
        self.stills = 0
        """Stills taken so far (for status and benchmarks)."""
        self.last_error: str | None = None
        """Why the latest still failed, if it did (the frame's reading stood)."""

    def read(self, frame: Image, *, t: float | None = None) -> Observation:
        """The observation of ``frame`` (see :meth:`BoardReader.read`)."""
        observation = self.reader.read(frame, t=t)
        if not self.config.enabled:
            return observation
        if self.reader.moved:
            self._quiet, self._moved_at = 0, t
        else:
            self._quiet += 1
        seen = _all_dice(observation)
        if self._asked_for == () and self.reader.moved:
            # A still taken with no die in the frame has nothing the frame can recognise
            # it by: any motion ends its reading, motion under a hand too (a throw whose
            # last moving frame the occlusion stage still called occluded left the next,
            # unoccluded frame unmoved, and the new dice, missed by the frame, never got
            # a still: seed 17 of the referee streams lost nine rolls so).
            self._asked_for, self._still_dice = None, None
        if self.reader.fresh and not observation.occluded:
            if self._asked_for is not None and not self._same(seen, self._asked_for):
                # Other dice (picked up, thrown again, moved): their own still, once settled.
                self._asked_for, self._still_dice = None, None
            elif self._still_dice is not None:
                # The same dice where they were, the rest of the board may have changed
                # (checkers moved while the dice lie): the still's reading stands.
                observation = replace(self.reader.replace_dice(*self._still_dice), t=t)
        if (self._asked_for is not None or self._quiet < self.config.settle_frames
                or (not seen and not self.config.without_dice)
                or observation.occluded or not observation.board_found):
            return observation
        self._asked_for = seen
        try:
            still = self._take_still()
        except CameraError as exc:
            self.last_error = str(exc)
            return observation
        if still is None:
            return observation
        self.stills += 1
        read = self.reader.read_dice_from(frame, still)
        if read is None:
            return observation
        self._still_dice = (read.dice, read.dice_off_field)
        # The reader's latest observation may be from an earlier frame (an unchanged
        # frame is carried over): the answer is this frame's, at this frame's time.
        # Nothing in view has changed since the gate last saw motion (it compares every
        # frame with that one), so the dice the still reads have lain there since then
        # (Observation.settled_since); only this frame says so, the ones carried over
        # after it do not.
        settled = self._moved_at if t is not None and self._moved_at is not None \
            and self._moved_at <= t else None
        return replace(read, t=t, settled_since=settled)

    def _same(self, dice: tuple[Die, ...], before: tuple[Die, ...]) -> bool:
        """The frame reads the same dice in the same places as when the still was asked
        for (a die turned over where it lay reads another value, or moves)."""
        if len(dice) != len(before):
            return False
        left = list(before)
        for die in dice:
            near = [d for d in left if d.value == die.value
                    and math.dist(d.center, die.center) <= self.config.same_die]
            if not near:
                return False
            left.remove(near[0])
        return True


def _all_dice(observation: Observation) -> tuple[Die, ...]:
    """The dice on the field and those off it (a die that bounced onto the rail gets the
    still's reading too: the referee names it)."""
    return observation.dice + observation.dice_off_field
