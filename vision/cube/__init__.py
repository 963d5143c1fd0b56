"""The doubling cube: where it is, whose side it is on, and its value when readable.

:func:`find_cube` searches the field and a margin around it (:mod:`.locate`),
reads the number on the top face (:mod:`.digits`) and places the cube by the
rule of :func:`cube_position`.
"""

from dataclasses import dataclass, field

from vision.cube.digits import DigitConfig, read_face
from vision.cube.locate import LocateConfig, face_image, find_candidates, search_image
from vision.errors import ConfigError
from vision.observation import Cube, CubePlace
from vision.profile import BoardProfile
from vision.rectify import FieldMap
from vision.rectify import Image as Image

__all__ = ["CubeConfig", "cube_position", "find_cube"]


@dataclass(frozen=True, slots=True)
class CubeConfig:
    """Every threshold of the cube stage."""

    locate: LocateConfig = field(default_factory=LocateConfig)
    digits: DigitConfig = field(default_factory=DigitConfig)
    centre_band: float = 0.2
    """A cube whose centre is within this of the field's middle (v = 0.5) is centred."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.centre_band < 0.5:
            raise ConfigError("cube: centre_band between 0 and 0.5")


def cube_position(v: float, config: CubeConfig | None = None) -> CubePlace:
    """Where a cube at field height ``v`` is: ``centre``, ``top`` or ``bottom``.

    One rule for a cube anywhere, in the field or outside it: only its height
    counts.  Within ``centre_band`` of the middle it is centred (on the bar, in
    the middle of the field, or beside the board at mid-height, as on the real
    tournament frames, where the centred cube sits on the right rail at
    v = 0.52); above that it is on the top player's side (the top half of the
    field, or the top rail, v < 0), below it on the bottom player's.
    """
    config = config or CubeConfig()
    if abs(v - 0.5) <= config.centre_band:
        return "centre"
    return "top" if v < 0.5 else "bottom"


def find_cube(frame: Image, field_map: FieldMap, profile: BoardProfile,
              config: CubeConfig | None = None) -> Cube | None:
    """The doubling cube in a frame (BGR, camera pixels), or None when none is seen.

    Its ``center`` is the centre of the top face in camera pixels; its ``value`` the
    number read on the top face, or None when unsure (a logo face, a face too small
    or blurred to read).
    """
    config = config or CubeConfig()
    search = search_image(frame, field_map, profile, config.locate)
    candidates = find_candidates(search.image, config.locate)
    if not candidates:
        return None
    best = candidates[0]
    reading = read_face(face_image(search.image, best, config.digits.face_size), config.digits)
    _, v = search.field_point(*best.centre)
    return Cube(reading.value, search.camera_point(*best.centre), cube_position(v, config))
