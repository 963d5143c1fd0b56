"""``calibrate``: the field's corners by the best means available.

In order: corners a person gave (they know best, and a mistake in them is
reported, not silently replaced), the four printed markers (exact and
robust), then the automatic search (no preparation, less certain).  Each
method's failure reason is kept, so "board not found" can say what was
tried and why each attempt failed.
"""

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.calibration.aruco_compat import ArucoApi
from vision.calibration.auto import AutoConfig, find_field
from vision.calibration.manual import check_order, parse_corners
from vision.calibration.markers import MarkerConfig, corners_from_markers, detect_markers
from vision.calibration.model import Calibration, check_corners_fit
from vision.errors import BoardNotFoundError, CalibrationError
from vision.observation import Corners
from vision.profile import TOURNAMENT, BoardProfile

Image = npt.NDArray[np.uint8]

NOT_FOUND = "board not found: no markers and no field outline"


@dataclass(frozen=True, slots=True)
class CalibrationConfig:
    """Which methods to try and with what settings."""

    profile: BoardProfile = TOURNAMENT
    markers: MarkerConfig = field(default_factory=MarkerConfig)
    auto: AutoConfig = field(default_factory=AutoConfig)
    use_markers: bool = True
    use_auto: bool = True


def calibrate(frame: Image, config: CalibrationConfig | None = None,
              corners: Corners | str | None = None, *,
              api: ArucoApi | None = None) -> Calibration:
    """Calibrate on one frame (BGR or grey).

    ``corners`` (a :class:`Corners` or the text ``"x,y x,y x,y x,y"``), when given,
    is used as it is, after checking: :class:`CalibrationError` if it is wrong.
    Otherwise markers, then the automatic search; :class:`BoardNotFoundError`
    (``"board not found: no markers and no field outline"``, with the reasons)
    when both fail.
    """
    config = config or CalibrationConfig()
    if frame.ndim not in (2, 3) or frame.size == 0:
        raise CalibrationError(f"not an image (array of shape {frame.shape})")
    height, width = frame.shape[:2]
    size = (width, height)
    if corners is not None:
        if isinstance(corners, str):
            given = parse_corners(corners, size)
        else:
            check_order(corners)
            check_corners_fit(corners, size)
            given = corners
        return Calibration(given, "manual", size, config.profile)

    reasons: list[str] = []
    if config.use_markers:
        seen = detect_markers(frame, config.markers, api)
        if not seen:
            reasons.append("markers: none seen")
        else:
            try:
                found = corners_from_markers(seen, config.markers)
                check_corners_fit(found, size)
                ids = sorted(m.marker_id for m in seen)
                return Calibration(found, "markers", size, config.profile,
                                   details={"markers": ids})
            except CalibrationError as exc:
                reasons.append(f"markers: {exc}")
    if config.use_auto:
        try:
            result = find_field(frame, config.profile, config.auto)
            return Calibration(result.corners, "auto", size, config.profile,
                               details=result.as_dict())
        except BoardNotFoundError as exc:
            reasons.append(f"outline: {str(exc).removeprefix('board not found: ')}")
        except CalibrationError as exc:  # a found outline the field map rejects
            reasons.append(f"outline: {exc}")
    raise BoardNotFoundError(f"{NOT_FOUND} ({'; '.join(reasons) or 'nothing tried'})")
