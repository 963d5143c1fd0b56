"""Hands and forearms over the board, with their soft shadows.

Players reach over the board all the time; the reader must say "occluded"
rather than report a board with checkers missing under a sleeve.  A hand
is modelled in the world, palm down, at a height above the board: palm,
four fingers and a thumb as tapered capsules (fingertips dipping toward
the board when the hand reaches for a checker), the forearm rising back
toward the player's side and leaving the frame, a sleeve from a cuff on.
Because it is projected through the camera, a hand high above the board
looks larger than one near it, and its shadow falls offset by its height.
"""

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.camera import Camera
from vision.synth.draw import HAND, Canvas, Points, bounding_roi, fixed
from vision.synth.scene import HandPose
from vision.synth.textures import gaussian

SIDES = {"bottom": (0.0, -1.0), "top": (0.0, 1.0), "left": (1.0, 0.0), "right": (-1.0, 0.0)}
"""Direction the arm reaches in, in the world, from each edge."""
FINGERS = ((-30.0, 60.0, 15.0), (-10.0, 75.0, 17.0), (10.0, 80.0, 18.0), (30.0, 72.0, 18.0))
"""Knuckle offset across the hand, length and width (mm) for little .. index, right hand."""
ARM_REACH_MM = 650.0
"""How far back the forearm is modelled (well past the frame)."""
Projector = Callable[[Points], Points]


@dataclass
class _Part:
    """One part of a hand (palm, a finger, the forearm, the sleeve) as world geometry."""

    material: str
    polys: list[Points] = field(default_factory=list)
    capsules: list[tuple[Points, float]] = field(default_factory=list)
    """Chains of points with a width in millimetres."""

    def points(self) -> Points:
        return np.vstack([*self.polys, *(chain for chain, _ in self.capsules)])


def _build(pose: HandPose, width: float, height: float, camera_height: float) -> list[_Part]:
    fx, fy = SIDES[pose.from_side]
    angle = math.radians(pose.angle_deg)
    f = np.array([fx * math.cos(angle) - fy * math.sin(angle),
                  fx * math.sin(angle) + fy * math.cos(angle)])
    side = np.array([-f[1], f[0]]) * (1.0 if pose.right else -1.0)
    s = pose.size
    palm = np.array([pose.u * width, pose.v * height])
    ceiling = camera_height * 0.55

    def at(a: float, b: float, elevation: float) -> npt.NDArray[np.float64]:
        xy = palm + f * a * s + side * b * s
        return np.array([xy[0], xy[1], -min(elevation, ceiling)])

    e = pose.elevation_mm
    theta = np.linspace(0.0, 2.0 * math.pi, 20, endpoint=False)
    parts = [_Part("skin", polys=[np.array([at(48.0 * math.cos(t), 42.0 * math.sin(t), e)
                                            for t in theta])])]
    dip = pose.curl * max(e - 8.0, 0.0)
    for k, (b, length, w) in enumerate(FINGERS):
        fan = math.radians((k - 1.5) * 9.0 * pose.spread)
        da, db = math.cos(fan), math.sin(fan)
        base = (40.0, b)
        mid = (base[0] + da * length * 0.55, base[1] + db * length * 0.55)
        tip = (base[0] + da * length, base[1] + db * length)
        chain = np.array([at(*base, e), at(*mid, e - 0.45 * dip), at(*tip, e - dip)])
        parts.append(_Part("skin", capsules=[(chain, w * s)]))
    thumb = np.array([at(-5.0, -38.0, e - 5.0), at(22.0, -60.0, e - 0.4 * dip),
                      at(45.0, -66.0, e - 0.7 * dip)])
    parts.append(_Part("skin", capsules=[(thumb, 23.0 * s)]))
    # Forearm: wrist behind the palm, rising toward the player; a sleeve from the cuff on.
    cuff = ARM_REACH_MM if pose.sleeve is None else 70.0 + 50.0 * pose.spread
    arm, sleeve = _Part("skin"), _Part("sleeve")
    steps = np.linspace(0.0, ARM_REACH_MM, 9)
    for a0, a1 in itertools.pairwise(steps):
        for part, lo, hi, wide in ((arm, a0, min(a1, cuff), 1.0),
                                   (sleeve, max(a0, cuff), a1, 1.15)):
            if hi <= lo:
                continue
            w0, w1 = (31.0 + 0.03 * lo) * wide, (31.0 + 0.03 * hi) * wide
            part.polys.append(np.array([
                at(-40.0 - lo, -w0, e + 0.35 * lo), at(-40.0 - lo, w0, e + 0.35 * lo),
                at(-40.0 - hi, w1, e + 0.35 * hi), at(-40.0 - hi, -w1, e + 0.35 * hi)]))
    parts.append(arm)
    if sleeve.polys:
        parts.append(sleeve)
    return parts


def _rasterise(part: _Part, project: Projector, mask: npt.NDArray[np.uint8]) -> None:
    """Draw a part into a 0/255 mask through ``project``."""
    for pts in part.polys:
        cv2.fillConvexPoly(mask, fixed(project(pts)), 255, cv2.LINE_AA, 4)
    for chain, width in part.capsules:
        image = project(chain)
        for k in range(len(chain) - 1):
            p0, p1 = image[k], image[k + 1]
            # Width in pixels from the local scale of the projection.
            px = float(np.linalg.norm(project(chain[k:k + 1] + np.array([[width, 0.0, 0.0]]))
                                      - image[k:k + 1]))
            taper = 1.0 - 0.12 * k
            cv2.line(mask, (round(p0[0] * 16), round(p0[1] * 16)),
                     (round(p1[0] * 16), round(p1[1] * 16)), 255,
                     max(round(px * taper), 1), cv2.LINE_AA, 4)


def draw_hand(canvas: Canvas, camera: Camera, pose: HandPose, field_mm: tuple[float, float],
              light: Points, shadow_strength: float, rng: np.random.Generator) -> None:
    """Shadow, then the hand and arm, over everything drawn so far."""
    parts = _build(pose, field_mm[0], field_mm[1], -float(camera.centre[2]))
    size = canvas.size
    if shadow_strength > 0.0:
        _shadow(canvas, camera, parts, pose, light, shadow_strength)
    every = camera.project(np.vstack([p.points() for p in parts]))
    pad = int(0.1 * size[1]) + 4  # room for the capsules' widths
    part_pad = int(0.05 * size[1]) + 4  # half a finger's width, close to the camera
    roi = bounding_roi(every, size, pad=pad)
    if roi is None:
        return
    x0, y0, x1, y1 = roi
    offset = np.array([x0, y0], np.float64)

    def local(points: Points) -> Points:
        return camera.project(points) - offset

    shape = (y1 - y0, x1 - x0)
    alpha = np.zeros(shape, np.float32)
    sleeve_a = np.zeros(shape, np.float32)
    shade = np.zeros(shape, np.float32)
    round_px = max(7.0 * size[1] / 720.0, 2.0)
    for part in parts:
        # Work only on the part's own box: fingers are small, the arm crosses the frame.
        box = bounding_roi(local(part.points()), (x1 - x0, y1 - y0), pad=part_pad)
        if box is None:
            continue
        bx0, by0, bx1, by1 = box
        mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        _rasterise(part, functools.partial(_shifted, local, np.array([bx0, by0], np.float64)),
                   mask)
        # Each part rounds off toward its own outline, so fingers show creases between them.
        inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        sub = np.s_[by0:by1, bx0:bx1]
        np.maximum(shade[sub], np.clip(inside / round_px, 0.0, 1.0), out=shade[sub])
        a = mask.astype(np.float32) / 255.0
        np.maximum(alpha[sub], a, out=alpha[sub])
        if part.material == "sleeve":
            np.maximum(sleeve_a[sub], a, out=sleeve_a[sub])
    if not alpha.any():
        return
    skin_c = np.array(pose.skin, np.float32)
    sleeve_c = np.array(pose.sleeve or pose.skin, np.float32)
    colour = skin_c * (1.0 - sleeve_a[:, :, None]) + sleeve_c * sleeve_a[:, :, None]
    grain = cv2.GaussianBlur(gaussian(rng, shape), (0, 0), 1.2)
    colour *= ((0.6 + 0.4 * shade) * (1.0 + 0.04 * grain))[:, :, None]
    if pose.motion_blur_px > 0.5:
        length = max(int(pose.motion_blur_px * size[1] / 720.0), 2)
        kernel = np.zeros((length, length), np.float32)
        cv2.line(kernel, (0, length // 2), (length - 1, length // 2), 1.0)
        kernel /= kernel.sum()
        smeared = cv2.filter2D(colour * alpha[:, :, None], -1, kernel)
        alpha = np.asarray(cv2.filter2D(alpha, -1, kernel), dtype=np.float32)
        colour = np.asarray(smeared / np.maximum(alpha, 1e-3)[:, :, None], dtype=np.float32)
    region = np.s_[y0:y1, x0:x1]
    target = canvas.image[region]
    target *= (1.0 - alpha)[:, :, None]
    target += colour * alpha[:, :, None]
    canvas.labels[region][alpha > 0.5] = HAND


def _shifted(project: Projector, corner: Points, points: Points) -> Points:
    """``project`` relative to a sub-region's corner."""
    return project(points) - corner


def _shadow(canvas: Canvas, camera: Camera, parts: list[_Part], pose: HandPose, light: Points,
            strength: float) -> None:
    """The hand's shadow on the board, offset by its height, soft (drawn small and blurred)."""
    size = canvas.size
    factor = 4
    up = -float(light[2])
    drift = np.array([-light[0] / up, -light[1] / up])

    def shadow_of(points: Points) -> Points:
        elevation = -points[:, 2:3]
        flat = np.column_stack([points[:, :2] + elevation * drift, np.zeros(len(points))])
        return camera.project(flat) / factor

    small = np.zeros((max(size[1] // factor, 2), max(size[0] // factor, 2)), np.uint8)
    for part in parts:
        _rasterise(part, shadow_of, small)
    sigma = max(pose.elevation_mm * 0.06 * size[1] / 720.0 / factor, 0.5)
    soft = cv2.GaussianBlur(small.astype(np.float32) / 255.0, (0, 0), sigma)
    soft = cv2.resize(soft, size, interpolation=cv2.INTER_LINEAR)
    canvas.image *= (1.0 - 0.8 * strength * soft)[:, :, None]
