"""Finding the doubling cube: a square of its own colour, on or beside the field.

The cube may sit on the bar, anywhere on the field, on a rail or (on the real
tournament frames) beside the field, so the search covers the field and a
margin around it, rectified so the cube's top face is (nearly) a square of
known size whatever the camera's perspective.

Candidates are the regions that edges enclose: the pixels whose colour
gradient (the largest 3x3 morphological gradient of the three colour
channels) stays under a threshold, at a couple of thresholds (a face's
lettering can split it at one and not at another), grouped into regions by
their outlines.  A cube face is the region that is
*square*: its convex hull fills its tightest rectangle (a checker's disc
fills 79 %, clipped discs up to 88 %, a face 93 % or more even with
lettering cut out of it), its sides are nearly equal, and its side is a
cube's, bigger than a die and smaller than a checker.  Regions found at
several settings are the same face; the most square wins.

Speed: the whole search area is looked at coarsely first, in the camera
frame itself shrunk so the field is about ``width`` pixels wide (a resize
costs a fraction of a perspective warp, and a 15-pixel face is still
square under any sensible camera); each outline found there is mapped to
the field's plane before it is measured, with looser limits.  Only the few
best coarse candidates are then cut out of the camera frame at the fine
scale (``fine_width``) and measured again there with the strict limits.  A
region is measured on its outline (``findContours``), not its pixels: the
outline has the same convex hull and the same tightest rectangle.
"""

import functools
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ConfigError
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

_FINE = np.ones((3, 3), dtype=np.uint8)
_COARSE = np.ones((2, 2), dtype=np.uint8)


@dataclass(frozen=True, slots=True)
class LocateConfig:
    """Thresholds of the cube search (sizes as fractions of the field width)."""

    width: int = 320
    """Field width in the coarse search image (pixels; the camera frame is shrunk by the
    whole factor that comes nearest, never enlarged): the real cube's face is 14-20
    pixels there, enough to tell a square from a disc."""
    fine_width: int = 640
    """Field width at which the best coarse candidates are measured again and read."""
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
    coarse_max_aspect: float = 1.4
    coarse_min_fill: float = 0.84
    """The same limits in the coarse image, looser: a 15-pixel face's outline is a
    staircase, and a candidate wrongly kept there is refused at the fine scale."""
    candidates: int = 3
    """How many of the best coarse candidates (in different places) are measured finely."""
    prefer_side: float = 0.045
    """A face measured at least this big wins over a smaller one however square that is.
    Big dice pass ``min_side`` with their bevels and perspective (0.038-0.042 on the
    renders), and a die's top face seen from above is squarer than the cube's on a rail
    seen at a slant: on referee stream seed 0 a die on the field (quality 0.92-0.93) beat
    the cube on the bottom rail (0.054, quality 0.885) in every throw after the cube was
    turned, and the cube was then read as a die off the field.  The renders' cube is
    0.048-0.058, the real cube's face 0.045 inside its rim."""
    patch_reach: float = 0.8
    patch_pad: float = 6.0
    """The fine patch reaches this many coarse sides plus this many fine pixels from the
    coarse centre on every side: room for the coarse side's and centre's errors and for
    the edge around the face, in a patch a third the size of one sized for the largest
    face."""
    blurs: tuple[float, ...] = (0.0,)
    """Gaussian sigmas before the gradient at the fine scale (pixels); 0 for none."""
    edge_thresholds: tuple[float, ...] = (20.0, 36.0)
    """Colour gradient (grey levels across 3 pixels) that makes an edge at the fine scale:
    the lower one closes faint outlines, the higher one keeps lettering from cutting a
    face up."""
    coarse_thresholds: tuple[float, ...] = (24.0,)
    """The same in the coarse image (across 2 pixels): one, since only the fine scale must
    be exact."""

    def __post_init__(self) -> None:
        if self.width < 160 or self.fine_width < self.width:
            raise ConfigError(f"cube: width of at least 160 pixels and fine_width of at least "
                              f"width, not {self.width} and {self.fine_width}")
        if not 0.0 < self.min_side < self.max_side < 0.5:
            raise ConfigError("cube: 0 < min_side < max_side < 0.5")
        if self.max_aspect < 1.0 or not 0.0 < self.min_fill <= 1.0:
            raise ConfigError("cube: max_aspect of at least 1, min_fill in (0, 1]")
        if self.coarse_max_aspect < 1.0 or not 0.0 < self.coarse_min_fill <= 1.0:
            raise ConfigError("cube: coarse_max_aspect of at least 1, coarse_min_fill in (0, 1]")
        if not self.blurs or not self.edge_thresholds or not self.coarse_thresholds or (
                self.candidates < 1):
            raise ConfigError("cube: at least one blur, one edge threshold and one candidate")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A square region of a search image."""

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
    """Part of the field and its surroundings, rectified: field (u, v) <-> search pixels."""

    image: Image
    to_search: Matrix
    """3x3: camera pixel -> search pixel."""
    field_size: tuple[int, int]
    """The whole field's size at this scale (pixels)."""
    origin: tuple[float, float]
    """Field (u, v) of the search image's top-left pixel."""

    def field_point(self, x: float, y: float) -> tuple[float, float]:
        """(u, v) of a search-image pixel."""
        w, h = self.field_size
        return x / w + self.origin[0], y / h + self.origin[1]

    def camera_point(self, x: float, y: float) -> tuple[float, float]:
        """The camera pixel of a search-image pixel."""
        px, py, pw = np.linalg.inv(self.to_search) @ np.array([x, y, 1.0])
        return float(px / pw), float(py / pw)


@dataclass(frozen=True)
class CoarseView:
    """The camera frame around the search area, shrunk."""

    image: Image
    to_field: Matrix
    """3x3: coarse pixel -> pixel of the whole search area rectified at the fine scale
    (field (u, v) = (-margin, -margin) at its origin)."""
    pixels_per_face: tuple[float, float]
    """Least and most coarse pixels per fine pixel over the search area."""


def coarse_view(frame: Image, field_map: FieldMap, profile: BoardProfile,
                config: LocateConfig) -> CoarseView:
    """The bounding box of the search area (the field plus ``config.margin``) in the
    camera frame, shrunk so the field is about ``config.width`` pixels wide."""
    height, width = frame.shape[:2]
    (x0, y0, x1, y1), size, matrix, pixels = _view_geometry(
        field_map.to_field.tobytes(), (width, height), profile, config)
    roi = frame[y0:y1, x0:x1]
    image = roi if size == (x1 - x0, y1 - y0) else cv2.resize(
        roi, size, interpolation=cv2.INTER_AREA)
    return CoarseView(np.asarray(image, dtype=np.uint8), matrix, pixels)


@functools.lru_cache(maxsize=8)
def _view_geometry(to_field: bytes, frame_size: tuple[int, int], profile: BoardProfile,
                   config: LocateConfig) -> tuple[tuple[int, int, int, int], tuple[int, int],
                                                  Matrix, tuple[float, float]]:
    """Where the coarse view lies in the frame, its size, its homography to the fine
    field pixels and its pixels per fine pixel: the same for every frame of a calibration,
    so cached (keyed on the calibration's homography)."""
    forward = np.frombuffer(to_field, dtype=np.float64).reshape(3, 3)
    backward = np.linalg.inv(forward)

    def image_point(u: float, v: float) -> tuple[float, float]:
        x, y, w = backward @ np.array([u, v, 1.0])
        return float(x / w), float(y / w)

    m = config.margin
    fw, fh = profile.rectified_size(config.fine_width)
    corners = np.array([image_point(u, v) for u, v in (
        (-m, -m), (1 + m, -m), (1 + m, 1 + m), (-m, 1 + m))])
    width, height = frame_size
    x0, y0 = (max(0, int(np.floor(c))) for c in corners.min(axis=0))
    x1 = min(width, int(np.ceil(corners[:, 0].max())) + 1)
    y1 = min(height, int(np.ceil(corners[:, 1].max())) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        x0, y0, x1, y1 = 0, 0, width, height
    top = np.hypot(*np.subtract(image_point(1.0, 0.0), image_point(0.0, 0.0)))
    bottom = np.hypot(*np.subtract(image_point(1.0, 1.0), image_point(0.0, 1.0)))
    # shrink by a whole factor (the field between 2/3 and 4/3 of ``config.width``): a
    # resize by a whole factor is an average of pixel blocks, several times cheaper than
    # one by any other factor
    step = max(1, round((top + bottom) / 2.0 / config.width))
    x1 = x0 + (x1 - x0) // step * step
    y1 = y0 + (y1 - y0) // step * step
    size = ((x1 - x0) // step, (y1 - y0) // step)
    sx, sy = size[0] / (x1 - x0), size[1] / (y1 - y0)
    # coarse pixel centre -> camera pixel centre: x = x0 + (xc + 0.5) / sx - 0.5
    to_camera = np.array([[1.0 / sx, 0.0, x0 + 0.5 / sx - 0.5],
                          [0.0, 1.0 / sy, y0 + 0.5 / sy - 0.5], [0.0, 0.0, 1.0]])
    to_fine = np.array([[fw, 0.0, m * fw], [0.0, fh, m * fh], [0.0, 0.0, 1.0]])
    matrix = to_fine @ forward @ to_camera
    matrix.flags.writeable = False
    scales = [_scale(matrix, x, y) for x in (0.0, size[0] / 2.0, float(size[0]))
              for y in (0.0, size[1] / 2.0, float(size[1]))]
    return (x0, y0, x1, y1), size, matrix, (min(scales), max(scales))


def _scale(matrix: Matrix, x: float, y: float) -> float:
    """Coarse pixels per fine pixel at coarse pixel (x, y): the inverse square root of the
    Jacobian determinant of ``matrix`` there."""
    p = matrix @ np.array([x, y, 1.0])
    u, v = p[0] / p[2], p[1] / p[2]
    jacobian = np.array([[matrix[0, 0] - u * matrix[2, 0], matrix[0, 1] - u * matrix[2, 1]],
                         [matrix[1, 0] - v * matrix[2, 0], matrix[1, 1] - v * matrix[2, 1]]])
    return float(1.0 / np.sqrt(max(abs(np.linalg.det(jacobian / p[2])), 1e-12)))


def proposals(view: CoarseView, config: LocateConfig) -> list[Candidate]:
    """Square regions of cube size in the coarse view, measured in the field's plane (fine
    pixels of the whole search area), with the coarse limits; the most square first."""
    fine = config.fine_width
    smin, smax = config.min_side * fine, config.max_side * fine
    low, high = view.pixels_per_face
    strength = _gradient(view.image, _COARSE)
    found: list[Candidate] = []
    for threshold in config.coarse_thresholds:
        free = np.asarray(strength < threshold, dtype=np.uint8)
        found.extend(_square_regions(free, smin, smax, config.coarse_max_aspect,
                                     config.coarse_min_fill, holes=True, eaten=1.0 / low,
                                     to_field=view.to_field, pixels=(low, high)))
    return sorted(found, key=lambda c: -c.quality)


def warp_region(frame: Image, field_map: FieldMap, profile: BoardProfile, width: int,
                low: tuple[float, float], high: tuple[float, float]) -> SearchImage:
    """The field rectangle from ``low`` to ``high`` (u, v), warped upright at a scale
    where the whole field would be ``width`` pixels wide."""
    fw, fh = profile.rectified_size(width)
    size = (max(1, round((high[0] - low[0]) * fw)), max(1, round((high[1] - low[1]) * fh)))
    scale = np.array([[fw, 0.0, -low[0] * fw], [0.0, fh, -low[1] * fh], [0.0, 0.0, 1.0]])
    matrix = scale @ field_map.to_field
    image = cv2.warpPerspective(frame, matrix, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
    return SearchImage(np.asarray(image, dtype=np.uint8), matrix, (fw, fh), low)


def find_candidates(image: Image, config: LocateConfig) -> list[Candidate]:
    """Square regions of cube size in a search image at the fine scale, at every blur and
    threshold, with the strict limits, not touching the image's border; the most square
    first."""
    smin, smax = config.min_side * config.fine_width, config.max_side * config.fine_width
    found: list[Candidate] = []
    for sigma in config.blurs:
        blurred = image if sigma < 0.3 else cv2.GaussianBlur(image, (0, 0), sigma)
        strength = _gradient(np.asarray(blurred, dtype=np.uint8), _FINE)
        for threshold in config.edge_thresholds:
            free = np.asarray(strength < threshold, dtype=np.uint8)
            found.extend(_square_regions(free, smin, smax, config.max_aspect, config.min_fill,
                                         inside=True))
    return sorted(found, key=lambda c: -c.quality)


def _gradient(image: Image, kernel: Image) -> Image:
    """The largest morphological gradient (max - min over ``kernel``) of the colour
    channels.  3x3 at the fine scale (an edge two pixels wide, one on each side); 2x2 at
    the coarse one, where an edge one pixel wide keeps thin lettering from cutting a
    15-pixel face apart."""
    gradient = cv2.morphologyEx(image, cv2.MORPH_GRADIENT, kernel)
    if gradient.ndim == 2:
        return np.asarray(gradient, dtype=np.uint8)
    channels = cv2.split(gradient)
    strongest = channels[0]
    for channel in channels[1:]:
        strongest = cv2.max(strongest, channel)
    return np.asarray(strongest, dtype=np.uint8)


def _square_regions(free: Image, smin: float, smax: float, max_aspect: float,
                    min_fill: float, *, holes: bool = False, eaten: float = 2.0,
                    to_field: Matrix | None = None,
                    pixels: tuple[float, float] = (1.0, 1.0),
                    inside: bool = False) -> list[Candidate]:
    """Regions of ``free`` pixels (edges excluded) that are squares of side smin-smax.

    Only outer outlines count (a region's holes are lettering or specks).  The outline
    runs through the region's outer pixels, so its hull and tightest rectangle are those
    of all the region's pixels; the gradient ate ``eaten`` pixels of its side, given
    back.  ``holes``: also the outlines of the holes in regions, i.e. of whatever lies
    on an even surface (a cube whose lettering cuts its face up in a coarse image is
    still a square object on the rail); their outline runs outside the edge, so it is
    taken as is, with a third more side allowed for a cube's rim and a glimpse of a
    side face.  ``to_field``: a homography taking the outlines to the plane they are
    measured in (sizes are of that plane; ``pixels`` gives the least and most pixels of
    ``free`` per pixel of that plane, for a quick first cut on the outline's size).
    ``inside``: refuse regions that touch the image's border (in a patch cut around a
    candidate, the border can square off a piece of any larger region).
    """
    rows, columns = free.shape[:2]
    contours, hierarchy = cv2.findContours(free, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    parents = hierarchy[0][:, 3].tolist()
    # first cut on the outline's box, in pixels of ``free``: a square of side s at any
    # angle has a box between s and 1.42 s a side
    low = 0.85 * (smin - eaten) * pixels[0]
    high = 1.45 * 1.3 * smax * pixels[1]
    shortest = 2.8 * low  # an outline has 2 (w + h) pixels, a diagonal one 1.41 (w + h)
    out = []
    for index, contour in enumerate(contours):
        if len(contour) < shortest:
            continue
        hole = parents[index] != -1
        if hole and not holes:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if max(w, h) > (high if hole else high / 1.3) or min(w, h) < low:
            continue
        if inside and (x == 0 or y == 0 or x + w == columns or y + h == rows):
            continue
        points = np.asarray(contour, dtype=np.float32)
        if to_field is not None:
            points = np.asarray(cv2.perspectiveTransform(points, to_field), dtype=np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        side = (rw + rh) / 2.0 + (0.0 if hole else eaten)
        if not smin <= side <= (1.3 if hole else 1.0) * smax or min(rw, rh) <= 0.0:
            continue
        aspect = max(rw, rh) / min(rw, rh)
        fill = float(cv2.contourArea(cv2.convexHull(points))) / (rw * rh)
        if aspect <= max_aspect and fill >= min_fill:
            grown = 0.0 if hole else eaten
            out.append(Candidate((float(cx), float(cy)), (float(rw) + grown, float(rh) + grown),
                                 float(angle), fill, aspect))
    return out


def distinct(candidates: list[Candidate], count: int) -> list[Candidate]:
    """The best ``count`` candidates in different places (best first)."""
    kept: list[Candidate] = []
    for candidate in candidates:
        if all(np.hypot(candidate.centre[0] - k.centre[0], candidate.centre[1] - k.centre[1])
               > 0.5 * max(candidate.side, k.side) for k in kept):
            kept.append(candidate)
            if len(kept) == count:
                break
    return kept


def face_image(image: Image, candidate: Candidate, size: int = 64,
               to_image: Matrix | None = None) -> Image:
    """The candidate's region cut out and turned so its sides are upright (grey).

    ``to_image``: a homography from ``image`` to the search image the candidate was found
    in (e.g. its ``to_search``, with the camera frame as ``image``): the face is then
    cut straight out of the sharper original, resampled once.
    """
    box = cv2.boxPoints((candidate.centre, candidate.size, candidate.angle))
    # boxPoints: corners in order; map them to a square keeping their order.
    target = np.array([[0, size - 1], [0, 0], [size - 1, 0], [size - 1, size - 1]],
                      dtype=np.float32)
    matrix = np.asarray(cv2.getPerspectiveTransform(np.asarray(box, dtype=np.float32), target),
                        dtype=np.float64)
    if to_image is not None:
        matrix = matrix @ to_image
    face = cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR)
    gray = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return np.asarray(gray, dtype=np.uint8)


def rank(candidate: Candidate, config: LocateConfig) -> tuple[bool, float]:
    """How good a fine-scale face is as the cube: a cube-sized one first (``prefer_side``),
    then the squarer."""
    return candidate.side >= config.prefer_side * config.fine_width, candidate.quality
