"""The dice-only reader: any photo in, the dice in it out.

No board is needed: dice are found by their pips (see :mod:`.detect`),
their value is the number of pips on the top face, their box the estimated
die edge around that face.  Small dice (a 20-pixel die has 3-pixel pips)
are found in a copy of the image enlarged ``upsample`` times, where their
pips are big enough to have a shape; the results are merged with those of
the image as it is.  Without the board plane there is no telling a cocked
die from a flat one seen at a slant, so every die is reported flat here;
the board stage (:mod:`.board`) measures that.
"""

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.detect import DetectConfig, face_box, find_dice
from vision.dice.faces import Face
from vision.dice.pips import Gray
from vision.errors import ImageError
from vision.image_io import load_image
from vision.observation import Die

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """Settings of the dice-only reader."""

    detect: DetectConfig = field(default_factory=DetectConfig)
    upsample: float = 2.0
    """Enlargement of the second look for small dice (1 = no second look)."""
    small_die: float = 40.0
    """Dice found in the enlarged image are kept when smaller than this (in
    the original's pixels): bigger ones are read at the original size."""


def read_dice(image: Image | str | Path, config: ReaderConfig = ReaderConfig()) -> list[Die]:
    """Every die in a photo, left to right: value, centre, box, flat=True."""
    frame = load_image(image) if isinstance(image, str | Path) else _checked(image)
    return [Die(face.value, face.center, True, False, None, face_box(face))
            for face in read_faces(_gray(frame), config)]


def read_faces(gray: Gray, config: ReaderConfig = ReaderConfig()) -> list[Face]:
    """The top faces of the dice in a grey image, in its pixels, left to right."""
    faces = find_dice(gray, config.detect)
    if config.upsample > 1.0:
        big = cv2.resize(gray, None, fx=config.upsample, fy=config.upsample,
                         interpolation=cv2.INTER_CUBIC)
        small = [_scaled(f, 1.0 / config.upsample)
                 for f in find_dice(np.asarray(big, dtype=np.uint8), config.detect)]
        faces.extend(f for f in small if f.die_size < config.small_die)
    kept: list[Face] = []
    for face in sorted(faces, key=lambda f: (-f.value, f.misfit)):
        if all(math.dist(face.center, k.center) > config.detect.overlap * max(face.die_size,
                                                                              k.die_size)
               for k in kept):
            kept.append(face)
    return sorted(kept, key=lambda f: (f.center[0], f.center[1]))


def _scaled(face: Face, factor: float) -> Face:
    from dataclasses import replace

    pips = tuple(replace(p, x=(p.x + 0.5) * factor - 0.5, y=(p.y + 0.5) * factor - 0.5,
                         diameter=p.diameter * factor, major=p.major * factor,
                         minor=p.minor * factor) for p in face.pips)
    centre = ((face.center[0] + 0.5) * factor - 0.5, (face.center[1] + 0.5) * factor - 0.5)
    return replace(face, pips=pips, center=centre, spacing=face.spacing * factor,
                   die_size=face.die_size * factor)


def _checked(image: object) -> Image:
    if not isinstance(image, np.ndarray):
        raise ImageError(f"an image array or a path is needed, not {type(image).__name__}")
    if image.size == 0:
        raise ImageError("the image is empty (no pixels)")
    if image.dtype != np.uint8:
        raise ImageError(f"8-bit images only, not {image.dtype}")
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (3, 4)):
        raise ImageError(f"a grey, BGR or BGRA image is needed, not shape {image.shape}")
    return image


def _gray(image: Image) -> Gray:
    if image.ndim == 2:
        return image
    code = cv2.COLOR_BGR2GRAY if image.shape[2] == 3 else cv2.COLOR_BGRA2GRAY
    return np.asarray(cv2.cvtColor(image, code), dtype=np.uint8)
