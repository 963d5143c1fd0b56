"""Procedural surface textures: wood grain, felt, leather, marble, table tops.

A flat colour field is the easiest thing a detector can learn and the one
thing no real board has, so every surface gets a texture.  Each function
returns a float32 *relative brightness* map around 0 (roughly -1..1) that
the caller scales by the style's texture strength and multiplies in.  They
are built from low-resolution random grids blown up with cubic
interpolation, which is cheap enough to run per frame.
"""

from statistics import NormalDist

import cv2
import numpy as np
import numpy.typing as npt

Map = npt.NDArray[np.float32]
_QUANTILES = np.array([NormalDist().inv_cdf((i + 0.5) / 256.0) for i in range(256)], np.float32)
"""Standard normal quantiles: random bytes looked up here are (8-bit) Gaussian noise."""
_SMOOTH_GAIN = 1.3
"""Cubic upsampling of white noise loses about a quarter of its spread; this restores it."""


def gaussian(rng: np.random.Generator, shape: tuple[int, ...]) -> Map:
    """Standard normal noise, fast: a table lookup of random bytes."""
    raw = np.frombuffer(rng.bytes(int(np.prod(shape))), np.uint8).reshape(shape)
    return np.asarray(cv2.LUT(raw, _QUANTILES), dtype=np.float32)


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> Map:
    """Gaussian noise correlated over about ``cell`` pixels, roughly unit standard deviation."""
    h, w = shape
    gh, gw = max(int(h / cell) + 2, 2), max(int(w / cell) + 2, 2)
    grid = gaussian(rng, (gh, gw)) * _SMOOTH_GAIN
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), dtype=np.float32)


def grain(rng: np.random.Generator, shape: tuple[int, int], rings: float) -> Map:
    """Wood grain along x: stripes bent by low-frequency noise, with fibres.

    Grain changes slowly along the fibres, so it is computed on a grid four
    times coarser in that direction and stretched.
    """
    h, w = shape
    along = max(w // 4, 2)
    warp = smooth_noise(rng, (h, along), cell=max(along / 3.0, 4.0)) * 6.0
    lines = np.arange(h, dtype=np.float32)[:, None] + warp
    period = max(h / max(rings, 1.0), 3.0)
    stripes = np.sin(lines * np.float32(2.0 * np.pi / period))
    fibre = np.asarray(cv2.resize(smooth_noise(rng, (h, max(along // 4, 2)), cell=1.5),
                                  (along, h), interpolation=cv2.INTER_LINEAR), dtype=np.float32)
    small = (0.6 * stripes + 0.4 * fibre).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR),
                      dtype=np.float32)


def felt(rng: np.random.Generator, shape: tuple[int, int]) -> Map:
    """Fine fibres with a faint cloudiness."""
    fine = cv2.GaussianBlur(gaussian(rng, shape), (0, 0), 0.7) * 2.0
    return np.asarray(0.7 * fine + 0.3 * smooth_noise(rng, shape, cell=60.0), dtype=np.float32)


def leather(rng: np.random.Generator, shape: tuple[int, int]) -> Map:
    """Pebbled grain: small blobs with dark creases between them."""
    blobs = smooth_noise(rng, shape, cell=2.5)
    # -|N(0, 1)| has mean -0.80 and standard deviation 0.60.
    creases = (0.80 - np.abs(blobs)) / 0.60
    return np.asarray(0.5 * creases + 0.5 * smooth_noise(rng, shape, cell=80.0),
                      dtype=np.float32)


def marble(rng: np.random.Generator, size: int) -> Map:
    """Veins in 0..1 (1 = vein) over a square ``size`` pixels wide."""
    turbulence = smooth_noise(rng, (size, size), cell=size / 5.0) * 2.5 \
        + smooth_noise(rng, (size, size), cell=size / 14.0) * 0.8
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    angle = float(rng.uniform(0.0, np.pi))
    phase = (xs * np.cos(angle) + ys * np.sin(angle)) * (2.0 * np.pi * 1.6 / size)
    veins = 1.0 - np.abs(np.sin(phase + turbulence))
    return np.asarray(veins**6, dtype=np.float32)


def surface(kind: str, rng: np.random.Generator, shape: tuple[int, int], scale: float) -> Map:
    """The texture of a field or frame kind at ``scale`` pixels per millimetre."""
    if kind == "wood":
        return grain(rng, shape, rings=shape[0] / (9.0 * scale))
    if kind == "felt":
        return felt(rng, shape)
    if kind == "leather":
        return leather(rng, shape)
    if kind == "cream":
        return np.asarray(0.3 * smooth_noise(rng, shape, cell=40.0 * scale)
                          + 0.7 * felt(rng, shape), dtype=np.float32)
    return smooth_noise(rng, shape, cell=30.0 * scale)  # printed, plain
