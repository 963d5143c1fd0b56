"""The flat board: field, points, bar, rails and trays, drawn from straight above.

Everything on the board's surface is drawn once on a top-down canvas in
world millimetres (``scale`` pixels per millimetre, about the camera's
resolution on the board) and then warped into the frame through the
camera's board-plane homography, so textures foreshorten exactly as a real
surface would.  Things that stand up from the board (checkers, dice, the
cube, hands) are drawn afterwards in the frame itself, in 3D.

The field is drawn to the profile: point bases on the rails, tips reaching
``point_length`` of the field height, the bar between the halves; the rails
are raised, so the field gets a soft contact shadow along them.
"""

import functools
import math
from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from vision.profile import POINTS
from vision.synth.geometry import BoardGeometry, Tray
from vision.synth.styles import BGR, BoardStyle
from vision.synth.textures import smooth_noise, surface

Image = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]
TEXTURE_STREAM = 2
SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon drawing."""
PixelOf = Callable[[float, float], tuple[float, float]]


def canvas_matrix(geo: BoardGeometry, scale: float) -> Matrix:
    """Canvas pixel -> world millimetres (pixel centres at integer coordinates)."""
    x0, y0, _, _ = geo.outer
    return np.array([[1.0 / scale, 0.0, x0 + 0.5 / scale],
                     [0.0, 1.0 / scale, y0 + 0.5 / scale],
                     [0.0, 0.0, 1.0]])


@functools.lru_cache(maxsize=2)
def board_canvas(style: BoardStyle, geo: BoardGeometry, scale: float,
                 seed: int) -> npt.NDArray[np.float32]:
    """The board seen from straight above, ``scale`` pixels per millimetre (float BGR, read-only).

    Cached: a stream of frames of one scene's board (the demo's synthetic
    camera) builds it once.
    """
    rng = np.random.default_rng([seed, TEXTURE_STREAM])
    x0, y0, x1, y1 = geo.outer
    width, height = math.ceil((x1 - x0) * scale), math.ceil((y1 - y0) * scale)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * scale - 0.5, (y - y0) * scale - 0.5

    # The frame's texture is subtle and mostly hidden under the field: draw it coarse.
    small = (max(height // 2, 2), max(width // 2, 2))
    frame_tex = cv2.resize(surface(style.frame_kind, rng, small, scale / 2.0), (width, height),
                           interpolation=cv2.INTER_LINEAR)
    canvas = (1.0 + 0.08 * frame_tex)[:, :, None] * np.array(style.frame, np.float32)

    fx0, fy0 = px(0.0, 0.0)
    fx1, fy1 = px(geo.width, geo.height)
    ix0, iy0, ix1, iy1 = round(fx0), round(fy0), round(fx1), round(fy1)
    # Painted in 8 bits: OpenCV anti-aliases polygon edges only there.
    paint = np.empty((iy1 - iy0, ix1 - ix0, 3), np.uint8)
    paint[:] = style.field
    _draw_points(paint, style, geo, scale, (fx0 - ix0, fy0 - iy0))
    field = paint.astype(np.float32)
    tex = surface(style.field_kind, rng, field.shape[:2], scale)
    field *= (1.0 + style.texture * tex)[:, :, None]
    _rail_shadow(field, scale)
    canvas[iy0:iy1, ix0:ix1] = field

    for tray in (geo.tray, geo.spare_tray):
        if tray is not None:
            _draw_tray(canvas, style, tray, px, scale)
    _draw_bar(canvas, style, geo, px, scale, rng)
    _bevels(canvas, style, geo, px, scale)
    np.clip(canvas, 0.0, 255.0, out=canvas)
    canvas.setflags(write=False)
    return canvas


def _poly(points: list[tuple[float, float]]) -> npt.NDArray[np.int32]:
    return np.round(np.array(points) * (1 << SHIFT)).astype(np.int32)


def _draw_points(field: Image, style: BoardStyle, geo: BoardGeometry,
                 scale: float, origin: tuple[float, float]) -> None:
    profile = geo.profile
    half = profile.point_width * geo.width * (1.0 - style.point_gap) / 2.0
    length = profile.point_length * geo.height
    for index in range(POINTS):
        cx = profile.point_u(index) * geo.width
        top = profile.is_top(index)
        base_y, tip_y = (0.0, length) if top else (geo.height, geo.height - length)
        # Opposite points differ in colour; neighbours alternate.
        k = index - 12 if top else 11 - index  # column from the left
        colour = style.points[(k + (0 if top else 1)) % 2]
        tri = [(cx - half, base_y), (cx + half, base_y), (cx, tip_y)]
        pts = _poly([((x * scale) + origin[0], (y * scale) + origin[1]) for x, y in tri])
        cv2.fillPoly(field, [pts], colour, cv2.LINE_AA, SHIFT)
        if style.point_outline is not None:
            cv2.polylines(field, [pts], True, style.point_outline,
                          max(1, round(0.8 * scale)), cv2.LINE_AA, SHIFT)


def _rail_shadow(region: npt.NDArray[np.float32], scale: float) -> None:
    """Darken a region softly along its edges: the raised rails' contact shadow.

    Only strips a few fall-off lengths wide change, so only they are touched.
    """
    h, w = region.shape[:2]
    reach = max(3.0 * scale, 1.0)
    band = min(int(5.0 * reach) + 1, h // 2, w // 2)
    if band <= 0:
        return
    ramp = 1.0 - 0.25 * np.exp(-np.arange(band, dtype=np.float32) / reach)
    region[:band] *= ramp[:, None, None]
    region[h - band:] *= ramp[::-1, None, None]
    region[:, :band] *= ramp[None, :, None]
    region[:, w - band:] *= ramp[None, ::-1, None]


def _draw_tray(canvas: npt.NDArray[np.float32], style: BoardStyle, tray: Tray,
               px: PixelOf, scale: float) -> None:
    floor = style.tray_floor or tuple(int(c * 0.7) for c in style.field)
    a = px(tray.x0, tray.y0)
    b = px(tray.x1, tray.y1)
    x0, y0, x1, y1 = round(a[0]), round(a[1]), round(b[0]), round(b[1])
    region = canvas[y0:y1, x0:x1]
    region[:] = floor
    # The tray is sunk into the frame: shadowed along its walls.
    _rail_shadow(region, scale * 1.6)


def _draw_bar(canvas: npt.NDArray[np.float32], style: BoardStyle, geo: BoardGeometry,
              px: PixelOf, scale: float, rng: np.random.Generator) -> None:
    left, right = geo.profile.bar_span
    a = px(left * geo.width, 0.0)
    b = px(right * geo.width, geo.height)
    x0, x1 = round(a[0]), round(b[0])
    y0, y1 = round(a[1]), round(b[1])
    bar = canvas[y0:y1, x0:x1]
    bar[:] = style.frame
    bar *= (0.9 + 0.06 * smooth_noise(rng, bar.shape[:2], cell=20.0 * scale))[:, :, None]
    mid = (x1 - x0) // 2
    cv2.line(bar, (mid, 0), (mid, y1 - y0), _f(tuple(int(c * 0.5) for c in style.frame)),
             max(1, round(0.6 * scale)))
    if not style.hinges:
        return
    hw, hh = 0.35 * (x1 - x0), 18.0 * scale
    for v in (0.2, 0.8):
        cy = v * (y1 - y0)
        p0 = (round(mid - hw), round(cy - hh))
        p1 = (round(mid + hw), round(cy + hh))
        cv2.rectangle(bar, p0, p1, (175.0, 178.0, 180.0), -1, cv2.LINE_AA)
        cv2.rectangle(bar, p0, p1, (110.0, 110.0, 112.0), max(1, round(0.5 * scale)),
                      cv2.LINE_AA)
        for dy in (-0.6, 0.0, 0.6):
            cv2.circle(bar, (mid, round(cy + dy * hh)), max(1, round(1.5 * scale)),
                       (120.0, 120.0, 125.0), -1, cv2.LINE_AA)


def _bevels(canvas: npt.NDArray[np.float32], style: BoardStyle, geo: BoardGeometry,
            px: PixelOf, scale: float) -> None:
    """A light line on the rails' inner edges and a dark one on the board's outer edge."""
    a = px(0.0, 0.0)
    b = px(geo.width, geo.height)
    thick = max(1, round(0.8 * scale))
    light = tuple(0.7 * c + 0.3 * 255.0 for c in style.frame)
    cv2.rectangle(canvas, (round(a[0]) - thick, round(a[1]) - thick),
                  (round(b[0]) + thick, round(b[1]) + thick), light, thick, cv2.LINE_AA)
    h, w = canvas.shape[:2]
    cv2.rectangle(canvas, (0, 0), (w - 1, h - 1), (10.0, 10.0, 10.0), thick * 2)


def _f(colour: tuple[int, ...] | BGR) -> tuple[float, float, float]:
    return float(colour[0]), float(colour[1]), float(colour[2])
