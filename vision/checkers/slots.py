"""A second look at the places a missed checker must be: the slots along each point.

The general search holds one gradient threshold over the whole field, and
some checkers show less than that all round: a black checker on a black
point, a white one on a white point under a lamp, a checker pressed against
the rail whose rim the field's border cuts.  But a checker on a point is
never just anywhere: its stack starts at the rail, on the point's middle
line, and every further checker lies one spacing on.  So those few places
are looked at again with a lower threshold (as :mod:`.bar` does on the
bar): the first slot of every point, and the slots of a stack up to one past
its farthest checker, where no circle was found.  At a place where a whole
rim is expected and nothing else stands, even a faint one means a checker;
an empty point's base shows a rim only where the triangle's sides and the
border run along it, far less than a checker's.
"""

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.checkers.detect import Circle, DetectConfig, Floats, refine
from vision.checkers.rim import EdgeMap, rim_evidence, rim_scores
from vision.checkers.surface import surfaces
from vision.profile import BoardProfile


@dataclass(frozen=True, slots=True)
class SlotConfig:
    """Thresholds of the slot search (distances in checker radii)."""

    enabled: bool = True
    score: float = 0.85
    """Rim score (with the fainter edges counted) a circle on a slot needs."""
    gradient: float = 1.2
    """Least gradient that counts here (grey levels per pixel; 2.0 on the whole field)."""
    min_seen: int = 44
    """Rim directions (of 64) inside the image a circle on a slot needs: one against the
    rail may lose a little to the border, not more."""
    gap: float = 0.08
    """Where the first slot's centre is expected: this far from the rail beyond one
    radius."""
    spacing: float = 2.06
    """Distance of slots along a point, when the frame's own stacks cannot say."""
    clear: float = 1.5
    """Slots this close to a circle already found are not looked at."""
    beyond: int = 1
    """Slots looked at past a stack's farthest checker."""
    most: int = 6
    """Slots looked at along a point at most."""
    promising: float = 0.45
    """Places scoring this before any refinement are refined (the rest are empty)."""
    refine_steps: tuple[float, ...] = (0.16, 0.08)
    """Steps of the 3 x 3 searches about a slot, in radii: a slot's checker may lie a
    little off its place."""
    rounds: int = 3
    """Rounds of the search: a checker found on a slot opens the slot beyond it."""
    glare_score: float = 0.7
    """Rim score enough (instead of ``score``) on a slot whose disc is white to the
    sensor's ceiling (``glare_level``, ``glare_share``): a white checker on a white point
    under a lamp, whose face and point both clip, shows its rim only where its outline's
    shadow falls.  On the tune renders (pipeline seeds 21-24, 27-28, 31-34, 1,884 clear
    frames, the slots left unfound at 163296a) such slots held a checker at scores
    0.77-0.84 (six, three of them boards read wrong) and stood empty at 0.61 at most (a
    clipped white point's base: 231 slots at a share of 0.98 or more)."""
    glare_level: int = 250
    """Grey level (of the blurred field) from which a pixel counts as clipped."""
    glare_share: float = 0.98
    """Share of the slot's inner disc (``glare_inner`` radii) that must be clipped for
    ``glare_score`` to apply (the checkers above: 0.995-1.0; an unclipped white checker's
    face stays below the ceiling in places)."""
    glare_inner: float = 0.8
    """The disc (radii) read for the clipped share: inside the rim and its blur."""
    rail_margin: float = 0.55
    """A centre on a slot lies at least this far from the field's border."""
    outer_shift: float = 0.45
    """On the outermost point at each end of a row, every slot is also looked at this far
    (radii) further out sideways: the camera sees a stack there from the side, and
    parallax moves a checker's face outwards by up to 10 pixels at the field's corners
    (a dark checker on a dark point in a corner stood 10 pixels out and scored 0.38 at its
    slot, under ``promising``, 0.91 where it lay; tune seed 22, scene 354).  0 looks at
    the slots alone."""
    silhouette: bool = True
    """Also look for checkers with no rim at all, by their silhouette (see
    :func:`_silhouettes`): a white checker on a white point under a lamp's glare, where
    the grey is at the sensor's ceiling on both."""
    silhouette_inner: float = 0.92
    """The disc (radii) whose field pixels must show the checker: inside its rim's blur."""
    silhouette_ring: tuple[float, float] = (1.25, 1.7)
    """The ring (radii) whose field pixels show the field beside the slot: beyond the
    rim, its blur and a soft shadow."""
    silhouette_contrast: float = 45.0
    """Least difference (grey levels) of the disc's field pixels from the field beside
    it (their medians).  A white checker on a blue field under glare differs by 100 and
    more; a checker's shadow on the field by 10-30."""
    silhouette_share: float = 0.85
    """Share of the disc's field pixels that must differ from the field beside it by half
    the contrast: the whole disc is covered (a die is a third of a checker's area)."""
    silhouette_same: float = 25.0
    """Most difference (grey levels) of the disc's field pixels from its pixels on the
    point: one checker covers both (an empty slot shows the field and the point)."""
    silhouette_chroma: float = 15.0
    """Or: least difference in colour (Lab a, b) of the disc's field pixels from the
    field beside it, with the grey alike.  A white checker on a white point under glare
    that lifts a blue or wood field to the checker's grey still differs in colour (by
    17-25 on the tune renders, tune seed 41, scenes 66 and 143); a shadow darkens the
    field but leaves its colour (0 switches the colour test off)."""
    silhouette_chroma_same: float = 8.0
    """Most difference in colour (Lab a, b) of the disc's field pixels from its pixels on
    the point, for the colour test."""
    silhouette_pixels: int = 6
    """Least field pixels in the disc on each side of the point (and in the ring) to judge
    by: where the point is narrower than a checker.  The first slot shows none, the second
    6-15 a side (enough: a white checker there differs from a blue field by 70 grey
    levels, tune seed 41, scene 70), the third 100."""
    silhouette_edge: float = 0.12
    """Pixels this close (radii) to a border between surfaces are left out."""
    hidden: bool = True
    """Also look for checkers that hide their point: a white or cream checker on a cream
    field under a lamp shows neither a rim nor a silhouette (the field beside it looks
    like it), but where it lies its red or black point does not show (see
    :func:`_hidden_points`).  Off, a point's colour is not looked at."""
    hidden_distance: float = 85.0
    """Least distance (Lab, lightness halved; the median over the slot's disc) of a slot's
    point pixels from the point's own colour (the median of its class's free pixels over
    the frame) for the slot to hold a checker.  On the tune renders the white checkers
    missed on cream fields stood 94-116 off their red or black points (tune seeds 23 and
    26); empty point bases, glare and dice on them included, at most 72 (a black point's
    base washed out by glare, a die on a white point)."""
    hidden_share: float = 0.9
    """Share of the disc's point pixels that must stand at least half that distance off the
    point's colour: the whole disc is covered (a die covers a third of it)."""
    hidden_inner: float = 0.75
    """The disc (radii) read on each slot: well inside the checker, whatever the slot's
    spacing (the slots lie ``spacing`` radii apart, the frame's own spacing may differ by
    0.1 radii a slot)."""
    hidden_pixels: int = 40
    """Least free point pixels a slot's disc (every other pixel each way) needs to judge."""
    hidden_field_distance: float = 40.0
    """Most distance (Lab as ``hidden_distance``, the median over the slot's disc) of what
    hides the point from the field's own colour (the median of the field's free pixels):
    the checkers this test is for are those the field beside them hides (a white checker
    on a cream field).  Anything else hiding a point in a run from the rail, such as a
    sleeve or an arm (tests/test_occlusion.py: a navy arm across the points), is left to
    the other tests and to the occlusion stage, which must see it as unexplained."""


def find_slot_circles(edges: EdgeMap, circles: list[Circle], profile: BoardProfile,
                      radius: float, detect: DetectConfig,
                      config: SlotConfig | None = None,
                      field_image: npt.NDArray[np.uint8] | None = None) -> list[Circle]:
    """Circles on the points' slots that the general search missed; ``field_image`` (the
    rectified field, BGR) lets the silhouette test compare colours too."""
    config = config or SlotConfig()
    if not config.enabled:
        return []
    found: list[Circle] = []
    faint: EdgeMap | None = None
    for top in (True, False):
        for _ in range(config.rounds):
            places = _places(circles + found, profile, edges.width, edges.height, radius,
                             top, config)
            if len(places) == 0:
                break
            faint = faint or edges.with_gradient(config.gradient)
            new = _accepted(faint, places, radius, detect, config)
            found += [Circle(x, y, radius) for x, y in new]
            if not new:
                break
    # The pixels under the checkers found, which the silhouette and hidden-point tests
    # leave out (each marks the checkers it finds in it).
    taken = _taken(circles + found, edges.height, edges.width)
    if config.silhouette:
        found += _silhouettes(edges.blurred, circles + found, profile, radius, config,
                              field_image, taken)
    if config.hidden and field_image is not None:
        found += _hidden_points(field_image, circles + found, profile, radius, config, taken)
    return found


def _taken(circles: list[Circle], height: int, width: int) -> npt.NDArray[np.uint8]:
    """1 under the circles (a little beyond their radius), 0 elsewhere."""
    taken = np.zeros((height, width), dtype=np.uint8)
    for c in circles:
        cv2.circle(taken, (round(c.x), round(c.y)), round(c.radius * 1.05), 1, -1)
    return taken


_LAB_WEIGHTS = np.array([0.5, 1.0, 1.0])
"""Lab distances count lightness half (as the tray's): shading moves lightness most."""


def _lab(bgr: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """Rows of BGR pixels as weighted Lab (see ``_LAB_WEIGHTS``)."""
    lab = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return np.asarray(lab.astype(np.float64) * _LAB_WEIGHTS, dtype=np.float64)


_SCREEN_STEP = 3
"""The screen of :func:`_hidden_points` reads every third of a disc's pixels."""


def _hidden_points(image: npt.NDArray[np.uint8], circles: list[Circle],
                   profile: BoardProfile, radius: float, config: SlotConfig,
                   taken: npt.NDArray[np.uint8] | None = None) -> list[Circle]:
    """Checkers found by the point they hide.

    A point's colour is the same all along it, and every point of a class
    (row and colour) shares it, so the median colour of a class's pixels
    not under a checker found is its colour, whatever few checkers were
    missed.  Walking each point from the rail, past its checkers found, the
    first slot with none is looked at: a checker there hides the point, and
    the disc's point pixels stand far off the point's colour; a checker
    found so opens the slot beyond.  (A white checker on a cream field under
    a lamp: no rim, and the field beside it looks like it, but its red point
    does not.)  The first free slot of every point is screened at once by
    the share of far pixels; the few that pass are judged by the median.
    ``taken`` marks the pixels of the checkers found (built from ``circles``
    when not given)."""
    height, width = image.shape[:2]
    pixels = _point_pixels(profile, width, height, round(radius, 1), config)
    if taken is None:
        taken = _taken(circles, height, width)
    flat = taken.ravel()
    bgr = image.reshape(-1, 3)
    free = pixels.kind_pixels[flat[pixels.kind_pixels] == 0]
    labs = cv2.cvtColor(bgr[free].reshape(-1, 1, 3), cv2.COLOR_BGR2LAB).reshape(-1, 3)
    kinds = pixels.kind_of[free].astype(np.intp)
    # Per class and channel, the (lower) median of the bytes, by one histogram of all.
    keys = (kinds * 3)[:, None] * 256 + np.arange(3) * 256 + labs
    histogram = np.bincount(keys.ravel(), minlength=15 * 256).reshape(5, 3, 256)
    count = np.bincount(kinds, minlength=5)
    middle = (np.cumsum(histogram, axis=2) >= ((count + 1) // 2)[:, None, None]).argmax(axis=2)
    colours = np.where((count >= config.hidden_pixels)[:, None],
                       middle * _LAB_WEIGHTS, np.nan)
    known = np.array([(c.x, c.y) for c in circles]) if circles else np.zeros((0, 2))
    d2 = ((pixels.centres[:, None, :] - known[None, :, :]) ** 2).sum(axis=2)
    occupied = (d2 < (config.clear * radius) ** 2).any(axis=1).reshape(24, -1)
    most = occupied.shape[1]
    first = np.where(occupied.all(axis=1), most, occupied.argmin(axis=1))
    # Screen: every point's first free slot at once, by the mean distance of its free
    # point pixels from its class's colour.
    candidates = [p for p in range(24) if first[p] < most
                  and not np.isnan(colours[pixels.kind[p]][0])]
    if not candidates:
        return []
    index = [pixels.slots[p][first[p]][::_SCREEN_STEP] for p in candidates]
    slot_of = np.repeat(np.arange(len(candidates)), [len(i) for i in index])
    index_all = np.concatenate(index)
    use = flat[index_all] == 0
    index_all, slot_of = index_all[use], slot_of[use]
    refs = colours[[pixels.kind[p] for p in candidates]]
    distance = np.linalg.norm(_lab(bgr[index_all]) - refs[slot_of], axis=1)
    count = np.bincount(slot_of, minlength=len(candidates))
    far = np.bincount(slot_of, distance >= config.hidden_distance / 2.0,
                      minlength=len(candidates))
    passed = (count >= config.hidden_pixels / _SCREEN_STEP) \
        & (far >= config.hidden_share * count)
    found: list[Circle] = []
    field = colours[0]
    for p in (candidates[i] for i in np.flatnonzero(passed)):
        colour = colours[pixels.kind[p]]
        for k in range(int(first[p]), most):
            if occupied[p, k]:
                continue
            mine = pixels.slots[p][k]
            mine = mine[flat[mine] == 0]
            if len(mine) < config.hidden_pixels:
                break
            lab = _lab(bgr[mine])
            gap = np.linalg.norm(lab - colour, axis=1)
            if float(np.median(gap)) < config.hidden_distance or float(
                    (gap >= config.hidden_distance / 2.0).mean()) < config.hidden_share:
                break
            if np.isnan(field[0]) or float(np.median(np.linalg.norm(lab - field, axis=1))) \
                    > config.hidden_field_distance:
                break
            x, y = pixels.centres[p * most + k]
            found.append(Circle(float(x), float(y), radius))
    return found


@dataclass(frozen=True, slots=True)
class _PointPixels:
    """The pixels :func:`_hidden_points` reads (flat indices)."""

    kind_pixels: npt.NDArray[np.intp]
    """The field's and the points' pixels (every sixth each way) ..."""
    kind_of: npt.NDArray[np.int8]
    """... and the class of each (:func:`.surface.surfaces`' label: 0 the field, 1-4 the
    points), flat-indexed."""
    kind: tuple[int, ...]
    """Each physical point's class."""
    slots: tuple[tuple[npt.NDArray[np.intp], ...], ...]
    """Per physical point, from the rail: each slot's disc's point pixels (every other
    pixel each way)."""
    centres: npt.NDArray[np.float64]
    """Every slot's centre, point by point (``slots``' order)."""


@lru_cache(maxsize=8)
def _point_pixels(profile: BoardProfile, width: int, height: int, radius: float,
                  config: SlotConfig) -> _PointPixels:
    """The pixels of every point's slots and of each class of point (see
    :func:`_hidden_points`)."""
    labels = surfaces(profile, width, height, round(config.silhouette_edge * radius), 0.96)
    every = np.zeros((height, width), dtype=bool)
    every[::6, ::6] = True
    kind_pixels = np.flatnonzero((labels >= 0) & every).astype(np.intp)
    kind_of = np.zeros(height * width, dtype=np.int8)
    kind_of[kind_pixels] = labels.ravel()[kind_pixels]
    disc_x, disc_y = _disc(radius, 0.0, config.hidden_inner, 2)
    step = config.spacing * radius
    kind: list[int] = []
    rows = []
    centres = []
    for index in range(24):
        top = profile.is_top(index)
        own = 1 + index % 2 + (2 if top else 0)
        kind.append(own)
        x = profile.point_u(index) * width
        row = []
        for k in range(config.most):
            along = radius * (1.0 + config.gap) + k * step
            y = along if top else height - along
            xs = round(x) + disc_x
            ys = round(y) + disc_y
            inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            xs, ys = xs[inside], ys[inside]
            on = labels[ys, xs] == own
            row.append((ys[on] * width + xs[on]).astype(np.intp))
            centres.append((x, y))
        rows.append(tuple(row))
    return _PointPixels(kind_pixels, kind_of, tuple(kind), tuple(rows),
                        np.array(centres, dtype=np.float64))


def _silhouettes(gray: npt.NDArray[np.uint8], circles: list[Circle], profile: BoardProfile,
                 radius: float, config: SlotConfig,
                 colour: npt.NDArray[np.uint8] | None = None,
                 taken: npt.NDArray[np.uint8] | None = None) -> list[Circle]:
    """Checkers on the slots of a point that show no rim but cover the field.

    Past the first slot a point is narrower than a checker, so a checker on
    it covers some of the field beside the point: those pixels then show the
    checker, and differ from the field a little further out, while they look
    like the disc's pixels on the point (one checker covers both).  An empty
    slot shows the field there, as beside it.  Slots are taken from the rail
    outwards; past the second, one needs a checker on the slot before it (a
    stack runs without a gap).  Grey is compared, and colour (with
    ``colour``, the field in BGR): a checker with no rim on its point (white
    on white, black on black) differs from the field in grey, or in colour
    where glare lifted the field to its grey.

    The pixels of every slot are fixed by the profile and the image's size
    (:func:`_slot_pixels`); the first two slots of every point are screened
    at once by their mean grey, the few that pass are judged in full.
    ``taken`` marks the pixels of the checkers found (built from ``circles``
    when not given); those found here are marked in it too."""
    height, width = gray.shape
    places = _slot_pixels(profile, width, height, round(radius, 1), config)
    if taken is None:
        taken = _taken(circles, height, width)
    grey = _Pixels(gray.ravel(), None if colour is None or config.silhouette_chroma <= 0.0
                   else colour.reshape(-1, 3))
    flat = taken.ravel()  # a view: checkers found below mark it too
    screened = _screen(grey, flat, places, config)
    centres = places.centres
    known = np.array([(c.x, c.y) for c in circles]) if circles else np.zeros((0, 2))
    d2 = ((centres[:, None, :] - known[None, :, :]) ** 2).sum(axis=2)
    near = (d2 < (config.clear * radius) ** 2).any(axis=1).reshape(len(places.slots), -1)
    found: list[Circle] = []
    for index, row in enumerate(places.slots):
        for k, place in enumerate(row, start=1):
            x, y = place.centre
            if near[index, k - 1]:
                continue
            if (k > len(screened[index]) or screened[index][k - 1]) \
                    and _covered(grey, flat, place, config):
                found.append(Circle(x, y, radius))
                cv2.circle(taken, (round(x), round(y)), round(radius * 1.05), 1, -1)
                continue
            if k >= 2:
                break
    return found


@dataclass(frozen=True, slots=True)
class _Place:
    """The pixels of one slot (flat indices into the field image) the silhouette test
    reads."""

    centre: tuple[float, float]
    sides: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]
    """The field's pixels in the disc, left and right of the point's middle."""
    on_point: npt.NDArray[np.intp]
    """The point's pixels in the disc."""
    ring: npt.NDArray[np.intp]
    """The field's pixels in the ring about the disc."""


@dataclass(frozen=True, slots=True)
class _Places:
    slots: tuple[tuple[_Place, ...], ...]
    """Per physical point, its slots 1, 2, ... (``SlotConfig.most`` less one)."""
    screen: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp],
                  npt.NDArray[np.intp]]
    """The disc's and the ring's field pixels of the first two slots of every point, one
    after another, and the slot each belongs to (for :func:`_screen`)."""
    centres: npt.NDArray[np.float64]
    """Every slot's centre, point by point (as ``slots``)."""
    both: dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]
    """``screen``'s discs and rings taken every ``k``-th pixel (the key) and put in one
    list, and the slot of each pixel, the rings' numbered after the discs'."""


@lru_cache(maxsize=8)
def _slot_pixels(profile: BoardProfile, width: int, height: int, radius: float,
                 config: SlotConfig) -> _Places:
    """The pixels of every point's slots past the first (see :func:`_silhouettes`)."""
    labels = surfaces(profile, width, height, round(config.silhouette_edge * radius), 0.96)
    disc_x, disc_y = _disc(radius, 0.0, config.silhouette_inner, 1)
    ring_x, ring_y = _disc(radius, *config.silhouette_ring, 2)
    step = config.spacing * radius

    def pixels(x: float, y: float, dx: npt.NDArray[np.int64], dy: npt.NDArray[np.int64]
               ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        xs = round(x) + dx
        ys = round(y) + dy
        inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
        xs, ys = xs[inside], ys[inside]
        return (ys * width + xs).astype(np.intp), labels[ys, xs], dx[inside]

    rows: list[tuple[_Place, ...]] = []
    for index in range(24):
        top = profile.is_top(index)
        x = profile.point_u(index) * width
        row = []
        for k in range(1, config.most):
            along = radius * (1.0 + config.gap) + k * step
            y = along if top else height - along
            disc, disc_labels, dx = pixels(x, y, disc_x, disc_y)
            ring, ring_labels, _ = pixels(x, y, ring_x, ring_y)
            field = disc_labels == 0
            row.append(_Place((x, y), (disc[field & (dx < 0)], disc[field & (dx >= 0)]),
                              disc[disc_labels > 0], ring[ring_labels == 0]))
        rows.append(tuple(row))
    first = [place for row in rows for place in row[:2]]
    discs = [np.concatenate(place.sides) for place in first]
    screen = (np.concatenate(discs),
              np.repeat(np.arange(len(first)), [len(d) for d in discs]).astype(np.intp),
              np.concatenate([place.ring for place in first]),
              np.repeat(np.arange(len(first)), [len(p.ring) for p in first]).astype(np.intp))
    disc, disc_slot, ring, ring_slot = screen
    both = {step: (np.concatenate([disc[::step], ring[::step]]),
                   np.concatenate([disc_slot[::step], ring_slot[::step] + len(first)]))
            for step in (1, 3)}
    return _Places(tuple(rows), screen,
                   np.array([place.centre for row in rows for place in row]), both)


@dataclass(frozen=True, slots=True)
class _Pixels:
    """The field's pixels, flat: grey, and BGR when colours are compared too."""

    grey: npt.NDArray[np.uint8]
    bgr: npt.NDArray[np.uint8] | None

    def chroma(self, index: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """Rows of Lab (a, b) at ``index`` (needs ``bgr``)."""
        if self.bgr is None or not len(index):
            return np.full((len(index), 2), 128.0)
        lab = cv2.cvtColor(self.bgr[index].reshape(-1, 1, 3), cv2.COLOR_BGR2LAB)
        return np.asarray(lab.reshape(-1, 3)[:, 1:], dtype=np.float64)


def _screen(pixels: _Pixels, taken: npt.NDArray[np.uint8], places: _Places,
            config: SlotConfig) -> list[list[bool]]:
    """Per point, whether each of its first two slots may hold a silhouette: the mean grey
    (or colour) of the disc's free field pixels and the ring's differ by at least half
    the contrast (the full test asks the medians for the whole contrast, on both sides);
    ``taken`` marks the pixels of the checkers found (flat, as the pixels)."""
    slots = 2 * len(places.slots)

    def means(index: npt.NDArray[np.intp], slot: npt.NDArray[np.intp], least: float,
              colour: bool) -> npt.NDArray[np.float64]:
        """Per slot (the discs' then the rings'): the mean grey, or the (a, b) of the mean
        colour (NaN for fewer than ``least`` free pixels)."""
        bins = 2 * slots
        use = (taken[index] == 0).astype(np.float64)
        count = np.bincount(slot, use, bins)
        enough = count >= least
        count = np.maximum(count, 1.0)
        if not colour:
            grey = np.bincount(slot, pixels.grey[index] * use, bins) / count
            return np.where(enough, grey, np.nan)[:, None]
        assert pixels.bgr is not None
        bgr = pixels.bgr[index]
        mean = np.column_stack([np.bincount(slot, bgr[:, c] * use, bins) / count
                                for c in range(3)]) / 255.0
        lab = cv2.cvtColor(mean.astype(np.float32).reshape(-1, 1, 3), cv2.COLOR_BGR2LAB)
        return np.where(enough[:, None], lab.reshape(-1, 3)[:, 1:], np.nan)

    def gap(colour: bool, step: int) -> npt.NDArray[np.float64]:
        # The discs' and the rings' pixels in one list, the rings' slots numbered on
        # after the discs': one gather and one count for both.
        index, slot = places.both[step]
        both = means(index, slot, config.silhouette_pixels / step, colour)
        diff = both[:slots] - both[slots:]
        distance = np.hypot(diff[:, 0], diff[:, 1]) if colour else np.abs(diff[:, 0])
        return np.where(np.isnan(distance), 0.0, distance)

    passed = gap(False, 1) >= config.silhouette_contrast / 2.0
    if pixels.bgr is not None:
        # Every third pixel: a mean colour needs few, and colours cost three channels.
        passed |= gap(True, 3) >= config.silhouette_chroma / 2.0
    return [list(passed[2 * i:2 * i + 2]) for i in range(len(places.slots))]


def _covered(pixels: _Pixels, taken: npt.NDArray[np.uint8], place: _Place,
             config: SlotConfig) -> bool:
    """Whether a checker covers the slot by its silhouette (see :func:`_silhouettes`);
    ``taken`` marks the pixels of the checkers found (flat, as the pixels).  Colours are
    only read where grey does not tell."""

    def free(index: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
        return np.asarray(index[taken[index] == 0], dtype=np.intp)

    ring, on_point = free(place.ring), free(place.on_point)
    if min(len(ring), len(on_point)) < config.silhouette_pixels:
        return False
    outside = float(np.median(pixels.grey[ring]))
    point = float(np.median(pixels.grey[on_point]))
    colours: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None = None
    for side in place.sides:
        # A checker straddles its point: the field on both sides shows it (a die, a third
        # of its size, lies on one side).
        field = free(side)
        if len(field) < config.silhouette_pixels:
            return False
        grey = pixels.grey[field].astype(np.float64)
        inside = float(np.median(grey))
        if abs(point - inside) > config.silhouette_same:
            return False
        if abs(inside - outside) >= config.silhouette_contrast and float(
                (np.abs(grey - outside) >= config.silhouette_contrast / 2.0).mean()
        ) >= config.silhouette_share:
            continue
        if pixels.bgr is None:
            return False
        if colours is None:
            colours = (np.median(pixels.chroma(ring), axis=0),
                       np.median(pixels.chroma(on_point), axis=0))
        chroma = pixels.chroma(field)
        mid = np.median(chroma, axis=0)
        if float(np.hypot(*(mid - colours[0]))) < config.silhouette_chroma \
                or float(np.hypot(*(mid - colours[1]))) > config.silhouette_chroma_same \
                or float((np.hypot(*(chroma - colours[0]).T)
                          >= config.silhouette_chroma / 2.0).mean()) < config.silhouette_share:
            return False
    return True


@lru_cache(maxsize=8)
def _disc(radius: float, inner: float, outer: float, step: int) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Pixel offsets between ``inner`` and ``outer`` radii (every ``step``-th pixel each
    way: plenty for the field's grey around a slot)."""
    reach = int(np.ceil(outer * radius))
    ys, xs = np.mgrid[-reach:reach + 1:step, -reach:reach + 1:step]
    d = np.hypot(xs, ys)
    ring = (d >= inner * radius) & (d <= outer * radius)
    return xs[ring].astype(np.int64), ys[ring].astype(np.int64)


def _places(circles: list[Circle], profile: BoardProfile, width: int, height: int,
            radius: float, top: bool, config: SlotConfig) -> Floats:
    """The slot centres along the points of one row (x, y in field pixels) not near a
    circle found already."""
    step = config.spacing * radius
    known = np.array([(c.x, c.y) for c in circles]) if circles else np.zeros((0, 2))
    rail = known[:, 1] if top else height - known[:, 1]
    xs = np.array([profile.point_u(i) * width for i in (range(12, 24) if top else range(12))])
    on_point = (np.abs(known[None, :, 0] - xs[:, None]) < radius) \
        & (rail[None, :] < 0.5 * height)
    slot = np.floor((rail - radius) / step + 0.5)
    farthest = np.where(on_point, slot[None, :], -1.0).max(axis=1, initial=-1.0)
    last = np.clip(farthest + config.beyond, 0, config.most - 1).astype(int)
    ks = np.arange(config.most)
    pick = ks[None, :] <= last[:, None]
    along = radius * (1.0 + config.gap) + ks * step
    px = np.broadcast_to(xs[:, None], pick.shape)[pick]
    py = np.broadcast_to((along if top else height - along)[None, :], pick.shape)[pick]
    places = np.column_stack([px, py])
    if config.outer_shift > 0.0:
        # The outermost points' slots once more, further out sideways (parallax): their
        # middle lines lie half a point's width from the field's side edges, the next
        # points' a width and a half.
        edge = profile.point_width * width
        outer = (px < edge) | (px > width - edge)
        side = np.where(px[outer] > 0.5 * width, 1.0, -1.0)
        places = np.vstack([places, np.column_stack(
            [px[outer] + side * config.outer_shift * radius, py[outer]])])
    if len(known):
        d2 = ((places[:, None, :] - known[None, :, :]) ** 2).sum(axis=2).min(axis=1)
        places = places[d2 >= (config.clear * radius) ** 2]
    return places


def _accepted(edges: EdgeMap, places: Floats, radius: float, detect: DetectConfig,
              config: SlotConfig) -> list[tuple[float, float]]:
    """The places (in the band's pixels) where a whole faint rim shows."""
    hit, seen = rim_evidence(edges, places[:, 0], places[:, 1], radius, detect.rim)
    promising = rim_scores(hit, seen, None, config.min_seen) >= config.promising
    centres = places[promising]
    if len(centres) == 0:
        return []
    search = replace(detect, edge_margin=config.rail_margin)
    for step in config.refine_steps:
        _, centres = refine(edges, centres, radius, None, search, step)
    hit, seen = rim_evidence(edges, centres[:, 0], centres[:, 1], radius, detect.rim)
    scores = rim_scores(hit, seen, None, config.min_seen)
    for i in np.flatnonzero((scores >= config.glare_score) & (scores < config.score)):
        if _clipped(edges.blurred, float(centres[i, 0]), float(centres[i, 1]), radius,
                    config):
            scores[i] = config.score
    out: list[tuple[float, float]] = []
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < config.score:
            break
        x, y = float(centres[i, 0]), float(centres[i, 1])
        if any(np.hypot(x - ox, y - oy) < config.clear * radius for ox, oy in out):
            continue
        out.append((x, y))
    return out


def _clipped(gray: npt.NDArray[np.uint8], x: float, y: float, radius: float,
             config: SlotConfig) -> bool:
    """Whether the disc of ``config.glare_inner`` radii about (x, y) is clipped white (see
    ``SlotConfig.glare_score``)."""
    height, width = gray.shape[:2]
    reach = config.glare_inner * radius
    x0, x1 = max(0, int(x - reach)), min(width, int(x + reach) + 2)
    y0, y1 = max(0, int(y - reach)), min(height, int(y + reach) + 2)
    if x0 >= x1 or y0 >= y1:
        return False
    yy, xx = np.ogrid[y0:y1, x0:x1]
    disc = (xx - x) ** 2 + (yy - y) ** 2 < reach ** 2
    values = gray[y0:y1, x0:x1][disc]
    return len(values) > 0 and float((values >= config.glare_level).mean()) \
        >= config.glare_share
