"""Four corner points given by a person: ``"x,y x,y x,y x,y"``.

The fallback when there are no markers and the automatic search fails: the
command line takes ``--corners``, and later the kiosk lets the corners be
clicked.  People make a few typical mistakes (three points, a semicolon for
a comma, corners in the wrong order, going round anticlockwise, starting at
the wrong corner), so each one gets its own message saying what to change.
Points are pixels from the image's top-left, in the order top-left,
top-right, bottom-right, bottom-left of the playing field (inner edges of
the rails, trays excluded).
"""

import math
import re
from typing import Final

from vision.calibration.model import check_corners_fit
from vision.errors import CalibrationError
from vision.observation import Corners, Pixel

NAMES: Final = ("top-left", "top-right", "bottom-right", "bottom-left")
ORDER: Final = "top-left, top-right, bottom-right, bottom-left"
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_PAIR = re.compile(rf"^({_NUMBER}),({_NUMBER})$")
MIN_AREA: Final = 100.0
"""Square pixels: four points closer than this do not outline a board."""


def parse_corners(text: str, image_size: tuple[int, int] | None = None) -> Corners:
    """The corners in ``text``, checked (and checked against the frame when its size is
    given); :class:`CalibrationError` says what to fix."""
    points = _parse_points(text)
    corners = Corners(points[0], points[1], points[2], points[3])
    check_order(corners)
    if image_size is not None:
        check_corners_fit(corners, image_size)
    return corners


def _parse_points(text: str) -> list[Pixel]:
    cleaned = re.sub(r"\s*,\s*", ",", text.strip())
    tokens = cleaned.split()
    if len(tokens) != 4:
        raise CalibrationError(f'four corners needed as "x,y x,y x,y x,y" ({ORDER}), '
                               f"got {len(tokens)}")
    points: list[Pixel] = []
    for index, (name, token) in enumerate(zip(NAMES, tokens, strict=True), start=1):
        match = _PAIR.match(token)
        if match is None:
            raise CalibrationError(f"corner {index} ({name}) {token!r}: write it as x,y "
                                   "(two numbers joined by a comma)")
        x, y = float(match.group(1)), float(match.group(2))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise CalibrationError(f"corner {index} ({name}): not a finite position")
        points.append((x, y))
    return points


def check_order(corners: Corners) -> None:
    """Raise :class:`CalibrationError` unless the corners go clockwise from the top-left
    round a convex field."""
    pts = corners.as_list()
    area = 0.5 * sum(pts[i][0] * pts[(i + 1) % 4][1] - pts[(i + 1) % 4][0] * pts[i][1]
                     for i in range(4))
    if abs(area) < MIN_AREA:
        raise CalibrationError(f"the four corners enclose only {abs(area):.0f} square pixels: "
                               "they must be the corners of the playing field")
    if _edges_cross(pts):
        raise CalibrationError("the field's edges cross: two corners are swapped; give them "
                               f"in the order {ORDER}")
    turns = [_turn(pts[i - 1], pts[i], pts[(i + 1) % 4]) for i in range(4)]
    if all(t < 0 for t in turns):
        raise CalibrationError(f"the corners go anticlockwise; give them in the order {ORDER}")
    if not all(t > 0 for t in turns):
        bad = next(i for i, t in enumerate(turns) if t <= 0)
        raise CalibrationError(f"the field is not convex at corner {bad + 1} ({NAMES[bad]}): "
                               "a corner is misplaced")
    top = max(range(4), key=lambda i: _rightward(pts[i], pts[(i + 1) % 4]))
    if top != 0:
        raise CalibrationError(f"corner 1 must be the top-left one, but it looks like the "
                               f"{NAMES[(4 - top) % 4]}: start the list at the top-left "
                               f"({ORDER})")


def _turn(a: Pixel, b: Pixel, c: Pixel) -> float:
    """Positive when a -> b -> c turns clockwise on screen (y down)."""
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])


def _edges_cross(pts: list[Pixel]) -> bool:
    """True when the top edge crosses the bottom one, or the right edge the left one."""
    return (_segments_cross(pts[0], pts[1], pts[2], pts[3])
            or _segments_cross(pts[1], pts[2], pts[3], pts[0]))


def _segments_cross(p: Pixel, q: Pixel, r: Pixel, s: Pixel) -> bool:
    d1, d2 = _turn(p, q, r), _turn(p, q, s)
    d3, d4 = _turn(r, s, p), _turn(r, s, q)
    return d1 * d2 < 0 and d3 * d4 < 0


def _rightward(a: Pixel, b: Pixel) -> float:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    return (b[0] - a[0]) / length if length > 0 else -1.0
