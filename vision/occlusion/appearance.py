"""What an empty field looks like, learned from the image itself.

A backgammon field has only a few surfaces: the field colour, the two
alternating point colours and the bar.  Every board differs (cream and red
and black, green and white, wood), so nothing is hard-wired: the colour of
each surface is the median over the pixels the profile's geometry says
belong to it, with the detected checkers masked out.  Medians over whole
surfaces survive a hand that covers less than about half of one; a stream
learns the colours once from a clear frame and keeps them (see
:class:`~vision.occlusion.tracker.OcclusionTracker`).

A pixel is *explained* when it has the colour its surface should have, or,
within a few pixels of a border between surfaces, the colour of the
neighbour (the geometry is off by a pixel or two; the slivers of blended
colour left along edges are removed later by a morphological opening).
Whatever is left unexplained inside the field is a candidate hand.

Speed: everything that depends only on the board's geometry (the surface of
each pixel, the border bands, which surfaces may explain each pixel, which
point triangle each pixel belongs to) is computed once per profile and
image size (:func:`surface_geometry`, cached); the medians are read off
per-channel histograms of the 8-bit Lab image (exact, and a few bincounts
instead of sorting every surface's pixels); and the distances of every
pixel to the four colours come out of one matrix product per frame.
"""

import functools
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float32]

FIELD: Final = 0
POINT_A: Final = 1
"""The colour of the top-left point (physical point 12) and every second point from it."""
POINT_B: Final = 2
BAR: Final = 3
SURFACES: Final = 4


@dataclass(frozen=True, slots=True)
class AppearanceConfig:
    """Thresholds of the surface model (distances in weighted Lab units)."""

    lightness_weight: float = 0.5
    """Lab L is scaled by this before distances: shading and vignetting change lightness
    far more than hue, so lightness differences count half."""
    tolerance: float = 20.0
    """A pixel within this distance of its surface's colour is explained.  The surfaces of
    the real tournament board are 30 or more apart, skin and sleeves 25 or more from all."""
    edge_band: float = 0.005
    """Half-width of the band along surface borders where a neighbour's colour explains a
    pixel, as a fraction of the field width (2 px at 400 px).  No blends of two colours:
    skin and pink sleeves *are* blends of cream and red, and a wider band or blends
    explained away most of a motion-blurred hand on the real frames."""
    min_pixels: int = 40
    """A point triangle needs this many visible pixels to vote for its class colour."""


@dataclass(frozen=True, slots=True)
class FieldAppearance:
    """The weighted-Lab colour of each surface: field, point class A, point class B, bar."""

    colours: tuple[tuple[float, float, float], ...]

    def __post_init__(self) -> None:
        if len(self.colours) != SURFACES:
            raise VisionError(f"a field appearance has {SURFACES} colours, "
                              f"not {len(self.colours)}")


def surface_labels(profile: BoardProfile, size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """The surface of every pixel of a rectified field image of ``size`` (width, height).

    Points alternate in colour along a row, and the point opposite has the other
    colour, so class A holds top column ``k`` for even ``k`` and bottom column ``k``
    for odd ``k`` (columns counted from the left).
    """
    return _surfaces(profile, size)[0].copy()


def _surfaces(profile: BoardProfile,
              size: tuple[int, int]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16]]:
    """The surface labels and the triangle map (0-23, -1 off the points), drawn together so
    they agree pixel for pixel."""
    width, height = size
    labels = np.zeros((height, width), dtype=np.uint8)
    triangles = np.full((height, width), -1, dtype=np.int16)
    left_end, right_start = profile.bar_span
    labels[:, round(left_end * width):round(right_start * width)] = BAR
    pw = profile.point_width
    for row in (0, 1):
        for k in range(12):
            u0 = k * pw if k < 6 else right_start + (k - 6) * pw
            uc = u0 + pw / 2.0
            base = float(row)
            tip = profile.point_length if row == 0 else 1.0 - profile.point_length
            triangle = np.array([(u0 * width, base * height), ((u0 + pw) * width, base * height),
                                 (uc * width, tip * height)], dtype=np.float64)
            surface = POINT_A if (k + row) % 2 == 0 else POINT_B
            polygon = [np.round(triangle * 16).astype(np.int32)]
            cv2.fillPoly(labels, polygon, surface, cv2.LINE_8, 4)
            cv2.fillPoly(triangles, polygon, 12 * row + k, cv2.LINE_8, 4)
    return labels, triangles


@dataclass(frozen=True)
class SurfaceGeometry:
    """Everything about a rectified field's surfaces that does not change between frames."""

    labels: npt.NDArray[np.uint8]
    """The surface of every pixel (:func:`surface_labels`)."""
    band: Mask
    """Pixels within ``edge_band`` of a border between surfaces."""
    allowed: npt.NDArray[np.uint8]
    """H x W x 4, 1 where a surface's colour explains the pixel: its own surface, and at a
    border the neighbours' too."""
    groups: npt.NDArray[np.intp]
    """The colour group of every pixel: 0 field, 1 bar, 2 + t for point triangle t."""


GROUPS: Final = 26
"""Colour groups: the field, the bar and the 24 point triangles."""


@functools.lru_cache(maxsize=16)
def surface_geometry(profile: BoardProfile, size: tuple[int, int],
                     config: AppearanceConfig) -> SurfaceGeometry:
    """The geometry of a rectified field of ``size`` (width, height), cached: the caller
    must not write into its arrays."""
    labels, triangles = _surfaces(profile, size)
    band, k = _band(labels, config)
    kernel = np.ones((k, k), dtype=np.uint8)
    allowed = np.zeros((*labels.shape, SURFACES), dtype=np.uint8)
    for s in range(SURFACES):
        near = np.asarray(cv2.dilate((labels == s).astype(np.uint8), kernel) > 0)
        allowed[..., s] = (labels == s) | (band & near)
    groups = np.where(labels == BAR, 1, 0).astype(np.intp)
    groups[triangles >= 0] = 2 + triangles[triangles >= 0]
    geometry = SurfaceGeometry(labels, band, allowed, groups)
    for array in (labels, band, allowed, groups):
        array.flags.writeable = False
    return geometry


def lab8(field: Image) -> Image:
    """The rectified field in 8-bit Lab (OpenCV's scaling: L 0-255, a and b offset by 128)."""
    return np.asarray(cv2.cvtColor(field, cv2.COLOR_BGR2LAB), dtype=np.uint8)


def weighted_lab(field: Image, config: AppearanceConfig) -> Floats:
    """The rectified field in Lab, lightness scaled by ``config.lightness_weight``."""
    return weighted(lab8(field), config)


def weighted(lab: Image, config: AppearanceConfig) -> Floats:
    """8-bit Lab as floats with lightness scaled by ``config.lightness_weight``."""
    out = lab.astype(np.float32)
    out[..., 0] *= config.lightness_weight
    return out


def _band(labels: npt.NDArray[np.uint8], config: AppearanceConfig) -> tuple[Mask, int]:
    """Pixels near a border between surfaces, and the band's kernel size."""
    k = max(3, 2 * round(config.edge_band * labels.shape[1]) + 1)
    kernel = np.ones((k, k), dtype=np.uint8)
    grown = cv2.dilate(labels, kernel)
    shrunk = cv2.erode(labels, kernel)
    return np.asarray(grown != shrunk), k


def learn_appearance(lab: Image, geometry: SurfaceGeometry, ignore: Mask,
                     config: AppearanceConfig | None = None) -> FieldAppearance:
    """Surface colours from one frame (8-bit Lab); ``ignore`` marks checkers and anything
    else to skip.

    The field and the bar are the medians of their pixels off the border bands.  Point
    colours are the median over triangles of each triangle's median, so one triangle
    covered by a hand moves its class colour little; a triangle votes when at least
    ``min_pixels`` of it are usable.
    """
    config = config or AppearanceConfig()
    usable = ~geometry.band & ~ignore
    medians, counts = _group_medians(lab, np.where(usable, geometry.groups, GROUPS), GROUPS)
    colours: list[tuple[float, float, float] | None] = [None] * SURFACES
    for surface, group in ((FIELD, 0), (BAR, 1)):
        if counts[group] > 0:
            colours[surface] = _weighted(medians[group], config)
    for surface, parity in ((POINT_A, 0), (POINT_B, 1)):
        votes = [medians[2 + t] for t in range(24)
                 if (t // 12 + t % 12) % 2 == parity and counts[2 + t] >= config.min_pixels]
        if votes:
            colours[surface] = _weighted(np.median(np.array(votes), axis=0), config)
    missing = [s for s in range(SURFACES) if colours[s] is None]
    if missing:  # a surface hidden entirely: the median of all its pixels, hidden or not
        every, every_count = _group_medians(lab, geometry.labels.astype(np.intp), SURFACES)
        for s in missing:
            if every_count[s] == 0:
                raise VisionError(f"surface {s} has no pixels in the rectified field")
            colours[s] = _weighted(every[s], config)
    return FieldAppearance(tuple(c for c in colours if c is not None))


def _weighted(median: npt.NDArray[np.float64],
              config: AppearanceConfig) -> tuple[float, float, float]:
    return (float(median[0]) * config.lightness_weight, float(median[1]), float(median[2]))


def _group_medians(lab: Image, groups: npt.NDArray[np.intp],
                   count: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per-channel medians of the pixels of each group 0..count-1 (pixels of group
    ``count`` and above are left out), as :func:`numpy.median` gives them (the mean of
    the two middle values for an even number), from 256-bin histograms."""
    base = groups.ravel() * 256
    histograms = np.stack([np.bincount(base + lab[..., channel].ravel(),
                                       minlength=(count + 1) * 256)[:count * 256]
                           for channel in range(3)])
    cumulative = histograms.reshape(3, count, 256).cumsum(axis=2)
    sizes = cumulative[0, :, -1]
    low = np.count_nonzero(cumulative <= ((sizes - 1) // 2)[None, :, None], axis=2)
    high = np.count_nonzero(cumulative <= (sizes // 2)[None, :, None], axis=2)
    return ((low + high) / 2.0).T, sizes


def explained(lab: Floats, geometry: SurfaceGeometry, appearance: FieldAppearance,
              config: AppearanceConfig | None = None) -> Mask:
    """Pixels (weighted Lab) whose colour their surface, or at a border a neighbour's,
    explains.

    The squared distance to each colour c is |x|^2 - 2 x.c + |c|^2: one product of the
    image with a 4x4 matrix gives the last two terms for all four colours at once.
    """
    config = config or AppearanceConfig()
    colours = np.array(appearance.colours, dtype=np.float32)
    affine = np.hstack([-2.0 * colours, (colours**2).sum(axis=1, keepdims=True)])
    cross = np.asarray(cv2.transform(lab, affine.astype(np.float32)), dtype=np.float32)
    norm = np.asarray(cv2.transform(lab * lab, np.ones((1, 3), np.float32)), dtype=np.float32)
    limit = np.float32(config.tolerance**2) - norm
    within = cross <= limit[..., None]
    hit = np.bitwise_and(within.view(np.uint8), geometry.allowed, out=within.view(np.uint8))
    return np.asarray(hit.view(np.uint32)[..., 0] != 0)
