"""A pinhole camera above the board.

World coordinates are millimetres: ``x`` along the field's ``u`` (0 at the
field's left edge), ``y`` along ``v`` (0 at its top edge) and ``z`` pointing
*into* the board, so the frame is right-handed and a camera looking straight
down has the identity rotation.  Heights above the board ("elevation") are
therefore negative ``z``.  The pose is stated the way a person mounts a
camera: height of the lens above the board, a few degrees of tilt either
way, a roll about the optical axis, the field point it is aimed at; the
focal length follows from how much of the frame the board should fill, so
one scene frames the board the same at any output resolution.
"""

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera is, in terms a person mounting it would use."""

    height_mm: float = 900.0
    """Lens above the board surface (the issue asks for 70-110 cm)."""
    tilt_x_deg: float = 0.0
    """Pitch: positive turns the view toward the bottom rail."""
    tilt_y_deg: float = 0.0
    """Sideways tilt: positive turns the view toward the right rail."""
    roll_deg: float = 0.0
    """Rotation about the optical axis (the board appears turned the other way)."""
    aim: tuple[float, float] = (0.5, 0.5)
    """The field point (u, v) on the optical axis."""
    fill: float = 0.88
    """The board's outer height as a fraction of the image height, seen straight down."""
    barrel: float = 0.0
    """Radial lens distortion: about the fraction of its distance a frame corner moves
    toward the centre (0.02 is a mild lens, wide lenses reach 0.05; 0 = ideal pinhole)."""


@dataclass(frozen=True)
class Camera:
    """A posed pinhole camera for one image size: projects world millimetres to pixels."""

    matrix: Array
    """3x3 intrinsics."""
    rotation: Array
    """3x3 camera-from-world."""
    centre: Array
    """The lens position in world millimetres (z negative: above the board)."""
    size: tuple[int, int]

    @classmethod
    def build(cls, pose: CameraPose, field_mm: tuple[float, float], board_height_mm: float,
              size: tuple[int, int]) -> "Camera":
        """Place the camera for a field of ``field_mm`` (width, height) and an image ``size``."""
        width, height = size
        focal = pose.fill * height * pose.height_mm / board_height_mm
        intrinsics = np.array([[focal, 0.0, width / 2.0], [0.0, focal, height / 2.0],
                               [0.0, 0.0, 1.0]])
        rotation = _rot_z(pose.roll_deg) @ _rot_x(pose.tilt_x_deg) @ _rot_y(-pose.tilt_y_deg)
        axis = rotation.T @ np.array([0.0, 0.0, 1.0])  # optical axis in the world
        aim = np.array([pose.aim[0] * field_mm[0], pose.aim[1] * field_mm[1], 0.0])
        centre = aim - axis * (pose.height_mm / axis[2])
        return cls(intrinsics, rotation, centre, size)

    def project(self, points: Array) -> Array:
        """N x 3 world points -> N x 2 pixels."""
        cam = (points - self.centre) @ self.rotation.T
        pix = cam @ self.matrix.T
        return np.asarray(pix[:, :2] / pix[:, 2:3], dtype=np.float64)

    def plane_homography(self, elevation_mm: float) -> Array:
        """3x3: (x, y) millimetres on the plane ``elevation_mm`` above the board -> pixels."""
        z = -elevation_mm
        r = self.rotation
        t = -r @ self.centre
        basis = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t])
        return np.asarray(self.matrix @ basis, dtype=np.float64)

    def distort(self, pixels: Array, barrel: float) -> Array:
        """Ideal pinhole pixels -> where a lens with ``barrel`` distortion puts them.

        The lens model maps a distorted pixel ``d`` back to the ideal one as
        ``c + (d - c) * (1 + barrel * r^2)``, ``r`` being ``|d - c|`` over the
        half-diagonal; its inverse is found by a few fixed-point steps.
        """
        if barrel == 0.0:
            return pixels
        centre, radius = self._lens_centre()
        offset = pixels - centre
        distorted = offset.copy()
        for _ in range(8):
            r2 = np.sum((distorted / radius) ** 2, axis=1, keepdims=True)
            distorted = offset / (1.0 + barrel * r2)
        return np.asarray(distorted + centre, dtype=np.float64)

    def lens_maps(self, barrel: float) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``cv2.remap`` maps taking an ideal frame to the distorted one."""
        centre, radius = self._lens_centre()
        w, h = self.size
        xs = (np.arange(w, dtype=np.float32) - np.float32(centre[0]))[None, :]
        ys = (np.arange(h, dtype=np.float32) - np.float32(centre[1]))[:, None]
        gain = 1.0 + np.float32(barrel) * (xs * xs + ys * ys) / np.float32(radius * radius)
        return ((xs * gain + np.float32(centre[0])).astype(np.float32),
                (ys * gain + np.float32(centre[1])).astype(np.float32))

    def _lens_centre(self) -> tuple[Array, float]:
        w, h = self.size
        return np.array([(w - 1) / 2.0, (h - 1) / 2.0]), math.hypot(w, h) / 2.0

    def nadir(self) -> tuple[float, float]:
        """The board point straight below the lens, in world millimetres."""
        return float(self.centre[0]), float(self.centre[1])

    def projection(self) -> Array:
        """The 3x4 projection matrix (for records and benchmarks)."""
        return np.asarray(self.matrix @ np.column_stack([self.rotation,
                                                         -self.rotation @ self.centre]),
                          dtype=np.float64)


def _rot_x(deg: float) -> Array:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _rot_y(deg: float) -> Array:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rot_z(deg: float) -> Array:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
