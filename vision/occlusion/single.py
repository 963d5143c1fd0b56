"""Occlusion from one frame: is a hand or an arm over the playing field?

The field is rectified, every pixel is compared with the colour its surface
should have (:mod:`.appearance`), detected checkers are taken as explained,
and what is left is refined twice before it is grouped into regions: uneven
light and a lamp's glare are explained by the dichromatic model, where the
glare is continuous with the board around it (:func:`.appearance.lit`), and a
large leftover lends its colour to the pixels next to it that match it better
than the board (:mod:`.grow`: a hand over a surface of nearly its own colour
would otherwise fall apart into strips).  Small regions are the board's own
furniture (bar hinges, a die, the cube, a scratch); a region the size of a
couple of checkers is something that does not belong on a board.  Hands come
from outside, so a region that reaches the rails needs less area, and one
with the colour of skin less still.  Only the field counts: a hand over the
rails, trays or the table is not occlusion, so the analysis stays a margin
inside the field's edges.

Recall matters more than false alarms (a missed hand can make the referee
judge a half-made move; a false alarm delays it, and one that persists on a
still board stalls it), so the thresholds sit closer to the clear frames than
to the hands.  Skin-coloured pixels count as evidence except over a bar that
is skin-coloured itself (brown wood, tan leather).

Speed: the geometry of the analysed field (surfaces, margins, which point
each pixel lies on) is computed once per profile and size and cached; the
regions are measured from their bounding boxes and per-label counts rather
than whole-image masks; and the second, permissive circle search (the most
expensive step) runs only when a frame looks occluded without it, since
its circles can only explain pixels away, never add a hand; likewise the
glare test runs only on a frame that looks occluded and the growth only on
one that looks clear (:func:`analyse`).
"""

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.count import CheckerCount
from vision.checkers.detect import Circle, DetectConfig, expected_radius, find_circles
from vision.checkers.reader import read_checkers
from vision.errors import ConfigError
from vision.occlusion.appearance import (
    BAR,
    SURFACES,
    AppearanceConfig,
    FieldAppearance,
    Floats,
    Image,
    Mask,
    SurfaceGeometry,
    appearance_bgr,
    explained,
    lab8,
    learn_appearance,
    lit,
    surface_geometry,
    weighted,
)
from vision.occlusion.grow import grow_occluders
from vision.profile import BoardProfile
from vision.rectify import FieldMap

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class OcclusionConfig:
    """Every threshold of the single-frame occlusion test.  Areas are in *checker areas*
    (one checker's disc in the rectified field), so they do not depend on resolution."""

    appearance: AppearanceConfig = field(default_factory=AppearanceConfig)
    width: int = 256
    """Width of the rectified field analysed (pixels).  A hand is tens of checker areas
    and a checker is 20 pixels across at this width, so little is lost against 400
    (same verdicts on the real frames and the renders, scores within 10 %) for 2.5 times
    fewer pixels to analyse."""
    checker_width: int = 640
    """Width of the rectified field the checker stage runs at here when no checkers are
    passed in (passed-in checkers carry the width they were measured at)."""
    own_circles: DetectConfig | None = field(default_factory=lambda: DetectConfig(
        accumulator=14.0, rim_score=0.4))
    """A second, more permissive circle search of checker size, whose circles are taken as
    explained too (None: none).  The checker stage refuses doubtful circles, rightly for a
    count, but a checker it missed (brown on a brown point) is not a hand; hands and
    arms seldom show a checker's full round rim."""
    checker_grow: float = 1.15
    """A detected checker explains its disc out to this many radii (rim and shadow)."""
    most_per_colour: int = 15
    """A side has fifteen checkers.  When the checker stage places more of a colour on the
    field and the bar, some of its discs are no checkers: the silhouette search finds
    round patches of a sleeve or a palm lying across a point (renders of seed 8: 2 hands
    of 210 missed that way).  Taken as checkers here, they would explain away the very
    hand that makes them, so the excess, the discs whose colour fits their colour's
    median worst, are not explained (see :func:`accountable`)."""
    border_margin: float = 0.02
    """Margin inside the field's edges left out (rail shadows, corner error), in field units."""
    bar_margin: float = 0.03
    """Band beside each of the bar's edges, on the field side, left out (the bar's raised
    edge and its shadow make a dark strip about 0.02 wide on the real board), in u."""
    bar_inner_margin: float = 0.008
    """The same band on the bar's side of its edges."""
    open_size: float = 0.012
    """Opening kernel, as a fraction of the width: removes edge slivers and JPEG noise."""
    min_area: float = 2.5
    """A region this large (checker areas) anywhere in the field is a hand.  Bar hinges,
    dice and the cube are 0.2-0.9; the smallest real hand measured 11."""
    min_area_rail: float = 1.5
    """Area enough for a region touching the analysed border: hands reach in from outside."""
    min_area_skin: float = 1.0
    """Area enough for a region at least ``skin_share`` of which is skin-coloured."""
    skin_share: float = 0.5
    stack_radius: float = 1.15
    """A region whose widest inscribed disc has at most this many checker radii is shaped
    like checkers (a stack, or two side by side), not like a palm or an arm, which are
    wider than a checker (a palm is about two checkers across)."""
    min_area_stack: float = 4.0
    """Area enough for a checker-shaped region that is not skin: such a region is more
    often a stack the checker stage missed (red checkers on red points, with their shadows,
    in the renders) than a hand.  Was 6 before glare and shading were explained
    (:func:`~vision.occlusion.appearance.lit`); at 4 no more clear renders are flagged
    (775 measured), and the strips a hand of the board's own colour leaves over the
    points are caught."""
    skin_cr: tuple[int, int] = (142, 175)
    skin_cb: tuple[int, int] = (80, 135)
    """YCrCb chroma box of skin, every skin tone (lightness Y left free), after Chai and Ngan
    (Cr 133-173) with the lower Cr bound raised: a cream field sits at Cr 132-134 and its
    shadows would be skin; the real hands measured Cr 150-165."""
    skin_min_y: int = 40
    grow_seed_area: float = 1.0
    """Unexplained regions this large (checker areas) lend their colour to the pixels
    around them (:mod:`.grow`): a hand over a surface of nearly its own colour.  A die,
    a hinge or the cube is smaller and never seeds (fewer false alarms, less work)."""
    grow_tolerance: float = 10.0
    """Weighted-Lab distance from a seed region's median colour within which a pixel may
    join it."""
    grow_margin: float = 2.0
    """A joining pixel is this many times closer to the seed's colour than to every
    surface colour allowed where it lies."""
    grow_reach: float = 3.0
    """How far (checker diameters) beyond a seed's box it may grow."""
    grow_seeds: int = 3
    """At most this many seeds (the largest regions) a frame (each costs a fraction of a
    millisecond)."""
    skin_board_margin: int = 6
    """A bar whose colour lies within this many Cr/Cb levels of the skin box is
    skin-coloured itself (brown wood, tan leather, burgundy)."""
    skin_blind_surfaces: tuple[int, ...] = (BAR,)
    """Surfaces on which skin is no evidence of a hand when they are skin-coloured
    themselves.  The bar: it is the smallest surface, so its colour is the least sure
    (hinges, the cube, checkers on the bar, a glare running along it), and a region on it
    is always narrow, so skin alone lets a sliver of lit wood pass for fingers; a hand
    crossing the bar covers the field beside it too, where its skin still counts.  On the
    field and the points skin keeps counting even on a brown board: without it a hand of
    the board's own colour is left as strips over the contrasting points."""

    def __post_init__(self) -> None:
        if self.width < 64:
            raise ConfigError(f"occlusion: width of at least 64 pixels, not {self.width}")
        if self.checker_width <= 0:
            raise ConfigError("occlusion: checker_width must be positive")
        if self.most_per_colour < 1:
            raise ConfigError("occlusion: most_per_colour must be at least 1")
        margins = (self.border_margin, self.bar_margin, self.bar_inner_margin)
        if not all(0.0 <= m < 0.2 for m in margins):
            raise ConfigError("occlusion: margins between 0 and 0.2")
        if min(self.min_area, self.min_area_rail, self.min_area_skin) <= 0.0:
            raise ConfigError("occlusion: region areas must be positive")
        if not all(0 <= s < SURFACES for s in self.skin_blind_surfaces):
            raise ConfigError(f"occlusion: skin_blind_surfaces are surfaces 0-{SURFACES - 1} "
                              "(field, point class A, point class B, bar)")


@dataclass(frozen=True, slots=True)
class Region:
    """One unexplained region inside the field."""

    box: Box
    """x, y, width, height in image pixels (the bounding box of the region's outline)."""
    area: float
    """In checker areas."""
    at_rail: bool
    """True when it reaches the analysed border of the field."""
    skin: float
    """Share of its pixels with the colour of skin."""
    points: tuple[int, ...]
    """Physical points it covers (at least a tenth of the region each)."""
    on_bar: bool
    score: float
    """Area divided by the area this kind of region needs: 1 or more is a hand."""

    @property
    def occluding(self) -> bool:
        return self.score >= 1.0


@dataclass(frozen=True)
class OcclusionResult:
    """The verdict on one frame."""

    occluded: bool
    score: float
    """The largest region's score: 1 or more means occluded; 0 when nothing is left over."""
    reason: str
    regions: tuple[Region, ...] = ()
    """Every region found, the largest first (occluding or not)."""
    field_mask: Mask | None = None
    """The occluding regions in the rectified field (``config.width`` wide), for display."""

    @property
    def boxes(self) -> tuple[Box, ...]:
        """Bounding boxes (x, y, w, h, image pixels) of the occluding regions."""
        return tuple(r.box for r in self.regions if r.occluding)


@dataclass(frozen=True)
class Layout:
    """What the analysis needs of a rectified field's geometry beyond its surfaces
    (cached per profile, size and config; read-only)."""

    area: Mask
    """The analysed part of the field (:func:`analysed_area`)."""
    outer: Mask
    """The outer rows and columns of the analysed area: a region touching them reaches
    the rail."""
    places: npt.NDArray[np.int8]
    """The physical point (0-23) of every pixel, -1 on the bar."""


@functools.lru_cache(maxsize=16)
def layout(profile: BoardProfile, size: tuple[int, int], config: OcclusionConfig) -> Layout:
    """The analysis geometry of a rectified field of ``size`` (width, height)."""
    width, height = size
    area = analysed_area(profile, size, config)
    # point_at depends on u and on the half (v < 0.5 or not) only
    columns = [(x + 0.5) / width for x in range(width)]
    rows = np.array([(y + 0.5) / height for y in range(height)])
    top = [profile.point_at(u, 0.25) for u in columns]
    bottom = [profile.point_at(u, 0.75) for u in columns]
    top_row = np.array([-1 if p is None else p for p in top], dtype=np.int8)
    bottom_row = np.array([-1 if p is None else p for p in bottom], dtype=np.int8)
    places = np.where((rows >= 0.5)[:, None], bottom_row[None, :], top_row[None, :])
    result = Layout(area, _outer_border(area), np.asarray(places, dtype=np.int8))
    for array in (result.area, result.outer, result.places):
        array.flags.writeable = False
    return result


@dataclass(frozen=True)
class Prepared:
    """One frame made ready for comparison: rectified, in Lab, surfaces and checkers known."""

    field: Image
    lab: Floats
    """Weighted Lab (see :func:`~vision.occlusion.appearance.weighted_lab`)."""
    labels: npt.NDArray[np.uint8]
    area: Mask
    """The analysed part of the field (margins left out)."""
    checkers: Mask
    checker_area: float
    """One checker's disc, in rectified pixels."""
    lab8: Image
    """The field in 8-bit Lab, for the colour medians."""
    geometry: SurfaceGeometry
    layout: Layout
    skin: Mask
    """Skin-coloured pixels (``skin_cr``, ``skin_cb``, ``skin_min_y``)."""


@dataclass(frozen=True)
class Analysis:
    """A prepared frame with its surface colours and what they leave unexplained."""

    frame: Prepared
    appearance: FieldAppearance
    unexplained: Mask
    """Unexplained pixels inside the analysed area, after the opening."""
    raw: Mask
    """The same before the opening."""


def detect_occlusion(frame: Image, field_map: FieldMap, profile: BoardProfile,
                     checkers: CheckerCount | None = None,
                     config: OcclusionConfig | None = None, *,
                     appearance: FieldAppearance | None = None) -> OcclusionResult:
    """Is a hand or an arm over the field in this frame (BGR, camera pixels)?

    ``checkers`` are the checker stage's result for the frame (its circles measured at
    ``config.checker_width``); without it the checker stage runs here.  ``appearance``
    are surface colours learned from a clear frame; without it they are learned from
    this one.

    The permissive circle search (``config.own_circles``) runs only when the frame is
    occluded without it: then the frame is judged again with its circles explained (the
    surface colours stay as learned: they are medians, which a few missed checkers
    hardly move).
    """
    config = config or OcclusionConfig()
    prepared = prepare(frame, field_map, profile, checkers, config, own_circles=False)

    def occludes(candidates: Mask, colours: FieldAppearance) -> bool:
        return occluded(prepared, candidates, config, appearance=colours)

    analysis = analyse(prepared, appearance, config, occludes)
    result = judge(prepared, analysis.unexplained, field_map, profile, config,
                   appearance=analysis.appearance)
    if not result.occluded or config.own_circles is None:
        return result
    discs = own_discs(prepared, result.field_mask, profile, config)
    unexplained = open_mask(analysis.raw & ~discs, prepared.lab.shape[1], config)
    return judge(replace(prepared, checkers=prepared.checkers | discs), unexplained, field_map,
                 profile, config, appearance=analysis.appearance)


def prepare(frame: Image, field_map: FieldMap, profile: BoardProfile,
            checkers: CheckerCount | None, config: OcclusionConfig, *,
            own_circles: bool = True) -> Prepared:
    """Rectify one frame and mask its checkers (running the checker stage if needed);
    ``own_circles``: add the circles of the permissive search (``config.own_circles``)."""
    if checkers is None:
        checkers = read_checkers(field_map.rectify(frame, profile, config.checker_width), profile)
    rect = field_map.rectify(frame, profile, config.width)
    height, width = rect.shape[:2]
    measured = checkers.size[0] or config.checker_width
    scale = width / measured
    circles = [Circle(p.circle.x * scale, p.circle.y * scale, p.circle.radius * scale)
               for p in checkers.placed]
    lab = lab8(rect)
    circles = accountable(circles, [p.light for p in checkers.placed], lab,
                          config.most_per_colour)
    if own_circles and config.own_circles is not None:
        circles += find_circles(rect, profile, config.own_circles)
    radius = expected_radius(profile, width)
    geometry = surface_geometry(profile, (width, height), config.appearance)
    where = layout(profile, (width, height), config)
    return Prepared(rect, weighted(lab, config.appearance), geometry.labels, where.area,
                    _discs(circles, (height, width), config.checker_grow),
                    float(np.pi * radius * radius), lab, geometry, where, _skin(rect, config))


def accountable(circles: list[Circle], light: list[bool], lab: Image,
                most: int) -> list[Circle]:
    """The circles less, for a colour with more than ``most``, the excess that fits that
    colour worst: the distance of each disc's median Lab (its inner half, clear of the
    rim and the shadow) from the median of its colour's discs.  A board with too many
    checkers of a colour holds something that is not a checker, and the disc least like
    its fellows is the likeliest."""
    dropped: set[int] = set()
    for colour in (True, False):
        members = [i for i, is_light in enumerate(light) if is_light is colour]
        excess = len(members) - most
        if excess <= 0:
            continue
        medians = np.array([_disc_median(lab, circles[i]) for i in members])
        distance = np.linalg.norm(medians - np.median(medians, axis=0), axis=1)
        dropped.update(members[j] for j in np.argsort(-distance, kind="stable")[:excess])
    return [c for i, c in enumerate(circles) if i not in dropped]


def _disc_median(lab: Image, circle: Circle) -> npt.NDArray[np.float64]:
    height, width = lab.shape[:2]
    reach = max(1.0, 0.5 * circle.radius)
    x0, x1 = max(0, math.floor(circle.x - reach)), min(width, math.ceil(circle.x + reach) + 1)
    y0, y1 = max(0, math.floor(circle.y - reach)), min(height, math.ceil(circle.y + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return np.zeros(3)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    inside = (xs - circle.x) ** 2 + (ys - circle.y) ** 2 <= reach * reach
    if not inside.any():
        return np.zeros(3)
    return np.asarray(np.median(lab[y0:y1, x0:x1][inside].reshape(-1, lab.shape[2]), axis=0),
                      dtype=np.float64)


def own_discs(prepared: Prepared, regions: Mask | None, profile: BoardProfile,
              config: OcclusionConfig) -> Mask:
    """The discs (grown by ``checker_grow``) of the permissive circle search around the
    occluding ``regions`` (see :func:`_circles_around`); empty without the search."""
    if config.own_circles is None:
        return np.zeros(prepared.checkers.shape, dtype=np.bool_)
    return _discs(_circles_around(prepared, regions, profile, config),
                  prepared.checkers.shape, config.checker_grow)


def _circles_around(prepared: Prepared, regions: Mask | None, profile: BoardProfile,
                    config: OcclusionConfig) -> list[Circle]:
    """The permissive circle search, only where it can change the verdict: around the
    occluding regions.  The field outside their box (grown by a checker's diameter, so a
    checker at a region's edge is whole) is painted one flat colour, which no circle
    search finds circles in: the search keeps its whole-field geometry and costs about
    half as much."""
    assert config.own_circles is not None
    field = prepared.field
    if regions is None or not regions.any():
        return find_circles(field, profile, config.own_circles)
    height, width = field.shape[:2]
    rows, columns = np.flatnonzero(regions.any(axis=1)), np.flatnonzero(regions.any(axis=0))
    pad = math.ceil(2.0 * math.sqrt(prepared.checker_area / math.pi))
    x0, x1 = max(0, int(columns[0]) - pad), min(width, int(columns[-1]) + pad + 1)
    y0, y1 = max(0, int(rows[0]) - pad), min(height, int(rows[-1]) + pad + 1)
    crop = np.ascontiguousarray(field[y0:y1, x0:x1])
    fill = [float(v) for v in cv2.mean(crop)[:3]]
    canvas = cv2.copyMakeBorder(crop, y0, height - y1, x0, width - x1, cv2.BORDER_CONSTANT,
                                value=fill)
    return find_circles(np.asarray(canvas, dtype=np.uint8), profile, config.own_circles)


def analyse(prepared: Prepared, appearance: FieldAppearance | None,
            config: OcclusionConfig,
            occludes: Callable[[Mask, FieldAppearance], bool] | None = None) -> Analysis:
    """The unexplained pixels of a prepared frame (colours learned from it when not given).

    Two steps refine what the Lab test leaves over: :func:`lit` takes away uneven light
    and glare, and :func:`grow_occluders` follows an occluder into the board it matches.
    Both cost a few milliseconds, and each can move a verdict one way only (the first
    only removes pixels, the second only adds them), so with ``occludes`` (the caller's
    verdict on a candidate mask) they run only when they can change it: the glare test
    on a frame that looks occluded, the growth on one that looks clear.  A frame that
    looks clear even grown is clear without the glare test (which could only take pixels
    from its seeds).  Without ``occludes`` both always run.
    """
    if appearance is None:
        appearance = learn_appearance(prepared.lab8, prepared.geometry, prepared.checkers,
                                      config.appearance)
    known = explained(prepared.lab, prepared.geometry, appearance, config.appearance)
    surface = prepared.area & ~prepared.checkers
    width = prepared.lab.shape[1]
    first = ~known & surface
    opened = open_mask(first, width, config)

    def without_glare(raw: Mask, unexplained: Mask) -> tuple[Mask, Mask]:
        # The opening only removes pixels, so only those it keeps can matter: the lit
        # test runs on them alone.
        glare = lit(prepared.field, unexplained, known & ~prepared.checkers,
                    prepared.geometry, appearance, config.appearance)
        if not glare.any():
            return raw, unexplained
        raw = raw & ~glare
        return raw, open_mask(raw, width, config)

    def grown(raw: Mask, unexplained: Mask) -> tuple[Mask, Mask]:
        more = grow_occluders(prepared.lab, prepared.geometry.allowed, surface, unexplained,
                              appearance, prepared.checker_area,
                              seed_area=config.grow_seed_area, tolerance=config.grow_tolerance,
                              margin=config.grow_margin, reach=config.grow_reach,
                              seeds=config.grow_seeds)
        if not more.any():
            return raw, unexplained
        return raw | more, open_mask(unexplained | more, width, config)

    if occludes is None:
        raw, unexplained = grown(*without_glare(first, opened))
    elif occludes(opened, appearance):
        raw, unexplained = without_glare(first, opened)
        if not occludes(unexplained, appearance):
            raw, unexplained = grown(raw, unexplained)
    else:
        raw, unexplained = grown(first, opened)
        if unexplained is not opened and occludes(unexplained, appearance):
            raw, unexplained = grown(*without_glare(first, opened))
    return Analysis(prepared, appearance, unexplained, raw)


def open_mask(mask: Mask, width: int, config: OcclusionConfig) -> Mask:
    """Morphological opening that removes slivers thinner than ``config.open_size``."""
    k = max(3, 2 * round(config.open_size * width / 2.0) + 1)
    opened = cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return np.asarray(opened > 0)


def analysed_area(profile: BoardProfile, size: tuple[int, int],
                  config: OcclusionConfig) -> Mask:
    """The field less its border margin and the bands beside the bar's edges."""
    width, height = size
    area = np.zeros((height, width), dtype=np.bool_)
    mx, my = round(config.border_margin * width), round(config.border_margin * height)
    area[my:height - my, mx:width - mx] = True
    left_end, right_start = profile.bar_span
    for lo, hi in ((left_end - config.bar_margin, left_end + config.bar_inner_margin),
                   (right_start - config.bar_inner_margin, right_start + config.bar_margin)):
        area[:, max(round(lo * width), 0):max(round(hi * width), 0)] = False
    return area


def _discs(circles: list[Circle], shape: tuple[int, ...], grow: float) -> Mask:
    mask = np.zeros(shape[:2], dtype=np.uint8)
    for c in circles:
        cv2.circle(mask, (round(c.x), round(c.y)), max(1, round(c.radius * grow)), 1, -1)
    return mask.view(np.bool_)


def judge(prepared: Prepared, candidates: Mask, field_map: FieldMap, profile: BoardProfile,
          config: OcclusionConfig, *,
          appearance: FieldAppearance | None = None) -> OcclusionResult:
    """Group candidate pixels into regions and decide.

    ``appearance``: the surface colours, so that skin over a skin-coloured surface does
    not count as skin (:func:`skin_surfaces`); without it every skin pixel counts.

    Every measure of a region (area, box, skin, rail contact, widest inscribed disc,
    points covered) is a per-label reduction over the candidate pixels, so the cost
    follows the number of candidate pixels, not regions times the field.
    """
    measured = _measure(prepared, candidates, config, appearance)
    if measured is None:
        return OcclusionResult(False, 0.0, "nothing unexplained over the field")
    count, components, at, label, _, area, skin, at_rail, score = measured
    height, width = components.shape
    ys, xs = np.divmod(at, width)
    low_x, low_y = np.full(count, width), np.full(count, height)
    high_x, high_y = np.zeros(count, np.intp), np.zeros(count, np.intp)
    np.minimum.at(low_x, label, xs)
    np.minimum.at(low_y, label, ys)
    np.maximum.at(high_x, label, xs)
    np.maximum.at(high_y, label, ys)
    places = np.bincount(label * 25 + prepared.layout.places.ravel()[at] + 1,
                         minlength=count * 25).reshape(count, 25)
    regions: list[Region] = []
    occluding = score >= 1.0
    for index in range(1, count):
        box = (int(low_x[index]), int(low_y[index]), int(high_x[index] - low_x[index] + 1),
               int(high_y[index] - low_y[index] + 1))
        regions.append(_region(box, (height, width), places[index], area=float(area[index]),
                               at_rail=bool(at_rail[index]), skin=float(skin[index]),
                               score=float(score[index]), field_map=field_map))
    # the occluding regions' pixels, set at the candidate pixels alone (the background,
    # label 0, has no size and so never occludes)
    keep = np.zeros(components.shape, dtype=np.bool_)
    keep.ravel()[at] = occluding[label]
    regions.sort(key=lambda r: -r.area)
    best = max(regions, key=lambda r: r.score)
    hands = [r for r in regions if r.occluding]
    if not hands:
        return OcclusionResult(False, best.score, f"largest unexplained region {best.area:.1f} "
                               "checker areas: too small for a hand", tuple(regions), keep)
    return OcclusionResult(True, best.score, "; ".join(_describe(r) for r in hands),
                           tuple(regions), keep)


def occluded(prepared: Prepared, candidates: Mask, config: OcclusionConfig, *,
             appearance: FieldAppearance | None = None) -> bool:
    """:func:`judge`'s verdict alone (``judge(...).occluded``), without describing the
    regions: what :func:`analyse` asks of its candidate masks."""
    measured = _measure(prepared, candidates, config, appearance)
    return measured is not None and bool((measured[-1][1:] >= 1.0).any())


_Doubles = npt.NDArray[np.float64]
_Measures = tuple[int, npt.NDArray[np.int32], npt.NDArray[np.intp], npt.NDArray[np.intp],
                  _Doubles, _Doubles, _Doubles, npt.NDArray[np.bool_], _Doubles]


def _measure(prepared: Prepared, candidates: Mask, config: OcclusionConfig,
             appearance: FieldAppearance | None) -> _Measures | None:
    """The regions of ``candidates`` (None when there is none) and, per label: the
    label count and image, the candidate pixels' flat indices and labels, and each
    region's size (pixels), area (checker areas), skin share, rail contact and score
    (its area over the area its kind needs)."""
    if candidates.dtype == np.bool_:
        binary = candidates.view(np.uint8)
        # The set pixels of a boolean mask, found several times faster than those of
        # the labels (the same indices: a pixel is labelled when it is a candidate).
        at = np.flatnonzero(candidates)
    else:
        binary = candidates.astype(np.uint8)
        at = np.flatnonzero(binary)
    count, labelled = cv2.connectedComponents(binary, connectivity=8, ltype=cv2.CV_32S)
    if count <= 1:
        return None
    components = np.asarray(labelled, dtype=np.int32)
    label = components.ravel()[at].astype(np.intp)
    sizes = np.bincount(label, minlength=count).astype(np.float64)
    skin_at = prepared.skin.ravel()[at]
    if appearance is not None:
        skin_at = skin_at & ~_skin_blind(appearance, config)[prepared.labels.ravel()[at]]
    skin = np.bincount(label, weights=skin_at, minlength=count) / np.maximum(sizes, 1.0)
    at_rail = np.bincount(label, weights=prepared.layout.outer.ravel()[at], minlength=count) > 0
    # A region is checker-shaped when its widest inscribed disc is at most stack_radius
    # checker radii: when none of its pixels lies further than that from its outside.
    radius = float(np.sqrt(prepared.checker_area / np.pi))
    inside = cv2.distanceTransform(binary, cv2.DIST_L2, 5).ravel()[at].astype(np.float64)
    wide = np.bincount(label, weights=inside > config.stack_radius * radius,
                       minlength=count) > 0
    area = sizes / prepared.checker_area
    need = np.where(at_rail, min(config.min_area, config.min_area_rail), config.min_area)
    need = np.where(wide, need, config.min_area_stack)
    need = np.where(skin >= config.skin_share, np.minimum(need, config.min_area_skin), need)
    return (count, components, at, label, sizes, area, skin, at_rail, area / need)


@functools.lru_cache(maxsize=64)
def _skin_blind(appearance: FieldAppearance, config: OcclusionConfig) -> npt.NDArray[np.bool_]:
    """:func:`skin_surfaces`, kept per appearance (a frame judges its candidates up to
    four times with the same colours; a stream keeps them between frames)."""
    blind = skin_surfaces(appearance, config)
    blind.flags.writeable = False
    return blind


def skin_surfaces(appearance: FieldAppearance, config: OcclusionConfig) -> npt.NDArray[np.bool_]:
    """Which of the four surfaces do not let skin count: those of
    ``skin_blind_surfaces`` that are skin-coloured (within ``skin_board_margin`` of the
    skin box, lightness left free)."""
    bgr = np.clip(np.rint(np.array(appearance.bgr or appearance_bgr(appearance),
                                   dtype=np.float64)), 0, 255).astype(np.uint8)
    ycc = cv2.cvtColor(bgr.reshape(1, -1, 3), cv2.COLOR_BGR2YCrCb).reshape(-1, 3).astype(int)
    m = config.skin_board_margin
    cr, cb = ycc[:, 1], ycc[:, 2]
    blind = np.zeros(len(bgr), dtype=np.bool_)
    blind[list(config.skin_blind_surfaces)] = True
    return np.asarray(blind & (cr >= config.skin_cr[0] - m) & (cr <= config.skin_cr[1] + m)
                      & (cb >= config.skin_cb[0] - m) & (cb <= config.skin_cb[1] + m))


def _skin(field: Image, config: OcclusionConfig) -> Mask:
    ycc = cv2.cvtColor(field, cv2.COLOR_BGR2YCrCb)
    low = (config.skin_min_y, config.skin_cr[0], config.skin_cb[0])
    high = (255, config.skin_cr[1], config.skin_cb[1])
    return np.asarray(cv2.inRange(ycc, low, high)).view(np.bool_)


def _outer_border(area: Mask) -> Mask:
    """Pixels on the outer rows and columns of the analysed area (not the bar's edges)."""
    rows = np.flatnonzero(area.any(axis=1))
    cols = np.flatnonzero(area.any(axis=0))
    outer = np.zeros_like(area)
    if len(rows) == 0:
        return outer
    outer[rows[0], :] = outer[rows[-1], :] = True
    outer[:, cols[0]] = outer[:, cols[-1]] = True
    return outer


def _region(box: tuple[int, int, int, int], shape: tuple[int, ...],
            places: npt.NDArray[np.intp], *, area: float, at_rail: bool, skin: float,
            score: float, field_map: FieldMap) -> Region:
    """A region from its bounding box (rectified pixels) and how many of its pixels lie
    on the bar (``places[0]``) and on each point (``places[1 + point]``)."""
    height, width = shape[:2]
    x, y, w, h = box
    corners = [field_map.image_point(px / width, py / height)
               for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    image_box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    total = int(places.sum())
    points = tuple(int(p) for p in np.flatnonzero(places[1:] >= 0.1 * total))
    on_bar = bool(places[0] >= 0.1 * total)
    return Region(image_box, area, at_rail, skin, points, on_bar, score)


def _describe(region: Region) -> str:
    where = []
    if region.points:
        where.append("points " + ",".join(str(p) for p in region.points))
    if region.on_bar:
        where.append("the bar")
    text = f"{region.area:.1f} checker areas unexplained over {' and '.join(where) or 'the field'}"
    if region.at_rail:
        text += ", reaching the rail"
    if region.skin >= 0.5:
        text += f", {region.skin:.0%} skin-coloured"
    return text
