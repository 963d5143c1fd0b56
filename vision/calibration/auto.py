"""Finding the playing field without markers.

Most boards in a club will carry no markers on day one, so the field must
also be found from what every board has, whatever its colours: a cream field
on dark rails, dark leather, green felt on brown wood, printed vinyl, or a
field darker than its rails.

0. **Colour directions.**  The field differs from its rails and bar in some
   direction of colour space; the search runs on grey planes that project
   the frame onto a few such directions, each making the field lighter than
   its frame: the brightest channel first (cream fields, the real frames),
   then directions learnt from the frame.  Long upright edges of any colour
   step are found; the field's two side edges step by opposite colours (rail
   to field, field to rail) and the bar's edges by the same two, centred and
   as wide as the profile says.  Pairs that meet this give the directions.
   After each search the best outline's own field and frame colours give one
   more direction, tried if it is new.
1. **Upright edges.**  On each plane, long, nearly vertical edges are voted
   for separately by polarity (dark-to-light and light-to-dark, left to
   right): the field's left edge (rising), the bar's two edges (falling then
   rising) and its right edge (falling).  Pairs of side edges are ranked by
   how well that pattern is met; point flanks and checker stacks rarely meet it.
2. **Lying edges.**  Between a pair of side edges, the top edge is a strong
   nearly horizontal dark-above-light edge, the bottom edge a strong
   light-above-dark one, and both lie where the side and bar edges end (the
   outer edges of the rails, with the same polarities, lie beyond that).  A
   few candidates of each are kept: rows of checkers resting against a rail
   make lines too.
3. **The field model decides** (:mod:`vision.calibration.fieldmodel`, in
   colour): of every combination, the one whose inside looks most like the
   profile's field (bar and rails in one colour, bare field in another, every
   side and bar edge a step between them, the 24 points where and as the
   profile draws them).
4. **Refinement.**  Each of the four lines is refitted to its own sub-pixel
   edge pixels, and the corners are where the lines cross: a corner hidden
   under a checker still comes out right.
5. **Acceptance.**  The refined quadrilateral must look like a field by
   every part of the model, have edge support on all four sides, and lead
   every other outline that would pass, anywhere in the frame and in any
   direction, by a margin: two different outlines that both look like a
   field leave the answer in doubt.  Otherwise :class:`BoardNotFoundError`,
   never a guess.

The field's edge found this way is where the field's surface starts, as on
the labelled real frames.  The camera must see the bar upright (running from
the top of the image to the bottom) and the board turned less than about
eleven degrees; a board filling less than a fifth of the frame's width is not
looked for.  A search costs a few tenths of a second (several planes).
"""

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration.fieldmodel import FieldScore, score_field
from vision.calibration.lines import (
    EdgePixels,
    Line,
    Orientation,
    colour_edges,
    edge_pixels,
    fit,
    hough,
    intersect,
    near,
    peaks,
)
from vision.errors import BoardNotFoundError, ConfigError
from vision.observation import Corners
from vision.profile import TOURNAMENT, BoardProfile

Image = npt.NDArray[np.uint8]
Plane = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class AutoConfig:
    """Thresholds of the marker-less search (pixels are working-image pixels)."""

    work_size: int = 1280
    """Frames larger than this (longest side) are shrunk first: speed, and the
    thresholds below were tuned at this size."""
    blur_sigma: float = 1.2
    """Gaussian blur before taking gradients, against JPEG noise and wood grain."""
    stretch: tuple[float, float] = (1.0, 99.0)
    """Percentiles of the frame's brightness stretched to 0..255 before anything else."""
    min_edge: float = 8.0
    """Weakest edge used, levels per pixel (the shadowed top of a red point rises only
    15-20 levels per pixel; felt on wood steps by 10-15 in colour)."""
    max_slope: float = 0.2
    """Steepest slope voted for: lines within about eleven degrees of the image axes."""
    slope_steps: int = 81
    row_slope_steps: int = 41
    """Slopes voted for on top and bottom edges: coarser, as each is refitted to its own
    edge pixels and there are many to find (one set per pair of side edges)."""
    max_edge_pixels: int = 40000
    """Most edge pixels voting for lines of one kind (the strongest); a board's frame has a
    third of that, noise or clutter ten times as many."""
    line_candidates: int = 10
    """Strongest lines kept per polarity and orientation."""
    separation: float = 0.006
    """Closest two kept lines may be, as a fraction of the working image's longest side."""
    direction_lines: int = 16
    """Strongest upright colour edges (either polarity) searched for the field's outline
    to learn its colours from."""
    direction_agreement: float = 0.6
    """Least cosine between the colour steps of edges taken for the same boundary (the
    field's left edge and the bar's right edge; the opposite for the other two)."""
    direction_separation: float = 0.95
    """Directions whose cosine exceeds this count as one."""
    max_directions: int = 3
    """Colour directions tried after the brightest channel."""
    min_field_width: float = 0.2
    """Narrowest field looked for, as a fraction of the image width."""
    bar_tolerance: float = 0.025
    """How far each bar edge may sit from where the profile puts it (field widths)."""
    aspect_tolerance: float = 0.3
    """How far the candidate's width/height may stray from the profile's aspect
    (relative), perspective included."""
    end_tolerance: float = 0.04
    """How far (fraction of the field's height) the top and bottom edges may lie from
    where the side and bar edges end: keeps the outer edges of the rails out."""
    structures: int = 6
    """Side-edge pairs examined in full, best first."""
    row_candidates: int = 4
    """Top and bottom edge candidates examined for each pair."""
    row_vote_ratio: float = 0.5
    """Top and bottom candidates need this part of the strongest one's votes: the field
    model alone cannot tell the edge from a line a few pixels off, the votes can."""
    corner_margin: float = 0.02
    """Part of each side, at both ends, not used for fitting (corners are cluttered)."""
    fit_band: float = 3.0
    """Half-width of the band around a line in which its edge pixels are refitted."""
    min_score: float = 0.62
    """Least total field-model score (see :class:`FieldScore`) to accept."""
    min_light: float = 0.75
    """Least level of the bare field (1: all of the field's colour)."""
    max_outside: float = 0.75
    """Most level just outside the worst side (0: all of the frame's colour); lenient, as
    a light trim along the rails' inner edge is common."""
    max_bar: float = 0.35
    """Most level of the bar's frame-like half (0: the frame's colour)."""
    min_points: float = 0.3
    """Least part of the 24 points seen where and as the profile says (checkers and hands
    hide some)."""
    min_edges: float = 0.08
    """Least mean step across the weakest side or bar edge (see :class:`FieldScore`)."""
    min_contrast: float = 40.0
    """Least distance between the field's and the frame's colour, in levels of the
    stretched image."""
    min_margin: float = 0.03
    """Least lead of the best outline's score over any other outline that passes the checks
    above and lies more than ``rival_distance`` from it: two different outlines that both
    look like a field leave the answer in doubt, and no answer is better than a wrong one."""
    rival_distance: float = 0.03
    """Outlines whose corners all lie within this part of the image width count as one."""
    min_support: float = 0.06
    """Least part of each side's length carrying edge pixels on the fitted line."""
    max_outside_image: float = 0.01
    """How far (fraction of the image size) a corner may lie outside the frame."""

    def __post_init__(self) -> None:
        checks = (
            (160 <= self.work_size <= 8192, "work_size between 160 and 8192"),
            (0.0 <= self.stretch[0] < self.stretch[1] <= 100.0,
             "stretch: two percentiles, low < high"),
            (0.0 < self.max_slope <= 0.5, "max_slope between 0 and 0.5"),
            (self.slope_steps >= 3 and self.row_slope_steps >= 3 and self.line_candidates >= 2
             and self.structures >= 1
             and self.row_candidates >= 1, "at least 3 slopes, 2 lines, 1 structure, 1 row"),
            (0.0 < self.min_field_width < 1.0, "min_field_width between 0 and 1"),
            (0.0 <= self.min_score <= 1.0, "min_score between 0 and 1"),
            (self.max_directions >= 0 and self.direction_lines >= 2,
             "max_directions at least 0, direction_lines at least 2"),
        )
        for ok, text in checks:
            if not ok:
                raise ConfigError(f"auto calibration: {text}")


class FieldRejectedError(BoardNotFoundError):
    """The best outline found does not pass as a field; ``score`` says how close it came."""

    def __init__(self, message: str, score: FieldScore,
                 support: tuple[float, float, float, float]) -> None:
        super().__init__(message)
        self.score = score
        self.support = support


@dataclass(frozen=True, slots=True)
class AutoResult:
    """The field found without markers, and how sure the finding is."""

    corners: Corners
    score: FieldScore
    support: tuple[float, float, float, float]
    """Part of the top, right, bottom and left side backed by edge pixels."""
    bar_found: bool
    """True when both bar edges were found where the profile puts them."""
    margin: float = 1.0
    """How far the score leads that of the best outline elsewhere in the frame."""

    def as_dict(self) -> dict[str, object]:
        return {"score": self.score.as_dict(), "support": [round(s, 3) for s in self.support],
                "bar_found": self.bar_found, "margin": round(self.margin, 3)}


@dataclass(frozen=True, slots=True)
class _Sides:
    """A candidate pair of side edges, with the bar's edges when found."""

    left: Line
    right: Line
    bar: tuple[Line, Line] | None
    rank: float


@dataclass(frozen=True, slots=True)
class _Candidate:
    sides: _Sides
    top: Line
    bottom: Line
    corners: Corners
    score: FieldScore


@dataclass(frozen=True, slots=True)
class _Edges:
    """The frame's edge pixels by orientation and polarity (light on the named side)."""

    rising: EdgePixels
    """Upright, light on the right: the field's left edge, the bar's right edge."""
    falling: EdgePixels
    """Upright, light on the left: the field's right edge, the bar's left edge."""
    tops: EdgePixels
    """Lying, light below: the field's top edge."""
    bottoms: EdgePixels
    """Lying, light above: the field's bottom edge."""


def find_field(frame: Image, profile: BoardProfile = TOURNAMENT,
               config: AutoConfig | None = None) -> AutoResult:
    """The playing field's corners in ``frame`` (BGR or grey), found without markers.

    Raises :class:`BoardNotFoundError` saying why when no candidate passes.
    """
    config = config or AutoConfig()
    colour, scale = _working_image(frame, config)
    height, width = colour.shape[:2]
    found: list[_Refined] = []
    outlines: list[_Candidate] = []
    failure: BoardNotFoundError | None = None
    tried: list[Direction] = []
    todo = _directions(colour, profile, config)
    while todo:
        direction = todo.pop(0)
        tried.append(direction)
        try:
            result, candidates = _search(_project(colour, direction, config), colour, profile,
                                         config)
        except BoardNotFoundError as exc:
            failure = failure or exc
            continue
        found.append(result)
        outlines += candidates
        # The colours of the field and the frame under the best outline so far say
        # best in which direction to look again.
        best = max(found, key=lambda f: f.score.total)
        again = _unit(best.score.step)
        if (result is best and again is not None and len(tried) < config.max_directions + 2
                and all(_cosine(again, d) < config.direction_separation for d in tried)):
            todo.insert(0, again)
    if not found:
        assert failure is not None
        raise failure
    best = max(found, key=lambda f: f.score.total)
    margin = _accept(best, outlines, config, width, height)
    return AutoResult(_to_frame(best.corners, scale), best.score, best.support,
                      best.bar_found, margin)


def _search(value: Plane, colour: Plane, profile: BoardProfile,
            config: AutoConfig) -> tuple["_Refined", list["_Candidate"]]:
    """The field in one grey plane where it is lighter than the rails and the bar (scored
    in colour): the best outline refined, and every outline scored."""
    height, width = value.shape
    sep = max(2, round(config.separation * max(height, width)))
    edges = _Edges(edge_pixels(value, "upright", True, config.min_edge),
                   edge_pixels(value, "upright", False, config.min_edge),
                   edge_pixels(value, "lying", True, config.min_edge),
                   edge_pixels(value, "lying", False, config.min_edge))
    rise_lines = _lines(edges.rising, width, height / 2.0, "upright", config, sep)
    fall_lines = _lines(edges.falling, width, height / 2.0, "upright", config, sep)
    sides = _side_pairs(rise_lines, fall_lines, profile, config, width, height)
    if not sides:
        raise BoardNotFoundError("board not found: no field outline (no two long upright "
                                 "edges far enough apart)")
    candidates = [candidate for pair in sides[:config.structures]
                  for candidate in _candidates(pair, value, colour, edges, profile, config,
                                               sep)]
    if not candidates:
        raise BoardNotFoundError("board not found: no field outline (no top and bottom edge "
                                 "fit the side edges)")
    best = max(candidates, key=lambda c: c.score.total)
    return _refine(best, colour, edges, profile, config), candidates


def _candidates(pair: _Sides, value: Plane, colour: Plane, edges: _Edges,
                profile: BoardProfile, config: AutoConfig, sep: int) -> list[_Candidate]:
    """Every plausible top and bottom edge for a pair of side edges, scored."""
    height, width = value.shape
    reaches = _reaches(pair, edges.rising, edges.falling)
    if not reaches:
        return []
    # The top edge lies above the middle of the side edges, the bottom edge below; both
    # lie where the side edges end (the outer edges of the rails, of the same
    # polarities, lie beyond them).
    high, low = min(r.top for r in reaches), max(r.bottom for r in reaches)
    middle, tol = 0.5 * (high + low), config.end_tolerance * (low - high)
    upper = _between(edges.tops, pair, config)
    lower = _between(edges.bottoms, pair, config)
    upper = upper.select(upper.across < middle)
    lower = lower.select(lower.across > middle)
    tops = _strong([t for t in _lines(upper, height, width / 2.0, "lying", config, sep,
                                      config.row_candidates)
                    if _ends_at(t, reaches, True, tol)], config)
    bottoms = _strong([b for b in _lines(lower, height, width / 2.0, "lying", config, sep,
                                         config.row_candidates)
                       if _ends_at(b, reaches, False, tol)], config)
    out = []
    for top in tops:
        for bottom in bottoms:
            corners = _corners(pair.left, top, pair.right, bottom)
            if corners is not None and _plausible(corners, profile, config):
                out.append(_Candidate(pair, top, bottom, corners,
                                      score_field(colour, corners, profile)))
    return out


def _working_image(frame: Image, config: AutoConfig) -> tuple[Plane, float]:
    """The frame as float32, shrunk to the working size, blurred and stretched; the scale."""
    if frame.ndim == 3 and frame.shape[2] in (3, 4):
        image = frame[:, :, :3]
    elif frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
        image = frame.reshape(frame.shape[:2])
    else:
        raise BoardNotFoundError(f"board not found: not an image (shape {frame.shape})")
    height, width = image.shape[:2]
    scale = min(1.0, config.work_size / max(height, width))
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA),
                           dtype=np.uint8)
        scale = size[0] / width
    blurred = np.asarray(cv2.GaussianBlur(image.astype(np.float32), (0, 0), config.blur_sigma),
                         dtype=np.float32)
    # Stretch the levels so that edge thresholds mean the same in a dim room.
    lo, hi = (float(v) for v in np.percentile(blurred[::4, ::4], config.stretch))
    if hi - lo > 1.0:
        blurred = np.clip((blurred - lo) * (255.0 / (hi - lo)), 0.0, 255.0)
    return np.asarray(blurred, dtype=np.float32), scale


Direction = tuple[float, float, float] | None


def _directions(colour: Plane, profile: BoardProfile, config: AutoConfig) -> list[Direction]:
    """Colour directions to look along, best first; None is the brightest channel.

    Long upright edges are found whatever their colour step.  The field's two
    side edges step by opposite colours (rail to field, field to rail), the bar's
    edges by the same two, in the order the profile gives; a pair that meets this
    says in which colour direction the field differs from its frame.
    """
    out: list[Direction] = [None]
    if colour.ndim == 2:
        return out
    height, width = colour.shape[:2]
    sep = max(2, round(config.separation * max(height, width)))
    edges = colour_edges(colour, config.min_edge)
    # Close lines are told apart by their colour steps: a rail between the field and a
    # tray is only a few pixels wide, and its two edges step by different colours.
    lines: list[Line] = []
    steps: list[npt.NDArray[np.float64]] = []
    for line in _lines(edges.pixels, width, height / 2.0, "upright", config, 2,
                       3 * config.direction_lines):
        on = near(edges.pixels, line, 1.5)
        step = edges.steps[on].mean(axis=0) if on.any() else np.zeros(3)
        step /= max(float(np.linalg.norm(step)), 1e-9)
        x = float(line.across_at(height / 2.0))
        if all(abs(x - float(other.across_at(height / 2.0))) > sep
               or step @ other_step < config.direction_agreement
               for other, other_step in zip(lines, steps, strict=True)):
            lines.append(line)
            steps.append(step)
        if len(lines) == config.direction_lines:
            break
    mid = height / 2.0
    xs = [float(line.across_at(mid)) for line in lines]
    found: list[tuple[float, npt.NDArray[np.float64]]] = []
    agree = config.direction_agreement
    for i, left in enumerate(lines):
        for j, right in enumerate(lines):
            span = xs[j] - xs[i]
            if span < config.min_field_width * width or steps[i] @ -steps[j] < agree:
                continue
            rank = left.votes + right.votes
            direction = steps[i] - steps[j]
            if profile.bar_width >= 0.02:
                tol = config.bar_tolerance * span
                want = (xs[i] + span * profile.bar_span[0], xs[i] + span * profile.bar_span[1])
                bar_l = [k for k in range(len(lines)) if abs(xs[k] - want[0]) <= tol
                         and steps[k] @ steps[j] >= agree]
                bar_r = [k for k in range(len(lines)) if abs(xs[k] - want[1]) <= tol
                         and steps[k] @ steps[i] >= agree]
                if bar_l and bar_r:
                    k = max(bar_l, key=lambda n: lines[n].votes)
                    n = max(bar_r, key=lambda n: lines[n].votes)
                    rank += lines[k].votes + lines[n].votes
                    direction = direction + steps[n] - steps[k]
            found.append((rank, direction / float(np.linalg.norm(direction))))
    found.sort(key=lambda f: -f[0])
    kept: list[npt.NDArray[np.float64]] = []
    for _, direction in found:
        if len(kept) == config.max_directions:
            break
        if all(direction @ k < config.direction_separation for k in kept):
            kept.append(direction)
    return out + [(float(d[0]), float(d[1]), float(d[2])) for d in kept]


def _unit(step: tuple[float, ...]) -> Direction:
    """``step`` as a unit colour direction; None unless it is one (three channels)."""
    size = float(np.linalg.norm(step))
    if len(step) != 3 or size < 1e-6:
        return None
    return (step[0] / size, step[1] / size, step[2] / size)


def _cosine(a: Direction, b: Direction) -> float:
    """Cosine between two directions; the brightest channel counts as grey."""
    grey = (3 ** -0.5,) * 3
    u, v = np.array(a or grey), np.array(b or grey)
    return float(u @ v)


def _project(colour: Plane, direction: Direction, config: AutoConfig) -> Plane:
    """A grey plane: the brightest channel, or the colour projected on ``direction``
    (stretched like the frame)."""
    if colour.ndim == 2:
        return colour
    if direction is None:
        return np.asarray(colour.max(axis=2), dtype=np.float32)
    d = np.asarray(direction, dtype=np.float32)
    plane = np.asarray(colour @ (d / np.float32(np.linalg.norm(d))), dtype=np.float32)
    lo, hi = (float(v) for v in np.percentile(plane[::4, ::4], config.stretch))
    if hi - lo > 1.0:
        plane = np.clip((plane - lo) * (255.0 / (hi - lo)), 0.0, 255.0)
    return np.asarray(plane, dtype=np.float32)


def _lines(edges: EdgePixels, size: int, centre: float, orientation: Orientation,
           config: AutoConfig, separation: int, count: int | None = None) -> list[Line]:
    if len(edges) > config.max_edge_pixels:  # clutter: the strongest ones vote
        keep = np.zeros(len(edges), dtype=np.bool_)
        keep[np.argpartition(-edges.strength, config.max_edge_pixels)[:config.max_edge_pixels]] \
            = True
        edges = edges.select(keep)
    steps = config.slope_steps if orientation == "upright" else config.row_slope_steps
    acc, slopes = hough(edges, size, centre, config.max_slope, steps)
    return peaks(acc, slopes, centre, orientation, count or config.line_candidates, separation)


def _strong(lines: list[Line], config: AutoConfig) -> list[Line]:
    """The lines with at least ``row_vote_ratio`` of the strongest one's votes."""
    if not lines:
        return []
    least = config.row_vote_ratio * max(line.votes for line in lines)
    return [line for line in lines if line.votes >= least]


def _side_pairs(rise: list[Line], fall: list[Line], profile: BoardProfile, config: AutoConfig,
                width: int, height: int) -> list[_Sides]:
    """Left (rising) and right (falling) edge pairs, best first.

    A pair gains the votes of the bar's edges when a falling and a rising line
    sit where the profile puts the bar; a pair without them is kept, ranked by
    its own votes only, for boards whose bar does not stand out.
    """
    mid = height / 2.0
    pairs: list[_Sides] = []
    for left in rise:
        for right in fall:
            x_left, x_right = float(left.across_at(mid)), float(right.across_at(mid))
            span = x_right - x_left
            if span < config.min_field_width * width:
                continue
            bar = None
            if profile.bar_width >= 0.02:
                tol = config.bar_tolerance * span
                want_l = x_left + span * profile.bar_span[0]
                want_r = x_left + span * profile.bar_span[1]
                bl = [f for f in fall if abs(float(f.across_at(mid)) - want_l) <= tol]
                br = [r for r in rise if abs(float(r.across_at(mid)) - want_r) <= tol]
                if bl and br:
                    bar = (max(bl, key=lambda ln: ln.votes), max(br, key=lambda ln: ln.votes))
            rank = left.votes + right.votes + (sum(b.votes for b in bar) if bar else 0.0)
            pairs.append(_Sides(left, right, bar, rank))
    pairs.sort(key=lambda p: -p.rank)
    return pairs


@dataclass(frozen=True, slots=True)
class _Reach:
    """How far up and down the edge pixels of one upright line go."""

    line: Line
    top: float
    bottom: float


def _reaches(sides: _Sides, rising: EdgePixels, falling: EdgePixels) -> list[_Reach]:
    """The reach of the side edges and the bar's edges (1st to 99th percentile row).

    The field's side edges and the bar's edges run the field's full height and
    stop where it stops (the rails beyond are plain), so they say where the top
    and bottom edges must be, whatever lies beyond the rails.
    """
    lines = [(rising, sides.left), (falling, sides.right)]
    if sides.bar is not None:
        lines += [(falling, sides.bar[0]), (rising, sides.bar[1])]
    out = []
    for edges, line in lines:
        rows = edges.along[near(edges, line, 1.5)]
        if len(rows) >= 20:
            top, bottom = (float(v) for v in np.percentile(rows, [1.0, 99.0]))
            out.append(_Reach(line, top, bottom))
    return out


def _ends_at(row: Line, reaches: list[_Reach], top: bool, tol: float) -> bool:
    """True when the upright edges end at ``row``: none goes more than ``tol`` beyond it, and
    the one that goes furthest gets within ``tol`` of it."""
    gaps = []
    for reach in reaches:
        cross = intersect(reach.line, row)
        if cross is None:
            return False
        gaps.append(reach.top - cross[1] if top else cross[1] - reach.bottom)
    return -tol <= min(gaps) <= tol


def _between(edges: EdgePixels, sides: _Sides, config: AutoConfig) -> EdgePixels:
    """Lying edge pixels between the two side edges, away from the corners and the bar."""
    x, y = edges.along, edges.across
    x_left, x_right = sides.left.across_at(y), sides.right.across_at(y)
    span = x_right - x_left
    margin = config.corner_margin * span
    keep = (x > x_left + margin) & (x < x_right - margin)
    if sides.bar is not None:
        bar_l, bar_r = sides.bar[0].across_at(y), sides.bar[1].across_at(y)
        keep &= (x < bar_l - margin) | (x > bar_r + margin)
    return edges.select(keep)


def _corners(left: Line, top: Line, right: Line, bottom: Line) -> Corners | None:
    points = [intersect(left, top), intersect(top, right), intersect(right, bottom),
              intersect(bottom, left)]
    if any(p is None for p in points):
        return None
    tl, tr, br, bl = (p for p in points if p is not None)
    return Corners(tl, tr, br, bl)


def _plausible(corners: Corners, profile: BoardProfile, config: AutoConfig) -> bool:
    """Top above bottom and an aspect near the profile's."""
    tl, tr, br, bl = (np.array(p) for p in corners.as_list())
    width = 0.5 * (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl))
    height = 0.5 * (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr))
    if bl[1] <= tl[1] or br[1] <= tr[1] or height < 1.0:
        return False
    aspect = float(width / height)
    return abs(aspect / profile.field_aspect - 1.0) <= config.aspect_tolerance


@dataclass(frozen=True, slots=True)
class _Refined:
    corners: Corners
    score: FieldScore
    support: tuple[float, float, float, float]
    bar_found: bool


def _refine(best: _Candidate, colour: Plane, edges: _Edges, profile: BoardProfile,
            config: AutoConfig) -> _Refined:
    """Refit the four lines to their own edge pixels (sub-pixel) and re-score."""
    sides = best.sides
    top_px = _between(edges.tops, sides, config)
    bottom_px = _between(edges.bottoms, sides, config)
    left_px = _span(edges.rising, best.top, best.bottom, config)
    right_px = _span(edges.falling, best.top, best.bottom, config)
    band = config.fit_band
    left = fit(left_px, sides.left, band) or sides.left
    right = fit(right_px, sides.right, band) or sides.right
    top = fit(top_px, best.top, band) or best.top
    bottom = fit(bottom_px, best.bottom, band) or best.bottom
    corners = _corners(left, top, right, bottom) or best.corners
    support = (_support(top_px, top, corners.top_left[0], corners.top_right[0]),
               _support(right_px, right, corners.top_right[1], corners.bottom_right[1]),
               _support(bottom_px, bottom, corners.bottom_left[0], corners.bottom_right[0]),
               _support(left_px, left, corners.top_left[1], corners.bottom_left[1]))
    return _Refined(corners, score_field(colour, corners, profile), support,
                    sides.bar is not None)


def _span(edges: EdgePixels, top: Line, bottom: Line, config: AutoConfig) -> EdgePixels:
    """Upright edge pixels between the top and bottom lines, away from the corners."""
    x, y = edges.across, edges.along
    y_top, y_bottom = top.across_at(x), bottom.across_at(x)
    margin = config.corner_margin * (y_bottom - y_top)
    return edges.select((y > y_top + margin) & (y < y_bottom - margin))


def _support(edges: EdgePixels, line: Line, start: float, end: float) -> float:
    """Part of the side from ``start`` to ``end`` (along) with an edge pixel on ``line``."""
    length = abs(end - start)
    if length < 1.0:
        return 0.0
    on = edges.along[near(edges, line, 1.0)]
    return min(1.0, len(np.unique(np.round(on))) / length)


def _accept(found: _Refined, others: list[_Candidate], config: AutoConfig, width: int,
            height: int) -> float:
    """The best outline's lead over any other that would pass; :class:`BoardNotFoundError`
    unless every check passes."""
    s = found.score
    problems = _problems(s, config)
    rival = max((o.score.total for o in others
                 if _distance(o.corners, found.corners) > config.rival_distance * width
                 and not _problems(o.score, config)), default=0.0)
    if s.total - rival < config.min_margin:
        problems.append(f"another outline scores nearly as well ({rival:.2f})")
    weakest = min(found.support)
    if weakest < config.min_support:
        problems.append(f"a side with too little edge ({weakest:.2f})")
    slack_x, slack_y = config.max_outside_image * width, config.max_outside_image * height
    if any(not (-slack_x <= x <= width - 1 + slack_x and -slack_y <= y <= height - 1 + slack_y)
           for x, y in found.corners.as_list()):
        problems.append("a corner outside the frame")
    if problems:
        raise FieldRejectedError("board not found: the best field outline fails: "
                                 + "; ".join(problems), s, found.support)
    return s.total - rival


def _problems(s: FieldScore, config: AutoConfig) -> list[str]:
    """What keeps a field-model score from passing, in words (empty: nothing)."""
    problems = []
    if s.contrast < config.min_contrast:
        problems.append(f"too little contrast ({s.contrast:.0f} levels)")
    if s.total < config.min_score:
        problems.append(f"field score {s.total:.2f} < {config.min_score}")
    if s.light < config.min_light:
        problems.append(f"bare field not of one colour ({s.light:.2f})")
    if s.outside > config.max_outside:
        problems.append(f"no rails around it ({s.outside:.2f})")
    if s.bar > config.max_bar:
        problems.append(f"no bar ({s.bar:.2f})")
    if s.points < config.min_points:
        problems.append(f"no pattern of points ({s.points:.2f})")
    if s.edges < config.min_edges:
        problems.append(f"a side or bar edge without a step ({s.edges:.2f})")
    return problems


def _distance(a: Corners, b: Corners) -> float:
    """The largest distance between corresponding corners."""
    return float(np.max(np.linalg.norm(np.array(a.as_list()) - np.array(b.as_list()), axis=1)))


def _to_frame(corners: Corners, scale: float) -> Corners:
    """Working-image pixels back to frame pixels (pixel centres at integers)."""
    if scale == 1.0:
        return corners

    def back(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] + 0.5) / scale - 0.5, (p[1] + 0.5) / scale - 0.5)

    return Corners(*(back(p) for p in corners.as_list()))
