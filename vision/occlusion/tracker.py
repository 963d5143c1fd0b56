"""Occlusion in a stream: the single-frame test plus what time adds.

Three things a stream knows that one frame does not:

* **A background.**  Once several frames in a row are clear and still, the
  field as they show it is kept (with its checkers masked) and its surface
  colours are kept too, so a later arm covering most of the field cannot
  pass its own colour off as the field's.  An unexplained region that was
  already there in the background (a logo printed on the field, a stain,
  the cube on the bar) is board furniture, not a hand: in a stream a region
  counts only when enough of it differs from the background.
* **Motion.**  Whatever moves between two frames over more than a die's
  area is a hand (or something a hand threw); moving pixels join the
  candidates even when their colours happen to be explained.
* **Hysteresis.**  After a hand, the field is reported clear only once
  ``release_frames`` frames in a row are clear, so the referee never reads
  the frame in which the fingers are just leaving.
* **The last clear frame.**  A hand that stops moving over a surface of its
  own colour (a pale hand on light wood) leaves the colour test only slivers;
  against the last frame judged clear it is one large change reaching in from
  the rail, which nothing else on a board makes (see ``TrackerConfig.changed_area``).

Exposure changes (cameras adapt when an arm darkens the scene) are taken out
by scaling lightness so the field surface keeps the background's median.
"""

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.checkers.count import CheckerCount
from vision.errors import ConfigError
from vision.occlusion.appearance import FIELD, FieldAppearance, Floats, Image, Mask
from vision.occlusion.single import (
    OcclusionConfig,
    OcclusionResult,
    Prepared,
    analyse,
    judge,
    occluded,
    open_mask,
    own_discs,
    prepare,
)
from vision.profile import BoardProfile
from vision.rectify import FieldMap


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Thresholds of the stream tracker (distances in weighted Lab, areas in checker areas)."""

    single: OcclusionConfig = field(default_factory=OcclusionConfig)
    motion_threshold: float = 14.0
    """A pixel that changed this much since the previous frame moved (sensor noise and
    JPEG stay under 6)."""
    change_threshold: float = 20.0
    """A pixel this far from the background changed."""
    changed_share: float = 0.3
    """With a background, an unexplained region counts only when this share of it changed."""
    still_area: float = 0.3
    """A frame is still when less than this area moved (a die settling may move)."""
    stable_frames: int = 3
    """Clear, still frames in a row before the background is learned again."""
    stubborn_frames: int = 25
    """Still frames in a row after which the background is learned even though the single
    frame test objects, provided no objecting region reaches the rail: something that lies
    still inside the field for that long (a logo printed on the field, a lost die) is part
    of the board, and a hand always reaches in from a rail."""
    release_frames: int = 2
    """Clear frames in a row needed after an occlusion before the field is reported clear."""
    changed_area: float | None = 3.0
    """A region that differs from the last frame judged clear (checkers masked, then and
    now), reaches the rail and covers at least this many checker areas is a candidate in
    its own right, even where its colours are the surfaces' (None: off).  A pale hand over
    a light wooden field matches the field's colours almost everywhere: the colour test
    leaves slivers of it, and once it stops moving nothing else flagged it (referee
    stream seed 29: a hand over 8 % of the field, the dice under it, read clear for five
    frames in a row, so the dice looked picked up and a half-made move was judged; 76 of
    211 hands moving checkers in that session were read clear for some frames).  Little
    else changes between two clear frames: the dice (a fifth of a checker area each), the
    cube, a checker the checker stage missed where it now lies (one area).  The background
    (``stable_frames``) cannot serve: the motion gate reads a still board only every few
    seconds, so three clear, still reads in a row seldom come during play."""
    changed_level: float = 12.0
    """A pixel changed since the last clear frame when this far from it (weighted Lab;
    sensor noise stays under 6): lower than ``change_threshold``, since a pale hand differs
    from light wood by little more than that."""
    changed_rail: float = 2.0
    """Such a region reaches the rail when it comes within this many checker radii of the
    analysed area's border: an arm crossing the rail over a stack is masked there with
    the stack's checkers."""
    changed_wide: float = 1.5
    """... and is at least this many checker radii wide somewhere (its widest inscribed
    disc): a palm is about two checkers across, while a point's column whose checkers the
    checker stage missed, then or now, is one (seed 29 at t=207.8: such a column of 3.4
    checker areas at the rail, left by a bear-off, held the field occluded for 16 s)."""
    changed_join: float = 1.0
    """Such changes closer than about this many checker radii are one region (closing):
    the checkers a hand covers are masked as the last clear frame had them, which cuts
    the hand into pieces along them."""
    change_stubborn_frames: int = 6
    """Reads in a row after which a verdict that only such a change makes is taken as the
    new clear frame (a lamp switched on, checkers moved that the checker stage missed).
    The stream reader re-reads a still occluded frame three times at once and then only
    every ``MotionConfig.max_skipped`` frames, so on a still board 6 is about 9 s at 10
    frames a second: longer than a hand rests still over the board (at 3 a hand resting
    for a second was taken into the clear frame, and the board it left then looked
    changed); in play (dice thrown, checkers moved: reads in quick succession) it is
    a second or less."""
    first_clear_frames: int | None = 8
    """Before a stream has ever reported a clear frame (no background, no last clear
    frame), still reads, in a row or not, in which the objecting regions are the same
    (``first_overlap``) after which that frame is learned as the background even though
    the regions reach the rail (None: off).  ``stubborn_frames`` spares only regions
    inside the field, and its reads must come in a row; a false region at the rail
    present from the first frame (referee stream seed 59: a printed field whose white
    and black points under the lamp's fall-off the colour test does not explain, 6.4
    checker areas over points 0-2) otherwise held a whole session occluded, every play
    unseen.  A hand moves between the quiet moments of play; the same region in eight
    of them, with nothing ever clear to compare it with, is the board.  Motion frames
    neither count nor reset."""
    first_overlap: float = 0.6
    """Two still reads' objecting regions are the same when their intersection is at
    least this share of their union."""
    gain_limits: tuple[float, float] = (0.6, 1.6)
    """Exposure correction allowed between a frame and the background."""

    def __post_init__(self) -> None:
        if self.stable_frames < 1 or self.release_frames < 1:
            raise ConfigError("tracker: stable_frames and release_frames of at least 1")
        if not 0.0 <= self.changed_share <= 1.0:
            raise ConfigError("tracker: changed_share between 0 and 1")
        if not 0.0 < self.gain_limits[0] <= 1.0 <= self.gain_limits[1]:
            raise ConfigError("tracker: gain_limits (low <= 1 <= high)")
        if self.changed_area is not None and self.changed_area <= 0.0:
            raise ConfigError("tracker: changed_area must be positive (or None)")
        if self.change_stubborn_frames < 1:
            raise ConfigError("tracker: change_stubborn_frames of at least 1")
        if self.first_clear_frames is not None and self.first_clear_frames < 1:
            raise ConfigError("tracker: first_clear_frames of at least 1 (or None)")
        if not 0.0 < self.first_overlap <= 1.0:
            raise ConfigError("tracker: first_overlap above 0 and at most 1")


@dataclass
class _Background:
    lab: Floats
    checkers: Mask
    appearance: FieldAppearance
    field_lightness: float


@dataclass
class _Reference:
    """The last frame judged clear."""

    lab: Floats
    checkers: Mask
    field_lightness: float


class OcclusionTracker:
    """Judges the frames of one camera, in order; see the module's documentation.

    Not thread-safe: one tracker per stream.
    """

    def __init__(self, field_map: FieldMap, profile: BoardProfile,
                 config: TrackerConfig | None = None) -> None:
        self.field_map = field_map
        self.profile = profile
        self.config = config or TrackerConfig()
        self._background: _Background | None = None
        self._reference: _Reference | None = None
        self._change_stubborn = 0
        self._band: Mask | None = None
        self._previous: Floats | None = None
        self._still = 0
        self._stubborn = 0
        self._clear = 0
        self._last_occlusion: str | None = None
        self._first_region: Mask | None = None
        self._first_count = 0

    @property
    def has_background(self) -> bool:
        """True once a background has been learned from clear, still frames."""
        return self._background is not None

    def reset(self) -> None:
        """Forget everything (after the camera or the board moved)."""
        self._background = None
        self._reference = None
        self._change_stubborn = 0
        self._band = None
        self._previous = None
        self._still = 0
        self._stubborn = 0
        self._clear = 0
        self._last_occlusion = None
        self._first_region = None
        self._first_count = 0

    def update(self, frame: Image, checkers: CheckerCount | None = None) -> OcclusionResult:
        """Judge the next frame (BGR, camera pixels); ``checkers`` as for
        :func:`~vision.occlusion.detect_occlusion` (and, as there, the permissive circle
        search runs only when the frame looks occluded without it)."""
        cfg = self.config
        prepared = prepare(frame, self.field_map, self.profile, checkers, cfg.single,
                           own_circles=False)
        background = self._background
        large = self._large_changes(prepared)
        lab = prepared.lab
        if background is not None:
            lab = _match_lightness(prepared, background.field_lightness, cfg.gain_limits)
            prepared = replace(prepared, lab=lab)
        away = None if background is None else _distance(lab, background.lab)
        moving = np.zeros(prepared.area.shape, dtype=np.bool_)
        if self._previous is not None:
            moving = open_mask((_distance(lab, self._previous) > cfg.motion_threshold)
                               & prepared.area, lab.shape[1], cfg.single)
        self._previous = lab

        def occludes(candidates: Mask, colours: FieldAppearance) -> bool:
            return occluded(prepared, self._candidates(prepared, candidates, away, moving)
                            | large, cfg.single, appearance=colours)

        analysis = analyse(prepared, None if background is None else background.appearance,
                           cfg.single, occludes)
        unexplained = analysis.unexplained
        result = self._judge(prepared, unexplained, away, moving, analysis.appearance, large)
        if result.occluded and cfg.single.own_circles is not None:
            discs = own_discs(prepared, result.field_mask, self.profile, cfg.single)
            prepared = replace(prepared, checkers=prepared.checkers | discs)
            unexplained = open_mask(analysis.raw & ~discs, lab.shape[1], cfg.single)
            result = self._judge(prepared, unexplained, away, moving, analysis.appearance,
                                 large)
        still = bool(np.count_nonzero(moving) < cfg.still_area * prepared.checker_area)
        by_change = result.occluded and bool(large.any()) and not self._judge(
            prepared, unexplained, away, moving, analysis.appearance).occluded
        reported = self._remember(result, prepared, analysis.appearance, still=still)
        self._follow_reference(reported, prepared, by_change=by_change)
        return reported

    def _judge(self, prepared: Prepared, unexplained: Mask, away: Floats | None,
               moving: Mask, appearance: FieldAppearance,
               large: Mask | None = None) -> OcclusionResult:
        """The verdict on the unexplained regions that changed since the background (all of
        them without one), with whatever moved and the ``large`` changes since the last
        clear frame."""
        candidates = self._candidates(prepared, unexplained, away, moving)
        if large is not None:
            candidates = candidates | large
        return judge(prepared, candidates, self.field_map, self.profile, self.config.single,
                     appearance=appearance)

    def _large_changes(self, prepared: Prepared) -> Mask:
        """The changes since the last clear frame that count by themselves
        (``changed_area``): none without one."""
        cfg = self.config
        reference = self._reference
        if reference is None or cfg.changed_area is None:
            return np.zeros(prepared.area.shape, dtype=np.bool_)
        lab = _match_lightness(prepared, reference.field_lightness, cfg.gain_limits)
        changed = open_mask((_distance(lab, reference.lab) > cfg.changed_level)
                            & prepared.area & ~prepared.checkers & ~reference.checkers,
                            lab.shape[1], cfg.single)
        # a hand over checkers hides them: their discs (masked then) split it into pieces
        radius = float(np.sqrt(prepared.checker_area / np.pi))
        size = 2 * round(cfg.changed_join * radius) + 1
        joined = cv2.morphologyEx(changed.view(np.uint8), cv2.MORPH_CLOSE,
                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        return _large_at_rail(joined.view(np.bool_) & prepared.area,
                              self._rail_band(prepared, cfg.changed_rail * radius),
                              cfg.changed_area * prepared.checker_area,
                              cfg.changed_wide * radius)

    def _rail_band(self, prepared: Prepared, reach: float) -> Mask:
        """The analysed area's pixels within ``reach`` pixels of its outer border (kept: a
        tracker's frames share one profile and analysis width)."""
        if self._band is None or self._band.shape != prepared.area.shape:
            size = 2 * round(reach) + 1
            grown = cv2.dilate(prepared.layout.outer.view(np.uint8),
                               cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
            self._band = grown.view(np.bool_) & prepared.area
        return self._band

    def _follow_reference(self, result: OcclusionResult, prepared: Prepared, *,
                          by_change: bool) -> None:
        """Keep the last frame judged clear; a verdict that only the change since it makes
        becomes the new one after ``change_stubborn_frames`` reads in a row."""
        # a lasting change is learned whether or not dice roll elsewhere meanwhile
        if by_change:
            self._change_stubborn += 1
            if self._change_stubborn < self.config.change_stubborn_frames:
                return
        elif result.occluded:
            self._change_stubborn = 0
            return
        self._change_stubborn = 0
        self._reference = _Reference(prepared.lab, prepared.checkers,
                                     _field_lightness(prepared))

    def _candidates(self, prepared: Prepared, unexplained: Mask, away: Floats | None,
                    moving: Mask) -> Mask:
        """What :meth:`_judge` judges: the unexplained regions that changed since the
        background (all of them without one), and whatever moved."""
        cfg = self.config
        candidates = unexplained
        background = self._background
        if background is not None and away is not None:
            changed = open_mask((away > cfg.change_threshold) & prepared.area
                                & ~prepared.checkers & ~background.checkers,
                                prepared.lab.shape[1], cfg.single)
            candidates = _regions_changed(candidates, changed, cfg.changed_share)
        return candidates | moving

    def _remember(self, result: OcclusionResult, prepared: Prepared,
                  appearance: FieldAppearance, *, still: bool) -> OcclusionResult:
        """Hysteresis and background learning after the raw verdict on a frame."""
        cfg = self.config
        if result.occluded:
            inside = not any(r.at_rail for r in result.regions if r.occluding)
            self._stubborn = self._stubborn + 1 if still and inside else 0
            if self._stubborn >= cfg.stubborn_frames:
                self._learn(prepared, appearance)
                self._stubborn = 0
            elif still and self._background is None and self._reference is None:
                self._first_seen(result, prepared, appearance)
            self._clear = 0
            self._still = 0
            self._last_occlusion = result.reason
            return result
        self._stubborn = 0
        self._clear += 1
        self._still = self._still + 1 if still else 0
        if self._still >= cfg.stable_frames:
            self._learn(prepared, appearance)
        if self._last_occlusion is not None and self._clear < cfg.release_frames:
            return OcclusionResult(True, result.score,
                                   f"clear for {self._clear} of {cfg.release_frames} frames "
                                   f"after: {self._last_occlusion}", result.regions,
                                   result.field_mask)
        self._last_occlusion = None
        return result

    def _first_seen(self, result: OcclusionResult, prepared: Prepared,
                    appearance: FieldAppearance) -> None:
        """Count a still read objecting before anything was ever clear
        (``first_clear_frames``)."""
        limit = self.config.first_clear_frames
        mask = result.field_mask
        if limit is None or mask is None:
            return
        previous = self._first_region
        if previous is not None and previous.shape == mask.shape:
            union = int(np.count_nonzero(previous | mask))
            same = union > 0 and (int(np.count_nonzero(previous & mask)) / union
                                  >= self.config.first_overlap)
        else:
            same = False
        self._first_count = self._first_count + 1 if same else 1
        self._first_region = mask
        if self._first_count >= limit:
            self._learn(prepared, appearance)
            self._first_region, self._first_count = None, 0

    def _learn(self, prepared: Prepared, appearance: FieldAppearance) -> None:
        self._background = _Background(prepared.lab, prepared.checkers, appearance,
                                        _field_lightness(prepared))


def _distance(a: Floats, b: Floats) -> Floats:
    """Per-pixel Euclidean distance of two weighted-Lab images."""
    difference = cv2.subtract(a, b)
    squared = cv2.transform(cv2.multiply(difference, difference), np.ones((1, 3), np.float32))
    return np.asarray(cv2.sqrt(squared), dtype=np.float32)


def _field_lightness(prepared: Prepared) -> float:
    surface = (prepared.labels == FIELD) & ~prepared.checkers & prepared.area
    values = prepared.lab[..., 0][surface]
    return float(np.median(values)) if len(values) else 0.0


def _match_lightness(prepared: Prepared, reference: float,
                     limits: tuple[float, float]) -> Floats:
    """The frame's Lab with lightness scaled so its field surface matches ``reference``."""
    current = _field_lightness(prepared)
    if current <= 0.0 or reference <= 0.0:
        return prepared.lab
    gain = float(np.clip(reference / current, limits[0], limits[1]))
    lab = prepared.lab.copy()
    lab[..., 0] *= gain
    return lab


def _regions_changed(candidates: Mask, changed: Mask, share: float) -> Mask:
    """The connected regions of ``candidates`` of which at least ``share`` changed."""
    count, components = cv2.connectedComponents(candidates.astype(np.uint8), connectivity=8)
    if count <= 1:
        return candidates
    total = np.bincount(components.ravel(), minlength=count)
    hit = np.bincount(components.ravel(), weights=changed.ravel().astype(np.float64),
                      minlength=count)
    keep = hit >= share * np.maximum(total, 1)
    keep[0] = False
    return np.asarray(keep[components])


def _large_at_rail(mask: Mask, outer: Mask, least: float, wide: float) -> Mask:
    """The connected regions of ``mask`` of at least ``least`` pixels, touching ``outer``,
    whose widest inscribed disc has a radius of at least ``wide`` pixels."""
    binary = mask.astype(np.uint8)
    count, components, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    keep = stats[:, cv2.CC_STAT_AREA] >= least
    keep[0] = False
    if not keep.any():
        return np.zeros_like(mask)
    inside = cv2.distanceTransform(binary, cv2.DIST_L2, 5)
    widest = np.zeros(count, dtype=np.float32)
    np.maximum.at(widest, np.asarray(components, dtype=np.intp).ravel(), inside.ravel())
    keep &= widest >= wide
    touching = np.zeros(count, dtype=np.bool_)
    touching[np.unique(components[outer])] = True
    return np.asarray((keep & touching)[components])
