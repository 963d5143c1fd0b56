"""Dice and the doubling cube as shaded 3D boxes with printed faces.

A box is posed in the world (value up, turned about the vertical, then
tilted for a cocked die, resting on the board or on a checker) and drawn
face by face: each face the camera can see is a sprite (pips or the cube's
number) warped through the homography of that face's plane, darkened by
how it faces the light.  A cocked die thus shows two or three faces, its
top pips foreshortened, exactly as a reader will meet it.  Opposite faces
of a die add up to seven.
"""

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.camera import Camera
from vision.synth.draw import (
    Canvas,
    Points,
    Sprite,
    bounding_roi,
    fill,
    hull,
    premultiplied,
    warp_sprite,
)
from vision.synth.styles import BGR

Matrix = npt.NDArray[np.float64]
FACE = 64
"""Face sprite size in pixels."""
UP = np.array([0.0, 0.0, -1.0])
"""World "up" (the world's z points into the board)."""

# Local face normals; the canonical die has 1 up (-z), 6 down, 2/5 on +x/-x, 3/4 on +y/-y.
NORMALS: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, -1.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (-1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0), (0.0, -1.0, 0.0))
DIE_FACES = (1, 6, 2, 5, 3, 4)
CUBE_FACES = (64, 2, 4, 32, 8, 16)
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.24), (0.73, 0.24), (0.27, 0.5), (0.73, 0.5), (0.27, 0.76), (0.73, 0.76)),
}


def _rounded_alpha(size: int, corner: float) -> npt.NDArray[np.float32]:
    """An anti-aliased rounded square (corner radius as a fraction of the size)."""
    mask = np.zeros((size * 4, size * 4), np.uint8)
    r = int(corner * size * 4)
    cv2.rectangle(mask, (r, 0), (size * 4 - 1 - r, size * 4 - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size * 4 - 1, size * 4 - 1 - r), 255, -1)
    for cx in (r, size * 4 - 1 - r):
        for cy in (r, size * 4 - 1 - r):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    small = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(small, dtype=np.float32) / 255.0


def _face_base(body: BGR) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    alpha = _rounded_alpha(FACE, 0.16)
    face = np.empty((FACE, FACE, 3), np.float32)
    face[:] = body
    # Rounded edges fall away from the light: darken toward the border.
    edge = cv2.GaussianBlur(alpha, (0, 0), FACE * 0.05)
    face *= (0.75 + 0.25 * edge)[:, :, None]
    return face, alpha


@functools.lru_cache(maxsize=128)
def die_face(body: BGR, pips: BGR, value: int) -> Sprite:
    """One face of a die with its pips, premultiplied BGRA."""
    face, alpha = _face_base(body)
    big = np.zeros((FACE * 4, FACE * 4), np.uint8)
    radius = (0.12 if value == 1 else 0.085) * FACE * 4
    for px, py in PIPS[value]:
        cv2.circle(big, (round(px * FACE * 4), round(py * FACE * 4)), round(radius), 255, -1,
                   cv2.LINE_AA)
    pip = np.asarray(cv2.resize(big, (FACE, FACE), interpolation=cv2.INTER_AREA),
                     dtype=np.float32)[:, :, None] / 255.0
    face = face * (1.0 - pip) + np.array(pips, np.float32) * pip
    return premultiplied(face, alpha)


@functools.lru_cache(maxsize=64)
def cube_face(body: BGR, ink: BGR, value: int) -> Sprite:
    """One face of the doubling cube with its number, premultiplied BGRA."""
    face, alpha = _face_base(body)
    text = str(value)
    font = cv2.FONT_HERSHEY_DUPLEX
    big = np.zeros((FACE * 4, FACE * 4), np.uint8)
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = 0.62 * FACE * 4 / max(tw, th * 1.3)
    thick = max(int(scale * 2.2), 1)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(big, text, ((FACE * 4 - tw) // 2, (FACE * 4 + th) // 2), font, scale, 255,
                thick, cv2.LINE_AA)
    ink_a = np.asarray(cv2.resize(big, (FACE, FACE), interpolation=cv2.INTER_AREA),
                       dtype=np.float32)[:, :, None] / 255.0
    face = face * (1.0 - ink_a) + np.array(ink, np.float32) * ink_a
    return premultiplied(face, alpha)


def rotation_about(axis: Points, degrees: float) -> Matrix:
    """Rodrigues' rotation about a unit axis."""
    k = np.asarray(axis, dtype=np.float64) / np.linalg.norm(axis)
    a = math.radians(degrees)
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.asarray(np.eye(3) + math.sin(a) * kx + (1.0 - math.cos(a)) * kx @ kx,
                      dtype=np.float64)


_FACE_UP: dict[int, tuple[tuple[float, float, float], float]] = {
    # Rotation (axis, degrees) bringing a face index's normal to world up.
    0: ((1.0, 0.0, 0.0), 0.0), 1: ((1.0, 0.0, 0.0), 180.0), 2: ((0.0, 1.0, 0.0), 90.0),
    3: ((0.0, 1.0, 0.0), -90.0), 4: ((1.0, 0.0, 0.0), -90.0), 5: ((1.0, 0.0, 0.0), 90.0),
}


@dataclass(frozen=True)
class Box:
    """A posed cube: its centre, rotation (world from local) and edge length, in millimetres."""

    centre: Points
    rotation: Matrix
    size: float

    @classmethod
    def resting(cls, x: float, y: float, base: float, size: float, up_face: int, yaw_deg: float,
                tilt_deg: float = 0.0, lean_deg: float = 0.0) -> "Box":
        """A box with face index ``up_face`` up, its lowest corner ``base`` above the board."""
        axis, angle = _FACE_UP[up_face]
        rot = rotation_about(np.array(axis), angle)
        rot = rotation_about(UP, yaw_deg) @ rot
        if tilt_deg:
            lean = math.radians(lean_deg)
            tip = np.array([math.cos(lean), math.sin(lean), 0.0])
            rot = rotation_about(np.cross(UP, tip), tilt_deg) @ rot
        half = size / 2.0
        corners = _CORNERS * half @ rot.T
        lowest = float(corners[:, 2].max())  # z into the board: the largest z is lowest
        centre = np.array([x, y, -base - lowest])
        return cls(centre, rot, size)

    def corners(self) -> Points:
        """The 8 corners in world millimetres."""
        return np.asarray(_CORNERS * (self.size / 2.0) @ self.rotation.T + self.centre,
                          dtype=np.float64)

    def up_face(self) -> int:
        """The index of the face pointing most nearly up."""
        normals = np.array(NORMALS) @ self.rotation.T
        return int(np.argmax(normals @ UP))

    def draw(self, canvas: Canvas, camera: Camera, faces: tuple[Sprite, ...], body: BGR,
             light: Points, label: int, opacity: float = 1.0) -> Points:
        """Draw the visible faces; returns the box's image outline."""
        outline = hull(camera.project(self.corners()))
        roi = bounding_roi(outline, canvas.size)
        if roi is None:
            return outline
        x0, y0, x1, y1 = roi
        before = canvas.image[y0:y1, x0:x1].copy() if opacity < 1.0 else None
        fill(canvas, outline, (body[0] * 0.55, body[1] * 0.55, body[2] * 0.55), label)
        half = self.size / 2.0
        for index, normal in enumerate(NORMALS):
            n = self.rotation @ np.array(normal)
            centre = self.centre + n * half
            if float(n @ (camera.centre - centre)) <= 0.0:
                continue  # faces away from the camera
            a, b = self._face_axes(index)
            quad = np.array([centre - a - b, centre + a - b, centre + a + b, centre - a + b])
            image_quad = camera.project(quad)
            src = np.array([[0, 0], [FACE - 1, 0], [FACE - 1, FACE - 1], [0, FACE - 1]],
                           dtype=np.float32)
            to_image = cv2.getPerspectiveTransform(src, image_quad.astype(np.float32))
            shade = 0.5 + 0.55 * max(float(n @ light), 0.0)
            warp_sprite(canvas, faces[index], np.asarray(to_image, dtype=np.float64),
                        image_quad, shade=shade)
        if before is not None:
            region = canvas.image[y0:y1, x0:x1]
            region[:] = opacity * region + (1.0 - opacity) * before
        return outline

    def _face_axes(self, index: int) -> tuple[Points, Points]:
        """Two half-edge vectors spanning face ``index`` (sprite x and y directions)."""
        normal = np.array(NORMALS[index])
        helper = np.array([0.0, 1.0, 0.0]) if abs(normal[1]) < 0.5 else np.array([1.0, 0.0, 0.0])
        a = np.cross(helper, normal)
        b = np.cross(normal, a)
        half = self.size / 2.0
        return self.rotation @ a * half, self.rotation @ b * half


_CORNERS = np.array([[sx, sy, sz] for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)
                     for sz in (-1.0, 1.0)])


def face_values(up_value: int, die: bool) -> int:
    """The face index whose printed value is ``up_value``."""
    values = DIE_FACES if die else CUBE_FACES
    return values.index(up_value)
