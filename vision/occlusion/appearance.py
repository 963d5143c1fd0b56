"""What an empty field looks like, learned from the image itself.

A backgammon field has only a few surfaces: the field colour, the two
alternating point colours and the bar.  Every board differs (cream and red
and black, green and white, wood), so nothing is hard-wired: the colour of
each surface is the median over the pixels the profile's geometry says
belong to it, with the detected checkers masked out.  Medians over whole
surfaces survive a hand that covers less than about half of one; a stream
learns the colours once from a clear frame and keeps them (see
:class:`~vision.occlusion.tracker.OcclusionTracker`).

A pixel is *explained* when it has the colour its surface should have, or,
within a few pixels of a border between surfaces, the colour of the
neighbour (the geometry is off by a pixel or two; the slivers of blended
colour left along edges are removed later by a morphological opening).
Whatever is left unexplained inside the field is a candidate hand, unless the
light explains it (:func:`lit`): a lamp's glare and strong shading move a
surface's colour further than any tolerance that still sees skin, but along
the lines the dichromatic reflection model allows (the surface's colour times
a gain, plus white), and a glare is continuous across the board's borders
where a hand is not.

Speed: everything that depends only on the board's geometry (the surface of
each pixel, the border bands, which surfaces may explain each pixel, which
point triangle each pixel belongs to) is computed once per profile and
image size (:func:`surface_geometry`, cached); the medians are read off
per-channel histograms of the 8-bit Lab image (exact, and a few bincounts
instead of sorting every surface's pixels); and the distances of every
pixel to the four colours come out of one matrix product per frame.
"""

import functools
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.profile import BoardProfile

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float32]

FIELD: Final = 0
POINT_A: Final = 1
"""The colour of the top-left point (physical point 12) and every second point from it."""
POINT_B: Final = 2
BAR: Final = 3
SURFACES: Final = 4


@dataclass(frozen=True, slots=True)
class AppearanceConfig:
    """Thresholds of the surface model (distances in weighted Lab units)."""

    lightness_weight: float = 0.5
    """Lab L is scaled by this before distances: shading and vignetting change lightness
    far more than hue, so lightness differences count half."""
    tolerance: float = 20.0
    """A pixel within this distance of its surface's colour is explained.  The surfaces of
    the real tournament board are 30 or more apart, skin and sleeves 25 or more from all."""
    edge_band: float = 0.005
    """Half-width of the band along surface borders where a neighbour's colour explains a
    pixel, as a fraction of the field width (2 px at 400 px).  No blends of two colours:
    skin and pink sleeves *are* blends of cream and red, and a wider band or blends
    explained away most of a motion-blurred hand on the real frames."""
    min_pixels: int = 40
    """A point triangle needs this many visible pixels to vote for its class colour."""
    lit_gain: tuple[float, float] = (0.5, 1.6)
    """A pixel the Lab test leaves over is still a surface when it is the surface's colour
    (BGR) times a gain in this range plus white (the dichromatic model: body reflection
    dimmed or brightened by shading, vignetting and the exposure, plus the lamp's specular
    reflection, which has the light's colour, grey after white balance).  Below 0.5 a
    dark sleeve would pass for a shadowed light surface."""
    lit_white: float = 170.0
    """Most grey levels (0-255) a glare may add."""
    lit_glare_gain: float = 0.8
    """Least gain where there is glare: glare is the lamp's mirror image, so the surface
    under it is in the lamp's full light, never in a shadow (a shadow hides the glare
    too).  Without this, pale skin passes for a shaded brown or red surface washed out
    by a strong glare."""
    lit_glare_jump: float = 30.0
    """Largest step (grey levels) between the glare a patch of washed-out pixels needs
    along its rim and the glare of the explained surface around it: a lamp's glare is
    continuous (it rises over a few pixels at the steepest), a hand's edge is a step."""
    lit_noise: float = 8.0
    """Noise and texture in a pixel's chroma (BGR levels), for how well a surface's
    colour fixes the light on it (see ``_telling``)."""
    lit_ring_pixels: int = 8
    """Explained pixels around a washed-out patch needed to vouch for its glare."""
    lit_clip: int = 250
    """A pixel with a channel this bright is clipped: it tells nothing about the glare."""
    lit_glare_ramp: float = 30.0
    """Grey levels of glare over which the least gain rises from the lower end of
    ``lit_gain`` to ``lit_glare_gain`` (a faint glare may lie in a penumbra)."""
    lit_tolerance: float = 16.0
    """Euclidean BGR distance (0-255 per channel) from the nearest lit surface colour
    that still counts as that surface: noise, JPEG and texture.  Skin is 20 or more from
    every lit board colour measured except a dark skin over a brown wood, which is what
    the Lab test allows too."""


@dataclass(frozen=True, slots=True)
class FieldAppearance:
    """The weighted-Lab colour of each surface: field, point class A, point class B, bar."""

    colours: tuple[tuple[float, float, float], ...]
    bgr: tuple[tuple[float, float, float], ...] = ()
    """The same colours in BGR (0-255), for the dichromatic test (:func:`lit`); empty:
    computed from ``colours`` with ``lightness_weight`` 0.5."""

    def __post_init__(self) -> None:
        if len(self.colours) != SURFACES:
            raise VisionError(f"a field appearance has {SURFACES} colours, "
                              f"not {len(self.colours)}")
        if self.bgr and len(self.bgr) != SURFACES:
            raise VisionError(f"a field appearance has {SURFACES} BGR colours, "
                              f"not {len(self.bgr)}")


def surface_labels(profile: BoardProfile, size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """The surface of every pixel of a rectified field image of ``size`` (width, height).

    Points alternate in colour along a row, and the point opposite has the other
    colour, so class A holds top column ``k`` for even ``k`` and bottom column ``k``
    for odd ``k`` (columns counted from the left).
    """
    return _surfaces(profile, size)[0].copy()


def _surfaces(profile: BoardProfile,
              size: tuple[int, int]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int16]]:
    """The surface labels and the triangle map (0-23, -1 off the points), drawn together so
    they agree pixel for pixel."""
    width, height = size
    labels = np.zeros((height, width), dtype=np.uint8)
    triangles = np.full((height, width), -1, dtype=np.int16)
    left_end, right_start = profile.bar_span
    labels[:, round(left_end * width):round(right_start * width)] = BAR
    pw = profile.point_width
    for row in (0, 1):
        for k in range(12):
            u0 = k * pw if k < 6 else right_start + (k - 6) * pw
            uc = u0 + pw / 2.0
            base = float(row)
            tip = profile.point_length if row == 0 else 1.0 - profile.point_length
            triangle = np.array([(u0 * width, base * height), ((u0 + pw) * width, base * height),
                                 (uc * width, tip * height)], dtype=np.float64)
            surface = POINT_A if (k + row) % 2 == 0 else POINT_B
            polygon = [np.round(triangle * 16).astype(np.int32)]
            cv2.fillPoly(labels, polygon, surface, cv2.LINE_8, 4)
            cv2.fillPoly(triangles, polygon, 12 * row + k, cv2.LINE_8, 4)
    return labels, triangles


@dataclass(frozen=True)
class SurfaceGeometry:
    """Everything about a rectified field's surfaces that does not change between frames."""

    labels: npt.NDArray[np.uint8]
    """The surface of every pixel (:func:`surface_labels`)."""
    band: Mask
    """Pixels within ``edge_band`` of a border between surfaces."""
    allowed: npt.NDArray[np.uint8]
    """H x W x 4, 1 where a surface's colour explains the pixel: its own surface, and at a
    border the neighbours' too."""
    groups: npt.NDArray[np.intp]
    """The colour group of every pixel: 0 field, 1 bar, 2 + t for point triangle t."""


GROUPS: Final = 26
"""Colour groups: the field, the bar and the 24 point triangles."""


@functools.lru_cache(maxsize=16)
def surface_geometry(profile: BoardProfile, size: tuple[int, int],
                     config: AppearanceConfig) -> SurfaceGeometry:
    """The geometry of a rectified field of ``size`` (width, height), cached: the caller
    must not write into its arrays."""
    labels, triangles = _surfaces(profile, size)
    band, k = _band(labels, config)
    kernel = np.ones((k, k), dtype=np.uint8)
    allowed = np.zeros((*labels.shape, SURFACES), dtype=np.uint8)
    for s in range(SURFACES):
        near = np.asarray(cv2.dilate((labels == s).astype(np.uint8), kernel) > 0)
        allowed[..., s] = (labels == s) | (band & near)
    groups = np.where(labels == BAR, 1, 0).astype(np.intp)
    groups[triangles >= 0] = 2 + triangles[triangles >= 0]
    geometry = SurfaceGeometry(labels, band, allowed, groups)
    for array in (labels, band, allowed, groups):
        array.flags.writeable = False
    return geometry


def lab8(field: Image) -> Image:
    """The rectified field in 8-bit Lab (OpenCV's scaling: L 0-255, a and b offset by 128)."""
    return np.asarray(cv2.cvtColor(field, cv2.COLOR_BGR2LAB), dtype=np.uint8)


def weighted_lab(field: Image, config: AppearanceConfig) -> Floats:
    """The rectified field in Lab, lightness scaled by ``config.lightness_weight``."""
    return weighted(lab8(field), config)


def weighted(lab: Image, config: AppearanceConfig) -> Floats:
    """8-bit Lab as floats with lightness scaled by ``config.lightness_weight``."""
    out = lab.astype(np.float32)
    out[..., 0] *= config.lightness_weight
    return out


def _band(labels: npt.NDArray[np.uint8], config: AppearanceConfig) -> tuple[Mask, int]:
    """Pixels near a border between surfaces, and the band's kernel size."""
    k = max(3, 2 * round(config.edge_band * labels.shape[1]) + 1)
    kernel = np.ones((k, k), dtype=np.uint8)
    grown = cv2.dilate(labels, kernel)
    shrunk = cv2.erode(labels, kernel)
    return np.asarray(grown != shrunk), k


def learn_appearance(lab: Image, geometry: SurfaceGeometry, ignore: Mask,
                     config: AppearanceConfig | None = None) -> FieldAppearance:
    """Surface colours from one frame (8-bit Lab); ``ignore`` marks checkers and anything
    else to skip.

    The field and the bar are the medians of their pixels off the border bands.  Point
    colours are the median over triangles of each triangle's median, so one triangle
    covered by a hand moves its class colour little; a triangle votes when at least
    ``min_pixels`` of it are usable.
    """
    config = config or AppearanceConfig()
    usable = ~geometry.band & ~ignore
    medians, counts = _group_medians(lab, np.where(usable, geometry.groups, GROUPS), GROUPS)
    colours: list[tuple[float, float, float] | None] = [None] * SURFACES
    for surface, group in ((FIELD, 0), (BAR, 1)):
        if counts[group] > 0:
            colours[surface] = _weighted(medians[group], config)
    for surface, parity in ((POINT_A, 0), (POINT_B, 1)):
        votes = [medians[2 + t] for t in range(24)
                 if (t // 12 + t % 12) % 2 == parity and counts[2 + t] >= config.min_pixels]
        if votes:
            colours[surface] = _weighted(np.median(np.array(votes), axis=0), config)
    missing = [s for s in range(SURFACES) if colours[s] is None]
    if missing:  # a surface hidden entirely: the median of all its pixels, hidden or not
        every, every_count = _group_medians(lab, geometry.labels.astype(np.intp), SURFACES)
        for s in missing:
            if every_count[s] == 0:
                raise VisionError(f"surface {s} has no pixels in the rectified field")
            colours[s] = _weighted(every[s], config)
    found = tuple(c for c in colours if c is not None)
    return FieldAppearance(found, _to_bgr(found, config))


def appearance_bgr(appearance: FieldAppearance) -> tuple[tuple[float, float, float], ...]:
    """The surface colours in BGR (an appearance built without them: lightness weight 0.5
    assumed)."""
    return appearance.bgr or _to_bgr(appearance.colours, AppearanceConfig())


def _to_bgr(colours: tuple[tuple[float, float, float], ...],
            config: AppearanceConfig) -> tuple[tuple[float, float, float], ...]:
    """Weighted-Lab colours back in BGR."""
    lab = np.array(colours, dtype=np.float64).reshape(1, -1, 3)
    lab[..., 0] /= config.lightness_weight
    bgr = cv2.cvtColor(np.clip(np.rint(lab), 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    return tuple((float(b), float(g), float(r)) for b, g, r in bgr.reshape(-1, 3))


def _weighted(median: npt.NDArray[np.float64],
              config: AppearanceConfig) -> tuple[float, float, float]:
    return (float(median[0]) * config.lightness_weight, float(median[1]), float(median[2]))


def _group_medians(lab: Image, groups: npt.NDArray[np.intp],
                   count: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Per-channel medians of the pixels of each group 0..count-1 (pixels of group
    ``count`` and above are left out), as :func:`numpy.median` gives them (the mean of
    the two middle values for an even number), from 256-bin histograms."""
    base = groups.ravel() * 256
    histograms = np.stack([np.bincount(base + lab[..., channel].ravel(),
                                       minlength=(count + 1) * 256)[:count * 256]
                           for channel in range(3)])
    cumulative = histograms.reshape(3, count, 256).cumsum(axis=2)
    sizes = cumulative[0, :, -1]
    low = np.count_nonzero(cumulative <= ((sizes - 1) // 2)[None, :, None], axis=2)
    high = np.count_nonzero(cumulative <= (sizes // 2)[None, :, None], axis=2)
    return ((low + high) / 2.0).T, sizes


def explained(lab: Floats, geometry: SurfaceGeometry, appearance: FieldAppearance,
              config: AppearanceConfig | None = None) -> Mask:
    """Pixels (weighted Lab) whose colour their surface, or at a border a neighbour's,
    explains.

    The squared distance to each colour c is |x|^2 - 2 x.c + |c|^2: one product of the
    image with a 4x4 matrix gives the last two terms for all four colours at once.
    """
    config = config or AppearanceConfig()
    colours = np.array(appearance.colours, dtype=np.float32)
    affine = np.hstack([-2.0 * colours, (colours**2).sum(axis=1, keepdims=True)])
    cross = np.asarray(cv2.transform(lab, affine.astype(np.float32)), dtype=np.float32)
    norm = np.asarray(cv2.transform(lab * lab, np.ones((1, 3), np.float32)), dtype=np.float32)
    limit = np.float32(config.tolerance**2) - norm
    within = cross <= limit[..., None]
    hit = np.bitwise_and(within.view(np.uint8), geometry.allowed, out=within.view(np.uint8))
    return np.asarray(hit.view(np.uint32)[..., 0] != 0)


def lit(field: Image, candidates: Mask, known: Mask, geometry: SurfaceGeometry,
        appearance: FieldAppearance, config: AppearanceConfig | None = None) -> Mask:
    """Which ``candidates`` (pixels the Lab test left over) are a surface under uneven light.

    The dichromatic reflection model: a surface of colour c lit unevenly shows
    k c + g (1, 1, 1), k the shading (``lit_gain``) and g the specular glare
    (0..``lit_white``).  A pixel within ``lit_tolerance`` of that for one of its allowed
    surfaces may be explained.  A lamp's glare adds white and so washes colours out:
    glare on a blue or a brown field is far from the field's colour in Lab but exactly on
    this model, while skin of a hue of its own, or more saturated than the surface,
    stays off it.

    Colour alone cannot tell pale skin from a dark brown point washed out by a strong
    glare.  What can is that a glare is the same light added to every surface beneath it:
    its g is continuous across the board's own colour borders.  So each connected patch
    of such pixels (of one surface) is kept only if its g along its rim is close to the
    g of the ``known`` pixels (the surfaces the Lab test explained) just around it
    (:func:`_glare_continuous`): a hand over dark points needs far more "glare" than the
    field beside it, under the same hand or not.  Only the candidates and the pixels
    around them are fitted, so a clear frame pays for few pixels.
    """
    config = config or AppearanceConfig()
    out = np.zeros(candidates.shape, dtype=np.bool_)
    at = np.flatnonzero(candidates)
    if len(at) == 0:
        return out
    bgr = appearance_bgr(appearance)
    pixels = field.reshape(-1, 3)[at].astype(np.float32)
    allowed = geometry.allowed.reshape(-1, SURFACES)[at]
    best = np.full(len(at), np.inf, dtype=np.float32)
    glare = np.zeros(len(at), dtype=np.float32)
    which = np.zeros(len(at), dtype=np.int8)
    # the grey level and the clipped channels of each pixel, the same for every surface
    measures = (pixels.mean(axis=1), pixels >= np.float32(config.lit_clip))
    for s in range(SURFACES):
        residual, g = _lit_fit(pixels, bgr[s], config, measures)
        better = (allowed[:, s] > 0) & (residual < best)
        best[better] = residual[better]
        glare[better] = g[better]
        which[better] = s
    fit = best <= np.float32(config.lit_tolerance**2)
    if not fit.any():
        return out
    at, pixels, glare, which = at[fit], pixels[fit], glare[fit], which[fit]
    telling = _telling(bgr, config)
    # A rim pixel vouches for its patch's glare only on a telling surface, unclipped.
    usable = telling[which] & (pixels.min(axis=1) < config.lit_clip)
    fitted = np.full(candidates.shape, -1, dtype=np.int8)
    fitted.reshape(-1)[at] = which
    glare_map = np.zeros(candidates.shape, dtype=np.float32)
    glare_map.reshape(-1)[at] = glare
    vouching = np.zeros(candidates.shape, dtype=np.bool_)
    vouching.reshape(-1)[at[usable]] = True
    ring = known & telling[geometry.labels]
    keep = _glare_continuous(field, fitted, vouching, glare_map, ring, geometry, bgr,
                             config)
    out.reshape(-1)[at] = keep.reshape(-1)[at]
    return out


def _lit_fit(pixels: Floats, colour: tuple[float, float, float],
             config: AppearanceConfig,
             measures: tuple[Floats, npt.NDArray[np.bool_]] | None = None
             ) -> tuple[Floats, Floats]:
    """Squared distance of each BGR pixel (N x 3) to the lit surface ``colour``, and the
    glare g of the best fit.

    Grey level and chroma split the fit: white moves only the grey level, so the
    chroma alone fixes k (clamped to ``lit_gain``, and to ``lit_glare_gain`` and above
    under glare), then the grey level fixes g (clamped).  A channel at the sensor's
    ceiling (``lit_clip``) only says the light was at least that much: it counts
    against the fit only when the model falls short of it, and the fit comes from the
    other channels (a white-out, every channel clipped, fits any surface that the
    strongest light can lift to the ceiling).  ``measures``: each pixel's grey level (the
    mean of its channels) and which channels are at the ceiling, when already at hand
    (they do not depend on the surface).
    """
    k_lo, k_hi = config.lit_gain
    c = np.array(colour, dtype=np.float32)
    c_grey = float(c.mean())
    chroma = c - np.float32(c_grey)
    chroma_norm = float(chroma @ chroma)
    grey, clipped = measures or (pixels.mean(axis=1), pixels >= np.float32(config.lit_clip))
    if chroma_norm > 1e-6:
        k = np.clip(((pixels - grey[:, None]) @ chroma) / np.float32(chroma_norm), k_lo, k_hi)
    else:
        k = np.clip(grey / np.float32(max(c_grey, 1.0)), k_lo, k_hi)
    g = np.clip(grey - k * np.float32(c_grey), 0.0, config.lit_white)
    ramp = np.float32(max(config.lit_glare_ramp, 1e-3))
    k = np.maximum(k, k_lo + (config.lit_glare_gain - k_lo) * np.minimum(g / ramp, 1.0))
    g = np.clip(grey - k * np.float32(c_grey), 0.0, config.lit_white)
    some = clipped.any(axis=1)
    if some.any():
        open_ = ~clipped[some]
        n_open = open_.sum(axis=1)
        k_c = np.where(n_open > 0, np.float32(np.clip(1.0, max(k_lo, config.lit_glare_gain),
                                                      k_hi)), np.float32(k_hi))
        lift = ((pixels[some] - k_c[:, None] * c[None, :]) * open_).sum(axis=1)
        g_c = np.where(n_open > 0, lift / np.maximum(n_open, 1), np.float32(config.lit_white))
        k[some] = k_c
        g[some] = np.clip(g_c, 0.0, config.lit_white)
    residual = pixels - k[:, None] * c[None, :] - g[:, None]
    np.maximum(residual, 0.0, out=residual, where=clipped)
    return np.einsum("ij,ij->i", residual, residual), g


@functools.lru_cache(maxsize=64)
def _telling(bgr: tuple[tuple[float, float, float], ...],
             config: AppearanceConfig) -> npt.NDArray[np.bool_]:
    """Which surfaces tell the glare over them to within ``lit_glare_jump``.

    On a grey surface light and glare are the same thing (k c + g is grey either way),
    so its g is known only to the range of k times its grey level; on a coloured
    surface the chroma fixes k to about ``lit_noise`` over the chroma's length.  A white
    point says nothing about the glare on it; a blue field or a black point does.
    """
    k_lo, k_hi = config.lit_gain
    spread = k_hi - max(k_lo, config.lit_glare_gain)
    out = np.zeros(SURFACES, dtype=np.bool_)
    for s, colour in enumerate(bgr):
        c = np.array(colour, dtype=np.float64)
        chroma = float(np.linalg.norm(c - c.mean()))
        doubt = spread * float(c.mean())
        if chroma > 1e-6:
            doubt = min(doubt, config.lit_noise * float(c.mean()) / chroma)
        out[s] = doubt <= config.lit_glare_jump
    out.flags.writeable = False  # kept per colours and config (lit asks twice a frame)
    return out


def _glare_continuous(field: Image, fitted: npt.NDArray[np.int8], vouching: Mask,
                      glare: Floats, ring: Mask, geometry: SurfaceGeometry,
                      bgr: tuple[tuple[float, float, float], ...],
                      config: AppearanceConfig) -> Mask:
    """The patches of pixels fitted as a lit surface (``fitted``: the surface, -1 for
    none; a patch is a connected run of one surface) whose glare along their rim matches
    the glare of the explained surfaces just outside them.  Patches of one surface each:
    a hand washed out like the field where it is over the field and like a dark point
    where it is over a dark point needs two glares, one beside the other.

    ``vouching``: the fitted pixels whose glare is known (a telling surface, not every
    channel clipped); ``ring``: the explained pixels that may be compared (a telling
    surface).  Only neighbours are compared, a vouching pixel of a patch with the ring
    pixels next to it, since a glare rises across a patch.  Pixels with every channel at
    the sensor's ceiling say nothing (clipping hides how much light was added; with one
    or two channels clipped the others tell it).  A patch without enough known pixels on
    both sides is not explained: nothing vouches for its glare.  Patches of a surface
    that does not tell its glare (cream, white, grey: light and glare are one there)
    are kept without a check: the model lets them only brighten and wash out, which a
    hand does not do to them.
    """
    components = np.zeros(fitted.shape, dtype=np.int32)
    count = 1
    surfaces = [0]
    for s in range(SURFACES):
        n, part = cv2.connectedComponents((fitted == s).view(np.uint8), connectivity=8,
                                          ltype=cv2.CV_32S)
        if n > 1:
            np.add(components, part, out=components, where=part > 0)
            components[part > 0] += count - 1
            count += n - 1
            surfaces += [s] * (n - 1)
    patch_surface = np.array(surfaces, dtype=np.intp)
    telling = _telling(bgr, config)
    kernel = np.ones((3, 3), dtype=np.uint8)
    grown = np.asarray(cv2.dilate(components.astype(np.float32), kernel))
    ring_at = np.flatnonzero(ring & (grown > 0))
    ring_pixels = field.reshape(-1, 3)[ring_at]
    unclipped = ring_pixels.min(axis=1) < config.lit_clip
    ring_at, ring_pixels = ring_at[unclipped], ring_pixels[unclipped].astype(np.float32)
    near_ring = np.zeros(fitted.shape, dtype=np.bool_)
    near_ring.reshape(-1)[ring_at] = True
    rim = vouching & np.asarray(cv2.dilate(near_ring.view(np.uint8), kernel), dtype=np.bool_)
    near_rim = np.asarray(cv2.dilate(rim.view(np.uint8), kernel), dtype=np.bool_)
    paired = near_rim.reshape(-1)[ring_at]
    ring_at, ring_pixels = ring_at[paired], ring_pixels[paired]
    ring_glare = np.zeros(len(ring_at), dtype=np.float32)
    ring_surface = geometry.labels.reshape(-1)[ring_at]
    for s in range(SURFACES):
        own = ring_surface == s
        if own.any():
            ring_glare[own] = _lit_fit(ring_pixels[own], bgr[s], config)[1]
    ring_label = grown.reshape(-1)[ring_at].astype(np.intp)
    ring_n = np.bincount(ring_label, minlength=count)
    ring_sum = np.bincount(ring_label, weights=ring_glare, minlength=count)
    rim_label = components[rim].astype(np.intp)
    rim_n = np.bincount(rim_label, minlength=count)
    rim_sum = np.bincount(rim_label, weights=glare[rim], minlength=count)
    inside = rim_sum / np.maximum(rim_n, 1)
    outside = ring_sum / np.maximum(ring_n, 1)
    keep = ((ring_n >= config.lit_ring_pixels) & (rim_n >= config.lit_ring_pixels)
            & (inside - outside <= config.lit_glare_jump))
    keep[1:] |= ~telling[patch_surface[1:]]
    keep[0] = False
    return np.asarray(keep[components])
