"""Light and dark: which of the two checker colours each circle is.

Checker sets come in many colour pairs (white/black, white/red, cream/brown,
red/black, marbled), so nothing is hard-wired: the circles' inner colours are
split into two clusters in Lab space and the lighter cluster is *light*.  A
:class:`ColourModel` learned once (from the starting position, where both
colours are present in known numbers) decides alone when only one colour is
on the board, as late in a bear-off.
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.detect import Circle

Image = npt.NDArray[np.uint8]
Lab = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class ColourConfig:
    """Thresholds of the colour split."""

    inner: float = 0.25
    outer: float = 0.7
    """Sample the ring between these fractions of the radius (misses logos and rims)."""
    min_separation: float = 22.0
    """Lab distance between the two cluster centres below which all circles are one colour."""


@dataclass(frozen=True, slots=True)
class ColourModel:
    """The two checker colours of one set, as Lab centres."""

    light: Lab
    dark: Lab

    def classify(self, colour: Lab) -> bool:
        """True for light."""
        c = np.array(colour)
        return bool(np.linalg.norm(c - np.array(self.light))
                    <= np.linalg.norm(c - np.array(self.dark)))


def circle_colours(field: Image, circles: list[Circle],
                   config: ColourConfig | None = None) -> list[Lab]:
    """Median Lab colour of each circle's inner ring."""
    config = config or ColourConfig()
    lab = cv2.cvtColor(field, cv2.COLOR_BGR2LAB)
    h, w = lab.shape[:2]
    out: list[Lab] = []
    for circle in circles:
        r = circle.radius
        x0, x1 = max(int(circle.x - r), 0), min(int(circle.x + r) + 1, w)
        y0, y1 = max(int(circle.y - r), 0), min(int(circle.y + r) + 1, h)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        d = np.hypot(xs - circle.x, ys - circle.y)
        ring = (d >= config.inner * r) & (d <= config.outer * r)
        pixels = lab[y0:y1, x0:x1][ring]
        if len(pixels) == 0:
            out.append((0.0, 128.0, 128.0))
            continue
        med = np.median(pixels, axis=0)
        out.append((float(med[0]), float(med[1]), float(med[2])))
    return out


def split_colours(colours: list[Lab], model: ColourModel | None = None,
                  config: ColourConfig | None = None) -> list[bool]:
    """For each colour: True when light.

    With a model, the model decides.  Without one, two clusters when the
    colours separate, else every circle is judged by its lightness alone.
    """
    config = config or ColourConfig()
    if not colours:
        return []
    if model is not None:
        return [model.classify(c) for c in colours]
    centres = _two_means(np.array(colours, dtype=np.float32))
    if centres is None or np.linalg.norm(centres[0] - centres[1]) < config.min_separation:
        return [c[0] >= 128.0 for c in colours]
    light_index = 0 if centres[0][0] >= centres[1][0] else 1
    light, dark = centres[light_index], centres[1 - light_index]
    model_here = ColourModel(_lab(light), _lab(dark))
    return [model_here.classify(c) for c in colours]


def learn_model(colours: list[Lab], light: list[bool]) -> ColourModel:
    """The model of a set from circles whose colours are known (the start position)."""
    samples = np.array(colours, dtype=np.float64)
    flags = np.array(light)
    if flags.all() or not flags.any():
        raise ValueError("both colours are needed to learn the checker colours")
    return ColourModel(_lab(np.median(samples[flags], axis=0)),
                       _lab(np.median(samples[~flags], axis=0)))


def _lab(values: npt.NDArray[np.floating]) -> Lab:
    return (float(values[0]), float(values[1]), float(values[2]))


def _two_means(samples: npt.NDArray[np.float32]) -> npt.NDArray[np.float64] | None:
    """Two cluster centres by Lloyd's algorithm started from the extremes of lightness
    (deterministic: no random restarts)."""
    if len(samples) < 2:
        return None
    order = np.argsort(samples[:, 0])
    centres = np.stack([samples[order[0]], samples[order[-1]]]).astype(np.float64)
    for _ in range(20):
        d = np.linalg.norm(samples[:, None, :] - centres[None, :, :], axis=2)
        labels = np.argmin(d, axis=1)
        if labels.min() == labels.max():
            return None
        new = np.stack([samples[labels == k].mean(axis=0) for k in (0, 1)])
        if np.allclose(new, centres):
            break
        centres = new
    return centres
