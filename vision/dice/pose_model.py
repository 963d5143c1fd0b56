"""A learned flat-or-cocked cue: a small classifier over the die's own pixels.

The hand-made cues (:mod:`.pose`) measure numbers (the top face's squash, a side
band's width, an outline's reach) and each is a bound; a cocked die whose tipped-up
side face shows as squashed pip slivers or bars, or as a shading step no outline test
accepts, sits inside every bound.  This cue looks at the rectified window itself:

- a crop around the found top face (:func:`crop`), turned so that the side the die
  would tip up (the face's side turned most from what it leans on, the lean direction
  from :func:`.support.lean_directions`) points along +x, scaled to the face's own die
  edge (:data:`PIXELS_PER_EDGE` pixels an edge) and normalised by the face's grey
  level and its pips' contrast (so that white, black and red dice look alike: the face
  0, its pips -1; light pips on a dark die are read in the inverted image, as the pip
  search reads them);
- features of that crop (:func:`features`): the crop pooled 2x2, gradient-orientation
  histograms in cells, and where perspective lets a flat die's side show (the nadir's
  direction in the crop's frame times the perspective reach);
- a one-hidden-layer network (or a logistic regression: no hidden layer) whose
  weights are ``pose_model.npz`` beside this module, fitted by
  ``bench/train_pose_model.py`` on renders of the tuned styles only.

It runs with numpy and OpenCV alone.  :func:`score` gives the log-odds that the die is
cocked; :class:`~vision.dice.pose.PoseConfig` ``learned`` is the threshold.
"""

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import Face
from vision.dice.pips import Gray
from vision.dice.sides import grid_angle
from vision.errors import ConfigError

MODEL_PATH = Path(__file__).with_name("pose_model.npz")
"""The fitted weights shipped with the package: ``bench/train_pose_model.py fit`` on the
readings of ``collect`` seeds 200-205 (cocked-die scenes) and 206 (``--mix``), 150 scenes
each, tuned styles only (2002 readings, 1342 of cocked dice); five networks of 16 hidden
units (seeds 0-4) merged."""
THRESHOLD = 2.6
"""The log-odds :class:`~vision.dice.pose.PoseConfig` ``learned`` defaults to: just over the
second highest flat die's (2.57) of the validation seeds 207 (``--mix``) and 208 (never
fitted on), read as if supported; there the cue called 5 of the 12 cocked dice with
support the bounds read flat cocked (5 of 13 as if supported), no flat die with its own
support of 15 and 1 of 188 as if supported.  The highest flat die (4.24) would have left
2 of 13."""

PIXELS_PER_EDGE = 16
"""Crop pixels a die edge (of the face's estimated size): a 15-degree tilt's tipped-up
face, 0.26 die edges, is four pixels."""
CROP_X = (-1.0, 1.625)
"""The crop's extent along the side turned from the support (die edges from the face's
centre): the top face's near half and far side, the tipped-up face (up to 0.57 die
edges past the top face's edge at 35 degrees) and the board past it."""
CROP_Y = (-1.125, 1.125)
"""Its extent across (die edges): the whole face and a little of the board either side."""
CLIP = 3.0
"""Normalised grey levels are clipped to this many pip contrasts either side of the face."""
SIZE_RANGE = (0.6, 1.4)
"""The face's estimated die edge is trusted within this fraction of the configured one."""


def crop_shape() -> tuple[int, int]:
    """(rows, columns) of :func:`crop`."""
    return (round((CROP_Y[1] - CROP_Y[0]) * PIXELS_PER_EDGE),
            round((CROP_X[1] - CROP_X[0]) * PIXELS_PER_EDGE))


def away_axis(face: Face, lean: tuple[float, float]) -> tuple[float, float]:
    """The unit direction (pixels of the window) of the face's side turned most from
    ``lean`` (toward what it leans on): the grid's side normal nearest ``-lean``, or
    ``-lean`` itself for a one (no grid)."""
    away = (-lean[0], -lean[1])
    angle = grid_angle(face)
    if angle is None:
        norm = math.hypot(*away)
        return (away[0] / norm, away[1] / norm) if norm > 0.0 else (1.0, 0.0)
    normals = [(math.cos(angle + k * math.pi / 2.0), math.sin(angle + k * math.pi / 2.0))
               for k in range(4)]
    return max(normals, key=lambda n: n[0] * away[0] + n[1] * away[1])


def crop(gray: Gray, face: Face, lean: tuple[float, float], die_pixels: float,
         axis: tuple[float, float] | None = None) -> npt.NDArray[np.float32]:
    """The window ``gray`` around ``face``, turned so that the side turned from ``lean``
    (:func:`away_axis`, or ``axis``) runs along +x, :data:`PIXELS_PER_EDGE` pixels a die
    edge, in pip contrasts from the face's grey level (pips negative), clipped."""
    size = float(np.clip(face.die_size, SIZE_RANGE[0] * die_pixels,
                         SIZE_RANGE[1] * die_pixels))
    ax, ay = away_axis(face, lean) if axis is None else axis
    rows, cols = crop_shape()
    step = size / PIXELS_PER_EDGE
    # output pixel (c, r) samples the window at centre + step * ((x) * a + (y) * a_perp)
    x0 = CROP_X[0] * PIXELS_PER_EDGE + 0.5
    y0 = CROP_Y[0] * PIXELS_PER_EDGE + 0.5
    cx, cy = face.center
    matrix = np.array([[step * ax, -step * ay, cx + step * (x0 * ax - y0 * ay)],
                       [step * ay, step * ax, cy + step * (x0 * ay + y0 * ax)]])
    image = gray if face.polarity == "dark" else 255 - gray
    sampled = cv2.warpAffine(image.astype(np.float32), matrix, (cols, rows),
                             flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_REPLICATE)
    level = float(np.median([p.face for p in face.pips]))
    contrast = max(float(np.median([p.contrast for p in face.pips])), 1.0)
    return np.asarray(np.clip((np.asarray(sampled, np.float32) - level) / contrast, -CLIP, CLIP),
                      np.float32)


def geometry(face: Face, axis: tuple[float, float], nadir: tuple[float, float],
             reach: float) -> npt.NDArray[np.float32]:
    """Where perspective lets a flat die's sides show, in the crop's frame: the unit
    direction to the nadir (along the axis, across it, the latter unsigned as the crop
    is mirrored) times the perspective reach (die edges)."""
    nx, ny = nadir[0] - face.center[0], nadir[1] - face.center[1]
    norm = math.hypot(nx, ny)
    if norm == 0.0:
        return np.zeros(2, np.float32)
    along = (nx * axis[0] + ny * axis[1]) / norm
    across = (-nx * axis[1] + ny * axis[0]) / norm
    return np.array([reach * along, reach * abs(across)], np.float32)


CELL = 4
"""Cell size (crop pixels, a quarter die edge) of the gradient histograms."""
BINS = 6
"""Unsigned gradient orientations a cell's histogram counts."""


def features(window: npt.NDArray[np.float32], where: npt.NDArray[np.float32]
             ) -> npt.NDArray[np.float32]:
    """The classifier's input from a :func:`crop` and its :func:`geometry`: the crop
    pooled 2x2, the gradient orientation histograms of its cells (each cell's magnitudes
    by orientation, square-rooted), and the geometry."""
    rows, cols = window.shape
    pooled = window[:rows // 2 * 2, :cols // 2 * 2].reshape(
        rows // 2, 2, cols // 2, 2).mean(axis=(1, 3))
    gx = cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    magnitude = np.hypot(gx, gy)
    orientation = np.mod(np.arctan2(gy, gx), math.pi)
    index = np.minimum((orientation / math.pi * BINS).astype(np.int64), BINS - 1)
    cr, cc = rows // CELL, cols // CELL
    cell = (np.arange(cr * CELL)[:, None] // CELL) * cc + np.arange(cc * CELL)[None, :] // CELL
    flat = (cell * BINS + index[:cr * CELL, :cc * CELL]).ravel()
    hist = np.bincount(flat, weights=magnitude[:cr * CELL, :cc * CELL].ravel(),
                       minlength=cr * cc * BINS)
    return np.concatenate([pooled.ravel(), np.sqrt(hist).astype(np.float32),
                           where]).astype(np.float32)


def _signature() -> tuple[int, ...]:
    """What a model's features depend on: the crop's shape, the cell, the bins and the
    crop's pixels a die edge (stored with the weights, checked when read)."""
    return (*crop_shape(), CELL, BINS, PIXELS_PER_EDGE)


@dataclass(frozen=True)
class PoseModel:
    """Standardisation and weights of the classifier (``hidden`` empty: a logistic
    regression)."""

    mean: npt.NDArray[np.float32]
    scale: npt.NDArray[np.float32]
    hidden: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...]
    """(weights, bias) of each hidden layer (ReLU)."""
    out: npt.NDArray[np.float32]
    bias: float

    def log_odds(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Log-odds of cocked for rows of features ``x``."""
        h = (np.atleast_2d(x) - self.mean) / self.scale
        for weights, bias in self.hidden:
            h = np.maximum(h @ weights + bias, 0.0)
        return np.asarray(h @ self.out + self.bias, np.float32)

    def save(self, path: Path) -> None:
        arrays: dict[str, npt.NDArray[np.float32]] = {
            "mean": self.mean, "scale": self.scale, "out": self.out,
            "bias": np.array([self.bias], np.float32),
            "shape": np.array(_signature(), np.float32)}
        for i, (weights, bias) in enumerate(self.hidden):
            arrays[f"w{i}"] = weights
            arrays[f"b{i}"] = bias
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def read_model(path: Path) -> PoseModel:
    """The model in ``path`` (as :meth:`PoseModel.save` writes it)."""
    with np.load(path) as data:
        shape = tuple(int(v) for v in data["shape"])
        if shape != _signature():
            raise ConfigError(f"dice pose model {path}: fitted for crops {shape}, this code "
                              f"makes {_signature()}")
        hidden = []
        i = 0
        while f"w{i}" in data:
            hidden.append((np.asarray(data[f"w{i}"], np.float32),
                           np.asarray(data[f"b{i}"], np.float32)))
            i += 1
        return PoseModel(np.asarray(data["mean"], np.float32),
                         np.asarray(data["scale"], np.float32), tuple(hidden),
                         np.asarray(data["out"], np.float32), float(data["bias"][0]))


@functools.lru_cache(maxsize=4)
def model(path: Path = MODEL_PATH) -> PoseModel:
    """The model shipped with the package (read once)."""
    return read_model(path)


def die_features(gray: Gray, face: Face, lean: tuple[float, float], die_pixels: float,
                 nadir: tuple[float, float], reach: float
                 ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The features of a die and of its crop mirrored across the axis (the classifier
    scores both and takes the mean: a die tipped toward either hand is alike)."""
    axis = away_axis(face, lean)
    window = crop(gray, face, lean, die_pixels, axis)
    where = geometry(face, axis, nadir, reach)
    return features(window, where), features(window[::-1].copy(), where)


def score(gray: Gray, face: Face, lean: tuple[float, float], die_pixels: float,
          nadir: tuple[float, float], reach: float, fitted: PoseModel | None = None
          ) -> float:
    """The log-odds that the die of ``face`` (in the rectified window ``gray``, dice
    ``die_pixels`` wide; ``lean`` toward what it leans on, ``nadir`` the point below the
    camera in the window's pixels, ``reach`` the perspective reach there in die edges)
    is cocked, by the shipped model (or ``fitted``)."""
    chosen = model() if fitted is None else fitted
    straight, mirrored = die_features(gray, face, lean, die_pixels, nadir, reach)
    return float(np.mean(chosen.log_odds(np.stack([straight, mirrored]))))
