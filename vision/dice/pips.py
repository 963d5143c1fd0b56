"""Pip candidates: small round blobs that contrast with the face around them.

A pip is the one thing every die style shares: black dots on a white die,
white dots on a black or red one, dots on a die the colour of a checker.
So this stage looks for blobs of one *polarity* (darker or lighter than
their surround) without caring about colours.  Blobs come from adaptive
thresholds at a few neighbourhood sizes, one per octave of pip size, so a
3-pixel pip on a board frame and a 15-pixel pip in a close-up are both
found; each blob is then kept only if it is round, convex, and really
contrasts with a ring of face around it.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ConfigError

Gray = npt.NDArray[np.uint8]
Polarity = Literal["dark", "light"]
Outline = cv2.typing.MatLike
"""An outline as :func:`cv2.findContours` gives it (its points, int32)."""


@dataclass(frozen=True, slots=True)
class PipConfig:
    """Thresholds of the pip finder (pixel sizes are of the image searched)."""

    min_diameter: float = 3.0
    """Smallest pip, in pixels (a 3-4 px pip is the board frame's worst case)."""
    max_diameter: float = 24.0
    """Largest pip, in pixels."""
    octaves_to: float | None = None
    """The threshold passes (one per octave of pip size) are run for pips up to this
    size, None for ``max_diameter``; a blob up to ``max_diameter`` the top pass finds
    is still kept.  Each pass finds blobs from half to twice its size, so a cap between
    passes can leave the top one's biggest blobs to be kept or not at no cost: the board
    stage's second reading of a window runs two passes (up to 13.5 pixels) but keeps
    pips up to 16 (``BoardDiceConfig.retry_max_pip`` in :mod:`.board`)."""
    block_factor: float = 3.0
    """Adaptive-threshold neighbourhood as a multiple of the pip diameter: big
    enough to see face around the pip, small enough to follow shading."""
    offset: float = 12.0
    """Grey levels a pixel must differ from its neighbourhood mean to be pip."""
    split_offset: float | None = None
    """A second pass at this (larger) offset, None for none: blur fills the gaps
    between close pips (a six's rows on a small die) to within ``offset`` of the
    mean, and the row is then one long blob, no pip; a stricter threshold cuts
    it at the gaps.  Blobs found by both passes are merged."""
    min_circularity: float = 0.55
    """4 pi area / perimeter^2: rejects wood grain, scratches, letters."""
    min_convexity: float = 0.85
    """Area over convex-hull area: rejects blobs merged with a face edge."""
    min_axis_ratio: float = 0.3
    """Minor over major ellipse axis: side-face pips are seen at a slant, so
    this is lenient; the face grouping tells top from side pips."""
    min_contrast: float = 35.0
    """Grey levels between the blob's inside and the ring of face around it."""
    max_ring_spread: float = 0.9
    """Spread (interquartile range) of the ring over the contrast: a pip sits
    on a flat, even face; a dark gap between two bright things does not."""

    def __post_init__(self) -> None:
        if not 1.0 <= self.min_diameter < self.max_diameter:
            raise ConfigError("pip diameters: 1 <= min_diameter < max_diameter")
        if self.block_factor < 1.5:
            raise ConfigError("pip block_factor must be at least 1.5")
        if self.octaves_to is not None and not (
                self.min_diameter < self.octaves_to <= self.max_diameter):
            raise ConfigError("pip octaves_to: min_diameter < octaves_to <= max_diameter")


@dataclass(frozen=True, slots=True)
class Pip:
    """One pip candidate, in the pixels of the image searched."""

    x: float
    y: float
    diameter: float
    """Diameter of the circle of the same area."""
    major: float
    minor: float
    angle: float
    """Direction of the short (minor) axis in degrees, 0-180 (OpenCV's ellipse angle of
    its first axis, turned a quarter when that axis is the long one)."""
    contrast: float
    """Ring minus inside, in grey levels, signed by polarity (always positive)."""
    face: float
    """Grey level of the face around the pip."""
    roundness: float = 1.0
    """4 pi area / perimeter^2 of the outline (1 for a perfect disc)."""

    @property
    def x_y(self) -> tuple[float, float]:
        """The centre (x, y)."""
        return self.x, self.y

    @property
    def ratio(self) -> float:
        """Minor over major axis: 1 for a pip seen square-on."""
        return self.minor / self.major if self.major > 0 else 0.0


def find_pips(gray: Gray, polarity: Polarity, config: PipConfig = PipConfig()) -> list[Pip]:
    """Every pip candidate of one polarity, largest first, duplicates merged."""
    return PipSearch(gray).find(polarity, config)


class PipSearch:
    """The pip search of one grey image, remembering what it has done: a reading of a
    window looks at the same image several times (the first offset, then the split
    offset, then bigger pips, then the whole layout off the field), and each time the
    threshold passes it shares with an earlier search give the same blobs, each of which
    passes or fails the same tests.  :meth:`find` gives exactly what :func:`find_pips`
    gives; only the work already done is not done again (a real 1280x720 frame's dice
    windows ran about 47 threshold passes, 21 of them repeats)."""

    def __init__(self, gray: Gray) -> None:
        if gray.ndim != 2 or gray.dtype != np.uint8:
            raise ValueError("find_pips wants a 2-D uint8 grey image")
        self.gray = gray
        self._images: dict[Polarity, Gray] = {}
        self._passes: dict[tuple[Polarity, int, float], _Pass] = {}

    def find(self, polarity: Polarity, config: PipConfig = PipConfig()) -> list[Pip]:
        """Every pip candidate of one polarity, largest first, duplicates merged."""
        image = self._image(polarity)
        found: list[Pip] = []
        offsets = [config.offset] if config.split_offset is None else [config.offset,
                                                                        config.split_offset]
        top = config.max_diameter if config.octaves_to is None else config.octaves_to
        for diameter in _octaves(config.min_diameter, top):
            block = max(3, round(config.block_factor * diameter) | 1)
            lo, hi = diameter / 2.0, diameter * 2.0
            for offset in offsets:
                key = (polarity, block, offset)
                threshold_pass = self._passes.get(key)
                if threshold_pass is None:
                    threshold_pass = self._passes[key] = _Pass(image, block, offset)
                found.extend(threshold_pass.pips(image, max(lo, config.min_diameter * 0.8),
                                                 min(hi, config.max_diameter), config))
        return _merge(found)

    def _image(self, polarity: Polarity) -> Gray:
        image = self._images.get(polarity)
        if image is None:
            image = self.gray if polarity == "dark" else np.asarray(
                cv2.bitwise_not(self.gray), np.uint8)
            self._images[polarity] = image
        return image


class _Pass:
    """One adaptive-threshold pass over an image: its outlines with each one's size,
    measured once, and each one's tests as they are made (a later search with other size
    bounds or thresholds of the same pass measures nothing twice)."""

    def __init__(self, image: Gray, block: int, offset: float) -> None:
        mask = cv2.adaptiveThreshold(image, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                     cv2.THRESH_BINARY_INV, block, offset)
        contours: Sequence[Outline] = cv2.findContours(
            mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0]
        # each outline of five points or more (fitEllipse needs five) with its area and
        # the diameter of the disc of that area, measured once
        self.outlines: list[tuple[int, Outline, float, float]] = []
        for i, contour in enumerate(contours):
            if len(contour) >= 5:
                area = float(cv2.contourArea(contour))
                self.outlines.append((i, contour, area, math.sqrt(4.0 * area / math.pi)))
        self.shapes: dict[tuple[float, ...], dict[int, Pip | None]] = {}

    def pips(self, image: Gray, least: float, most: float, config: PipConfig) -> list[Pip]:
        """The pips among the outlines of a diameter from ``least`` to ``most``, in the
        outlines' order."""
        shapes = self.shapes.setdefault(_shape_tests(config), {})
        out: list[Pip] = []
        for i, contour, area, diameter in self.outlines:
            if not least <= diameter <= most:
                continue
            pip = shapes[i] if i in shapes else shapes.setdefault(
                i, _pip(image, contour, area, diameter, config))
            if pip is not None:
                out.append(pip)
        return out


def _shape_tests(config: PipConfig) -> tuple[float, ...]:
    """The fields of ``config`` the tests of one outline's shape and contrast read
    (:func:`_pip`): outlines tested under two configs alike there pass alike."""
    return (config.min_circularity, config.min_convexity, config.min_axis_ratio,
            config.min_contrast, config.max_ring_spread)


def _octaves(lo: float, hi: float) -> list[float]:
    """Pip sizes one octave apart covering [lo, hi]: each threshold pass finds
    blobs from half to twice its size."""
    sizes = [lo * 1.4]
    while sizes[-1] * 1.4 < hi:
        sizes.append(sizes[-1] * 2.0)
    return sizes


def _pip(image: Gray, contour: Outline, area: float, diameter: float,
         config: PipConfig) -> Pip | None:
    """The pip an outline of the size wanted is, or None: round, convex, not too slanted,
    and contrasting with an even ring of face around it (the tests are independent)."""
    perimeter = float(cv2.arcLength(contour, True))
    roundness = 4.0 * np.pi * area / perimeter**2 if perimeter > 0 else 0.0
    if roundness < config.min_circularity:
        return None
    hull = float(cv2.contourArea(cv2.convexHull(contour)))
    if hull <= 0 or area / hull < config.min_convexity:
        return None
    (cx, cy), axes, angle = cv2.fitEllipse(contour)
    major, minor = max(axes), min(axes)
    if major <= 0 or minor / major < config.min_axis_ratio:
        return None
    inside, ring = _inside_and_ring(image, (float(cx), float(cy)),
                                    (float(axes[0]), float(axes[1])), float(angle))
    if inside is None or ring is None:
        return None
    ring = np.sort(ring)
    face = _quantile(ring, 0.5)
    contrast = face - _quantile(np.sort(inside), 0.5)
    if contrast < config.min_contrast:
        return None
    if _quantile(ring, 0.75) - _quantile(ring, 0.25) > config.max_ring_spread * contrast:
        return None
    if axes[0] > axes[1]:  # the angle given is the long axis's: the short one's instead
        angle = (angle + 90.0) % 180.0
    return Pip(float(cx), float(cy), diameter, float(major), float(minor), float(angle),
               contrast, face, float(roundness))


def _quantile(ordered: npt.NDArray[np.uint8], q: float) -> float:
    """The ``q`` quantile of a sorted array, interpolated linearly as :func:`numpy.percentile`
    and :func:`numpy.median` do (one sort serves the median and both quartiles, which the
    numpy calls would each sort again, at several times the cost on these small arrays)."""
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    a, b = float(ordered[low]), float(ordered[high])
    return a + (position - low) * (b - a)


def _inside_and_ring(image: Gray, centre: tuple[float, float], axes: tuple[float, float],
                     angle: float) -> tuple[npt.NDArray[np.uint8] | None,
                                            npt.NDArray[np.uint8] | None]:
    """Grey values well inside the pip's ellipse, and in a ring of face just
    outside it (a gap of a fifth of the pip, then a band half a pip wide)."""
    major = max(axes)
    reach = math.ceil(major * 1.2) + 2
    cx, cy = centre
    x0, y0 = int(cx) - reach, int(cy) - reach
    x1, y1 = int(cx) + reach + 1, int(cy) + reach + 1
    h, w = image.shape
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None, None
    patch = image[y0:y1, x0:x1]
    local = (cx - x0, cy - y0)
    # one mask for each region: the band drawn, then its inner edge cleared (the pixels of
    # the outer ellipse that are not in the inner one), then the inside
    mask = np.zeros(patch.shape, np.uint8)
    cv2.ellipse(mask, (local, _grown(axes, 1.0, 1.0, major), angle), 255, -1)
    cv2.ellipse(mask, (local, _grown(axes, 0.4, 1.0, major), angle), 0, -1)
    ring = patch[mask > 0]
    mask.fill(0)
    cv2.ellipse(mask, (local, _grown(axes, 0.0, 0.6, major), angle), 255, -1)
    inside = patch[mask > 0]
    if inside.size == 0 or ring.size < 4:
        return None, None
    return inside, ring


def _grown(axes: tuple[float, float], grow: float, scale: float,
           major: float) -> tuple[float, float]:
    """An ellipse's axes scaled by ``scale`` and grown by ``grow`` times its major axis."""
    return axes[0] * scale + grow * major, axes[1] * scale + grow * major


def _merge(pips: list[Pip]) -> list[Pip]:
    """One candidate per place: a pip found at two scales keeps its larger,
    better-contrasted outline."""
    pips = sorted(pips, key=lambda p: -(p.contrast * p.diameter))
    kept: list[Pip] = []
    for pip in pips:
        if all((pip.x - k.x) ** 2 + (pip.y - k.y) ** 2 > (0.5 * max(pip.diameter, k.diameter)) ** 2
               for k in kept):
            kept.append(pip)
    return sorted(kept, key=lambda p: -p.diameter)
