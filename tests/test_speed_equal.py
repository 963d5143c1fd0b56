"""Speed-ups that must not change a reading (issue 4): each faster path against a plain
reference of what it computes, on seeded random inputs."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.checkers.detect import Circle
from vision.checkers.rim import OUTSIDE, EdgeMap, RimConfig, rim_evidence
from vision.checkers.surface import UNUSED, SurfaceConfig, glare_lifts, surfaces
from vision.checkers.votes import VoteConfig, centre_votes
from vision.observation import Corners
from vision.occlusion import OcclusionConfig
from vision.occlusion.appearance import FieldAppearance
from vision.occlusion.single import Prepared, judge, occluded, skin_surfaces
from vision.profile import TOURNAMENT
from vision.rectify import FieldMap

WIDTH = 640


def _glare_reference(image: np.ndarray, circles: list[Circle], radius: float,
                     config: SurfaceConfig) -> list[float]:
    """glare_lifts as first written: the whole field masked, ring pixels tested one by one."""
    height, width = image.shape[:2]
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    labels = surfaces(TOURNAMENT, width, height, round(config.edge * radius),
                      config.point_base).copy()
    occupied = np.zeros((height, width), dtype=np.uint8)
    for c in circles:
        cv2.circle(occupied, (round(c.x), round(c.y)), round(c.radius * config.clearance), 1, -1)
    labels[occupied > 0] = UNUSED
    sub, grey = labels[::config.step, ::config.step], gray[::config.step, ::config.step]
    medians = []
    for k in range(int(sub.max()) + 1):
        values = np.sort(grey[sub == k])
        medians.append(float(values[(len(values) + 1) // 2 - (len(values) % 2 == 1)])
                       if len(values) >= config.min_pixels else math.nan)
    reach = int(np.ceil(config.outer * round(radius, 1)))
    lifts = []
    for c in circles:
        excess, clear = [], []
        for dy in range(-reach, reach + 1, 2):
            for dx in range(-reach, reach + 1, 2):
                d = math.hypot(dx, dy)
                if not config.inner * round(radius, 1) <= d <= config.outer * round(radius, 1):
                    continue
                x, y = round(c.x) + dx, round(c.y) + dy
                if not (0 <= x < width and 0 <= y < height) or labels[y, x] < 0:
                    continue
                median = medians[labels[y, x]]
                if math.isnan(median):
                    continue
                value = int(gray[y, x])
                excess.append(value - int(median))
                clear.append(value < config.saturated)
        if sum(clear) >= config.min_pixels:
            excess = [e for e, keep in zip(excess, clear, strict=True) if keep]
        lifts.append(max(float(np.median(excess)), 0.0) if len(excess) >= config.min_pixels
                     else 0.0)
    return lifts


def test_glare_lifts_match_a_plain_reference_with_circles_past_the_border() -> None:
    """The ring pixels looked up in padded images (off the field: on no surface) give the
    lifts a pixel-by-pixel reference gives, circles past every border of the field and
    surfaces with no median (too few pixels) included."""
    rng = np.random.default_rng(4)
    height = TOURNAMENT.rectified_size(WIDTH)[1]
    radius = 0.5 * TOURNAMENT.point_width * TOURNAMENT.checker_diameter * WIDTH
    config = SurfaceConfig()
    for _ in range(3):
        image = rng.integers(0, 256, (height, WIDTH, 3), dtype=np.uint8)
        image = cv2.GaussianBlur(image, (0, 0), 3.0)
        cv2.circle(image, (int(rng.integers(0, WIDTH)), int(rng.integers(0, height))), 120,
                   (255, 255, 255), -1)
        xs = np.concatenate([rng.uniform(-30, WIDTH + 30, 14), [-25.0, WIDTH + 12.0, 5.0]])
        ys = np.concatenate([rng.uniform(-30, height + 30, 14), [40.0, height - 3.0, -18.0]])
        circles = [Circle(float(x), float(y), radius) for x, y in zip(xs, ys, strict=True)]
        for c in circles:  # bright discs: the surfaces' medians must leave them out
            cv2.circle(image, (round(c.x), round(c.y)), round(radius), (250, 250, 250), -1)
        assert glare_lifts(image, circles, TOURNAMENT, radius, config) == _glare_reference(
            image, circles, radius, config)


def _prepared(rng: np.random.Generator, size: tuple[int, int]) -> Prepared:
    height, width = size
    outer = np.zeros(size, dtype=np.bool_)
    outer[5, :] = outer[-6, :] = outer[:, 5] = outer[:, -6] = True
    labels = rng.integers(0, 4, size, dtype=np.uint8)
    places = rng.integers(-1, 24, size, dtype=np.int8)
    layout = type("Layout", (), {})()
    layout.outer, layout.places = outer, places  # type: ignore[attr-defined]
    skin = rng.random(size) < 0.4
    return Prepared(np.zeros((height, width, 3), np.uint8), np.zeros((height, width, 3)),
                    labels, np.ones(size, np.bool_), np.zeros(size, np.bool_), 200.0,
                    np.zeros((height, width, 3), np.uint8), None, layout,  # type: ignore[arg-type]
                    skin)


def _regions_reference(prepared: Prepared, candidates: np.ndarray, config: OcclusionConfig,
                       appearance: FieldAppearance | None) -> list[tuple[object, ...]]:
    """Each region's box (rectified pixels), area, rail contact, skin share and score, one
    whole-field mask a region, as the verdict was first computed."""
    count, components = cv2.connectedComponents(candidates.view(np.uint8), connectivity=8)
    distance = cv2.distanceTransform(candidates.view(np.uint8), cv2.DIST_L2, 5)
    skin = prepared.skin.copy()
    if appearance is not None:
        skin &= ~skin_surfaces(appearance, config)[prepared.labels]
    radius = math.sqrt(prepared.checker_area / math.pi)
    out = []
    for index in range(1, count):
        region = components == index
        ys, xs = np.nonzero(region)
        area = float(region.sum()) / prepared.checker_area
        share = float(skin[region].sum() / region.sum())
        need = config.min_area
        if prepared.layout.outer[region].any():
            need = min(need, config.min_area_rail)
        if float(distance[region].max()) <= config.stack_radius * radius:
            need = config.min_area_stack
        if share >= config.skin_share:
            need = min(need, config.min_area_skin)
        out.append(((int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                     int(ys.max() - ys.min() + 1)), area,
                    bool(prepared.layout.outer[region].any()), share, area / need))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_occlusion_verdict_and_regions_match_a_per_region_reference(seed: int) -> None:
    """judge's per-label measures (and the verdict alone, ``occluded``) give what one mask
    a region gives: the same regions, scores and verdict; the background is never
    occluding.  Blobs of every kind: at the rail, checker-shaped, skin-coloured."""
    rng = np.random.default_rng(seed)
    size = (120, 160)
    prepared = _prepared(rng, size)
    candidates = np.zeros(size, dtype=np.uint8)
    for _ in range(int(rng.integers(1, 9))):
        centre = (int(rng.integers(0, size[1])), int(rng.integers(0, size[0])))
        if rng.random() < 0.5:
            cv2.circle(candidates, centre, int(rng.integers(2, 25)), 1, -1)
        else:
            cv2.rectangle(candidates, centre, (centre[0] + int(rng.integers(2, 60)),
                                               centre[1] + int(rng.integers(2, 12))), 1, -1)
    mask = candidates.view(np.bool_)
    config = replace(OcclusionConfig(), min_area=1.5, min_area_rail=0.8, min_area_stack=2.0,
                     min_area_skin=0.5)
    fmap = FieldMap.from_corners(Corners((0.0, 0.0), (160.0, 0.0), (160.0, 120.0),
                                         (0.0, 120.0)))
    skin_bar = FieldAppearance(((60.0, 128.0, 128.0),) * 4, ((90.0, 120.0, 200.0),) * 4)
    for appearance in (None, skin_bar):
        result = judge(prepared, mask, fmap, TOURNAMENT, config, appearance=appearance)
        reference = _regions_reference(prepared, mask, config, appearance)
        assert sorted((r.area, r.at_rail, r.skin, r.score) for r in result.regions) == sorted(
            (area, rail, skin, score) for _, area, rail, skin, score in reference)
        assert result.occluded is any(score >= 1.0 for *_, score in reference)
        assert occluded(prepared, mask, config, appearance=appearance) is result.occluded
        assert result.field_mask is not None and not (result.field_mask & ~mask).any()
        boxes = [box for box, *_ in reference]
        for region in result.regions:  # in image pixels: the field is the image here
            x, y, w, h = region.box
            assert any(max(abs(x - bx), abs(y - by), abs(x + w - bx - bw), abs(y + h - by - bh))
                       < 1e-6 for bx, by, bw, bh in boxes)
    assert occluded(prepared, np.zeros(size, np.bool_), config) is False


def test_lit_fit_with_the_pixels_measured_once_gives_the_same_fit() -> None:
    """lit measures each pixel's grey level and clipped channels once for the four
    surfaces; the fit given them is the fit that measures them itself, clipped pixels
    (one channel, all three) included."""
    from vision.occlusion.appearance import AppearanceConfig, _lit_fit

    rng = np.random.default_rng(7)
    config = AppearanceConfig()
    pixels = rng.uniform(0, 255, (500, 3)).astype(np.float32)
    pixels[:40, 0] = 255.0
    pixels[40:60] = 255.0
    measures = (pixels.mean(axis=1), pixels >= np.float32(config.lit_clip))
    for colour in ((200.0, 120.0, 40.0), (30.0, 30.0, 30.0), (90.0, 140.0, 210.0)):
        alone, given = _lit_fit(pixels, colour, config), _lit_fit(pixels, colour, config,
                                                                  measures)
        assert np.array_equal(alone[0], given[0]) and np.array_equal(alone[1], given[1])


def _edge_field(seed: int) -> np.ndarray:
    """A seeded grey field with discs and blobs, and down its left border a bright line in
    the second column: at the first column Canny's derivatives, taken with the border
    repeated, see an edge that the edge map's, taken with it mirrored, do not (when it is
    not blurred again)."""
    rng = np.random.default_rng(seed)
    gray = cv2.GaussianBlur(rng.integers(60, 200, (240, 320), dtype=np.uint8), (0, 0), 4.0)
    for _ in range(12):
        centre = (int(rng.integers(-10, 330)), int(rng.integers(-10, 250)))
        cv2.circle(gray, centre, int(rng.integers(8, 16)), int(rng.integers(0, 256)), -1)
    gray[:, :10] = 0
    gray[:, 1] = 200
    return gray


def _votes_reference(edges: EdgeMap, radius: float, config: VoteConfig) -> np.ndarray:
    """centre_votes as written before the votes were cast by pairs (both signs' cells
    made the same way from 64-bit points)."""
    thin = cv2.Canny(edges.blurred, 8.0 * config.gradient, 8.0 * config.gradient,
                     L2gradient=True)
    found = cv2.findNonZero(thin)
    points = (np.zeros((0, 2), dtype=np.int64) if found is None
              else np.asarray(found, dtype=np.int64).reshape(-1, 2))
    at = points[:, 1] * edges.width + points[:, 0]
    magnitude = edges.magnitude.ravel()[at]
    keep = magnitude > 0
    at, magnitude = at[keep], magnitude[keep]
    xs, ys = points[keep, 0], points[keep, 1]
    step = radius / magnitude
    ux = edges.gx.ravel()[at] * step
    uy = edges.gy.ravel()[at] * step
    cell = config.cell
    # the cell may be fractional since 104cfec (CheckerConfig.at_width); for whole cells
    # this is the (size + cell - 1) // cell the reference was written with
    rows = int(np.ceil(edges.height / cell))
    cols = int(np.ceil(edges.width / cell))
    margin = int(np.ceil(radius / cell)) + 2
    wide = cols + 2 * margin
    cells = []
    for sign in (1.0, -1.0):
        cx = ((xs + sign * ux) * (1.0 / cell) + 0.5).astype(np.int64) + margin
        cy = ((ys + sign * uy) * (1.0 / cell) + 0.5).astype(np.int64) + margin
        cells.append(cy * wide + cx)
    votes = np.bincount(np.concatenate(cells), minlength=(rows + 2 * margin) * wide)
    grid = votes[:(rows + 2 * margin) * wide].reshape(rows + 2 * margin, wide)[
        margin:margin + rows, margin:margin + cols]
    return np.asarray(cv2.GaussianBlur(grid.astype(np.float32), (0, 0), config.sigma))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_centre_votes_match_the_plain_casting_bit_for_bit(seed: int) -> None:
    """The votes cast from 32-bit points, both signs' cells computed in place, give the
    grid the plain casting gives, value for value (thin pixels with no gradient in the
    edge map, at the left border, left out as before)."""
    gray = _edge_field(seed)
    for radius in (9.0, 12.37):
        edges = EdgeMap.of(gray, radius, RimConfig(), blurred=True)
        thin = cv2.Canny(edges.blurred, 16.0, 16.0, L2gradient=True)
        assert (edges.magnitude[thin > 0] == 0).any()  # the border case is exercised
        for config in (VoteConfig(), VoteConfig(cell=3, sigma=1.5)):
            got, want = centre_votes(edges, radius, config), _votes_reference(edges, radius,
                                                                               config)
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_rim_evidence_matches_a_lookup_by_direction_and_code() -> None:
    """The rim evidence looked up by OpenCV (a table a direction) is the table indexed by
    direction and code, circles past every border (padding codes) and none at all
    included."""
    from vision.checkers.rim import _aligned, _offsets

    gray = _edge_field(5)
    edges = EdgeMap.of(gray, 12.0, RimConfig())
    rng = np.random.default_rng(11)
    xs = np.concatenate([rng.uniform(-5, edges.width + 5, 60), [0.0, edges.width - 1.0]])
    ys = np.concatenate([rng.uniform(-5, edges.height + 5, 60), [edges.height - 1.0, 0.0]])
    for config in (RimConfig(), RimConfig(alignment=0.8, samples=3)):
        hit, seen = rim_evidence(edges, xs, ys, 12.0, config)
        row = edges.codes.shape[1]
        offsets, middle = _offsets(12.0, config.inner, config.outer, config.samples, row)
        table = _aligned(config.alignment)
        cx = np.clip(np.rint(xs).astype(np.int64), -1, edges.width) + edges.pad
        cy = np.clip(np.rint(ys).astype(np.int64), -1, edges.height) + edges.pad
        codes = edges.codes.ravel()[(cy * row + cx)[:, None, None] + offsets[None]]
        want = table[np.arange(64)[None, None, :], codes].any(axis=1)
        assert hit.dtype == np.bool_ and np.array_equal(hit, want)
        assert np.array_equal(seen, codes[:, middle, :] != OUTSIDE)
        assert hit.any() and not hit.all()
    none = rim_evidence(edges, np.zeros(0), np.zeros(0), 12.0, RimConfig())
    assert none[0].shape == (0, 64) and none[1].shape == (0, 64)
