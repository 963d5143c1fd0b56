"""Checkers as short cylinders: a textured top face and a shaded wall.

The face is a sprite (turned groove ring, bevelled rim that catches the
light, marbling for marbled sets) warped onto the top of the cylinder
through the camera, so a checker at the image border shows its wall and
an elliptic face just as a real one does, and a stacked checker sits
higher and so a little further from the image centre.  Borne-off checkers
stand on edge in the tray: their rounded rims face the camera, with a
sliver of one face.
"""

import functools
import math

import numpy as np

from vision.synth.camera import Camera
from vision.synth.draw import (
    SIDE,
    Canvas,
    Points,
    Sprite,
    disc_alpha,
    fill,
    hull,
    label_only,
    premultiplied,
    warp_sprite,
)
from vision.synth.layout import CheckerSpot
from vision.synth.styles import CheckerLook
from vision.synth.textures import marble

SPRITE = 96
"""Face sprite size in pixels (enough for the high-resolution mode)."""
MARBLE_VARIANTS = 4
SEGMENTS = 40
EDGE_STEPS = 12


@functools.lru_cache(maxsize=64)
def face_sprite(look: CheckerLook, gloss: float, variant: int) -> Sprite:
    """The top face of one checker, premultiplied BGRA."""
    rho, alpha = disc_alpha(SPRITE)
    face = np.empty((SPRITE, SPRITE, 3), np.float32)
    face[:] = look.face
    if look.veins is not None:
        veins = marble(np.random.default_rng([variant, 77]), SPRITE)[:, :, None]
        face = face * (1.0 - 0.8 * veins) + np.array(look.veins, np.float32) * 0.8 * veins
    if look.groove is not None:
        groove = np.exp(-(((rho - 0.8) / 0.025) ** 2))[:, :, None]
        face = face * (1.0 - 0.5 * groove) + np.array(look.groove, np.float32) * 0.5 * groove
    inner = 1.0 - look.rim
    bevel = np.clip((rho - inner) / look.rim, 0.0, 1.0)[:, :, None]
    edge = np.array(look.edge, np.float32)
    face = face * (1.0 - bevel) + edge * bevel * 0.9
    shine = np.exp(-(((rho - (1.0 - look.rim / 2.0)) / 0.035) ** 2))[:, :, None]
    face = face + 45.0 * gloss * shine
    outline = np.clip((rho - 0.975) / 0.025, 0.0, 1.0)[:, :, None]
    face = face * (1.0 - 0.5 * outline)
    return premultiplied(np.clip(face, 0.0, 255.0).astype(np.float32), alpha)


def disc(x: float, y: float, elevation: float, radius: float, n: int = SEGMENTS) -> Points:
    """World points of a horizontal circle ``elevation`` above the board."""
    theta = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    return np.column_stack([x + radius * np.cos(theta), y + radius * np.sin(theta),
                            np.full(n, -elevation)])


def wall_shade(camera: Camera, x: float, y: float, light: Points) -> float:
    """Brightness of the part of a wall the camera sees (it faces the nadir)."""
    nx, ny = camera.nadir()
    dx, dy = nx - x, ny - y
    norm = math.hypot(dx, dy) or 1.0
    lit = (dx * light[0] + dy * light[1]) / norm
    return 0.55 + 0.35 * max(float(lit), 0.0)


def draw_flat(canvas: Canvas, camera: Camera, spot: CheckerSpot, look: CheckerLook,
              gloss: float, radius: float, thickness: float, label: int,
              light: Points) -> Points:
    """Draw a lying checker; returns its top face outline in the image."""
    top_z = spot.elevation + thickness
    top = camera.project(disc(spot.x, spot.y, top_z, radius))
    bottom = camera.project(disc(spot.x, spot.y, spot.elevation, radius))
    shade = wall_shade(camera, spot.x, spot.y, light)
    fill(canvas, hull(np.vstack([top, bottom])), _scaled(look.edge, shade), SIDE)
    variant = int(spot.spin_deg) % MARBLE_VARIANTS if look.veins is not None else 0
    sprite = face_sprite(look, gloss, variant)
    scale = radius / (SPRITE / 2.0)
    c = (SPRITE - 1) / 2.0
    cos, sin = math.cos(math.radians(spot.spin_deg)), math.sin(math.radians(spot.spin_deg))
    to_world = np.array([[scale * cos, -scale * sin, spot.x - scale * (cos * c - sin * c)],
                         [scale * sin, scale * cos, spot.y - scale * (sin * c + cos * c)],
                         [0.0, 0.0, 1.0]])
    warp_sprite(canvas, sprite, camera.plane_homography(top_z) @ to_world, top)
    label_only(canvas, top, label)
    return top


def draw_on_edge(canvas: Canvas, camera: Camera, spot: CheckerSpot, look: CheckerLook,
                 radius: float, thickness: float, label: int, light: Points) -> Points:
    """Draw a checker standing on edge (faces toward the tray's ends); returns its outline."""
    half = thickness / 2.0
    theta = np.linspace(0.0, math.pi, EDGE_STEPS + 1)
    rims = [np.column_stack([spot.x + radius * np.cos(theta), np.full(EDGE_STEPS + 1, spot.y + dy),
                             -(radius + radius * np.sin(theta))]) for dy in (-half, half)]
    for k in range(EDGE_STEPS):
        quad = np.vstack([rims[0][k:k + 2], rims[1][[k + 1, k]]])
        mid = (theta[k] + theta[k + 1]) / 2.0
        normal = np.array([math.cos(mid), 0.0, -math.sin(mid)])
        lit = max(float(normal @ light), 0.0)
        fill(canvas, camera.project(quad), _scaled(look.edge, 0.45 + 0.6 * lit), label)
    near = rims[0] if camera.centre[1] < spot.y else rims[1]
    fill(canvas, hull(camera.project(near)), _scaled(look.face, 0.85), label)
    return hull(camera.project(np.vstack(rims)))


def _scaled(colour: tuple[int, int, int], shade: float) -> tuple[float, float, float]:
    return colour[0] * shade, colour[1] * shade, colour[2] * shade
