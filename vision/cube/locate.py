"""Finding the doubling cube: a square of its own colour, on or beside the field.

The cube may sit on the bar, anywhere on the field, on a rail or (on the real
tournament frames) beside the field, so the search covers the field and a
margin around it, rectified so the cube's top face is (nearly) a square of
known size whatever the camera's perspective.

Candidates are the regions that edges enclose: Canny edges of the three Lab
channels at a few blurs and thresholds (a face's lettering can split it at
one blur and not at another), and the pixels no edge touches grouped into
regions.  A cube face is the region that is *square*: its convex hull fills
its tightest rectangle (a checker's disc fills 79 %, clipped discs up to 88 %,
a face 93 % or more even with lettering cut out of it), its sides are nearly
equal, and its side is a cube's, bigger than a die and smaller than a checker.
Regions found at several settings are the same face; the most square wins.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ConfigError
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class LocateConfig:
    """Thresholds of the cube search (sizes as fractions of the field width)."""

    width: int = 640
    """Field width in the rectified search image (pixels)."""
    margin: float = 0.14
    """The search reaches this far beyond the field on every side (rails, beside the board),
    in field units; the trays of the real board start at 0.04 and end at 0.13."""
    min_side: float = 0.035
    max_side: float = 0.09
    """Side of the cube's top face; a die is 0.027 on the real board, a checker 0.075,
    the real cube's face 0.045 inside its rim and 0.062 with it."""
    max_aspect: float = 1.25
    """Longer side over shorter side of the face's rectangle."""
    min_fill: float = 0.92
    """Convex hull area over rectangle area: square faces 0.93-1.0, discs at most 0.88."""
    blurs: tuple[float, ...] = (1.0, 1.6, 2.2)
    """Gaussian sigmas before edge detection (pixels of the search image)."""
    canny_low: tuple[float, ...] = (20.0, 40.0)
    """Canny's low thresholds; the high one is 2.5 times the low."""

    def __post_init__(self) -> None:
        if self.width < 160:
            raise ConfigError(f"cube: width of at least 160 pixels, not {self.width}")
        if not 0.0 < self.min_side < self.max_side < 0.5:
            raise ConfigError("cube: 0 < min_side < max_side < 0.5")
        if self.max_aspect < 1.0 or not 0.0 < self.min_fill <= 1.0:
            raise ConfigError("cube: max_aspect of at least 1, min_fill in (0, 1]")
        if not self.blurs or not self.canny_low:
            raise ConfigError("cube: at least one blur and one Canny threshold")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A square region of the search image."""

    centre: tuple[float, float]
    """In search-image pixels."""
    size: tuple[float, float]
    angle: float
    """As :func:`cv2.minAreaRect` reports them."""
    fill: float
    aspect: float

    @property
    def side(self) -> float:
        return (self.size[0] + self.size[1]) / 2.0

    @property
    def quality(self) -> float:
        """How square: fill, less the excess of the aspect ratio."""
        return self.fill - (self.aspect - 1.0)


@dataclass(frozen=True)
class SearchImage:
    """The field and its surroundings, rectified: field (u, v) <-> search pixels."""

    image: Image
    to_search: Matrix
    """3x3: camera pixel -> search pixel."""
    field_size: tuple[int, int]
    margin: float

    def field_point(self, x: float, y: float) -> tuple[float, float]:
        """(u, v) of a search-image pixel."""
        w, h = self.field_size
        return x / w - self.margin, y / h - self.margin

    def camera_point(self, x: float, y: float) -> tuple[float, float]:
        """The camera pixel of a search-image pixel."""
        px, py, pw = np.linalg.inv(self.to_search) @ np.array([x, y, 1.0])
        return float(px / pw), float(py / pw)


def search_image(frame: Image, field_map: FieldMap, profile: BoardProfile,
                 config: LocateConfig) -> SearchImage:
    """The field plus ``config.margin`` on each side, warped upright."""
    fw, fh = profile.rectified_size(config.width)
    m = config.margin
    size = (round(fw * (1 + 2 * m)), round(fh * (1 + 2 * m)))
    scale = np.array([[fw, 0.0, m * fw], [0.0, fh, m * fh], [0.0, 0.0, 1.0]])
    matrix = scale @ field_map.to_field
    image = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
    return SearchImage(np.asarray(image, dtype=np.uint8), matrix, (fw, fh), m)


def find_candidates(image: Image, config: LocateConfig) -> list[Candidate]:
    """Square regions of cube size, every blur and threshold, the most square first."""
    found: list[Candidate] = []
    for sigma in config.blurs:
        lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), sigma), cv2.COLOR_BGR2LAB)
        for low in config.canny_low:
            edges = np.zeros(image.shape[:2], dtype=np.uint8)
            for channel in range(3):
                edges |= np.asarray(cv2.Canny(lab[..., channel], low, 2.5 * low), dtype=np.uint8)
            grown = np.asarray(cv2.dilate(edges, np.ones((3, 3), np.uint8)), dtype=np.uint8)
            found.extend(_square_regions(grown, config))
    return sorted(found, key=lambda c: -c.quality)


def _square_regions(edges: Image, config: LocateConfig) -> list[Candidate]:
    smin, smax = config.min_side * config.width, config.max_side * config.width
    count, components, stats, _ = cv2.connectedComponentsWithStats(
        (edges == 0).astype(np.uint8), connectivity=4)
    out = []
    for index in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[index])
        if area < (0.6 * smin) ** 2 or max(w, h) > 1.5 * smax:
            continue
        ys, xs = np.nonzero(components[y:y + h, x:x + w] == index)
        points = np.column_stack([xs + x, ys + y]).astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        side = (rw + rh) / 2.0 + 2.0  # the dilation ate a pixel on each side
        if not smin <= side <= smax or min(rw, rh) <= 0.0:
            continue
        aspect = max(rw, rh) / min(rw, rh)
        fill = float(cv2.contourArea(cv2.convexHull(points))) / (rw * rh)
        if aspect <= config.max_aspect and fill >= config.min_fill:
            out.append(Candidate((float(cx), float(cy)), (float(rw) + 2.0, float(rh) + 2.0),
                                 float(angle), fill, aspect))
    return out


def face_image(image: Image, candidate: Candidate, size: int = 64) -> Image:
    """The candidate's region cut out and turned so its sides are upright (grey)."""
    box = cv2.boxPoints((candidate.centre, candidate.size, candidate.angle))
    # boxPoints: corners in order; map them to a square keeping their order.
    target = np.array([[0, size - 1], [0, 0], [size - 1, 0], [size - 1, size - 1]],
                      dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(box, dtype=np.float32), target)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.warpPerspective(gray, matrix, (size, size),
                                          flags=cv2.INTER_LINEAR), dtype=np.uint8)
