"""Synthetic overhead frames of a board with known field corners, markers optional.

The tests and ``bench/calibration_accuracy.py`` need frames whose true
field corners are known exactly, with and without the calibration markers
on the rails.  The board is drawn flat, top-down, at 4 pixels per
millimetre (so a 2.5 mm marker cell is exactly 10 pixels and the markers'
edges fall on pixel edges), then photographed: warped by the homography
that sends the field's corners to the requested image corners, blurred,
lit unevenly and given sensor noise.  The markers are placed exactly as
:mod:`vision.calibration.markers` says players must place them.

Pixel convention: pixel centres at integer coordinates, as OpenCV reports
marker corners; a pixel's area reaches half a pixel either side.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration.aruco_compat import ArucoApi
from vision.calibration.markers import DEFAULT_LAYOUT, MarkerLayout, layout_dictionary
from vision.observation import Corners
from vision.profile import TOURNAMENT, BoardProfile

Image = npt.NDArray[np.uint8]
BGR = tuple[int, int, int]

PX_PER_MM = 4


@dataclass(frozen=True, slots=True)
class Look:
    """Colours (BGR) and camera imperfections of a synthetic frame."""

    field: BGR = (178, 190, 200)
    """Cream, as on the real tournament board."""
    point_a: BGR = (35, 25, 165)
    point_b: BGR = (28, 24, 22)
    rail: BGR = (34, 30, 36)
    bar: BGR = (24, 20, 20)
    table: BGR = (110, 140, 165)
    light_checker: BGR = (215, 212, 210)
    dark_checker: BGR = (32, 30, 30)
    blur: float = 0.7
    """Gaussian blur (image pixels) after the warp: the lens and the focus."""
    noise: float = 2.5
    """Standard deviation of the sensor noise, grey levels."""
    vignette: float = 0.15
    """Light falls off by this much from the middle to the corners."""


def render(corners: Corners, size: tuple[int, int] = (1280, 720), *,
           profile: BoardProfile = TOURNAMENT, layout: MarkerLayout = DEFAULT_LAYOUT,
           markers: bool = True, turns: tuple[int, int, int, int] = (0, 0, 0, 0),
           checkers: int = 0, field_mm: float = 480.0, rail_mm: float = 25.0,
           look: Look | None = None, seed: int = 0, api: ArucoApi | None = None) -> Image:
    """A BGR frame ``size`` (width, height) whose playing field lands on ``corners``.

    ``turns`` rotates each marker tile (top-left, top-right, bottom-right,
    bottom-left) by quarter turns, as a player may stick it; ``checkers``
    scatters that many checkers over the points.
    """
    look = look or Look()
    rng = np.random.default_rng(seed)
    plane, field_box = _plane(profile, layout, markers, turns, checkers, field_mm, rail_mm,
                              look, rng, api or ArucoApi())
    x0, y0, x1, y1 = field_box
    # Continuous plane coordinates of the field's outer edges (pixel centres at integers).
    src = np.array([[x0 - 0.5, y0 - 0.5], [x1 - 0.5, y0 - 0.5], [x1 - 0.5, y1 - 0.5],
                    [x0 - 0.5, y1 - 0.5]], dtype=np.float32)
    dst = np.array(corners.as_list(), dtype=np.float32)
    homography = cv2.getPerspectiveTransform(src, dst)
    # Blur before shrinking, so the warp does not alias the fine marker cells.
    shrink = (float(np.linalg.norm(src[1] - src[0]))
              / max(1.0, float(np.linalg.norm(dst[1] - dst[0]))))
    if shrink > 1.0:
        plane = np.asarray(cv2.GaussianBlur(plane, (0, 0), 0.45 * shrink), dtype=np.uint8)
    frame = cv2.warpPerspective(plane, homography, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=look.table)
    return _camera(np.asarray(frame, dtype=np.uint8), look, rng)


def _plane(profile: BoardProfile, layout: MarkerLayout, markers: bool,
           turns: tuple[int, int, int, int], checkers: int, field_mm: float, rail_mm: float,
           look: Look, rng: np.random.Generator,
           api: ArucoApi) -> tuple[Image, tuple[int, int, int, int]]:
    """The board drawn top-down; and the field's pixel box (x0, y0, x1, y1), exclusive."""
    width = round(field_mm * PX_PER_MM)
    height = round(width / profile.field_aspect)
    rail = round(rail_mm * PX_PER_MM)
    border = rail + round(30 * PX_PER_MM)
    plane = np.full((height + 2 * border, width + 2 * border, 3), look.table, dtype=np.uint8)
    x0, y0 = border, border
    x1, y1 = x0 + width, y0 + height
    cv2.rectangle(plane, (x0 - rail, y0 - rail), (x1 + rail - 1, y1 + rail - 1), look.rail, -1)
    cv2.rectangle(plane, (x0, y0), (x1 - 1, y1 - 1), look.field, -1)
    _points(plane, profile, (x0, y0, width, height), look)
    bar_l, bar_r = (x0 + round(u * width) for u in profile.bar_span)
    cv2.rectangle(plane, (bar_l, y0), (bar_r - 1, y1 - 1), look.bar, -1)
    _checkers(plane, profile, (x0, y0, width, height), checkers, look, rng)
    if markers:
        _markers(plane, layout, (x0, y0, x1, y1), turns, api)
    return plane, (x0, y0, x1, y1)


def _points(plane: Image, profile: BoardProfile, box: tuple[int, int, int, int],
            look: Look) -> None:
    x0, y0, width, height = box
    shift = 4
    one = 1 << shift
    for k in range(12):
        left = k * profile.point_width if k < 6 else (profile.bar_span[1]
                                                      + (k - 6) * profile.point_width)
        for top in (True, False):
            colour = look.point_a if (k + (0 if top else 1)) % 2 == 0 else look.point_b
            base = y0 - 0.5 if top else y0 + height - 0.5
            tip = base + (1 if top else -1) * profile.point_length * height
            xs = (x0 - 0.5 + left * width, x0 - 0.5 + (left + profile.point_width) * width)
            poly = np.array([[xs[0], base], [xs[1], base], [0.5 * (xs[0] + xs[1]), tip]])
            cv2.fillPoly(plane, [np.round((poly + 0.5) * one).astype(np.int32)], colour,
                         cv2.LINE_AA, shift)


def _checkers(plane: Image, profile: BoardProfile, box: tuple[int, int, int, int],
              count: int, look: Look, rng: np.random.Generator) -> None:
    """``count`` checkers stacked from the rails on random points."""
    x0, y0, width, height = box
    diameter = profile.point_width * profile.checker_diameter * width
    stacks: dict[int, int] = {}
    for _ in range(count):
        point = int(rng.integers(0, 24))
        depth = stacks.get(point, 0)
        if depth >= 5:
            continue
        stacks[point] = depth + 1
        k = point - 12 if point >= 12 else 11 - point
        left = k * profile.point_width if k < 6 else (profile.bar_span[1]
                                                      + (k - 6) * profile.point_width)
        cx = x0 + (left + 0.5 * profile.point_width) * width
        offset = (depth + 0.5) * diameter
        cy = y0 + offset if point >= 12 else y0 + height - offset
        light = bool(rng.integers(0, 2))
        colour = look.light_checker if light else look.dark_checker
        rim = (150, 150, 150) if light else (170, 170, 170)
        centre = (round(cx), round(cy))
        cv2.circle(plane, centre, round(0.5 * diameter), colour, -1, cv2.LINE_AA)
        cv2.circle(plane, centre, round(0.5 * diameter), rim, max(2, round(diameter / 40)),
                   cv2.LINE_AA)


def _markers(plane: Image, layout: MarkerLayout, field_box: tuple[int, int, int, int],
             turns: tuple[int, int, int, int], api: ArucoApi) -> None:
    """The four tiles on the rails, each touching its field corner from outside."""
    x0, y0, x1, y1 = field_box
    cell = round(layout.cell_mm * PX_PER_MM)
    margin = round(layout.margin_cells * cell)
    dictionary = layout_dictionary(api, layout)
    tile_px = layout.cells * cell + 2 * margin
    # Top-left pixel of each tile: diagonally outside its corner.
    origins = [(x0 - tile_px, y0 - tile_px), (x1, y0 - tile_px), (x1, y1), (x0 - tile_px, y1)]
    for marker_id, (ox, oy), turn in zip(layout.ids, origins, turns, strict=True):
        cells = api.marker_cells(dictionary, marker_id)
        pattern = np.where(np.kron(cells, np.ones((cell, cell), dtype=np.bool_)), 235, 15)
        tile = np.full((tile_px, tile_px), 235, dtype=np.uint8)
        tile[margin:margin + pattern.shape[0], margin:margin + pattern.shape[1]] = pattern
        tile = np.rot90(tile, -turn)
        plane[oy:oy + tile_px, ox:ox + tile_px] = tile[:, :, None]


def paste_markers(frame: Image, field_to_image: npt.NDArray[np.float64], field_mm: float,
                  field_aspect: float, *, layout: MarkerLayout = DEFAULT_LAYOUT,
                  turns: tuple[int, int, int, int] = (0, 0, 0, 0), blur: float = 0.7,
                  noise: float = 2.0, seed: int = 0, api: ArucoApi | None = None) -> Image:
    """``frame`` with the four tiles pasted where they belong on its board.

    ``field_to_image`` maps board-plane millimetres (origin at the field's
    top-left corner, x along the top edge, y down the left edge) to image
    pixels, e.g. the z = 0 columns of a :mod:`vision.synth` truth's
    projection; ``field_mm`` is the field's width.  The tiles get their own
    blur and noise, since they were not there when the frame was taken.
    """
    api = api or ArucoApi()
    rng = np.random.default_rng(seed)
    dictionary = layout_dictionary(api, layout)
    width, height = field_mm, field_mm / field_aspect
    tile, scale = layout.tile_mm, 10.0  # tiles drawn at 10 px per mm, then warped
    origins = [(-tile, -tile), (width, -tile), (width, height), (-tile, height)]
    out = frame.astype(np.float32)
    size = (frame.shape[1], frame.shape[0])
    for marker_id, (ox, oy), turn in zip(layout.ids, origins, turns, strict=True):
        cells = api.marker_cells(dictionary, marker_id)
        cell_px = round(layout.cell_mm * scale)
        margin_px = round(layout.margin_cells * cell_px)
        pattern = np.where(np.kron(cells, np.ones((cell_px, cell_px), dtype=np.bool_)),
                           235.0, 15.0).astype(np.float32)
        tile_px = pattern.shape[0] + 2 * margin_px
        drawn = np.full((tile_px, tile_px), 235.0, dtype=np.float32)
        drawn[margin_px:margin_px + pattern.shape[0], margin_px:margin_px + pattern.shape[0]] = (
            pattern)
        drawn = np.ascontiguousarray(np.rot90(drawn, -turn))
        # Tile pixel (centre convention) -> board millimetres -> image.
        mm_per_px = tile / tile_px
        to_plane = np.array([[mm_per_px, 0.0, ox + 0.5 * mm_per_px],
                             [0.0, mm_per_px, oy + 0.5 * mm_per_px], [0.0, 0.0, 1.0]])
        matrix = field_to_image @ to_plane
        ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [tile_px, 0.0]]]), matrix)[0]
        shrink = tile_px / max(1.0, float(np.linalg.norm(ends[1] - ends[0])))
        if shrink > 1.0:
            drawn = np.asarray(cv2.GaussianBlur(drawn, (0, 0), 0.45 * shrink),
                               dtype=np.float32)
        warped = _f32(cv2.warpPerspective(drawn, matrix, size, flags=cv2.INTER_LINEAR))
        mask = _f32(cv2.warpPerspective(np.ones_like(drawn), matrix, size,
                                        flags=cv2.INTER_LINEAR))
        if blur > 0:
            warped = _f32(cv2.GaussianBlur(warped, (0, 0), blur))
            mask = _f32(cv2.GaussianBlur(mask, (0, 0), blur))
        if noise > 0:
            warped = warped + rng.normal(0.0, noise, warped.shape).astype(np.float32)
        out = out * (1.0 - mask[:, :, None]) + (warped * mask)[:, :, None]
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)


def _f32(array: object) -> npt.NDArray[np.float32]:
    return np.asarray(array, dtype=np.float32)


def _camera(frame: Image, look: Look, rng: np.random.Generator) -> Image:
    """Lens blur, uneven light and sensor noise."""
    height, width = frame.shape[:2]
    out = frame.astype(np.float32)
    if look.blur > 0:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), look.blur), dtype=np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xx - width / 2) / (width / 2)) ** 2 + ((yy - height / 2) / (height / 2)) ** 2
    out *= (1.0 - look.vignette * r2 / 2.0)[:, :, None]
    if look.noise > 0:
        out += rng.normal(0.0, look.noise, out.shape).astype(np.float32)
    return np.asarray(np.clip(out, 0, 255), dtype=np.uint8)
