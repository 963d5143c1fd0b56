"""From camera pixels to field coordinates and back.

The four corners of the playing field define a homography between the
image and the field's (u, v) square; warping through it gives a *rectified*
field image in which every point column is an upright rectangle, whatever
the camera's perspective.  Later stages count checkers there and map what
they find back to image pixels for the observation.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.observation import Corners, Pixel
from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class FieldMap:
    """The homography of one calibration: image pixels <-> field (u, v)."""

    corners: Corners
    to_field: Matrix
    """3x3: image pixel -> (u, v) in [0, 1]."""
    to_image: Matrix
    """3x3: (u, v) -> image pixel."""

    @classmethod
    def from_corners(cls, corners: Corners) -> "FieldMap":
        """Raises :class:`CalibrationError` for corners that do not make a field."""
        src = np.array(corners.as_list(), dtype=np.float64)
        if not np.all(np.isfinite(src)):
            raise CalibrationError("corners must be finite pixel positions")
        area = 0.5 * abs(sum(src[i, 0] * src[(i + 1) % 4, 1] - src[(i + 1) % 4, 0] * src[i, 1]
                             for i in range(4)))
        if area < 100.0:
            raise CalibrationError(f"the four corners enclose only {area:.0f} square pixels")
        if not _convex_clockwise(src):
            raise CalibrationError("the corners must go top-left, top-right, bottom-right, "
                                   "bottom-left and enclose a convex field")
        dst = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], dtype=np.float64)
        to_field = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        forward = np.asarray(to_field, dtype=np.float64)
        return cls(corners, forward, np.asarray(np.linalg.inv(forward), dtype=np.float64))

    def field_point(self, pixel: Pixel) -> tuple[float, float]:
        """(u, v) of an image pixel."""
        return _apply(self.to_field, pixel)

    def image_point(self, u: float, v: float) -> Pixel:
        """The image pixel of field coordinates (u, v)."""
        return _apply(self.to_image, (u, v))

    def rectify(self, frame: Image, profile: BoardProfile, width: int) -> Image:
        """The field warped upright, ``width`` pixels wide (height from the profile)."""
        w, h = profile.rectified_size(width)
        scale = np.diag([float(w), float(h), 1.0])
        matrix = scale @ self.to_field
        warped = cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(warped, dtype=np.uint8)


def _apply(matrix: Matrix, point: tuple[float, float]) -> tuple[float, float]:
    x, y, w = matrix @ np.array([point[0], point[1], 1.0])
    return (float(x / w), float(y / w))


def _convex_clockwise(points: npt.NDArray[np.float64]) -> bool:
    """True when the polygon is convex and clockwise in image coordinates (y down)."""
    signs = []
    for i in range(4):
        a, b, c = points[i], points[(i + 1) % 4], points[(i + 2) % 4]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        signs.append(cross)
    return all(s > 0 for s in signs)
