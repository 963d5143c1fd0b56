"""Calibration: where the playing field is in the camera's image.

Three ways, tried in this order by :func:`calibrate`:

* corners given by a person (``--corners "x,y x,y x,y x,y"``, later clicked
  on the kiosk): :mod:`.manual`;
* four printed ArUco markers on the rails, one outside each corner of the
  field (the default, exact at any rail width): :mod:`.markers`, printed
  with :func:`write_marker_sheet` (:mod:`.sheet`);
* the field's outline found without markers (boards without markers yet):
  :mod:`.auto`.

The result, a :class:`Calibration`, is saved and reloaded by :mod:`.store`.
Run ``python -m vision.calibration IMAGE`` to try it on a frame.
"""

from vision.calibration.aruco_compat import ArucoApi, DetectorSettings
from vision.calibration.auto import AutoConfig, AutoResult, FieldRejectedError, find_field
from vision.calibration.manual import parse_corners
from vision.calibration.markers import (
    DEFAULT_LAYOUT,
    MarkerConfig,
    MarkerLayout,
    detect_markers,
    find_field_by_markers,
)
from vision.calibration.model import Calibration, Method
from vision.calibration.pipeline import NOT_FOUND, CalibrationConfig, calibrate
from vision.calibration.sheet import write_marker_sheet
from vision.calibration.store import load_calibration, save_calibration

__all__ = [
    "DEFAULT_LAYOUT",
    "NOT_FOUND",
    "ArucoApi",
    "AutoConfig",
    "AutoResult",
    "Calibration",
    "CalibrationConfig",
    "DetectorSettings",
    "FieldRejectedError",
    "MarkerConfig",
    "MarkerLayout",
    "Method",
    "calibrate",
    "detect_markers",
    "find_field",
    "find_field_by_markers",
    "load_calibration",
    "parse_corners",
    "save_calibration",
    "write_marker_sheet",
]
