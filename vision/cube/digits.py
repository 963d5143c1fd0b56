"""Reading the number on the doubling cube's top face by template matching.

The face, cut out of the image and turned so its sides are upright, is
split into ink and face by Otsu's threshold (the face is whichever class
owns the border), the ink's bounding box is cut out, padded square and
compared with templates of the six numbers drawn here with ``cv2.putText``
in several Hershey fonts, in all four quarter turns (a cube faces its
owner, so the camera may see it any way round).  Normalised correlation
(one matrix product against all templates, drawn and normalised once)
picks the number; a number is reported only when it beats every other
number by a margin, since a wrong value is worse than none.
"""

import functools
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

Gray = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]

VALUES: Final = (2, 4, 8, 16, 32, 64)
FONTS: Final = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                cv2.FONT_HERSHEY_TRIPLEX)
GLYPH: Final = 24
"""Side of the square the ink and the templates are compared at (pixels)."""


@dataclass(frozen=True, slots=True)
class DigitConfig:
    """Thresholds of the reader."""

    face_size: int = 64
    """The face is resampled to this many pixels a side before reading."""
    inset: float = 0.1
    """Share of each side cut off the face (the rim and its bevel)."""
    min_ink: float = 0.03
    max_ink: float = 0.45
    """The ink must cover between these shares of the face, else it is no number."""
    min_blob: float = 0.004
    """Ink blobs smaller than this share of the face are noise."""
    min_contrast: float = 40.0
    """Grey levels between the face and the ink; less is a blank or blurred face."""
    min_score: float = 0.72
    """Normalised correlation the best template needs: drawn numbers in fonts not among
    the templates score 0.83 or more (5th percentile), the real logo face 0.48-0.61."""
    min_margin: float = 0.06
    """How far the best number must beat the best other number."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What the reader made of a face."""

    value: int | None
    score: float
    """Correlation of the best template (0 when no ink was found)."""
    margin: float
    """Best score minus the best score of another number."""


def read_face(face: Gray, config: DigitConfig | None = None) -> Reading:
    """The number on an upright grey face image (any size), or None when unsure."""
    config = config or DigitConfig()
    glyph = _glyph(face, config)
    if glyph is None:
        return Reading(None, 0.0, 0.0)
    values, templates = _template_matrix()
    turns = _unit_rows(np.stack([np.rot90(glyph, turn).ravel() for turn in range(4)]))
    scores = (turns @ templates.T).max(axis=0)
    best = {value: float(scores[values == value].max()) for value in VALUES}
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    (value, score), (_, second) = ranked[0], ranked[1]
    margin = score - second
    if score < config.min_score or margin < config.min_margin:
        return Reading(None, score, margin)
    return Reading(value, score, margin)


def _glyph(face: Gray, config: DigitConfig) -> Floats | None:
    """The ink of a face, cropped, padded square and resized to ``GLYPH``; None if no ink."""
    size = config.face_size
    img = cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA)
    cut = round(config.inset * size)
    img = img[cut:size - cut, cut:size - cut]
    low, high = np.percentile(img, (5, 95))
    if high - low < config.min_contrast:
        return None
    _, binary = cv2.threshold(img, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    border = np.concatenate([binary[0], binary[-1], binary[:, 0], binary[:, -1]])
    ink = binary == 0 if border.mean() >= 0.5 else binary == 1
    _, components, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                               connectivity=8)
    side = img.shape[0]
    x, y, w, h, area = (stats[:, i] for i in range(5))
    touches = (x == 0) | (y == 0) | (x + w == side) | (y + h == side)
    wanted = (area >= config.min_blob * side * side) & ~touches
    wanted[0] = False
    keep = wanted[components]
    share = float(np.count_nonzero(keep)) / keep.size
    if not config.min_ink <= share <= config.max_ink:
        return None
    return _normalise(keep)


def _normalise(ink: npt.NDArray[np.bool_]) -> Floats:
    """Crop the ink to its box, pad it square (keeping its shape) and resize."""
    ys, xs = np.nonzero(ink)
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    side = max(h, w) + 2
    square = np.zeros((side, side), dtype=np.float32)
    y0, x0 = (side - h) // 2, (side - w) // 2
    square[y0:y0 + h, x0:x0 + w] = crop
    small = cv2.resize(square, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (0, 0), 0.8), dtype=np.float32)


@functools.cache
def _template_matrix() -> tuple[npt.NDArray[np.int64], Floats]:
    """The templates' values, and the templates as rows of zero mean and unit length:
    the product of two such rows is the normalised correlation (``TM_CCOEFF_NORMED``) of
    the two images, so one matrix product scores a glyph against every template."""
    pairs = _templates()
    values = np.array([value for value, _ in pairs], dtype=np.int64)
    return values, _unit_rows(np.stack([template.ravel() for _, template in pairs]))


def _unit_rows(rows: Floats) -> Floats:
    centred = rows - rows.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(centred, axis=1, keepdims=True)
    return np.asarray(centred / np.maximum(norms, 1e-9), dtype=np.float32)


@functools.cache
def _templates() -> tuple[tuple[int, Floats], ...]:
    """Every number in every font and stroke weight, normalised like the ink."""
    out = []
    for value in VALUES:
        for font in FONTS:
            for thickness in (2, 4, 6):
                canvas = np.zeros((120, 200), dtype=np.uint8)
                cv2.putText(canvas, str(value), (20, 95), font, 2.5, 255, thickness,
                            cv2.LINE_AA)
                out.append((value, _normalise(canvas > 127)))
    return tuple(out)
