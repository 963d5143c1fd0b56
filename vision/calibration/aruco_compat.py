"""The one place that knows both OpenCV ArUco APIs.

OpenCV 4.7 rewrote the Python face of ArUco: ``Dictionary_get``,
``DetectorParameters_create``, the free function ``detectMarkers`` and
``drawMarker`` (what Raspberry Pi OS ships with OpenCV 4.6) became
``getPredefinedDictionary``, ``DetectorParameters()``, the
``ArucoDetector`` class and ``generateImageMarker``.  The rest of the
calibration code talks to :class:`ArucoApi`, which picks the right calls
from whatever module it wraps, so the same code runs on the Pi and on a
desktop, and a test can hand it a stand-in that only has the old names.
"""

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError

Gray = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float64]
"""Four marker corners, shape (4, 2), in the detector's order (clockwise from the
marker's own top-left)."""


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """The few ArUco detector parameters the calibration sets (the rest stay OpenCV's)."""

    subpixel: bool = True
    """Refine the marker corners to sub-pixel accuracy (the field corners follow them)."""
    refine_window: int = 3
    """Half-size of the sub-pixel search window, in pixels; small, because the markers
    on a rail are small in the image (a module is only 3-5 pixels)."""
    min_perimeter_rate: float = 0.02
    """Smallest marker perimeter, as a fraction of the image's larger side: 0.02 lets a
    marker down to about 6 pixels a side through on a 1280-pixel frame."""
    pixels_per_cell: int = 8
    """Resolution at which each candidate is unwarped before its cells are read (OpenCV's
    default, 4, misreads markers whose cells are only 3-4 image pixels)."""
    ignored_cell_margin: float = 0.3
    """Part of each cell's edge ignored when reading it: blur smears neighbours into the
    edges of small cells (OpenCV's default is 0.13)."""
    threshold_step: int = 4
    """Step between the adaptive-threshold window sizes tried (OpenCV's default is 10)."""


class ArucoApi:
    """ArUco through whichever API ``module`` has (``cv2.aruco`` by default)."""

    def __init__(self, module: ModuleType | Any | None = None) -> None:
        if module is None:
            module = _default_module()
        self.module = module
        self.modern = hasattr(module, "ArucoDetector")
        """True for the 4.7+ API, False for the pre-4.7 one."""
        if not self.modern and not hasattr(module, "detectMarkers"):
            raise CalibrationError("this OpenCV has no usable ArUco module "
                                   "(neither ArucoDetector nor detectMarkers)")

    def dictionary(self, name: str) -> Any:
        """A predefined dictionary by its OpenCV name, e.g. ``"DICT_4X4_50"``."""
        code = getattr(self.module, name, None)
        if not isinstance(code, int):
            raise CalibrationError(f"unknown ArUco dictionary {name!r}")
        if self.modern:
            return self.module.getPredefinedDictionary(code)
        return self.module.Dictionary_get(code)

    def parameters(self, settings: DetectorSettings) -> Any:
        """Detector parameters with ``settings`` applied."""
        params = (self.module.DetectorParameters() if self.modern
                  else self.module.DetectorParameters_create())
        if settings.subpixel:
            params.cornerRefinementMethod = self.module.CORNER_REFINE_SUBPIX
            params.cornerRefinementWinSize = settings.refine_window
        params.minMarkerPerimeterRate = settings.min_perimeter_rate
        params.perspectiveRemovePixelPerCell = settings.pixels_per_cell
        params.perspectiveRemoveIgnoredMarginPerCell = settings.ignored_cell_margin
        params.adaptiveThreshWinSizeStep = settings.threshold_step
        return params

    def detect(self, gray: Gray, dictionary: Any,
               settings: DetectorSettings) -> list[tuple[int, Quad]]:
        """Every marker of ``dictionary`` in a grey image: (id, 4x2 corners)."""
        params = self.parameters(settings)
        if self.modern:
            detector = self.module.ArucoDetector(dictionary, params)
            corners, ids, _rejected = detector.detectMarkers(gray)
        else:
            corners, ids, _rejected = self.module.detectMarkers(gray, dictionary,
                                                                parameters=params)
        if ids is None or len(ids) == 0:
            return []
        flat_ids = np.asarray(ids).reshape(-1)
        return [(int(i), np.asarray(c, dtype=np.float64).reshape(4, 2))
                for i, c in zip(flat_ids, corners, strict=True)]

    def marker_image(self, dictionary: Any, marker_id: int, side: int,
                     border_bits: int = 1) -> Gray:
        """The marker drawn ``side`` pixels square (black border included, no margin)."""
        if self.modern:
            image = self.module.generateImageMarker(dictionary, marker_id, side,
                                                    borderBits=border_bits)
        else:
            image = self.module.drawMarker(dictionary, marker_id, side, borderBits=border_bits)
        return np.asarray(image, dtype=np.uint8)

    def marker_cells(self, dictionary: Any, marker_id: int,
                     border_bits: int = 1) -> npt.NDArray[np.bool_]:
        """The marker as a grid of cells, True for white, border included.

        Drawn one pixel per cell, so the grid comes straight from OpenCV's own
        pattern and the printed sheet cannot disagree with the detector.
        """
        bits = int(dictionary.markerSize)
        image = self.marker_image(dictionary, marker_id, bits + 2 * border_bits, border_bits)
        return np.asarray(image > 127, dtype=np.bool_)


def _default_module() -> ModuleType:
    import cv2

    module = getattr(cv2, "aruco", None)
    if module is None:
        raise CalibrationError("this OpenCV build has no cv2.aruco: install "
                               "opencv-python-headless >= 4.6 (or python3-opencv on the Pi)")
    return module  # type: ignore[no-any-return]
