"""The board's physical layout in world millimetres.

:mod:`vision.profile` states the board in field fractions; the renderer
needs millimetres (for the camera, the heights of stacks and dice, the
frame and trays around the field).  :class:`BoardGeometry` is that
conversion for one scene, in the world frame of :mod:`vision.synth.camera`:
``x = u * width``, ``y = v * height``.
"""

from dataclasses import dataclass

from vision.profile import BoardProfile, Half
from vision.synth.scene import Scene


@dataclass(frozen=True, slots=True)
class Tray:
    """A tray's inside, in world millimetres."""

    side: Half
    x0: float
    x1: float
    y0: float
    y1: float

    @property
    def centre_x(self) -> float:
        return (self.x0 + self.x1) / 2.0


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    width: float
    height: float
    rail: float
    checker_radius: float
    checker_thickness: float
    die: float
    cube: float
    profile: BoardProfile
    tray: Tray | None
    """The tray holding borne-off checkers (the profile's)."""
    spare_tray: Tray | None
    """A mirrored, empty tray on the other side, when the style draws one."""

    @classmethod
    def of(cls, scene: Scene) -> "BoardGeometry":
        width, height = scene.field_mm
        dims = scene.dimensions
        profile = scene.profile
        radius = profile.checker_diameter * profile.point_width * width / 2.0
        tray = spare = None
        if profile.tray is not None:
            gap, inner = profile.tray.gap * width, profile.tray.width * width
            tray = _tray(profile.tray.side, gap, inner, width, height)
            if scene.style.board.both_trays:
                other: Half = "left" if profile.tray.side == "right" else "right"
                spare = _tray(other, gap, inner, width, height)
        return cls(width, height, dims.rail_mm, radius, dims.checker_thickness_mm, dims.die_mm,
                   dims.cube_mm, profile, tray, spare)

    def world(self, u: float, v: float) -> tuple[float, float]:
        return u * self.width, v * self.height

    def field_uv(self, x: float, y: float) -> tuple[float, float]:
        return x / self.width, y / self.height

    @property
    def outer(self) -> tuple[float, float, float, float]:
        """The board's outer edge: x0, y0, x1, y1 in millimetres."""
        left = right = 0.0
        for tray in (self.tray, self.spare_tray):
            if tray is not None and tray.side == "left":
                left = -tray.x0
            elif tray is not None:
                right = tray.x1 - self.width
        return (-left - self.rail, -self.rail, self.width + right + self.rail,
                self.height + self.rail)


def _tray(side: Half, gap: float, inner: float, width: float, height: float) -> Tray:
    if side == "right":
        return Tray(side, width + gap, width + gap + inner, 0.0, height)
    return Tray(side, -gap - inner, -gap, 0.0, height)
