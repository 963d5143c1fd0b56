"""The whole per-frame pipeline: a camera frame in, an :class:`Observation` out.

Stages, in order: calibration (given, or markers, or the automatic search),
rectification, checkers, cube, dice (on the field, then off it; a circle the
checker stage took for a checker where a die lies is then left out and the
field counted again), occlusion (a single image, or a tracker with a
background for a stream).  Each
stage is usable on its own; this class only threads one frame through
them and keeps what a stream needs between frames (the calibration, the
occlusion background, the learned checker colours).
"""

import math
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import Calibration, calibrate
from vision.camera.base import Still
from vision.checkers.colours import ColourModel
from vision.checkers.count import CheckerCount
from vision.checkers.reader import ColourLearner, measure_checkers
from vision.checkers.totals import (
    SIDE,
    consistent_off,
    on_board_counts,
    tray_colours,
    tray_may_settle,
)
from vision.checkers.tray import read_off_reading
from vision.config import VisionConfig
from vision.cube import find_cube
from vision.dice.board import read_board_dice
from vision.dice.off_field import merge_off_field, read_off_field_dice
from vision.errors import BoardNotFoundError, ImageError
from vision.heap import keep_heap
from vision.motion import MotionGate
from vision.observation import Counts, Cube, Die, Observation
from vision.occlusion.single import detect_occlusion
from vision.occlusion.tracker import OcclusionTracker
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]


class BoardReader:
    """Reads observations from the frames of one camera (or from single images).

    With ``stream=True`` the occlusion stage keeps a background of the board
    learned from clear frames; without it every frame is judged alone, as
    ``bgref read-image`` does.

    Checker colours: a reader given ``colours`` reads every frame with that model.
    Without one, a stream learns its set's model from its own clear frames (the
    starting position: see :class:`.checkers.reader.ColourLearner`) and keeps it until
    the calibration changes, :meth:`forget_colours` (the live referee's loop, at a
    game's end) or :meth:`reset`; until then, and always for single images, each
    frame splits its colours alone.
    """

    def __init__(self, config: VisionConfig | None = None,
                 calibration: Calibration | None = None, *, stream: bool = False,
                 colours: ColourModel | None = None) -> None:
        self.config = config or VisionConfig()
        keep_heap(self.config.heap)
        self.calibration = calibration
        self.stream = stream
        self.colours = colours
        """The checker colours' model every frame is read with: the one given, or the one
        a stream learned (None: each frame splits its colours alone)."""
        self._given = colours is not None
        self._learner = ColourLearner(self.config.checkers)
        self._learned_on: Calibration | None = None
        self._tracker: OcclusionTracker | None = None
        self._gate = MotionGate(self.config.motion)
        self._last: Observation | None = None
        self._last_attempt: float | None = None
        self._rereads = 0
        self.on_board: Counts | None = None
        """How many checkers of each colour the caller knows are on the points and the
        bar (a referee's last stable board: fifteen less those borne off); stacks in
        doubt then take the count that adds up.  None: the image and the rules alone."""
        self.fresh = False
        """Whether the latest :meth:`read` ran the stages (False: a stream frame the
        motion gate found unchanged, answered with the last observation)."""
        self.moved = True
        """Whether the latest frame differed from the one before (a stream's periodic
        full read of an unchanged board, or a re-read while a hand's verdict
        settles, did not)."""
        self._dice_inputs: tuple[FieldMap, BoardProfile, npt.NDArray[np.uint8]] | None = None

    def read(self, frame: Image, *, t: float | None = None,
             still: Still | None = None) -> Observation:
        """What ``frame`` shows.  ``still``: a higher-resolution capture of the
        whole view for reading small dice (see :meth:`Camera.capture_high_res`)."""
        _check_frame(frame)
        if self.stream:
            last = self._last
            changed = self._gate.changed(frame)
            self.moved = self._gate.moved or last is None
            if not changed and last is not None:
                # An occluded verdict may still change on the same picture: the occlusion
                # tracker waits out its release over a few clear frames (and the frame
                # the hand left in counted as motion).  Re-read a few times before
                # carrying it over, or a still board after the hand has gone would stay
                # "occluded" until the gate's next forced read.
                if not last.occluded or self._rereads > self.config.tracker.release_frames:
                    self.fresh = False
                    return replace(last, t=t)
                self._rereads += 1
            else:
                self._rereads = 0
            observation = self._read(frame, t, still)
            self._last = observation
            self.fresh = True
            return observation
        self.fresh = self.moved = True
        return self._read(frame, t, still)

    def reset(self) -> None:
        """Forget what the stream learned: the checker colours (unless given), the
        occlusion background and the last observation (a new game on another set)."""
        self.forget_colours()
        self._tracker = None
        self._gate.reset()
        self._last = None
        self._rereads = 0

    def forget_colours(self) -> None:
        """Forget the learned checker colours (a given model stays): the next starting
        position teaches them again.  A game's end is where a club may swap sets
        without calibrating again; a model kept from the old set would read the new
        one's checkers by the old colours."""
        self._learner.reset()
        if not self._given:
            self.colours = None

    def read_dice_from(self, frame: Image, still: Still) -> Observation | None:
        """The latest observation with its dice read again from ``still`` (a
        higher-resolution capture of the whole view ``frame`` shows); a stream
        carries it over the unchanged frames that follow.  None when there is
        nothing to re-read (no board read yet) or the still is not of the whole view."""
        inputs = self._dice_inputs
        hires, scale = _whole_view(still, frame)
        if not self.stream or self._last is None or inputs is None or hires is None:
            return None
        field_map, profile, mask = inputs
        dice, off_field = self._dice(frame, field_map, profile, hires, scale, mask,
                                     self._last.cube)
        return self.replace_dice(dice, off_field)

    def replace_dice(self, dice: tuple[Die, ...],
                     off_field: tuple[Die, ...] | None = None) -> Observation:
        """The latest stream observation with other dice (it then stands for the
        unchanged frames that follow); ``off_field`` None keeps its dice off the field."""
        if self._last is None:
            raise ImageError("no observation to replace the dice of")
        self._last = replace(self._last, dice=dice, dice_off_field=(
            self._last.dice_off_field if off_field is None else off_field))
        return self._last

    def _dice(self, frame: Image, field_map: FieldMap, profile: BoardProfile,
              hires: Image | None, scale: float, mask: npt.NDArray[np.uint8],
              cube: Cube | None) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
        """The dice on the field and those off it (the board stage's dice whose centre
        lies past the field's edge, and the off-field stage's own on the rails; none
        where the cube lies)."""
        cfg = self.config
        board = read_board_dice(frame, field_map, profile, hires=hires, scale=scale,
                                checker_mask=mask, config=cfg.dice)
        beyond = read_off_field_dice(frame, field_map, profile, hires=hires, scale=scale,
                                     checker_mask=mask, config=cfg.off_field,
                                     board_config=cfg.dice, cube=cube)
        return merge_off_field(board, beyond, field_map, cube=cube, config=cfg.off_field,
                               die_size=cfg.dice.die_size)

    def _read(self, frame: Image, t: float | None, still: Still | None) -> Observation:
        calibration = self._calibration_for(frame, t)
        if calibration is None:
            return Observation(board_found=False, t=t)
        if calibration is not self._learned_on:
            # Another calibration (found anew, rescaled or set by the caller): maybe
            # another board and set, so the colours learned are forgotten.
            self.forget_colours()
            self._learned_on = calibration
        field_map = calibration.field_map()
        profile = calibration.profile
        cfg = self.config
        rectified = field_map.rectify(frame, profile, cfg.field_width)
        # The tray first: a side that may be bearing off has fifteen less those in the
        # tray on the board, which settles its stacks in doubt; then the tray's counts
        # are held to what the board leaves off it.
        # The tray is read without the checker colours' model: it is learned from the
        # checkers' faces and the tray sees their edges, the other shade on rimmed sets
        # (given it, the tray alone read 60 of 181 tune bear-off trays right instead of
        # 64, its colours swapped: checker_accuracy --family bear-off --seed 71).
        tray = read_off_reading(frame, field_map, profile, config=cfg.tray)
        off = None if tray is None else tray.counts
        evidence = measure_checkers(rectified, profile, model=self.colours, config=cfg.checkers)
        checkers = evidence.count(self.on_board, tray)
        # The dice next, on the checkers' mask (a die on a checker, or between two); a
        # circle the checker stage found where the dice stage found a die off the
        # checkers may be that die (see vision/checkers/dice_circles.py): the field is
        # then counted again without it.
        hires, scale = _whole_view(still, frame)
        mask = checker_mask(checkers, field_map, frame.shape[:2])
        cube = find_cube(frame, field_map, profile, cfg.cube)
        dice, off_field = self._dice(frame, field_map, profile, hires, scale, mask, cube)
        without = evidence.without_dice(_field_dice(dice, field_map, evidence.size))
        if without is not None:
            evidence = without
            checkers = evidence.count(self.on_board, tray)
            mask = checker_mask(checkers, field_map, frame.shape[:2])
        self._dice_inputs = (field_map, profile, mask)
        off_read = None
        own_points = None
        if off is not None:
            on_board = on_board_counts(checkers)
            own = tray_colours(on_board, off)
            off_read = Counts(min(own.light, SIDE), min(own.dark, SIDE))
            if self.on_board is None and tray_may_settle(checkers):
                # The board counted again without the tray's count: its own reading, the
                # second opinion on a stack the tray's count settled (Observation.own_points).
                alone = evidence.count()
                if alone.points != checkers.points:
                    own_points = alone.points
            off = consistent_off(on_board, off, cfg.tray)
        if self.stream:
            if self._tracker is None:
                self._tracker = OcclusionTracker(field_map, profile, cfg.tracker)
            occlusion = self._tracker.update(frame, checkers)
            if self.colours is None:
                self.colours = self._learner.offer(evidence, checkers, occlusion.occluded)
        else:
            occlusion = detect_occlusion(frame, field_map, profile, checkers, cfg.occlusion)
        return Observation(board_found=True, corners=calibration.corners,
                           points=checkers.points, bar=checkers.bar, off=off,
                           dice=dice, cube=cube, occluded=occlusion.occluded, t=t,
                           dice_off_field=off_field, off_read=off_read,
                           own_points=own_points)

    def _calibration_for(self, frame: Image, t: float | None) -> Calibration | None:
        height, width = frame.shape[:2]
        if self.calibration is not None:
            if self.calibration.image_size != (width, height):
                self.calibration = self.calibration.scaled_to(width, height)
                self._tracker = None
                self._gate.reset()
            return self.calibration
        if self.stream and t is not None:
            last = self._last_attempt
            if last is not None and 0.0 <= t - last < self.config.calibration_retry:
                return None
            self._last_attempt = t
        try:
            found = calibrate(frame, self.config.calibration)
        except BoardNotFoundError:
            return None
        if self.stream:
            self.calibration = found
        return found


def checker_mask(checkers: CheckerCount, field_map: FieldMap,
                 shape: tuple[int, ...]) -> npt.NDArray[np.uint8]:
    """Where the checkers are, in camera pixels (255 inside a checker)."""
    mask = np.zeros(shape[:2], dtype=np.uint8)
    width, height = checkers.size
    if not width or not height or not checkers.placed:
        return mask
    circles = np.array([[p.circle.x, p.circle.y, p.circle.radius] for p in checkers.placed])
    u = (circles[:, :1] + circles[:, 2:] * _COS) / width
    v = (circles[:, 1:2] + circles[:, 2:] * _SIN) / height
    field = np.stack([u, v], axis=-1).reshape(-1, 1, 2)
    image = cv2.perspectiveTransform(field, field_map.to_image).reshape(len(circles), -1, 2)
    cv2.fillPoly(mask, list(np.rint(image).astype(np.int32)), 255)
    return mask


_ANGLES = np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False)
_COS = np.cos(_ANGLES)[None, :]
_SIN = np.sin(_ANGLES)[None, :]


def _field_dice(dice: tuple[Die, ...], field_map: FieldMap,
                size: tuple[int, int]) -> list[tuple[float, float]]:
    """The centres, in a rectified field's pixels (``size``: its width and height), of the
    dice on the field that lie off the checkers."""
    width, height = size
    centres = []
    for die in dice:
        if not die.on_checker:
            u, v = field_map.field_point(die.center)
            centres.append((u * width, v * height))
    return centres


def _whole_view(still: Still | None, frame: Image) -> tuple[Image | None, float]:
    """A still of the whole view as the dice stage takes it (image, scale)."""
    if still is None:
        return None, 1.0
    height, width = frame.shape[:2]
    x, y, w, h = still.region
    if (x, y, w, h) != (0, 0, width, height):
        return None, 1.0  # a crop: the dice stage reads whole views only
    return still.image, float(still.scale[0])


def _check_frame(frame: object) -> None:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise ImageError("a frame is an 8-bit image array")
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.shape[0] < 64 or frame.shape[1] < 64:
        raise ImageError(f"a frame is a BGR image of at least 64x64 pixels, not {frame.shape}")
