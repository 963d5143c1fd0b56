"""Light and dark: which of the two checker colours each circle is.

Checker sets come in many colour pairs (white/black, white/red, cream/brown,
red/black, marbled), so nothing is hard-wired: the circles' inner colours are
split into two clusters in Lab space and the lighter cluster is *light*.

Lightness is what the lamp changes most: a lamp's reflection adds grey to
everything under it (a black checker in a glare reads as mid-grey),
vignetting darkens the corners.  Hue and saturation change much less, so
the split weighs lightness down (``lightness_weight``): a red-against-black
set splits on its red, however the light falls; a white-against-black set
still splits on lightness, which is all it has.

Two clusters are only believed when they are well apart, both absolutely
(``min_separation``) and against their own spread (``min_ratio``); else the
frame has one colour (late in a bear-off), light or dark by its lightness.
A :class:`ColourModel` learned once (from the starting position, where both
colours are present in known numbers) decides alone when it is given.

Colours are read on a ring inside each checker's rim and bevel and outside
a die lying on it, with the grey a lamp's reflection adds there taken off
(:mod:`.surface`).
"""

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.detect import Circle
from vision.checkers.medians import row_medians

Image = npt.NDArray[np.uint8]
Lab = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class ColourConfig:
    """Thresholds of the colour split."""

    inner: float = 0.6
    outer: float = 0.85
    """Sample the ring between these fractions of the radius: inside the bevel and the
    rim, outside a die lying on the checker (and most logos)."""
    lightness_weight: float = 0.3
    """Weight of Lab lightness against the two chroma axes in the split."""
    min_separation: float = 22.0
    """Distance (weighted Lab) between the two cluster centres below which all circles are
    one colour."""
    min_ratio: float = 3.0
    """The cluster centres must also be this many times their spread apart (along the line
    through them) to be two colours."""
    lightness: float = 128.0
    """With one colour only, all circles are light when their median lightness (Lab L,
    0-255) is at least this (a guess: only a :class:`ColourModel` knows a red set's light
    side from a red set's dark side)."""
    weak_guess: tuple[float, float] = (80.0, 175.0)
    """With one colour only, a median lightness inside this range is a weak guess (a red
    or mid-brown face) that a tray's counts may overturn (see :func:`weak_guess`); outside
    it the faces are plainly white or black, whatever the tray shows (the tray sees the
    checkers' edges, which on rimmed sets are the other shade).  On the tune renders the
    red faces read 83-146, the white and black ones over 175 and under 80."""
    weak_chroma: float = 30.0
    """With one colour only, faces whose median colour lies at least this far from grey
    (Lab a, b on OpenCV's 8-bit scale, grey at 128) are a weak guess too, whatever their
    lightness: a coloured face is neither plainly white nor plainly black.  A red-black
    set's red read 79 and 80 in lightness under a dim light (checker bench tune seeds 90,
    scene 115, and 92, scene 250: the red side alone on the board, the black fifteen in
    the tray), under ``weak_guess``, and was taken for the dark side with the tray saying
    otherwise.  On the tune renders (checker bench seeds 90-93, 1,200 scenes, each side's
    median face a scene) white and black faces stood at most 20 from grey (marbled white
    19.9, the other whites 18.4, the blacks 4.5), red faces 42.5-88.5 (lightness 60-140),
    the marbled set's brown 19.2-41.6: 30 lies between the plain faces' most and the red
    faces' least.  0: lightness alone."""


@dataclass(frozen=True, slots=True)
class ColourModel:
    """The two checker colours of one set, as Lab centres."""

    light: Lab
    dark: Lab

    def classify(self, colour: Lab, lightness_weight: float = 1.0) -> bool:
        """True for light (nearer the light colour, lightness weighted as in the split)."""
        w = _weights(lightness_weight)
        c = np.array(colour) * w
        return bool(np.linalg.norm(c - np.array(self.light) * w)
                    <= np.linalg.norm(c - np.array(self.dark) * w))


def circle_colours(field: Image, circles: list[Circle], config: ColourConfig | None = None,
                   lifts: list[float] | None = None) -> list[Lab]:
    """Lab colour of each circle: the median of its ring (pixels outside the image left
    out), less the grey a reflection adds there (``lifts``, see :mod:`.surface`)."""
    config = config or ColourConfig()
    if not circles:
        return []
    h, w = field.shape[:2]
    medians = np.zeros((len(circles), 1, 3), dtype=np.uint8)
    flat = field.reshape(-1, 3)
    by_radius: dict[float, list[int]] = {}
    for i, circle in enumerate(circles):
        by_radius.setdefault(round(circle.radius, 1), []).append(i)
    for size, members in by_radius.items():
        # The rings of all circles of one size at once: rows of pixels, a median per row
        # and channel.
        dx, dy = _ring(size, config.inner, config.outer)
        xs = np.array([round(circles[i].x) for i in members], dtype=np.int64)[:, None] + dx
        ys = np.array([round(circles[i].y) for i in members], dtype=np.int64)[:, None] + dy
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        pixels = flat[np.minimum(np.maximum(ys, 0), h - 1) * w
                      + np.minimum(np.maximum(xs, 0), w - 1)]  # rows x n x 3
        channels = pixels.transpose(0, 2, 1).reshape(3 * len(members), -1)
        median, count = row_medians(channels, np.repeat(inside, 3, axis=0), 0, 255)
        lift = np.array([lifts[i] if lifts is not None else 0.0 for i in members])
        value = np.clip(median.reshape(-1, 3) - lift[:, None], 0.0, 255.0).round()
        seen = count.reshape(-1, 3)[:, 0] > 0
        rows = np.array(members)[seen]
        medians[rows, 0] = value[seen].astype(np.uint8)
    lab = np.asarray(cv2.cvtColor(medians, cv2.COLOR_BGR2LAB), dtype=np.float64)[:, 0]
    return [(float(L), float(a), float(b)) for L, a, b in lab]


@lru_cache(maxsize=16)
def _ring(radius: float, inner: float, outer: float) -> tuple[npt.NDArray[np.int64],
                                                               npt.NDArray[np.int64]]:
    """Pixel offsets of the ring between ``inner`` and ``outer`` radii."""
    reach = int(np.ceil(outer * radius))
    ys, xs = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    d = np.hypot(xs, ys)
    ring = (d >= inner * radius) & (d <= outer * radius)
    return xs[ring].astype(np.int64), ys[ring].astype(np.int64)


def split_colours(colours: list[Lab], model: ColourModel | None = None,
                  config: ColourConfig | None = None) -> list[bool]:
    """For each colour: True when light.

    With a model, the model decides.  Without one, two clusters when the
    colours separate, else all are one colour, light or dark by their lightness.
    """
    config = config or ColourConfig()
    if not colours:
        return []
    if model is not None:
        return [model.classify(c, config.lightness_weight) for c in colours]
    samples = np.array(colours, dtype=np.float64) * _weights(config.lightness_weight)
    centres = _two_means(samples)
    if centres is None or not _apart(samples, centres, config):
        light = float(np.median([c[0] for c in colours])) >= config.lightness
        return [light] * len(colours)
    light_index = 0 if centres[0][0] >= centres[1][0] else 1
    d = np.linalg.norm(samples[:, None, :] - centres[None, :, :], axis=2)
    return [bool(k == light_index) for k in np.argmin(d, axis=1)]


def colour_leans(colours: list[Lab], light: list[bool], model: ColourModel | None = None,
                 config: ColourConfig | None = None) -> list[float]:
    """How far each colour leans to the light side (positive) or the dark side, as
    :func:`split_colours` told them apart (``light``): its weighted Lab distance from the
    dark colour less that from the light (the model's colours, else the means of the
    circles told each way); with one colour only, its lightness less
    ``config.lightness`` (weighted alike).  A point's checkers are one colour, and a
    point whose circles split evenly takes the side its circles lean to together (see
    ``CountConfig.tie_lean``)."""
    config = config or ColourConfig()
    if not colours:
        return []
    w = _weights(config.lightness_weight)
    samples = np.array(colours, dtype=np.float64) * w
    flags = np.array(light, dtype=bool)
    if model is not None:
        bright, dark = np.array(model.light) * w, np.array(model.dark) * w
    elif flags.all() or not flags.any():
        return [float((c[0] - config.lightness) * w[0]) for c in colours]
    else:
        bright, dark = samples[flags].mean(axis=0), samples[~flags].mean(axis=0)
    leans = np.linalg.norm(samples - dark, axis=1) - np.linalg.norm(samples - bright, axis=1)
    return [float(v) for v in leans]


def weak_guess(colours: list[Lab], light: list[bool],
               config: ColourConfig | None = None) -> bool:
    """Whether circles all of one colour (``light`` as :func:`split_colours` gave it, no
    model) were told light or dark by a lightness that says little: a lightness between
    plain black and plain white, or a coloured face (see ``ColourConfig.weak_guess`` and
    ``weak_chroma``)."""
    config = config or ColourConfig()
    if not colours or len(set(light)) != 1:
        return False
    median = np.median(np.array(colours, dtype=np.float64), axis=0)
    if config.weak_guess[0] < float(median[0]) < config.weak_guess[1]:
        return True
    chroma = float(np.hypot(median[1] - 128.0, median[2] - 128.0))
    return config.weak_chroma > 0.0 and chroma >= config.weak_chroma


def median_colour(colours: list[Lab]) -> Lab | None:
    """The per-channel median of colours (None for none)."""
    if not colours:
        return None
    med = np.median(np.array(colours, dtype=np.float64), axis=0)
    return float(med[0]), float(med[1]), float(med[2])


def _weights(lightness_weight: float) -> npt.NDArray[np.float64]:
    return np.array([lightness_weight, 1.0, 1.0])


def _apart(samples: npt.NDArray[np.float64], centres: npt.NDArray[np.float64],
           config: ColourConfig) -> bool:
    """Whether two cluster centres are far enough apart to be two colours."""
    gap = float(np.linalg.norm(centres[1] - centres[0]))
    if gap < config.min_separation:
        return False
    axis = (centres[1] - centres[0]) / gap
    along = samples @ axis
    labels = np.argmin(np.abs(along[:, None] - (centres @ axis)[None, :]), axis=1)
    spread = float(np.sqrt(sum(float(along[labels == k].var()) for k in (0, 1)
                               if (labels == k).any())))
    return gap >= config.min_ratio * max(spread, 1.0)


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


def _two_means(samples: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """Two cluster centres by Lloyd's algorithm, started from the extremes of lightness
    (deterministic: no random restarts).  When that leaves a cluster of ``_FEW`` samples
    or fewer, it is started again from the extremes along the samples' main axis, and
    the split with the smaller spread about its centres is kept: started from lightness
    alone, a lone phantom circle far lighter than both colours (a white point's base
    under glare) took one cluster by itself and a red-black set's red and black the
    other (pipeline tune seed 21, scene 25: every checker read dark)."""
    if len(samples) < 2:
        return None
    order = np.argsort(samples[:, 0])
    best = _lloyd(samples, np.stack([samples[order[0]], samples[order[-1]]]))
    if best is not None and min(best[2]) > _FEW:
        return best[0]
    centred = samples - samples.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    along = centred @ axes[0]
    other = _lloyd(samples, np.stack([samples[int(np.argmin(along))],
                                      samples[int(np.argmax(along))]]))
    if best is None or (other is not None and other[1] < best[1] - 1e-9):
        best = other
    return None if best is None else best[0]


_FEW = 2
"""A cluster this small from the lightness start is checked against a second start."""


def _lloyd(samples: npt.NDArray[np.float64], start: npt.NDArray[np.float64]
           ) -> tuple[npt.NDArray[np.float64], float, tuple[int, int]] | None:
    """Two centres by Lloyd's algorithm from ``start``, the samples' summed squared
    distance to their nearer centre and the clusters' sizes (None when every sample falls
    to one centre)."""
    centres = start.astype(np.float64)
    for _ in range(20):
        d = np.linalg.norm(samples[:, None, :] - centres[None, :, :], axis=2)
        labels = np.argmin(d, axis=1)
        if labels.min() == labels.max():
            return None
        new = np.stack([samples[labels == k].mean(axis=0) for k in (0, 1)])
        if np.allclose(new, centres):
            break
        centres = new
    d = np.linalg.norm(samples[:, None, :] - centres[None, :, :], axis=2)
    labels = np.argmin(d, axis=1)
    ones = int(labels.sum())
    return centres, float((d.min(axis=1) ** 2).sum()), (len(samples) - ones, ones)


@dataclass(frozen=True, slots=True)
class LearnConfig:
    """When a stream may learn its set's :class:`ColourModel` from a frame of its own.

    A model learned decides every frame after it alone (a red side alone on the
    field is then light or dark as the set says, not as its lightness guesses), so a
    misread learned would spoil the rest of the game: learning is stricter than the
    per-frame split on every count."""

    per_side: int = 15
    """Checkers of each colour the frame's count must find on the points and the bar:
    all fifteen of both (the starting position, or any position before the first
    checker is borne off), so both colours are present in numbers that leave no doubt
    of which circles are which."""
    min_seen: int = 10
    """Circles of each colour the frame must show itself (not inferred under a
    layer): the model's centres are the medians of these."""
    min_separation: float = 30.0
    """Distance (weighted Lab, as in the split) between the two colours' means below
    which the frame is not learned from: the split's ``min_separation`` (22) and a third
    more.  On the starting positions of ``checker_accuracy --split tune --seed 71
    --learn-colours`` (300 renders) the nearest pair, marbled, came 36.8 apart (median
    48), red-black 51.9, white-black 47.8 (turned, 44.3); the margin below is for a
    lamp or a camera that brings a set's colours nearer than the renders do."""
    min_ratio: float = 4.0
    """The two colours' means must also be this many times the circles' spread about
    them apart (along the line through them): the split asks 3.  Same renders: 5.1 at
    the least (marbled), medians 17-28."""
    frames: int = 3
    """Consecutive fresh frames that must each pass and agree before a model is kept
    (one frame's misread, a hand's shadow on half the board, is not learned)."""
    agreement: float = 12.0
    """Those frames agree when each one's light and dark centres lie within this
    weighted-Lab distance of the first one's (a lamp's flicker moves them a few units;
    a swapped or different reading moves them by the whole separation)."""


def learnable(colours: list[Lab], light: list[bool], config: LearnConfig | None = None,
              colour_config: ColourConfig | None = None) -> ColourModel | None:
    """The model of a set from one frame's circles told light and dark (``light``, as
    the split gave them), or None when the two sides are not well enough apart to learn
    from (see :class:`LearnConfig`)."""
    config = config or LearnConfig()
    colour_config = colour_config or ColourConfig()
    flags = np.array(light, dtype=bool)
    if len(colours) != len(flags) or min(int(flags.sum()), int((~flags).sum())) < config.min_seen:
        return None
    samples = np.array(colours, dtype=np.float64) * _weights(colour_config.lightness_weight)
    bright, dark = samples[flags].mean(axis=0), samples[~flags].mean(axis=0)
    gap = float(np.linalg.norm(bright - dark))
    if gap < config.min_separation:
        return None
    axis = (bright - dark) / gap
    along = samples @ axis
    spread = float(np.sqrt(along[flags].var() + along[~flags].var()))
    if gap < config.min_ratio * max(spread, 1.0):
        return None
    model = learn_model(colours, light)
    if model.light[0] < model.dark[0]:
        return None  # the light side must be the lighter: a swapped reading is no model
    return model


def models_agree(a: ColourModel, b: ColourModel, config: LearnConfig | None = None,
                 colour_config: ColourConfig | None = None) -> bool:
    """Whether two models learned of two frames are the same set's (see
    ``LearnConfig.agreement``)."""
    config = config or LearnConfig()
    w = _weights((colour_config or ColourConfig()).lightness_weight)
    return all(float(np.linalg.norm((np.array(x) - np.array(y)) * w)) <= config.agreement
               for x, y in ((a.light, b.light), (a.dark, b.dark)))
