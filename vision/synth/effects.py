"""What lies around the board and what the camera does to the picture.

The table top with some clutter on it (score sheets, a clock, cups: real
boards never lie in a void), then, over the finished scene: uneven
illumination (exposure, a gradient across the board, vignetting, white
balance), lamp reflections on glossy surfaces, focus blur, sensor noise
and optionally JPEG compression.  Each is cheap on its own; together they
cost a few tens of milliseconds at 1280x720.
"""

import math
from statistics import NormalDist

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.scene import Lighting
from vision.synth.styles import BGR
from vision.synth.textures import grain, smooth_noise

Frame = npt.NDArray[np.float32]
_GAUSS = np.array([NormalDist().inv_cdf((i + 0.5) / 256.0) for i in range(256)], np.float32)
"""Quantiles of the standard normal: random bytes through this table are Gaussian noise."""


def table(size: tuple[int, int], colour: BGR, rng: np.random.Generator) -> Frame:
    """The surface around the board, with a few objects lying on it."""
    w, h = size
    small = (max(h // 4, 8), max(w // 4, 8))
    if rng.random() < 0.5:
        coarse = grain(rng, small, rings=small[0] / 12.0)
    else:
        coarse = 0.5 * smooth_noise(rng, small, cell=2.0) + 0.5 * smooth_noise(rng, small,
                                                                             cell=40.0)
    tex = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    image = np.empty((h, w, 3), np.float32)
    image[:] = colour
    image *= (1.0 + 0.06 * tex)[:, :, None]
    for _ in range(int(rng.integers(0, 5))):
        _clutter(image, rng)
    return image


def _clutter(image: Frame, rng: np.random.Generator) -> None:
    h, w = image.shape[:2]
    cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
    kind = int(rng.integers(3))
    if kind == 0:  # a sheet of paper
        size = float(rng.uniform(0.15, 0.35)) * h
        box = ((cx, cy), (size * 0.75, size), float(rng.uniform(0, 180)))
        pts = cv2.boxPoints(box)
        grey = float(rng.uniform(200, 245))
        cv2.fillConvexPoly(image, np.round(pts).astype(np.int32), (grey, grey, grey + 3),
                           cv2.LINE_AA)
    elif kind == 1:  # a clock or a phone
        size = float(rng.uniform(0.08, 0.2)) * h
        box = ((cx, cy), (size * 1.6, size), float(rng.uniform(0, 180)))
        pts = cv2.boxPoints(box)
        dark = float(rng.uniform(15, 70))
        cv2.fillConvexPoly(image, np.round(pts).astype(np.int32), (dark, dark, dark * 1.2),
                           cv2.LINE_AA)
    else:  # a cup seen from above
        radius = float(rng.uniform(0.04, 0.08)) * h
        colour = tuple(float(c) for c in rng.uniform(30, 230, 3))
        cv2.circle(image, (round(cx), round(cy)), round(radius), colour, -1, cv2.LINE_AA)
        inner = tuple(c * 0.45 for c in colour)
        cv2.circle(image, (round(cx), round(cy)), round(radius * 0.8), inner, -1, cv2.LINE_AA)


def soft_shade(image: Frame, outlines: list[npt.NDArray[np.float64]], sigma: float,
               strength: float, factor: int) -> None:
    """Darken the convex hulls of image ``outlines`` with a soft edge, in place.

    Shadows are blurry by nature, so the mask is drawn and blurred at
    1/``factor`` resolution and blown up.
    """
    h, w = image.shape[:2]
    sh, sw = max(h // factor, 2), max(w // factor, 2)
    mask = np.zeros((sh, sw), np.float32)
    for outline in outlines:
        pts = cv2.convexHull((outline * (sw / w)).astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(mask, np.round(pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(sigma / factor, 0.5))
    shade = cv2.resize(1.0 - strength * np.minimum(mask, 1.0), (w, h),
                       interpolation=cv2.INTER_LINEAR)
    image *= shade[:, :, None]


def illuminate(image: Frame, lighting: Lighting, gloss: float) -> None:
    """Exposure, gradient, vignetting, white balance and glare, in place.

    All of them vary slowly over the frame, so they are computed on a small
    grid and blown up: two full-frame passes in all.
    """
    h, w = image.shape[:2]
    sh, sw = max(h // 8, 2), max(w // 8, 2)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    x = xs / (sw - 1) * 2.0 - 1.0
    y = ys / (sh - 1) * 2.0 - 1.0
    gx, gy = lighting.gradient
    field = lighting.exposure * (1.0 + gx * x + gy * y) * (1.0 - lighting.vignette
                                                             * (x * x + y * y) / 2.0)
    small = np.maximum(field, 0.0)[:, :, None] * np.array(lighting.white_balance, np.float32)
    gain = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    image *= gain
    if lighting.glare:
        image += _glare(lighting, gloss, (w, h))[:, :, None]


def _glare(lighting: Lighting, gloss: float, size: tuple[int, int]) -> Frame:
    """Soft lamp reflections (grey levels to add), scaled by how glossy the board is."""
    w, h = size
    factor = 4
    sh, sw = max(h // factor, 2), max(w // factor, 2)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs = (xs + 0.5) / sw
    ys = (ys + 0.5) / sh
    total = np.zeros((sh, sw), np.float32)
    for spot in lighting.glare:
        radius = max(spot.radius, 1e-3)
        a = math.radians(spot.angle_deg)
        dx, dy = (xs - spot.x) * (w / h), ys - spot.y
        du = (dx * math.cos(a) + dy * math.sin(a)) / max(spot.elongation, 1.0)
        dv = -dx * math.sin(a) + dy * math.cos(a)
        total += spot.strength * (0.3 + gloss) * np.exp(-(du * du + dv * dv)
                                                        / (2.0 * radius * radius))
    return np.asarray(cv2.resize(total, (w, h), interpolation=cv2.INTER_LINEAR),
                      dtype=np.float32)


def camera_effects(image: Frame, lighting: Lighting, rng: np.random.Generator
                   ) -> npt.NDArray[np.uint8]:
    """Blur, sensor noise, quantisation and optional JPEG: the final 8-bit frame."""
    h, w = image.shape[:2]
    if lighting.blur > 0.0:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), lighting.blur * h / 720.0),
                           dtype=np.float32)
    if lighting.noise > 0.0:
        raw = np.frombuffer(rng.bytes(h * w * 3), np.uint8).reshape(h, w, 3)
        noise = cv2.LUT(raw, _GAUSS * float(lighting.noise))
        image = image + noise
    out = np.clip(image, 0.0, 255.0).astype(np.uint8)
    if lighting.jpeg is not None:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(lighting.jpeg)])
        if ok:
            out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), dtype=np.uint8)
    return out
