"""A coloured die's silhouette by its colour, where its grey level says nothing.

The face a cocked die tipped up is shaded by the light: darker or lighter than
its top face, and often within a few grey levels of the board beside it (a red
die on a brown or burgundy board, whose grey levels are alike), so its outline
(:mod:`.outline`) is not found in the grey window.  Shading scales a surface's
colour but keeps its chromaticity (each channel over their sum), so every face
of a coloured die has its top face's chromaticity, and a board of another hue
differs from it however the two are lit.  :func:`chroma_contrast` makes a grey
window of each pixel's chromaticity distance from the top face's, in which the
die's whole silhouette, top face and tipped-up face alike, stands dark against
the board: :func:`.outline.tipped_outline` reads it as it reads the grey window.

White, grey and black dice have no chromaticity to tell (a black die's is the
noise of a few grey levels): only dice whose top face is coloured
(``min_saturation``) and bright enough (``min_level``) are read so.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.faces import Face
from vision.dice.pips import Gray
from vision.errors import ConfigError

Colour = npt.NDArray[np.uint8]
"""A BGR image."""


@dataclass(frozen=True, slots=True)
class ChromaConfig:
    """How the top face's colour is taken and the distance from it scaled."""

    inner: float = 0.3
    """The top face's colour is the median of its pixels within this many die edges
    of its centre (the face's estimated size) and within ``body_grey`` grey levels
    of the face around its pips: the pips and anything past the face left out."""
    body_grey: float = 25.0
    """See ``inner``."""
    min_level: float = 120.0
    """Least sum of the three channels (0-765) of the top face: darker faces' chromaticity
    is the noise of a few grey levels (black dice)."""
    min_saturation: float = 0.2
    """Least distance of the top face's (green, red) chromaticity from grey's (1/3,
    1/3): white and grey dice have no hue to tell them from the board.  On renders
    (tune seed 21, 2x still) red dice measured 0.27-0.46, match-coloured ones
    0.22-0.40."""
    gain: float = 400.0
    """Grey levels of the window per unit of chromaticity distance: a red die
    against a brown board differs by 0.1-0.3, i.e. 40-120 levels, and the outline's
    ``floor`` (6 levels a pixel) then stands for a chromaticity step of 0.015."""
    offset: float = 3.0
    """Added to the channels' sum before dividing (a black pixel's chromaticity)."""

    def __post_init__(self) -> None:
        if not 0.0 < self.inner <= 0.5 or self.body_grey <= 0.0 or self.gain <= 0.0 \
                or self.offset <= 0.0 or not 0.0 <= self.min_saturation <= 1.0:
            raise ConfigError("dice chroma: inner 0-0.5, body_grey, gain and offset positive, "
                              "min_saturation 0-1")


def chroma_contrast(colour: Colour, face: Face, config: ChromaConfig = ChromaConfig()
                    ) -> Gray | None:
    """The window ``colour`` (BGR, the pixels ``face`` was found in) as the distance of
    each pixel's chromaticity from the top face's, in grey levels (``gain``, clipped
    to 255); None when the top face is too dark or too grey to tell by its colour, or
    too few of its pixels are seen."""
    if colour.ndim != 3 or colour.shape[2] != 3:
        return None
    channels = colour.astype(np.float32)
    total = channels.sum(axis=2)
    chroma = channels[:, :, 1:] / (total + config.offset)[:, :, None]  # green, red
    height, width = colour.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    cx, cy = face.center
    near = np.hypot(xs - cx, ys - cy) <= config.inner * face.die_size
    grey = np.asarray(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), np.float32)
    level = float(np.median([p.face for p in face.pips]))
    if face.polarity == "light":  # the pip finder measured it on the inverted image
        level = 255.0 - level
    body = near & (np.abs(grey - level) < config.body_grey)
    if int(body.sum()) < 10 or float(np.median(total[body])) < config.min_level:
        return None
    own = np.median(chroma[body], axis=0)
    if float(np.hypot(own[0] - 1.0 / 3.0, own[1] - 1.0 / 3.0)) < config.min_saturation:
        return None
    distance = np.hypot(chroma[:, :, 0] - own[0], chroma[:, :, 1] - own[1]) * config.gain
    return np.asarray(np.clip(distance, 0.0, 255.0), np.uint8)
