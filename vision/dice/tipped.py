"""The tipped-up face's band, as a grey-level profile across the die's side.

A die leaning on something tips up the face turned from it: past its top face's edge
on that side lies a band of the die's own body, ``sin(tilt)`` die edges wide, shaded
by the light otherwise than the top face and seldom the board's grey.  A flat die
shows a band there only toward the nadir, as wide as perspective allows
(:func:`vision.dice.pose.perspective_reach`).  The outline cue (:mod:`.outline`) looks
for that band's outer edge as a gradient peak; a shaded side face a few tens of grey
levels from the board, or a soft edge, is often no peak it accepts.

This module measures the band another way: the grey levels along the normal of the
side turned most from the support (the window rotated so that the lean direction is
fixed), each distance the median of a short segment along the side (pips and stray
marks fall out), sampled from inside the top face out past where any tipped-up face
ends.  :func:`band_features` turns that profile into how unlike the board (its level
past the band) each distance beyond a flat die's silhouette there is, in units of the
top face's own contrast to the board; :func:`band_score` weighs those with a logistic
regression fitted on tune renders (``bench/pose_band_fit.py``, :data:`FITTED`).  Off by
default (``PoseConfig.band`` None): out of sample the fitted model found two more cocked
dice on one pair of tune seeds and called one more flat die cocked on another
(docs/vision.md, "Flat or cocked, round eleven").
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice.chroma import Colour
from vision.dice.faces import Face
from vision.dice.outline import OutlineConfig, _one_size, _outline_angle
from vision.dice.pips import Gray
from vision.dice.sides import grid_angle
from vision.errors import ConfigError


@dataclass(frozen=True, slots=True)
class BandProfileConfig:
    """Where the profile is sampled (lengths in die edges of the face's estimated size,
    from its centre)."""

    start: float = 0.2
    """The nearest distance sampled: inside the top face, between its pips' rows."""
    stop: float = 1.9
    """The farthest: past a 35-degree die's band (0.57) beyond the widest perspective
    allowance of the renders' boards (about 0.35) and the top face's edge (0.575), with
    the board beyond (``BandModelConfig.board``)."""
    step: float = 0.05
    """Distance between samples (two pixels at 40 pixels a die)."""
    half_length: float = 0.3
    """Half the segment along the side whose median is each sample (within the side
    face's edge for tilts about a diagonal too)."""
    samples: int = 9
    """Points on each segment."""
    blur: float = 1.0
    """Gaussian sigma (pixels) before sampling."""

    def __post_init__(self) -> None:
        if not 0.0 < self.start < self.stop or self.step <= 0.0 or self.samples < 1 \
                or self.half_length <= 0.0 or self.blur < 0.0:
            raise ConfigError("dice band profile: 0 < start < stop, positive step, samples "
                              "and half_length, blur at least 0")

    @property
    def distances(self) -> np.ndarray:
        """The sampled distances (die edges)."""
        return np.arange(self.start, self.stop + self.step / 2.0, self.step)


@dataclass(frozen=True, slots=True)
class BandProfile:
    """The grey levels across the side of a die turned most from its support."""

    levels: tuple[float, ...]
    """Median grey level at each of :attr:`BandProfileConfig.distances`."""
    allowance: float
    """What perspective lets a flat die's side face show past its top face on that
    side (die edges)."""
    away: float
    """Cosine between the side's normal and the direction away from the support."""
    colours: tuple[tuple[float, float, float], ...] | None = None
    """Median colour (B, G, R) at each distance, when the window's colour was given."""


def band_profile(gray: Gray, face: Face, away: tuple[float, float],
                 nadir: tuple[float, float], reach: float,
                 config: BandProfileConfig = BandProfileConfig(),
                 colour: Colour | None = None) -> BandProfile | None:
    """The profile across the side of ``face`` (in the rectified window ``gray``) whose
    outward normal is nearest ``away`` (unit, pixels of ``gray``: away from what it
    leans on), ``nadir`` the point below the camera and ``reach`` the perspective reach
    at the die (die edges) for the allowance; None when the face's sides or size cannot
    be told (a one whose outline does not show).  ``colour``: the window ``gray`` was
    made from (BGR), sampled alike."""
    size = face.die_size
    if size <= 0.0:
        return None
    cx, cy = face.center
    outline = OutlineConfig()
    margin = math.ceil(size * (config.stop + 1.0) + 3.0 * config.blur + 3.0)
    h, w = gray.shape
    x0, y0 = max(0, int(cx) - margin), max(0, int(cy) - margin)
    x1, y1 = min(w, int(cx) + margin + 1), min(h, int(cy) + margin + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if config.blur > 0.0:
        patch = np.asarray(cv2.GaussianBlur(patch, (0, 0), config.blur), np.float32)
    centre = (cx - x0, cy - y0)
    angle = grid_angle(face)
    if angle is None:  # a one: its sides and size from the top face's outline
        smooth = cv2.GaussianBlur(gray[y0:y1, x0:x1].astype(np.float32), (0, 0), outline.blur)
        gx = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3), np.float32) / 8.0
        gy = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3), np.float32) / 8.0
        angle = _outline_angle(gx, gy, centre, size, 0.2)
        measured = _one_size(gx, gy, centre, angle, size, outline)
        if measured is None:
            return None
        size = measured
        angle = _outline_angle(gx, gy, centre, size, 0.35)
    normals = [(math.cos(angle + k * math.pi / 2.0), math.sin(angle + k * math.pi / 2.0))
               for k in range(4)]
    nx, ny = max(normals, key=lambda n: n[0] * away[0] + n[1] * away[1])
    tx, ty = nadir[0] - cx, nadir[1] - cy
    norm = math.hypot(tx, ty)
    toward = max(nx * tx + ny * ty, 0.0) / norm if norm > 0.0 else 0.0
    distances = config.distances
    across = np.linspace(-config.half_length, config.half_length, config.samples)
    d = distances[:, None] * size
    a = across[None, :] * size
    xs = (centre[0] + d * nx - a * ny).astype(np.float32)
    ys = (centre[1] + d * ny + a * nx).astype(np.float32)
    values = cv2.remap(patch, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    levels = np.median(np.asarray(values, np.float32), axis=1)
    colours: tuple[tuple[float, float, float], ...] | None = None
    if colour is not None and colour.shape[:2] == gray.shape:
        tint = colour[y0:y1, x0:x1].astype(np.float32)
        if config.blur > 0.0:
            tint = np.asarray(cv2.GaussianBlur(tint, (0, 0), config.blur), np.float32)
        sampled = np.asarray(cv2.remap(tint, xs, ys, cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE), np.float32)
        medians = np.median(sampled, axis=1)
        colours = tuple((round(float(b), 1), round(float(g), 1), round(float(r), 1))
                        for b, g, r in medians)
    return BandProfile(tuple(round(float(v), 2) for v in levels), toward * reach,
                       nx * away[0] + ny * away[1], colours)


OFFSETS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
"""The default distances past a flat die's silhouette that :func:`band_features` reads
(die edges): a tilt of 12-35 degrees shows a band 0.2-0.57 wide."""
FEATURES_PER_OFFSET = 3
"""What :func:`band_features` gives at each offset (signed, magnitude, slope)."""


@dataclass(frozen=True, slots=True)
class BandModelConfig:
    """The features :func:`band_features` takes from a profile and the logistic
    regression :func:`band_score` weighs them with (fitted by
    ``bench/pose_band_fit.py``)."""

    weights: tuple[float, ...]
    """One weight per feature of :func:`band_features`."""
    bias: float
    threshold: float
    """Least log-odds that calls a die cocked that no bound called."""
    top: float = 0.4
    """Where the top face's own level is read (die edges from the centre): inside its
    edge, outside a six's or a four's pip rows (0.25 from the centre, 0.08 wide)."""
    edge: float = 0.575
    """Where a flat die's top face edge shows (``OutlineConfig.top_edge``)."""
    offsets: tuple[float, ...] = OFFSETS
    """The distances past a flat die's silhouette (its top edge and the perspective
    allowance) at which how unlike the board the profile is becomes a feature."""
    board: tuple[float, float] = (0.75, 0.95)
    """Past a flat die's silhouette, the span whose median is the board's level: past
    a 35-degree die's band (0.57) and its rounded edge."""
    least_contrast: float = 12.0
    """Grey levels: the top face's contrast to the board is taken as at least this."""
    clip: float = 2.0
    """Each feature clipped to this (a checker beyond the die, a glint)."""

    def __post_init__(self) -> None:
        if len(self.weights) != FEATURES_PER_OFFSET * len(self.offsets) + 1:
            raise ConfigError(f"dice band model: "
                              f"{FEATURES_PER_OFFSET * len(self.offsets) + 1} weights "
                              f"(three per offset and the allowance), not {len(self.weights)}")


FITTED = BandModelConfig(
    weights=(0.071, 0.339, 0.158, 0.063, 0.055, -0.039, -0.11, -0.161, -0.114, -0.248,
             -0.105, -0.004, 0.084, 0.075, 0.024, 0.07, 0.044, 0.116, 0.12, -0.101,
             -0.536, 0.295, 0.373, 0.338, 0.419, 0.238, 0.309, 0.131, 0.172, 0.011, 0.21),
    bias=0.195, threshold=4.439)
"""The model ``bench/pose_band_fit.py fit c62.jsonl c63.jsonl --l2 10 --margin 0.5``
fitted on the readings of ``collect --seed 62`` and ``--seed 63`` (150 cocked-die
scenes each, tuned styles only, read as the pipeline reads them, each die with its
support and as if it had some within five die edges): every reading with profiles (353
cocked, 132 flat), its threshold 0.5 above the highest flat die the other cues call
flat there (3.94, a match-dark two as if supported).  Not on by default
(``PoseConfig.band`` None): on seeds 64-65 (never fitted on) it called 2 more of 227
cocked dice cocked and no flat die more (highest flat 3.38), on seeds 66-67 no cocked
die more of 219 and one flat die of 182, read as if supported, more (a black five,
4.99)."""


def band_features(profile: BandProfile, model: BandModelConfig,
                  config: BandProfileConfig = BandProfileConfig()) -> tuple[float, ...]:
    """For each of ``model.offsets`` past a flat die's silhouette on the profile's side
    (its top edge and the perspective allowance): how far from the board's level the
    profile is there, in units of the top face's contrast to the board, signed (toward
    the top face's level positive); the same's magnitude; the profile's slope there
    (grey levels a die edge, over the steepest slope at the top face's edge, 0.45-0.7
    die edges out); and the perspective allowance itself (die edges)."""
    distances = config.distances
    levels = np.asarray(profile.levels, np.float64)
    silhouette = model.edge + profile.allowance

    def at(d: float) -> float:
        return float(np.interp(d, distances, levels))

    top = at(model.top)
    span = (distances >= silhouette + model.board[0]) & (distances <= silhouette + model.board[1])
    board = float(np.median(levels[span])) if span.any() else float(np.median(levels[-3:]))
    contrast = top - board
    scale = math.copysign(max(abs(contrast), model.least_contrast), contrast if contrast else 1.0)
    signed = [float(np.clip((at(silhouette + o) - board) / scale, -model.clip, model.clip))
              for o in model.offsets]
    h = config.step
    edge = max([abs(at(d + h) - at(d - h)) for d in np.arange(0.45, 0.7 + h / 2.0, h / 2.0)]
               + [model.least_contrast * 2.0 * h])
    slopes = [float(np.clip(abs(at(silhouette + o + h) - at(silhouette + o - h)) / edge,
                            0.0, model.clip)) for o in model.offsets]
    return (*signed, *(abs(s) for s in signed), *slopes, profile.allowance)


def band_score(profiles: Sequence[BandProfile], model: BandModelConfig,
               config: BandProfileConfig = BandProfileConfig()) -> float:
    """The highest log-odds over ``profiles`` (one per support the die may lean on) that
    the die is cocked; -inf for none."""
    best = -math.inf
    for profile in profiles:
        features = band_features(profile, model, config)
        best = max(best, model.bias + sum(w * f for w, f in zip(model.weights, features,
                                                                  strict=True)))
    return best
