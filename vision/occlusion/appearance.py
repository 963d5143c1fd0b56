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
"""

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
    width, height = size
    labels = np.zeros((height, width), dtype=np.uint8)
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
            cv2.fillPoly(labels, [np.round(triangle * 16).astype(np.int32)], surface,
                         cv2.LINE_8, 4)
    return labels


def weighted_lab(field: Image, config: AppearanceConfig) -> Floats:
    """The rectified field in Lab, lightness scaled by ``config.lightness_weight``."""
    lab = cv2.cvtColor(field, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= config.lightness_weight
    return lab


def _band(labels: npt.NDArray[np.uint8], config: AppearanceConfig) -> tuple[Mask, int]:
    """Pixels near a border between surfaces, and the band's kernel size."""
    k = max(3, 2 * round(config.edge_band * labels.shape[1]) + 1)
    kernel = np.ones((k, k), dtype=np.uint8)
    grown = cv2.dilate(labels, kernel)
    shrunk = cv2.erode(labels, kernel)
    return np.asarray(grown != shrunk), k


def learn_appearance(lab: Floats, labels: npt.NDArray[np.uint8], ignore: Mask,
                     config: AppearanceConfig | None = None) -> FieldAppearance:
    """Surface colours from one frame; ``ignore`` marks checkers and anything else to skip.

    Point colours are the median over triangles of each triangle's median, so one
    triangle covered by a hand moves its class colour little.
    """
    config = config or AppearanceConfig()
    band, _ = _band(labels, config)
    usable = ~band & ~ignore
    colours: list[tuple[float, float, float]] = []
    for surface in range(SURFACES):
        if surface in (POINT_A, POINT_B):
            colour = _point_colour(lab, labels, usable, surface, config)
        else:
            colour = _median(lab[(labels == surface) & usable])
        if colour is None:
            colour = _median(lab[labels == surface])
        if colour is None:
            raise VisionError(f"surface {surface} has no pixels in the rectified field")
        colours.append(colour)
    return FieldAppearance(tuple(colours))


def _point_colour(lab: Floats, labels: npt.NDArray[np.uint8], usable: Mask, surface: int,
                  config: AppearanceConfig) -> tuple[float, float, float] | None:
    mask = ((labels == surface) & usable).astype(np.uint8)
    count, components = cv2.connectedComponents(mask, connectivity=4)
    medians = []
    for index in range(1, count):
        pixels = lab[components == index]
        if len(pixels) >= config.min_pixels:
            medians.append(np.median(pixels, axis=0))
    if not medians:
        return None
    return _median(np.array(medians, dtype=np.float32))


def _median(pixels: Floats) -> tuple[float, float, float] | None:
    if len(pixels) == 0:
        return None
    m = np.median(pixels, axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


def explained(lab: Floats, labels: npt.NDArray[np.uint8], appearance: FieldAppearance,
              config: AppearanceConfig | None = None) -> Mask:
    """Pixels whose colour their surface (or, at a border, a neighbour or a blend) explains."""
    config = config or AppearanceConfig()
    colours = np.array(appearance.colours, dtype=np.float32)
    distance = np.stack([np.linalg.norm(lab - colours[s], axis=2) for s in range(SURFACES)])
    own = np.take_along_axis(distance, labels[None].astype(np.intp), axis=0)[0]
    result = own <= config.tolerance
    band, k = _band(labels, config)
    kernel = np.ones((k, k), dtype=np.uint8)
    near = [np.asarray(cv2.dilate((labels == s).astype(np.uint8), kernel) > 0)
            for s in range(SURFACES)]
    for s in range(SURFACES):
        result |= band & near[s] & (distance[s] <= config.tolerance)
    return np.asarray(result, dtype=np.bool_)

