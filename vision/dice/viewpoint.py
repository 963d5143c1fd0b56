"""Where the camera is over the field, from the calibration alone.

A die's side faces show in the rectified field image because the
rectification is the board plane's homography: a point ``h`` above the board
lands where the ray from the lens through it meets the board, pushed away
from the nadir (the board point straight below the lens) by ``h / (H - h)``
of its distance from it, ``H`` being the lens height.  So the side faces a
flat die shows, and how wide, follow from the nadir and the height (see
:mod:`.pose`), and both follow from the four field corners once the camera's
intrinsics are known: square pixels, the principal point at the image
centre and a horizontal field of view from the configuration.

The field of view has to be configured: a camera looking almost straight
down sees the field nearly fronto-parallel, and then the homography of the
four corners fixes the ratio of focal length to height but hardly either
alone (the perspective terms that would separate them are a few degrees'
tilt).  A wrong field of view scales the height by the focal length's error
and moves the nadir by about its square times the small offset the tilt
makes, so a field of view off by a fifth misjudges a flat die's side band
by about a fifth; the pose test's margins absorb that.
"""

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import CalibrationError, ConfigError
from vision.rectify import FieldMap


@dataclass(frozen=True, slots=True)
class ViewpointConfig:
    """The camera's intrinsics the viewpoint is recovered with."""

    horizontal_fov: float = 66.0
    """Horizontal field of view in degrees.  66 is the Raspberry Pi Camera
    Module 3's (the standard lens; the wide one is 102), which the design
    uses.  The renderer frames the board by how much of the image it fills,
    so its field of view follows the camera height and the fill: 45-81
    degrees over the benchmark's scenes, median 62; 66 sits within that and
    the errors it makes there are measured by ``bench/dice_accuracy.py``."""

    max_fit_error: float = 0.01
    """The largest distance, as a fraction of the image width, between a field
    corner and where the recovered camera puts it, for the viewpoint to be
    used.  Renders 1280 wide fit within 3 px with their exact corners and
    within 11 px (8.5 for 95 %) with every corner 1 px off at random, whatever
    their field of view; the real broadcast frames (a zoom lens, keystoned,
    barrel-distorted) are 23 px off, and a height recovered from them would be
    a guess (the pose test then assumes the lowest camera it allows)."""

    def __post_init__(self) -> None:
        if not 10.0 <= self.horizontal_fov <= 150.0:
            raise ConfigError(f"viewpoint: horizontal_fov is 10-150 degrees, "
                              f"not {self.horizontal_fov}")
        if not self.max_fit_error > 0.0:
            raise ConfigError(f"viewpoint: max_fit_error is positive, not {self.max_fit_error}")


@dataclass(frozen=True, slots=True)
class Viewpoint:
    """The lens position over the field, in field widths from the field's top-left
    corner (x along u, y along v; y runs to ``1 / field_aspect``)."""

    nadir: tuple[float, float]
    """The board point straight below the lens (x, y), field widths."""
    height: float
    """The lens above the board, field widths."""
    fit_error: float
    """The largest distance between a field corner and where this camera puts
    it, pixels of the image."""

    def fits(self, image_width: int, config: "ViewpointConfig") -> bool:
        """Whether the pinhole fits the corners well enough to be used."""
        return self.fit_error <= config.max_fit_error * image_width

    def nadir_uv(self, field_aspect: float) -> tuple[float, float]:
        """The nadir in field coordinates (u, v)."""
        return self.nadir[0], self.nadir[1] * field_aspect


def viewpoint(field_map: FieldMap, image_size: tuple[int, int], field_aspect: float,
              config: ViewpointConfig = ViewpointConfig()) -> Viewpoint:
    """The camera over the field whose corners ``field_map`` holds, in an image
    ``image_size`` (width, height) pixels: the pose that maps the field's
    corners (a ``1 x 1 / field_aspect`` rectangle) onto them through a pinhole of
    the configured field of view.  Raises :class:`CalibrationError` when no
    camera above the board fits."""
    width, height = image_size
    if width <= 0 or height <= 0:
        raise CalibrationError(f"an image of {width}x{height} pixels")
    if not field_aspect > 0.0:
        raise CalibrationError(f"field aspect {field_aspect}")
    focal = (width / 2.0) / math.tan(math.radians(config.horizontal_fov) / 2.0)
    intrinsics = np.array([[focal, 0.0, width / 2.0], [0.0, focal, height / 2.0],
                           [0.0, 0.0, 1.0]])
    depth = 1.0 / field_aspect
    field = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, depth, 0.0], [0.0, depth, 0.0]])
    pixels = np.array(field_map.corners.as_list(), dtype=np.float64)
    # IPPE gives both poses a plane's view allows (mirror tilts); the closer fit wins
    count, rvecs, tvecs, _ = cv2.solvePnPGeneric(field, pixels, intrinsics, None,
                                                 flags=cv2.SOLVEPNP_IPPE)
    if not count:
        raise CalibrationError("no camera pose fits the field's corners")
    fits = []
    for rvec, tvec in zip(rvecs, tvecs, strict=True):
        projected, _ = cv2.projectPoints(field, rvec, tvec, intrinsics, None)
        fits.append((float(np.max(np.linalg.norm(projected.reshape(4, 2) - pixels, axis=1))),
                     rvec, tvec))
    error, rvec, tvec = min(fits, key=lambda f: f[0])
    rotation, _ = cv2.Rodrigues(rvec)
    centre = -rotation.T @ np.asarray(tvec, dtype=np.float64).reshape(3)
    # The field's x right and y down make z point into the board: the lens is at
    # negative z; IPPE may return the mirror pose behind the board.
    lens_height = -float(centre[2])
    if lens_height <= 0.0:
        lens_height = -lens_height
    if not (math.isfinite(lens_height) and lens_height > 0.0):
        raise CalibrationError("the camera pose puts the lens on the board")
    return Viewpoint((float(centre[0]), float(centre[1])), lens_height, error)
