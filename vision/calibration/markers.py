"""The marker layout, and the field corners from four detected markers.

The default calibration: four printed ArUco markers (``DICT_4X4_50``, IDs 0,
1, 2, 3) stuck on the rails, one diagonally outside each corner of the
playing field.  Each marker is printed as a *tile*: the black marker (its
one-cell black border included) inside a white margin one cell wide, the
quiet zone the detector needs.  The player lays the tile so that two of its
cut edges continue the field's two edges at that corner: the tile's inner
corner touches the field corner, and the tile lies on the rail outside it.

So, in the marker's own coordinates (its black square spanning 0..1 on both
axes, the corner nearest the field at (1, 1)), the field corner is at
(1 + k, 1 + k), with k = margin / marker side = 1/6 for a 4x4 marker.  The
offset is in marker units, so it holds at any print size and on any rail
width: the rail only needs to be as wide as the tile (24 mm at the default
size), and the field corners follow from the markers' corners by the
marker's own homography, which also absorbs the camera's perspective.

Which corner of a marker is the inner one is decided in the image (the
marker corner nearest the middle of the four markers), so a tile stuck
rotated by 90 or 180 degrees still works; the IDs tell our markers from any
others, and the corners are named by where they lie in the image (the
observation numbers points as the camera sees them).  See
``hardware/markers.md`` for the players' version.
"""

import math
from dataclasses import dataclass, field
from typing import Any, Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration.aruco_compat import ArucoApi, DetectorSettings, Quad
from vision.errors import CalibrationError, ConfigError
from vision.observation import Corners, Pixel

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float64]

CORNER_NAMES: Final = ("top-left", "top-right", "bottom-right", "bottom-left")


@dataclass(frozen=True, slots=True)
class MarkerLayout:
    """What is printed and where it goes (the sheet and the detector share it)."""

    dictionary: str = "DICT_4X4_50"
    """OpenCV's name of the ArUco dictionary: 4x4 cells, the biggest cells for a given
    printed size, and 50 IDs are plenty."""
    ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    """The IDs meant for the top-left, top-right, bottom-right and bottom-left corners
    (as printed on the sheet; detection accepts them in any place)."""
    bits: int = 4
    """Data cells per side of the dictionary's markers (4 for DICT_4X4_*)."""
    marker_mm: float = 18.0
    """Printed side of the black square, border included (6 cells of 3 mm).  With its
    margin the tile is 24 mm: it fits a tournament board's rails, and at 720p a camera
    seeing the whole board gets 3-4 pixels per cell, about the least ArUco reads."""
    margin_cells: float = 1.0
    """White margin around the black square, in cells; it is the gap between the black
    square's inner corner and the field corner along each edge."""

    def __post_init__(self) -> None:
        if len(self.ids) != 4 or len(set(self.ids)) != 4 or any(i < 0 for i in self.ids):
            raise ConfigError(f"marker layout: four different IDs needed, not {self.ids}")
        if not 3 <= self.bits <= 7:
            raise ConfigError(f"marker layout: bits between 3 and 7, not {self.bits}")
        if not 5.0 <= self.marker_mm <= 100.0:
            raise ConfigError(f"marker layout: marker_mm between 5 and 100, not {self.marker_mm}")
        if not 0.5 <= self.margin_cells <= 4.0:
            raise ConfigError("marker layout: margin_cells between 0.5 and 4, not "
                              f"{self.margin_cells}")

    @property
    def cells(self) -> int:
        """Cells per side of the black square: the data cells plus a one-cell border."""
        return self.bits + 2

    @property
    def cell_mm(self) -> float:
        return self.marker_mm / self.cells

    @property
    def margin_mm(self) -> float:
        return self.margin_cells * self.cell_mm

    @property
    def tile_mm(self) -> float:
        """Side of the printed tile to cut out: the black square and its white margin."""
        return self.marker_mm + 2.0 * self.margin_mm

    @property
    def offset(self) -> float:
        """From the black square's inner corner to the field corner, in marker sides
        (along each of the two field edges)."""
        return self.margin_cells / self.cells


DEFAULT_LAYOUT: Final = MarkerLayout()


@dataclass(frozen=True, slots=True)
class MarkerConfig:
    """How markers are looked for."""

    layout: MarkerLayout = DEFAULT_LAYOUT
    detector: DetectorSettings = field(default_factory=DetectorSettings)
    refine_edges: bool = True
    """Refit each marker's four outer edges to the image's gradient (sub-pixel) and take
    the corners where they cross: OpenCV's corner refinement leaves small markers about
    0.7 pixels too small, which pushes the field corners outward."""
    max_side_ratio: float = 3.0
    """Largest ratio between the biggest and smallest detected marker side: four
    markers of one print seen from above are about the same size, so a far larger or
    smaller one is not ours (a marker on a sheet lying elsewhere)."""


@dataclass(frozen=True, slots=True)
class DetectedMarker:
    """One of our markers in the image."""

    marker_id: int
    corners: Quad
    """4x2 image pixels, in the detector's order."""

    @property
    def center(self) -> Pixel:
        c = self.corners.mean(axis=0)
        return (float(c[0]), float(c[1]))

    @property
    def side(self) -> float:
        """Mean side length in pixels."""
        sides = np.linalg.norm(self.corners - np.roll(self.corners, -1, axis=0), axis=1)
        return float(sides.mean())


def detect_markers(frame: Image, config: MarkerConfig | None = None,
                   api: ArucoApi | None = None) -> list[DetectedMarker]:
    """Our markers (the layout's IDs) in a BGR or grey frame, any number of them."""
    config = config or MarkerConfig()
    api = api or ArucoApi()
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    gray = np.asarray(gray, dtype=np.uint8)
    dictionary = layout_dictionary(api, config.layout)
    found = api.detect(gray, dictionary, config.detector)
    wanted = set(config.layout.ids)
    if config.refine_edges:
        smooth = np.asarray(gray, dtype=np.float32)
        found = [(i, refine_quad(smooth, quad, config.layout.cells)) for i, quad in found
                 if i in wanted]
    return [DetectedMarker(i, quad) for i, quad in found if i in wanted]


def refine_quad(gray: npt.NDArray[np.float32], quad: Quad, cells: int) -> Quad:
    """The marker's corners from its four outer edges, each fitted to the gradient.

    Along each side, profiles across the edge (within six tenths of a cell, so
    the data cells inside stay out) give the sub-pixel position of the steepest
    step; a line through them per side, and the corners where neighbouring
    lines cross.  A blurred step's steepest point is its true position, so this
    has no size bias.  Falls back to the detector's corners if a side gives too
    few clean steps.
    """
    centre = quad.mean(axis=0)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    reach = 0.6 * side / cells
    offsets = np.linspace(-reach, reach, 25)
    lines = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        normal = np.array([along[1], -along[0]])
        if float(np.dot(normal, 0.5 * (a + b) - centre)) < 0:
            normal = -normal  # outward, from the black square into the white margin
        ts = np.linspace(0.2, 0.8, 13)
        base = a[None, :] + ts[:, None] * (b - a)[None, :]
        pts = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
        xy = pts.reshape(-1, 2).astype(np.float32)
        values = cv2.remap(gray, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1),
                           cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        profiles = np.asarray(values, dtype=np.float64).reshape(len(ts), len(offsets))
        steps = np.diff(profiles, axis=1)
        edge_points = []
        for t, row in enumerate(steps):
            i = int(np.argmax(row))
            if row[i] < 8.0 or i == 0 or i == len(row) - 1:
                continue
            lo, mid, hi = row[i - 1], row[i], row[i + 1]
            curve = lo - 2.0 * mid + hi
            shift = 0.5 * (lo - hi) / curve if curve < 0 else 0.0
            # Step i lies between offsets i and i + 1.
            where = offsets[i] + (0.5 + shift) * (offsets[1] - offsets[0])
            edge_points.append(base[t] + where * normal)
        if len(edge_points) < 5:
            return quad
        fitted = np.asarray(cv2.fitLine(np.array(edge_points, dtype=np.float32), cv2.DIST_L2,
                                        0, 0.01, 0.01), dtype=np.float32).ravel()
        lines.append(fitted)
    corners = []
    for k in range(4):
        # Corner k is where side k-1 (ending at it) meets side k (starting at it).
        p = _cross(lines[(k - 1) % 4], lines[k])
        if p is None or float(np.linalg.norm(p - quad[k])) > 0.25 * side:
            return quad
        corners.append(p)
    return np.array(corners, dtype=np.float64)


def _cross(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> Floats | None:
    """Where two (vx, vy, x0, y0) lines cross."""
    matrix = np.array([[a[0], -b[0]], [a[1], -b[1]]], dtype=np.float64)
    if abs(float(np.linalg.det(matrix))) < 1e-9:
        return None
    t = np.linalg.solve(matrix, np.array([b[2] - a[2], b[3] - a[3]], dtype=np.float64))
    return np.array([a[2] + t[0] * a[0], a[3] + t[0] * a[1]], dtype=np.float64)


def layout_dictionary(api: ArucoApi, layout: MarkerLayout) -> Any:
    """The layout's ArUco dictionary; :class:`ConfigError` if its cells disagree with
    ``layout.bits`` (the offset to the field corner is counted in cells)."""
    dictionary = api.dictionary(layout.dictionary)
    if int(dictionary.markerSize) != layout.bits:
        raise ConfigError(f"marker layout: {layout.dictionary} has {dictionary.markerSize} x "
                          f"{dictionary.markerSize} cells, but bits is {layout.bits}")
    return dictionary


def corners_from_markers(markers: list[DetectedMarker],
                         config: MarkerConfig | None = None) -> Corners:
    """The field corners from our four markers; :class:`CalibrationError` says what is
    missing or wrong (a marker not seen, seen twice, or not where a marker can be)."""
    config = config or MarkerConfig()
    layout = config.layout
    by_id: dict[int, list[DetectedMarker]] = {}
    for marker in markers:
        by_id.setdefault(marker.marker_id, []).append(marker)
    twice = sorted(i for i, found in by_id.items() if len(found) > 1)
    if twice:
        raise CalibrationError(f"marker ID {', '.join(map(str, twice))} seen more than once: "
                               "remove spare printed markers from the camera's view")
    missing = [f"{i} ({name})" for i, name in zip(layout.ids, CORNER_NAMES, strict=True)
               if i not in by_id]
    if missing:
        seen = ", ".join(str(m.marker_id) for m in markers) or "none"
        raise CalibrationError(f"markers seen: {seen}; missing: {', '.join(missing)} "
                               "(covered, out of view, or too small in the image)")
    ours = [by_id[i][0] for i in layout.ids]
    sides = [m.side for m in ours]
    if max(sides) > config.max_side_ratio * min(sides):
        raise CalibrationError("the four markers differ too much in size "
                               f"({min(sides):.0f} to {max(sides):.0f} pixels): not one set")
    middle = np.mean([m.corners.mean(axis=0) for m in ours], axis=0)
    points = [_field_corner(m.corners, middle, layout.offset) for m in ours]
    return order_corners(points)


def find_field_by_markers(frame: Image, config: MarkerConfig | None = None,
                          api: ArucoApi | None = None) -> Corners:
    """Detect the markers and return the field corners (:class:`CalibrationError` if not)."""
    return corners_from_markers(detect_markers(frame, config, api), config)


def _field_corner(quad: Quad, middle: npt.NDArray[np.float64], offset: float) -> Pixel:
    """The field corner beside one marker: its inner corner pushed ``offset`` marker
    sides further along both marker edges, through the marker's own homography."""
    inner = int(np.argmin(np.linalg.norm(quad - middle, axis=1)))
    # Rotate the corner list so the inner corner sits at index 2, i.e. at (1, 1) of a
    # unit square walked in the same direction as the detector's corners.
    rotated = np.roll(quad, 2 - inner, axis=0).astype(np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(unit, rotated)
    x, y, w = homography @ np.array([1.0 + offset, 1.0 + offset, 1.0])
    return (float(x / w), float(y / w))


def order_corners(points: list[Pixel]) -> Corners:
    """Four points as top-left, top-right, bottom-right, bottom-left in the image.

    Sorted clockwise around their centre, then started at the corner whose next edge
    runs most nearly left to right: the top edge.  Right for any board turned less
    than 45 degrees in the image, which is what "top-left" can mean at all.
    """
    if len(points) != 4:
        raise CalibrationError(f"four corners needed, got {len(points)}")
    cx = sum(p[0] for p in points) / 4.0
    cy = sum(p[1] for p in points) / 4.0
    ring = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = max(range(4), key=lambda i: _rightwardness(ring[i], ring[(i + 1) % 4]))
    ordered = ring[start:] + ring[:start]
    return Corners(ordered[0], ordered[1], ordered[2], ordered[3])


def _rightwardness(a: Pixel, b: Pixel) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return dx / length if length > 0 else -1.0
