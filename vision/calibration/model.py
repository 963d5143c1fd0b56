"""A calibration: where the playing field is in this camera's frames, and how we know.

Everything later stages need to read a board (the field corners and the
board profile) plus what a person needs to trust or redo it: the method
(markers, automatic, manual), the frame size it was made at, when, and the
method's own evidence (marker IDs, field score).  The JSON form is read back
by :mod:`vision.calibration.store`, which checks every field, so a
calibration in memory is always a usable one.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal, cast, get_args

from vision.errors import CalibrationError, ConfigError, ObservationError
from vision.observation import Corners
from vision.profile import TOURNAMENT, BoardProfile
from vision.rectify import FieldMap

Method = Literal["manual", "markers", "auto"]
FORMAT: Final = "bgref-calibration"
VERSION: Final = 1
CORNER_SLACK: Final = 0.05
"""How far outside the frame a corner may lie, as a fraction of the frame's size
(a marker-derived corner of a field that touches the frame's edge)."""


@dataclass(frozen=True)
class Calibration:
    """The field's corners in frames of ``image_size`` (width, height), and their origin."""

    corners: Corners
    method: Method
    image_size: tuple[int, int]
    profile: BoardProfile = TOURNAMENT
    created: str = field(default_factory=lambda: now_iso())  # noqa: PLW0108 (defined below)
    """UTC, ISO 8601 (``2024-05-01T18:30:00Z``)."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """The method's evidence, e.g. ``{"markers": [0, 1, 2, 3]}`` or the field score."""

    def __post_init__(self) -> None:
        check_corners_fit(self.corners, self.image_size)
        if self.method not in get_args(Method):
            raise CalibrationError(f"method must be one of {get_args(Method)}, "
                                   f"not {self.method!r}")

    def field_map(self) -> FieldMap:
        """The homography between image pixels and field coordinates."""
        return FieldMap.from_corners(self.corners)

    def check_frame(self, width: int, height: int) -> None:
        """Raise :class:`CalibrationError` unless frames are ``width`` x ``height``."""
        if (width, height) != self.image_size:
            w, h = self.image_size
            raise CalibrationError(f"the calibration was made on {w}x{h} frames, the camera "
                                   f"gives {width}x{height}: recalibrate, or use "
                                   "Calibration.scaled_to if only the resolution changed")

    def scaled_to(self, width: int, height: int) -> "Calibration":
        """The same calibration for another resolution of the same view.

        Valid only when the camera mode scales the whole picture (same field of
        view, same aspect); a mode that crops the sensor needs a new calibration.
        """
        w, h = self.image_size
        if abs(width / height - w / h) > 0.01:
            raise CalibrationError(f"{width}x{height} has another aspect than {w}x{h}: "
                                   "a cropped view needs a new calibration")
        sx, sy = width / w, height / h
        points = [((x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5)
                  for x, y in self.corners.as_list()]
        return Calibration(Corners(*points), self.method, (width, height), self.profile,
                           self.created, dict(self.details))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "method": self.method,
            "image_size": list(self.image_size),
            "corners": self.corners.to_json(),
            "profile": self.profile.to_json(),
            "created": self.created,
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, data: object) -> "Calibration":
        """Read and check a calibration; :class:`CalibrationError` names the bad field."""
        if not isinstance(data, dict):
            raise CalibrationError("a calibration is a JSON object")
        if data.get("format") != FORMAT:
            raise CalibrationError(f"not a calibration (format {data.get('format')!r}, "
                                   f"expected {FORMAT!r})")
        if data.get("version") != VERSION:
            raise CalibrationError(f"calibration version {data.get('version')!r} is not "
                                   f"supported (this program reads version {VERSION})")
        size = data.get("image_size")
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                           for v in size)):
            raise CalibrationError(f"image_size: [width, height] in pixels, not {size!r}")
        try:
            corners = Corners.from_json(data.get("corners"))
        except ObservationError as exc:
            raise CalibrationError(str(exc)) from exc
        try:
            profile = BoardProfile.from_json(data.get("profile"))
        except ConfigError as exc:
            raise CalibrationError(str(exc)) from exc
        created = data.get("created")
        if not isinstance(created, str) or _parse_time(created) is None:
            raise CalibrationError(f"created: an ISO 8601 time, not {created!r}")
        details = data.get("details", {})
        if not isinstance(details, dict):
            raise CalibrationError("details: a JSON object")
        method = data.get("method")
        if method not in get_args(Method):
            raise CalibrationError(f"method: one of {', '.join(get_args(Method))}, "
                                   f"not {method!r}")
        return cls(corners, cast(Method, method), (size[0], size[1]), profile, created,
                   details)


def check_corners_fit(corners: Corners, image_size: tuple[int, int]) -> None:
    """Raise :class:`CalibrationError` unless the corners make a field inside the frame."""
    width, height = image_size
    if width <= 0 or height <= 0:
        raise CalibrationError(f"image size must be positive, not {width}x{height}")
    slack_x, slack_y = CORNER_SLACK * width, CORNER_SLACK * height
    names = ("top-left", "top-right", "bottom-right", "bottom-left")
    for name, (x, y) in zip(names, corners.as_list(), strict=True):
        if not (math.isfinite(x) and math.isfinite(y)):
            raise CalibrationError(f"the {name} corner is not a finite position")
        if not (-slack_x <= x <= width - 1 + slack_x and -slack_y <= y <= height - 1 + slack_y):
            raise CalibrationError(f"the {name} corner ({x:.1f}, {y:.1f}) lies outside the "
                                   f"{width}x{height} frame")
    FieldMap.from_corners(corners)  # raises CalibrationError for a degenerate field


def now_iso() -> str:
    """The current UTC time, to the second, ISO 8601 with a Z."""
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
