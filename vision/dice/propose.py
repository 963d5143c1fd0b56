"""Where on the board dice may be: a quick look before the careful one.

Reading dice carefully (:mod:`.detect`) needs the field rectified at 40
pixels a die and a pip search at several thresholds; over the whole field
that is a 1333-pixel-wide image and most of a frame's budget.  Dice cover a
few hundredths of the field, so this module looks at the camera frame as it
is (shrunk by a whole factor when dice are large, never enlarged) for the
one thing every die shows, a pip, and says where to look carefully.

A pip is a small blob brighter or darker than its surroundings: the white
and black top-hats (the image less its opening, its closing less the image,
with a disc about the size of a pip) respond to blobs and thin lines no
wider than the disc.  A blob is kept when its response is strong, its box
no bigger than the disc, and the face around it even (the spread of the grey
levels in a ring around it, other blobs left out, is small against the
blob's contrast): a pip sits on a plain die face, while the highlights on a
checker's rim, the tips of the points and wood or felt texture sit on
edges.  Nearby proposals are grouped into windows that :mod:`.board` reads.
"""

import functools
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice.pips import Polarity
from vision.errors import ConfigError
from vision.rectify import FieldMap

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ProposeConfig:
    """Thresholds of the quick look (sizes in die edges unless said otherwise)."""

    coarse_die: float = 20.0
    """Least die edge in the coarse view (pixels): the frame is shrunk by the largest
    whole factor that keeps a die this big, never enlarged; a 20-pixel die has 3-5 pixel
    pips, the smallest the blobs are still found at."""
    hat_size: float = 0.27
    """Diameter of the top-hat disc: pips are 12-30 % of a die."""
    min_response: float = 45.0
    """Grey levels of top-hat response that make a pixel part of a blob (lower joins the
    pips of a small die into one blob, too big to be a pip)."""
    min_peak: float = 50.0
    """Grey levels the blob's strongest pixel needs (real pips: 5 % have less than 40,
    median 110; other blobs median 43)."""
    faint_response: float | None = 35.0
    """A second, lower threshold of the same responses, None for none: blobs found at it
    are proposed too when the dice are read from a still (:mod:`.board`; from the frame
    they added false twos on bar hinges).  The pips of red translucent dice, dim through
    the body, respond 34-52 grey levels and were not proposed (7 of 11 misses on 250
    renders of tuned styles); a lower ``min_response`` for all joins the pips of small
    dice into one blob, which then is no pip, and lost more dice than it found.  30
    found two more and proposed a false one; windows per render 3.2 -> 4.2."""
    faint_peak: float = 40.0
    """The strongest pixel a blob found at ``faint_response`` needs."""
    strict_response: float | None = 90.0
    """A third, higher threshold of the same responses, None for none, for stills too:
    the pips of a small die with strongly contrasting pips (white on black, 12-13 mm)
    respond 150-200 grey levels and the blurred gaps between them 50-90, so at
    ``min_response`` a six's pips join into one chain, no pip (renders: such dice never
    proposed while the still read them).  Its blobs need this much at their peak."""
    wide_hat: float | None = 0.45
    """Diameter (die edges) of a second, wider top-hat disc, None for none: its blobs are
    proposed too when the dice are read from a still (:mod:`.board`; like the faint
    threshold, not on the per-frame path).  The one of a big die has a pip a third of
    the die wide and wider still blurred; at ``hat_size`` it barely responds (renders:
    ones of 16-17 mm dice on red, dark-checker and translucent bodies, never proposed,
    while the still read each of them)."""
    min_blob_pixels: int = 4
    """Least box area of a blob (pixels of the coarse view): one or two pixels are noise."""
    ring_outer: float = 0.25
    """The ring of face around a blob reaches this far from its centre (inside the die)."""
    min_ring_pixels: int = 5
    """A blob with fewer face pixels around it is not judged (and not proposed)."""
    ring_width: float = 1.5
    """The ring reaches at least this many pixels (of the coarse view) past the blob's
    box: on a 14-pixel die a one's pip, blurred, is a 5-6 pixel blob, a quarter die is
    3.5 pixels, and the ring from a pixel past the blob to a quarter die was empty, so
    no one on a small die was proposed (renders: 4 of 7 misses of a window)."""
    max_ring_spread: float = 0.25
    """Standard deviation of the ring's grey levels over the blob's peak response.  With
    the ring reaching a quarter die (a corner pip's ring then stays on its die) this
    leaves about 4 windows a real frame and 2.5 a render, and the benchmarks' dice
    read as before (0.4 kept twice the windows)."""
    gap_reach: float = 0.5
    gap_cover: float = 0.6
    """With a checker mask: a blob off the checkers with at least ``gap_cover`` of the
    points ``gap_reach`` around it on checkers is the gap where checkers touch (a dark
    or light spot on an even surround, like a pip), not a pip."""
    group: float = 1.5
    """Blobs closer than this share a window (the pips of one die, two dice side by side)."""
    margin: float = 1.4
    """A window reaches this far past its blobs: the careful reading needs the die's
    whole face, its body and a little board around it."""

    def for_frame(self) -> "ProposeConfig":
        """These settings as the per-frame path uses them: without the passes meant for
        stills (the faint and strict thresholds, the wide top-hat), which cost time every
        frame and, read from the frame, added bar-hinge screws read as twos."""
        return replace(self, faint_response=None, strict_response=None, wide_hat=None)

    def __post_init__(self) -> None:
        if self.coarse_die < 8.0:
            raise ConfigError(f"dice: coarse_die of at least 8 pixels, not {self.coarse_die}")
        if not 0.0 < self.hat_size < 1.0 or not 0.0 < self.ring_outer < 1.0:
            raise ConfigError("dice: hat_size and ring_outer between 0 and 1 die edge")
        if self.wide_hat is not None and not self.hat_size < self.wide_hat < 1.0:
            raise ConfigError("dice: wide_hat between hat_size and 1 die edge")
        if self.group <= 0.0 or self.margin <= 0.0:
            raise ConfigError("dice: group and margin must be positive")


@dataclass(frozen=True, slots=True)
class Blob:
    """A pip-like blob: where (field u, v) and which kind of pip it would be."""

    u: float
    v: float
    polarity: Polarity


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of the field to read carefully, in field coordinates."""

    low: Point
    """(u, v) of its top-left corner."""
    high: Point
    """(u, v) of its bottom-right corner."""
    core_low: Point
    core_high: Point
    """The blobs' box grown by half the margin (a pip lies within half a die of its
    die's centre): a die is reported by the window whose core holds its centre."""
    polarities: tuple[Polarity, ...]
    """The kinds of pip its blobs would be: only those are looked for."""

    def holds(self, u: float, v: float) -> bool:
        """True when (u, v) lies in the core."""
        return (self.core_low[0] <= u <= self.core_high[0]
                and self.core_low[1] <= v <= self.core_high[1])


def blobs(frame: Image, field_map: FieldMap, die_size: float, field_margin: float,
          config: ProposeConfig,
          checker_mask: npt.NDArray[np.generic] | None = None) -> list[Blob]:
    """The pip-like blobs in and just around the field (``checker_mask``: non-zero on the
    checkers, in the frame's pixels, to leave out the gaps between checkers)."""
    view, to_camera, die = _coarse(frame, field_map, die_size, field_margin, config)
    if view.size == 0:
        return []
    found: list[npt.NDArray[np.float64]] = []
    kinds: list[Polarity] = []
    levels = [(config.min_response, config.min_peak)]
    if config.faint_response is not None:
        levels.append((config.faint_response, config.faint_peak))
    if config.strict_response is not None:
        levels.append((config.strict_response, config.strict_response))
    _hat_blobs(view, die, config.hat_size, levels, config, found, kinds)
    if config.wide_hat is not None:
        _hat_blobs(view, die, config.wide_hat, [(config.min_response, config.min_peak)],
                   config, found, kinds, np.concatenate(found) if found else None)
    if not kinds:
        return []
    camera = np.asarray(cv2.perspectiveTransform(np.concatenate(found).reshape(-1, 1, 2),
                                                 to_camera), dtype=np.float64).reshape(-1, 2)
    if checker_mask is not None:
        keep = ~_checker_gaps(camera, checker_mask, die * float(to_camera[0, 0]), config)
        camera, kinds = camera[keep], [k for k, kept in zip(kinds, keep, strict=True) if kept]
    if len(camera) == 0:
        return []
    uv = cv2.perspectiveTransform(camera.reshape(-1, 1, 2), field_map.to_field).reshape(-1, 2)
    # a pip lies within half a die of its die's centre, which lies within the margin
    low, high = -field_margin - 0.5 * die_size, 1.0 + field_margin + 0.5 * die_size
    return [Blob(float(u), float(v), kind) for (u, v), kind in zip(uv, kinds, strict=True)
            if low <= u <= high and low <= v <= high]


def _hat_blobs(view: Image, die: float, hat: float, levels: list[tuple[float, float]],
               config: ProposeConfig, found: list[npt.NDArray[np.float64]],
               kinds: list[Polarity], known: npt.NDArray[np.float64] | None = None) -> None:
    """Adds to ``found`` and ``kinds`` the blobs of both polarities the top-hats with a
    disc ``hat`` die edges wide find at each (response, peak) level in turn: a blob a
    level (or ``known``, blobs already found) has is not proposed again by a later one."""
    kernel_size = max(3, round(hat * die) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel_size, kernel_size))
    # the farthest ring: a quarter die, or the widest blob kept (a side kernel_size + 1)
    reach = max(2, math.ceil(config.ring_outer * die),
                math.ceil((kernel_size + 1) / 2.0 + 1.0 + config.ring_width))
    hats: tuple[tuple[Polarity, int], ...] = (("light", cv2.MORPH_TOPHAT),
                                              ("dark", cv2.MORPH_BLACKHAT))
    for polarity, operation in hats:
        response = np.asarray(cv2.morphologyEx(view, operation, kernel), dtype=np.uint8)
        kept = np.zeros((0, 2), dtype=np.float64) if known is None else known
        for least, peak_least in levels:
            mask = np.asarray(cv2.threshold(response, least - 0.5, 1,
                                            cv2.THRESH_BINARY)[1], dtype=np.uint8)
            boxes = _small_blobs(mask, kernel_size + 1, config.min_blob_pixels)
            if len(boxes) == 0:
                continue
            xs, ys = boxes[:, 0] + boxes[:, 2] // 2, boxes[:, 1] + boxes[:, 3] // 2
            peak = response[ys, xs].astype(np.float32)
            strong = peak >= peak_least
            if len(kept):  # a blob an earlier level kept is not proposed twice
                apart = np.hypot(xs[:, None] - kept[None, :, 0], ys[:, None] - kept[None, :, 1])
                strong &= apart.min(axis=1) > 1.5
            xs, ys, peak, boxes = xs[strong], ys[strong], peak[strong], boxes[strong]
            if len(xs) == 0:
                continue
            radius = np.maximum(boxes[:, 2], boxes[:, 3]) / 2.0
            even = _even_surround(view, mask, xs, ys, radius, peak, die, reach, config)
            found.append(np.column_stack([xs[even], ys[even]]).astype(np.float64))
            if known is None and least == levels[0][0]:
                kept = found[-1]
            kinds.extend([polarity] * int(np.count_nonzero(even)))


def _checker_gaps(points: npt.NDArray[np.float64], mask: npt.NDArray[np.generic],
                  die: float, config: ProposeConfig) -> npt.NDArray[np.bool_]:
    """Which camera points lie off the checkers but ringed by them (eight points
    ``gap_reach`` die edges around, ``gap_cover`` of them on checkers)."""
    height, width = mask.shape[:2]
    reach = config.gap_reach * die
    xs = np.rint(points[:, 0:1] + reach * _GAP_COS).astype(np.intp)
    ys = np.rint(points[:, 1:2] + reach * _GAP_SIN).astype(np.intp)
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    ring = np.zeros(xs.shape, dtype=np.bool_)
    ring[inside] = mask[ys[inside], xs[inside]] != 0
    cx = np.minimum(np.maximum(np.rint(points[:, 0]).astype(np.intp), 0), width - 1)
    cy = np.minimum(np.maximum(np.rint(points[:, 1]).astype(np.intp), 0), height - 1)
    off = mask[cy, cx] == 0
    return np.asarray(off & (ring.mean(axis=1) >= config.gap_cover))


_GAP_ANGLES = np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)
_GAP_COS = np.cos(_GAP_ANGLES)[None]
_GAP_SIN = np.sin(_GAP_ANGLES)[None]


def _small_blobs(mask: Image, largest: int, least: int) -> npt.NDArray[np.intp]:
    """Boxes (x, y, w, h) of the blobs of ``mask`` no more than ``largest`` pixels a side
    and of at least ``least`` pixels of box."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return np.zeros((0, 4), dtype=np.intp)
    # every outline's box at once: min and max over each outline's stretch of points
    points = np.concatenate(contours).reshape(-1, 2)
    starts = np.zeros(len(contours), dtype=np.intp)
    np.cumsum(np.fromiter(map(len, contours[:-1]), dtype=np.intp, count=len(contours) - 1),
              out=starts[1:])
    low = np.minimum.reduceat(points, starts, axis=0)
    size = np.maximum.reduceat(points, starts, axis=0) - low + 1
    keep = (size.max(axis=1) <= largest) & (size[:, 0] * size[:, 1] >= least)
    return np.column_stack([low[keep], size[keep]]).astype(np.intp)


def _even_surround(view: Image, mask: Image, xs: npt.NDArray[np.intp],
                   ys: npt.NDArray[np.intp], radius: npt.NDArray[np.float64],
                   peak: npt.NDArray[np.float32], die: float, reach: int,
                   config: ProposeConfig) -> npt.NDArray[np.bool_]:
    """Which blobs sit on an even face: the ring around each (other blobs left out, from a
    pixel past the blob to a quarter die or ``ring_width`` more) has a small spread of
    grey levels against the blob's response.  All blobs at once, on the
    patches ``reach`` pixels around them (the edge pixels repeated past the view's edges);
    ``mask`` marks the blobs."""
    dy, dx, distance = _offsets(reach)
    rows = np.minimum(np.maximum(ys[:, None, None] + dy[None], 0), view.shape[0] - 1)
    columns = np.minimum(np.maximum(xs[:, None, None] + dx[None], 0), view.shape[1] - 1)
    patches = view[rows, columns].astype(np.float32)
    outer = np.maximum(config.ring_outer * die, radius + 1.0 + config.ring_width)
    ring = ((distance[None] >= radius[:, None, None] + 1.0)
            & (distance[None] <= outer[:, None, None]) & (mask[rows, columns] == 0))
    count = ring.sum(axis=(1, 2))
    total = np.maximum(count, 1)
    mean = (patches * ring).sum(axis=(1, 2)) / total
    square = (patches * patches * ring).sum(axis=(1, 2)) / total
    spread = np.sqrt(np.maximum(square - mean * mean, 0.0))
    return np.asarray((count >= config.min_ring_pixels)
                      & (spread <= config.max_ring_spread * peak))


@functools.lru_cache(maxsize=16)
def _offsets(reach: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp],
                                  npt.NDArray[np.float64]]:
    """The row and column offsets of a square ``reach`` pixels around a pixel, and their
    distances from it (made once for each reach, not for every view; read only)."""
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    distance = np.hypot(dx, dy)
    for array in (dy, dx, distance):
        array.flags.writeable = False
    return dy, dx, distance


def windows(found: list[Blob], die_size: float, aspect: float,
            config: ProposeConfig) -> list[Window]:
    """Blobs grouped into windows: blobs closer than ``config.group`` die edges (through
    others) share one; windows that would overlap are merged.  ``aspect``: the field's
    width over its height (a die edge in v is ``die_size * aspect``)."""
    if not found:
        return []
    scale = np.array([1.0, aspect])
    xy = np.array([(b.u, b.v) for b in found]) / (die_size * scale)  # in die edges
    parent = list(range(len(xy)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    close = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1)) <= config.group
    for i, j in zip(*np.nonzero(np.triu(close, 1)), strict=True):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(xy)):
        groups.setdefault(root(i), []).append(i)
    boxes = [(xy[g].min(axis=0), xy[g].max(axis=0), {found[i].polarity for i in g})
             for g in groups.values()]
    merged = True
    while merged:  # windows whose margins overlap become one
        merged = False
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                (la, ha, pa), (lb, hb, pb) = boxes[a], boxes[b]
                if np.all(la - 2 * config.margin <= hb) and np.all(lb - 2 * config.margin <= ha):
                    boxes[a] = (np.minimum(la, lb), np.maximum(ha, hb), pa | pb)
                    del boxes[b]
                    merged = True
                    break
            if merged:
                break
    unit = die_size * scale

    def point(xy: npt.NDArray[np.float64], grow: float) -> Point:
        return float((xy[0] + grow) * unit[0]), float((xy[1] + grow) * unit[1])

    out = []
    for low, high, kinds in boxes:
        polarities: tuple[Polarity, ...] = tuple(
            p for p in ("dark", "light") if p in kinds)
        out.append(Window(point(low, -config.margin), point(high, config.margin),
                          point(low, -config.margin / 2.0), point(high, config.margin / 2.0),
                          polarities))
    return out


def _coarse(frame: Image, field_map: FieldMap, die_size: float, field_margin: float,
            config: ProposeConfig) -> tuple[Image, npt.NDArray[np.float64], float]:
    """The grey coarse view of the field (plus ``field_margin`` and a little), its
    mapping to camera pixels (scale and shift), and a die's edge in it (pixels)."""
    m = field_margin + 0.5 * die_size
    corners = np.array([field_map.image_point(u, v) for u, v in (
        (-m, -m), (1 + m, -m), (1 + m, 1 + m), (-m, 1 + m))])
    height, width = frame.shape[:2]
    x0 = max(0, int(np.floor(corners[:, 0].min())))
    y0 = max(0, int(np.floor(corners[:, 1].min())))
    x1 = min(width, int(np.ceil(corners[:, 0].max())) + 1)
    y1 = min(height, int(np.ceil(corners[:, 1].max())) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((0, 0), np.uint8), np.eye(3), 1.0
    top = math.dist(field_map.image_point(0.0, 0.0), field_map.image_point(1.0, 0.0))
    bottom = math.dist(field_map.image_point(0.0, 1.0), field_map.image_point(1.0, 1.0))
    die = die_size * (top + bottom) / 2.0
    # shrink only by a whole factor (block averaging, several times cheaper than any
    # other resize), keeping a die at least ``coarse_die`` pixels
    step = max(1, int(die / config.coarse_die))
    x1, y1 = x0 + (x1 - x0) // step * step, y0 + (y1 - y0) // step * step
    roi = frame[y0:y1, x0:x1]
    gray = roi if roi.ndim == 2 else cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    if step > 1:
        gray = cv2.resize(gray, ((x1 - x0) // step, (y1 - y0) // step),
                          interpolation=cv2.INTER_AREA)
    sx, sy = gray.shape[1] / (x1 - x0), gray.shape[0] / (y1 - y0)
    to_camera = np.array([[1.0 / sx, 0.0, x0 + 0.5 / sx - 0.5],
                          [0.0, 1.0 / sy, y0 + 0.5 / sy - 0.5], [0.0, 0.0, 1.0]])
    return (np.asarray(gray, dtype=np.uint8), to_camera,
            die * math.sqrt(sx * sy))
