"""What a perfect reader would report for a rendered frame, and more.

``Truth.observation`` is the schema-1 :class:`~vision.observation.Observation`
of the frame: the field corners in the image, the scene's counts on the
points, the bar and (when a tray is in view) off, the dice and cube where
the camera sees them, and ``occluded`` when a hand covers part of the field.
The counts are the scene's, hidden checkers included: an occluded frame is
never to be taken as a board state, so what is under the hand does not
matter to the referee, and benchmarks that want visible-only counts can
filter with the per-checker ``visible`` fractions.

The extras serve the benchmarks: each checker's image ellipse and how much
of it is visible, each die's and the cube's visibility, how much of the
field hands cover, and the camera's projection matrix.
"""

from dataclasses import dataclass
from typing import Any, Literal

from vision.observation import Observation, Pixel


@dataclass(frozen=True, slots=True)
class CheckerTruth:
    """One checker as it appears in the frame."""

    colour: Literal["light", "dark"]
    place: Literal["point", "bar", "off"]
    point: int | None
    layer: int
    center: Pixel
    """Image centre of its top face (of its outline, for one on edge in the tray)."""
    axes: tuple[float, float]
    """Full lengths of the ellipse's major and minor axes, pixels."""
    angle_deg: float
    """Orientation of the ellipse (OpenCV's fitEllipse convention)."""
    visible: float
    """Fraction of its top face (outline) not covered by anything drawn later."""
    field: tuple[float, float]
    """(u, v) of its footprint centre."""

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "place": self.place, "point": self.point,
                "layer": self.layer, "center": [round(c, 1) for c in self.center],
                "axes": [round(a, 1) for a in self.axes], "angle_deg": round(self.angle_deg, 1),
                "visible": round(self.visible, 3),
                "field": [round(c, 4) for c in self.field]}


@dataclass(frozen=True, slots=True)
class Truth:
    """The ground truth of one rendered frame."""

    observation: Observation
    checkers: tuple[CheckerTruth, ...]
    dice_visible: tuple[float, ...]
    """Per die of ``observation.dice``: fraction of its outline not covered."""
    cube_visible: float | None
    hand_cover: float
    """Fraction of the field's image area under hands or arms."""
    projection: tuple[tuple[float, float, float, float], ...]
    """The 3x4 camera matrix: world millimetres (x along u, y along v, z into the board)."""
    size: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "observation": self.observation.to_json(),
            "size": list(self.size),
            "checkers": [c.to_json() for c in self.checkers],
            "dice_visible": [round(v, 3) for v in self.dice_visible],
            "cube_visible": None if self.cube_visible is None else round(self.cube_visible, 3),
            "hand_cover": round(self.hand_cover, 4),
            "projection": [list(row) for row in self.projection],
        }
