"""The doubling cube: where it is, whose side it is on, and its value when readable.

:func:`find_cube` searches the field and a margin around it coarsely
(:mod:`.locate`), measures the best few candidates again at the fine scale
in small patches cut straight out of the camera frame, reads the number on
the top face of the squarest (:mod:`.digits`) and places the cube by the
rule of :func:`cube_position`.
"""

from dataclasses import dataclass, field

import numpy as np

from vision.cube.digits import DigitConfig, read_face
from vision.cube.locate import (
    Candidate,
    LocateConfig,
    SearchImage,
    coarse_view,
    distinct,
    face_image,
    find_candidates,
    proposals,
    rank,
    warp_region,
)
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
    readings: int = 2
    """The face is read on up to this many of its outlines (the squarest ones found at the
    fine scale) and a number is reported only when every reading gives it: on the
    renders a single reading got 3 in 60 numbers wrong, two agreeing readings none."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.centre_band < 0.5:
            raise ConfigError("cube: centre_band between 0 and 0.5")
        if self.readings < 1:
            raise ConfigError("cube: at least one reading")


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
    or blurred to read, readings that disagree).
    """
    config = config or CubeConfig()
    found = locate_cube(frame, field_map, profile, config.locate)
    if found is None:
        return None
    outlines, patch = found
    best = outlines[0]
    values = {read_face(face_image(frame, outline, config.digits.face_size, patch.to_search),
                        config.digits).value for outline in outlines[:config.readings]}
    value = values.pop() if len(values) == 1 else None
    _, v = patch.field_point(*best.centre)
    return Cube(value, patch.camera_point(*best.centre), cube_position(v, config))


def locate_cube(frame: Image, field_map: FieldMap, profile: BoardProfile,
                config: LocateConfig) -> tuple[list[Candidate], SearchImage] | None:
    """The outlines of the squarest cube face measured at the fine scale (the squarest
    first) and the patch they were measured in.

    The coarse search proposes; each of its best ``config.candidates`` places is cut out
    of the frame at ``config.fine_width`` (``config.patch_reach`` of its side around it,
    at most one largest face side) and searched again with the strict limits; a place
    with no square there is not a cube.
    """
    fw, fh = profile.rectified_size(config.fine_width)
    best: tuple[list[Candidate], SearchImage] | None = None
    view = coarse_view(frame, field_map, profile, config)
    for proposal in distinct(proposals(view, config), config.candidates):
        u = proposal.centre[0] / fw - config.margin
        v = proposal.centre[1] / fh - config.margin
        if not (-config.margin <= u <= 1 + config.margin
                and -config.margin <= v <= 1 + config.margin):
            continue
        reach = min(config.max_side * config.fine_width,
                    config.patch_reach * proposal.side + config.patch_pad)
        patch = warp_region(frame, field_map, profile, config.fine_width,
                            (u - reach / fw, v - reach / fh), (u + reach / fw, v + reach / fh))
        centre = (reach, reach)
        here = [c for c in find_candidates(patch.image, config)
                if np.hypot(c.centre[0] - centre[0], c.centre[1] - centre[1]) <= 0.5 * c.side]
        if here and (best is None or rank(here[0], config) > rank(best[0][0], config)):
            best = (here, patch)
    return best
